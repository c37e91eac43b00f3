/* A class's projector in the terminal, drawn with curses: the lesson's
 * title and the join line on top; the step's narration, word-wrapped,
 * beside the step's view (the lab's own view, drawn through the ledger the
 * lesson keeps, as the lab draws it) on a wide screen, above it on a
 * narrow one; and always in sight at the foot, the class's lines
 * (app/class/board.h): the question and its count, the countdown and a
 * training step's progress, after a reveal its tally and the lesson's
 * explanation. The QR code of the join address sits under the narration
 * where it fits; the join screen (j) shows it alone, large. The session
 * (src/cli/class_present.c) computes and decides everything; this draws
 * and reads the keys. */
#ifndef PL_TUI_CLASS_PANE_H
#define PL_TUI_CLASS_PANE_H

#include "app/class/board.h"
#include "app/lab/lab.h"
#include "draw.h"

typedef struct {
    const char *title; /* the lesson's */
    int step, nsteps;
    const char *url, *code;
    const char *narration; /* the step's, filled through the ledger; "" for none */
    PlBoard board;         /* the class's lines */
    int new_step;          /* the step changed since the last frame: the scrolls start again */
} TuiClassScreen;

/* The session the projector shows. */
typedef struct {
    void *self;
    PlLab *lab;
    PlClass *c;
    /* Polls the session (the lab, a step that computes, the class kept on
     * disk): 1 when the projector shows something new. */
    int (*tick)(void *self);
    /* What the projector shows now. */
    void (*screen)(void *self, TuiClassScreen *s);
    /* 1 while something moves each second: a countdown, a training, the
     * presenter view's clocks. */
    int (*moving)(void *self);
    /* A key, a byte: a clicker's Page Down and the right arrow come as 'n',
     * Page Up and the left arrow as 'b'. 1 ends the class. */
    int (*key)(void *self, int key);
    /* The exam's end: question i of the pages made current (revealed to
     * the pages too); NULL outside an exam. */
    void (*page)(void *self, int i);
} TuiClassLoop;

/* Starts curses and runs the projector until its key or a signal ends it
 * (the terminal stays in curses for an exam's pages: tui_class_exam, then
 * tui_screen_end). 0, or -1 with why without touching the terminal when
 * curses cannot drive it. */
int tui_class_run(const TuiClassLoop *l, char *why, int cap);
/* An exam's end: its questions qs[0..n) revealed, a page each (right and
 * left arrows turn them, q when done). */
void tui_class_exam(const TuiClassLoop *l, const int *qs, int n);

#endif
