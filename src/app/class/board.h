/* What a projector says of the class on a step, as lines of text wrapped
 * at a width: the question and its choices; while it is open, how many
 * have answered, the discussion's countdown and, on a step that still
 * trains, how long until the lab has its number; once revealed, the tally
 * (a row an answer, a bar a round), the right answer, the switches between
 * the rounds and the lesson's own explanation. The terminal's text frames
 * and its curses projector both draw these lines, each kind its own way;
 * the window draws the same in pixels (src/gui/class_pane.c). */
#ifndef PL_APP_CLASS_BOARD_H
#define PL_APP_CLASS_BOARD_H

#include "class.h"

typedef enum {
    PL_BOARD_TEXT,     /* a count, a tally row, the switches */
    PL_BOARD_QUESTION, /* the question's head and prompt, its choices */
    PL_BOARD_RIGHT,    /* the row or the line of the answer counted right */
    PL_BOARD_AFTER,    /* the lesson's explanation, shown with the answer */
    PL_BOARD_CLOCK,    /* the countdown, the training's progress */
    PL_BOARD_KEYS,     /* the teacher's keys */
    PL_BOARD_NOTE,     /* why the last key did nothing */
    PL_BOARD_GAP,      /* an empty line */
} PlBoardKind;

/* Receives a line (no newline) of a kind. */
typedef void (*PlBoardLine)(void *ctx, const char *text, PlBoardKind kind);

/* What the projector knows beside the class. */
typedef struct {
    int qi;            /* the step's question in the class, -1 for none */
    int exam;          /* nothing revealed until the end */
    const char *after; /* once revealed: the lesson's reveal, the right choice's why, its solution; NULL */
    double share,
        eta; /* the step still computes: share done (0 to 1), seconds left (-1: not known yet); share < 0: done */
    const char *note; /* NULL: none */
} PlBoard;

/* The widest bar (cells) a round's count gets. */
#define PL_BOARD_BAR 24

/* Tally t of the question now (n): its lines, bars fitted so that a row
 * takes at most width columns where it can (each bar at least 4 cells). */
void pl_class_board_tally(const PlClassTally *t, const PlClassNow *n, int width, PlBoardLine line, void *ctx);
/* The class's lines on the step, wrapped at width columns. */
void pl_class_board(PlClass *c, const PlBoard *b, int width, PlBoardLine line, void *ctx);
/* The switches between the two rounds, "" before a second round or while a
 * number is not revealed. Returns out. */
const char *pl_class_board_switches(const PlClassTally *t, char *out, int cap);

#endif
