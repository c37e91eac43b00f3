/* The packing probe: the documents of a batch in one row with no pad, as a
 * flattening collator lays them out, and what each of its parts is for.
 *
 * Layout: the row is (N) tokens, document d at [cu[d], cu[d+1]); every
 * per-token array (ids, position_ids, seq_idx, labels) is (N). The model's
 * activations are (N,E) and (N,H*D), token-major: head h of token t at
 * t*H*D + h*D, which is pl_attend's (T,B,H*D) layout with B = 1. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn/attend.h"
#include "nn/nn.h"
#include "probe.h"
#include "rng.h"
#include "tensor.h"

#define PK_E PL_PACKING_WIDTH
#define PK_NH PL_PACKING_HEADS
#define PK_DH PL_PACKING_DHEAD
#define PK_HD (PK_NH * PK_DH)

typedef struct {
    float *tok, *pos, *wq, *wk, *wv, *wo; /* (V,E), (P,E), (E,H*D) x 3, (H*D,E) */
} Model;

static void model_free(Model *m) { free(m->tok), free(m->pos), free(m->wq), free(m->wk), free(m->wv), free(m->wo); }

static float *draw(PlRng *rng, size_t n, float limit) {
    float *w = malloc(n * sizeof *w + 1);
    if (w) pl_init_uniform(w, n, -limit, limit, rng);
    return w;
}

/* The draw order is the one probe.h states, so that a test can redraw it. */
static int model_init(Model *m, int V, int P, PlSeed seed) {
    PlRng rng;
    pl_rng_seed(&rng, seed);
    float g = sqrtf(6.0f / (float)(PK_E + PK_HD));
    m->tok = draw(&rng, (size_t)V * PK_E, 0.5f);
    m->pos = draw(&rng, (size_t)P * PK_E, 0.5f);
    m->wq = draw(&rng, (size_t)PK_E * PK_HD, g), m->wk = draw(&rng, (size_t)PK_E * PK_HD, g);
    m->wv = draw(&rng, (size_t)PK_E * PK_HD, g), m->wo = draw(&rng, (size_t)PK_HD * PK_E, g);
    return m->tok && m->pos && m->wq && m->wk && m->wv && m->wo ? 0 : -1;
}

/* x (n,E): each token's embedding plus its position's. */
static void embed(float *x, const Model *m, const int32_t *ids, const int32_t *pos, int n) {
    for (int t = 0; t < n; t++) {
        const float *te = m->tok + (size_t)ids[t] * PK_E, *pe = m->pos + (size_t)pos[t] * PK_E;
        for (int e = 0; e < PK_E; e++) x[(size_t)t * PK_E + e] = te[e] + pe[e];
    }
}

/* o (N,H*D): causal self-attention over one packed row, written plainly: query
 * i sees keys from[i]..i. With from[i] = its document's start that is the
 * block-diagonal causal mask of varlen attention; with from[i] = 0, a plain
 * causal mask over the whole row. cross (N), when not NULL, gets each
 * query's weight on the keys before start[i] (earlier documents), averaged
 * over heads. q, k, v (N,H*D). w: N floats of scratch. No pads: every key
 * from[i]..i is a token. */
static void row_attend(float *o, float *cross, const float *q, const float *k, const float *v, const int *from,
                       const int *start, int N, float *w) {
    float scale = 1.0f / sqrtf((float)PK_DH);
    for (int i = 0; i < N; i++) {
        if (cross) cross[i] = 0.0f;
        for (int h = 0; h < PK_NH; h++) {
            const float *qi = q + (size_t)i * PK_HD + (size_t)h * PK_DH;
            float top = -INFINITY, sum = 0.0f, before = 0.0f;
            for (int j = from[i]; j <= i; j++) {
                const float *kj = k + (size_t)j * PK_HD + (size_t)h * PK_DH;
                float s = 0.0f;
                for (int d = 0; d < PK_DH; d++) s += qi[d] * kj[d];
                w[j] = s * scale;
                top = w[j] > top ? w[j] : top;
            }
            for (int j = from[i]; j <= i; j++) sum += w[j] = expf(w[j] - top);
            float *oi = o + (size_t)i * PK_HD + (size_t)h * PK_DH;
            memset(oi, 0, PK_DH * sizeof *oi);
            for (int j = from[i]; j <= i; j++) {
                float p = w[j] / sum;
                const float *vj = v + (size_t)j * PK_HD + (size_t)h * PK_DH;
                for (int d = 0; d < PK_DH; d++) oi[d] += p * vj[d];
                if (j < start[i]) before += p;
            }
            if (cross) cross[i] += before / (float)PK_NH;
        }
    }
}

/* Scratch of one packed run. */
typedef struct {
    float *x, *q, *k, *v, *o, *y, *w;
} Run;

static void run_free(Run *u) { free(u->x), free(u->q), free(u->k), free(u->v), free(u->o), free(u->y), free(u->w); }

static int run_alloc(Run *u, int N) {
    size_t ne = (size_t)N * PK_E, nh = (size_t)N * PK_HD;
    u->x = malloc(ne * sizeof *u->x), u->y = malloc(ne * sizeof *u->y), u->w = malloc((size_t)N * sizeof *u->w);
    u->q = malloc(nh * sizeof *u->q), u->k = malloc(nh * sizeof *u->k), u->v = malloc(nh * sizeof *u->v);
    u->o = malloc(nh * sizeof *u->o);
    return u->x && u->y && u->w && u->q && u->k && u->v && u->o ? 0 : -1;
}

/* u->y (N,E): the layer over the packed row with position ids pos, each
 * query seeing keys from[i]..i. */
static void packed_layer(Run *u, float *cross, const Model *m, const int32_t *ids, const int32_t *pos, const int *from,
                         const int *start, int N) {
    embed(u->x, m, ids, pos, N);
    pl_dense_forward(u->q, u->x, m->wq, NULL, N, PK_E, PK_HD);
    pl_dense_forward(u->k, u->x, m->wk, NULL, N, PK_E, PK_HD);
    pl_dense_forward(u->v, u->x, m->wv, NULL, N, PK_E, PK_HD);
    row_attend(u->o, cross, u->q, u->k, u->v, from, start, N, u->w);
    pl_dense_forward(u->y, u->o, m->wo, NULL, N, PK_HD, PK_E);
}

/* ref (N,E): each document alone, positions 0..L-1, through pl_attend's
 * causal layer: another code path than row_attend's. Returns -1 when out of
 * memory. */
static int alone(float *ref, const Model *m, const PlProbePacking *r) {
    PlAttendBufs u = {0};
    int ok = 1;
    for (int d = 0; d < r->D && ok; d++) {
        int L = r->len[d], at = r->cu_seqlens[d];
        ok = !pl_attend_bufs_reserve(&u, L, 1, PK_E, PK_NH, PK_DH);
        if (!ok) break;
        embed(u.x, m, r->ids + at, r->position_ids + at, L); /* restarting: 0..L-1 */
        PlAttend a = {.T = L, .B = 1, .NH = PK_NH, .D = PK_DH, .causal = 1};
        pl_attend_layer(&u, NULL, NULL, NULL, NULL, NULL, m->wq, m->wk, m->wv, m->wo, PK_E, &a);
        memcpy(ref + (size_t)at * PK_E, u.y, (size_t)L * PK_E * sizeof *ref);
    }
    pl_attend_bufs_done(&u);
    return ok ? 0 : -1;
}

void pl_probe_packing_free(PlProbePacking *r) {
    if (!r) return;
    free(r->example), free(r->len), free(r->ids), free(r->position_ids), free(r->seq_idx), free(r->labels);
    free(r->cu_seqlens), free(r->cu_read), free(r->cross);
    memset(r, 0, sizeof *r);
}

/* cu (up to N+1, may be NULL): where pos is 0, then N, as a varlen kernel
 * reads boundaries back from position ids. Returns the documents found. */
static int read_back(int *cu, const int32_t *pos, int N) {
    int n = 0;
    for (int t = 0; t < N; t++)
        if (pos[t] == 0) {
            if (cu) cu[n] = t;
            n++;
        }
    if (cu) cu[n] = N;
    return n;
}

/* The documents: the example and the rows after it in its batch, each cut
 * to maxlen; their ids laid end to end. */
static PlStatus lay_out(PlProbePacking *r, const PlCorpus *c, const PlProbeOpts *o, const PlBatchPick *pick,
                        PlErr *err) {
    int n = pick->B < PL_PACKING_DOCS ? pick->B : PL_PACKING_DOCS;
    r->example = malloc((size_t)n * sizeof *r->example), r->len = malloc((size_t)n * sizeof *r->len);
    r->cu_seqlens = malloc(((size_t)n + 1) * sizeof *r->cu_seqlens);
    if (!r->example || !r->len || !r->cu_seqlens)
        return pl_err_set(err, PL_ENOMEM, "out of memory for the packing probe");
    for (int i = 0; i < n; i++) {
        int row = pick->rows[(pick->at + i) % pick->B], L = pl_corpus_len(c, row);
        int kept = L < o->maxlen ? L : o->maxlen;
        if (kept < 1) continue; /* it would add no token and no boundary */
        r->example[r->D] = row, r->len[r->D] = kept, r->D++;
        r->longest = kept > r->longest ? kept : r->longest;
    }
    if (r->D == 0) return pl_err_set(err, PL_ERANGE, "the packing probe's documents have no token");
    pl_cu_seqlens(r->cu_seqlens, r->len, r->D);
    r->N = r->cu_seqlens[r->D];
    size_t N = (size_t)r->N;
    uint8_t *real = malloc(N);
    r->ids = malloc(N * sizeof *r->ids), r->position_ids = malloc(N * sizeof *r->position_ids);
    r->seq_idx = malloc(N * sizeof *r->seq_idx), r->labels = malloc(N * sizeof *r->labels);
    if (!real || !r->ids || !r->position_ids || !r->seq_idx || !r->labels) {
        free(real);
        return pl_err_set(err, PL_ENOMEM, "out of memory for the packing probe");
    }
    PlPadOpts po = {o->maxlen, o->padding, o->truncating, 0};
    for (int d = 0; d < r->D; d++) {
        int at = r->cu_seqlens[d];
        pl_pad_row(r->ids + at, real + at, pl_corpus_seq(c, r->example[d]), pl_corpus_len(c, r->example[d]), r->len[d],
                   &po);
        for (int t = at; t < at + r->len[d]; t++) r->seq_idx[t] = d, r->labels[t] = r->ids[t];
        r->labels[at] = PL_IGNORE_INDEX; /* separator_id: nothing before it in its own document */
    }
    free(real);
    pl_packed_position_ids(r->position_ids, r->cu_seqlens, r->D);
    return PL_OK;
}

/* What needs no model: the boundaries read back, the cells, the loss terms. */
static PlStatus count(PlProbePacking *r, const int32_t *counted, PlErr *err) {
    int n = read_back(NULL, r->position_ids, r->N);
    r->cu_read = malloc(((size_t)n + 1) * sizeof *r->cu_read);
    if (!r->cu_read) return pl_err_set(err, PL_ENOMEM, "out of memory for the packing probe");
    r->n_read = read_back(r->cu_read, r->position_ids, r->N);
    r->cu_match = r->n_read == r->D && memcmp(r->cu_read, r->cu_seqlens, ((size_t)r->D + 1) * sizeof *r->cu_read) == 0;
    r->counted_read = read_back(NULL, counted, r->N);
    r->packed_cells = r->N;
    r->dynamic_cells = (long)r->D * r->longest, r->static_cells = (long)r->D * r->maxlen;
    r->dynamic_saved = r->dynamic_cells - r->packed_cells, r->static_saved = r->static_cells - r->packed_cells;
    r->dynamic_saved_share = (double)r->dynamic_saved / (double)r->dynamic_cells;
    r->static_saved_share = (double)r->static_saved / (double)r->static_cells;
    for (int t = 1; t < r->N; t++) {
        r->loss_terms += r->labels[t] != PL_IGNORE_INDEX;
        r->loss_terms_unmasked++;
        r->boundary_terms += r->position_ids[t] == 0; /* predicted from token t - 1, the previous document's last */
    }
    r->boundary_share = r->loss_terms_unmasked ? (double)r->boundary_terms / (double)r->loss_terms_unmasked : 0.0;
    return PL_OK;
}

/* The three packed runs against each document alone. */
static PlStatus measure(PlProbePacking *r, const PlCorpus *c, const PlProbeOpts *o, const int32_t *counted,
                        PlErr *err) {
    Model m = {0};
    Run u = {0};
    size_t N = (size_t)r->N;
    float *ref = malloc(N * PK_E * sizeof *ref), *cross = malloc(N * sizeof *cross);
    int *start = malloc(N * sizeof *start), *zero = calloc(N, sizeof *zero);
    r->cross = calloc((size_t)r->D, sizeof *r->cross);
    PlStatus st = PL_OK;
    if (!ref || !cross || !start || !zero || !r->cross || run_alloc(&u, r->N) ||
        model_init(&m, c->num_words, r->N, o->seed) || alone(ref, &m, r)) {
        st = pl_err_set(err, PL_ENOMEM, "out of memory for the packing probe");
    } else {
        for (int t = 0; t < r->N; t++) start[t] = r->cu_seqlens[r->seq_idx[t]];
        packed_layer(&u, NULL, &m, r->ids, r->position_ids, start, start, r->N);
        r->aware_max_diff = pl_max_abs_diff(u.y, ref, N * PK_E);
        packed_layer(&u, cross, &m, r->ids, r->position_ids, zero, start, r->N);
        r->causal_max_diff = pl_max_abs_diff(u.y, ref, N * PK_E);
        double row = 0.0;
        for (int d = 0; d < r->D; d++) {
            double sum = 0.0;
            for (int t = r->cu_seqlens[d]; t < r->cu_seqlens[d + 1]; t++) sum += (double)cross[t];
            r->cross[d] = (float)(sum / r->len[d]);
            row += sum;
        }
        r->cross_row = (float)(row / (double)r->N);
        packed_layer(&u, NULL, &m, r->ids, counted, start, start, r->N);
        r->counted_max_diff = pl_max_abs_diff(u.y, ref, N * PK_E);
    }
    free(ref), free(cross), free(start), free(zero);
    run_free(&u);
    model_free(&m);
    return st;
}

PlStatus pl_probe_packing(const PlCorpus *c, const PlProbeOpts *o, PlProbePacking *r, PlErr *err) {
    memset(r, 0, sizeof *r);
    PlBatchPick pick;
    /* It builds no model, so it reserves OpenBLAS's buffer itself (as the
     * generate probe does). */
    PlStatus st = pl_blas_init(err);
    if (!st) st = pl_probe_pick(c, o, &pick, err);
    if (st) return st;
    r->maxlen = o->maxlen;
    st = lay_out(r, c, o, &pick, err);
    pl_probe_pick_free(&pick);
    int32_t *counted = st ? NULL : malloc((size_t)r->N * sizeof *counted);
    if (!st && !counted) st = pl_err_set(err, PL_ENOMEM, "out of memory for the packing probe");
    for (int t = 0; !st && t < r->N; t++) counted[t] = t;
    if (!st) st = count(r, counted, err);
    if (!st) st = measure(r, c, o, counted, err);
    free(counted);
    if (st) pl_probe_packing_free(r);
    return st;
}
