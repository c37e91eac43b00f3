/* A lesson as a front end plays it: the run (lesson_run.h) with the
 * learner's progress, the answer being typed, the classroom flags, what the
 * keys do, and the pane's text as a page (page.h). The terminal and the
 * window share all of it; each only maps its own keys to PlLessonKey and
 * draws the page in its one page pane. */
#ifndef PL_APP_LESSON_PLAY_H
#define PL_APP_LESSON_PLAY_H

#include <stddef.h>

#include "lesson_review.h"
#include "lesson_run.h"
#include "page.h"

/* The scroll that shows the end of the pane: the front end clamps it. */
#define PL_LESSON_SCROLL_END (1 << 20)

typedef struct {
    PlLesson *lesson;
    PlLessonRun *run;
    PlProgressBook
        *book;      /* where progress is kept; NULL when not kept (a screenshot, a state folder that cannot be used) */
    char input[40]; /* the answer being typed */
    int explore;    /* Esc: keys go to the lab until Esc again */
    int present;    /* classroom mode */
    int blank;      /* classroom: the screen blanked (b) */
    int scroll;     /* lines of the narration scrolled past */
    int pending;    /* the typed answer waits for the lab's number: checked again on each tick */
    char note[300]; /* a line for the learner (where the progress went, why an answer was not checked) */
    char unsaved[300]; /* why the progress could not be written, shown when there is no other note; "" */
    /* review (lesson_review.h): each step's first answer in this opening is graded in the drill book */
    PlLab *lab;
    int grades;                                /* 1: answers are graded (progress kept, or a review) */
    unsigned char graded[PL_PROGRESS_ANSWERS]; /* the steps graded in this opening */
    PlLessonDue *due;                          /* a review: the due questions, earliest first; NULL: a lesson */
    int ndue, at;                              /* how many, and the one on screen */
    uint64_t salt;                             /* a review: the drill book's learner salt (choice orders) */
    char next[96];                             /* the lesson after this one, named at its end; "" when none */
} PlLessonPlay;

/* What a key means to a lesson; printable characters come as PL_LK_CHAR. */
typedef enum {
    PL_LK_CHAR,  /* ch: digits and signs type an answer, letters choose, space goes on, h s b q */
    PL_LK_ENTER, /* submits the answer or checks the exercise; else goes on */
    PL_LK_ERASE, /* Backspace */
    PL_LK_NEXT,  /* Page Down, right arrow */
    PL_LK_BACK,  /* Page Up, left arrow */
    PL_LK_UP,    /* scrolls the narration */
    PL_LK_DOWN,
    PL_LK_EXPLORE, /* Esc: the keys to the lab and back */
} PlLessonKey;

enum { PL_LESSON_LAB = 0, PL_LESSON_TAKEN = 1, PL_LESSON_QUIT = 2 };

/* Opens the lesson named (a name or a path) on lab. step < 0: at the step
 * the learner's progress reached, progress kept; step >= 0: at that step
 * (from 0) with no progress read or written. 0, or -1 with why (no such
 * lesson or step, a setting the lab refuses). */
int pl_lesson_play_open(PlLessonPlay *p, PlLab *lab, const char *name, int step, int present, char *why, int cap);
/* Opens a review of the lesson questions due today (lesson_review.h) on
 * lab: the first at its step, the next when the learner goes on past it.
 * 0; 1 with why saying so when none is due; -1 with why (no memory, a
 * drill book that cannot be read, a lesson that no longer opens). */
int pl_lesson_play_review(PlLessonPlay *p, PlLab *lab, int present, char *why, int cap);
/* Writes the progress now (when it is kept); a failure is kept in unsaved
 * for the front end to say on exit, with a non-zero status. */
void pl_lesson_play_save(PlLessonPlay *p);
/* Saves the progress and frees the lesson. Harmless on a closed one. */
void pl_lesson_play_close(PlLessonPlay *p);

/* Handles a key: PL_LESSON_TAKEN, PL_LESSON_LAB when it belongs to the lab
 * (exploring, or a key the lesson does not use), PL_LESSON_QUIT. */
int pl_lesson_play_key(PlLessonPlay *p, PlLessonKey k, int ch);
/* Asks the lab for what the step reads and polls its training; 1 when the
 * pane should be drawn again. */
int pl_lesson_play_tick(PlLessonPlay *p, PlLab *lab);

/* The head line, "TITLE  |  step S of N: STEP TITLE", and its two halves. */
void pl_lesson_play_head(const PlLessonPlay *p, char *title, int tcap, char *step, int scap);

/* ---- the page ---- */

/* The pane's paragraphs now (page.h), placeholders filled with the lab's
 * values: the question's paragraphs are PL_PART_QUESTION, the reveal
 * PL_PART_REVEAL. */
void pl_lesson_page(const PlLessonPlay *p, PlLab *lab, PlPage *page);

#endif
