/* The views: each draws one result of the lab into a box of the screen. */
#ifndef PL_TUI_VIEWS_H
#define PL_TUI_VIEWS_H

#include "app/lab.h"

typedef struct {
    int y, x, h, w;
} TuiBox;

/* Draws view v of the lab into box b. *scroll is how many rows of the view's
 * long list (the runs table, the layers) are scrolled past; the view clamps it. */
void tui_view_draw(PlLab *lab, PlView v, TuiBox b, int *scroll);

/* Text at (y, x) clipped to w columns, in printf style. */
void tui_put(int y, int x, int w, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
