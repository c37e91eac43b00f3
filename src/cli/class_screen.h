/* The projector's screen in a class session as text frames (keys from a
 * pipe, frames to a file): the join address, code and QR code, the step's
 * narration, and the class's lines (app/class/board.h): for a question the
 * count of answers (never their spread) until the teacher reveals it, then
 * the tally, both rounds side by side, and the lesson's explanation. On a
 * terminal the projector is drawn with curses (src/tui/class_pane.h).
 * Drawing never computes: the tally is the class's. */
#ifndef PL_CLI_CLASS_SCREEN_H
#define PL_CLI_CLASS_SCREEN_H

#include <stdio.h>

#include "app/class/class.h"

typedef struct {
    const char *title; /* the lesson's */
    int step, nsteps;
    const char *url, *code;
    const char *narration; /* the step's, filled; NULL for none */
    int qi;                /* the step's question in the class, -1 for none */
    int qr;                /* draw the QR code */
    int exam;              /* exam mode: no reveal until the end */
    const char *note;      /* a line for the teacher (a key refused), or NULL */
    const char *after;     /* once revealed: the lesson's explanation (board.h), or NULL */
    double share, eta;     /* the step still computes (share >= 0): done, seconds left */
} ClassScreen;

/* Writes one frame to f. */
void cli_class_screen(FILE *f, PlClass *c, const ClassScreen *s);
/* At an exam's end: question qi, just revealed (pl_class_reveal_at), and its tally. */
void cli_class_exam_end(FILE *f, PlClass *c, int qi);
/* A tally as rows of bars, rounds side by side (the reveal). */
void cli_class_tally(FILE *f, const PlClassTally *t, const PlClassNow *n);

/* text wrapped at width columns (UTF-8 counted a character a column) on f,
 * its lines after the first at indent: what a terminal would otherwise cut
 * mid-word. */
void cli_wrap_text(FILE *f, const char *text, int width, int indent);

#endif
