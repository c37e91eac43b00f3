/* The drill screen's text: the page the app layer makes of the item
 * (app/drill_play.h, the same as the window's), as lines coloured by role,
 * and the key bar. */
#include <stdio.h>
#include <string.h>

#include "drill_ui.h"

void tui_drill_lay_out(TuiDrill *u, int w, double now) {
    static PlPage page; /* one page is laid out at a time; too big for the stack */
    u->play.ascii = tui_screen_options()->ascii;
    pl_drill_play_page(&u->play, now, &page);
    tui_lines_page(u->lines, &page, w, PL_PART_NONE);
}

/* ---- the key bar ---- */

/* A key bar's text, and the same when the progress cannot be written. */
#define KEPT(text) \
    { " " text " (progress is kept) ", " " text " (progress NOT saved) " }
#define SAME(text) \
    { " " text " ", " " text " " }

static const char *const keys[PL_DECK_KINDS][3][2] = {
    [PL_DECK_CARDS] = {KEPT("space show the answer   up/down scroll   q quit"),
                       SAME("1 again  2 hard  3 good  4 easy   up/down scroll   q quit"),
                       {"", ""}},
    [PL_DECK_QUESTIONS] = {KEPT("a-f answer   up/down scroll   q quit"),
                           SAME("space next question   up/down scroll   q quit"),
                           {"", ""}},
    [PL_DECK_BUGS] = {SAME("a-f the cause   1-0 views  j/k scroll view  z zoom   up/down scroll   q quit"),
                      SAME("f apply the fix   space next case   1-0 views  z zoom   q quit"),
                      SAME("space next case   1-0 views  j/k scroll view  z zoom   up/down scroll   q quit")},
    [PL_DECK_MINUTE] = {KEPT("space show the model answer   up/down scroll   q quit"),
                        SAME("1 again  2 hard  3 good  4 easy   up/down scroll   q quit"),
                        {"", ""}},
};

const char *tui_drill_keys(const TuiDrill *u) {
    if (!u->play.drill) return " up/down choose a deck   Enter open it   q quit ";
    const PlDrillState *s = pl_drill_state(u->play.drill);
    if (s->phase == PL_DRILL_END) return " Enter another deck   q quit ";
    int lost = u->play.unsaved[0] != '\0';
    return keys[u->play.deck->kind][s->phase == PL_DRILL_FRONT ? 0 : s->phase == PL_DRILL_BACK ? 1 : 2][lost];
}
