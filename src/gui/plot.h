/* Plots on the display list: a panel with a title, axes with nice ticks,
 * grid lines, axis labels and a legend, and the mapping from data to pixels.
 * Laying out only: every number drawn comes from a result struct. */
#ifndef PL_GUI_PLOT_H
#define PL_GUI_PLOT_H

#include "dl.h"

typedef enum { GUI_FMT_NUM, GUI_FMT_PCT, GUI_FMT_INT } GuiTickFmt;

typedef enum { GUI_KEY_LINE, GUI_KEY_BOX, GUI_KEY_MARK } GuiKeyKind;

typedef struct {
    const char *name;
    GuiColor color;
    GuiKeyKind kind;
    int dash;
    GuiPattern pattern;
    double lw; /* lines: their width (0: the style's) */
} GuiKey;

typedef struct {
    const char *title; /* over the panel, large */
    const char *note;  /* a line under the title, dim (may be NULL) */
    const char *xlabel, *ylabel;
    double x0, x1, y0, y1;
    int logx, logy;
    GuiTickFmt xfmt, yfmt;
    const char *const *ycats; /* categories from the top down instead of a y axis (n: ncats) */
    int ncats;
    int xint;           /* x ticks on whole numbers only */
    const char *xfigs;  /* the quantities the x axis's extent says: hidden, its ticks past x0 go unlabelled
                           and its end reads as the figure (NULL: none) */
    const GuiKey *keys; /* the legend: beside the title when it fits, else on a row of its own */
    int nkeys;
} GuiPlotSpec;

typedef struct {
    GuiRect box, in; /* the panel; the data area inside its axes */
    double x0, x1, y0, y1;
    int logx, logy, ncats;
    double legend_y; /* where the legend goes (the title's row) */
    double title_w;  /* how much of that row the title takes */
} GuiPlot;

/* Draws the panel's frame, title, grid, ticks and labels; fills p. */
void gui_plot_begin(GuiList *dl, GuiPlot *p, GuiRect box, const GuiPlotSpec *sp);
double gui_plot_x(const GuiPlot *p, double x);
double gui_plot_y(const GuiPlot *p, double y);
/* The band of category i (ycats plots). */
GuiRect gui_plot_cat(const GuiPlot *p, int i);
/* A legend right-aligned at y in the panel box (what gui_plot_begin draws from spec keys). */
double gui_legend_width(GuiList *dl, const GuiKey *k, int n);
void gui_legend_at(GuiList *dl, double x, double y, const GuiKey *k, int n);
/* The legend on the title's row, right-aligned (under the title when it does not fit). */
void gui_legend(GuiList *dl, const GuiPlot *p, const GuiKey *k, int n);
/* A vertical marker at data x, labelled at the top of the area. */
void gui_plot_vmark(GuiList *dl, const GuiPlot *p, double x, GuiColor c, double lw, int dash, const char *label,
                    int label_row);
/* The marker's label alone: several markers draw their lines first and
 * their labels after, so that no line runs through another's label. */
void gui_plot_vlabel(GuiList *dl, const GuiPlot *p, double x, GuiColor c, const char *label, int label_row);
/* Several markers' labels (at most 8), each on the first row from first_row
 * where it meets none drawn before it. */
void gui_plot_vlabels(GuiList *dl, const GuiPlot *p, int n, const double *x, const char *const *label, GuiColor c,
                      int first_row);
/* A number as a tick shows it. */
const char *gui_num(double v, GuiTickFmt f, char *buf, int cap);
/* Splits r into n columns (gap between them) and returns column i. */
GuiRect gui_col(GuiRect r, int n, int i, double gap);
GuiRect gui_row(GuiRect r, int n, int i, double gap);
/* The height a panel of width w needs for sp's head (title, legend, note,
 * y label) and its x axis, plus inner for its data area. */
double gui_plot_need(GuiList *dl, double w, const GuiPlotSpec *sp, double inner);
/* Splits a into a top part and a bottom part frac of it high (less gap),
 * the bottom at least as high as a category plot of ncats rows needs (each
 * row a small text high, its name whole, and the panel's head). */
void gui_split_for_cats(const GuiList *dl, GuiRect a, double frac, double gap, int ncats, GuiRect *top,
                        GuiRect *bottom);
/* r without a margin of m on every side. */
GuiRect gui_inset(GuiRect r, double m);

#endif
