/* The terminal: the one file that touches curses's global state. It starts
 * and ends the screen, restores the terminal on every way out (quit, Ctrl-C,
 * SIGTERM, a crash), names colours by meaning, and hands out glyphs that
 * degrade to ASCII. */
#ifndef PL_TUI_SCREEN_H
#define PL_TUI_SCREEN_H

typedef enum {
    TUI_NORMAL, TUI_TITLE, TUI_REAL, TUI_PAD, TUI_TRUNC, TUI_WARN, TUI_GOOD, TUI_CHANGED, TUI_KEY, TUI_DIM,
    TUI_SELECTED, TUI_COLOR_COUNT
} TuiColor;

typedef enum { TUI_G_REAL, TUI_G_PAD, TUI_G_MIXED, TUI_G_BAR, TUI_G_EMPTY, TUI_G_MARK, TUI_GLYPH_COUNT } TuiGlyph;

typedef struct {
    int mono;   /* no colour: attributes only (--mono, NO_COLOR) */
    int ascii;  /* no Unicode blocks or shades (--ascii) */
} TuiOptions;

/* Starts curses. Returns 0, or -1 (with a reason in why) when there is no
 * usable terminal. */
int tui_screen_start(const TuiOptions *o, char *why, int cap);
/* Ends curses and restores the terminal; safe to call twice. */
void tui_screen_end(void);
/* Set by SIGINT or SIGTERM: the main loop should quit. */
int tui_screen_should_quit(void);

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

#endif
