/* Text laid out in lines for a box of the screen: paragraphs wrapped at a
 * width (counting columns, not bytes), each line with its colour, then
 * drawn from a scroll offset. A layout is rebuilt on every draw, so it
 * always fits the terminal's width. */
#ifndef PL_TUI_LINES_H
#define PL_TUI_LINES_H

#include "draw.h"

#define TUI_LINES_MAX 600
#define TUI_LINE_CAP 512

typedef struct {
    char text[TUI_LINES_MAX][TUI_LINE_CAP];
    TuiColor color[TUI_LINES_MAX];
    int n;
} TuiLines;

/* Wraps text at w columns into L: a newline ends a paragraph (a blank line
 * follows it unless the next one is a "- " bullet); indent starts every
 * wrapped line after a paragraph's first. */
void tui_lines_wrap(TuiLines *L, const char *text, int w, TuiColor color, int indent);
/* One line as it is, clipped at its cap. */
void tui_lines_add(TuiLines *L, TuiColor color, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A blank line, unless the last one is blank already (or there is none). */
void tui_lines_blank(TuiLines *L);
/* Draws lines scroll.. into box b (clamping *scroll); a "more" mark when
 * lines are left below. */
void tui_lines_draw(const TuiLines *L, TuiBox b, int *scroll);

#endif
