/* Leitner boxes (see sched.h): the grade table and the intervals. */
#include "sched.h"

#include <time.h>

static const int intervals[PL_SCHED_BOXES + 1] = {0, 1, 2, 4, 8, 16};

/* What each grade does to a card, counted from its box (a new card from box
 * 1, where it enters): boxes up, and whether the wait is the new box's, the
 * next day's or none. Easy waits as if boxes went on past the top, so that
 * at every box the four grades mean four different waits. */
static const struct {
    int to_box_one; /* again: back to box 1 */
    int up;         /* boxes up */
    int tomorrow;   /* due the next day rather than after the box's interval */
    int today;      /* due again today */
    int past_top;   /* the wait goes on doubling past the top box */
} grades[] = {
    [PL_GRADE_AGAIN] = {1, 0, 0, 1, 0},
    [PL_GRADE_HARD] = {0, 0, 1, 0, 0},
    [PL_GRADE_GOOD] = {0, 1, 0, 0, 0},
    [PL_GRADE_EASY] = {0, 2, 0, 0, 1},
};

int pl_sched_interval(int box) {
    return box < 0 ? 0 : box > PL_SCHED_BOXES ? intervals[PL_SCHED_BOXES] : intervals[box];
}

/* The days a card waits at level (a box, or past the top for easy). */
static int wait_of(int level, int past_top) {
    if (level <= PL_SCHED_BOXES || !past_top) return pl_sched_interval(level);
    int days = intervals[PL_SCHED_BOXES];
    for (int l = PL_SCHED_BOXES; l < level; l++) days *= 2;
    return days;
}

int pl_sched_wait(const PlSchedCard *c, PlGrade g) {
    if (g < PL_GRADE_AGAIN || g > PL_GRADE_EASY) return -1;
    int from = c->box < 1 ? 1 : c->box;
    if (grades[g].today) return 0;
    if (grades[g].tomorrow) return 1;
    return wait_of(from + grades[g].up, grades[g].past_top);
}

int pl_sched_grade(PlSchedCard *c, PlGrade g, int today) {
    int wait = pl_sched_wait(c, g);
    if (wait < 0) return -1;
    int box = c->box < 1 ? 1 : c->box;
    if (grades[g].to_box_one) {
        if (c->box > 1) c->lapses++;
        box = 1;
    }
    box += grades[g].up;
    c->box = box > PL_SCHED_BOXES ? PL_SCHED_BOXES : box;
    c->due = today + wait;
    c->reviews++;
    c->last = today;
    return 0;
}

int pl_sched_is_due(const PlSchedCard *c, int today) { return c->box == 0 || c->due <= today; }

int pl_sched_today(void) {
    time_t now = time(NULL);
    struct tm tm;
    if (!localtime_r(&now, &tm)) return (int)(now / 86400);
    /* Days since 1970-01-01 of the local date (days_from_civil). */
    int y = tm.tm_year + 1900, m = tm.tm_mon + 1, d = tm.tm_mday;
    y -= m <= 2;
    int era = (y >= 0 ? y : y - 399) / 400, yoe = y - era * 400;
    int doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1, doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}
