/* Leitner boxes (see sched.h): the grade table and the intervals. */
#include "sched.h"

#include <time.h>

static const int intervals[PL_SCHED_BOXES + 1] = {0, 1, 2, 4, 8, 16};

/* What each grade does: boxes up (or to box 1), and when it is due again. */
static const struct {
    int to_box_one; /* again: back to box 1 */
    int up;         /* boxes up */
    int tomorrow;   /* due the next day rather than after the box's interval */
    int today;      /* due again today */
} grades[] = {
    [PL_GRADE_AGAIN] = {1, 0, 0, 1},
    [PL_GRADE_HARD] = {0, 0, 1, 0},
    [PL_GRADE_GOOD] = {0, 1, 0, 0},
    [PL_GRADE_EASY] = {0, 2, 0, 0},
};

int pl_sched_interval(int box) {
    return box < 0 ? 0 : box > PL_SCHED_BOXES ? intervals[PL_SCHED_BOXES] : intervals[box];
}

int pl_sched_grade(PlSchedCard *c, PlGrade g, int today) {
    if (g < PL_GRADE_AGAIN || g > PL_GRADE_EASY) return -1;
    int box = c->box;
    if (grades[g].to_box_one) {
        if (c->box > 1) c->lapses++;
        box = 1;
    } else {
        box += grades[g].up;
        if (box < 1) box = 1;
        if (box > PL_SCHED_BOXES) box = PL_SCHED_BOXES;
    }
    c->box = box;
    c->due = grades[g].today ? today : grades[g].tomorrow ? today + 1 : today + pl_sched_interval(box);
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
