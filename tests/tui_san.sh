#!/usr/bin/env bash
# The terminal tests again, against the binary built with AddressSanitizer
# and UndefinedBehaviorSanitizer (a report makes padlab exit 99, which the
# "quits with status 0" checks catch).
PADLAB=${PADLAB_SAN:?} exec bash "${PADLAB_TESTS:-$(dirname "$0")}/tui.sh"
