#!/usr/bin/env bash
# The class session on loopback again, against the binary built with
# AddressSanitizer and UndefinedBehaviorSanitizer.
PADLAB=${PADLAB_SAN:?} exec bash "${PADLAB_TESTS:-$(dirname "$0")}/class.sh"
