/* A question's tally (class.h): counts per round, the rows of the answers
 * the class gave (the band counted right, the misconceptions the lesson
 * names, each distinct answer, clusters and outliers when they are many),
 * the right answers, the most common wrong one, and who switched between
 * the rounds. The rows are what peer instruction reads: which wrong
 * answers the class holds, never hidden in a bin that also holds the right. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "class_internal.h"

static int vote_right(const ClassQuestion *q, const ClassVote *v) {
    if (q->kind == PL_CLASS_CHOICE) return v->choice == q->right;
    return q->revealed && pl_quantity_check(&q->qty, q->value, v->text, &q->tol) == 1;
}

/* ---- a number's rows ---- */

/* A value as the quantity writes it ("54.5%", "1400", "0.4546"). */
static void written(const ClassQuestion *q, double v, char *out, int cap) { pl_quantity_format(&q->qty, v, out, cap); }

/* Whether a and b are the same answer: within the question's tolerance of
 * each other (a count: exactly). */
static int same_answer(const ClassQuestion *q, double a, double b) {
    return pl_quantity_same_answer(&q->qty, &q->tol, a, b);
}

/* The misconception a value is, or -1. */
static int miscon_of(const ClassQuestion *q, double v) {
    for (int m = 0; m < q->nmiscon; m++)
        if (same_answer(q, q->miscon[m].value, v)) return m;
    return -1;
}

typedef struct {
    double v;
    int round;
} Given;

static int cmp_given(const void *a, const void *b) {
    double x = ((const Given *)a)->v, y = ((const Given *)b)->v;
    return (x > y) - (x < y);
}

/* A row holding [lo, hi], its label made from them. */
static PlClassRow *add_row(PlClassTally *t, PlClassRowKind kind, double lo, double hi) {
    if (t->nrows >= PL_CLASS_ROWS) return NULL;
    PlClassRow *r = &t->rows[t->nrows++];
    memset(r, 0, sizeof *r);
    r->kind = kind, r->lo = lo, r->hi = hi;
    return r;
}

static void range_label(const ClassQuestion *q, PlClassRow *r) {
    char a[48], b[48];
    written(q, r->lo, a, sizeof a), written(q, r->hi, b, sizeof b);
    if (!strcmp(a, b)) snprintf(r->label, sizeof r->label, "%s", a);
    else snprintf(r->label, sizeof r->label, "%s to %s", a, b);
}

/* The wrong answers (sorted) as clusters of the same answer: starts[k] is
 * where cluster k begins; returns how many. */
static int clusters(const ClassQuestion *q, const Given *g, int n, int *starts) {
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!i || !same_answer(q, g[starts[k - 1]].v, g[i].v)) starts[k++] = i;
    return k;
}

/* Values far from the rest: beyond the middle half's range by three times
 * its width on either side (and at least a factor of ten off its median),
 * so that "1e3" on a share does not stretch every other row. */
static void outlier_fences(const Given *g, int n, double *lo, double *hi) {
    double q1 = g[n / 4].v, q3 = g[(3 * n) / 4 < n ? (3 * n) / 4 : n - 1].v, med = g[n / 2].v;
    double w = fmax(q3 - q1, 0.1 * fabs(med) + 1e-12);
    *lo = fmin(q1 - 3.0 * w, med - 10.0 * fabs(med) - 1e-12);
    *hi = fmax(q3 + 3.0 * w, med + 10.0 * fabs(med) + 1e-12);
}

/* The answers that are neither right nor a named misconception, as rows:
 * one a distinct answer while they fit in `room`, else the outliers in one
 * row and the rest in as many clusters of near answers as fit. */
static void other_rows(const ClassQuestion *q, PlClassTally *t, Given *g, int n, int room) {
    if (n <= 0 || room <= 0) return;
    qsort(g, (size_t)n, sizeof *g, cmp_given);
    int starts[PL_CLASS_MAX_STUDENTS * 2 + 1], k = clusters(q, g, n, starts), from = 0, to = n;
    starts[k] = n;
    if (k > room) { /* too many: the far ones first go to a row of their own */
        double lo, hi;
        outlier_fences(g, n, &lo, &hi);
        while (from < to && g[from].v < lo) from++;
        while (to > from && g[to - 1].v > hi) to--;
        if (from > 0 || to < n) {
            PlClassRow *r = add_row(t, PL_ROW_OUTLIERS, g[0].v, g[n - 1].v);
            char a[48], b[48];
            written(q, g[0].v, a, sizeof a), written(q, g[n - 1].v, b, sizeof b);
            snprintf(r->label, sizeof r->label, "far off: %s%s%s", from > 0 ? a : "", from > 0 && to < n ? ", " : "",
                     to < n ? b : "");
            for (int i = 0; i < n; i++)
                if (i < from || i >= to) r->count[g[i].round]++;
            room--;
        }
        k = clusters(q, g + from, to - from, starts);
        for (int j = 0; j < k; j++) starts[j] += from;
        starts[k] = to;
    }
    int per = (k + room - 1) / (room > 0 ? room : 1); /* clusters a row holds: 1 while they fit */
    for (int j = 0; j < k && room > 0; j += per, room--) {
        int a = starts[j], b = starts[j + per < k ? j + per : k];
        PlClassRow *r = add_row(t, PL_ROW_ANSWERS, g[a].v, g[b - 1].v);
        if (!r) return;
        range_label(q, r);
        for (int i = a; i < b; i++) r->count[g[i].round]++;
    }
}

static int cmp_rows(const void *a, const void *b) {
    const PlClassRow *x = a, *y = b;
    if (x->kind == PL_ROW_OUTLIERS || y->kind == PL_ROW_OUTLIERS) return (x->kind == PL_ROW_OUTLIERS) - (y->kind == PL_ROW_OUTLIERS);
    return (x->lo > y->lo) - (x->lo < y->lo);
}

/* The rows of a number: the band counted right (once revealed), the named
 * misconceptions someone gave, then the other answers; by value, the
 * outliers last. */
static void number_rows(const ClassQuestion *q, int n, PlClassTally *t) {
    Given g[2 * PL_CLASS_MAX_STUDENTS]; /* 16 KB: the stack, not a static two classes would share */
    int ng = 0, mis[PL_CLASS_MISCON][2] = {{0}}, right[2] = {0, 0}, fixed = 0;
    for (int r = 0; r < q->rounds; r++)
        for (int i = 0; i < n; i++) {
            const ClassVote *v = &q->votes[r][i];
            if (!v->has) continue;
            int m = miscon_of(q, v->num);
            if (vote_right(q, v)) right[r]++;
            else if (m >= 0) mis[m][r]++;
            else g[ng++] = (Given){v->num, r};
        }
    if (q->revealed) {
        PlClassRow *r = add_row(t, PL_ROW_RIGHT, t->band_lo, t->band_hi);
        snprintf(r->label, sizeof r->label, "%s (counted right)", t->value_text);
        r->count[0] = right[0], r->count[1] = right[1], fixed++;
    }
    for (int m = 0; m < q->nmiscon; m++) {
        if (!mis[m][0] && !mis[m][1]) continue;
        char v[48];
        PlClassRow *r = add_row(t, PL_ROW_MISCONCEPTION, q->miscon[m].value, q->miscon[m].value);
        written(q, q->miscon[m].value, v, sizeof v);
        snprintf(r->label, sizeof r->label, "%.40s: %.200s", v, q->miscon[m].text);
        r->count[0] = mis[m][0], r->count[1] = mis[m][1], fixed++;
    }
    other_rows(q, t, g, ng, PL_CLASS_ROWS - fixed);
    qsort(t->rows, (size_t)t->nrows, sizeof t->rows[0], cmp_rows);
    t->value_row = -1;
    for (int i = 0; i < t->nrows; i++)
        if (t->rows[i].kind == PL_ROW_RIGHT) t->value_row = i;
}

/* ---- the most common wrong answer, and the switches ---- */

/* Whether two votes are the same answer. */
static int same_vote(const ClassQuestion *q, const ClassVote *a, const ClassVote *b) {
    return q->kind == PL_CLASS_CHOICE ? a->choice == b->choice : same_answer(q, a->num, b->num);
}

/* Round 1's most common wrong answer: the most given; several given as
 * often are said as a tie (wrong_tied, the smallest named). */
static void most_wrong(const ClassQuestion *q, int n, PlClassTally *t) {
    int best = -1, best_n = 0, tied = 0;
    for (int i = 0; i < n; i++) {
        const ClassVote *v = &q->votes[0][i];
        if (!v->has || vote_right(q, v) || (q->kind == PL_CLASS_NUMBER && !q->revealed)) continue;
        int same = 0, first = 1;
        for (int j = 0; j < n; j++) {
            const ClassVote *w = &q->votes[0][j];
            if (w->has && !vote_right(q, w) && same_vote(q, w, v)) same++, first &= j >= i;
        }
        if (!first) continue; /* each answer counted once, at its first giver */
        const ClassVote *b = best >= 0 ? &q->votes[0][best] : NULL;
        int smaller = b && (q->kind == PL_CLASS_CHOICE ? v->choice < b->choice : v->num < b->num);
        if (same > best_n) best = i, best_n = same, tied = 0;
        else if (same == best_n) tied++, best = smaller ? i : best;
    }
    if (best < 0) return;
    const ClassVote *v = &q->votes[0][best];
    t->wrong_count = best_n, t->wrong_tied = tied;
    if (q->kind == PL_CLASS_CHOICE)
        snprintf(t->wrong, sizeof t->wrong, "%c. %s", 'a' + v->choice, q->choices[v->choice]);
    else written(q, v->num, t->wrong, sizeof t->wrong);
}

static void switches(const ClassQuestion *q, int n, PlClassTally *t) {
    if (q->rounds < 2 || (q->kind == PL_CLASS_NUMBER && !q->revealed)) return;
    for (int i = 0; i < n; i++) {
        const ClassVote *a = &q->votes[0][i], *b = &q->votes[1][i];
        if (!a->has || !b->has) continue;
        int ra = vote_right(q, a), rb = vote_right(q, b);
        t->to_right += !ra && rb, t->to_wrong += ra && !rb, t->stayed_right += ra && rb, t->stayed_wrong += !ra && !rb;
    }
}

void class_tally_locked(PlClass *c, int qi, PlClassTally *t) {
    const ClassQuestion *q = &c->qs[qi];
    int n = c->nstudents;
    memset(t, 0, sizeof *t);
    t->kind = q->kind, t->rounds = q->rounds, t->revealed = q->revealed, t->value_row = -1;
    t->nchoices = q->nchoices, t->right_choice = q->right;
    t->unit = q->kind == PL_CLASS_NUMBER && pl_quantity_kind_of_format(&q->qty) == PL_QF_SHARE ? 100.0 : 1.0;
    if (q->kind == PL_CLASS_NUMBER && q->revealed) {
        t->value = q->value;
        pl_quantity_band(&q->qty, q->value, &q->tol, &t->band_lo, &t->band_hi);
        written(q, q->value, t->value_text, sizeof t->value_text);
    }
    for (int r = 0; r < q->rounds; r++)
        for (int i = 0; i < n; i++) {
            const ClassVote *v = &q->votes[r][i];
            if (!v->has) continue;
            t->answered[r]++;
            t->right[r] += vote_right(q, v);
            if (q->kind == PL_CLASS_CHOICE) t->chosen[r][v->choice]++;
        }
    if (q->kind == PL_CLASS_NUMBER) number_rows(q, n, t);
    most_wrong(q, n, t);
    switches(q, n, t);
}

int pl_class_tally(PlClass *c, int qi, PlClassTally *t) {
    pthread_mutex_lock(&c->mu);
    int ok = qi >= 0 && qi < c->nq;
    if (ok) class_tally_locked(c, qi, t);
    pthread_mutex_unlock(&c->mu);
    return ok ? 0 : -1;
}

int pl_class_tally_label(const PlClassTally *t, int i, char *out, int cap) {
    if (t->kind == PL_CLASS_CHOICE) return snprintf(out, (size_t)cap, "%c.", 'a' + i), i == t->right_choice;
    snprintf(out, (size_t)cap, "%s", t->rows[i].label);
    return t->rows[i].kind == PL_ROW_RIGHT;
}

int pl_class_tally_count(const PlClassTally *t, int r, int i) {
    return t->kind == PL_CLASS_CHOICE ? t->chosen[r][i] : t->rows[i].count[r];
}

int pl_class_tally_rows(const PlClassTally *t, int *most) {
    int rows = t->kind == PL_CLASS_CHOICE ? t->nchoices : t->nrows;
    *most = 1;
    for (int r = 0; r < t->rounds; r++)
        for (int i = 0; i < rows; i++)
            if (pl_class_tally_count(t, r, i) > *most) *most = pl_class_tally_count(t, r, i);
    return rows;
}
