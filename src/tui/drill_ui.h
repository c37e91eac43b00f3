/* The drill screen's state, shared by its two files: drill_screen.c (the
 * loop, the picker, the keys, the layout) and drill_text.c (the item's
 * page, app/drill_play.h, as lines). Nothing else includes this. */
#ifndef PL_TUI_DRILL_UI_H
#define PL_TUI_DRILL_UI_H

#include "app/teach/drill_play.h"
#include "drill_screen.h"
#include "lines.h"

#define TUI_DRILL_DECKS 64

typedef struct {
    TuiDrillArgs a;
    int today;
    PlDrillBook book;
    int book_ok;       /* the progress file could be read: it is written */
    char note[300];    /* a line for the learner (a save that failed, a refused key) */
    char unsaved[300]; /* why the progress could not be written: said on exit, status 1; "" */
    /* the picker */
    PlDeck *decks[TUI_DRILL_DECKS];
    int ndecks, pick;
    PlDeck *lessons; /* the lesson questions in review (lesson_review.h), a row after the decks; NULL: none */
    int lesson_due;
    /* the session: a deck of decks[] playing when play.drill is set */
    PlDrillPlay play;
    TuiLines *lines;
    TuiPane pane;  /* the view beside a case */
    int pane_item; /* the item the view's scroll is for */
    int too_small;
} TuiDrill;

/* The lines of the item on screen (or of the end of the session) at width w. */
void tui_drill_lay_out(TuiDrill *u, int w, double now);
/* The key bar's text for the phase. */
const char *tui_drill_keys(const TuiDrill *u);

#endif
