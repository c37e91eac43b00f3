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
 * With an interview's day set, an interval given before the final days
 * (PL_SCHED_FINAL_DAYS and the day itself) that would end after it lands
 * instead on the least loaded of the final days (the later of equals): each
 * card's last review before the interview, spread over the last days rather
 * than piled onto the morning. A grade in the final days keeps its
 * interval, which may end after the day: recall falls to the desired
 * retention only at an interval's end, so the card's recall on the day is
 * at it or above.
 * Without one, an interval that ends on a day already at the daily limit
 * ends on the nearest earlier day with room. The load is what the caller
 * says each day holds (the drill book counts it).
 *
 * Days start at a local hour (4 am by default in a drill book; the local
 * time follows TZ): a day number is the days since 1970 of the time moved
 * by pl_sched_set_day_start. Until that is called days are UTC's from
 * midnight, as the reference code counts them.
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
#define PL_SCHED_FINAL_DAYS 3 /* the days before an interview its last reviews spread over */

typedef enum { PL_GRADE_AGAIN = 1, PL_GRADE_HARD = 2, PL_GRADE_GOOD = 3, PL_GRADE_EASY = 4 } PlGrade;
typedef enum { PL_CARD_NEW, PL_CARD_LEARNING, PL_CARD_REVIEW, PL_CARD_RELEARNING } PlCardState;

typedef struct {
    double w[PL_FSRS_WEIGHTS];
    double retention;                           /* desired retention, 0.7..0.99 */
    int max_interval;                           /* days */
    int fuzz;                                   /* 1: fuzz intervals of 3 days and more */
    int learning[PL_FSRS_MAX_STEPS], nlearning; /* minutes */
    int relearning[PL_FSRS_MAX_STEPS], nrelearning;
    int until;       /* an interview's day (days since 1970): intervals end on or before it; 0: none */
    int daily_limit; /* reviews a day should hold at most (0: no limit) */
    const int *load; /* load[k]: the reviews day load_first + k already holds; NULL: none known */
    long long load_first;
    int load_days;
} PlFsrs;

typedef struct {
    int state;      /* PlCardState */
    int step;       /* the learning step it stands at */
    double d, s;    /* difficulty, stability (days); 0, 0 when new */
    long long due;  /* seconds; a new card: 0, due at once */
    long long last; /* seconds of the last grade; 0: none */
    int scheduled;  /* days the last grade gave (0: a learning step) */
    int reviews;    /* grades given */
    int lapses;     /* times a review card was graded again */
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
/* A seen card due after the interview's day, moved to the least loaded of
 * the final days (today on, as a grade would place it): 1 when moved, else 0. */
int pl_sched_fit_until(const PlFsrs *p, PlSchedCard *c, long long now);
/* Whether it is due on day today (pl_sched_day): new, or due before the day
 * ends. */
int pl_sched_is_due(const PlSchedCard *c, int today);
/* A card of the Leitner boxes (box 1..5, due and last as day numbers) as
 * FSRS (see above); box 0: a new card. */
void pl_sched_from_box(const PlFsrs *p, PlSchedCard *c, int box, int due_day, int last_day);
/* Day number of a date written YYYY-MM-DD (a real date, nothing else on
 * the line); 0, or -1. */
int pl_sched_parse_day(const char *text, int *day);
/* "YYYY-MM-DD" of a day number into out (at least 11 bytes). */
void pl_sched_day_text(int day, char *out, int cap);
/* A time as PADLAB_NOW writes it: YYYY-MM-DDTHH:MM (UTC), or YYYY-MM-DD
 * for its noon (a real date from 1970 to 9999, nothing else on the line);
 * seconds since 1970 in *t: 0, or -1. */
int pl_sched_parse_time(const char *text, long long *t);
/* "YYYY-MM-DDTHH:MM" (UTC) of time t into out (at least 17 bytes). */
void pl_sched_time_text(long long t, char *out, int cap);
/* The state's name: "new", "learning", "review", "relearning". */
const char *pl_sched_state_name(int state);
/* The machine's clock: seconds since 1970 and today's day number
 * (pl_sched_day); PADLAB_NOW (YYYY-MM-DD, its noon, or YYYY-MM-DDTHH:MM,
 * UTC), for tests, sets it. Only front ends read it;
 * the functions above take the time they are given. */
long long pl_sched_now(void);
int pl_sched_today(void);
/* Days start at hour (0..23) of the local time at now (TZ), from here on. */
void pl_sched_set_day_start(int hour, long long now);
/* The same as a shift in seconds (tests): 0 is UTC's midnight. */
void pl_sched_set_day_shift(long long seconds);
/* The day number of time t, and the time day starts at. */
long long pl_sched_day(long long t);
long long pl_sched_day_start(long long day);

#endif
