/* The kvcache probe: the prompts of the close-up rows decoded greedily with
 * a key/value cache, four ways, each against every prompt decoded alone.
 *
 * A cache holds, per row and slot, the key and value of the token there
 * (HD = heads x head width floats each) and the slot's mask bit. The prompt
 * fills slots 0..T-1 at once (its last column read for the first token);
 * step s then feeds the token picked before it into slot T+s-1 and reads
 * the next. A query attends to every slot up to its own that the mask
 * marks, so a pad's key and value are held and skipped, never read. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn/nn.h"
#include "probe.h"
#include "probe_decoder.h"
#include "tensor.h"

#define HD (PL_DEC_HEADS * PL_DEC_D)

typedef struct {
    int B, cap;
    float *k, *v;             /* (B,cap,HD) */
    uint8_t *mask;            /* (B,cap) */
    float *x, *q, *o, *y, *w; /* one query's scratch: (E), (HD), (HD), (E), (cap) */
} Cache;

static void cache_close(Cache *c) {
    free(c->k), free(c->v), free(c->mask), free(c->x), free(c->q), free(c->o), free(c->y), free(c->w);
    memset(c, 0, sizeof *c);
}

static int cache_open(Cache *c, int B, int cap) {
    size_t n = (size_t)B * (cap > 0 ? cap : 1);
    c->B = B, c->cap = cap;
    c->k = malloc(n * HD * sizeof *c->k), c->v = malloc(n * HD * sizeof *c->v), c->mask = calloc(n, 1);
    c->x = malloc(PL_DEC_E * sizeof *c->x), c->q = malloc(HD * sizeof *c->q), c->o = malloc(HD * sizeof *c->o);
    c->y = malloc(PL_DEC_E * sizeof *c->y), c->w = malloc((size_t)(cap > 0 ? cap : 1) * sizeof *c->w);
    return c->k && c->v && c->mask && c->x && c->q && c->o && c->y && c->w ? 0 : -1;
}

/* o (HD): head by head, the softmax-weighted sum of the values of the slots
 * 0..j of row b the mask marks (all of them when all is set), for the
 * query q; a query that sees no slot gets zeros. */
static void cache_attend(Cache *c, int b, int j, int all) {
    const float scale = 1.0f / sqrtf((float)PL_DEC_D);
    const uint8_t *m = c->mask + (size_t)b * c->cap;
    for (int h = 0; h < PL_DEC_HEADS; h++) {
        const float *qh = c->q + h * PL_DEC_D;
        float *oh = c->o + h * PL_DEC_D, top = -INFINITY, sum = 0.0f;
        for (int i = 0; i <= j; i++) {
            if (!all && !m[i]) continue;
            const float *ki = c->k + ((size_t)b * c->cap + i) * HD + h * PL_DEC_D;
            float s = 0.0f;
            for (int e = 0; e < PL_DEC_D; e++) s += qh[e] * ki[e];
            c->w[i] = s * scale;
            top = c->w[i] > top ? c->w[i] : top;
        }
        memset(oh, 0, PL_DEC_D * sizeof *oh);
        for (int i = 0; i <= j; i++)
            if (all || m[i]) sum += c->w[i] = expf(c->w[i] - top);
        for (int i = 0; i <= j && sum > 0.0f; i++) {
            if (!all && !m[i]) continue;
            const float *vi = c->v + ((size_t)b * c->cap + i) * HD + h * PL_DEC_D;
            for (int e = 0; e < PL_DEC_D; e++) oh[e] += c->w[i] / sum * vi[e];
        }
    }
}

/* Puts token id at position p with mask bit m into slot j of row b (its
 * key and value computed once, here), and when logits is not NULL reads
 * the next token's logits (C) from a query at that slot. */
static void cache_step(Cache *c, const PlDecoder *d, int b, int j, int32_t id, int p, int m, int all, float *logits) {
    const float *te = d->tok + (size_t)id * PL_DEC_E, *pe = d->pos + (size_t)p * PL_DEC_E;
    for (int e = 0; e < PL_DEC_E; e++) c->x[e] = te[e] + pe[e];
    size_t at = ((size_t)b * c->cap + j) * HD;
    pl_dense_forward(c->k + at, c->x, d->wk, NULL, 1, PL_DEC_E, HD);
    pl_dense_forward(c->v + at, c->x, d->wv, NULL, 1, PL_DEC_E, HD);
    c->mask[(size_t)b * c->cap + j] = (uint8_t)m;
    if (!logits) return;
    pl_dense_forward(c->q, c->x, d->wq, NULL, 1, PL_DEC_E, HD);
    cache_attend(c, b, j, all);
    pl_dense_forward(c->y, c->o, d->wo, NULL, 1, HD, PL_DEC_E);
    pl_dense_forward(logits, c->y, d->head, NULL, 1, PL_DEC_E, PL_DEC_C);
}

static int argmax(const float *v, int n) {
    int best = 0;
    for (int i = 1; i < n; i++) best = v[i] > v[best] ? i : best;
    return best;
}

/* One way of decoding a (B,T) layout: logits (R,B,C) and the tokens picked
 * (B,R), R = S + 1. by_slot: positions are slot indices, else counted among
 * the row's real slots (a pad at 1). all: the mask is ignored. */
typedef struct {
    const int32_t *ids;
    const uint8_t *mask;
    int B, T, S, by_slot, all;
} Way;

static int decode(const PlDecoder *d, const Way *w, float *logits, int32_t *picked) {
    Cache c = {0};
    int R = w->S + 1, ok = cache_open(&c, w->B, w->T + w->S) == 0;
    for (int b = 0; ok && b < w->B; b++) {
        const int32_t *ids = w->ids + (size_t)b * w->T;
        const uint8_t *m = w->mask + (size_t)b * w->T;
        int real = 0;
        float *first = logits + (size_t)b * PL_DEC_C;
        memset(first, 0, PL_DEC_C * sizeof *first); /* a prompt with no slot reads zeros */
        for (int t = 0; t < w->T; t++) {
            int p = w->by_slot ? t : m[t] ? real : 1;
            real += m[t];
            cache_step(&c, d, b, t, ids[t], p, m[t], w->all, t == w->T - 1 ? first : NULL);
        }
        picked[(size_t)b * R] = pl_decoder_token(d, argmax(first, PL_DEC_C));
        for (int s = 1; s < R; s++) {
            int j = w->T + s - 1;
            float *out = logits + ((size_t)s * w->B + b) * PL_DEC_C;
            cache_step(&c, d, b, j, picked[(size_t)b * R + s - 1], w->by_slot ? j : real++, 1, w->all, out);
            picked[(size_t)b * R + s] = pl_decoder_token(d, argmax(out, PL_DEC_C));
        }
    }
    cache_close(&c);
    return ok ? 0 : -1;
}

void pl_probe_kvcache_free(PlProbeKvcache *r) {
    if (!r) return;
    free(r->len), free(r->ids), free(r->mask), free(r->position_ids), free(r->cache_position), free(r->kind);
    free(r->alone), free(r->cells), free(r->pad_cells);
    memset(r, 0, sizeof *r);
}

static int alloc_result(PlProbeKvcache *r) {
    size_t n = (size_t)r->B * r->slots;
    r->len = malloc((size_t)r->B * sizeof *r->len);
    r->ids = malloc(n * sizeof *r->ids), r->mask = malloc(n), r->position_ids = malloc(n * sizeof *r->position_ids);
    r->cache_position = malloc((size_t)r->slots * sizeof *r->cache_position), r->kind = malloc(n);
    r->alone = malloc((size_t)r->B * r->reads * sizeof *r->alone);
    r->cells = malloc((size_t)r->S * sizeof *r->cells), r->pad_cells = malloc((size_t)r->S * sizeof *r->pad_cells);
    return r->len && r->ids && r->mask && r->position_ids && r->cache_position && r->kind && r->alone && r->cells &&
                   r->pad_cells
               ? 0
               : -1;
}

/* The prompts' two layouts at width T: ids and masks (B,T). */
static void layouts(PlProbeKvcache *r, const PlBatch *b, int32_t *il, uint8_t *ml, int32_t *ir, uint8_t *mr) {
    PlPadOpts left = {r->T, PL_PRE, PL_PRE, 0}, right = {r->T, PL_POST, PL_PRE, 0};
    for (int i = 0; i < r->B; i++) {
        const int32_t *src = b->ids + (size_t)i * b->T + pl_pad_first_real(b->len[i], b->T, b->padding);
        size_t at = (size_t)i * r->T;
        r->len[i] = b->len[i];
        pl_pad_row(il + at, ml + at, src, b->len[i], r->T, &left);
        pl_pad_row(ir + at, mr + at, src, b->len[i], r->T, &right);
    }
}

/* Each prompt alone, no pads: logits into alone (R,B,C), its picks into r->alone. */
static int decode_alone(const PlDecoder *d, PlProbeKvcache *r, const int32_t *il, float *alone) {
    int R = r->reads, ok = 1;
    uint8_t *ones = malloc((size_t)r->T + 1);
    float *one = malloc((size_t)R * PL_DEC_C * sizeof *one);
    if (!ones || !one) ok = 0;
    else memset(ones, 1, (size_t)r->T + 1);
    for (int b = 0; ok && b < r->B; b++) {
        Way w = {il + (size_t)b * r->T + (r->T - r->len[b]), ones, 1, r->len[b], r->S, 0, 0};
        ok = decode(d, &w, one, r->alone + (size_t)b * R) == 0;
        for (int s = 0; ok && s < R; s++)
            memcpy(alone + ((size_t)s * r->B + b) * PL_DEC_C, one + (size_t)s * PL_DEC_C, PL_DEC_C * sizeof *one);
    }
    free(ones), free(one);
    return ok ? 0 : -1;
}

static void compare(PlKvWayResult *out, const float *logits, const int32_t *picked, const float *alone,
                    const PlProbeKvcache *r) {
    int R = r->reads;
    out->max_diff = pl_max_abs_diff(logits, alone, (size_t)R * r->B * PL_DEC_C);
    out->tokens_differ = 0, out->first_step = -1;
    for (int s = 0; s < R; s++)
        for (int b = 0; b < r->B; b++)
            if (picked[(size_t)b * R + s] != r->alone[(size_t)b * R + s]) {
                out->tokens_differ++;
                if (out->first_step < 0) out->first_step = s;
            }
}

/* The first way's sequence as the cache holds it after S steps, its mask,
 * positions and slot kinds; the cells and slot counts. */
static void keep_cache(PlProbeKvcache *r, const int32_t *il, const uint8_t *ml, const int32_t *picked) {
    int T = r->T, n = r->slots;
    for (int b = 0; b < r->B; b++) {
        for (int t = 0; t < n; t++) {
            size_t at = (size_t)b * n + t;
            r->ids[at] = t < T ? il[(size_t)b * T + t] : picked[(size_t)b * r->reads + t - T];
            r->kind[at] = t >= T ? PL_KV_NEW : ml[(size_t)b * T + t] ? PL_KV_PROMPT : PL_KV_PAD;
        }
        r->pad_slots += T - r->len[b];
        r->real_slots += r->len[b] + r->S;
    }
    pl_mask_grow(r->mask, ml, r->B, T, r->S);
    pl_position_ids(r->position_ids, r->mask, r->B, n);
    for (int t = 0; t < n; t++) r->cache_position[t] = t;
    for (int s = 1; s <= r->S; s++) r->cells[s - 1] = (int64_t)r->B * (T + s), r->pad_cells[s - 1] = r->pad_slots;
    r->layers = 1, r->heads = PL_DEC_HEADS, r->dhead = PL_DEC_D;
    r->bytes_per_slot = 2 * r->layers * HD * (int)sizeof(float);
    r->static_pad_slots = (int64_t)r->B * r->static_len - r->real_slots;
}

/* The cached logits (R,B,C) against the whole sequence recomputed at each
 * read (no cache): the largest difference. */
static int recompute(const PlDecoder *d, PlProbeKvcache *r, const float *cached, float *z, float *diff) {
    int R = r->reads, n = r->slots, ok = 1;
    int *pos = malloc((size_t)r->B * n * sizeof *pos), *cols = malloc((size_t)R * r->B * sizeof *cols);
    const int **col = malloc((size_t)R * sizeof *col);
    float **into = malloc((size_t)R * sizeof *into);
    PlAttendBufs u = {0};
    if (!pos || !cols || !col || !into) ok = 0;
    for (size_t i = 0; ok && i < (size_t)r->B * n; i++) pos[i] = r->position_ids[i];
    for (int s = 0; ok && s < R; s++) {
        for (int b = 0; b < r->B; b++) cols[s * r->B + b] = r->T - 1 + s;
        col[s] = cols + s * r->B, into[s] = z + (size_t)s * r->B * PL_DEC_C;
    }
    ok = ok && pl_decoder_read(d, &u, r->ids, r->mask, pos, col, R, r->B, n, into) == 0;
    if (ok) *diff = pl_max_abs_diff(cached, z, (size_t)R * r->B * PL_DEC_C);
    pl_attend_bufs_done(&u);
    free(pos), free(cols), free(col), free(into);
    return ok ? 0 : -1;
}

/* The four ways: layout (0 left, 1 right), positions by slot, mask ignored. */
static const struct {
    int right, by_slot, all;
} ways[PL_KV_WAYS] = {
    [PL_KV_LEFT] = {0, 0, 0},
    [PL_KV_LEFT_SLOTS] = {0, 1, 0},
    [PL_KV_LEFT_NO_MASK] = {0, 0, 1},
    [PL_KV_RIGHT] = {1, 0, 0},
};

/* Runs every way and the checks; buffers from the caller. Returns -1 when out of memory. */
static int run_ways(const PlDecoder *d, PlProbeKvcache *r, const int32_t *il, const uint8_t *ml, const int32_t *ir,
                    const uint8_t *mr, float *alone, float *logits, int32_t *picked) {
    if (decode_alone(d, r, il, alone)) return -1;
    for (int k = 0; k < PL_KV_WAYS; k++) {
        Way w = {ways[k].right ? ir : il, ways[k].right ? mr : ml, r->B, r->T, r->S, ways[k].by_slot, ways[k].all};
        if (decode(d, &w, logits, picked)) return -1;
        compare(&r->way[k], logits, picked, alone, r);
        if (k == PL_KV_LEFT) {
            keep_cache(r, il, ml, picked);
            /* alone's buffer is free once compared: it takes the recomputed logits */
            float *z = malloc((size_t)r->reads * r->B * PL_DEC_C * sizeof *z);
            int bad = !z || recompute(d, r, logits, z, &r->cache_vs_recompute_max_diff);
            free(z);
            if (bad) return -1;
        }
    }
    return 0;
}

PlStatus pl_probe_kvcache(const PlCorpus *c, const PlProbeOpts *o, int steps, int static_len, PlProbeKvcache *r,
                          PlErr *err) {
    memset(r, 0, sizeof *r);
    if (steps < 1 || steps > PL_KV_MAX_STEPS)
        return pl_err_set(err, PL_ERANGE, "steps %d: decode 1 to %d steps", steps, PL_KV_MAX_STEPS);
    PlBatch *b = NULL;
    PlDecoder d = {0};
    /* It builds no model, so it reserves OpenBLAS's buffer itself, as the generate probe does. */
    PlStatus st = pl_blas_init(err);
    if (!st) st = pl_probe_focus_batch(c, o, PL_PROBE_FOCUS_ROWS, &b, err);
    if (st) return st;
    r->B = b->B, r->T = b->T, r->S = steps, r->C = PL_DEC_C, r->slots = r->T + steps, r->reads = steps + 1;
    r->static_len = static_len ? static_len : (o->maxlen > r->T ? o->maxlen : r->T) + steps;
    if (r->static_len < r->slots) {
        st = pl_err_set(err, PL_ERANGE, "a static cache of %d slots cannot hold a prompt of %d and %d steps (%d)",
                        r->static_len, r->T, steps, r->slots);
        pl_batch_free(b);
        return st;
    }
    size_t n = (size_t)r->B * r->T, nl = (size_t)r->reads * r->B * PL_DEC_C;
    int32_t *il = malloc(n * sizeof *il + 1), *ir = malloc(n * sizeof *ir + 1);
    int32_t *picked = malloc((size_t)r->B * r->reads * sizeof *picked);
    uint8_t *ml = malloc(n + 1), *mr = malloc(n + 1);
    float *alone = malloc(nl * sizeof *alone), *logits = malloc(nl * sizeof *logits);
    if (alloc_result(r) || !il || !ir || !picked || !ml || !mr || !alone || !logits ||
        pl_decoder_init(&d, c->num_words, r->slots + 1, o->seed)) {
        st = pl_err_set(err, PL_ENOMEM, "out of memory for the kvcache probe");
    } else {
        layouts(r, b, il, ml, ir, mr);
        if (run_ways(&d, r, il, ml, ir, mr, alone, logits, picked))
            st = pl_err_set(err, PL_ENOMEM, "out of memory for the kvcache probe");
    }
    free(il), free(ir), free(picked), free(ml), free(mr), free(alone), free(logits);
    pl_decoder_free(&d);
    pl_batch_free(b);
    if (st) pl_probe_kvcache_free(r);
    return st;
}
