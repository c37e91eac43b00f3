/* Text laid out in lines for a box of the screen: a page (app/teach/page.h)
 * or paragraphs wrapped at a width (counting columns, not bytes), each line
 * with its colour, then drawn from a scroll offset: the one pane both the
 * lesson and the drill draw their pages with. A layout is rebuilt on every draw, so it
 * always fits the terminal's width. */
#ifndef PL_TUI_LINES_H
#define PL_TUI_LINES_H

#include "app/teach/page.h"
#include "app/teach/player.h"
#include "draw.h"

#define TUI_LINES_MAX 600
#define TUI_LINE_CAP 512

typedef struct {
    char text[TUI_LINES_MAX][TUI_LINE_CAP];
    TuiColor color[TUI_LINES_MAX];
    int n;
    int upto_first; /* tui_lines_page: the first line of the part it was asked for; -1 when none */
} TuiLines;

/* Wraps text at w columns (10 at least) into L, as pl_page_wrap does: indent
 * starts every wrapped line after a paragraph's first. */
void tui_lines_wrap(TuiLines *L, const char *text, int w, TuiColor color, int indent);
/* Lays page g out in L at w columns, each role in its colour (the one table
 * of them), a clock as a bar of its own. Returns the lines down to the end
 * of the last paragraph of part upto (0 when none, or upto is NONE). */
int tui_lines_page(TuiLines *L, const PlPage *g, int w, PlPart upto);
/* One line as it is, clipped at its cap. */
void tui_lines_add(TuiLines *L, TuiColor color, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A blank line, unless the last one is blank already (or there is none). */
void tui_lines_blank(TuiLines *L);
/* Draws lines scroll.. into box b (clamping *scroll); a "more" mark when
 * lines are left below. */
void tui_lines_draw(const TuiLines *L, TuiBox b, int *scroll);

/* A curses key as a player's (app/teach/player.h), the one map of them for
 * lessons and drills: 1, or 0 for a key no player reads. */
int tui_player_key(int ch, PlPlayerKey *k);

#endif
