/* Playing a lesson on a lab: each step sets the lab up as the lesson says
 * (the settings of every step so far, the last view, the locks), and its
 * question is checked against the number the lab computes at that moment.
 * No front end here: the terminal and the window draw a run's state, and the
 * tests play whole lessons without either. */
#ifndef PL_APP_LESSON_RUN_H
#define PL_APP_LESSON_RUN_H

#include <stdint.h>

#include "app/lab/ledger.h"
#include "lesson.h"
#include "progress.h"

typedef enum { PL_ANS_NONE, PL_ANS_RIGHT, PL_ANS_WRONG } PlAnswerState;

typedef struct {
    int step;             /* the step on screen, from 0 */
    int hints;            /* hints shown */
    int attempts;         /* answers given */
    PlAnswerState answer; /* how the last one went */
    /* choose: order[k] is the choice shown as letter 'a' + k (choices.h) */
    int order[PL_LESSON_MAX_CHOICES];
    int chosen;        /* choose: the choice last picked (its index in the lesson), or -1 */
    char typed[64];    /* ask: the answer last typed */
    double value;      /* ask: the lab's number it was checked against */
    int solution;      /* the solution is shown */
    int waiting;       /* the step's training or grid still runs */
    int not_ready;     /* the last answer waits for its number: the lab has not computed it yet */
    char message[300]; /* why the last answer could not be checked, or what an exercise still misses */
} PlLessonState;

typedef struct PlLessonRun PlLessonRun;

/* Starts lesson l (borrowed, it must outlive the run) on lab at step `step`
 * (clamped): the setup line and the settings of steps 0..step are applied.
 * NULL with err when a setting cannot be applied (a corpus that does not
 * load). */
PlLessonRun *pl_lesson_run_new(PlLab *lab, const PlLesson *l, int step, PlErr *err);
/* Unlocks everything the lesson locked and frees the run. NULL is harmless. */
void pl_lesson_run_free(PlLessonRun *r);

const PlLesson *pl_lesson_run_lesson(const PlLessonRun *r);
const PlLessonState *pl_lesson_run_state(const PlLessonRun *r);
const PlStep *pl_lesson_run_step(const PlLessonRun *r);

/* Goes to step k: the lab as the lesson sets it up there; the question starts
 * unanswered. Returns 0, or -1 with err (out of range, a setting refused). */
int pl_lesson_run_goto(PlLessonRun *r, int k, PlErr *err);

/* Seeds the order a choose: question's choices are shown in: the learner's
 * salt and their attempt (how often they opened the lesson), so the right
 * answer's letter differs between learners and attempts, and stays put
 * while one attempt goes back and forth. Without it both are 0 (a fixed
 * shuffle: --answers, pictures, tests). Reorders the step on screen, so it
 * is called before the learner answers. */
void pl_lesson_run_learner(PlLessonRun *r, uint64_t salt, int attempt);

/* Answers the step's question. ask: the number typed; choose: a letter (a,
 * b, ...) or the number from 1 of the place a choice is shown at; exercise:
 * anything (the lab's state is what is checked). Returns PL_ANS_RIGHT or
 * PL_ANS_WRONG, or -1 when it cannot be checked now (the number is not
 * computed yet, the answer is not one), with the reason in the state's
 * message. */
int pl_lesson_run_answer(PlLessonRun *r, const char *typed);
/* Whether the number the step's question is checked against can be read
 * now: 1, or 0 while the lab has not computed it. */
int pl_lesson_run_ready(PlLessonRun *r);
/* Shows one more hint: 1, or 0 when there is none left. */
int pl_lesson_run_hint(PlLessonRun *r);
/* Shows the solution, only once an answer was tried: 1, or 0 (no try yet,
 * or nothing to show: an ask: without a solution: line). A choose: always
 * has one, its right choices. An exercise's solution is also set in the
 * lab (pl_lesson_run_solve). */
int pl_lesson_run_solution(PlLessonRun *r);
/* Puts the lab in a state that meets the exercise's goal: its solve:
 * settings, and for smallest: the lowest value of that setting that meets
 * it. 0, or -1 with err. */
int pl_lesson_run_solve(PlLessonRun *r, PlErr *err);

/* The result kinds the step reads (its text, its question): a front end asks
 * for them so they are computed even when their view is not on screen. */
unsigned pl_lesson_run_kinds(const PlLessonRun *r);
/* Polls a step that trains or runs the grid; 1 when its state changed. */
int pl_lesson_run_tick(PlLessonRun *r);

/* The ledger of what the learner may not see now (ledger.h): the step's
 * question while it is open (not answered right, no solution shown), with
 * the quantities that determine it and, for a question about training (or
 * asked on a step that trains), every training figure; and every other
 * step's question not answered yet in this run, where the lab now shows the
 * same fact (the settings its figure depends on are those of that step).
 * Can't fail. */
void pl_lesson_run_ledger(PlLessonRun *r, PlLedger *out);
/* The ledger of the question's own words (its prompt, choices and hints):
 * as pl_lesson_run_ledger, but of the open question's figures only the
 * asked one is hidden, since a question may hand over the figures to work
 * it out from. Can't fail. */
void pl_lesson_run_question_ledger(PlLessonRun *r, PlLedger *out);
/* What a diagnosis of a wrong answer to the open question may not name:
 * what the other questions not answered yet hide, but the figures that
 * determine this question's own (a diagnosis says "1300 is the real
 * tokens" of the pads asked), unless another question asks that figure
 * itself. Can't fail. */
void pl_lesson_run_unnamed(PlLessonRun *r, PlLedger *out);
/* The ledger of step k on a worksheet, where every page is in sight at once
 * and nothing is answered: step k's question, and every question whose
 * fact step k's settings show. Can't fail. */
void pl_lesson_run_worksheet_ledger(PlLessonRun *r, int k, PlLedger *out);
/* Counts step k's question as answered (a resumed lesson's earlier steps):
 * its figure is no longer hidden on the other steps. */
void pl_lesson_run_seen(PlLessonRun *r, int step);
/* Whether the step still computes what its question is checked against
 * (its training, its grid, a retrain that waits its turn, the number not
 * read yet), ticking the lab: 1 with the share of the training or grid done
 * (0 to 1) and the seconds left (-1 while too early to tell), or 0 when the
 * number is in. A retrain the step does not wait for is not counted. */
int pl_lesson_run_computing(PlLessonRun *r, double *share, double *eta);
/* A class was shown the step's answer (a reveal on the projector): the
 * question counts as answered, its figure no longer hidden here or on the
 * steps that show the same fact. */
void pl_lesson_run_reveal(PlLessonRun *r);
/* For the commands that play a lesson without a front end (--answers,
 * --handout, a class's projector): ticks the lab and the run until the
 * step's training or grid is done, then waits for what its text and
 * question read; at most ten minutes in all. 0, or -1 when that ran out. */
int pl_lesson_run_wait(PlLessonRun *r);
/* Plays the step as a learner who solves it: waits for the lab
 * (pl_lesson_run_wait), and for an exercise applies its solution
 * (pl_lesson_run_solve) and waits again, so that a key written now shows
 * the figures the learner's lab shows once the step is done. 0, or -1 with
 * err (the lab did not finish in ten minutes, the solution cannot be set). */
int pl_lesson_run_play_key(PlLessonRun *r, PlErr *err);
/* Hands that ledger to the lab (pl_lab_set_ledger), which every view, the
 * status line and the exports are drawn through: a front end calls it
 * before it draws a frame. Freeing the run empties it. */
void pl_lesson_run_sync_ledger(PlLessonRun *r);

/* Records the run in a progress entry: the step reached, the answers, done
 * when the last step is reached. */
void pl_lesson_run_record(const PlLessonRun *r, PlLessonProgress *p);

#endif
