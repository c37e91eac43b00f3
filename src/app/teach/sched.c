/* FSRS-6 (see sched.h): the memory formulas and the scheduler of the
 * reference code, ts-fsrs 5.4 (github.com/open-spaced-repetition/ts-fsrs,
 * packages/fsrs/src/algorithm.ts, impl/basic_scheduler.ts,
 * strategies/learning_steps.ts). The reference rounds its intermediate
 * figures to 8 decimals; so does this, so that the two agree to the last
 * printed digit. */
#include "sched.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const double default_w[PL_FSRS_WEIGHTS] = {
    0.212,  1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001,  1.8722, 0.1666, 0.796,
    1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542,
};

#define S_MIN 0.001
#define S_MAX 36500.0

void pl_fsrs_default(PlFsrs *p) {
    for (int i = 0; i < PL_FSRS_WEIGHTS; i++) p->w[i] = default_w[i];
    p->retention = 0.9;
    p->max_interval = 36500;
    p->fuzz = 1;
    p->learning[0] = 1, p->learning[1] = 10, p->nlearning = 2;
    p->relearning[0] = 10, p->nrelearning = 1;
    p->until = 0;
}

int pl_fsrs_retention_ok(double r) { return r >= 0.7 && r <= 0.99 ? 0 : -1; }

static double round8(double x) { return round(x * 1e8) / 1e8; }
static double clampd(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

/* ---- memory: D, S, R ---- */

static double decay_of(const PlFsrs *p) { return -p->w[20]; }
static double factor_of(const PlFsrs *p) { return round8(exp(log(0.9) / decay_of(p)) - 1.0); }

double pl_fsrs_recall(const PlFsrs *p, double t, double s) {
    if (s <= 0) return 0;
    return round8(pow(1 + factor_of(p) * t / s, decay_of(p)));
}

/* Days per day of stability at which recall falls to the desired retention. */
static double interval_modifier(const PlFsrs *p) {
    return round8((pow(p->retention, 1 / decay_of(p)) - 1) / factor_of(p));
}

static double init_stability(const PlFsrs *p, int g) { return fmax(p->w[g - 1], 0.1); }
static double init_difficulty(const PlFsrs *p, int g) { return round8(p->w[4] - exp((g - 1) * p->w[5]) + 1); }

static double next_difficulty(const PlFsrs *p, double d, int g) {
    double delta = -p->w[6] * (g - 3);
    double next = d + round8(delta * (10 - d) / 9); /* linear damping */
    return clampd(round8(p->w[7] * init_difficulty(p, PL_GRADE_EASY) + (1 - p->w[7]) * next), 1, 10);
}

static double recall_stability(const PlFsrs *p, double d, double s, double r, int g) {
    const double *w = p->w;
    double hard = g == PL_GRADE_HARD ? w[15] : 1, easy = g == PL_GRADE_EASY ? w[16] : 1;
    double grow = exp(w[8]) * (11 - d) * pow(s, -w[9]) * (exp((1 - r) * w[10]) - 1) * hard * easy;
    return round8(clampd(s * (1 + grow), S_MIN, S_MAX));
}

static double forget_stability(const PlFsrs *p, double d, double s, double r) {
    const double *w = p->w;
    return round8(clampd(w[11] * pow(d, -w[12]) * (pow(s + 1, w[13]) - 1) * exp((1 - r) * w[14]), S_MIN, S_MAX));
}

static double short_term_stability(const PlFsrs *p, double s, int g) {
    const double *w = p->w;
    double sinc = pow(s, -w[19]) * exp(w[17] * (g - 3 + w[18]));
    if (g >= PL_GRADE_HARD && sinc < 1) sinc = 1;
    return round8(clampd(s * sinc, S_MIN, S_MAX));
}

/* The memory state after grade g, t days after the last grade. */
static void next_memory(const PlFsrs *p, const PlSchedCard *c, int t, int g, double *d, double *s) {
    if (c->d == 0 && c->s == 0) {
        *d = clampd(init_difficulty(p, g), 1, 10), *s = init_stability(p, g);
        return;
    }
    double r = pl_fsrs_recall(p, t, c->s);
    if (t == 0) *s = short_term_stability(p, c->s, g);
    else if (g == PL_GRADE_AGAIN) {
        double floor_s = round8(c->s / exp(p->w[17] * p->w[18]));
        *s = fmin(fmax(floor_s, S_MIN), forget_stability(p, c->d, c->s, r));
    } else *s = recall_stability(p, c->d, c->s, r, g);
    *d = next_difficulty(p, c->d, g);
}

double pl_sched_recall(const PlFsrs *p, const PlSchedCard *c, long long now) {
    if (c->state == PL_CARD_NEW || c->s <= 0) return 0;
    double t = (double)(now - c->last) / (double)PL_DAY;
    return pl_fsrs_recall(p, t < 0 ? 0 : t, c->s);
}

/* ---- intervals ---- */

/* splitmix64: the fuzz's numbers, from the card's seed and review count. */
static double fuzz_uniform(uint64_t seed, int reviews) {
    uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (uint64_t)(reviews + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0;
}

/* The reference's fuzz ranges: 15% of the days from 2.5 to 7, 10% to 20,
 * 5% beyond, plus one. */
static int fuzzed(const PlFsrs *p, int ivl, int elapsed, uint64_t seed, int reviews) {
    if (!p->fuzz || ivl < 3) return ivl;
    static const struct {
        double start, end, factor;
    } ranges[] = {{2.5, 7.0, 0.15}, {7.0, 20.0, 0.1}, {20.0, 1e300, 0.05}};
    double delta = 1.0, x = ivl;
    for (size_t k = 0; k < sizeof ranges / sizeof ranges[0]; k++)
        delta += ranges[k].factor * fmax(fmin(x, ranges[k].end) - ranges[k].start, 0.0);
    int lo = (int)fmax(2, round(x - delta)), hi = (int)fmin(round(x + delta), p->max_interval);
    if (ivl > elapsed && lo < elapsed + 1) lo = elapsed + 1;
    if (lo > hi) lo = hi;
    return (int)floor(fuzz_uniform(seed, reviews) * (hi - lo + 1) + lo);
}

static int raw_interval(const PlFsrs *p, double s) {
    double ivl = round(s * interval_modifier(p));
    return (int)fmin(fmax(1, ivl), p->max_interval);
}

/* ---- learning steps ---- */

/* The minutes grade g waits at the card's step (0: it leaves the steps for
 * review) and the step it goes to, as the reference's BasicLearningSteps. */
static int step_minutes(const PlFsrs *p, int state, int step, int g, int *next) {
    int relearn = state == PL_CARD_REVIEW || state == PL_CARD_RELEARNING;
    const int *steps = relearn ? p->relearning : p->learning;
    int n = relearn ? p->nrelearning : p->nlearning;
    *next = 0;
    if (n == 0 || step >= n) return 0;
    if (state == PL_CARD_REVIEW) return g == PL_GRADE_AGAIN ? steps[step < 0 ? 0 : step] : 0;
    if (g == PL_GRADE_AGAIN) return steps[0];
    if (g == PL_GRADE_HARD)
        return *next = step, n == 1 ? (int)round(steps[0] * 1.5) : (int)round((steps[0] + steps[1]) / 2.0);
    if (g == PL_GRADE_GOOD && step + 1 < n) return *next = step + 1, steps[step + 1];
    return 0;
}

/* A new, learning or relearning card (and a review card graded again):
 * the next step, or review after the stability's interval. */
static void apply_steps(const PlFsrs *p, const PlSchedCard *was, PlSchedCard *c, int g, int to_state, long long now,
                        int elapsed, uint64_t seed) {
    int next, min = step_minutes(p, was->state, was->step, g, &next);
    if (min > 0 && min < 1440) {
        c->step = next, c->scheduled = 0, c->state = to_state, c->due = now + 60LL * min;
    } else if (min >= 1440) {
        c->state = PL_CARD_REVIEW, c->step = next, c->due = now + 60LL * min, c->scheduled = min / 1440;
    } else {
        int ivl = fuzzed(p, raw_interval(p, c->s), elapsed, seed, was->reviews);
        c->state = PL_CARD_REVIEW, c->step = 0, c->scheduled = ivl, c->due = now + PL_DAY * ivl;
    }
}

/* A review card graded hard, good or easy: hard < good < easy, in days. */
static int review_interval(const PlFsrs *p, const PlSchedCard *was, int g, int elapsed, uint64_t seed) {
    double s[5];
    for (int k = PL_GRADE_HARD; k <= PL_GRADE_EASY; k++) {
        double d;
        next_memory(p, was, elapsed, k, &d, &s[k]);
    }
    int n = was->reviews;
    int hard = fuzzed(p, raw_interval(p, s[PL_GRADE_HARD]), elapsed, seed, n);
    int good = fuzzed(p, raw_interval(p, s[PL_GRADE_GOOD]), elapsed, seed, n);
    if (hard > good) hard = good;
    if (good < hard + 1) good = hard + 1;
    int easy = fuzzed(p, raw_interval(p, s[PL_GRADE_EASY]), elapsed, seed, n);
    if (easy < good + 1) easy = good + 1;
    return g == PL_GRADE_HARD ? hard : g == PL_GRADE_GOOD ? good : easy;
}

/* ---- days ---- */

/* Seconds added to a time before it is cut into days: the local time's
 * offset from UTC less the hour the day starts at (pl_sched_set_day_start);
 * 0 (UTC days from midnight, as ts-fsrs counts them) until it is set. */
static long long day_shift;

static long long floor_div(long long a, long long b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

void pl_sched_set_day_start(int hour, long long now) {
    time_t t = (time_t)now;
    struct tm tm;
    long long off = localtime_r(&t, &tm) ? (long long)tm.tm_gmtoff : 0;
    day_shift = off - 3600LL * hour;
}

void pl_sched_set_day_shift(long long seconds) { day_shift = seconds; }
long long pl_sched_day(long long t) { return floor_div(t + day_shift, PL_DAY); }
long long pl_sched_day_start(long long day) { return day * PL_DAY - day_shift; }
static long long day_of(long long t) { return pl_sched_day(t); }

/* ---- where a review lands: the interview's day and the daily load ---- */

static int load_at(const PlFsrs *p, long long day) {
    long long k = day - p->load_first;
    return p->load && k >= 0 && k < p->load_days ? p->load[k] : 0;
}

/* The least loaded day of lo..hi, the later of equals. */
static long long least_loaded(const PlFsrs *p, long long lo, long long hi) {
    long long best = hi;
    for (long long d = hi - 1; d >= lo; d--)
        if (load_at(p, d) < load_at(p, best)) best = d;
    return best;
}

/* Moves a review card's due day: one graded before the final days and due
 * after the interview's day lands on the least loaded of the final days
 * (from which a review keeps recall on the day at the desired retention:
 * the interval the card has now, which a successful review only
 * lengthens), the later of equals: its last review before the interview.
 * Graded in the final days, it keeps its interval: its recall on the day
 * is at the desired retention or above, since it falls to it only at the
 * interval's end; one that lands on a day already at the daily limit comes earlier,
 * to the nearest day with room (earlier keeps recall higher), or when none
 * has room, later by a fifth of its interval at most (a day at least),
 * never past the interview's day. */
static void place(const PlFsrs *p, PlSchedCard *c, long long now) {
    if (c->state != PL_CARD_REVIEW) return;
    long long today = day_of(now), due = day_of(c->due), best = due;
    if (p->until && today < p->until - PL_SCHED_FINAL_DAYS && due > p->until) {
        long long lo = p->until - PL_SCHED_FINAL_DAYS, reach = p->until - (c->scheduled > 1 ? c->scheduled : 1);
        lo = lo > reach ? lo : reach;
        best = least_loaded(p, lo > today + 1 ? lo : today + 1, p->until);
    } else if (p->until && today < p->until && due > p->until &&
               pl_fsrs_recall(p, (double)(pl_sched_day_start(p->until) + PL_DAY / 2 - now) / PL_DAY, c->s) <
                   p->retention) {
        best = least_loaded(p, today + 1, p->until); /* its fuzzed interval ends past the point recall holds */
    } else if (p->daily_limit > 0 && load_at(p, due) >= p->daily_limit) {
        long long late =
            due + (c->scheduled / 5 > 1 ? c->scheduled / 5 : 1); /* a fifth of the interval later at most */
        if (p->until && today < p->until && late > p->until) late = p->until;
        for (long long d = due - 1; d > today && best == due; d--)
            if (load_at(p, d) < p->daily_limit) best = d;
        for (long long d = due + 1; d <= late && best == due; d++)
            if (load_at(p, d) < p->daily_limit) best = d;
    }
    if (best == due) return;
    c->scheduled = (int)(best - today), c->due = now + PL_DAY * (best - today);
}

int pl_sched_fit_until(const PlFsrs *p, PlSchedCard *c, long long now) {
    long long today = day_of(now);
    if (!p->until || c->state == PL_CARD_NEW || today > p->until || day_of(c->due) <= p->until) return 0;
    if (c->last > now) return 0; /* graded after now (a clock set back): left as it is */
    int ivl = (int)raw_interval(p, c->s);
    long long lo = p->until - PL_SCHED_FINAL_DAYS, reach = p->until - (ivl > 1 ? ivl : 1);
    lo = lo > reach ? lo : reach;
    long long best = least_loaded(p, lo > today ? lo : today, p->until);
    c->due = now + PL_DAY * (best - today);
    if (c->state == PL_CARD_REVIEW && c->last) c->scheduled = (int)(best - day_of(c->last));
    return 1;
}

int pl_sched_grade(const PlFsrs *p, PlSchedCard *c, PlGrade g, long long now, uint64_t seed) {
    if (g < PL_GRADE_AGAIN || g > PL_GRADE_EASY) return -1;
    const PlSchedCard was = *c;
    int elapsed = was.state == PL_CARD_NEW || !was.last ? 0 : (int)(day_of(now) - day_of(was.last));
    if (elapsed < 0) elapsed = 0;
    next_memory(p, &was, elapsed, (int)g, &c->d, &c->s);
    if (was.state == PL_CARD_REVIEW && g != PL_GRADE_AGAIN) {
        int ivl = review_interval(p, &was, (int)g, elapsed, seed);
        c->state = PL_CARD_REVIEW, c->step = 0, c->scheduled = ivl, c->due = now + PL_DAY * ivl;
    } else {
        int to = was.state == PL_CARD_NEW      ? PL_CARD_LEARNING
                 : was.state == PL_CARD_REVIEW ? PL_CARD_RELEARNING
                                               : was.state;
        apply_steps(p, &was, c, (int)g, to, now, elapsed, seed);
        if (was.state == PL_CARD_REVIEW) c->lapses++;
    }
    place(p, c, now);
    c->last = now;
    c->reviews++;
    return 0;
}

long long pl_sched_wait(const PlFsrs *p, const PlSchedCard *c, PlGrade g, long long now, uint64_t seed) {
    PlSchedCard t = *c;
    if (pl_sched_grade(p, &t, g, now, seed)) return -1;
    return t.due - now;
}

int pl_sched_is_due(const PlSchedCard *c, int today) {
    return c->state == PL_CARD_NEW || c->due < pl_sched_day_start((long long)today + 1);
}

void pl_sched_from_box(const PlFsrs *p, PlSchedCard *c, int box, int due_day, int last_day) {
    static const int days[PL_SCHED_BOXES + 1] = {0, 1, 2, 4, 8, 16};
    int reviews = c->reviews, lapses = c->lapses;
    memset(c, 0, sizeof *c); /* padding too: a book compares records byte for byte */
    c->reviews = reviews, c->lapses = lapses;
    if (box < 1) return;
    if (box > PL_SCHED_BOXES) box = PL_SCHED_BOXES;
    c->state = PL_CARD_REVIEW;
    c->s = days[box];
    c->d = clampd(init_difficulty(p, PL_GRADE_GOOD), 1, 10);
    c->scheduled = days[box];
    c->due = PL_DAY * due_day;
    int last = last_day > 0 ? last_day : due_day - days[box];
    c->last = PL_DAY * (last > 0 ? last : 0);
}

const char *pl_sched_state_name(int state) {
    static const char *const names[] = {"new", "learning", "review", "relearning"};
    return state >= 0 && state <= PL_CARD_RELEARNING ? names[state] : "?";
}

/* days_from_civil (H. Hinnant): days since 1970-01-01 of y-m-d. */
static int civil_day(int y, int m, int d) {
    y -= m <= 2;
    int era = (y >= 0 ? y : y - 399) / 400, yoe = y - era * 400;
    int doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1, doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static int month_days(int y, int m) {
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return days[m - 1] + (m == 2 && leap);
}

static int digits(const char *s, int n) {
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

int pl_sched_parse_day(const char *text, int *day) {
    if (!text || strlen(text) != 10 || text[4] != '-' || text[7] != '-') return -1;
    int y = digits(text, 4), m = digits(text + 5, 2), d = digits(text + 8, 2);
    if (y < 1970 || m < 1 || m > 12 || d < 1 || d > month_days(y, m)) return -1;
    *day = civil_day(y, m, d);
    return 0;
}

void pl_sched_day_text(int day, char *out, int cap) {
    time_t t = (time_t)day * PL_DAY;
    struct tm tm;
    if (!gmtime_r(&t, &tm)) snprintf(out, (size_t)cap, "day %d", day);
    else snprintf(out, (size_t)cap, "%04d-%02d-%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
}

int pl_sched_parse_time(const char *text, long long *t) {
    char date[11];
    int day, h = 12, min = 0; /* a date alone is its noon: the same day wherever the day starts */
    if (!text || strlen(text) < 10) return -1;
    memcpy(date, text, 10), date[10] = '\0';
    if (pl_sched_parse_day(date, &day)) return -1;
    if (text[10]) {
        if (strlen(text) != 16 || text[10] != 'T' || text[13] != ':') return -1;
        h = digits(text + 11, 2), min = digits(text + 14, 2);
        if (h < 0 || h > 23 || min < 0 || min > 59) return -1;
    }
    *t = (long long)day * PL_DAY + h * 3600 + min * 60;
    return 0;
}

void pl_sched_time_text(long long t, char *out, int cap) {
    long long day = floor_div(t, PL_DAY), s = t - day * PL_DAY;
    char date[32];
    pl_sched_day_text((int)day, date, sizeof date);
    snprintf(out, (size_t)cap, "%sT%02d:%02d", date, (int)(s / 3600), (int)(s % 3600 / 60));
}

/* PADLAB_NOW (pl_sched_parse_time); -1 when unset or not one. */
static long long injected_now(void) {
    long long t;
    return pl_sched_parse_time(getenv("PADLAB_NOW"), &t) ? -1 : t;
}

long long pl_sched_now(void) {
    long long t = injected_now();
    return t >= 0 ? t : (long long)time(NULL);
}

int pl_sched_today(void) { return (int)pl_sched_day(pl_sched_now()); }
