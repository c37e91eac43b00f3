/* What the views share for drawing: a pane (a box of the screen whose rows
 * below a fixed header scroll), the header every view opens with, and the
 * small charts. Nothing here computes a figure: it lays out what the lab's
 * results hold.
 *
 * A view writes rows 0, 1, 2, ... of its pane. The first `fixed` rows stay
 * put (the header); the rest move up by `scroll`, and rows outside the box
 * are not drawn, so a view never has to know how tall the screen is. */
#ifndef PL_TUI_DRAW_H
#define PL_TUI_DRAW_H

#include <stdint.h>

#include "app/lab/lab.h"
#include "screen.h"

typedef struct {
    int y, x, h, w;
} TuiBox;

typedef struct {
    TuiBox box;
    int fixed;   /* header rows that do not scroll */
    int scroll;  /* body rows scrolled past */
    int rows;    /* rows written so far (the height of the content) */
    int follow;  /* scroll to the example's row once it is drawn (set when the example moves) */
    int hscroll; /* columns scrolled past sideways (< and >), every row alike */
    int cols;    /* columns written so far (the width of the content) */
    int cut;     /* a text ran past the pane's right edge this frame: the view says < > scroll */
    int full;    /* the batch view draws one character per cell (f) instead of squeezing a row */
} TuiPane;

/* Text at (row, col) of the pane, clipped to w columns and to the pane. A w
 * that reaches the pane's right edge means "to the end of the text": what
 * runs past the edge is not lost, it is read by scrolling sideways. */
void pane_put(TuiPane *p, int row, int col, int w, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The same in colour c. */
void pane_putc(TuiPane *p, TuiColor c, int row, int col, int w, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* A sentence at (row, col) in colour c, wrapped at the pane's right edge
 * (its wrapped lines 2 columns in), so that none of its figures runs out of
 * sight: the prose of a view, where pane_put is for tables. Returns the
 * rows it took. */
int pane_wrap(TuiPane *p, TuiColor c, int row, int col, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* A bar of v (0..1) over width cells. */
void pane_bar(TuiPane *p, int row, int col, int width, double v, TuiColor c);

/* The header: the title (and "updating" while a newer result computes),
 * where the numbers come from (source), and one line saying what to look
 * at. Sets the fixed rows. Returns 1 when there is a result to draw; 0
 * after saying why not (computing the first one, or the error). */
int tui_header(TuiPane *p, const char *title, const char *source, const char *look, const PlResultStatus *st, int have);

/* The source line of a result: which batch, which rows, which weights. */
enum { TUI_SRC_BATCH = 1, TUI_SRC_FOCUS = 2, TUI_SRC_WEIGHTS = 4, TUI_SRC_EXAMPLE = 8 };
const char *tui_source(const PlResultInfo *info, unsigned what, char *buf, int cap);

/* One row of T cells (mask, 1 = real) squeezed into w columns: real, pad,
 * or both in one column. */
void tui_cells(TuiPane *p, int row, int col, int w, const uint8_t *mask, int T);

/* A line chart of up to two series over the same n steps. */
typedef struct {
    const float *a, *b; /* (n) each; b may be NULL; a is drawn over b */
    int n;
    double lo, hi;        /* the values at the bottom and the top row */
    const uint8_t *strip; /* (n) 1 = a real step; NULL: no strip. Pad steps are shaded across the chart and the
                             strip under it says which steps are real */
    int mark;             /* a step drawn as a vertical rule through the chart (-1: none) */
} TuiChart;

/* Draws c over w columns and h rows from (row, col); the rows used are
 * row .. row + h - 1, and row + h for the strip. */
void tui_chart(TuiPane *p, int row, int col, int w, int h, const TuiChart *c);
/* The chart column of step i when n steps are drawn over w columns. */
int tui_chart_col(int i, int n, int w);

/* Fits a scroll offset to content of `rows` rows in a pane body of `visible`,
 * and the sideways scroll to the content's width. */
void tui_clamp_scroll(TuiPane *p);
/* Says on the title row, at its right end, that the view is wider than the
 * pane: "< >" and how far it is scrolled. Nothing when it fits. */
void tui_sideways_mark(TuiPane *p);

#endif
