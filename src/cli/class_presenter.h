/* The presenter view of a class session (--presenter TTY): what the teacher
 * alone sees, on a terminal of their own beside the projector: the step and
 * the one after it, the time on the step and in all, how many students have
 * answered, and the teacher's notes (a lesson's ; lines). Drawing never
 * computes: the counts are the class's, the notes filled by the caller. */
#ifndef PL_CLI_CLASS_PRESENTER_H
#define PL_CLI_CLASS_PRESENTER_H

#include "app/class/class.h"

typedef struct {
    const char *title; /* the lesson's */
    int step, nsteps;
    const char *step_title;
    const char *next_title; /* NULL at the last step */
    const char *notes;      /* the step's notes, filled; NULL for none */
    int qi;                 /* the step's question in the class, -1 for none */
    double on_step, in_all; /* seconds */
    int exam;
} ClassPresenter;

/* Opens path for the presenter view: a terminal or a FIFO with a reader,
 * written into, never replaced. The descriptor, or -1 with why. */
int cli_presenter_open(const char *path, char *why, int cap);
/* Writes one frame to fd (a terminal's screen cleared first; else a line
 * "----" between frames). A frame the terminal cannot take now is dropped. */
void cli_presenter_draw(int fd, PlClass *c, const ClassPresenter *s);

#endif
