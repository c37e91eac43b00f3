/* The probes on small cases worked out by hand. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app/lab/ledger.h"
#include "app/report/report.h"
#include "core/corpus_load.h"
#include "core/corpus_loaders.h"
#include "core/nn/attend.h"
#include "core/nn/nn.h"
#include "core/probe.h"
#include "core/probe.h" /* twice on purpose: one guard covers the whole header */
#include "core/tensor.h"
#include "suites.h"

/* Reviews of 4, 6 and 2 tokens (start token included). */
static const char *tiny_tsv = "1\tgood fine film\n0\tbad bad dull slow film\n1\tgood\n";

static PlCorpus *tiny(void) {
    PlCorpus *c;
    ck_assert_int_eq(pl_corpus_load_tsv_mem("tiny.tsv", tiny_tsv, strlen(tiny_tsv), NULL, &c, NULL), PL_OK);
    return c;
}

static PlProbeOpts opts_for(int example, const int *rows, int n, int maxlen, PlSide padding, int mask) {
    PlProbeOpts o = pl_probe_opts_default();
    o.example = example, o.batch = rows, o.nbatch = n, o.maxlen = maxlen, o.padding = padding, o.mask = mask;
    return o;
}

START_TEST(test_batch_counts_agree_in_every_convention) {
    PlCorpus *c = tiny();
    static const int rows[] = {0, 1, 2};
    for (int conv = 0; conv < 4; conv++) {
        PlProbeOpts o = opts_for(0, rows, 3, 5, PL_POST, 0);
        o.conv = (PlMaskConv)conv;
        PlProbeBatch r;
        ck_assert_int_eq(pl_probe_batch(c, &o, &r, NULL), PL_OK);
        ck_assert_int_eq(r.batch->T, 5);
        ck_assert_int_eq(r.real_tokens, 4 + 5 + 2); /* the 6-token review keeps its last 5 */
        ck_assert_int_eq(r.mask_real, 11);
        ck_assert_int_eq(r.label_positions, 11);
        ck_assert_int_eq(r.mask_ones, conv == PL_MASK_TORCH ? 4 : 11); /* torch's ones are the pads */
        ck_assert(r.agree && !r.disagrees);
        ck_assert_int_eq(r.labels[3], 4); /* row 0 ends with "film": good, film, bad come twice, so 3, 4, 5 */
        ck_assert_int_eq(r.labels[4], -100);
        pl_probe_batch_free(&r);
    }
    pl_corpus_free(c);
}
END_TEST

START_TEST(test_two_keys_with_one_pad_get_weights_one_and_zero) {
    /* T = 2, one row, key 1 is a pad: query 0 must put all its weight on key 0. */
    float x[2 * 2] = {0.3f, -0.2f, 0.7f, 0.1f}, w[4] = {1.0f, 0.5f, -0.5f, 1.0f}, y[4], q[4], k[4], v[4], o[4], p[4];
    uint8_t mask[2] = {1, 0};
    PlAttnShape s = {2, 1, 2, 1, 2, 0, mask};
    pl_attention_forward(y, q, k, v, p, o, x, w, w, w, w, &s);
    ck_assert(p[0] == 1.0f && p[1] == 0.0f);
    ck_assert(p[2] == 1.0f && p[3] == 0.0f); /* the pad query still sees the real key */
    s.mask = NULL;
    pl_attention_forward(y, q, k, v, p, o, x, w, w, w, w, &s);
    ck_assert(p[1] > 0.0f && fabsf(p[0] + p[1] - 1.0f) < 1e-6f);
}
END_TEST

START_TEST(test_attention_probe_mask_removes_leaks_and_keeps_rows_whole) {
    PlCorpus *c = tiny();
    static const int rows[] = {0, 1, 2};
    PlProbeAttention on, off;
    PlProbeOpts o = opts_for(2, rows, 3, 6, PL_POST, 1);
    ck_assert_int_eq(pl_probe_attention(c, &o, NULL, 2, 4, 0, &on, NULL), PL_OK);
    o.mask = 0;
    ck_assert_int_eq(pl_probe_attention(c, &o, NULL, 2, 4, 0, &off, NULL), PL_OK);
    ck_assert(on.pad_weight_max == 0.0f && on.leak_total == 0.0f);
    ck_assert(on.row_sum_error_max < 1e-6f);
    ck_assert(on.batch_invariance_max_diff < 1e-6f);
    ck_assert(on.packed_vs_padded_max_diff < 1e-6f);
    ck_assert_int_eq(on.nan_count, 0);
    ck_assert(off.leak_total > 0.0f && off.batch_invariance_max_diff > 1e-4f);
    ck_assert(off.wrong_fix_min_sum < 1.0f);
    /* the varlen figure is against a masked run whatever the lab's mask:
     * the same bits, which is why the ledger treats it as one fact */
    ck_assert(on.packed_vs_padded_max_diff == off.packed_vs_padded_max_diff);
    ck_assert_int_eq(on.padded_cells, 3 * 36);
    ck_assert_int_eq(on.packed_cells, 16 + 36 + 4);
    ck_assert_int_eq(on.cu_seqlens[3], 4 + 6 + 2);
    pl_probe_attention_free(&on);
    pl_probe_attention_free(&off);
    pl_corpus_free(c);
}
END_TEST

START_TEST(test_left_padding_with_causal_mask_gives_zero_rows_not_nan) {
    PlCorpus *c = tiny();
    static const int rows[] = {2, 1};
    PlProbeOpts o = opts_for(2, rows, 2, 6, PL_PRE, 1);
    PlProbeAttention r;
    ck_assert_int_eq(pl_probe_attention(c, &o, NULL, 1, 4, 1, &r, NULL), PL_OK);
    ck_assert_int_eq(r.empty_rows, 4); /* the 4 leading pads of the 2-token row see no key */
    ck_assert_int_eq(r.nan_count, 0);
    pl_probe_attention_free(&r);
    pl_corpus_free(c);
}
END_TEST

/* ---- naive twins of the probes that run attention query by query ----
 * Each twin does what the probe used to do: full attention layers over
 * whole batches with pl_attention_forward, every weight kept, then the
 * numbers read off. */

/* Full attention of batch b: y (T,B,E), p (B,NH,T,T), q (T,B,NH*D), new arrays. */
typedef struct {
    float *y, *p, *q, *k;
} FullRun;

static FullRun full_attention(const PlBatch *b, const float *emb, const float *const W[4], int E, int NH, int D,
                              const uint8_t *mask, int causal) {
    size_t cells = (size_t)b->T * b->B, hd = (size_t)NH * D;
    FullRun f = {malloc(cells * E * sizeof(float)), malloc((size_t)b->B * NH * b->T * b->T * sizeof(float) + 1),
                 malloc(cells * hd * sizeof(float)), malloc(cells * hd * sizeof(float))};
    float *x = malloc(cells * E * sizeof *x), *v = malloc(cells * hd * sizeof *v), *o = malloc(cells * hd * sizeof *o);
    pl_embedding_forward(x, b->ids, emb, b->B, b->T, E);
    PlAttnShape s = {b->T, b->B, E, NH, D, causal, mask};
    pl_attention_forward(f.y, f.q, f.k, v, f.p, o, x, W[0], W[1], W[2], W[3], &s);
    free(x), free(v), free(o);
    return f;
}

static void full_free(FullRun *f) { free(f->y), free(f->p), free(f->q), free(f->k); }

static int twin_real_pos(const PlBatch *b, int r, int k) { return b->padding == PL_POST ? k : b->T - b->len[r] + k; }

static float twin_real_diff(const float *ya, const PlBatch *a, int ra, const float *yb, const PlBatch *b, int rb,
                            int E) {
    float m = 0.0f;
    int L = a->len[ra] < b->len[rb] ? a->len[ra] : b->len[rb];
    for (int k = 0; k < L; k++) {
        float d = pl_max_abs_diff(ya + ((size_t)twin_real_pos(a, ra, k) * a->B + ra) * E,
                                  yb + ((size_t)twin_real_pos(b, rb, k) * b->B + rb) * E, (size_t)E);
        m = d > m ? d : m;
    }
    return m;
}

START_TEST(test_attention_probe_matches_its_naive_twin) {
    PlCorpus *c;
    ck_assert_int_eq(pl_corpus_load("builtin:3:60", NULL, &c, NULL), PL_OK);
    const int NH = 2, D = 4;
    for (int variant = 0; variant < 8; variant++) {
        PlProbeOpts o = pl_probe_opts_default();
        o.maxlen = 300, o.mask = variant & 1, o.padding = (PlSide)((variant >> 1) & 1);
        int causal = variant >> 2;
        o.example = pl_probe_auto_example(c, o.maxlen);
        PlProbeAttention r;
        ck_assert_int_eq(pl_probe_attention(c, &o, NULL, NH, D, causal, &r, NULL), PL_OK);
        /* The same batch and the same fresh weights, the long way round. */
        PlBatch *b;
        ck_assert_int_eq(pl_probe_focus_batch(c, &o, PL_PROBE_FOCUS_ROWS, &b, NULL), PL_OK);
        PlModelConfig cfg = pl_model_config_default(PL_ARCH_ATTENTION);
        cfg.vocab = c->num_words, cfg.heads = NH, cfg.dhead = D;
        PlModel *m;
        ck_assert_int_eq(pl_model_new(&cfg, o.seed, &m, NULL), PL_OK);
        const float *emb = pl_model_param(m, PL_P_EMBEDDING, NULL);
        const float *W[4] = {pl_model_param(m, PL_P_WQ, NULL), pl_model_param(m, PL_P_WK, NULL),
                             pl_model_param(m, PL_P_WV, NULL), pl_model_param(m, PL_P_WO, NULL)};
        int T = b->T, E = cfg.embed, row = r.row, HD = NH * D;
        ck_assert_int_eq(r.T, T);
        ck_assert_int_eq(b->row[row], o.example);
        FullRun shown = full_attention(b, emb, W, E, NH, D, o.mask ? b->mask : NULL, causal);
        FullRun open = full_attention(b, emb, W, E, NH, D, NULL, causal);
        int empty = 0, nan = 0;
        for (size_t q = 0; q < (size_t)b->B * NH * T; q++) {
            float sum = 0.0f;
            for (int j = 0; j < T; j++) sum += shown.p[q * T + j], nan += isnan(shown.p[q * T + j]);
            empty += sum == 0.0f;
        }
        ck_assert_int_eq(r.empty_rows, empty);
        ck_assert_int_eq(r.nan_count, nan);
        float leak_total = 0.0f;
        for (int h = 0; h < NH; h++)
            for (int i = 0; i < T; i++) {
                const float *pw = shown.p + (((size_t)row * NH + h) * T + i) * T,
                            *po = open.p + (((size_t)row * NH + h) * T + i) * T;
                float sum = 0.0f, leak = 0.0f, fix = 0.0f;
                for (int j = 0; j < T; j++) {
                    const float *qi = shown.q + ((size_t)i * b->B + row) * HD + h * D,
                                *kj = shown.k + ((size_t)j * b->B + row) * HD + h * D;
                    float dot = 0.0f;
                    for (int d = 0; d < D; d++) dot += qi[d] * kj[d];
                    ck_assert(fabsf(r.scores[((size_t)h * T + i) * T + j] - dot / sqrtf((float)D)) < 1e-5f);
                    ck_assert_msg(fabsf(r.weights[((size_t)h * T + i) * T + j] - pw[j]) < 1e-6f,
                                  "variant %d weight %d,%d,%d", variant, h, i, j);
                    sum += pw[j];
                    leak += b->mask[(size_t)row * T + j] ? 0.0f : pw[j];
                    fix += b->mask[(size_t)row * T + j] ? po[j] : 0.0f;
                }
                ck_assert(fabsf(r.row_sum[h * T + i] - sum) < 1e-5f);
                ck_assert(fabsf(r.leak[h * T + i] - leak) < 1e-5f);
                ck_assert(fabsf(r.wrong_fix_sum[h * T + i] - fix) < 1e-5f);
                if (b->mask[(size_t)row * T + i]) leak_total += leak;
            }
        ck_assert(fabsf(r.leak_total - leak_total) < 1e-4f);
        /* The example next to its partners: both pair batches in full. */
        PlProbeOpts q = o;
        int rows[2][2] = {{o.example, r.short_partner}, {o.example, r.long_partner}};
        q.width = 0, q.batching = PL_BATCH_DYNAMIC, q.nbatch = 2;
        PlBatch *pair[2];
        FullRun pr[2];
        for (int k = 0; k < 2; k++) {
            q.batch = rows[k];
            ck_assert_int_eq(pl_probe_batch_make(c, &q, &pair[k], NULL), PL_OK);
            pr[k] = full_attention(pair[k], emb, W, E, NH, D, o.mask ? pair[k]->mask : NULL, causal);
        }
        ck_assert_int_eq(r.short_width, pair[0]->T);
        ck_assert_int_eq(r.long_width, pair[1]->T);
        float inv = twin_real_diff(pr[0].y, pair[0], 0, pr[1].y, pair[1], 0, E);
        ck_assert_msg(fabsf(r.batch_invariance_max_diff - inv) < 1e-5f, "variant %d: invariance %g, twin %g", variant,
                      (double)r.batch_invariance_max_diff, (double)inv);
        /* Each row alone against the masked batch. */
        FullRun masked = full_attention(b, emb, W, E, NH, D, b->mask, causal);
        float worst = 0.0f;
        for (int i = 0; i < b->B; i++) {
            int L = b->len[i];
            if (!L) continue;
            PlBatch one = {
                1, L, b->ids + (size_t)i * T + (b->padding == PL_POST ? 0 : T - L), NULL, &L, &L, NULL, NULL, PL_POST};
            FullRun alone = full_attention(&one, emb, W, E, NH, D, NULL, causal);
            float d = twin_real_diff(masked.y, b, i, alone.y, &one, 0, E);
            worst = d > worst ? d : worst;
            full_free(&alone);
        }
        ck_assert(worst < 1e-5f && r.packed_vs_padded_max_diff < 1e-5f);
        for (int k = 0; k < 2; k++) full_free(&pr[k]), pl_batch_free(pair[k]);
        full_free(&shown), full_free(&open), full_free(&masked);
        pl_batch_free(b);
        pl_model_free(m);
        pl_probe_attention_free(&r);
    }
    pl_corpus_free(c);
}
END_TEST

/* ---- the attention probe's short cuts, bit for bit ----
 * The probe leaves out what its result does not show (the batch-mates'
 * unmasked queries, repeated queries' score rows and sums); the plain run
 * computes every row and query of the batch with pl_attend_layer (a repeated
 * query copied, as the probe always did: q's rows for one token at two
 * positions can differ in the last bit) and every score with one product per
 * head, and the numbers shown must be the same bits. */
typedef struct {
    float *keep, *wsum, *wsel, *scores, *y;
    PlAttendCounts n;
} PlainRun;

static PlainRun plain_attention(const PlBatch *b, const PlModel *m, int NH, int D, int mask, int causal, int row) {
    int T = b->T, E = pl_model_config(m)->embed, HD = NH * D;
    size_t sums = (size_t)b->B * NH * T;
    PlainRun p = {malloc((size_t)NH * T * T * sizeof(float)),
                  malloc(sums * sizeof(float)),
                  malloc(sums * sizeof(float)),
                  malloc((size_t)NH * T * T * sizeof(float)),
                  NULL,
                  {0, 0}};
    uint8_t *pads = malloc((size_t)b->B * T);
    for (size_t i = 0; i < (size_t)b->B * T; i++) pads[i] = !b->mask[i];
    PlAttendBufs u = {0};
    ck_assert_int_eq(pl_attend_bufs_reserve(&u, T, b->B, E, NH, D), 0);
    pl_embedding_forward(u.x, b->ids, pl_model_param_view(m, PL_P_EMBEDDING, NULL), b->B, T, E);
    PlAttend a = {.T = T,
                  .B = b->B,
                  .NH = NH,
                  .D = D,
                  .causal = causal,
                  .mask = mask ? b->mask : NULL,
                  .sel = pads,
                  .keep_row = row};
    pl_attend_layer(&u, p.keep, p.wsum, p.wsel, &p.n, b->ids, pl_model_param_view(m, PL_P_WQ, NULL),
                    pl_model_param_view(m, PL_P_WK, NULL), pl_model_param_view(m, PL_P_WV, NULL),
                    pl_model_param_view(m, PL_P_WO, NULL), E, &a);
    for (int h = 0; h < NH; h++) {
        size_t off = (size_t)row * HD + (size_t)h * D;
        pl_gemm(0, 1, T, T, D, 1.0f / sqrtf((float)D), u.q + off, b->B * HD, u.k + off, b->B * HD, 0.0f,
                p.scores + (size_t)h * T * T, T);
    }
    p.y = malloc((size_t)T * b->B * E * sizeof(float));
    memcpy(p.y, u.y, (size_t)T * b->B * E * sizeof(float));
    pl_attend_bufs_done(&u);
    free(pads);
    return p;
}

static void plain_free(PlainRun *p) { free(p->keep), free(p->wsum), free(p->wsel), free(p->scores), free(p->y); }

/* Sum of w (n) where keep is set, in the probe's order: eight running sums
 * over blocks of eight, added pairwise, then the tail one by one. */
static float plain_sum_where(const float *w, const uint8_t *keep, int n) {
    float part[8] = {0.0f};
    int j = 0;
    for (; j + 8 <= n; j += 8)
        for (int l = 0; l < 8; l++) part[l] += keep[j + l] ? w[j + l] : 0.0f;
    float s = ((part[0] + part[1]) + (part[2] + part[3])) + ((part[4] + part[5]) + (part[6] + part[7]));
    for (; j < n; j++) s += keep[j] ? w[j] : 0.0f;
    return s;
}

/* The probe's example figures against the plain run's, exactly. */
static void assert_same_bits(const PlProbeAttention *r, const PlainRun *p, const PlBatch *b, int E, int variant) {
    int T = r->T, NH = r->heads, nan = (int)p->n.nan;
    size_t tt = (size_t)NH * T * T, at = (size_t)r->row * NH * T;
    ck_assert_msg(memcmp(r->weights, p->keep, tt * sizeof(float)) == 0, "variant %d: weights", variant);
    ck_assert_msg(memcmp(r->scores, p->scores, tt * sizeof(float)) == 0, "variant %d: scores", variant);
    ck_assert(memcmp(r->row_sum, p->wsum + at, (size_t)NH * T * sizeof(float)) == 0);
    ck_assert(memcmp(r->leak, p->wsel + at, (size_t)NH * T * sizeof(float)) == 0);
    for (size_t i = 0; i < (size_t)T * b->B * E; i++) nan += isnan(p->y[i]);
    ck_assert_int_eq(r->nan_count, nan);
    ck_assert_int_eq(r->empty_rows, (int)p->n.empty);
    float pad_max = 0.0f, leak_total = 0.0f;
    for (int h = 0; h < NH; h++)
        for (int i = 0; i < T; i++) {
            if (!r->real[i]) continue;
            for (int j = 0; j < T; j++) {
                float w = p->keep[((size_t)h * T + i) * T + j];
                if (!r->real[j] && w > pad_max) pad_max = w;
            }
            leak_total += p->wsel[at + (size_t)h * T + i];
            if (!r->mask) /* the wrong fix is the unmasked weights summed over the real keys */
                ck_assert(r->wrong_fix_sum[h * T + i] ==
                          plain_sum_where(p->keep + ((size_t)h * T + i) * T, r->real, T));
        }
    ck_assert(r->pad_weight_max == pad_max);
    ck_assert(r->leak_total == leak_total);
}

enum { PLAIN_HEADS = 2, PLAIN_DHEAD = 8 };

/* A fresh attention model for c's vocabulary, PLAIN_HEADS heads of PLAIN_DHEAD. */
static PlModel *plain_model(const PlCorpus *c, PlSeed seed) {
    PlModelConfig cfg = pl_model_config_default(PL_ARCH_ATTENTION);
    cfg.vocab = c->num_words, cfg.heads = PLAIN_HEADS, cfg.dhead = PLAIN_DHEAD;
    PlModel *m;
    ck_assert_int_eq(pl_model_new(&cfg, seed, &m, NULL), PL_OK);
    return m;
}

/* Runs the attention probe on b's corpus and settings and asserts its bits
 * are the full computation's; returns the probe's NaN count. */
static long probe_is_plain(const PlCorpus *c, const PlProbeOpts *o, PlModel *m, const PlBatch *b, int causal,
                           int variant) {
    PlProbeAttention r;
    ck_assert_int_eq(pl_probe_attention(c, o, m, PLAIN_HEADS, PLAIN_DHEAD, causal, &r, NULL), PL_OK);
    PlainRun p = plain_attention(b, m, PLAIN_HEADS, PLAIN_DHEAD, o->mask, causal, r.row);
    assert_same_bits(&r, &p, b, pl_model_config(m)->embed, variant);
    long nan = (long)r.nan_count;
    plain_free(&p);
    pl_probe_attention_free(&r);
    return nan;
}

START_TEST(test_attention_probe_shows_the_bits_of_the_full_computation) {
    PlCorpus *c;
    ck_assert_int_eq(pl_corpus_load("builtin:5:80", NULL, &c, NULL), PL_OK);
    for (int variant = 0; variant < 16; variant++) {
        PlProbeOpts o = pl_probe_opts_default();
        o.maxlen = variant & 8 ? 40 : 300, o.mask = variant & 1, o.padding = (PlSide)((variant >> 1) & 1);
        int causal = (variant >> 2) & 1;
        o.example = pl_probe_auto_example(c, o.maxlen);
        PlModel *m = plain_model(c, o.seed);
        PlBatch *b;
        ck_assert_int_eq(pl_probe_focus_batch(c, &o, PL_PROBE_FOCUS_ROWS, &b, NULL), PL_OK);
        probe_is_plain(c, &o, m, b, causal, variant);
        pl_batch_free(b);
        pl_model_free(m);
    }
    pl_corpus_free(c);
}
END_TEST

START_TEST(test_attention_probe_counts_a_batch_mates_nan_without_the_mask) {
    /* A batch-mate's word embedded at 1e25 overflows its scores: its queries'
     * weights turn NaN, and the probe must still count them. */
    PlCorpus *c;
    ck_assert_int_eq(pl_corpus_load("builtin:5:80", NULL, &c, NULL), PL_OK);
    PlProbeOpts o = pl_probe_opts_default();
    o.maxlen = 60, o.mask = 0, o.example = pl_probe_auto_example(c, o.maxlen);
    PlModel *m = plain_model(c, o.seed);
    PlBatch *b;
    ck_assert_int_eq(pl_probe_focus_batch(c, &o, PL_PROBE_FOCUS_ROWS, &b, NULL), PL_OK);
    int row = pl_batch_row_of(b, o.example), mate = row ? 0 : 1, T = b->T, word = -1;
    for (int t = 0; t < T && word < 0; t++) {
        int32_t id = b->ids[(size_t)mate * T + t], in_example = 0;
        for (int s = 0; s < T; s++) in_example |= b->ids[(size_t)row * T + s] == id;
        if (!in_example) word = id;
    }
    ck_assert_int_ge(word, 0);
    int E = pl_model_config(m)->embed;
    float *emb = pl_model_param(m, PL_P_EMBEDDING, NULL);
    for (int e = 0; e < E; e++) emb[(size_t)word * E + e] = 1e25f;
    ck_assert_int_gt(probe_is_plain(c, &o, m, b, 0, -1), 0);
    pl_batch_free(b);
    pl_model_free(m);
    pl_corpus_free(c);
}
END_TEST

/* Next-token logits (B,64) of the generate probe's decoder read at col[b],
 * the long way: every query, every weight. */
static void twin_decode(const float *const Wt[7], const int32_t *ids, const uint8_t *mask, const int *pos,
                        const int *col, int B, int T, float *logits) {
    enum { E = 32, NH = 2, D = 16, C = 64 };
    size_t n = (size_t)T * B;
    float *x = malloc(n * E * sizeof *x), *y = malloc(n * E * sizeof *y), *q = malloc(n * NH * D * sizeof *q);
    float *k = malloc(n * NH * D * sizeof *k), *v = malloc(n * NH * D * sizeof *v), *o = malloc(n * NH * D * sizeof *o);
    float *p = malloc((size_t)B * NH * T * T * sizeof *p), h[E];
    for (int t = 0; t < T; t++)
        for (int b = 0; b < B; b++)
            for (int e = 0; e < E; e++)
                x[((size_t)t * B + b) * E + e] =
                    Wt[0][(size_t)ids[(size_t)b * T + t] * E + e] + Wt[1][(size_t)pos[(size_t)b * T + t] * E + e];
    PlAttnShape s = {T, B, E, NH, D, 1, mask};
    pl_attention_forward(y, q, k, v, p, o, x, Wt[2], Wt[3], Wt[4], Wt[5], &s);
    for (int b = 0; b < B; b++) {
        memcpy(h, y + ((size_t)col[b] * B + b) * E, sizeof h);
        pl_dense_forward(logits + (size_t)b * C, h, Wt[6], NULL, 1, E, C);
    }
    free(x), free(y), free(q), free(k), free(v), free(o), free(p);
}

START_TEST(test_generate_probe_matches_its_naive_twin) {
    PlCorpus *c;
    ck_assert_int_eq(pl_corpus_load("builtin:3:60", NULL, &c, NULL), PL_OK);
    for (int side = 0; side <= 1; side++) {
        PlProbeOpts o = pl_probe_opts_default();
        o.maxlen = 300, o.padding = (PlSide)side;
        o.example = pl_probe_auto_example(c, o.maxlen);
        PlProbeGenerate r;
        ck_assert_int_eq(pl_probe_generate(c, &o, &r, NULL), PL_OK);
        int B = r.B, T = r.T, C = r.C;
        /* The decoder's weights, drawn as the probe draws them. */
        PlRng rng;
        pl_rng_seed(&rng, o.seed);
        size_t sizes[7] = {(size_t)c->num_words * 32, (size_t)T * 32, 32 * 32, 32 * 32, 32 * 32, 32 * 32, 32 * 64};
        float limits[7] = {0.5f,
                           0.5f,
                           sqrtf(6.0f / 64.0f),
                           sqrtf(6.0f / 64.0f),
                           sqrtf(6.0f / 64.0f),
                           sqrtf(6.0f / 64.0f),
                           sqrtf(6.0f / 96.0f)};
        float *Wt[7];
        for (int i = 0; i < 7; i++) {
            Wt[i] = malloc(sizes[i] * sizeof(float));
            pl_init_uniform(Wt[i], sizes[i], -limits[i], limits[i], &rng);
        }
        const float *const *W = (const float *const *)Wt;
        size_t n = (size_t)B * T, nl = (size_t)B * C;
        uint8_t *ml = malloc(n), *mr = malloc(n);
        int *last = malloc((size_t)B * sizeof *last), *real = malloc((size_t)B * sizeof *real),
            *pos = malloc((size_t)T * sizeof *pos);
        float *single = malloc(nl * sizeof *single), *z = malloc(nl * sizeof *z);
        for (int b = 0; b < B; b++) {
            for (int t = 0; t < T; t++) ml[(size_t)b * T + t] = t >= T - r.len[b], mr[(size_t)b * T + t] = t < r.len[b];
            last[b] = T - 1, real[b] = r.len[b] - 1;
            int L = r.len[b];
            uint8_t *ones = malloc((size_t)L);
            memset(ones, 1, (size_t)L);
            for (int t = 0; t < L; t++) pos[t] = t;
            twin_decode(W, r.ids_right + (size_t)b * T, ones, pos, &real[b], 1, L, single + (size_t)b * C);
            free(ones);
        }
        float got[4] = {r.left_vs_single_max_diff, r.left_naive_positions_max_diff,
                        r.right_last_real_vs_single_max_diff, r.right_last_column_vs_single_max_diff};
        const int32_t *ids[4] = {r.ids_left, r.ids_left, r.ids_right, r.ids_right};
        const uint8_t *masks[4] = {ml, ml, mr, mr};
        const int *poss[4] = {r.pos_left, r.pos_naive, r.pos_naive, r.pos_naive}, *cols[4] = {last, last, real, last};
        for (int k = 0; k < 4; k++) {
            twin_decode(W, ids[k], masks[k], poss[k], cols[k], B, T, z);
            float want = pl_max_abs_diff(z, single, nl);
            ck_assert_msg(fabsf(got[k] - want) < 1e-6f, "side %d, case %d: %g, twin %g", side, k, (double)got[k],
                          (double)want);
        }
        ck_assert(r.left_naive_positions_max_diff > 1e-3f && r.right_last_column_vs_single_max_diff > 1e-3f);
        for (int i = 0; i < 7; i++) free(Wt[i]);
        free(ml), free(mr), free(last), free(real), free(pos), free(single), free(z);
        pl_probe_generate_free(&r);
    }
    pl_corpus_free(c);
}
END_TEST

START_TEST(test_masks_probe_matches_its_naive_twin) {
    PlCorpus *c;
    ck_assert_int_eq(pl_corpus_load("builtin:3:60", NULL, &c, NULL), PL_OK);
    for (int side = 0; side <= 1; side++) {
        PlProbeOpts o = pl_probe_opts_default();
        o.maxlen = 300, o.padding = (PlSide)side;
        o.example = pl_probe_auto_example(c, o.maxlen);
        PlProbeMasks r;
        ck_assert_int_eq(pl_probe_masks(c, &o, NULL, &r, NULL), PL_OK);
        PlBatch *b;
        ck_assert_int_eq(pl_probe_focus_batch(c, &o, PL_PROBE_FOCUS_ROWS, &b, NULL), PL_OK);
        PlModelConfig cfg = pl_model_config_default(PL_ARCH_ATTENTION);
        cfg.vocab = c->num_words;
        PlModel *m;
        ck_assert_int_eq(pl_model_new(&cfg, o.seed, &m, NULL), PL_OK);
        const float *emb = pl_model_param(m, PL_P_EMBEDDING, NULL);
        const float *W[4] = {pl_model_param(m, PL_P_WQ, NULL), pl_model_param(m, PL_P_WK, NULL),
                             pl_model_param(m, PL_P_WV, NULL), pl_model_param(m, PL_P_WO, NULL)};
        int T = b->T, NH = cfg.heads;
        size_t n = (size_t)b->B * T;
        uint8_t *inverted = malloc(n);
        for (size_t i = 0; i < n; i++) inverted[i] = !b->mask[i];
        const uint8_t *masks[3] = {b->mask, NULL, inverted};
        float got[3] = {r.share_right, r.share_none, r.share_inverted};
        int padded = 0;
        for (int k = 0; k < 3; k++) {
            FullRun f = full_attention(b, emb, W, cfg.embed, NH, cfg.dhead, masks[k], 0);
            double total = 0.0;
            long count = 0;
            for (int i = 0; i < b->B; i++) {
                if (b->len[i] == 0 || b->len[i] == T) continue;
                padded += k == 0;
                for (int h = 0; h < NH; h++)
                    for (int qi = 0; qi < T; qi++) {
                        if (!b->mask[(size_t)i * T + qi]) continue;
                        const float *w = f.p + (((size_t)i * NH + h) * T + qi) * T;
                        float pad = 0.0f, all = 0.0f;
                        for (int j = 0; j < T; j++) all += w[j], pad += b->mask[(size_t)i * T + j] ? 0.0f : w[j];
                        if (all == 0.0f) continue;
                        total += (double)(pad / all), count++;
                    }
            }
            float want = count ? (float)(total / (double)count) : NAN;
            ck_assert_msg(fabsf(got[k] - want) < 1e-6f, "side %d, run %d: share %g, twin %g", side, k, (double)got[k],
                          (double)want);
            full_free(&f);
        }
        ck_assert_int_eq(r.padded_rows, padded);
        ck_assert(padded > 0 && r.share_right == 0.0f && r.share_inverted == 1.0f);
        free(inverted);
        pl_batch_free(b);
        pl_model_free(m);
        pl_probe_masks_free(&r);
    }
    pl_corpus_free(c);
}
END_TEST

/* A 1-unit tanh RNN over 1-wide embeddings, weights set by hand. */
static PlModel *unit_rnn(float pad_embedding, float wx, float wh, float b) {
    PlModelConfig cfg = pl_model_config_default(PL_ARCH_RNN);
    cfg.vocab = 10000, cfg.embed = 1, cfg.hidden = 1;
    PlModel *m;
    ck_assert_int_eq(pl_model_new(&cfg, 0, &m, NULL), PL_OK);
    pl_model_param(m, PL_P_EMBEDDING, NULL)[0] = pad_embedding;
    pl_model_param(m, PL_P_KERNEL, NULL)[0] = wx;
    pl_model_param(m, PL_P_RECURRENT, NULL)[0] = wh;
    pl_model_param(m, PL_P_BIAS, NULL)[0] = b;
    return m;
}

START_TEST(test_rnn_fixed_point_of_a_unit_without_recurrence_is_tanh_of_its_input) {
    PlCorpus *c = tiny();
    PlModel *m = unit_rnn(0.5f, 0.8f, 0.0f, 0.1f);
    PlProbeOpts o = opts_for(2, NULL, 0, 10, PL_POST, 0);
    PlProbeRnn r;
    ck_assert_int_eq(pl_probe_rnn(c, &o, m, PL_ARCH_RNN, 0, &r, NULL), PL_OK);
    ck_assert(fabsf(r.h_fixed[0] - tanhf(0.5f)) < 1e-6f); /* h* = tanh(0.1 + 0.8 * 0.5) */
    ck_assert(r.dist_fixed[9] < 1e-6f);                   /* one pad step reaches it */
    ck_assert_int_eq(r.last_real, 1);
    ck_assert(r.last_real_survival < 1e-5f);
    ck_assert(fabsf(r.pad_embedding_norm - 0.5f) < 1e-7f);
    pl_probe_rnn_free(&r);
    pl_model_free(m);
    pl_corpus_free(c);
}
END_TEST

START_TEST(test_rnn_fixed_point_matches_bisection_and_the_mask_keeps_the_last_state) {
    PlCorpus *c = tiny();
    PlModel *m = unit_rnn(0.5f, 0.8f, 0.5f, 0.1f);
    /* h* = tanh(0.5 h* + 0.5): bisection on f(h) = tanh(0.5 h + 0.5) - h. */
    double lo = 0.0, hi = 1.0;
    for (int i = 0; i < 60; i++) {
        double mid = 0.5 * (lo + hi);
        if (tanh(0.5 * mid + 0.5) - mid > 0) lo = mid;
        else hi = mid;
    }
    PlProbeOpts o = opts_for(2, NULL, 0, 30, PL_POST, 1);
    PlProbeRnn r;
    ck_assert_int_eq(pl_probe_rnn(c, &o, m, PL_ARCH_RNN, 0, &r, NULL), PL_OK);
    ck_assert_msg(fabs((double)r.h_fixed[0] - lo) < 1e-5, "h* %.7f, bisection %.7f", (double)r.h_fixed[0], lo);
    ck_assert(r.final_distance_to_last_real == 0.0f); /* the mask carries the state exactly */
    ck_assert(r.masked_carry_distance == 0.0f);
    ck_assert(r.fixed_found && r.last_real_survival == 1.0f); /* the mask keeps all of it */
    for (int t = 3; t < 30; t++) ck_assert(r.dist_last[t] == 0.0f);
    for (int t = 0; t < 30; t++)
        ck_assert(fabsf(fabsf(r.states[t]) - r.norm[t]) < 1e-7f); /* one unit: |h_t| is h_t's size */
    ck_assert(r.states[29] == r.states[1]);                       /* carried over the pads */
    pl_probe_rnn_free(&r);
    o.mask = 0;
    ck_assert_int_eq(pl_probe_rnn(c, &o, m, PL_ARCH_RNN, 1, &r, NULL), PL_OK); /* pad row zeroed */
    ck_assert(r.pad_embedding_norm == 0.0f);
    ck_assert(r.final_distance_to_last_real > 0.01f); /* zero pad inputs still move the state */
    pl_probe_rnn_free(&r);
    pl_model_free(m);
    pl_corpus_free(c);
}
END_TEST

START_TEST(test_pooling_a_2_token_row_padded_to_10_weighs_real_tokens_0_2) {
    PlCorpus *c = tiny();
    PlProbeOpts o = opts_for(2, NULL, 0, 10, PL_PRE, 0);
    PlProbePooling r;
    ck_assert_int_eq(pl_probe_pooling(c, &o, NULL, &r, NULL), PL_OK);
    ck_assert(fabsf(r.example_weight - 0.2f) < 1e-7f);
    ck_assert(fabs(r.mean_real_weight - (0.4 + 0.6 + 0.2) / 3) < 1e-12);
    ck_assert(fabs(r.min_real_weight - 0.2) < 1e-12);
    ck_assert_int_eq(r.hist[2] + r.hist[4] + r.hist[6], 3);
    /* unmasked = 0.2 masked + 0.8 pad row; divide-by-T = 0.2 masked */
    ck_assert(r.avg_unmasked_dist > 0.0f && r.avg_div_t_dist > 0.0f);
    for (int e = 0; e < r.E; e++) ck_assert(fabsf(r.avg_div_t[e] - 0.2f * r.avg_masked[e]) < 1e-6f);
    pl_probe_pooling_free(&r);
    pl_corpus_free(c);
}
END_TEST

START_TEST(test_loss_normalisations_relate_as_counted) {
    PlCorpus *c = tiny();
    static const int rows[] = {0, 1, 2};
    PlProbeOpts o = opts_for(0, rows, 3, 6, PL_POST, 0);
    PlProbeLoss r;
    ck_assert_int_eq(pl_probe_loss(c, &o, NULL, &r, NULL), PL_OK);
    ck_assert_int_eq(r.real_terms, 3 + 5 + 1); /* a next token for all but each row's last */
    ck_assert_int_eq(r.fake_terms, (5 - 3) + 0 + (5 - 1));
    ck_assert(fabsf(r.batch_t * 18.0f - r.per_token * 9.0f) < 1e-4f);
    ck_assert_int_eq(r.wide_T, 12);
    ck_assert(fabsf(r.per_token_wide - r.per_token) < 1e-5f);
    ck_assert(fabsf(r.batch_t_wide - r.batch_t / 2.0f) < 1e-5f);
    /* Of the 6 pad targets, the first after rows 0 and 2 end cannot be
     * foreseen and keep their terms; the 4 that follow a pad cost the
     * pad-predicting model nothing. So its loss lies above the 9 real terms
     * over 15, by two cross-entropies of a fresh 64-class model (about
     * ln 64 = 4.16 each), and below the loss with every pad term in. */
    float two_terms = r.loss_pad_perfect * 15.0f - r.per_token * 9.0f;
    ck_assert_msg(two_terms > 2.0f * 2.0f && two_terms < 2.0f * 7.0f, "the two unforeseeable terms sum to %g",
                  (double)two_terms);
    ck_assert(r.loss_pad_perfect < r.loss_with_pads);
    ck_assert(fabsf(r.grad_batch_t * 18.0f - r.grad_per_token * 9.0f) < 1e-4f);
    pl_probe_loss_free(&r);
    pl_corpus_free(c);
}
END_TEST

/* The chat rows of the tiny corpus's three reviews, worked out by hand:
 * the system prompt is review 0's 3 words (it has fewer than 6); the answer
 * is the last quarter of a review's words, rounded up (1 of 3, 2 of 5, 1
 * of 1); <start> opens each of the three turns. Both losses are computed
 * here from a model built as the probe builds its own (SimpleRNN, 64
 * classes, the same seed), in double, one next-token term at a time. */
START_TEST(test_completion_loss_masks_the_prompt_and_matches_a_hand_computation) {
    PlCorpus *c = tiny();
    static const int rows[] = {0, 1, 2};
    PlProbeOpts o = opts_for(0, rows, 3, 6, PL_POST, 0);
    PlProbeLoss r;
    ck_assert_int_eq(pl_probe_loss(c, &o, NULL, &r, NULL), PL_OK);
    int good = pl_corpus_word_id(c, "good"), fine = pl_corpus_word_id(c, "fine"), film = pl_corpus_word_id(c, "film"),
        bad = pl_corpus_word_id(c, "bad"), dull = pl_corpus_word_id(c, "dull"), slow = pl_corpus_word_id(c, "slow");
    const int32_t want[3][11] = {
        {1, good, fine, film, 1, good, fine, 1, film, 0, 0},
        {1, good, fine, film, 1, bad, bad, dull, 1, slow, film},
        {1, good, fine, film, 1, 1, good, 0, 0, 0, 0},
    };
    static const int prompt[3] = {8, 9, 6}, len[3] = {9, 11, 7};
    ck_assert_int_eq(r.chat_B, 3);
    ck_assert_int_eq(r.chat_T, 11);
    ck_assert_int_eq(r.chat_system, 3);
    ck_assert_int_eq(r.chat_real, 9 + 11 + 7);
    ck_assert_int_eq(r.completion_tokens, 1 + 2 + 1);
    ck_assert_int_eq(r.prompt_terms, 8 + 10 + 6); /* every real token but a row's first has a predictor */
    uint8_t mask[3 * 11];
    for (int b = 0; b < 3; b++)
        for (int t = 0; t < 11; t++) {
            ck_assert_int_eq(r.chat_ids[b * 11 + t], want[b][t]);
            int lab = t >= prompt[b] && t < len[b] ? want[b][t] : -100;
            ck_assert_int_eq(r.chat_labels[b * 11 + t], lab);
            mask[b * 11 + t] = t < len[b];
        }
    PlModelConfig cfg = pl_model_config_default(PL_ARCH_RNN);
    cfg.vocab = c->num_words, cfg.classes = 64;
    PlModel *m;
    ck_assert_int_eq(pl_model_new(&cfg, o.seed, &m, NULL), PL_OK);
    ck_assert_int_eq(pl_model_forward(m, r.chat_ids, mask, 3, 11, NULL), PL_OK);
    const float *z = pl_model_logits(m); /* (T,B,C) */
    double all = 0.0, answer = 0.0;
    int n_all = 0, n_answer = 0;
    for (int b = 0; b < 3; b++)
        for (int t = 0; t + 1 < len[b]; t++) {
            const float *zt = z + ((size_t)t * 3 + b) * 64;
            int y = want[b][t + 1] < 63 ? want[b][t + 1] : 63;
            double mx = zt[0], sum = 0.0;
            for (int k = 1; k < 64; k++) mx = (double)zt[k] > mx ? (double)zt[k] : mx;
            for (int k = 0; k < 64; k++) sum += exp((double)zt[k] - mx);
            double term = log(sum) + mx - (double)zt[y];
            ck_assert(fabs(term - (double)r.chat_terms[b * 11 + t + 1]) < 1e-5); /* beside its label */
            all += term, n_all++;
            if (t + 1 >= prompt[b]) answer += term, n_answer++;
        }
    ck_assert_int_eq(n_all, 24);
    ck_assert_int_eq(n_answer, 4);
    ck_assert_msg(fabs(all / n_all - (double)r.prompt_included_loss) < 1e-5, "prompt included %g, by hand %g",
                  (double)r.prompt_included_loss, all / n_all);
    ck_assert_msg(fabs(answer / n_answer - (double)r.completion_loss) < 1e-5, "completion %g, by hand %g",
                  (double)r.completion_loss, answer / n_answer);
    pl_model_free(m);
    pl_probe_loss_free(&r);
    pl_corpus_free(c);
}
END_TEST

START_TEST(test_layers_that_take_the_mask_show_no_leak) {
    PlCorpus *c = tiny();
    static const int rows[] = {0, 1, 2};
    for (int side = 0; side <= 1; side++) {
        PlProbeOpts o = opts_for(0, rows, 3, 6, (PlSide)side, 0);
        PlProbeLayers r;
        ck_assert_int_eq(pl_probe_layers(c, &o, NULL, &r, NULL), PL_OK);
        ck_assert_int_eq(r.n, 16);
        for (int i = 0; i < r.n; i++) {
            const PlLayerLeak *l = &r.rows[i];
            int respects =
                strcmp(l->mask, "on") == 0 || strcmp(l->name, "embedding") == 0 || strcmp(l->name, "dense") == 0;
            if (respects) ck_assert_msg(l->leak == 0.0f, "%s (mask %s) leaks %g", l->name, l->mask, (double)l->leak);
            else ck_assert_msg(l->leak > 1e-4f, "%s (mask %s) shows no leak", l->name, l->mask);
        }
    }
    pl_corpus_free(c);
}
END_TEST

START_TEST(test_left_padding_with_corrected_positions_matches_single_prompts) {
    PlCorpus *c = tiny();
    static const int rows[] = {0, 1, 2};
    PlProbeOpts o = opts_for(0, rows, 3, 6, PL_PRE, 0);
    PlProbeGenerate r;
    ck_assert_int_eq(pl_probe_generate(c, &o, &r, NULL), PL_OK);
    ck_assert_int_eq(r.naive_last_column_pad_rows_left, 0);
    ck_assert_int_eq(r.naive_last_column_pad_rows_right, 2);
    ck_assert(r.left_vs_single_max_diff < 1e-5f);
    ck_assert(r.right_last_real_vs_single_max_diff < 1e-5f);
    ck_assert(r.left_naive_positions_max_diff > 1e-3f);
    ck_assert(r.right_last_column_vs_single_max_diff > 1e-3f);
    ck_assert_int_eq(r.pos_left[2 * 6 + 4], 0); /* the 2-token prompt starts at position 0 */
    ck_assert_int_eq(r.pos_left[2 * 6 + 5], 1);
    pl_probe_generate_free(&r);
    pl_corpus_free(c);
}
END_TEST

/* The greedy pick of the kvcache probe's decoder from logits (64): the
 * class with the largest logit (the first of equals), as a word id. */
static int32_t twin_pick(const float *logits, int V) {
    int best = 0;
    for (int k = 1; k < 64; k++) best = logits[k] > logits[best] ? k : best;
    return PL_FIRST_WORD_ID + best % (V - PL_FIRST_WORD_ID);
}

/* Reviews of 4, 6 and 2 tokens left-padded to 6 and decoded 3 steps: a
 * cache of 6 + 3 = 9 slots a row, pads in 2 + 0 + 4 = 6 of them. */
START_TEST(test_kvcache_counts_pad_slots_and_positions_by_hand) {
    PlCorpus *c = tiny();
    static const int rows[] = {0, 1, 2};
    PlProbeOpts o = opts_for(0, rows, 3, 6, PL_PRE, 1);
    PlProbeKvcache r;
    ck_assert_int_eq(pl_probe_kvcache(c, &o, 3, 0, &r, NULL), PL_OK);
    ck_assert_int_eq(r.B, 3);
    ck_assert_int_eq(r.T, 6);
    ck_assert_int_eq(r.slots, 9);
    ck_assert_int_eq(r.reads, 4);
    ck_assert_int_eq(r.len[0], 4);
    ck_assert_int_eq(r.len[1], 6);
    ck_assert_int_eq(r.len[2], 2);
    ck_assert_int_eq((int)r.pad_slots, 6);
    ck_assert_int_eq((int)r.real_slots, 12 + 3 * 3);
    ck_assert_int_eq(r.bytes_per_slot, 2 * 2 * 16 * 4); /* a key and a value, 2 heads of 16 floats */
    /* step s: 3 rows x (6 + s) scores per head, 6 of them on pads */
    ck_assert_int_eq((int)r.cells[0], 21);
    ck_assert_int_eq((int)r.cells[2], 27);
    ck_assert_int_eq((int)r.pad_cells[0], 6);
    ck_assert_int_eq((int)r.pad_cells[2], 6);
    ck_assert_int_eq(r.static_len, 9); /* maxlen 6 + 3 steps */
    ck_assert_int_eq((int)r.static_pad_slots, 27 - 21);
    static const uint8_t kind0[9] = {PL_KV_PAD,    PL_KV_PAD, PL_KV_PROMPT, PL_KV_PROMPT, PL_KV_PROMPT,
                                     PL_KV_PROMPT, PL_KV_NEW, PL_KV_NEW,    PL_KV_NEW};
    static const int32_t pos2[9] = {1, 1, 1, 1, 0, 1, 2, 3, 4}, mask2[9] = {0, 0, 0, 0, 1, 1, 1, 1, 1};
    for (int t = 0; t < 9; t++) {
        ck_assert_int_eq(r.kind[t], kind0[t]);
        ck_assert_int_eq(r.position_ids[2 * 9 + t], pos2[t]);
        ck_assert_int_eq(r.mask[2 * 9 + t], mask2[t]);
        ck_assert_int_eq(r.cache_position[t], t);
    }
    /* Left padding with a mask and positions from it skips the pads' slots:
     * the same sums in the same order as alone, to the bit. */
    ck_assert(r.way[PL_KV_LEFT].max_diff == 0.0f);
    ck_assert_int_eq(r.way[PL_KV_LEFT].tokens_differ, 0);
    ck_assert_int_eq(r.way[PL_KV_LEFT].first_step, -1);
    ck_assert(r.way[PL_KV_LEFT_SLOTS].max_diff > 1e-3f && r.way[PL_KV_LEFT_NO_MASK].max_diff > 1e-3f);
    ck_assert(r.way[PL_KV_RIGHT].max_diff > 1e-3f); /* rows 0 and 2 read a pad first */
    ck_assert(r.cache_vs_recompute_max_diff < 1e-5f);
    pl_probe_kvcache_free(&r);
    PlErr err;
    ck_assert_int_eq(pl_probe_kvcache(c, &o, 3, 16, &r, NULL), PL_OK);
    ck_assert_int_eq((int)r.static_pad_slots, 3 * 16 - 21);
    pl_probe_kvcache_free(&r);
    ck_assert_int_eq(pl_probe_kvcache(c, &o, 3, 8, &r, &err), PL_ERANGE);
    ck_assert_str_eq(err.msg, "a static cache of 8 slots cannot hold a prompt of 6 and 3 steps (9)");
    ck_assert_int_eq(pl_probe_kvcache(c, &o, 0, 0, &r, &err), PL_ERANGE);
    ck_assert_str_eq(err.msg, "steps 0: decode 1 to 64 steps");
    pl_corpus_free(c);
}
END_TEST

/* The cached decoding's picks against the naive twin recomputing every
 * query from the weights: the batch's kept sequence, read a column at a
 * time, and each prompt alone. */
START_TEST(test_kvcache_picks_match_the_naive_twin) {
    PlCorpus *c;
    ck_assert_int_eq(pl_corpus_load("builtin:3:60", NULL, &c, NULL), PL_OK);
    PlProbeOpts o = pl_probe_opts_default();
    o.maxlen = 120, o.example = pl_probe_auto_example(c, o.maxlen); /* lengths 43, 120, 120, 120 */
    PlProbeKvcache r;
    ck_assert_int_eq(pl_probe_kvcache(c, &o, 5, 0, &r, NULL), PL_OK);
    int B = r.B, T = r.T, n = r.slots, V = c->num_words;
    PlRng rng;
    pl_rng_seed(&rng, o.seed);
    size_t sizes[7] = {(size_t)V * 32, (size_t)(n + 1) * 32, 32 * 32, 32 * 32, 32 * 32, 32 * 32, 32 * 64};
    float lim = sqrtf(6.0f / 64.0f), limits[7] = {0.5f, 0.5f, lim, lim, lim, lim, sqrtf(6.0f / 96.0f)};
    float *Wt[7];
    for (int i = 0; i < 7; i++) {
        Wt[i] = malloc(sizes[i] * sizeof(float));
        pl_init_uniform(Wt[i], sizes[i], -limits[i], limits[i], &rng);
    }
    const float *const *W = (const float *const *)Wt;
    int *pos = malloc((size_t)B * n * sizeof *pos), *col = malloc((size_t)B * sizeof *col);
    float *z = malloc((size_t)B * 64 * sizeof *z);
    for (int i = 0; i < B * n; i++) pos[i] = r.position_ids[i];
    int reads_with_pads = 0;
    for (int s = 0; s <= r.S; s++) {
        for (int b = 0; b < B; b++) col[b] = T - 1 + s;
        twin_decode(W, r.ids, r.mask, pos, col, B, n, z);
        for (int b = 0; b < B; b++) {
            int32_t want = twin_pick(z + (size_t)b * 64, V);
            ck_assert_int_eq(r.alone[b * r.reads + s], want);
            if (s < r.S) ck_assert_int_eq(r.ids[b * n + T + s], want);
            reads_with_pads += r.len[b] < T;
        }
    }
    ck_assert_int_gt(reads_with_pads, 0); /* the batch has pads to skip */
    for (int b = 0; b < B; b++) {         /* alone: the prompt and its picks, positions 0, 1, 2, ... */
        int L = r.len[b], m = L + r.S;
        int32_t *ids = malloc((size_t)m * sizeof *ids);
        uint8_t *ones = malloc((size_t)m);
        int *p = malloc((size_t)m * sizeof *p);
        for (int t = 0; t < m; t++) {
            ids[t] = t < L ? r.ids[b * n + T - L + t] : r.alone[b * r.reads + t - L];
            ones[t] = 1, p[t] = t;
        }
        for (int s = 0; s <= r.S; s++) {
            int at = L - 1 + s;
            twin_decode(W, ids, ones, p, &at, 1, m, z);
            ck_assert_int_eq(r.alone[b * r.reads + s], twin_pick(z, V));
        }
        free(ids), free(ones), free(p);
    }
    for (int i = 0; i < 7; i++) free(Wt[i]);
    free(pos), free(col), free(z);
    pl_probe_kvcache_free(&r);
    pl_corpus_free(c);
}
END_TEST

START_TEST(test_masks_of_a_padded_and_a_full_row_in_four_conventions) {
    /* Rows 0 (4 tokens) and 1 (6, cut to its last 5) at width 5, padded
     * post: row 0 has one pad at the end, row 1 none. */
    PlCorpus *c = tiny();
    static const int rows[] = {0, 1};
    static const uint8_t keras[10] = {1, 1, 1, 1, 0, 1, 1, 1, 1, 1};
    static const uint8_t torch[10] = {0, 0, 0, 0, 1, 0, 0, 0, 0, 0};
    static const uint8_t hf[10] = {1, 1, 1, 1, 0, 1, 1, 1, 1, 1};
    PlProbeOpts o = opts_for(0, rows, 2, 5, PL_POST, 0);
    PlProbeMasks r;
    ck_assert_int_eq(pl_probe_masks(c, &o, NULL, &r, NULL), PL_OK);
    ck_assert_int_eq(r.B, 2);
    ck_assert_int_eq(r.T, 5);
    ck_assert_int_eq(r.row, 0);
    ck_assert_mem_eq(r.keras, keras, 10);
    ck_assert_mem_eq(r.torch, torch, 10);
    ck_assert_mem_eq(r.hf, hf, 10);
    for (int i = 0; i < 10; i++) {
        if (i == 4) ck_assert(isinf(r.additive[i]) && r.additive[i] < 0.0f);
        else ck_assert(r.additive[i] == 0.0f);
    }
    for (int k = 0; k < 4; k++) ck_assert_int_eq(r.keep[k], 9); /* 4 + 5 real tokens, read in every convention */
    ck_assert_int_eq(r.real_tokens, 9);
    ck_assert_int_eq(r.real_pad_ids, 0); /* no real token holds the pad's id */
    ck_assert_int_eq(r.pads[0], 1);
    ck_assert_int_eq(r.pads[1], 0);
    /* The right mask puts nothing on the pad; no mask puts something; the
     * inverted mask leaves row 0's real tokens only the pad to look at. */
    ck_assert(r.share_right == 0.0f);
    ck_assert(r.share_none > 0.0f && r.share_none < 1.0f);
    ck_assert(r.share_inverted == 1.0f);
    ck_assert(r.row_share[0 * 3 + 2] == 1.0f);
    ck_assert_int_eq(r.padded_rows, 1);
    ck_assert_int_eq(r.padded_queries, 4);
    /* Row 1 has no pad, so the inverted mask hides all its keys. */
    ck_assert_int_eq(r.blind_rows, 1);
    ck_assert_int_eq(r.blind_queries, 5);
    ck_assert(isnan(r.row_share[1 * 3 + 2]));
    ck_assert(r.row_share[1 * 3 + 0] == 0.0f && r.row_share[1 * 3 + 1] == 0.0f);
    ck_assert_int_eq(r.nan_count, 0);
    pl_probe_masks_free(&r);
    pl_probe_masks_free(&r); /* freeing twice is harmless */
    pl_corpus_free(c);
}
END_TEST

/* Lesson 10's prompts end in an end token written as the pad's id 0. The
 * masks view built its masks from the lengths and said they were built
 * from input_ids by code that compares ids, which would hide the end
 * tokens too: the probe counts the real cells holding the pad's id (one a
 * prompt: 4 of 18 real tokens), and the text export says so under the
 * code, the 14 the code would keep beside them. */
START_TEST(test_masks_count_the_real_cells_holding_the_pads_id) {
    PlCorpus *c;
    PlErr err;
    ck_assert_msg(pl_corpus_load("inline:great film 0 | it was dull and far too long 0 | loved it 0 | not for me 0",
                                 NULL, &c, &err) == PL_OK,
                  "%s", err.msg);
    static const int rows[] = {0, 1, 2, 3};
    PlProbeOpts o = opts_for(0, rows, 4, 9, PL_POST, 0);
    PlProbeMasks r;
    ck_assert_int_eq(pl_probe_masks(c, &o, NULL, &r, NULL), PL_OK);
    ck_assert_int_eq(r.real_tokens, 18); /* 3 + 8 + 3 + 4, the start token and the end token included */
    ck_assert_int_eq(r.real_pad_ids, 4);
    char note[400];
    ck_assert_ptr_nonnull(strstr(pl_report_masks_ids_note(&r, note, sizeof note), "would hide those cells too"));
    char drawn[400];
    pl_ledger_draw(NULL, note, drawn, sizeof drawn);
    ck_assert_ptr_nonnull(strstr(drawn, "pad): 4; these masks come from the lengths"));
    ck_assert_ptr_nonnull(strstr(drawn, "and keep 14"));
    pl_probe_masks_free(&r);
    pl_corpus_free(c);
}
END_TEST

START_TEST(test_every_mask_convention_has_a_short_code_line) {
    for (int k = 0; k < 4; k++) {
        const char *code = pl_mask_conv_code((PlMaskConv)k);
        ck_assert(code && strlen(code) > 0 && strlen(code) < 70);
        ck_assert_ptr_nonnull(strstr(code, "input_ids"));
        ck_assert_ptr_nonnull(strstr(code, "pad_id"));
    }
    ck_assert_str_eq(pl_mask_conv_code(PL_MASK_TORCH), "key_padding_mask = input_ids == pad_id");
}
END_TEST

START_TEST(test_pre_and_post_padding_agree_under_the_mask) {
    PlCorpus *c;
    ck_assert_int_eq(pl_corpus_load("builtin:1:40", NULL, &c, NULL), PL_OK);
    static const PlArch archs[] = {PL_ARCH_RNN,     PL_ARCH_GRU,     PL_ARCH_LSTM,
                                   PL_ARCH_AVGPOOL, PL_ARCH_MAXPOOL, PL_ARCH_ATTENTION};
    PlProbeOpts o = pl_probe_opts_default();
    for (size_t k = 0; k < sizeof archs / sizeof archs[0]; k++) {
        PlProbeIdentity r;
        ck_assert_int_eq(pl_probe_identity(c, &o, archs[k], NULL, &r, NULL), PL_OK);
        const char *name = pl_arch_name(archs[k]);
        ck_assert_int_eq(r.arch, archs[k]);
        /* No close-up width given: the example and its 3 batch-mates, as
         * every close-up probe takes them. */
        ck_assert_int_eq(r.B, PL_PROBE_FOCUS_ROWS);
        int padded = 0;
        for (int i = 0; i < r.B; i++) padded += r.len[i] < r.T;
        ck_assert_msg(padded > 0, "the batch has no pads");
        ck_assert_msg(r.masked_max_diff < 1e-5f, "%s: masked pre vs post %g", name, (double)r.masked_max_diff);
        if (pl_arch_recurrent(archs[k])) {
            ck_assert_msg(r.unmasked_max_diff > 1e-3f, "%s: unmasked pre vs post %g", name,
                          (double)r.unmasked_max_diff);
            ck_assert(!r.order_blind);
        } else {
            /* Pooling and position-free attention see the same multiset of
             * tokens either way: the side cannot matter even unmasked. What
             * the mask changes for them is the answer itself: a lot for the
             * mean (the pads dilute it), a little for the max (a pad wins
             * only the dimensions where it beats every real token). */
            ck_assert_msg(r.unmasked_max_diff < 1e-5f, "%s: unmasked pre vs post %g", name,
                          (double)r.unmasked_max_diff);
            float effect = archs[k] == PL_ARCH_MAXPOOL ? 0.0f : 1e-3f;
            ck_assert_msg(r.mask_effect_max_diff > effect, "%s: masked vs unmasked %g", name,
                          (double)r.mask_effect_max_diff);
            ck_assert(r.order_blind);
        }
        pl_probe_identity_free(&r);
    }
    pl_corpus_free(c);
}
END_TEST

/* ---- packing ---- */

/* Rows 0, 1, 2 of the tiny corpus (4, 6 and 2 tokens) at maxlen 8, packed:
 * one row of 12 tokens, boundaries 0 4 10 12. */
START_TEST(test_packing_lays_out_three_reviews_as_a_flattening_collator_does) {
    PlCorpus *c = tiny();
    static const int rows[] = {0, 1, 2};
    static const int32_t pos[12] = {0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1};
    static const int32_t seq[12] = {0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2};
    static const int cu[4] = {0, 4, 10, 12};
    PlProbeOpts o = opts_for(0, rows, 3, 8, PL_POST, 0);
    PlProbePacking r;
    ck_assert_int_eq(pl_probe_packing(c, &o, &r, NULL), PL_OK);
    ck_assert_int_eq(r.D, 3);
    ck_assert_int_eq(r.N, 12);
    for (int d = 0; d < 3; d++) ck_assert_int_eq(r.example[d], d);
    for (int t = 0; t < 12; t++) {
        ck_assert_int_eq(r.position_ids[t], pos[t]);
        ck_assert_int_eq(r.seq_idx[t], seq[t]);
        ck_assert_int_eq(r.ids[t], pl_corpus_seq(c, seq[t])[pos[t]]); /* nothing cut at maxlen 8 */
        /* -100 at 0, 4 and 10, each document's first token; the ids elsewhere */
        ck_assert_int_eq(r.labels[t], t == 0 || t == 4 || t == 10 ? -100 : r.ids[t]);
    }
    ck_assert_int_eq(r.n_read, 3);
    for (int d = 0; d <= 3; d++) {
        ck_assert_int_eq(r.cu_seqlens[d], cu[d]);
        ck_assert_int_eq(r.cu_read[d], cu[d]);
    }
    ck_assert(r.cu_match);
    ck_assert_int_eq(r.counted_read, 1); /* 0..11 has one 0: the whole row reads as one document */
    /* 12 tokens packed; 3 x 6 = 18 padded to the longest; 3 x 8 = 24 to maxlen */
    ck_assert_int_eq(r.longest, 6);
    ck_assert(r.packed_cells == 12 && r.dynamic_cells == 18 && r.static_cells == 24);
    ck_assert(r.dynamic_saved == 6 && r.static_saved == 12);
    ck_assert(fabs(r.dynamic_saved_share - 1.0 / 3.0) < 1e-12 && fabs(r.static_saved_share - 0.5) < 1e-12);
    /* The shifted loss reads labels 1..11: 9 count; without the -100s 11,
     * of which 2 (at 4 and 10) would be predicted across a boundary. */
    ck_assert(r.loss_terms == 9 && r.loss_terms_unmasked == 11 && r.boundary_terms == 2);
    ck_assert(fabs(r.boundary_share - 2.0 / 11.0) < 1e-12);
    ck_assert_msg(r.aware_max_diff < 1e-5f, "document mask: %g", (double)r.aware_max_diff);
    ck_assert_msg(r.causal_max_diff > 1e-3f, "plain causal: %g", (double)r.causal_max_diff);
    ck_assert_msg(r.counted_max_diff > 1e-2f, "counted positions: %g", (double)r.counted_max_diff);
    ck_assert(r.cross[0] == 0.0f && r.cross[1] > 0.0f && r.cross[2] > 0.0f && r.cross_row > 0.0f);
    pl_probe_packing_free(&r);
    pl_probe_packing_free(&r); /* freeing twice is harmless */
    pl_corpus_free(c);
}
END_TEST

/* Cut to maxlen 5 (truncating pre), review 1 keeps its last 5 tokens, and
 * every document is as long as maxlen or shorter: dynamic = static = 15. */
START_TEST(test_packing_cuts_each_document_to_maxlen) {
    PlCorpus *c = tiny();
    static const int rows[] = {1, 2, 0};
    PlProbeOpts o = opts_for(1, rows, 3, 5, PL_PRE, 0);
    PlProbePacking r;
    ck_assert_int_eq(pl_probe_packing(c, &o, &r, NULL), PL_OK);
    ck_assert(r.D == 3 && r.N == 11 && r.len[0] == 5 && r.len[1] == 2 && r.len[2] == 4);
    ck_assert(r.example[0] == 1 && r.example[1] == 2 && r.example[2] == 0);
    for (int t = 0; t < 5; t++) ck_assert_int_eq(r.ids[t], pl_corpus_seq(c, 1)[t + 1]);
    ck_assert(r.dynamic_cells == 15 && r.static_cells == 15 && r.dynamic_saved == 4 && r.static_saved == 4);
    ck_assert(r.loss_terms == 8 && r.boundary_terms == 2);
    pl_probe_packing_free(&r);
    pl_corpus_free(c);
}
END_TEST

/* The packing probe's layer the long way, in double: out (N,32) with
 * position ids pos, query i seeing keys from[i]..i; cross (N) each query's
 * weight on keys before start[i], averaged over the 2 heads. W: token and
 * position embeddings, Wq, Wk, Wv, Wo, drawn as probe.h says. */
static void twin_packed(const float *const W[6], const int32_t *ids, const int32_t *pos, const int *from,
                        const int *start, int N, double *out, double *cross) {
    enum { E = 32, NH = 2, D = 16, HD = 32 };
    double *x = malloc((size_t)N * E * sizeof *x), *q = malloc((size_t)N * HD * sizeof *q);
    double *k = malloc((size_t)N * HD * sizeof *k), *v = malloc((size_t)N * HD * sizeof *v);
    double *p = malloc((size_t)N * sizeof *p), o[HD];
    for (int t = 0; t < N; t++)
        for (int e = 0; e < E; e++)
            x[(size_t)t * E + e] = (double)W[0][(size_t)ids[t] * E + e] + (double)W[1][(size_t)pos[t] * E + e];
    for (int t = 0; t < N; t++)
        for (int j = 0; j < HD; j++) {
            double a = 0.0, b = 0.0, cc = 0.0;
            for (int e = 0; e < E; e++) {
                double xe = x[(size_t)t * E + e];
                a += xe * (double)W[2][e * HD + j], b += xe * (double)W[3][e * HD + j],
                    cc += xe * (double)W[4][e * HD + j];
            }
            q[(size_t)t * HD + j] = a, k[(size_t)t * HD + j] = b, v[(size_t)t * HD + j] = cc;
        }
    for (int i = 0; i < N; i++) {
        cross[i] = 0.0;
        for (int h = 0; h < NH; h++) {
            double top = -INFINITY, sum = 0.0;
            for (int j = from[i]; j <= i; j++) {
                double s = 0.0;
                for (int d = 0; d < D; d++) s += q[(size_t)i * HD + h * D + d] * k[(size_t)j * HD + h * D + d];
                p[j] = s / sqrt((double)D);
                top = p[j] > top ? p[j] : top;
            }
            for (int j = from[i]; j <= i; j++) sum += p[j] = exp(p[j] - top);
            for (int d = 0; d < D; d++) o[h * D + d] = 0.0;
            for (int j = from[i]; j <= i; j++) {
                for (int d = 0; d < D; d++) o[h * D + d] += p[j] / sum * v[(size_t)j * HD + h * D + d];
                if (j < start[i]) cross[i] += p[j] / sum / NH;
            }
        }
        for (int e = 0; e < E; e++) {
            double a = 0.0;
            for (int j = 0; j < HD; j++) a += o[j] * (double)W[5][j * E + e];
            out[(size_t)i * E + e] = a;
        }
    }
    free(x), free(q), free(k), free(v), free(p);
}

static double twin_max_diff(const double *a, const double *b, size_t n) {
    double m = 0.0;
    for (size_t i = 0; i < n; i++) m = fabs(a[i] - b[i]) > m ? fabs(a[i] - b[i]) : m;
    return m;
}

/* Every figure of the model, against the twin: each document alone (its
 * own positions 0..L-1, its own keys) as the reference, then the row three
 * ways; the cross-document share of (b) summed weight by weight. */
START_TEST(test_packing_probe_matches_its_naive_twin) {
    PlCorpus *c;
    ck_assert_int_eq(pl_corpus_load("builtin:3:60", NULL, &c, NULL), PL_OK);
    PlProbeOpts o = pl_probe_opts_default();
    o.maxlen = 40, o.seed = 5;
    o.example = pl_probe_auto_example(c, o.maxlen);
    PlProbePacking r;
    ck_assert_int_eq(pl_probe_packing(c, &o, &r, NULL), PL_OK);
    ck_assert_int_eq(r.D, PL_PACKING_DOCS);
    int N = r.N;
    PlRng rng;
    pl_rng_seed(&rng, o.seed);
    size_t sizes[6] = {(size_t)c->num_words * 32, (size_t)N * 32, 32 * 32, 32 * 32, 32 * 32, 32 * 32};
    float limits[6] = {0.5f, 0.5f, sqrtf(6.0f / 64.0f), sqrtf(6.0f / 64.0f), sqrtf(6.0f / 64.0f), sqrtf(6.0f / 64.0f)};
    float *Wt[6];
    for (int i = 0; i < 6; i++) {
        Wt[i] = malloc(sizes[i] * sizeof(float));
        pl_init_uniform(Wt[i], sizes[i], -limits[i], limits[i], &rng);
    }
    const float *const *W = (const float *const *)Wt;
    size_t n = (size_t)N * 32;
    double *ref = malloc(n * sizeof *ref), *out = malloc(n * sizeof *out), *cross = malloc((size_t)N * sizeof *cross);
    int *from = malloc((size_t)N * sizeof *from), *start = malloc((size_t)N * sizeof *start),
        *zero = calloc((size_t)N, sizeof *zero);
    int32_t *counted = malloc((size_t)N * sizeof *counted), *own = malloc((size_t)N * sizeof *own);
    /* Boundaries found by walking the lengths, not read from the probe's cu_seqlens. */
    for (int d = 0, at = 0; d < r.D; at += r.len[d++])
        for (int t = at; t < at + r.len[d]; t++) start[t] = from[t] = at, own[t] = t - at;
    for (int t = 0; t < N; t++) counted[t] = t;
    for (int d = 0, at = 0; d < r.D; at += r.len[d++]) {
        int L = r.len[d];
        int *f0 = calloc((size_t)L, sizeof *f0);
        double *c0 = malloc((size_t)L * sizeof *c0);
        twin_packed(W, r.ids + at, own + at, f0, f0, L, ref + (size_t)at * 32, c0);
        free(f0), free(c0);
    }
    twin_packed(W, r.ids, own, from, start, N, out, cross);
    double aware = twin_max_diff(out, ref, n);
    twin_packed(W, r.ids, own, zero, start, N, out, cross);
    double causal = twin_max_diff(out, ref, n), row = 0.0;
    for (int d = 0, at = 0; d < r.D; at += r.len[d++]) {
        double sum = 0.0;
        for (int t = at; t < at + r.len[d]; t++) sum += cross[t];
        ck_assert_msg(fabs(sum / r.len[d] - (double)r.cross[d]) < 1e-5, "document %d: %g, twin %g", d,
                      (double)r.cross[d], sum / r.len[d]);
        row += sum;
    }
    ck_assert_msg(fabs(row / N - (double)r.cross_row) < 1e-5, "row: %g, twin %g", (double)r.cross_row, row / N);
    twin_packed(W, r.ids, counted, from, start, N, out, cross);
    double shifted = twin_max_diff(out, ref, n);
    ck_assert_msg(aware < 1e-9 && r.aware_max_diff < 1e-5f, "(a) %g, twin %g", (double)r.aware_max_diff, aware);
    ck_assert_msg(fabs(causal - (double)r.causal_max_diff) < 1e-4 * (1.0 + causal), "(b) %g, twin %g",
                  (double)r.causal_max_diff, causal);
    ck_assert_msg(fabs(shifted - (double)r.counted_max_diff) < 1e-4 * (1.0 + shifted), "(c) %g, twin %g",
                  (double)r.counted_max_diff, shifted);
    ck_assert(r.cross_row > 0.01f && causal > 1e-2 && shifted > 1e-2);
    for (int i = 0; i < 6; i++) free(Wt[i]);
    free(ref), free(out), free(cross), free(from), free(start), free(zero), free(counted), free(own);
    pl_probe_packing_free(&r);
    pl_corpus_free(c);
}
END_TEST

START_TEST(test_probes_refuse_out_of_range_examples) {
    PlCorpus *c = tiny();
    PlProbeOpts o = opts_for(7, NULL, 0, 6, PL_PRE, 0);
    PlProbeBatch b;
    PlProbeRnn r;
    PlErr err;
    ck_assert_int_eq(pl_probe_batch(c, &o, &b, &err), PL_ERANGE);
    ck_assert_ptr_nonnull(strstr(err.msg, "example 7 is out of range"));
    ck_assert_int_eq(pl_probe_rnn(c, &o, NULL, PL_ARCH_RNN, 0, &r, &err), PL_ERANGE);
    pl_corpus_free(c);
}
END_TEST

/* ---- blocks: tiles counted by hand ----
 * Reviews of 20, 10 and 12 tokens (start token included). A row of 20 at
 * T = 40 in tiles of 16 is padded to 48: blocks [0,16) [16,32) [32,48), the
 * last holding 8 cells past T that no rule keeps. */
static const char *blocks_tsv = "1\ta b c d e f g h i j k l m n o p q r s\n"
                                "0\ta b c d e f g h i\n"
                                "1\ta b c d e f g h i j k\n";

static PlCorpus *blocks_corpus(void) {
    PlCorpus *c;
    ck_assert_int_eq(pl_corpus_load_tsv_mem("blocks.tsv", blocks_tsv, strlen(blocks_tsv), NULL, &c, NULL), PL_OK);
    ck_assert_int_eq(pl_corpus_len(c, 0), 20);
    ck_assert_int_eq(pl_corpus_len(c, 1), 10);
    ck_assert_int_eq(pl_corpus_len(c, 2), 12);
    return c;
}

/* Rule k's empty, partial and full tiles over the batch. */
static void assert_tiles(const PlProbeBlocks *r, int k, long empty, long partial, long full) {
    ck_assert_msg(r->rules[k].empty == empty && r->rules[k].partial == partial && r->rules[k].full == full,
                  "%s: %ld/%ld/%ld, want %ld/%ld/%ld", pl_mask_rules[k].name, r->rules[k].empty, r->rules[k].partial,
                  r->rules[k].full, empty, partial, full);
}

START_TEST(test_blocks_of_a_post_padded_row_of_20_at_width_40_in_tiles_of_16) {
    PlCorpus *c = blocks_corpus();
    static const int rows[] = {0};
    PlProbeOpts o = opts_for(0, rows, 1, 40, PL_POST, 0);
    PlProbeBlocks r;
    ck_assert_int_eq(pl_probe_blocks(c, &o, 16, 8, &r, NULL), PL_OK);
    ck_assert(r.B == 1 && r.T == 40 && r.Tp == 48 && r.nb == 3 && r.tiles == 9 && !r.packed && r.len[0] == 20);
    /* keys 0..15 real: full for query blocks 0 and 1, partial for block 2
     * (its cells past T); keys 16..31 partial (16..19 real); 32..47 empty */
    assert_tiles(&r, PL_RULE_PADDING, 3, 4, 2);
    /* above the diagonal empty; on it partial; below it full, but in query
     * block 2, whose padded cells are never kept */
    assert_tiles(&r, PL_RULE_CAUSAL, 3, 5, 1);
    assert_tiles(&r, PL_RULE_CAUSAL_PADDING, 4, 4, 1);
    /* a padded row is one document: every tile clear of T's end is full */
    assert_tiles(&r, PL_RULE_DOCUMENT, 0, 5, 4);
    assert_tiles(&r, PL_RULE_CAUSAL_DOCUMENT, 3, 5, 1);
    /* W = 8: query block 2 is 13 or more past every real key */
    assert_tiles(&r, PL_RULE_SLIDING, 6, 3, 0);
    ck_assert_int_eq(r.rules[PL_RULE_PADDING].kept_cells, 40 * 20);
    ck_assert_int_eq(r.rules[PL_RULE_CAUSAL].kept_cells, 820);         /* 1 + 2 + ... + 40 */
    ck_assert_int_eq(r.rules[PL_RULE_CAUSAL_PADDING].kept_cells, 610); /* 1 + ... + 20, then 20 x 20 */
    ck_assert_int_eq(r.rules[PL_RULE_DOCUMENT].kept_cells, 1600);
    ck_assert_int_eq(r.rules[PL_RULE_SLIDING].kept_cells, 160); /* 28 + 13 x 8 under q = 20, 7 + ... + 1 past it */
    ck_assert_int_eq(r.rules[PL_RULE_PADDING].computed_cells, 6 * 256);
    ck_assert(fabs(r.rules[PL_RULE_PADDING].computed_share - 1536.0 / 1600.0) < 1e-12);
    ck_assert(fabs(r.rules[PL_RULE_PADDING].kept_share - 0.5) < 1e-12);
    ck_assert_int_eq(r.dense_bool_bytes, 1600);
    ck_assert_int_eq(r.dense_float_bytes, 6400);
    ck_assert_int_eq(r.block_mask_forward_bytes, 2 * 4 * (3 + 9)); /* (1,1,3) and (1,1,3,3) int32, twice */
    ck_assert_int_eq(r.block_mask_bytes, 192);
    /* the map of the row: padding's columns */
    static const uint8_t padding_map[9] = {2, 1, 0, 2, 1, 0, 1, 1, 0};
    ck_assert_mem_eq(r.rules[PL_RULE_PADDING].map, padding_map, 9);
    pl_probe_blocks_free(&r);
    pl_probe_blocks_free(&r); /* twice is harmless */
    pl_corpus_free(c);
}
END_TEST

START_TEST(test_blocks_of_the_same_row_pre_padded_have_no_full_tile) {
    PlCorpus *c = blocks_corpus();
    static const int rows[] = {0};
    PlProbeOpts o = opts_for(0, rows, 1, 40, PL_PRE, 0);
    PlProbeBlocks r;
    ck_assert_int_eq(pl_probe_blocks(c, &o, 16, 8, &r, NULL), PL_OK);
    /* keys 20..39 real: block 0 empty, block 1 partial, block 2 partial (8 cells past T) */
    assert_tiles(&r, PL_RULE_PADDING, 3, 6, 0);
    /* query block 0 sees no real key at or before it; block 1 only 20..q */
    assert_tiles(&r, PL_RULE_CAUSAL_PADDING, 6, 3, 0);
    assert_tiles(&r, PL_RULE_CAUSAL, 3, 5, 1);                         /* causal does not read the pads */
    ck_assert_int_eq(r.rules[PL_RULE_CAUSAL_PADDING].kept_cells, 210); /* 1 + 2 + ... + 20 */
    pl_probe_blocks_free(&r);
    pl_corpus_free(c);
}
END_TEST

START_TEST(test_blocks_count_each_row_of_a_batch) {
    PlCorpus *c = blocks_corpus();
    static const int rows[] = {0, 1};
    PlProbeOpts o = opts_for(1, rows, 2, 40, PL_POST, 0);
    PlProbeBlocks r;
    ck_assert_int_eq(pl_probe_blocks(c, &o, 16, 8, &r, NULL), PL_OK);
    ck_assert(r.B == 2 && r.tiles == 18 && r.map_row == 1);
    ck_assert(r.ndocs == 2 && r.len[0] == 20 && r.len[1] == 10); /* a padded row is one document */
    const int *row = r.rules[PL_RULE_PADDING].row;
    ck_assert(row[0] == 3 && row[1] == 4 && row[2] == 2); /* the row of 20, as above */
    ck_assert(row[3] == 6 && row[4] == 3 && row[5] == 0); /* the row of 10: keys 0..9 in block 0 alone */
    assert_tiles(&r, PL_RULE_PADDING, 9, 7, 2);
    ck_assert_int_eq(r.dense_bool_bytes, 3200);
    ck_assert_int_eq(r.dense_float_bytes, 12800);
    ck_assert_int_eq(r.block_mask_forward_bytes, 2 * 4 * (2 * 3 + 2 * 9));
    ck_assert_int_eq(r.block_mask_bytes, 384);
    pl_probe_blocks_free(&r);
    pl_corpus_free(c);
}
END_TEST

START_TEST(test_blocks_of_two_packed_documents_follow_cu_seqlens) {
    PlCorpus *c = blocks_corpus();
    static const int rows[] = {1, 2};
    PlProbeOpts o = opts_for(1, rows, 2, 40, PL_POST, 0);
    o.batching = PL_BATCH_PACKED;
    PlProbeBlocks r;
    ck_assert_int_eq(pl_probe_blocks(c, &o, 8, 64, &r, NULL), PL_OK);
    /* one row of 22: document 0 at 0..9, document 1 at 10..21; tiles of 8, padded to 24 */
    ck_assert(r.packed && r.B == 1 && r.T == 22 && r.Tp == 24 && r.nb == 3 && r.ndocs == 2);
    ck_assert(r.len[0] == 10 && r.len[1] == 12);
    assert_tiles(&r, PL_RULE_PADDING, 0, 5, 4); /* no pads: only the cells past T */
    assert_tiles(&r, PL_RULE_DOCUMENT, 2, 6, 1);
    assert_tiles(&r, PL_RULE_CAUSAL_DOCUMENT, 4, 5, 0);
    ck_assert_int_eq(r.rules[PL_RULE_DOCUMENT].kept_cells, 10 * 10 + 12 * 12);
    ck_assert_int_eq(r.rules[PL_RULE_CAUSAL_DOCUMENT].kept_cells, 55 + 78);
    pl_probe_blocks_free(&r);
    pl_corpus_free(c);
}
END_TEST

START_TEST(test_blocks_at_one_tile_per_row_skip_nothing_for_padding) {
    PlCorpus *c = blocks_corpus();
    static const int rows[] = {0};
    PlProbeOpts o = opts_for(0, rows, 1, 40, PL_POST, 0);
    PlProbeBlocks r;
    ck_assert_int_eq(pl_probe_blocks(c, &o, 128, 64, &r, NULL), PL_OK);
    ck_assert(r.nb == 1 && r.Tp == 128);
    assert_tiles(&r, PL_RULE_PADDING, 0, 1, 0);
    assert_tiles(&r, PL_RULE_SLIDING, 0, 1, 0);
    ck_assert(fabs(r.rules[PL_RULE_PADDING].computed_share - 128.0 * 128.0 / 1600.0) < 1e-12); /* over 1 */
    pl_probe_blocks_free(&r);
    PlErr err;
    static const int bad[] = {4, 12, 2048, 0};
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(pl_probe_blocks(c, &o, bad[i], 64, &r, &err), PL_ERANGE);
        ck_assert_ptr_nonnull(strstr(err.msg, "power of two"));
    }
    ck_assert_int_eq(pl_probe_blocks(c, &o, 16, 0, &r, &err), PL_ERANGE);
    ck_assert(pl_blocks_block_ok(8) && pl_blocks_block_ok(1024) && !pl_blocks_block_ok(96));
    ck_assert_int_eq(pl_mask_rule_find("causal+document"), PL_RULE_CAUSAL_DOCUMENT);
    ck_assert_int_eq(pl_mask_rule_find("banded"), -1);
    pl_corpus_free(c);
}
END_TEST

Suite *probe_suite(void) {
    Suite *s = suite_create("probe");
    TCase *tc = tcase_create("probes");
    tcase_set_timeout(tc, PL_TEST_HANG);
    tcase_add_test(tc, test_batch_counts_agree_in_every_convention);
    tcase_add_test(tc, test_two_keys_with_one_pad_get_weights_one_and_zero);
    tcase_add_test(tc, test_attention_probe_mask_removes_leaks_and_keeps_rows_whole);
    tcase_add_test(tc, test_left_padding_with_causal_mask_gives_zero_rows_not_nan);
    tcase_add_test(tc, test_attention_probe_matches_its_naive_twin);
    tcase_add_test(tc, test_attention_probe_shows_the_bits_of_the_full_computation);
    tcase_add_test(tc, test_attention_probe_counts_a_batch_mates_nan_without_the_mask);
    tcase_add_test(tc, test_generate_probe_matches_its_naive_twin);
    tcase_add_test(tc, test_kvcache_counts_pad_slots_and_positions_by_hand);
    tcase_add_test(tc, test_kvcache_picks_match_the_naive_twin);
    tcase_add_test(tc, test_masks_probe_matches_its_naive_twin);
    tcase_add_test(tc, test_rnn_fixed_point_of_a_unit_without_recurrence_is_tanh_of_its_input);
    tcase_add_test(tc, test_rnn_fixed_point_matches_bisection_and_the_mask_keeps_the_last_state);
    tcase_add_test(tc, test_pooling_a_2_token_row_padded_to_10_weighs_real_tokens_0_2);
    tcase_add_test(tc, test_loss_normalisations_relate_as_counted);
    tcase_add_test(tc, test_completion_loss_masks_the_prompt_and_matches_a_hand_computation);
    tcase_add_test(tc, test_layers_that_take_the_mask_show_no_leak);
    tcase_add_test(tc, test_left_padding_with_corrected_positions_matches_single_prompts);
    tcase_add_test(tc, test_masks_of_a_padded_and_a_full_row_in_four_conventions);
    tcase_add_test(tc, test_masks_count_the_real_cells_holding_the_pads_id);
    tcase_add_test(tc, test_every_mask_convention_has_a_short_code_line);
    tcase_add_test(tc, test_pre_and_post_padding_agree_under_the_mask);
    tcase_add_test(tc, test_probes_refuse_out_of_range_examples);
    tcase_add_test(tc, test_blocks_of_a_post_padded_row_of_20_at_width_40_in_tiles_of_16);
    tcase_add_test(tc, test_blocks_of_the_same_row_pre_padded_have_no_full_tile);
    tcase_add_test(tc, test_blocks_count_each_row_of_a_batch);
    tcase_add_test(tc, test_blocks_of_two_packed_documents_follow_cu_seqlens);
    tcase_add_test(tc, test_blocks_at_one_tile_per_row_skip_nothing_for_padding);
    suite_add_tcase(s, tc);
    TCase *pk = tcase_create("packing");
    tcase_set_timeout(pk, PL_TEST_HANG);
    tcase_add_test(pk, test_packing_lays_out_three_reviews_as_a_flattening_collator_does);
    tcase_add_test(pk, test_packing_cuts_each_document_to_maxlen);
    tcase_add_test(pk, test_packing_probe_matches_its_naive_twin);
    suite_add_tcase(s, pk);
    return s;
}
