/* A page's paragraphs wrapped to a pane's width in the window's text, and
 * drawn from a scroll position: the one page pane the lesson and the drill
 * draw with (each only tags the parts it cares for). */
#ifndef PL_GUI_WRAPPED_H
#define PL_GUI_WRAPPED_H

#include <stddef.h>

#include "app/teach/page.h"
#include "dl.h"

#define GUI_WRAP_LINES 600 /* lines kept; a longer page is cut */

typedef struct {
    GuiList *dl;
    int size; /* the text size measured and drawn */
    struct {
        size_t from, len; /* in base; len 0: an empty line */
        GuiColor color;
        double indent; /* pixels */
        int tag;       /* the paragraph's, for gui_wrapped_draw's tags */
    } line[GUI_WRAP_LINES];
    int n;
    const char *base; /* the buffer the paragraphs live in */
    GuiColor now;     /* of the paragraph being wrapped */
    int tag;
} GuiWrapped;

/* Starts w over the paragraphs in base, measured at size. */
void gui_wrapped_begin(GuiWrapped *w, GuiList *dl, int size, const char *base);

/* Wraps the paragraph text (in base) to width: its wrapped lines indented
 * by indent pixels, all of them in color and tagged tag. */
void gui_wrapped_para(GuiWrapped *w, const char *text, double width, GuiColor color, double indent, int tag);

/* Wraps page g (app/teach/page.h) to width, each role in its colour (the
 * one table of them), each line tagged by its paragraph's part; w's dl and
 * size are set. */
void gui_wrapped_page(GuiWrapped *w, const PlPage *g, double width);

/* Draws rows lines from line scroll on, line i at y + i * lh inside in; a
 * line whose tags[tag] is not NULL is tagged with it (tags may be NULL).
 * Then "more: Down" at the bottom when lines are left below, "more: Up"
 * over y when the page is scrolled. */
void gui_wrapped_draw(GuiList *dl, const GuiWrapped *w, GuiRect in, double y, double lh, int rows, int scroll,
                      const char *const *tags);

#endif
