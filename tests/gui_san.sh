#!/usr/bin/env bash
# The window's command-line tests again, against the binary built with
# AddressSanitizer and UndefinedBehaviorSanitizer (a report makes padlab exit
# 99). Under Xvfb, SDL loads the X11 client libraries with dlopen and unloads
# them at SDL_Quit, so LeakSanitizer cannot even name the module of a leak
# inside them (nor those of D-Bus, which its X11 probe loads even when no
# X server answers): those runs keep every ASan and UBSan check but the leak
# check; the screenshots and exports run with leak checking on.
export PADLAB_XVFB_ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"
PADLAB=${PADLAB_SAN:?} exec bash "${PADLAB_TESTS:-$(dirname "$0")}/gui.sh"
