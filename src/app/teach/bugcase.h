/* A spot-the-bug case played on a lab of its own. The lab is set to the
 * case's buggy setup and computes the symptom right then; the fix sets the
 * lab to the fixed configuration and the same quantity (or, where a probe
 * computes the bug as a variant, its right variant) is computed again, so
 * the two values stand side by side. A case that trains retrains 3 seeds or
 * more under the bug and again under the fix, and reads their median and
 * range, never one run. */
#ifndef PL_APP_BUGCASE_H
#define PL_APP_BUGCASE_H

#include "deck.h"

typedef enum { PL_BUG_COMPUTING, PL_BUG_SHOWN, PL_BUG_FIXING, PL_BUG_FIXED, PL_BUG_FAILED } PlBugPhase;

typedef struct {
    int have; /* computed */
    int none; /* computed, and the figure has no value here (a fixed point not found) */
    double value;
    double min, max; /* a train.* quantity: the seeds' range */
    int seeds;       /* the seeds it is over; 0 when nothing trained */
} PlBugValue;

typedef struct {
    PlBugPhase phase;
    PlBugValue symptom; /* the symptom under the bug */
    PlBugValue fixed;   /* the fixed quantity under the fix */
    PlBugValue also_bug[PL_DECK_MAX_ALSO], also_fix[PL_DECK_MAX_ALSO];
    int holds;         /* FIXED: the fix moved the value the way the case says */
    char message[300]; /* what the lab is doing now, or why it failed */
} PlBugState;

typedef struct PlBugRun PlBugRun;

/* Starts case `it` of deck (both borrowed, they must outlive the run) on a
 * new lab: base is the learner's settings (the corpus, the seed, ...), then
 * the deck's setup, then the case's bug settings and rows. NULL with err
 * when the lab cannot be made (a corpus that does not load). */
PlBugRun *pl_bug_run_new(const PlDeck *deck, const PlDeckItem *it, const PlLabSettings *base, PlErr *err);
/* Stops its lab and frees it. NULL is harmless. */
void pl_bug_run_free(PlBugRun *r);

/* Its lab, for the view beside the case (borrowed). */
PlLab *pl_bug_run_lab(PlBugRun *r);
const PlBugState *pl_bug_run_state(const PlBugRun *r);
/* The settings of the buggy setup and of the fixed one. */
const PlLabSettings *pl_bug_run_settings(const PlBugRun *r, int fixed);

/* Polls the lab, asks for what the case reads, and takes the values once
 * they are computed. 1 when the state changed. Never waits. */
int pl_bug_run_tick(PlBugRun *r);
/* Sets the lab to the fix (retraining when the case trains). 0, or -1 with
 * err (the fix is already applied, the corpus does not load). */
int pl_bug_run_fix(PlBugRun *r, PlErr *err);
/* For tests and commands: ticks until the values of the current phase are
 * in (SHOWN, FIXED or FAILED) or timeout seconds pass. 0, or -1 on timeout. */
int pl_bug_run_wait(PlBugRun *r, double timeout);

/* A value as the case shows it: "100.0%", or "0.528 (0.525-0.530, 3 seeds)"
 * for a trained one. Returns buf. */
const char *pl_bug_value_format(const PlQuantity *q, const PlBugValue *v, char *buf, int cap);

#endif
