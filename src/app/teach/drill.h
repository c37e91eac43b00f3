/* A drill: one deck's items played in a session, as a state machine with no
 * front end and no clock of its own. The front end passes "today" (a day
 * number, sched.h) and "now" (the app's seconds) into every step, so the
 * tests can drive a session, a timeout or weeks of reviews headlessly. A
 * question's or a case's choices are shown in an order seeded by the
 * book's salt and the item's answer count (choices.h): per learner, per
 * attempt, and the same again for a test that fixes both.
 *
 *   cards      FRONT --reveal--> BACK --grade 1..4--> next FRONT (again: it comes round later)
 *   minute     FRONT (the countdown runs) --reveal--> BACK --grade 1..4--> next FRONT
 *   questions  FRONT --choose (or the time runs out)--> BACK --next--> next FRONT
 *   bugs       FRONT --choose the cause--> BACK --fix--> FIXED --next--> next FRONT
 *
 * After the last item the phase is END. Grades and answers go into the
 * progress book at once; saving it is the front end's (drill_book.h). A
 * bug case's lab lives beside the drill (bugcase.h). */
#ifndef PL_APP_DRILL_H
#define PL_APP_DRILL_H

#include "deck.h"
#include "drill_book.h"

typedef enum { PL_DRILL_FRONT, PL_DRILL_BACK, PL_DRILL_FIXED, PL_DRILL_END } PlDrillPhase;

typedef struct {
    int today;       /* the day the session runs on */
    long long clock; /* its time, seconds since 1970 (UTC); 0: the machine's when today is the machine's
                        day (pl_sched_today), else noon of today */
    int all;         /* every item, due or not */
    int count;       /* at most this many items; 0: every due card or prompt, 10 questions, every case */
    int timed;       /* questions: each has its time limit (seconds:, else the deck's) */
    unsigned seed;   /* the order of the questions */
    int only;        /* 1..n: that item of the deck alone (a picture of one item); 0: the session's */
} PlDrillOpts;

typedef struct {
    PlDrillPhase phase;
    int at, total; /* the item on screen (from 0) of the session's items (a card graded again adds one) */
    int item;      /* its index in the deck; -1 at the end */
    /* questions, cases: order[k] is the choice shown as letter 'a' + k (choices.h) */
    int order[PL_DECK_MAX_CHOICES];
    int right_at;      /* the place (letter) the right choice is shown at */
    int chosen;        /* questions, cases: the choice picked (its index in the deck); -1: none yet */
    int timed_out;     /* the time ran out before a choice */
    double shown_at;   /* the app's seconds when the item came up */
    double limit;      /* the seconds it has (timed questions, minute prompts); 0: no limit */
    int right, wrong;  /* questions and cases of this session */
    int graded[5];     /* cards and prompts: how many of each grade 1..4 */
    int due_in;        /* at the end: days until the next item is due; -1 when none is scheduled */
    char message[200]; /* why the last step did nothing */
} PlDrillState;

typedef struct PlDrill PlDrill;

/* A session of deck (borrowed) recording into book (borrowed; both must
 * outlive the drill), started at app time now. NULL when out of memory. A
 * session with nothing due starts at END (due_in says when). */
PlDrill *pl_drill_new(const PlDeck *deck, PlDrillBook *book, const PlDrillOpts *o, double now);
void pl_drill_free(PlDrill *d);

const PlDrillState *pl_drill_state(const PlDrill *d);
const PlDeck *pl_drill_deck(const PlDrill *d);
/* The item on screen, or NULL at the end. */
const PlDeckItem *pl_drill_item(const PlDrill *d);

/* Each step returns 0, or -1 (nothing changes, the state's message says
 * why) when it does not apply to the deck's kind or to the phase. A choice
 * is chosen by its place on screen (0 for a), the state's order saying
 * which of the deck's choices that is. */
int pl_drill_reveal(PlDrill *d, double now);
int pl_drill_grade(PlDrill *d, int grade, double now);
int pl_drill_choose(PlDrill *d, int place, double now);
int pl_drill_fix(PlDrill *d);
int pl_drill_next(PlDrill *d, double now);
/* A timed question whose time ran out goes to BACK, counted wrong: 1 then,
 * else 0. */
int pl_drill_tick(PlDrill *d, double now);
/* The seconds left of the item's time (never below 0), or -1 without a limit. */
double pl_drill_time_left(const PlDrill *d, double now);

/* The review time (seconds since 1970, UTC) of a grade at app time now:
 * the session's clock (PlDrillOpts) plus the app's seconds since it began. */
long long pl_drill_clock(const PlDrill *d, double now);

/* How many new cards of the deck a session on day today may introduce: no
 * more than the book's new cards a day leave (those of every deck
 * introduced today counted), and with an interview's day in the book, the
 * deck's cards not yet seen spread evenly over the days before it. */
int pl_drill_new_allowance(const PlDeck *deck, const PlDrillBook *book, int today);
/* New cards the book's daily allowance leaves on day today, over every deck. */
int pl_drill_new_left(const PlDrillBook *book, int today);

/* How many of the deck's items are due on day today (cards, prompts), or
 * its item count (questions, cases). */
int pl_drill_due_count(const PlDeck *deck, const PlDrillBook *book, int today);

#endif
