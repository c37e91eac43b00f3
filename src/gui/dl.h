/* The display list: what a frame is, as lines, rectangles, polylines, text
 * and heat grids, each with a colour named by its meaning. The figure code
 * writes it from the lab's result structs; the window renderer (render.c)
 * and the SVG writer (svg.c) read it. Nothing here knows SDL.
 *
 * Layout:
 *   items   (n)      in drawing order; a later item draws over an earlier one
 *   strings (nstr)   every text, NUL-terminated, items hold offsets
 *   floats  (nfl)    polyline points (x0 y0 x1 y1 ...) and heat values (rows x cols)
 *   data    (ndata)  the plotted numbers, for --csv: figure, series, x, y, label
 *   hits    (nhits)  clickable regions of the chrome: an action and its argument
 * Coordinates are device pixels, y down. */
#ifndef PL_GUI_DL_H
#define PL_GUI_DL_H

#include <stddef.h>
#include <stdint.h>

#include "app/lab/ledger.h"

typedef struct {
    double x, y, w, h;
} GuiRect;

/* Colours by meaning; theme.c maps them to a theme and a palette. */
typedef enum {
    GUI_C_BG,
    GUI_C_PANEL,
    GUI_C_FG,
    GUI_C_DIM,
    GUI_C_GRID,
    GUI_C_AXIS,
    GUI_C_REAL,
    GUI_C_REAL2, /* a neighbouring sequence in a packed row */
    GUI_C_PAD,
    GUI_C_TRUNC,
    GUI_C_MARK, /* the maxlen marker, the crossing */
    GUI_C_SEL,  /* the example, the selected control */
    GUI_C_GOOD,
    GUI_C_WARN,
    GUI_C_NEGINF, /* a -inf cell's mark */
    GUI_C_S1,     /* series, in order */
    GUI_C_S2,
    GUI_C_S3,
    GUI_C_S4,
    GUI_C_MEDIAN,
    GUI_C_BUTTON,
    GUI_C_BUTTON_ON,
    GUI_C_TIP,
    GUI_C_COUNT,
    GUI_C_NONE = GUI_C_COUNT /* a rectangle's fill: none, its pattern alone */
} GuiColor;

typedef enum { GUI_PAT_NONE, GUI_PAT_HATCH, GUI_PAT_CROSS, GUI_PAT_DOTS } GuiPattern;
typedef enum { GUI_RAMP_SEQ, GUI_RAMP_DIV } GuiRamp; /* 0..1 weights; -1..1 states */
typedef enum { GUI_LEFT, GUI_CENTER, GUI_RIGHT } GuiAlign;
typedef enum { GUI_I_RECT, GUI_I_LINE, GUI_I_POLY, GUI_I_TEXT, GUI_I_HEAT, GUI_I_TITLE } GuiKind;

typedef struct {
    uint8_t kind, color, color2, pattern, align, mono, dash, ramp, transposed;
    double x, y, w, h; /* rect, text box, heat, title region; line: from (x, y) */
    double x2, y2, lw; /* line: to (x2, y2); lines and polylines: width; rect: outline width (0 none) */
    double size;       /* text: pixels */
    double lo, hi;     /* heat: the values at the two ends of the ramp */
    int cols, rows;    /* heat: the grid as drawn; poly: points (cols) */
    size_t str;        /* text, a title's tooltip, a series' name (SIZE_MAX: none) */
    size_t fl;         /* points or values */
    size_t tag;        /* a name for tests and SVG ids (SIZE_MAX: none) */
} GuiItem;

typedef struct {
    size_t figure, series, label;
    double x, y;
} GuiDatum;

typedef struct {
    GuiRect r;
    int action, arg;
} GuiHit;

/* What the layout needs to know of the fonts and of the look. */
typedef struct GuiStyle {
    double unit;    /* device pixels per layout unit: DPI x projector zoom */
    double text[4]; /* pixel sizes: small, normal, large, title */
    double line;    /* the width of a data line */
    int present, dark, classic;
    double (*measure)(void *ctx, double size, int mono, const char *s); /* a text's width */
    double (*height)(void *ctx, double size, int mono);                 /* a line's height */
    void *ctx;
} GuiStyle;

enum { GUI_SMALL, GUI_NORMAL, GUI_LARGE, GUI_TITLE };

typedef struct {
    const GuiStyle *st;
    double W, H;
    GuiItem *items;
    int n, cap;
    char *str;
    size_t nstr, capstr;
    double *fl;
    size_t nfl, capfl;
    GuiDatum *data;
    int ndata, capdata;
    GuiHit *hits;
    int nhits, caphits;
    size_t figure; /* the current figure's name for data rows */
    int titles;    /* keep small tooltips as title items (SVG) */
    int want_data; /* keep the plotted numbers (an export) */
    double mx, my; /* the mouse (negative: none) */
    char tip[320]; /* the value under the mouse, set by gui_hover */
    const PlLedger *ledger; /* text drawn shows the figures it hides as ?s (a lesson's questions); marks never drawn */
    int oom;       /* an allocation failed: the list is short */
} GuiList;

void gui_dl_init(GuiList *dl, const GuiStyle *st, double W, double H);
void gui_dl_reset(GuiList *dl); /* empties it, keeps the buffers */
void gui_dl_done(GuiList *dl);

/* The text of string offset o ("" for SIZE_MAX). */
const char *gui_dl_str(const GuiList *dl, size_t o);
size_t gui_dl_intern(GuiList *dl, const char *s);

void gui_rect(GuiList *dl, GuiRect r, GuiColor c);
void gui_rect_pat(GuiList *dl, GuiRect r, GuiColor c, GuiPattern p, GuiColor pc);
void gui_frame(GuiList *dl, GuiRect r, GuiColor c, double lw);
void gui_line(GuiList *dl, double x, double y, double x2, double y2, GuiColor c, double lw, int dash);
/* A polyline of n points (xy: x0 y0 x1 y1 ...), named series (may be NULL). */
void gui_poly(GuiList *dl, const double *xy, int n, GuiColor c, double lw, int dash, const char *series);
/* Text with its top at y; align says where x is. Returns its width. */
double gui_text(GuiList *dl, double x, double y, int size, GuiColor c, GuiAlign a, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
double gui_text_mono(GuiList *dl, double x, double y, int size, GuiColor c, GuiAlign a, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
/* A cols x rows grid of values (row-major, copied) over r, coloured on a ramp from lo to hi. */
void gui_heat(GuiList *dl, GuiRect r, const float *v, int cols, int rows, double lo, double hi, GuiRamp ramp,
              const char *tag);
/* The same from v stored (cols, rows) column by column: drawn cell (i, j) is v[j * rows + i]. */
void gui_heat_transposed(GuiList *dl, GuiRect r, const float *v, int cols, int rows, double lo, double hi, GuiRamp ramp,
                         const char *tag);
/* Names the last item (for tests and SVG ids). */
void gui_tag(GuiList *dl, const char *tag);

/* The value under the mouse: when the mouse is in r the text becomes the
 * tooltip; with dl->titles it is also kept as a title over r (SVG). */
void gui_hover(GuiList *dl, GuiRect r, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Whether the mouse is in r (for a hover whose text is costly). */
int gui_mouse_in(const GuiList *dl, GuiRect r);
void gui_hit(GuiList *dl, GuiRect r, int action, int arg);
/* A plotted number for --csv, under the current figure (dl->figure). */
void gui_datum(GuiList *dl, const char *series, double x, double y, const char *label);
void gui_figure_name(GuiList *dl, const char *name);

double gui_text_w(const GuiList *dl, int size, int mono, const char *s);
double gui_text_h(const GuiList *dl, int size);
double gui_px(const GuiList *dl, double units); /* layout units to pixels */
/* Text wrapped to w pixels: at spaces, a word longer than a line at a
 * character; nothing is ever cut. Each line is a text item under the last.
 * Returns the height it took. */
double gui_text_wrap(GuiList *dl, double x, double y, double w, int size, GuiColor c, GuiAlign a, const char *fmt,
                     ...) __attribute__((format(printf, 8, 9)));
double gui_text_wrap_mono(GuiList *dl, double x, double y, double w, int size, GuiColor c, GuiAlign a,
                          const char *fmt, ...) __attribute__((format(printf, 8, 9)));
/* How many lines s takes wrapped to w. */
int gui_wrap_lines(const GuiList *dl, int size, int mono, const char *s, double w);

/* ---- colours (theme.c) ---- */
uint32_t gui_color(const GuiStyle *st, GuiColor c);         /* 0xRRGGBBAA */
uint32_t gui_ramp(const GuiStyle *st, GuiRamp r, double t); /* t in 0..1 */
/* A heat value's colour: v on lo..hi, clamped; NaN gets the background. */
uint32_t gui_heat_color(const GuiStyle *st, GuiRamp r, double v, double lo, double hi);

/* A drawn heat cell's value. */
static inline double gui_heat_at(const GuiList *dl, const GuiItem *it, int row, int col) {
    return dl
        ->fl[it->fl + (it->transposed ? (size_t)col * it->rows + (size_t)row : (size_t)row * it->cols + (size_t)col)];
}

#endif
