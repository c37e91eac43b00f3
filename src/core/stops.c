/* The signals that ask padlab to end (stops.h). */
#include "stops.h"

#include <string.h>

static const int stops[PL_STOP_SIGNALS] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

void pl_stops_catch(void (*handler)(int), struct sigaction *old) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < PL_STOP_SIGNALS; i++) sigaction(stops[i], &sa, old ? &old[i] : NULL);
}

void pl_stops_release(const struct sigaction *old) {
    for (int i = 0; i < PL_STOP_SIGNALS; i++) sigaction(stops[i], &old[i], NULL);
}

void pl_stops_default(void) {
    for (int i = 0; i < PL_STOP_SIGNALS; i++) signal(stops[i], SIG_DFL);
}
