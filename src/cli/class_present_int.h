/* What the class session (class_present.c) shares with its terminal's
 * projector (class_projector.c): the session's state and the steps both
 * the text frames and the curses screen take. */
#ifndef PL_CLI_CLASS_PRESENT_INT_H
#define PL_CLI_CLASS_PRESENT_INT_H

#include <stdint.h>

#include "app/class/follow.h"
#include "app/class/server.h"
#include "app/class/session.h"
#include "app/lab/lab.h"
#include "app/teach/lesson_run.h"

typedef struct {
    PlLab *lab;
    PlLesson *l;
    PlLessonRun *run;
    PlClassSession s;      /* the class, kept on disk and resumed (app/class/session.h) */
    PlClassFollow *f;      /* &s.f: the class following the lesson */
    PlClass *c;            /* s.c */
    PlClassServer *server; /* its server */
    PlLedger ask;          /* what the question's words may show (f->ask_ledger) */
    int step;
    int tty;    /* keys from a terminal */
    int curses; /* the projector drawn with curses (class_projector.c); else text frames */
    char url[128];
    char narration[8192];
    int pres;                   /* the presenter view's terminal, or -1 */
    double t0, step_t0;         /* when the session and the step began (pl_app_clock) */
    long pres_second;           /* the second the presenter view last showed */
    char notes[4096];           /* the step's teacher notes, filled (at the first, the lesson's too) */
    char narration_notes[2048]; /* the step's own, filled */
    int quitting;               /* q pressed once: a second q ends the class */
    int computing;              /* the step's training or grid still runs (curses: the step did not wait for it) */
    double share, eta;          /* its progress: done (0 to 1), seconds left (-1: not known yet) */
    char after[4096];           /* once revealed: the lesson's explanation (cp_after) */
    char oom[300];              /* a figure the lab had no memory to compute: the class ends, saying so */
} Present;

/* Goes to step k: the lab set up, the question's texts filled and opened to
 * the class; waits for the step's training with wait, else leaves it
 * running (computing). 0, or -1 with the message printed. */
int cp_go_step(Present *p, int k, int wait);
/* A key (a byte, or a curses key code): 1 to go on, 0 to end. */
int cp_key(Present *p, int key);
/* Writes the class when it changed (or always). */
void cp_keep(Present *p, int always);
/* The presenter view, redrawn. */
void cp_draw_presenter(Present *p);
/* Polls a step whose numbers are computing: 1 when the projector should be
 * drawn again (its progress moved, or it finished and the texts were filled
 * again). */
int cp_tick(Present *p);
/* The lesson's explanation once the step's question is revealed, into
 * p->after; NULL before. */
const char *cp_after(Present *p);
/* The signal that ends the class, or 0: caught by the session, or by curses
 * while it runs (tui_screen_quit_signal). */
int cp_stopped(void);

/* The curses projector: runs the lesson's keys until the end, q or a
 * signal. -1 without touching the terminal when curses cannot drive it
 * (the text frames go on instead). */
int cp_projector_run(Present *p);
/* An exam's end on the curses projector: the questions revealed (qs, n)
 * paged one by one. */
void cp_projector_exam(Present *p, const int *qs, int n);
/* Ends curses, if it runs. */
void cp_projector_end(Present *p);

#endif
