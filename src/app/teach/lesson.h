/* Lessons: plain-text files a teacher writes by hand (doc/lesson-format.md),
 * parsed into steps that set the lab up, point at a view, and ask questions
 * whose answers are quantities the lab computes at that moment (quantity.h).
 *
 * A lesson never runs a program, never reads a file but the corpora it names,
 * and never writes anything: its progress is kept by progress.h in padlab's
 * state folder. */
#ifndef PL_APP_LESSON_H
#define PL_APP_LESSON_H

#include "app/lab/lab.h"
#include "app/lab/quantity.h"
#include "doc.h"

typedef enum {
    PL_STEP_SET,    /* settings by registry name: "padding=post mask=on" */
    PL_STEP_VIEW,   /* the view to look at */
    PL_STEP_INLINE, /* a few rows written out: the lab's corpus becomes "inline:..." */
    PL_STEP_LOCK,   /* settings the learner may not change (bits) */
    PL_STEP_UNLOCK, /* settings the learner may change again (bits) */
    PL_STEP_TRAIN,  /* retrain and wait for it */
    PL_STEP_GRID,   /* run the padding x mask grid and wait for it */
} PlStepActionKind;

typedef struct {
    PlStepActionKind kind;
    char *text;           /* the directive's value */
    PlSettingsPatch *set; /* set: the settings, parsed */
    unsigned bits;        /* lock, unlock: the settings */
    int line;
} PlStepAction;

typedef enum { PL_Q_NONE, PL_Q_ASK, PL_Q_CHOOSE, PL_Q_EXERCISE } PlQuestionKind;

typedef enum { PL_OP_LT, PL_OP_LE, PL_OP_GT, PL_OP_GE, PL_OP_EQ, PL_OP_NE } PlCompare;

/* One condition of an exercise's goal: QUANTITY OP VALUE. */
typedef struct {
    PlQuantity q;
    PlCompare op;
    double value;
} PlCondition;

#define PL_LESSON_MAX_CHOICES 8
#define PL_LESSON_MAX_HINTS 8
#define PL_LESSON_MAX_GOAL 4
#define PL_LESSON_MAX_ACTIONS 16
#define PL_LESSON_MAX_STEPS 200
#define PL_LESSON_MAX_MISCONCEPTIONS 4
#define PL_LESSON_MAX_HIDES 4
#define PL_LESSON_MISCONCEPTION_TEXT 200 /* bytes: a class's tally labels a row with it whole */

/* A wrong answer a class is expected to give, and what it means: a class's
 * tally gives it a row of its own, labelled ("1: zeroed after the softmax"). */
typedef struct {
    char *value;   /* as written: "1", "45%" (read in the answer's unit), or "{kvcache.reads}" */
    double number; /* the same, read (the check reads it once the answer is known); NAN for a quantity */
    int measured;  /* value names a quantity: the lab measures it where the question is asked */
    PlQuantity quantity;
    char *text; /* what it comes from */
    int line;
} PlMisconception;

typedef struct {
    char *text;    /* what the learner reads */
    char *explain; /* why it is right or wrong, shown once chosen */
    int right;
    int pinned; /* "[pinned]": it keeps its place when the others are shuffled (choices.h) */
} PlChoice;

typedef struct {
    PlQuestionKind kind;
    char *prompt;
    int line;
    PlQuantity answer; /* ask: the quantity the lab computes */
    int has_answer;
    PlTolerance tolerance;
    PlChoice choices[PL_LESSON_MAX_CHOICES]; /* choose */
    int nchoices;
    PlCondition goal[PL_LESSON_MAX_GOAL]; /* exercise: all must hold */
    int ngoal;
    int smallest;           /* exercise: -1, or the setting whose value must be the smallest that meets the goal */
    PlSettingsPatch *solve; /* exercise: settings that meet the goal ("mask=on"), applied with the solution */
    char *hints[PL_LESSON_MAX_HINTS];
    int nhints;
    char *solution;                                       /* shown only after an attempt */
    char *reveal;                                         /* shown with the lab's number once answered */
    PlMisconception miscon[PL_LESSON_MAX_MISCONCEPTIONS]; /* ask: the wrong answers a class is expected to give */
    int nmiscon;
    PlQuantity hides[PL_LESSON_MAX_HIDES]; /* choose: the figures its choices rest on, hidden until it is answered */
    int nhides;
} PlQuestion;

typedef struct {
    char *title;
    char *text; /* narration: paragraphs split by blank lines, {quantity} filled in live */
    PlStepAction actions[PL_LESSON_MAX_ACTIONS];
    int nactions;
    PlQuestion q;
    char *summary; /* the lesson's summary, on the step that has one */
    char *notes;   /* the teacher's notes: its ; lines joined as narration is ({quantity} filled in live); NULL: none */
    int line;
} PlStep;

typedef struct {
    char name[96]; /* the file's name without .lesson */
    char path[1024];
    char *title, *level, *about;
    int minutes;
    char *setup;                  /* settings applied before the first step ("corpus=builtin seeds=1") */
    PlSettingsPatch *setup_patch; /* the same, parsed; NULL without setup: */
    PlStep *steps;
    int nsteps;
    char *notes; /* the teacher's notes before the first step; NULL: none */
} PlLesson;

/* Parses a lesson from text[0..n); path names it in messages. NULL with err
 * as "PATH:LINE: message" when it is not a valid lesson. */
PlLesson *pl_lesson_parse(const char *path, const char *text, size_t n, PlErr *err);
/* Reads and parses a lesson file (at most 1 MB). */
PlLesson *pl_lesson_load(const char *path, PlErr *err);
/* The same, going on past a problem to find every one (--check): NULL with
 * each in probs (the caller's), in line order. */
PlLesson *pl_lesson_check(const char *path, PlProblems *probs);
/* pl_lesson_parse going on past a problem, as pl_lesson_check does. */
PlLesson *pl_lesson_parse_all(const char *path, const char *text, size_t n, PlProblems *probs);
void pl_lesson_free(PlLesson *l);

/* The folders lessons are looked for in, in order: $PADLAB_LESSONS
 * (colon-separated), $XDG_DATA_HOME/padlab/lessons, the installed lessons,
 * the source tree's lessons. Fills up to max; returns how many exist. */
int pl_lesson_dirs(char dirs[][1024], int max);
/* Finds a lesson by path, by name ("01-rectangle"), by an old name
 * (renamed.h: "03-attention" opens 06-attention) or by name without its
 * number ("rectangle"). 0 with path filled, -1 when there is none, or -2
 * when memory ran out looking. */
int pl_lesson_find(const char *name, char *path, int cap);
/* The lesson an old name now is (renamed.h), or NULL: not an old name, or
 * one that a lesson file still has (a teacher's own 02-mask keeps its
 * progress and its cards). */
const char *pl_lesson_renamed_here(const char *old);
/* Every lesson in the folders, by name, each name once (the first folder
 * wins): fills paths (up to max), returns how many, or -1 when memory ran
 * out. */
int pl_lesson_list(char paths[][1024], int max);
/* The lesson after the one named name in that list, into next: 0, 1 when
 * it is the last (or not listed), -1 when memory ran out. */
int pl_lesson_next(const char *name, char *next, int cap);

/* The settings and the locks of step k over base (the lab's when the
 * lesson began): the setup, then every step's set, view, lock and unlock up
 * to k; an inline corpus lasts for its own step. Can't fail. */
void pl_lesson_settings_at(const PlLesson *l, const PlLabSettings *base, int k, PlLabSettings *s, unsigned *locks);
/* Whether quantity q shows the same fact under settings a and b: every
 * setting its results depend on is equal, the corpus too, but those the
 * quantity ignores (pl_quantity_ignores: always, for a figure fixed by how
 * it is made); for a figure of training, both train the same thing from the
 * same seeds. A setting's own value is no fact (0). An example left at auto
 * may be any row the other names: resolve it first where a corpus is loaded
 * (pl_lab_example_of). */
int pl_lesson_same_fact(const PlQuantity *q, const PlLabSettings *a, const PlLabSettings *b);
/* What question s, asked at settings `there`, hides on another step at
 * `now`: an ask's figure and a choose's hides:, each where it is the same
 * fact there and now (pl_lesson_same_fact). */
void pl_lesson_question_hides_elsewhere(const PlStep *s, const PlLabSettings *there, const PlLabSettings *now,
                                        PlLedger *out);
/* Hides in out what step s's question asks (ledger.h): an ask's quantity
 * and what determines it, but what its prompt names to work from (asked
 * for the pads of a row whose real tokens it gives, the real tokens stay in
 * sight); for a question about training, or asked on a step that trains,
 * every figure of training. */
void pl_lesson_question_hides(const PlStep *s, PlLedger *out);

/* Calls each with the name of every quantity text names: its
 * {placeholders} and the conditions of its {? conditionals}. */
void pl_lesson_text_quantities(const char *text, void (*each)(const char *name, void *ctx), void *ctx);
/* text (NULL: "") with each {placeholder} written as `as`, into out (cap
 * bytes, cut short where it is full): a step's words before the lab fills
 * them. Returns out. */
const char *pl_lesson_unfilled(const char *text, const char *as, char *out, size_t cap);
/* Fills the {quantity} placeholders of text with the lab's values now ("..."
 * for one not computed yet), drawn through ledger (pl_fill: NULL shows every
 * figure); returns out. */
const char *pl_lesson_fill(PlLab *lab, const PlLedger *ledger, const char *text, char *out, int cap);
/* The result kinds a text's placeholders read. */
unsigned pl_lesson_text_kinds(const char *text);

#endif
