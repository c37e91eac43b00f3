/* The drill progress book (see drill_book.h): its record's fields and how
 * two drills' records merge. */
#include "drill_book.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/dirs.h"
#include "choices.h"
#include "lesson_review.h"
#include "renamed.h"

/* The fields of a line after the name: an int, a time (long long), a
 * figure (double) or a card state (its name), with its range. */
enum { F_INT, F_TIME, F_REAL, F_STATE };
static const struct {
    const char *name;
    size_t offset;
    int type;
    double lo, hi;
} keys[] = {
#define R(f) offsetof(PlDrillRecord, f)
    {"state", R(s.state), F_STATE, 0, 3},
    {"step", R(s.step), F_INT, 0, PL_FSRS_MAX_STEPS},
    {"d", R(s.d), F_REAL, 0, 10},
    {"s", R(s.s), F_REAL, 0, 36500},
    {"due_at", R(s.due), F_TIME, 0, 1e12},
    {"last_at", R(s.last), F_TIME, 0, 1e12},
    {"ivl", R(s.scheduled), F_INT, 0, 36500},
    {"reviews", R(s.reviews), F_INT, 0, 1e8},
    {"lapses", R(s.lapses), F_INT, 0, 1e8},
    {"right", R(right), F_INT, 0, 1e8},
    {"wrong", R(wrong), F_INT, 0, 1e8},
    {"box", R(box), F_INT, 0, PL_SCHED_BOXES},
    {"due", R(box_due), F_INT, -1, 1e7}, /* the first version's days (to 1e7: the seconds stay under due_at's 1e12) */
    {"last", R(box_last), F_INT, -1, 1e7},
    {"retention", R(retention), F_REAL, 0, 0.99},
    {"until", R(until), F_INT, 0, 1e7},
    {"reviews_per_day", R(reviews_per_day), F_INT, 0, 100000},
    {"new_per_day", R(new_per_day), F_INT, 0, 100000},
    {"day_starts", R(day_starts), F_INT, 0, 24},
    {"log", R(log.n), F_INT, 0, 1e8},
    {"t", R(log.t), F_TIME, 0, 1e12},
    {"grade", R(log.grade), F_INT, 0, 4},
    {"elapsed", R(log.elapsed), F_INT, 0, 1e8},
    {"from", R(log.state0), F_STATE, 0, 3},
    {"d0", R(log.d0), F_REAL, 0, 10},
    {"s0", R(log.s0), F_REAL, 0, 36500},
    {"r0", R(log.r0), F_REAL, 0, 1},
    {"due0", R(log.due0), F_TIME, 0, 1e12},
    {"to", R(log.state1), F_STATE, 0, 3},
    {"d1", R(log.d1), F_REAL, 0, 10},
    {"s1", R(log.s1), F_REAL, 0, 36500},
    {"due1", R(log.due1), F_TIME, 0, 1e12},
    {"ivl1", R(log.ivl), F_INT, 0, 36500},
#undef R
};
#define NKEYS ((int)(sizeof keys / sizeof keys[0]))
/* Which fields a line of each sort writes: a card, a log line, the settings. */
static const char *const card_keys[] = {"state",   "step",   "d",     "s",     "due_at", "last_at", "ivl",
                                        "reviews", "lapses", "right", "wrong", "box",    NULL};
static const char *const log_keys[] = {"log",  "t",  "grade", "elapsed", "from", "d0",   "s0", "r0",
                                       "due0", "to", "d1",    "s1",      "due1", "ivl1", NULL};
static const char *const settings_keys[] = {"retention", "until", "reviews_per_day", "new_per_day", "day_starts", NULL};

static void *at(void *r, int k) { return (char *)r + keys[k].offset; }
static const void *at_c(const void *r, int k) { return (const char *)r + keys[k].offset; }

static int state_of(const char *v) {
    for (int s = PL_CARD_NEW; s <= PL_CARD_RELEARNING; s++)
        if (strcmp(v, pl_sched_state_name(s)) == 0) return s;
    return -1;
}

static int set_field(void *rec, int k, const char *value) {
    char *end;
    if (keys[k].type == F_STATE) {
        int st = state_of(value);
        return st < 0 ? -1 : (*(int *)at(rec, k) = st, 0);
    }
    double v = keys[k].type == F_REAL ? strtod(value, &end) : (double)strtoll(value, &end, 10);
    if (end == value || *end || !isfinite(v) || v < keys[k].lo || v > keys[k].hi) return -1;
    if (keys[k].type == F_REAL) *(double *)at(rec, k) = v;
    else if (keys[k].type == F_TIME) *(long long *)at(rec, k) = (long long)v;
    else *(int *)at(rec, k) = (int)v;
    return 0;
}

static int field(void *rec, const char *key, const char *value) {
    for (int k = 0; k < NKEYS; k++)
        if (strcmp(key, keys[k].name) == 0) return set_field(rec, k, value);
    return -1;
}

static int is_settings(const PlDrillRecord *r) { return strcmp(r->key, "@settings") == 0; }
int pl_drill_record_is_item(const PlDrillRecord *r) { return !r->log.n && !is_settings(r); }

/* Whether the record holds nothing outside the fields its sort writes. */
static int only(const PlDrillRecord *r, const char *const *names) {
    PlDrillRecord z;
    memset(&z, 0, sizeof z);
    memcpy(z.key, r->key, sizeof z.key);
    for (int k = 0; k < NKEYS; k++) {
        int mine = 0;
        for (int i = 0; names[i]; i++) mine |= strcmp(names[i], keys[k].name) == 0;
        size_t len = keys[k].type == F_REAL ? sizeof(double) : keys[k].type == F_TIME ? sizeof(long long) : sizeof(int);
        if (mine) memcpy(at(&z, k), at_c(r, k), len);
    }
    return memcmp(&z, r, sizeof z) == 0;
}

/* A card line of the first version (a box, no FSRS state) becomes an FSRS
 * card (drill_book.h); its days are kept in the card's times. */
static int check(void *rec) {
    PlDrillRecord *r = rec;
    if (r->box && r->s.state == PL_CARD_NEW && r->s.s == 0) {
        PlFsrs p;
        pl_fsrs_default(&p);
        pl_sched_from_box(&p, &r->s, r->box, r->box_due < 0 ? 0 : r->box_due, r->box_last < 0 ? 0 : r->box_last);
    }
    r->box_due = r->box_last = 0;
    if (is_settings(r)) return only(r, settings_keys) ? 0 : -1;
    if (r->log.n) return only(r, log_keys) && r->log.grade >= 1 ? 0 : -1;
    if ((r->s.state == PL_CARD_NEW) != (r->s.s == 0) || (r->s.state != PL_CARD_NEW && r->s.d < 1)) return -1;
    return only(r, card_keys) ? 0 : -1;
}

/* The shortest decimal that reads back as x exactly. */
static void put_real(FILE *f, double x) {
    char buf[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, x);
        if (strtod(buf, NULL) == x) break;
    }
    fputs(buf, f);
}

static void write_fields(FILE *f, const void *rec) {
    const PlDrillRecord *r = rec;
    const char *const *names = is_settings(r) ? settings_keys : r->log.n ? log_keys : card_keys;
    for (int i = 0; names[i]; i++) {
        int k = 0;
        while (strcmp(keys[k].name, names[i])) k++;
        if (keys[k].type == F_INT && strcmp(keys[k].name, "box") == 0 && !r->box) continue;
        if (is_settings(r) && !(keys[k].type == F_REAL ? *(const double *)at_c(r, k) : *(const int *)at_c(r, k)))
            continue; /* a setting never given is not written */
        fprintf(f, " %s=", keys[k].name);
        if (keys[k].type == F_STATE) fputs(pl_sched_state_name(*(const int *)at_c(r, k)), f);
        else if (keys[k].type == F_REAL) put_real(f, *(const double *)at_c(r, k));
        else if (keys[k].type == F_TIME) fprintf(f, "%lld", *(const long long *)at_c(r, k));
        else fprintf(f, "%d", *(const int *)at_c(r, k));
    }
}

/* Counts add up (grades given here and there are all kept); the schedule
 * is the one of the last grade saved; a log line is the same everywhere. */
static void merge(void *now, const void *base, const void *mine) {
    PlDrillRecord *d = now;
    const PlDrillRecord *b = base, *m = mine;
    if (!pl_drill_record_is_item(m)) {
        d->retention = m->retention, d->until = m->until, d->log = m->log;
        d->reviews_per_day = m->reviews_per_day, d->new_per_day = m->new_per_day, d->day_starts = m->day_starts;
        return;
    }
    int reviews = d->s.reviews + m->s.reviews - b->s.reviews, lapses = d->s.lapses + m->s.lapses - b->s.lapses;
    d->right += m->right - b->right;
    d->wrong += m->wrong - b->wrong;
    if (memcmp(&m->s, &b->s, sizeof m->s)) d->s = m->s;
    d->s.reviews = reviews, d->s.lapses = lapses;
}

/* A lesson question's card kept under its lesson's old name
 * ("lessons/09-batching:the-boundary-loss-terms", and its log lines, which
 * add "@T.N") as the card of the lesson its step went to (renamed.h). */
static int renamed(const void *rec, void *out, int max) {
    const PlDrillRecord *r = rec;
    static const char deck[] = PL_LESSON_DECK "/";
    const char *name = r->key + sizeof deck - 1, *colon = strchr(name, ':');
    if (max < 1 || strncmp(r->key, deck, sizeof deck - 1) || !colon || colon - name >= 96) return 0;
    char old[96], slug[PL_BOOK_NAME_CAP];
    memcpy(old, name, (size_t)(colon - name));
    old[colon - name] = '\0';
    snprintf(slug, sizeof slug, "%s", colon + 1);
    slug[strcspn(slug, "@")] = '\0';
    const char *now = pl_lesson_renamed_here(old) ? pl_lesson_renamed_card(old, slug) : NULL;
    if (!now || sizeof deck + strlen(now) + strlen(colon) > sizeof r->key) return 0;
    PlDrillRecord *o = out;
    *o = *r;
    snprintf(o->key, sizeof o->key, "%s%s%s", deck, now, colon);
    return 1;
}

const PlBookKind pl_drill_kind = {
    .word = "item",
    .comment = "padlab drill: each item practised, its FSRS memory and due time, its answers, and a log of grades",
    .expect = "item = DECK/ID state=S step=N d=D s=S due_at=T last_at=T ivl=N reviews=N lapses=N right=N wrong=N "
              "(or a log line, or box=B due=D ... of the first version)",
    .size = sizeof(PlDrillRecord),
    .field = field,
    .check = check,
    .write = write_fields,
    .merge = merge,
    .renamed = renamed,
};

void pl_drill_book_init(PlDrillBook *b, const char *path) {
    memset(b, 0, sizeof *b);
    b->kind = &pl_drill_kind;
    snprintf(b->path, sizeof b->path, "%s", path);
}

PlStatus pl_drill_book_load_from(PlDrillBook *b, const char *path, PlErr *err) {
    PlStatus st = pl_book_load(b, &pl_drill_kind, path, err);
    b->kind = &pl_drill_kind;
    return st;
}

PlStatus pl_drill_book_load(PlDrillBook *b, PlErr *err) {
    char dir[900], path[1024];
    pl_drill_book_init(b, "");
    if (pl_dir_state(dir, sizeof dir, err)) return PL_EIO;
    snprintf(path, sizeof path, "%s/drill", dir);
    PlStatus st = pl_drill_book_load_from(b, path, err);
    if (!st && !b->salt) b->salt = pl_choices_new_salt();                         /* kept from the first save on */
    if (!st) pl_sched_set_day_start(pl_drill_book_day_starts(b), pl_sched_now()); /* the learner's days */
    return st;
}

PlStatus pl_drill_book_save(PlDrillBook *b, PlErr *err) { return pl_book_save(b, err); }

void pl_drill_book_use_days(void) {
    PlDrillBook b;
    PlErr err;
    if (pl_drill_book_load(&b, &err)) /* sets the day's start when the book reads */
        pl_sched_set_day_start(PL_DRILL_DAY_STARTS, pl_sched_now());
    pl_drill_book_done(&b);
}

void pl_drill_book_done(PlDrillBook *b) { pl_book_done(b); }

static int key_of(const char *deck, const char *id, char *key) {
    int n = snprintf(key, PL_BOOK_NAME_CAP, "%s/%s", deck, id);
    return n > 0 && n < PL_BOOK_NAME_CAP && deck[0] && id[0] ? 0 : -1;
}

const PlDrillRecord *pl_drill_book_find(const PlDrillBook *b, const char *deck, const char *id) {
    char key[PL_BOOK_NAME_CAP];
    return key_of(deck, id, key) ? NULL : pl_book_find(b, key);
}

PlDrillRecord *pl_drill_book_of(PlDrillBook *b, const char *deck, const char *id) {
    char key[PL_BOOK_NAME_CAP];
    return key_of(deck, id, key) ? NULL : pl_book_of(b, key);
}

int pl_drill_book_forget(PlDrillBook *b, const char *deck) {
    char prefix[PL_BOOK_NAME_CAP];
    snprintf(prefix, sizeof prefix, "%s/", deck);
    return pl_book_forget(b, prefix, 1);
}

double pl_drill_book_retention(const PlDrillBook *b) {
    const PlDrillRecord *r = pl_book_find(b, "@settings");
    return r && r->retention > 0 ? r->retention : 0.9;
}

int pl_drill_book_set_retention(PlDrillBook *b, double r) {
    if (pl_fsrs_retention_ok(r)) return -1;
    PlDrillRecord *rec = pl_book_of(b, "@settings");
    return rec ? (rec->retention = r, 0) : -1;
}

int pl_drill_book_until(const PlDrillBook *b) {
    const PlDrillRecord *r = pl_book_find(b, "@settings");
    return r ? r->until : 0;
}

int pl_drill_book_set_until(PlDrillBook *b, int day) {
    PlDrillRecord *rec = pl_book_of(b, "@settings");
    return rec && day >= 0 ? (rec->until = day, 0) : -1;
}

/* A @settings field: 0 when never given. */
static int setting(const PlDrillBook *b, size_t offset) {
    const PlDrillRecord *r = pl_book_find(b, "@settings");
    return r ? *(const int *)((const char *)r + offset) : 0;
}

static int set_setting(PlDrillBook *b, size_t offset, int v) {
    PlDrillRecord *rec = pl_book_of(b, "@settings");
    return rec ? (*(int *)((char *)rec + offset) = v, 0) : -1;
}

int pl_drill_book_reviews_per_day(const PlDrillBook *b) {
    int v = setting(b, offsetof(PlDrillRecord, reviews_per_day));
    return v > 0 ? v : PL_DRILL_REVIEWS_PER_DAY;
}

int pl_drill_book_new_per_day(const PlDrillBook *b) {
    int v = setting(b, offsetof(PlDrillRecord, new_per_day));
    return v > 0 ? v : PL_DRILL_NEW_PER_DAY;
}

int pl_drill_book_day_starts(const PlDrillBook *b) {
    int v = setting(b, offsetof(PlDrillRecord, day_starts));
    return v > 0 ? v % 24 : PL_DRILL_DAY_STARTS;
}

int pl_drill_book_set_limits(PlDrillBook *b, int reviews, int fresh, int hour) {
    if ((reviews && (reviews < 1 || reviews > 100000)) || (fresh && (fresh < 1 || fresh > 100000)) || hour < -1 ||
        hour > 23)
        return -1;
    if (reviews && set_setting(b, offsetof(PlDrillRecord, reviews_per_day), reviews)) return -1;
    if (fresh && set_setting(b, offsetof(PlDrillRecord, new_per_day), fresh)) return -1;
    if (hour >= 0 && set_setting(b, offsetof(PlDrillRecord, day_starts), hour ? hour : 24)) return -1;
    return 0;
}

void pl_drill_book_fsrs(const PlDrillBook *b, PlFsrs *p) {
    pl_fsrs_default(p);
    p->retention = pl_drill_book_retention(b);
    p->until = pl_drill_book_until(b);
    p->daily_limit = pl_drill_book_reviews_per_day(b);
}

int pl_drill_book_load_days(const PlDrillBook *b, const char *skip, long long today, int *load, int days) {
    memset(load, 0, sizeof *load * (size_t)days);
    for (int i = 0; i < b->n; i++) {
        const PlDrillRecord *r = pl_book_at(b, i);
        if (!pl_drill_record_is_item(r) || r->s.state == PL_CARD_NEW || (skip && !strcmp(r->key, skip))) continue;
        long long k = pl_sched_day(r->s.due) - today;
        if (k < days) load[k < 0 ? 0 : k]++;
    }
    return days;
}

/* p with the book's load of the days from today to the interview's day
 * (or LOAD_DAYS), the record named skip left out. */
#define LOAD_DAYS 400
static void with_load(const PlDrillBook *b, PlFsrs *p, const char *skip, long long now, int *load) {
    long long today = pl_sched_day(now);
    int days = p->until && p->until >= today && p->until - today < LOAD_DAYS ? (int)(p->until - today) + 1 : LOAD_DAYS;
    p->load = load, p->load_first = today, p->load_days = pl_drill_book_load_days(b, skip, today, load, days);
}

int pl_drill_book_fit_until(PlDrillBook *b, long long now) {
    PlFsrs p;
    int load[LOAD_DAYS];
    pl_drill_book_fsrs(b, &p);
    if (!p.until) return 0;
    int moved = 0;
    for (;;) { /* the card due last first, each placed against the load the others make */
        PlDrillRecord *last = NULL;
        for (int i = 0; i < b->n; i++) {
            PlDrillRecord *r = pl_book_at(b, i);
            if (pl_drill_record_is_item(r) && r->s.state != PL_CARD_NEW && pl_sched_day(r->s.due) > p.until &&
                r->s.last <= now && (!last || r->s.due > last->s.due))
                last = r; /* (one graded after now, a clock set back, stays as it is) */
        }
        if (!last) return moved;
        with_load(b, &p, last->key, now, load);
        if (!pl_sched_fit_until(&p, &last->s, now)) return moved;
        moved++;
    }
}

uint64_t pl_drill_card_seed(const char *deck, const char *id) {
    uint64_t h = 1469598103934665603ULL; /* FNV-1a of "DECK/ID" */
    for (const char *s = deck; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    h = (h ^ '/') * 1099511628211ULL;
    for (const char *s = id; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

int pl_drill_book_grade(PlDrillBook *b, const char *deck, const char *id, PlGrade g, long long now) {
    PlFsrs p;
    pl_drill_book_fsrs(b, &p);
    return pl_drill_book_grade_with(b, &p, deck, id, g, now);
}

int pl_drill_book_grade_with(PlDrillBook *b, const PlFsrs *fsrs, const char *deck, const char *id, PlGrade g,
                             long long now) {
    PlFsrs p = *fsrs;
    PlDrillRecord *r = pl_drill_book_of(b, deck, id);
    if (!r || g < PL_GRADE_AGAIN || g > PL_GRADE_EASY) return -1;
    int load[LOAD_DAYS];
    with_load(b, &p, r->key, now, load);
    PlSchedCard was = r->s;
    PlReviewLog l;
    memset(&l, 0, sizeof l);
    l.t = now, l.grade = (int)g, l.state0 = was.state, l.d0 = was.d, l.s0 = was.s, l.due0 = was.due;
    l.r0 = pl_sched_recall(&p, &was, now);
    pl_sched_grade(&p, &r->s, g, now, pl_drill_card_seed(deck, id));
    l.n = r->s.reviews, l.state1 = r->s.state, l.d1 = r->s.d, l.s1 = r->s.s, l.due1 = r->s.due, l.ivl = r->s.scheduled;
    l.elapsed = was.state == PL_CARD_NEW || !was.last ? 0 : (int)(pl_sched_day(now) - pl_sched_day(was.last));
    char name[PL_BOOK_NAME_CAP];
    int len = snprintf(name, sizeof name, "%s/%s@%lld.%d", deck, id, now, l.n);
    if (len <= 0 || len >= (int)sizeof name) return 0; /* the card is graded; a name too long for its log */
    PlDrillRecord *log = pl_book_of(b, name);          /* r may move: not used from here on */
    if (!log) return -1;
    log->log = l;
    return 0;
}
