/* The compile_shapes kata: the batches a strategy makes of an epoch's
 * lengths, each batch's padded width, and the distinct (rows, width) shapes
 * among them, what a compiler that specialises on shapes compiles once
 * each. The plan is the core's (pl_plan_make) and the count is the one
 * `padlab buckets` prints (pl_cost_of_plan's shapes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cost.h"
#include "task_impl.h"

typedef struct {
    const char *what;
    PlBatching kind;
    int rows, batch_size;
    int shape; /* 0 the corpus's lengths, some cut short; 1 all equal; 2 cut to a multiple of 8; 3 one
                  empty; 4 cut in runs of three */
} ShapeCase;

static const ShapeCase shape_cases[] = {
    {"dynamic padding, 12 rows in batches of 4", PL_BATCH_DYNAMIC, 12, 4, 0},
    {"a last batch of fewer rows", PL_BATCH_DYNAMIC, 10, 4, 0},
    {"all rows of one length", PL_BATCH_DYNAMIC, 10, 4, 1},
    {"padded to a multiple of 8", PL_BATCH_MULTIPLE, 12, 4, 0},
    {"lengths exactly at a multiple of 8", PL_BATCH_MULTIPLE, 12, 4, 2},
    {"an empty row, padded to a multiple of 8", PL_BATCH_MULTIPLE, 9, 4, 3},
    {"bucket_longest, a length equal to the boundary", PL_BATCH_BUCKET_LONGEST, 12, 3, 4},
    {"a batch of one", PL_BATCH_DYNAMIC, 1, 4, 0},
};

/* Length i of a case: corpus row 3i's, cut by nothing, a quarter or a half
 * in turn (or in runs of three rows), so that a corpus of equal rows still
 * gives batches apart. */
static int length_of(const PlCorpus *c, int i, int shape) {
    int L = c->n ? pl_corpus_len(c, (shape == 1 ? 0 : i * 3) % c->n) : 0;
    if (shape != 1) L = L * (4 - (shape == 4 ? i / 3 : i) % 3) / 4;
    if (shape == 2) L = L >= 8 ? L / 8 * 8 : 8;
    if (shape == 3 && i == 5) L = 0;
    return L;
}

PlStatus pl_ktask_shapes_plan(const PlKCase *kc, PlPlan **p) {
    int n = kc->in[0].shape[0], len[16], bounds[4], nb = kc->in[3].shape[0];
    for (int i = 0; i < n; i++) len[i] = (int)kc->in[0].v[i];
    for (int k = 0; k < nb; k++) bounds[k] = (int)kc->in[3].v[k];
    PlBatching kind;
    if (pl_batching_parse(kc->in[2].text, &kind)) return PL_ERANGE;
    PlPlanOpts o = {.kind = kind, .batch_size = (int)kc->in[1].v[0], .boundaries = bounds, .n_boundaries = nb};
    PlErr err;
    return pl_plan_make(len, n, &o, p, &err);
}

static PlStatus make_shapes(PlKCase *kc, int k, const PlCorpus *c) {
    const ShapeCase *q = &shape_cases[k];
    int n = q->rows, len[16], bounds[1], nb = 1;
    snprintf(kc->what, sizeof kc->what, "%s", q->what);
    for (int i = 0; i < n; i++) len[i] = length_of(c, i, q->shape);
    bounds[0] = n > 4 && len[4] > 0 ? len[4] : 1; /* one boundary, a row's own length */
    PlStatus st = pl_karray_make(&kc->in[0], "lengths", PL_KT_INT, 1, &n);
    if (!st) st = pl_karray_scalar(&kc->in[1], "batch_size", PL_KT_INT, q->batch_size);
    pl_karray_text(&kc->in[2], "strategy", pl_batching_name(q->kind));
    if (!st) st = pl_karray_make(&kc->in[3], "boundaries", PL_KT_INT, 1, &nb);
    kc->nin = 4, kc->nout = 2;
    for (int i = 0; !st && i < n; i++) kc->in[0].v[i] = len[i];
    for (int i = 0; !st && i < nb; i++) kc->in[3].v[i] = bounds[i];
    PlPlan *p = NULL;
    PlCost cost;
    PlErr err;
    if (!st) st = pl_ktask_shapes_plan(kc, &p);
    if (!st) st = pl_cost_of_plan(&cost, p, len, &err);
    if (!st) st = pl_karray_make(&kc->out[0], "width", PL_KT_INT, 1, &p->n_batches);
    if (!st) st = pl_karray_scalar(&kc->out[1], "shapes", PL_KT_INT, (double)cost.shapes);
    for (int b = 0; !st && b < p->n_batches; b++) kc->out[0].v[b] = p->width[b];
    pl_plan_free(p);
    return st;
}

static void why_shapes(char *buf, size_t cap, const PlKCase *kc, int o, const int *idx, double got) {
    (void)got;
    const char *s = kc->in[2].text;
    if (o == 1)
        snprintf(buf, cap,
                 "a shape is (rows, width): a batch with the rows and the width of an earlier one reuses its "
                 "compiled graph, and a last batch of fewer rows is a shape of its own");
    else if (!strcmp(s, "multiple_of_8"))
        snprintf(buf, cap,
                 "batch %d is padded to its longest row rounded up to a multiple of 8 (a width already at a "
                 "multiple stays)",
                 idx[0]);
    else if (!strcmp(s, "bucket_longest"))
        snprintf(buf, cap,
                 "batch %d is padded to the longest row of its whole bucket (bucket k holds boundaries[k-1] <= "
                 "length < boundaries[k]), not to its own longest",
                 idx[0]);
    else snprintf(buf, cap, "batch %d is padded to its own longest row", idx[0]);
}

const PlKTask pl_ktask_shapes = {"compile_shapes",
                                 {{"lengths", PL_KT_INT, "N", "row"},
                                  {"batch_size", PL_KT_INT, "", ""},
                                  {"strategy", PL_KT_TEXT, "", ""},
                                  {"boundaries", PL_KT_INT, "K", "boundary"}},
                                 {{"width", PL_KT_INT, "batches", "batch"}, {"shapes", PL_KT_INT, "", ""}},
                                 4,
                                 2,
                                 (int)(sizeof shape_cases / sizeof shape_cases[0]),
                                 make_shapes,
                                 why_shapes};
