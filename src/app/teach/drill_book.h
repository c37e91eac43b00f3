/* A learner's drill progress: for every card and minute prompt practised,
 * its FSRS memory state and schedule (sched.h), for every question and bug
 * case how often it was answered right and wrong, a review log line for
 * every grade, the desired retention, and the learner's salt, which with an
 * item's answer count seeds the order its choices are shown in (choices.h).
 * A book (book.h) in the file "drill" of padlab's state folder (app/dirs.h:
 * by default ~/.local/state/padlab), one line per record:
 *
 *   item = @settings retention=0.9 until=20465 reviews_per_day=100 new_per_day=20 day_starts=4
 *          (until: the interview's day; a setting never given is not written)
 *   item = cards-attention/key-padding-mask state=review step=0 d=5.0931 s=3.1262 due_at=1767312000
 *          last_at=1767052800 ivl=3 reviews=3 lapses=1 right=0 wrong=0        (one line)
 *   item = cards-attention/key-padding-mask@1767052800.3 log=3 t=1767052800 grade=3 elapsed=2
 *          from=review d0=.. s0=.. r0=.. due0=.. to=review d1=.. s1=.. due1=.. ivl=3    (one line)
 *
 * Times are seconds since 1970 (UTC). A log line is named after its card,
 * '@', the time and the review's number, so two drills' logs never share a
 * name and the merge under the lock keeps both.
 *
 * The first version of a card line held a Leitner box instead:
 *
 *   item = cards-attention/key-padding-mask box=2 due=20458 reviews=3 lapses=1 right=0 wrong=0 last=20457
 *
 * Such a line is read as an FSRS review card (pl_sched_from_box: S = the
 * box's days, due and last review on its days), keeping box=B on the line
 * as a record of where it came from; its counts are kept as they were. */
#ifndef PL_APP_DRILL_BOOK_H
#define PL_APP_DRILL_BOOK_H

#include <stdint.h>

#include "book.h"
#include "core/err.h"
#include "sched.h"

/* One grade: when, what, and the card's state before and after. */
typedef struct {
    int n;              /* the card's review number (1..); 0: the record is not a log line */
    long long t;        /* the grade's time */
    int grade, elapsed; /* 1..4; days since the grade before */
    int state0, state1; /* PlCardState before, after */
    double d0, s0, r0;  /* before: difficulty, stability, recall at t */
    double d1, s1;      /* after */
    long long due0, due1;
    int ivl; /* days the grade gave (0: a learning step) */
} PlReviewLog;

typedef struct {
    char key[PL_BOOK_NAME_CAP]; /* "DECK/ID", "DECK/ID@T.N" (a log line), "@settings" */
    PlSchedCard s;
    int right, wrong;
    int box;               /* the Leitner box of a card from the first version; 0 */
    int box_due, box_last; /* that version's days, read only (turned into s) */
    double retention;      /* @settings: the desired retention; 0 elsewhere */
    int until;             /* @settings: the interview's day (sched.h); 0: none */
    int reviews_per_day;   /* @settings: the daily limit of reviews; 0: PL_DRILL_REVIEWS_PER_DAY */
    int new_per_day;       /* @settings: new cards a day at most; 0: PL_DRILL_NEW_PER_DAY */
    int day_starts;        /* @settings: the local hour a day starts, 1..24 (24: midnight); 0: PL_DRILL_DAY_STARTS */
    PlReviewLog log;
} PlDrillRecord;

typedef PlBook PlDrillBook;

/* Reads the state folder's drill file into b (none yet: an empty book),
 * giving the learner a new salt when the file holds none. A damaged file is
 * set aside (b->notice says where) and the book starts empty; one that
 * cannot be read is named in err and nothing is read. b must be released
 * with pl_drill_book_done, whatever is returned. */
PlStatus pl_drill_book_load(PlDrillBook *b, PlErr *err);
/* The same from a file of one's own (tests, --state), which gets no salt
 * when it has none: its orders are the same on every run. */
PlStatus pl_drill_book_load_from(PlDrillBook *b, const char *path, PlErr *err);
/* An empty book that saves to path (tests). */
void pl_drill_book_init(PlDrillBook *b, const char *path);
/* Merges it into the file under its lock and writes it atomically (book.h):
 * another drill's grades are kept, and b then holds them too. */
PlStatus pl_drill_book_save(PlDrillBook *b, PlErr *err);
void pl_drill_book_done(PlDrillBook *b);
/* Days from here on start when the learner's book says (pl_drill_book_load
 * does this too): for a front end, before it asks pl_sched_today. */
void pl_drill_book_use_days(void);

/* The record of deck/id, or NULL. */
const PlDrillRecord *pl_drill_book_find(const PlDrillBook *b, const char *deck, const char *id);
/* The record, made when missing (NULL: no memory, or a name that does not
 * fit). Valid until the next call that can add or save. */
PlDrillRecord *pl_drill_book_of(PlDrillBook *b, const char *deck, const char *id);
/* The desired retention kept in the book (0.9 when none is). */
double pl_drill_book_retention(const PlDrillBook *b);
/* Keeps r (pl_fsrs_retention_ok) in the book; 0, or -1 (no memory, or out of range). */
int pl_drill_book_set_retention(PlDrillBook *b, double r);
/* The interview's day kept in the book (0: none); setting 0 forgets it. */
int pl_drill_book_until(const PlDrillBook *b);
int pl_drill_book_set_until(PlDrillBook *b, int day);
/* The daily limits and the hour a day starts, as the book keeps them or
 * their defaults. */
#define PL_DRILL_REVIEWS_PER_DAY 100
#define PL_DRILL_NEW_PER_DAY 20
#define PL_DRILL_DAY_STARTS 4
int pl_drill_book_reviews_per_day(const PlDrillBook *b);
int pl_drill_book_new_per_day(const PlDrillBook *b);
int pl_drill_book_day_starts(const PlDrillBook *b);
/* Keeps the limits given (0: as they are) and the hour (-1: as it is);
 * 0, or -1 (out of range, no memory). */
int pl_drill_book_set_limits(PlDrillBook *b, int reviews, int fresh, int hour);
/* load[k]: the seen cards of the book due on day today + k (the overdue on
 * today), the record named skip (or NULL) left out, for k < days; returns
 * days. */
int pl_drill_book_load_days(const PlDrillBook *b, const char *skip, long long today, int *load, int days);
/* Moves every seen card due after the interview's day onto a day before it
 * (pl_sched_fit_until, against the load of the others); returns how many
 * moved. */
int pl_drill_book_fit_until(PlDrillBook *b, long long now);
/* The scheduler's parameters with the book's retention, interview day and
 * daily limit (a grade adds the book's load). */
void pl_drill_book_fsrs(const PlDrillBook *b, PlFsrs *p);
/* Grades deck/id's card at time now and logs the grade; 0, or -1 (no
 * memory, a name that does not fit, a grade out of range). */
int pl_drill_book_grade(PlDrillBook *b, const char *deck, const char *id, PlGrade g, long long now);
/* The same with the scheduler's parameters given (the book's, changed). */
int pl_drill_book_grade_with(PlDrillBook *b, const PlFsrs *p, const char *deck, const char *id, PlGrade g,
                             long long now);
/* The fuzz's seed of a card (its name's hash). */
uint64_t pl_drill_card_seed(const char *deck, const char *id);
/* Whether a record is a card, question or case (not a log line or the settings). */
int pl_drill_record_is_item(const PlDrillRecord *r);
/* Forgets every record of a deck (its log lines too); returns how many. */
int pl_drill_book_forget(PlDrillBook *b, const char *deck);

/* The kind of record of a drill book (book.h), for tests and the fuzz harness. */
extern const PlBookKind pl_drill_kind;

#endif
