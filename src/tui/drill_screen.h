/* The drill in the terminal: a deck picker, then one deck's session
 * (app/drill.h) drawn item by item; a bug case shows one of its lab's views
 * beside it. q quits at any point and keeps the progress. */
#ifndef PL_TUI_DRILL_SCREEN_H
#define PL_TUI_DRILL_SCREEN_H

#include "app/lab/lab.h"
#include "screen.h"

typedef struct {
    PlLabSettings settings; /* the learner's: the corpus, the seed, ... (a deck's own come on top) */
    const char *deck;       /* a deck's name or path; NULL: pick one */
    int all;                /* every item, due or not */
    int count;              /* at most this many items; 0: the kind's default */
    int timed;              /* questions against the clock */
    TuiOptions screen;
    int *review; /* set to 1 when the learner picked the lesson questions (lesson --review plays them) */
} TuiDrillArgs;

/* Runs the drill until the learner quits. Returns the exit status, or -1
 * without having touched the terminal when there is none (why says why). */
int tui_drill_run(const TuiDrillArgs *a, char *why, int cap);

#endif
