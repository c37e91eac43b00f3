/* The drill screen's state, shared by its two files: drill_screen.c (the
 * loop, the picker, the keys, the layout) and drill_text.c (what each kind
 * of item says, as lines). Nothing else includes this. */
#ifndef PL_TUI_DRILL_UI_H
#define PL_TUI_DRILL_UI_H

#include "app/bugcase.h"
#include "app/drill.h"
#include "drill_screen.h"
#include "lines.h"

#define TUI_DRILL_DECKS 64

typedef struct {
    TuiDrillArgs a;
    int today;
    PlDrillBook book;
    int book_ok;            /* the progress file could be read: it is written */
    char note[300];         /* a line for the learner (a save that failed, a refused key) */
    /* the picker */
    PlDeck *decks[TUI_DRILL_DECKS];
    int ndecks, pick;
    /* the session */
    PlDeck *deck;           /* borrowed from decks[] */
    PlDrill *drill;
    PlLab *lab;             /* the deck's figures, made when an item holds one */
    PlBugRun *bug;          /* the case on screen */
    int shown_item;         /* the item the lab or the case was set up for; -1 */
    TuiLines *lines;
    int scroll;
    TuiPane pane;           /* the view beside a case */
    int zoom;               /* the view takes the whole screen */
    int too_small;
} TuiDrill;

/* The lines of the item on screen (or of the end of the session) at width w. */
void tui_drill_lay_out(TuiDrill *u, int w, double now);
/* The key bar's text for the phase. */
const char *tui_drill_keys(const TuiDrill *u);
/* text with its {figures} from the lab that serves the item (as is without one). */
const char *tui_drill_fill(TuiDrill *u, const char *text, char *buf, int cap);

#endif
