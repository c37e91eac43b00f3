/* A class session following a lesson on the teacher's lab: the one place
 * where a step's question is opened to the class (its texts filled from the
 * lab), revealed against the number the lab computes, voted on again, and,
 * in an exam, kept until the end. The terminal's projector (src/cli) and the
 * window's classroom mode (src/gui) both drive it; neither computes a vote.
 *
 * The caller moves the lesson and waits for the lab's results of a step
 * before pl_class_follow_step; this module only reads the lab. */
#ifndef PL_APP_CLASS_FOLLOW_H
#define PL_APP_CLASS_FOLLOW_H

#include "app/lab/lab.h"
#include "app/teach/lesson.h"
#include "class.h"

typedef struct {
    PlClass *c;
    const PlLesson *l;                    /* borrowed */
    int *step_q;                          /* each step's question in c, -1 for none */
    uint64_t salt;                        /* the class's order of each choose:'s choices */
    int step;                             /* the step followed, -1 before the first */
    int exam;                             /* no reveal until the end */
    double value[PL_CLASS_MAX_QUESTIONS]; /* an exam's numbers, as the lab computed them when their step opened */
    int reached[PL_CLASS_MAX_QUESTIONS];  /* 1: opened to the class (with its number, for an ask:) */
    char note[200];                       /* why the last key did nothing, or a number the lab could not give */
    const PlLedger *ask_ledger;           /* what the question's own words may show (pl_lesson_run_question_ledger:
                                             the figures it hands over), or NULL: the lab's ledger */
} PlClassFollow;

/* A session of lesson l with join code code (PL_CLASS_CODE_LEN characters)
 * and the class's choice orders from salt. 0, or -1 with err (no memory,
 * too many questions). */
int pl_class_follow_init(PlClassFollow *f, const PlLesson *l, const char *code, uint64_t salt, int exam, PlErr *err);
void pl_class_follow_done(PlClassFollow *f);

/* Opens step k's question (its prompt and choices filled from lab) or, for
 * a step without one, closes the last; 0, or -1 for a step out of range. */
int pl_class_follow_step(PlClassFollow *f, PlLab *lab, int k);
/* The step's numbers are in (its training or grid has finished): its
 * question's prompt and choices filled again from the lab, and an exam
 * keeps the number it could not read when the step opened. */
void pl_class_follow_refresh(PlClassFollow *f, PlLab *lab);
/* r: the tally, with the number lab computes now (an exam refuses, saying
 * so in note); 0, or -1 with note. */
int pl_class_follow_reveal(PlClassFollow *f, PlLab *lab);
/* v: a second round (an exam refuses); 0, or -1 with note. */
int pl_class_follow_again(PlClassFollow *f);
/* An exam's end: every question reached revealed in turn; calls each(qi, ctx)
 * after each reveal (to draw it). Returns how many. */
int pl_class_follow_end(PlClassFollow *f, void (*each)(int qi, void *ctx), void *ctx);

/* A join code of letters and digits no one mistakes for one another
 * (PL_CLASS_CODE_LEN of them and a NUL), from the system's randomness. */
void pl_class_new_code(char *code);

/* The question open on step k, or -1. */
int pl_class_follow_question(const PlClassFollow *f, int k);

#endif
