/* The control strip, the key bar and the help overlay, all made from the
 * settings registry (app/settings.h) and the command table (app/lab.h). */
#ifndef PL_TUI_STRIP_H
#define PL_TUI_STRIP_H

#include "app/lab/lab.h"

/* Where each setting's control was drawn, for the mouse. */
typedef struct {
    int y[PL_S_COUNT], x[PL_S_COUNT], w[PL_S_COUNT];
} TuiStrip;

/* Draws every setting as "name: value" (cold ones starred) from row y0,
 * wrapping at cols; longest names what maxlen none stands for, flash marks
 * recent changes, selected the control the mouse picked (-1: none).
 * Returns the rows used. */
int tui_strip_draw(TuiStrip *t, const PlLabSettings *s, int longest, unsigned flash, int selected, int y0, int cols);
/* The setting whose control is at (y, x), or -1. */
int tui_strip_hit(const TuiStrip *t, int y, int x);
/* The rows the key bar takes at cols columns: 1, or 2 when every setting's
 * keys do not fit on one. */
int tui_keybar_rows(int cols);
/* The key bar from row y: every setting's keys (on tui_keybar_rows rows),
 * then help and quit. */
void tui_keybar_draw(int y, int cols);
/* Page `page` of the help over the screen; 0 when there is no such page. */
int tui_help_draw(int page, int rows, int cols);

#endif
