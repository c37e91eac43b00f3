/* The katas of generation and packing: labels for a completion-only loss,
 * the attention mask a KV cache grows in generation with its cache_position
 * and position ids, and packed documents' position ids and block-diagonal
 * causal mask. The expected outputs are the core's (mask.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/loss.h"
#include "core/mask.h"
#include "task_impl.h"

/* ---- completion-only labels ---- */

/* The prompt's share of a row: its first half of real tokens (rounded up). */
static int prompt_of(int len) { return (len + 1) / 2; }

static PlStatus make_completion(PlKCase *kc, int k, const PlCorpus *c) {
    PlKBatch b;
    PlStatus st = pl_kbatch_make(&b, kc, k, c);
    if (st) return st;
    int prompt[16];
    st = pl_karray_make(&kc->in[0], "input_ids", PL_KT_INT, 2, (int[]){b.B, b.T});
    for (size_t i = 0; !st && i < kc->in[0].n; i++) kc->in[0].v[i] = b.ids[i];
    if (!st) st = pl_ktask_mask_input(&kc->in[1], "attention_mask", &b, PL_KT_INT, 0);
    if (!st) st = pl_karray_make(&kc->in[2], "prompt_lengths", PL_KT_INT, 1, &b.B);
    for (int r = 0; !st && r < b.B; r++) prompt[r] = prompt_of(b.len[r]), kc->in[2].v[r] = prompt[r];
    kc->nin = 3, kc->nout = 1;
    if (!st) st = pl_karray_make(&kc->out[0], "labels", PL_KT_INT, 2, (int[]){b.B, b.T});
    int32_t lab[64];
    if (!st) {
        pl_labels_completion(lab, b.ids, b.mask, prompt, b.B, b.T);
        for (size_t i = 0; i < kc->out[0].n; i++) kc->out[0].v[i] = lab[i];
    }
    pl_kbatch_done(&b);
    return st;
}

static void why_completion(char *buf, size_t cap, const PlKCase *kc, int o, const int *idx, double got) {
    (void)o, (void)got;
    const PlKArray *m = &kc->in[1];
    int T = m->shape[1], k = 0, first = -1;
    for (int t = 0; t < idx[1]; t++) k += m->v[(size_t)idx[0] * T + t] != 0.0;
    for (int t = 0; t < T && first < 0; t++)
        if (m->v[(size_t)idx[0] * T + t] != 0.0) first = t;
    int P = (int)kc->in[2].v[idx[0]];
    if (!pl_ktask_is_pad(kc, idx) && k >= P)
        snprintf(buf, cap,
                 "real token %d of row %d comes after its %d prompt tokens: the completion, so its label is "
                 "its id",
                 k, idx[0], P);
    else if (!pl_ktask_is_pad(kc, idx))
        snprintf(buf, cap,
                 "real token %d of row %d is among its %d prompt tokens (they start at index %d, the row's "
                 "first real token): -100, the loss reads only the completion",
                 k, idx[0], P, first);
    else snprintf(buf, cap, "a pad: -100");
}

const PlKTask pl_ktask_completion = {"completion_labels",
                                     {{"input_ids", PL_KT_INT, "B,T", "row,token"},
                                      {"attention_mask", PL_KT_INT, "B,T", "row,token"},
                                      {"prompt_lengths", PL_KT_INT, "B", "row"}},
                                     {{"labels", PL_KT_INT, "B,T", "row,token"}},
                                     3,
                                     1,
                                     PL_KBATCH_CASES,
                                     make_completion,
                                     why_completion};

/* ---- the KV cache's mask in generation ---- */

enum { KV_STEPS = 3 };

static PlStatus make_kv(PlKCase *kc, int k, const PlCorpus *c) {
    PlKBatch b;
    PlStatus st = pl_kbatch_make(&b, kc, k, c);
    if (st) return st;
    int B = b.B, T = b.T, W = T + KV_STEPS, S = KV_STEPS;
    st = pl_ktask_mask_input(&kc->in[0], "attention_mask", &b, PL_KT_INT, 0);
    if (!st) st = pl_karray_scalar(&kc->in[1], "steps", PL_KT_INT, S);
    kc->nin = 2, kc->nout = 3;
    if (!st) st = pl_karray_make(&kc->out[0], "attention_mask", PL_KT_INT, 2, (int[]){B, W});
    if (!st) st = pl_karray_make(&kc->out[1], "cache_position", PL_KT_INT, 1, &S);
    if (!st) st = pl_karray_make(&kc->out[2], "position_ids", PL_KT_INT, 2, (int[]){B, S});
    uint8_t grown[128];
    int32_t pos[128];
    if (!st) {
        pl_mask_grow(grown, b.mask, B, T, S);
        pl_position_ids(pos, grown, B, W);
        for (size_t i = 0; i < kc->out[0].n; i++) kc->out[0].v[i] = grown[i];
        for (int s = 0; s < S; s++) kc->out[1].v[s] = T + s;
        for (int r = 0; r < B; r++)
            for (int s = 0; s < S; s++) kc->out[2].v[r * S + s] = pos[r * W + T + s];
    }
    pl_kbatch_done(&b);
    return st;
}

static void why_kv(char *buf, size_t cap, const PlKCase *kc, int o, const int *idx, double got) {
    (void)got;
    int T = kc->in[0].shape[1];
    if (o == 0 && idx[1] >= T) snprintf(buf, cap, "column %d is a generated token: 1, whatever came before", idx[1]);
    else if (o == 0) snprintf(buf, cap, "the prompt's columns keep their mask: the cache still holds the pads");
    else if (o == 1)
        snprintf(buf, cap, "cache_position counts the cache's slots, pads included: step %d writes slot %d", idx[0],
                 T + idx[0]);
    else
        snprintf(buf, cap,
                 "a new token's position counts the row's real tokens before it (attention_mask.cumsum(-1) "
                 "- 1), not the cache's slots: under left padding they differ");
}

const PlKTask pl_ktask_kv = {"kv_cache_mask",
                             {{"attention_mask", PL_KT_INT, "B,T", "row,token"}, {"steps", PL_KT_INT, "", ""}},
                             {{"attention_mask", PL_KT_INT, "B,T+steps", "row,column"},
                              {"cache_position", PL_KT_INT, "steps", "step"},
                              {"position_ids", PL_KT_INT, "B,steps", "row,step"}},
                             2,
                             3,
                             PL_KBATCH_CASES,
                             make_kv,
                             why_kv};

/* ---- packed documents: position ids and the block-diagonal causal mask ---- */

/* cu_seqlens of the batch's rows as documents into kc->in[0]; N into *n. */
static PlStatus packed_input(PlKCase *kc, const PlKBatch *b, int *cu, int *n) {
    pl_cu_seqlens(cu, b->len, b->B);
    int D1 = b->B + 1;
    PlStatus st = pl_karray_make(&kc->in[0], "cu_seqlens", PL_KT_INT, 1, &D1);
    for (int d = 0; !st && d < D1; d++) kc->in[0].v[d] = cu[d];
    kc->nin = 1, kc->nout = 1, *n = cu[b->B];
    return st;
}

static PlStatus make_packed_pos(PlKCase *kc, int k, const PlCorpus *c) {
    PlKBatch b;
    int cu[17], N;
    PlStatus st = pl_kbatch_make(&b, kc, k, c);
    if (!st) st = packed_input(kc, &b, cu, &N);
    if (!st) st = pl_karray_make(&kc->out[0], "position_ids", PL_KT_INT, 1, &N);
    int32_t pos[128];
    if (!st) {
        pl_packed_position_ids(pos, cu, b.B);
        for (int i = 0; i < N; i++) kc->out[0].v[i] = pos[i];
    }
    pl_kbatch_done(&b);
    return st;
}

/* The document of packed token t, from cu_seqlens. */
static int doc_of(const PlKArray *cu, int t) {
    int d = 0;
    while (d + 1 < cu->shape[0] - 1 && cu->v[d + 1] <= t) d++;
    return d;
}

static void why_packed_pos(char *buf, size_t cap, const PlKCase *kc, int o, const int *idx, double got) {
    (void)o, (void)got;
    const PlKArray *cu = &kc->in[0];
    int d = doc_of(cu, idx[0]);
    snprintf(buf, cap,
             "token %d belongs to document %d, which starts at %d: positions restart at 0 with every "
             "document",
             idx[0], d, (int)cu->v[d]);
}

const PlKTask pl_ktask_packed_pos = {"packed_position_ids",
                                     {{"cu_seqlens", PL_KT_INT, "D+1", "entry"}},
                                     {{"position_ids", PL_KT_INT, "N", "token"}},
                                     1,
                                     1,
                                     PL_KBATCH_CASES,
                                     make_packed_pos,
                                     why_packed_pos};

static PlStatus make_packed_mask(PlKCase *kc, int k, const PlCorpus *c) {
    PlKBatch b;
    int cu[17], N;
    PlStatus st = pl_kbatch_make(&b, kc, k, c);
    if (!st) st = packed_input(kc, &b, cu, &N);
    if (!st) st = pl_karray_make(&kc->out[0], "allowed", PL_KT_BOOL, 2, (int[]){N, N});
    uint8_t *m = st ? NULL : malloc((size_t)N * N + 1);
    if (!st && !m) st = PL_ENOMEM;
    if (!st) {
        pl_mask_block_diagonal(m, cu, b.B, 1);
        for (size_t i = 0; i < kc->out[0].n; i++) kc->out[0].v[i] = m[i];
    }
    free(m);
    pl_kbatch_done(&b);
    return st;
}

static void why_packed_mask(char *buf, size_t cap, const PlKCase *kc, int o, const int *idx, double got) {
    (void)o, (void)got;
    int dq = doc_of(&kc->in[0], idx[0]), dk = doc_of(&kc->in[0], idx[1]);
    if (dq != dk)
        snprintf(buf, cap,
                 "query %d is in document %d and key %d in document %d: documents packed together never "
                 "see each other",
                 idx[0], dq, idx[1], dk);
    else if (idx[1] > idx[0])
        snprintf(buf, cap, "key %d comes after query %d: the causal mask hides it", idx[1], idx[0]);
    else snprintf(buf, cap, "key %d is at or before query %d in the same document: seen", idx[1], idx[0]);
}

const PlKTask pl_ktask_packed_mask = {"packed_causal_mask",
                                      {{"cu_seqlens", PL_KT_INT, "D+1", "entry"}},
                                      {{"allowed", PL_KT_BOOL, "N,N", "query,key"}},
                                      1,
                                      1,
                                      PL_KBATCH_CASES,
                                      make_packed_mask,
                                      why_packed_mask};
