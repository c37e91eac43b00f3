/* Spaced repetition in Leitner boxes, with "today" passed in as a whole
 * number of days, so that a test can drive a card through weeks at once.
 *
 * A card starts in box 0 (new, due at once) and climbs boxes 1..5 as it is
 * recalled; box b waits pl_sched_interval(b) days: 1, 2, 4, 8, 16. A new
 * card is graded as if it stood in box 1, where it enters. Each grade
 * moves it:
 *
 *   1 again   back to box 1, due today (it comes round again this session)
 *   2 hard    stays in its box (a new card: box 1), due tomorrow
 *   3 good    one box up, due after the new box's interval
 *   4 easy    two boxes up, due after the interval of the box two up, which
 *             past box 5 goes on doubling (32, 64 days)
 *
 * Boxes stop at 5. At every box the four grades mean four different waits
 * (a new card: today, 1, 2 and 4 days). A card graded again from box 2 or
 * higher (it had been recalled) is a lapse. */
#ifndef PL_APP_SCHED_H
#define PL_APP_SCHED_H

#define PL_SCHED_BOXES 5

typedef enum { PL_GRADE_AGAIN = 1, PL_GRADE_HARD = 2, PL_GRADE_GOOD = 3, PL_GRADE_EASY = 4 } PlGrade;

typedef struct {
    int box;     /* 0: never seen; 1..PL_SCHED_BOXES */
    int due;     /* the day it is due (a new card: 0, due at once) */
    int reviews; /* grades given */
    int lapses;  /* times it fell back to box 1 after being recalled */
    int last;    /* the day of the last grade */
} PlSchedCard;

/* The days box b (1..5) waits; 0 for box 0. */
int pl_sched_interval(int box);
/* The days the card would wait if graded g now (0: due again today), or
 * -1 for g out of range. */
int pl_sched_wait(const PlSchedCard *c, PlGrade g);
/* Grades the card on day today (g out of range changes nothing: -1). */
int pl_sched_grade(PlSchedCard *c, PlGrade g, int today);
/* Whether it is due on day today. */
int pl_sched_is_due(const PlSchedCard *c, int today);
/* Today's day number on the machine's calendar (local time): the clock is
 * the front end's, passed to the functions above. */
int pl_sched_today(void);

#endif
