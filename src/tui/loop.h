/* The terminal's one main loop, over whichever screen plays: the lab (alone
 * or with a lesson beside it) or a drill. Per turn: poll the screen, draw
 * it when something changed (at most every 0.1 s) or when it is due, read
 * a key, hand it over. A resize redraws; a signal that asks to quit ends
 * the loop as q does. */
#ifndef PL_TUI_LOOP_H
#define PL_TUI_LOOP_H

typedef struct {
    void *self;
    /* Polls the lab, the lesson or the drill: 1 when what the screen shows
     * changed or is still computing (drawn again within 0.1 s). */
    int (*tick)(void *self, double now);
    /* Whether the screen must be drawn now though nothing changed (a
     * highlight that expires, a countdown), the last draw at last_draw. */
    int (*due)(void *self, double now, double last_draw);
    void (*draw)(void *self, double now);
    /* A key at time now: 1 to quit. */
    int (*key)(void *self, int ch, double now);
} TuiLoop;

/* Runs l until its key says quit or a signal asks to. */
void tui_loop_run(const TuiLoop *l);

#endif
