/* The terminal: the one file that touches curses's global state. It starts
 * and ends the screen, restores the terminal on every way out (quit, Ctrl-C,
 * SIGTERM, a crash), names colours by meaning, and hands out glyphs that
 * degrade to ASCII. */
#ifndef PL_TUI_SCREEN_H
#define PL_TUI_SCREEN_H

#include "app/lab/ledger.h"

typedef enum {
    TUI_NORMAL,
    TUI_TITLE,
    TUI_REAL,
    TUI_PAD,
    TUI_TRUNC,
    TUI_WARN,
    TUI_GOOD,
    TUI_CHANGED,
    TUI_KEY,
    TUI_DIM,
    TUI_SELECTED,
    TUI_QR,       /* a QR code's dark modules: black on white whatever the terminal's colours */
    TUI_QR_LIGHT, /* and its light ones, drawn as full blocks in white */
    TUI_COLOR_COUNT
} TuiColor;

typedef enum {
    TUI_G_REAL,   /* a real token */
    TUI_G_PAD,    /* a pad cell */
    TUI_G_MIXED,  /* a column holding both */
    TUI_G_BAR,    /* a full bar cell */
    TUI_G_EMPTY,  /* an empty bar cell */
    TUI_G_MARK,   /* a marker under an axis (the maxlen on a sweep) */
    TUI_G_CUT,    /* tokens truncation threw away */
    TUI_G_BOUND,  /* where one packed sequence ends and the next begins */
    TUI_G_PADKEY, /* a pad key column in the attention heatmap */
    TUI_G_POINT,  /* a point of a line chart */
    TUI_G_POINT2, /* a point of a second series */
    TUI_G_LOOK,   /* before the line that says what to look at */
    TUI_G_HRULE,  /* a horizontal rule between panes */
    TUI_G_VRULE,  /* a vertical rule between panes */
    TUI_GLYPH_COUNT
} TuiGlyph;

typedef struct {
    int mono;  /* no colour: attributes only (--mono, NO_COLOR) */
    int ascii; /* no Unicode blocks or shades (--ascii, or a locale without UTF-8) */
} TuiOptions;

/* Starts curses. Returns 0, or -1 (with a reason in why) when there is no
 * usable terminal. */
int tui_screen_start(const TuiOptions *o, char *why, int cap);
/* Ends curses and restores the terminal; safe to call twice. */
void tui_screen_end(void);
/* Set by SIGINT, SIGTERM, SIGHUP or SIGQUIT: the main loop should quit. */
int tui_screen_should_quit(void);
/* When the terminal's input has hung up (the terminal is gone, with or
 * without a SIGHUP), asks to quit as SIGHUP would. Cheap: one poll. */
void tui_screen_check_input(void);
/* The signal (SIGINT, SIGTERM, SIGHUP or SIGQUIT) that asked the lab to
 * quit, or 0: the lab then exits with 128 + it, as a shell would report. */
int tui_screen_quit_signal(void);

void tui_color(TuiColor c);
void tui_color_off(TuiColor c);
const char *tui_glyph(TuiGlyph g);
/* A shade from 0 (empty) to 1 (full) as one character. */
const char *tui_shade(double v);
/* A bar of v (0..1) over width cells, at the cursor. */
void tui_bar(int y, int x, int width, double v, TuiColor c);

/* Screen size. */
int tui_rows(void);
int tui_cols(void);

/* Text at (y, x), printf style, clipped to w columns of display width (a
 * wide character is never cut in half). Returns the columns written. The
 * one place that writes text to the screen. */
int tui_put(int y, int x, int w, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The same for a text already drawn (tui_drawn), as is. */
int tui_put_plain(int y, int x, int w, const char *s);
/* raw, its figures' marks resolved by the ledger in force, into out (a pane
 * cuts text sideways after it). */
void tui_drawn(const char *raw, char *out, int cap);
/* A table's cell: raw drawn (tui_drawn), then padded to |width| columns,
 * right-aligned when width > 0, left when < 0, so a hidden figure keeps its
 * column whatever the width of its text. Returns out. */
const char *tui_cell(const char *raw, int width, char *out, int cap);
/* From now on tui_put draws the figures that l hides as '?'s (ledger.h);
 * NULL: none. Either way the marks never reach the screen. l is borrowed
 * until the next call. */
void tui_ledger(const PlLedger *l);
/* Whether the ledger in force hides quantity `name`: a view asks before it
 * draws a figure without writing it (a bar, a shade, a curve). */
int tui_hidden(const char *name);
/* Display columns of a UTF-8 string. */
int tui_width(const char *s);
/* The options the screen ended up with (ASCII forced by the locale, mono
 * forced by NO_COLOR or a terminal without colours). */
const TuiOptions *tui_screen_options(void);

#endif
