/* The figures: each view of the lab as plots on the display list, laid out
 * from the result structs the lab's worker computed (the same ones the
 * terminal draws and the commands print). A figure never computes a
 * number; when its result is not there yet it says so. */
#ifndef PL_GUI_FIGURES_H
#define PL_GUI_FIGURES_H

#include "app/lab/lab.h"
#include "plot.h"

/* Lays out view v into r. Returns 1 when what it shows is current, 0 while
 * a result is missing or stale. */
int gui_figure(GuiList *dl, PlLab *lab, PlView v, GuiRect r);

/* ---- what the figure files share (figures.c) ---- */

/* The view's title, its source line and the look-at line; then, when the
 * result is missing, "computing..." or the error. Returns the area left
 * under the header, or a zero-height rect when there is nothing to draw. */
GuiRect gui_fig_header(GuiList *dl, GuiRect r, const char *title, const char *source, const char *look,
                       const PlResultStatus *st, int have);
/* The source line of kind k's result (which batch, rows, weights). */
const char *gui_fig_source(PlLab *lab, PlResultKind k, const PlResultStatus *st, char *buf, int cap);
/* Lines of text from the top of r, one per call; returns the next y. */
double gui_fig_line(GuiList *dl, GuiRect r, double y, GuiColor c, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* The colour of series i: four that tell apart in every palette, in turn. */
GuiColor gui_series_color(int i);

void gui_fig_batch(GuiList *dl, PlLab *lab, GuiRect r, int *current);
void gui_fig_masks(GuiList *dl, PlLab *lab, GuiRect r, int *current);
void gui_fig_generate(GuiList *dl, PlLab *lab, GuiRect r, int *current);
void gui_fig_cost(GuiList *dl, PlLab *lab, GuiRect r, int *current);
void gui_fig_attention(GuiList *dl, PlLab *lab, GuiRect r, int *current);
void gui_fig_rnn(GuiList *dl, PlLab *lab, GuiRect r, int *current);
void gui_fig_pooling(GuiList *dl, PlLab *lab, GuiRect r, int *current);
void gui_fig_loss(GuiList *dl, PlLab *lab, GuiRect r, int *current);
void gui_fig_layers(GuiList *dl, PlLab *lab, GuiRect r, int *current);
void gui_fig_train(GuiList *dl, PlLab *lab, GuiRect r, int *current);

#endif
