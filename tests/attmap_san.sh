#!/usr/bin/env bash
# The attention map's agreement checks again, against the binary built with
# AddressSanitizer and UndefinedBehaviorSanitizer.
PADLAB=${PADLAB_SAN:?} exec bash "${PADLAB_TESTS:-$(dirname "$0")}/attmap.sh"
