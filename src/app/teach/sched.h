/* Spaced repetition with FSRS-6 (the Free Spaced Repetition Scheduler, as
 * Anki has used it since 23.10), its 21 published default weights and the
 * learning steps of the reference code (ts-fsrs). The clock is passed in: a
 * review's time is a count of seconds (UTC, since 1970), so that a test can
 * drive a card through months at once.
 *
 * Every card has a memory state: difficulty D (1..10), stability S (the
 * days after which recall falls to 90%) and, at time t days after its last
 * review, retrievability R = (1 + F t / S)^-w20 with F chosen so that
 * R(S, S) = 0.9. A card is new, learning, review or relearning:
 *
 *   new         its first grade sets D and S from the grade; again, hard
 *               and good then step through the learning steps (1 and 10
 *               minutes: again 1 min, hard 6 min, good 10 min), easy
 *               goes straight to review
 *   learning    again: back to the first step; hard: the same step again;
 *               good: the next step, or review past the last; easy: review
 *   review      hard, good and easy: due after the interval at which R falls
 *               to the desired retention (0.9 unless set), at least one day,
 *               hard < good < easy; again: a lapse, relearning for 10 min
 *   relearning  as learning, with the relearning step (10 min)
 *
 * A grade on the day of the last (t = 0) changes S by the short-term rule;
 * later ones by the recall or the forgetting rule. Intervals of 3 days and
 * more are fuzzed (a few days either way, so that cards learnt together
 * spread out), from a generator seeded with the card's seed and review
 * count: the same card, grades and times give the same days on every run.
 * With an interview's day set, an interval that would end after it is cut
 * to end on it (at least one day): every card is seen again before the
 * interview rather than after.
 *
 * Before FSRS, padlab kept cards in five Leitner boxes (1, 2, 4, 8, 16
 * days). pl_sched_from_box turns such a card into an FSRS review card whose
 * next interval is its box's: S = the box's days (at retention 0.9 the
 * interval is S), D = the difficulty of a first grade good, due and last
 * review on the days the box had (at 00:00 UTC). */
#ifndef PL_APP_SCHED_H
#define PL_APP_SCHED_H

#include <stdint.h>

#define PL_FSRS_WEIGHTS 21
#define PL_FSRS_MAX_STEPS 4
#define PL_SCHED_BOXES 5 /* the Leitner boxes of books before FSRS */
#define PL_DAY 86400LL

typedef enum { PL_GRADE_AGAIN = 1, PL_GRADE_HARD = 2, PL_GRADE_GOOD = 3, PL_GRADE_EASY = 4 } PlGrade;
typedef enum { PL_CARD_NEW, PL_CARD_LEARNING, PL_CARD_REVIEW, PL_CARD_RELEARNING } PlCardState;

typedef struct {
    double w[PL_FSRS_WEIGHTS];
    double retention;                           /* desired retention, 0.7..0.99 */
    int max_interval;                           /* days */
    int fuzz;                                   /* 1: fuzz intervals of 3 days and more */
    int learning[PL_FSRS_MAX_STEPS], nlearning; /* minutes */
    int relearning[PL_FSRS_MAX_STEPS], nrelearning;
    int until; /* an interview's day (days since 1970): intervals end on or before it; 0: none */
} PlFsrs;

typedef struct {
    int state;          /* PlCardState */
    int step;           /* the learning step it stands at */
    double d, s;        /* difficulty, stability (days); 0, 0 when new */
    long long due;      /* seconds; a new card: 0, due at once */
    long long last;     /* seconds of the last grade; 0: none */
    int scheduled;      /* days the last grade gave (0: a learning step) */
    int reviews;        /* grades given */
    int lapses;         /* times a review card was graded again */
} PlSchedCard;

/* The published defaults: FSRS-6's weights, retention 0.9, 36500 days at
 * most, fuzz on, learning steps 1 and 10 minutes, relearning 10 minutes. */
void pl_fsrs_default(PlFsrs *p);
/* Checks a desired retention (0.7..0.99); 0, or -1. */
int pl_fsrs_retention_ok(double r);

/* The probability of recall t days after the last grade, for stability s. */
double pl_fsrs_recall(const PlFsrs *p, double t, double s);
/* The card's probability of recall at time now (a new card: 0). */
double pl_sched_recall(const PlFsrs *p, const PlSchedCard *c, long long now);
/* Grades the card at time now; seed is the card's own (the fuzz's
 * generator is seeded with it and the review count). -1 for g out of range
 * (nothing changes), else 0. */
int pl_sched_grade(const PlFsrs *p, PlSchedCard *c, PlGrade g, long long now, uint64_t seed);
/* The seconds the card would wait if graded g at now, or -1 for g out of range. */
long long pl_sched_wait(const PlFsrs *p, const PlSchedCard *c, PlGrade g, long long now, uint64_t seed);
/* Whether it is due on day today (days since 1970, UTC): new, or due before
 * the day ends. */
int pl_sched_is_due(const PlSchedCard *c, int today);
/* A card of the Leitner boxes (box 1..5, due and last as day numbers) as
 * FSRS (see above); box 0: a new card. */
void pl_sched_from_box(const PlFsrs *p, PlSchedCard *c, int box, int due_day, int last_day);
/* Day number of a date written YYYY-MM-DD (a real date, nothing else on
 * the line); 0, or -1. */
int pl_sched_parse_day(const char *text, int *day);
/* "YYYY-MM-DD" of a day number into out (at least 11 bytes). */
void pl_sched_day_text(int day, char *out, int cap);
/* The state's name: "new", "learning", "review", "relearning". */
const char *pl_sched_state_name(int state);
/* The machine's clock: seconds since 1970 and today's day number (UTC
 * days, the days the intervals count); PADLAB_NOW (YYYY-MM-DD or
 * YYYY-MM-DDTHH:MM, UTC), for tests, sets it. Only front ends read it;
 * the functions above take the time they are given. */
long long pl_sched_now(void);
int pl_sched_today(void);

#endif
