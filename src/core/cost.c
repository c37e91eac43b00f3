#include "cost.h"

#include <stdlib.h>
#include <string.h>

/* A row of source length L, of which kept tokens sit in a row of width T. */
static void add_row_kept(PlCost *c, int L, int kept, int T) {
    c->rows++;
    c->slots += T;
    c->real_tokens += kept;
    c->total_tokens += L;
    c->rows_truncated += L > kept;
    c->attn_cells += (int64_t)T * T;
    c->attn_real_cells += (int64_t)kept * kept;
    c->rnn_steps += T;
    c->rnn_wasted += T - kept;
}

void pl_cost_add_row(PlCost *c, int L, int T) { add_row_kept(c, L, L < T ? L : T, T); }

void pl_cost_add_packed(PlCost *c, int L) {
    c->rows++;
    c->slots += L;
    c->real_tokens += L;
    c->total_tokens += L;
    c->attn_cells += (int64_t)L * L;
    c->attn_real_cells += (int64_t)L * L;
    c->rnn_steps += L;
}

static int cmp_shape(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The distinct rows x width of p's batches (packed: one row of the batch's
 * kept tokens); -1 when there is no memory to count them. */
static int64_t count_shapes(const PlPlan *p, const int *len) {
    int64_t *key = malloc(sizeof *key * (size_t)(p->n_batches ? p->n_batches : 1)), n = 0;
    if (!key) return -1;
    for (int b = 0; b < p->n_batches; b++) {
        int64_t rows = p->start[b + 1] - p->start[b], width = p->width[b];
        if (p->packed) {
            width = 0;
            for (int i = p->start[b]; i < p->start[b + 1]; i++) width += pl_plan_kept(p, len[p->order[i]]);
            rows = 1;
        }
        key[b] = rows << 32 | width;
    }
    qsort(key, (size_t)p->n_batches, sizeof *key, cmp_shape);
    for (int b = 0; b < p->n_batches; b++) n += b == 0 || key[b] != key[b - 1];
    free(key);
    return n;
}

PlStatus pl_cost_of_plan(PlCost *c, const PlPlan *p, const int *len, PlErr *err) {
    memset(c, 0, sizeof *c);
    c->batches = p->n_batches;
    c->shapes = count_shapes(p, len);
    /* A count of 0 would be a wrong figure printed as a right one. */
    if (c->shapes < 0) return pl_err_set(err, PL_ENOMEM, "out of memory counting the batch shapes");
    for (int b = 0; b < p->n_batches; b++)
        for (int i = p->start[b]; i < p->start[b + 1]; i++) {
            int L = len[p->order[i]];
            int kept = pl_plan_kept(p, L);
            if (!p->packed) {
                add_row_kept(c, L, kept < p->width[b] ? kept : p->width[b], p->width[b]);
                continue;
            }
            pl_cost_add_packed(c, kept);
            c->total_tokens += L - kept;
            c->rows_truncated += L > kept;
        }
    return PL_OK;
}

void pl_cost_static(PlCost *c, const int *len, int n, int maxlen) {
    memset(c, 0, sizeof *c);
    for (int i = 0; i < n; i++) pl_cost_add_row(c, len[i], maxlen);
}

double pl_cost_padding_share(const PlCost *c) {
    return c->slots ? 1.0 - (double)c->real_tokens / (double)c->slots : 0.0;
}

double pl_cost_kept_share(const PlCost *c) {
    return c->total_tokens ? (double)c->real_tokens / (double)c->total_tokens : 1.0;
}

double pl_cost_truncated_share(const PlCost *c) { return c->rows ? (double)c->rows_truncated / (double)c->rows : 0.0; }

int64_t pl_cost_bytes(const PlCost *c, int hidden) { return c->slots * hidden * 4; }

static double saved(int64_t x, int64_t base) { return base > 0 ? 1.0 - (double)x / (double)base : 0.0; }

PlStatus pl_cost_compare(const int *len, int n, const PlCompareOpts *o, PlStrategyRow *rows, int *nrows, PlErr *err) {
    *nrows = 0;
    for (int k = 0; k < PL_BATCH_COUNT; k++) {
        int bounds[3];
        PlPlanOpts po = pl_plan_opts_standard((PlBatching)k, o->maxlen, o->batch_size, bounds);
        if (o->boundaries) po.boundaries = o->boundaries, po.n_boundaries = o->n_boundaries;
        po.bucket_batch_sizes = o->bucket_batch_sizes;
        po.seed = o->seed;
        PlPlan *p;
        PlStatus st = pl_plan_make(len, n, &po, &p, err);
        if (st) return st;
        PlStrategyRow *r = &rows[(*nrows)++];
        r->kind = (PlBatching)k;
        st = pl_cost_of_plan(&r->cost, p, len, err);
        pl_plan_free(p);
        if (st) return st;
        r->padding_share = pl_cost_padding_share(&r->cost);
        r->tokens_cut = r->cost.total_tokens - r->cost.real_tokens;
    }
    const PlCost *base = &rows[PL_BATCH_STATIC].cost;
    for (int i = 0; i < *nrows; i++) {
        rows[i].cells_saved = saved(rows[i].cost.slots, base->slots);
        rows[i].attn_saved = saved(rows[i].cost.attn_cells, base->attn_cells);
    }
    return PL_OK;
}
