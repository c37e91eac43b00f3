/* The attention map's blocks: relative weight, pad columns and each query
 * block's pad share, from the attention probe's head 0 (see attmap.h). */
#include "attmap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void pl_attmap_free(PlAttMap *m) {
    if (!m) return;
    free(m->rel), free(m->pad_keys), free(m->pad_queries), free(m->share);
    memset(m, 0, sizeof *m);
}

double pl_attmap_rel_cell(const PlProbeAttention *a, int q, int k) {
    size_t at = (size_t)q * a->T + (size_t)k;
    if (isinf(a->bias[at]) || a->visible[q] == 0) return 0.0;
    return (double)a->weights[at] * a->visible[q];
}

/* The mean relative weight of query block i, key block j; NaN when no query
 * of the block sees a key of it. */
static float block_rel(const PlAttMap *m, const PlProbeAttention *a, int i, int j) {
    int T = a->T, qa = pl_attmap_first(T, m->qper, i), qz = pl_attmap_first(T, m->qper, i + 1);
    int ka = pl_attmap_first(T, m->kper, j), kz = pl_attmap_first(T, m->kper, j + 1);
    double sum = 0.0;
    int queries = 0;
    for (int q = qa; q < qz; q++) {
        double w = 0.0;
        int seen = 0;
        for (int k = ka; k < kz; k++) {
            if (isinf(a->bias[(size_t)q * T + k])) continue;
            w += (double)a->weights[(size_t)q * T + k], seen++;
        }
        if (!seen) continue;
        sum += w / seen * a->visible[q], queries++;
    }
    return queries ? (float)log2(sum / queries) : NAN;
}

/* The pad keys of each key block, the pad queries and the real queries'
 * mean pad share of each query block. */
static void block_pads(PlAttMap *m, const PlProbeAttention *a) {
    int T = a->T;
    for (int j = 0; j < m->nk; j++)
        for (int k = pl_attmap_first(T, m->kper, j); k < pl_attmap_first(T, m->kper, j + 1); k++)
            m->pad_keys[j] += !a->real[k];
    for (int i = 0; i < m->nq; i++) {
        double s = 0.0;
        int real = 0;
        for (int q = pl_attmap_first(T, m->qper, i); q < pl_attmap_first(T, m->qper, i + 1); q++) {
            m->pad_queries[i] += !a->real[q];
            if (a->real[q]) s += (double)a->leak[q], real++;
        }
        m->share[i] = real ? (float)(s / real) : NAN;
    }
}

/* Blocks of ceil(T / max) over T: how many, and their size in per. */
static int blocks(int T, int max, int *per) {
    max = max < 1 ? 1 : max > T ? T : max;
    *per = (T + max - 1) / max;
    return (T + *per - 1) / *per;
}

PlStatus pl_attmap_make(PlAttMap *m, const PlProbeAttention *a, int max_q, int max_k) {
    memset(m, 0, sizeof *m);
    int T = a->T, nq = blocks(T, max_q, &m->qper), nk = blocks(T, max_k, &m->kper);
    m->T = T, m->nq = nq, m->nk = nk;
    m->rel = malloc((size_t)nq * nk * sizeof *m->rel);
    m->pad_keys = calloc((size_t)nk, sizeof *m->pad_keys);
    m->pad_queries = calloc((size_t)nq, sizeof *m->pad_queries);
    m->share = malloc((size_t)nq * sizeof *m->share);
    if (!m->rel || !m->pad_keys || !m->pad_queries || !m->share) {
        pl_attmap_free(m);
        return PL_ENOMEM;
    }
    for (int i = 0; i < nq; i++)
        for (int j = 0; j < nk; j++) m->rel[(size_t)i * nk + j] = block_rel(m, a, i, j);
    block_pads(m, a);
    return PL_OK;
}
