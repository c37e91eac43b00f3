#!/usr/bin/env bash
# The registry round trips again, against the binary built with the sanitizers.
PADLAB=${PADLAB_SAN:?} exec bash "${PADLAB_TESTS:-$(dirname "$0")}/settings.sh"
