#!/usr/bin/env bash
# The window's command-line tests again, against the binary built with
# AddressSanitizer and UndefinedBehaviorSanitizer. Leaks inside the X11 and
# GL client libraries, which the window does not own, are suppressed.
export LSAN_OPTIONS="suppressions=${PADLAB_TESTS:-$(dirname "$0")}/lsan.supp:print_suppressions=0"
PADLAB=${PADLAB_SAN:?} exec bash "${PADLAB_TESTS:-$(dirname "$0")}/gui.sh"
