/* The views: each draws the lab's results for one view into a pane. A view
 * draws results that already exist; it never computes one (the lab's worker
 * does, and the pane says when what it shows is out of date). */
#ifndef PL_TUI_VIEWS_H
#define PL_TUI_VIEWS_H

#include "app/lab/lab.h"
#include "draw.h"

typedef void (*TuiViewFn)(PlLab *lab, TuiPane *p);

/* Draws view v into the pane; the pane's scroll is clamped to its content. */
void tui_view_draw(PlLab *lab, PlView v, TuiPane *p);
/* A short name for tabs on narrow screens. */
const char *tui_view_short(PlView v);

void tui_view_batch(PlLab *lab, TuiPane *p);
void tui_view_masks(PlLab *lab, TuiPane *p);
void tui_view_cost(PlLab *lab, TuiPane *p);
void tui_view_attention(PlLab *lab, TuiPane *p);
void tui_view_rnn(PlLab *lab, TuiPane *p);
void tui_view_pooling(PlLab *lab, TuiPane *p);
void tui_view_loss(PlLab *lab, TuiPane *p);
void tui_view_layers(PlLab *lab, TuiPane *p);
void tui_view_generate(PlLab *lab, TuiPane *p);
void tui_view_train(PlLab *lab, TuiPane *p);

#endif
