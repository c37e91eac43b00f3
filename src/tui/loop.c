/* The terminal's main loop (see loop.h). */
#include "loop.h"

#include <curses.h>

#include "app/lab/worker.h"
#include "screen.h"

void tui_loop_run(const TuiLoop *l) {
    int dirty = 1, pending = 0; /* pending: a change not drawn yet, kept until the throttle lets it through */
    double last_draw = 0.0;
    while (!tui_screen_should_quit()) {
        double now = pl_app_clock();
        pending |= l->tick(l->self, now);
        if (pending && now - last_draw > 0.1) dirty = 1;
        if (l->due(l->self, now, last_draw)) dirty = 1;
        if (dirty) {
            l->draw(l->self, now);
            dirty = pending = 0;
            last_draw = now;
        }
        int ch = getch();
        if (ch == ERR) {
            tui_screen_check_input();
            continue;
        }
        if (ch == KEY_RESIZE) {
            clear();
            dirty = 1;
            continue;
        }
        if (l->key(l->self, ch, pl_app_clock())) break;
        dirty = 1;
    }
}
