/* A drill session (see drill.h): the queue of items it plays, and the steps
 * that move it, each allowed only in the phases and kinds its row says. */
#include "drill.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "choices.h"
#include "core/rng.h"

#define K_CARDS_MINUTE_BITS ((1u << PL_DECK_CARDS) | (1u << PL_DECK_MINUTE))
#define K_CHOICE_BITS ((1u << PL_DECK_QUESTIONS) | (1u << PL_DECK_BUGS))

#define QUESTIONS_PER_ROUND 10
#define MAX_AGAIN 4 /* times one card may come round again in a session */

struct PlDrill {
    const PlDeck *deck;
    PlDrillBook *book;
    PlDrillOpts o;
    int *queue; /* (total) deck indices, in the order they are played */
    int cap;
    unsigned char *again; /* (deck n) times each came round again */
    PlDrillState st;
    double started;       /* the app's seconds when the session began */
    long long clock_then; /* and the machine's clock then, for a session without a clock */
    int today_then;
};

/* ---- the queue ---- */

static const PlDrillRecord *record(const PlDrill *d, int i) {
    return pl_drill_book_find(d->book, d->deck->name, d->deck->items[i].id);
}

static int scheduled(PlDeckKind k) { return k == PL_DECK_CARDS || k == PL_DECK_MINUTE; }

static int is_due(const PlDeck *deck, const PlDrillBook *book, int i, int today) {
    const PlDrillRecord *r = pl_drill_book_find(book, deck->name, deck->items[i].id);
    return !r || pl_sched_is_due(&r->s, today);
}

/* Sort keys: seen cards by due minute, before new ones in deck order;
 * questions missed before first, then unseen, then the least practised. */
typedef struct {
    int i;
    long key;
} Ranked;

static long rank(const PlDrill *d, int i, unsigned tiebreak) {
    const PlDrillRecord *r = record(d, i);
    if (scheduled(d->deck->kind)) return r && r->s.state ? (long)(r->s.due / 60) : 4000000000L + i;
    if (d->deck->kind == PL_DECK_BUGS) return i;
    int group = !r ? 1 : r->wrong > r->right ? 0 : 2;
    return (long)group * 100000000L + (r ? (long)(r->right + r->wrong) * 100000L : 0) + (long)(tiebreak % 100000u);
}

static int cmp_ranked(const void *a, const void *b) {
    long x = ((const Ranked *)a)->key, y = ((const Ranked *)b)->key;
    return (x > y) - (x < y);
}

/* New cards introduced on day: of the deck, or of every deck (deck NULL). */
static int introduced_on(const PlDeck *deck, const PlDrillBook *book, int day) {
    size_t len = deck ? strlen(deck->name) : 0;
    int n = 0;
    for (int i = 0; i < book->n; i++) {
        const PlDrillRecord *r = pl_book_at(book, i);
        n += r->log.n && r->log.state0 == PL_CARD_NEW && pl_sched_day(r->log.t) == day &&
             (!deck || (strncmp(r->key, deck->name, len) == 0 && r->key[len] == '/'));
    }
    return n;
}

int pl_drill_new_left(const PlDrillBook *book, int today) {
    int left = pl_drill_book_new_per_day(book) - introduced_on(NULL, book, today);
    return left > 0 ? left : 0;
}

int pl_drill_new_allowance(const PlDeck *deck, const PlDrillBook *book, int today) {
    if (!scheduled(deck->kind)) return deck->n;
    int left_today = pl_drill_new_left(book, today);
    int until = pl_drill_book_until(book);
    if (!until || today >= until) return left_today < deck->n ? left_today : deck->n;
    int unseen = 0;
    for (int i = 0; i < deck->n; i++) {
        const PlDrillRecord *r = pl_drill_book_find(book, deck->name, deck->items[i].id);
        unseen += !r || r->s.state == PL_CARD_NEW;
    }
    int today_new = introduced_on(deck, book, today), left = until - today;
    int cap = (unseen + today_new + left - 1) / left;
    cap = cap > today_new ? cap - today_new : 0;
    return cap < left_today ? cap : left_today;
}

static int build_queue(PlDrill *d) {
    const PlDeck *deck = d->deck;
    Ranked *r = malloc(sizeof *r * (size_t)(deck->n ? deck->n : 1));
    if (!r) return -1;
    PlRng rng;
    pl_rng_seed(&rng, d->o.seed);
    int n = 0, fresh = d->o.all ? deck->n : pl_drill_new_allowance(deck, d->book, d->o.today);
    for (int i = 0; i < deck->n; i++) {
        unsigned tie = (unsigned)pl_rng_below(&rng, 100000);
        if (scheduled(deck->kind) && !d->o.all && !is_due(deck, d->book, i, d->o.today)) continue;
        const PlDrillRecord *rec = record(d, i);
        if (scheduled(deck->kind) && (!rec || rec->s.state == PL_CARD_NEW) && fresh-- <= 0) continue;
        r[n].i = i, r[n].key = rank(d, i, tie), n++;
    }
    qsort(r, (size_t)n, sizeof *r, cmp_ranked);
    if (d->o.only > 0 && d->o.only <= deck->n) r[0].i = d->o.only - 1, n = 1;
    int limit = d->o.count > 0 ? d->o.count : deck->kind == PL_DECK_QUESTIONS ? QUESTIONS_PER_ROUND : n;
    if (n > limit) n = limit;
    d->cap = n + 16;
    d->queue = malloc(sizeof *d->queue * (size_t)d->cap);
    for (int k = 0; d->queue && k < n; k++) d->queue[k] = r[k].i;
    free(r);
    d->st.total = n;
    return d->queue ? 0 : -1;
}

/* Days until the next scheduled item comes due; -1 when none is. */
static int next_due(const PlDrill *d) {
    int best = -1;
    for (int i = 0; i < d->deck->n; i++) {
        const PlDrillRecord *r = record(d, i);
        int in = !r || !r->s.state ? 0 : (int)(pl_sched_day(r->s.due) - d->o.today);
        if (in < 0) in = 0;
        if (best < 0 || in < best) best = in;
    }
    return scheduled(d->deck->kind) ? best : -1;
}

/* The order of the item's choices for this attempt: the learner's salt and
 * how often they answered it before. */
static void shuffle(PlDrill *d, const PlDeckItem *it) {
    const PlDrillRecord *r = record(d, d->st.item);
    int pinned[PL_DECK_MAX_CHOICES];
    for (int c = 0; c < it->nchoices; c++) pinned[c] = it->choices[c].pinned;
    uint64_t seed = pl_choices_seed(d->book->salt, d->deck->name, it->id, r ? r->right + r->wrong : 0);
    pl_choices_order(seed, pinned, it->nchoices, d->st.order);
    d->st.right_at = pl_choices_place(d->st.order, it->nchoices, it->right);
}

/* Puts item `at` of the queue on screen (or ends the session). */
static void show(PlDrill *d, int at, double now) {
    PlDrillState *s = &d->st;
    s->at = at, s->chosen = -1, s->timed_out = 0, s->shown_at = now, s->message[0] = '\0';
    if (at >= s->total) {
        s->phase = PL_DRILL_END, s->item = -1, s->limit = 0.0;
        s->due_in = next_due(d);
        return;
    }
    s->phase = PL_DRILL_FRONT;
    s->item = d->queue[at];
    const PlDeckItem *it = &d->deck->items[s->item];
    shuffle(d, it);
    int secs = it->seconds ? it->seconds : d->deck->seconds;
    s->limit = d->deck->kind == PL_DECK_MINUTE || (d->deck->kind == PL_DECK_QUESTIONS && d->o.timed) ? secs : 0.0;
}

PlDrill *pl_drill_new(const PlDeck *deck, PlDrillBook *book, const PlDrillOpts *o, double now) {
    PlDrill *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->deck = deck, d->book = book, d->o = *o, d->started = now;
    d->clock_then = pl_sched_now(), d->today_then = (int)pl_sched_day(d->clock_then);
    d->again = calloc((size_t)(deck->n ? deck->n : 1), 1);
    if (!d->again || build_queue(d)) {
        pl_drill_free(d);
        return NULL;
    }
    show(d, 0, now);
    return d;
}

void pl_drill_free(PlDrill *d) {
    if (!d) return;
    free(d->queue), free(d->again);
    free(d);
}

const PlDrillState *pl_drill_state(const PlDrill *d) { return &d->st; }
const PlDeck *pl_drill_deck(const PlDrill *d) { return d->deck; }
const PlDeckItem *pl_drill_item(const PlDrill *d) { return d->st.item >= 0 ? &d->deck->items[d->st.item] : NULL; }

/* ---- steps ---- */

/* Which kinds and phases a step applies to. */
typedef enum { S_REVEAL, S_GRADE, S_CHOOSE, S_FIX, S_NEXT } Step;

static const struct {
    unsigned kinds, phases;
    const char *refused; /* what the learner is told */
} steps[] = {
    [S_REVEAL] = {K_CARDS_MINUTE_BITS, 1u << PL_DRILL_FRONT, "nothing to reveal here"},
    [S_GRADE] = {K_CARDS_MINUTE_BITS, 1u << PL_DRILL_BACK, "reveal the answer first (space), then grade it 1 to 4"},
    [S_CHOOSE] = {K_CHOICE_BITS, 1u << PL_DRILL_FRONT, "this one is answered: space goes on"},
    [S_FIX] = {1u << PL_DECK_BUGS, 1u << PL_DRILL_BACK, "pick the cause first; then f applies the fix"},
    [S_NEXT] = {K_CHOICE_BITS, (1u << PL_DRILL_BACK) | (1u << PL_DRILL_FIXED), "answer first"},
};

static int allowed(PlDrill *d, Step s) {
    if ((steps[s].kinds & (1u << d->deck->kind)) && (steps[s].phases & (1u << d->st.phase))) return 1;
    snprintf(d->st.message, sizeof d->st.message, "%s",
             d->st.phase == PL_DRILL_END ? "the drill is over: q quits" : steps[s].refused);
    return 0;
}

long long pl_drill_clock(const PlDrill *d, double now) {
    long long start = d->o.clock ? d->o.clock : pl_sched_day_start(d->o.today) + PL_DAY / 2;
    if (!d->o.clock && d->o.today == d->today_then) start = d->clock_then;
    return start + (long long)(now - d->started);
}

static PlDrillRecord *item_record(PlDrill *d) {
    return pl_drill_book_of(d->book, d->deck->name, d->deck->items[d->st.item].id);
}

int pl_drill_reveal(PlDrill *d, double now) {
    (void)now;
    if (!allowed(d, S_REVEAL)) return -1;
    d->st.phase = PL_DRILL_BACK, d->st.message[0] = '\0';
    return 0;
}

int pl_drill_grade(PlDrill *d, int grade, double now) {
    if (!allowed(d, S_GRADE)) return -1;
    if (grade < PL_GRADE_AGAIN || grade > PL_GRADE_EASY)
        return snprintf(d->st.message, sizeof d->st.message, "grade 1 (again) to 4 (easy)"), -1;
    pl_drill_book_grade(d->book, d->deck->name, d->deck->items[d->st.item].id, (PlGrade)grade, pl_drill_clock(d, now));
    d->st.graded[grade]++;
    int i = d->st.item;
    if (grade == PL_GRADE_AGAIN && d->again[i] < MAX_AGAIN) {
        if (d->st.total == d->cap) {
            int *q = realloc(d->queue, sizeof *q * (size_t)(d->cap * 2));
            if (q) d->queue = q, d->cap *= 2;
        }
        if (d->st.total < d->cap) d->queue[d->st.total++] = i, d->again[i]++;
    }
    show(d, d->st.at + 1, now);
    return 0;
}

static void record_answer(PlDrill *d, int right) {
    PlDrillRecord *r = item_record(d);
    if (r) {
        r->right += right, r->wrong += !right;
        r->s.reviews++;
    }
    d->st.right += right, d->st.wrong += !right;
    d->st.phase = PL_DRILL_BACK;
    d->st.message[0] = '\0';
}

int pl_drill_choose(PlDrill *d, int place, double now) {
    if (pl_drill_tick(d, now) || !allowed(d, S_CHOOSE)) return -1;
    const PlDeckItem *it = pl_drill_item(d);
    if (place < 0 || place >= it->nchoices)
        return snprintf(d->st.message, sizeof d->st.message, "pick one of a to %c", 'a' + it->nchoices - 1), -1;
    d->st.chosen = d->st.order[place];
    record_answer(d, it->choices[d->st.chosen].right);
    return 0;
}

int pl_drill_tick(PlDrill *d, double now) {
    if (d->deck->kind != PL_DECK_QUESTIONS || d->st.phase != PL_DRILL_FRONT || d->st.limit <= 0.0) return 0;
    if (now - d->st.shown_at < d->st.limit) return 0;
    d->st.timed_out = 1;
    record_answer(d, 0);
    snprintf(d->st.message, sizeof d->st.message, "time's up");
    return 1;
}

int pl_drill_fix(PlDrill *d) {
    if (!allowed(d, S_FIX)) return -1;
    d->st.phase = PL_DRILL_FIXED, d->st.message[0] = '\0';
    return 0;
}

int pl_drill_next(PlDrill *d, double now) {
    if (!allowed(d, S_NEXT)) return -1;
    show(d, d->st.at + 1, now);
    return 0;
}

double pl_drill_time_left(const PlDrill *d, double now) {
    if (d->st.limit <= 0.0 || d->st.phase == PL_DRILL_END) return -1.0;
    double left = d->st.limit - (now - d->st.shown_at);
    return left > 0.0 ? left : 0.0;
}

int pl_drill_due_count(const PlDeck *deck, const PlDrillBook *book, int today) {
    if (!scheduled(deck->kind)) return deck->n;
    int n = 0;
    for (int i = 0; i < deck->n; i++) n += is_due(deck, book, i, today);
    return n;
}
