#include "plan.h"

#include "assert.h" /* pl_assert: ours, not <assert.h> */

#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "rng.h"

const char *const pl_batching_names[PL_BATCH_COUNT + 1] = {
    [PL_BATCH_LONGEST] = "longest",
    [PL_BATCH_STATIC] = "static",
    [PL_BATCH_DYNAMIC] = "dynamic",
    [PL_BATCH_MULTIPLE] = "multiple_of_8",
    [PL_BATCH_GROUPED] = "length_grouped",
    [PL_BATCH_BUCKET_LONGEST] = "bucket_longest",
    [PL_BATCH_TF_BUCKET] = "tf_bucket",
    [PL_BATCH_PACKED] = "packed",
    [PL_BATCH_COUNT] = NULL,
};

const char *pl_batching_name(PlBatching k) { return pl_batching_names[k]; }

int pl_batching_parse(const char *s, PlBatching *out) {
    int k = pl_name_find(pl_batching_names, s);
    if (k < 0) return -1;
    *out = (PlBatching)k;
    return 0;
}

int pl_plan_quarter_bounds(int maxlen, int bounds[3]) {
    bounds[0] = maxlen / 4;
    bounds[1] = maxlen / 2;
    bounds[2] = 3 * maxlen / 4;
    return bounds[0] >= 1 ? 3 : 0;
}

PlPlanOpts pl_plan_opts_standard(PlBatching kind, int maxlen, int batch_size, int bounds[3]) {
    int nb = pl_plan_quarter_bounds(maxlen, bounds);
    PlPlanOpts o = {.kind = kind,
                    .batch_size = batch_size,
                    .maxlen = kind == PL_BATCH_LONGEST ? 0 : maxlen,
                    .boundaries = bounds,
                    .n_boundaries = nb};
    return o;
}

int pl_plan_batch_of(const PlPlan *p, int row) {
    for (int b = 0; b < p->n_batches; b++)
        for (int i = p->start[b]; i < p->start[b + 1]; i++)
            if (p->order[i] == row) return b;
    return -1;
}

void pl_plan_free(PlPlan *p) {
    if (!p) return;
    free(p->order);
    free(p->start);
    free(p->width);
    free(p);
}

static PlPlan *plan_alloc(int n) {
    PlPlan *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    size_t m = (size_t)n + 1;
    p->n_rows = n;
    p->order = malloc(m * sizeof *p->order);
    p->start = malloc((m + 1) * sizeof *p->start);
    p->width = malloc(m * sizeof *p->width);
    if (!p->order || !p->start || !p->width) {
        pl_plan_free(p);
        return NULL;
    }
    p->start[0] = 0;
    return p;
}

/* Closes the batch that ends at row position end, with the given width. */
static void close_batch(PlPlan *p, int end, int width) {
    p->width[p->n_batches] = width;
    p->start[++p->n_batches] = end;
}

static int round_up(int x, int m) { return (x + m - 1) / m * m; }

/* Width of order[a..b) under the options: its longest (capped) row, rounded to
 * a multiple for PL_BATCH_MULTIPLE; the total for a packed plan. */
static int batch_width(const PlPlan *p, const int *len, int a, int b, const PlPlanOpts *o) {
    int w = 0;
    for (int i = a; i < b; i++) {
        int L = pl_plan_kept(p, len[p->order[i]]);
        w = p->packed ? w + L : (L > w ? L : w);
    }
    if (o->kind == PL_BATCH_MULTIPLE) w = round_up(w, o->multiple ? o->multiple : 8);
    return w;
}

/* Cuts order[0..n) into consecutive batches of bs rows. */
static void chunk(PlPlan *p, const int *len, int n, int bs, const PlPlanOpts *o, int fixed) {
    for (int a = 0; a < n; a += bs) {
        int b = a + bs < n ? a + bs : n;
        close_batch(p, b, fixed > 0 ? fixed : batch_width(p, len, a, b, o));
    }
}

int pl_plan_bucket_of(int L, const int *boundaries, int n) {
    int k = 0;
    while (k < n && L >= boundaries[k]) k++;
    return k;
}

static int bucket_of(int L, const PlPlanOpts *o) { return pl_plan_bucket_of(L, o->boundaries, o->n_boundaries); }

typedef struct {
    int len, idx;
} LenIdx;

static int by_len_desc(const void *a, const void *b) {
    const LenIdx *x = a, *y = b;
    if (x->len != y->len) return y->len - x->len;
    return x->idx - y->idx;
}

/* Sorts order[a..b) by descending length (stable on the row index). */
static PlStatus sort_window(PlPlan *p, const int *len, int a, int b) {
    LenIdx *tmp = malloc((size_t)(b - a) * sizeof *tmp);
    if (!tmp) return PL_ENOMEM;
    for (int i = a; i < b; i++) tmp[i - a] = (LenIdx){len[p->order[i]], p->order[i]};
    qsort(tmp, (size_t)(b - a), sizeof *tmp, by_len_desc);
    for (int i = a; i < b; i++) p->order[i] = tmp[i - a].idx;
    free(tmp);
    return PL_OK;
}

static void identity_order(PlPlan *p, const PlPlanOpts *o) {
    for (int i = 0; i < p->n_rows; i++) p->order[i] = i;
    if (o->shuffle) {
        PlRng rng;
        pl_rng_seed(&rng, o->seed);
        pl_rng_shuffle_int(&rng, p->order, p->n_rows);
    }
}

/* Moves whole batches into a seeded random order. */
static PlStatus shuffle_batches(PlPlan *p, PlRng *rng) {
    int nb = p->n_batches;
    int *perm = malloc((size_t)nb * sizeof *perm);
    int *order = malloc((size_t)p->n_rows * sizeof *order);
    int *start = malloc(((size_t)nb + 1) * sizeof *start);
    int *width = malloc((size_t)nb * sizeof *width);
    PlStatus st = perm && order && start && width ? PL_OK : PL_ENOMEM;
    if (st == PL_OK) {
        for (int b = 0; b < nb; b++) perm[b] = b;
        pl_rng_shuffle_int(rng, perm, nb);
        start[0] = 0;
        for (int b = 0; b < nb; b++) {
            int src = perm[b], n = p->start[src + 1] - p->start[src];
            memcpy(order + start[b], p->order + p->start[src], (size_t)n * sizeof *order);
            start[b + 1] = start[b] + n;
            width[b] = p->width[src];
        }
        memcpy(p->order, order, (size_t)p->n_rows * sizeof *order);
        memcpy(p->start, start, ((size_t)nb + 1) * sizeof *start);
        memcpy(p->width, width, (size_t)nb * sizeof *width);
    }
    free(perm);
    free(order);
    free(start);
    free(width);
    return st;
}

static PlStatus plan_grouped(PlPlan *p, const int *len, int bs, const PlPlanOpts *o) {
    PlRng rng;
    pl_rng_seed(&rng, o->seed);
    for (int i = 0; i < p->n_rows; i++) p->order[i] = i;
    pl_rng_shuffle_int(&rng, p->order, p->n_rows);
    int window = o->window > 0 ? o->window : 50 * bs;
    for (int a = 0; a < p->n_rows; a += window) {
        int b = a + window < p->n_rows ? a + window : p->n_rows;
        if (sort_window(p, len, a, b)) return PL_ENOMEM;
        for (int c = a; c < b; c += bs) {
            int d = c + bs < b ? c + bs : b;
            close_batch(p, d, batch_width(p, len, c, d, o));
        }
    }
    return shuffle_batches(p, &rng);
}

/* Each bucket's rows in corpus order, cut into batches of bs rows, every
 * batch padded to the longest (kept) row of its whole bucket. */
static void plan_bucket_longest(PlPlan *p, const int *len, int bs, const PlPlanOpts *o) {
    int at = 0;
    for (int k = 0; k <= o->n_boundaries; k++) {
        int a = at;
        for (int i = 0; i < p->n_rows; i++)
            if (bucket_of(len[i], o) == k) p->order[at++] = i;
        int width = batch_width(p, len, a, at, o);
        for (int c = a; c < at; c += bs) close_batch(p, c + bs < at ? c + bs : at, width);
    }
}

typedef struct {
    int nk;
    int *fill;     /* (nk) rows waiting in each bucket's window */
    int **pending; /* (nk) the waiting rows */
    int at;        /* rows placed in the plan so far */
} TfWindows;

static int tf_size(const PlPlanOpts *o, int k, int bs) { return o->bucket_batch_sizes ? o->bucket_batch_sizes[k] : bs; }

static void tf_emit(PlPlan *p, TfWindows *w, int k, const int *len, const PlPlanOpts *o) {
    int n = w->fill[k];
    memcpy(p->order + w->at, w->pending[k], (size_t)n * sizeof *p->order);
    int width = batch_width(p, len, w->at, w->at + n, o);
    if (o->pad_to_boundary && k < o->n_boundaries) width = o->boundaries[k] - 1;
    w->at += n;
    w->fill[k] = 0;
    close_batch(p, w->at, width);
}

/* tf.data semantics: rows arrive in order; each bucket fills a window of its
 * batch size and emits it when full; partial windows are flushed at the end. */
static PlStatus plan_tf_bucket(PlPlan *p, const int *len, int bs, const PlPlanOpts *o) {
    TfWindows w = {o->n_boundaries + 1, NULL, NULL, 0};
    w.fill = calloc((size_t)w.nk, sizeof *w.fill);
    w.pending = calloc((size_t)w.nk, sizeof *w.pending);
    PlStatus st = w.fill && w.pending ? PL_OK : PL_ENOMEM;
    for (int k = 0; st == PL_OK && k < w.nk; k++)
        if (!(w.pending[k] = malloc((size_t)tf_size(o, k, bs) * sizeof **w.pending))) st = PL_ENOMEM;
    for (int i = 0; st == PL_OK && i < p->n_rows; i++) {
        int k = bucket_of(len[i], o);
        w.pending[k][w.fill[k]++] = i;
        if (w.fill[k] == tf_size(o, k, bs)) tf_emit(p, &w, k, len, o);
    }
    for (int k = 0; st == PL_OK && k < w.nk; k++)
        if (w.fill[k]) tf_emit(p, &w, k, len, o);
    for (int k = 0; w.pending && k < w.nk; k++) free(w.pending[k]);
    free(w.pending);
    free(w.fill);
    return st;
}

static PlStatus check_opts(const int *len, int n, const PlPlanOpts *o, PlErr *err) {
    if (o->batch_size < 0) return pl_err_set(err, PL_ERANGE, "batch size must be >= 1");
    if (o->maxlen < 0 || (o->kind == PL_BATCH_STATIC && o->maxlen < 1))
        return pl_err_set(err, PL_ERANGE, "maxlen must be >= 1");
    if (o->multiple < 0) return pl_err_set(err, PL_ERANGE, "the multiple must be >= 1");
    int bucketed = o->kind == PL_BATCH_BUCKET_LONGEST || o->kind == PL_BATCH_TF_BUCKET;
    for (int k = 0; bucketed && k < o->n_boundaries; k++)
        if (o->boundaries[k] < 1 || (k > 0 && o->boundaries[k] <= o->boundaries[k - 1]))
            return pl_err_set(err, PL_ERANGE, "bucket boundaries must be positive and increasing");
    for (int k = 0; o->kind == PL_BATCH_TF_BUCKET && o->bucket_batch_sizes && k <= o->n_boundaries; k++)
        if (o->bucket_batch_sizes[k] < 1) return pl_err_set(err, PL_ERANGE, "bucket batch sizes must be >= 1");
    if (o->kind == PL_BATCH_TF_BUCKET && o->pad_to_boundary) {
        int last = o->n_boundaries ? o->boundaries[o->n_boundaries - 1] : 0, over = 0;
        for (int i = 0; i < n; i++) over += len[i] >= last;
        if (over)
            return pl_err_set(err, PL_ERANGE,
                              "pad_to_bucket_boundary needs every length below the last boundary "
                              "(%d; %d sequences reach it)",
                              last, over);
    }
    return PL_OK;
}

PlStatus pl_plan_make(const int *len, int n, const PlPlanOpts *o, PlPlan **out, PlErr *err) {
    *out = NULL;
    PlStatus st = check_opts(len, n, o, err);
    if (st) return st;
    PlPlan *p = plan_alloc(n);
    if (!p) return pl_err_set(err, PL_ENOMEM, "out of memory for a batching plan");
    int bs = o->batch_size > 0 ? o->batch_size : PL_DEFAULT_BATCH;
    p->packed = o->kind == PL_BATCH_PACKED;
    p->cap = o->kind == PL_BATCH_LONGEST ? 0 : o->maxlen;
    int longest = 0;
    for (int i = 0; i < n; i++) longest = len[i] > longest ? len[i] : longest;
    switch (o->kind) {
    case PL_BATCH_LONGEST:
        identity_order(p, o);
        chunk(p, len, n, bs, o, longest);
        break;
    case PL_BATCH_STATIC:
        identity_order(p, o);
        chunk(p, len, n, bs, o, o->maxlen);
        break;
    case PL_BATCH_DYNAMIC:
    case PL_BATCH_MULTIPLE:
    case PL_BATCH_PACKED:
        identity_order(p, o);
        chunk(p, len, n, bs, o, 0);
        break;
    case PL_BATCH_GROUPED: st = plan_grouped(p, len, bs, o); break;
    case PL_BATCH_BUCKET_LONGEST: plan_bucket_longest(p, len, bs, o); break;
    case PL_BATCH_TF_BUCKET: st = plan_tf_bucket(p, len, bs, o); break;
    default: st = pl_err_set(err, PL_ERANGE, "unknown batching strategy %d", (int)o->kind);
    }
    if (st) {
        pl_plan_free(p);
        return st == PL_ENOMEM ? pl_err_set(err, st, "out of memory for a batching plan") : st;
    }
    pl_assert(pl_plan_is_consistent(p, len));
    *out = p;
    return PL_OK;
}

/* Every row of 0..n) once in order; seen is scratch of n bytes. */
static int is_permutation(const int *order, int n, unsigned char *seen) {
    memset(seen, 0, (size_t)n);
    for (int i = 0; i < n; i++) {
        if (order[i] < 0 || order[i] >= n || seen[order[i]]) return 0;
        seen[order[i]] = 1;
    }
    return 1;
}

/* Batch b's width against its rows' kept lengths. */
static int width_fits(const PlPlan *p, const int *len, int b) {
    int64_t total = 0;
    for (int i = p->start[b]; i < p->start[b + 1]; i++) {
        int L = pl_plan_kept(p, len[p->order[i]]);
        if (!p->packed && L > p->width[b]) return 0;
        total += L;
    }
    return !p->packed || total == p->width[b];
}

int pl_plan_is_consistent(const PlPlan *p, const int *len) {
    if (!p || p->n_rows < 0 || p->n_batches < 0 || p->cap < 0) return 0;
    if (p->start[0] != 0 || p->start[p->n_batches] != p->n_rows) return 0;
    for (int b = 0; b < p->n_batches; b++)
        if (p->start[b + 1] <= p->start[b] || p->width[b] < 0 || (len && !width_fits(p, len, b))) return 0;
    unsigned char *seen = malloc((size_t)p->n_rows + 1);
    if (!seen) return 1; /* no memory to look: nothing seen wrong */
    int ok = is_permutation(p->order, p->n_rows, seen);
    free(seen);
    return ok;
}
