/* The class session's layout, shared by its files (class.c, tally.c,
 * report.c); nothing outside src/app/class reads it. */
#ifndef PL_APP_CLASS_INTERNAL_H
#define PL_APP_CLASS_INTERNAL_H

#include <pthread.h>

#include "class.h"
#include "limit.h"

typedef struct {
    unsigned char has;
    int choice;                     /* a choice: its index in the shown order */
    double num;                     /* a number, in the quantity's unit */
    char text[PL_CLASS_ANSWER_MAX]; /* a number as typed (digits, . - + e % , spaces: nothing to escape) */
    int64_t ms;                     /* when, on the class's clock (pl_class_set_clock) */
    int sure;                       /* how sure the student said they were, 1 to 3; 0: not said */
} ClassVote;

typedef struct {
    double value; /* in the quantity's unit; NAN until the lab measures it */
    char *text;   /* what it comes from */
    int measured; /* value set by the lab where the question is asked (saved with the class) */
} ClassMiscon;

typedef struct {
    PlClassKind kind;
    char *prompt;
    char *choices[PL_CHOICES_MAX];
    int nchoices, right;
    PlQuantity qty;
    PlTolerance tol;
    int step;   /* the lesson's step, from 0 */
    int rounds; /* 1, or 2 once voted again */
    int revealed;
    int opened;          /* opened to the class at least once */
    double value;        /* the lab's value, once revealed */
    ClassVote *votes[2]; /* [round][student], PL_CLASS_MAX_STUDENTS each */
    ClassMiscon miscon[PL_CLASS_MISCON];
    int nmiscon;
} ClassQuestion;

struct PlClass {
    pthread_mutex_t mu;
    char code[16];
    ClassQuestion qs[PL_CLASS_MAX_QUESTIONS];
    int nq;
    char tokens[PL_CLASS_MAX_STUDENTS][PL_CLASS_TOKEN_HEX + 1];
    int nstudents;
    int cur, round;
    PlClassPhase phase;
    unsigned version;
    PlClassLimit limit;           /* wrong join codes and seats per address (limit.c) */
    int64_t (*now_ms)(void *ctx); /* the votes' clock, or NULL */
    void *now_ctx;
    int resume_cur, resume_round, resume_phase, has_resume; /* where a restored class was (pl_class_resume_now) */
    int64_t countdown_end; /* the discussion's countdown ends then, on the class's clock; 0: none */
    PlClassMeta meta;      /* what the report's header says (pl_class_report_meta) */
    int has_meta;
    long long ended; /* when the class ended, seconds since 1970 */
};

/* Question qi's tally with the lock held. */
void class_tally_locked(PlClass *c, int qi, PlClassTally *t);

#endif
