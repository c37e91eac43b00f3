/* The mask katas: pad_sequences, masks in each convention from lengths or
 * ids, the causal plus padding mask, -100 labels, position ids, cu_seqlens.
 * Each case's expected output is the core's (pad.c, mask.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "core/mask.h"
#include "task_impl.h"

/* ---- pad_sequences ---- */

typedef struct {
    const char *what;
    int maxlen;
    PlSide padding, truncating;
    int value, empty, one;
} PadCase;

static const PadCase pad_cases[] = {
    {"Keras's defaults: padding and truncating 'pre'", 6, PL_PRE, PL_PRE, 0, -1, 0},
    {"padding and truncating 'post'", 6, PL_POST, PL_POST, 0, -1, 0},
    {"pad value -1, padding 'pre', truncating 'post'", 6, PL_PRE, PL_POST, -1, -1, 0},
    {"an empty sequence, padding 'post', truncating 'pre'", 6, PL_POST, PL_PRE, 0, 1, 0},
    {"an empty sequence, padding 'pre', truncating 'post'", 6, PL_PRE, PL_POST, 0, 1, 0},
    {"a batch of one, shorter than maxlen", 12, PL_POST, PL_POST, 0, -1, 1},
};

static PlStatus make_pad(PlKCase *kc, int k, const PlCorpus *c) {
    const PadCase *p = &pad_cases[k];
    int caps[4] = {9, 4, 6, 2}, n = p->one ? 1 : 4;
    if (p->empty >= 0) caps[p->empty] = 0;
    snprintf(kc->what, sizeof kc->what, "%s", p->what);
    PlKArray *seqs = &kc->in[0];
    PlStatus st = pl_kbatch_rows(seqs, "sequences", c, 0, n, caps);
    if (!st) st = pl_karray_scalar(&kc->in[1], "maxlen", PL_KT_INT, p->maxlen);
    pl_karray_text(&kc->in[2], "padding", pl_side_name(p->padding));
    pl_karray_text(&kc->in[3], "truncating", pl_side_name(p->truncating));
    if (!st) st = pl_karray_scalar(&kc->in[4], "value", PL_KT_INT, p->value);
    kc->nin = 5, kc->nout = 1, kc->pad_id = p->value;
    if (!st) st = pl_karray_make(&kc->out[0], "padded", PL_KT_INT, 2, (int[]){n, p->maxlen});
    PlPadOpts o = {.maxlen = p->maxlen, .padding = p->padding, .truncating = p->truncating, .value = p->value};
    int32_t seq[16], row[16];
    for (int r = 0, at = 0; !st && r < n; r++) {
        for (int t = 0; t < seqs->rowlen[r]; t++) seq[t] = (int32_t)seqs->v[at++];
        pl_pad_row(row, NULL, seq, seqs->rowlen[r], p->maxlen, &o);
        for (int t = 0; t < p->maxlen; t++) kc->out[0].v[(size_t)r * p->maxlen + t] = row[t];
    }
    return st;
}

static void why_pad(char *buf, size_t cap, const PlKCase *kc, int o, const int *idx, double got) {
    (void)got;
    (void)o;
    const PlKArray *s = &kc->in[0];
    int L = s->rowlen[idx[0]], T = (int)kc->in[1].v[0], kept = L < T ? L : T;
    int pre = strcmp(kc->in[2].text, "pre") == 0, first = pre ? T - kept : 0;
    if (idx[1] < first || idx[1] >= first + kept)
        snprintf(buf, cap,
                 "sequence %d keeps %d of its %d tokens; padding='%s' puts the %d pad cells (value %d) %s them", idx[0],
                 kept, L, kc->in[2].text, T - kept, (int)kc->in[4].v[0], pre ? "before" : "after");
    else
        snprintf(buf, cap,
                 "sequence %d has %d tokens, maxlen is %d: truncating='%s' keeps its %s %d, and padding='%s' "
                 "puts them %s",
                 idx[0], L, T, kc->in[3].text, strcmp(kc->in[3].text, "pre") == 0 ? "last" : "first", kept,
                 kc->in[2].text, pre ? "at the row's end" : "at the row's start");
}

const PlKTask pl_ktask_pad = {"pad_sequences",
                              {{"sequences", PL_KT_INT, "N,*", "sequence,token"},
                               {"maxlen", PL_KT_INT, "", ""},
                               {"padding", PL_KT_TEXT, "", ""},
                               {"truncating", PL_KT_TEXT, "", ""},
                               {"value", PL_KT_INT, "", ""}},
                              {{"padded", PL_KT_INT, "N,maxlen", "sequence,cell"}},
                              5,
                              1,
                              (int)(sizeof pad_cases / sizeof pad_cases[0]),
                              make_pad,
                              why_pad};

/* ---- masks from lengths and from ids ---- */

/* The batch's input_ids and pad_id into kc->in[0..2). */
static PlStatus ids_inputs(PlKCase *kc, const PlKBatch *b) {
    PlStatus st = pl_karray_make(&kc->in[0], "input_ids", PL_KT_INT, 2, (int[]){b->B, b->T});
    for (size_t i = 0; !st && i < (size_t)b->B * b->T; i++) kc->in[0].v[i] = b->ids[i];
    if (!st) st = pl_karray_scalar(&kc->in[1], "pad_id", PL_KT_INT, b->pad_id);
    kc->nin = 2;
    return st;
}

/* attention_mask (B,T), 1 = real, into kc->in[at]. */
PlStatus pl_ktask_mask_input(PlKArray *a, const char *name, const PlKBatch *b, PlKType t, int pad_is_one) {
    PlStatus st = pl_karray_make(a, name, t, 2, (int[]){b->B, b->T});
    for (size_t i = 0; !st && i < (size_t)b->B * b->T; i++) a->v[i] = (b->mask[i] != 0) ^ (pad_is_one != 0);
    return st;
}

typedef enum { CONV_KERAS_LEN, CONV_TORCH, CONV_HF, CONV_INF, CONV_FINFO } Conv;

static PlStatus make_conv(PlKCase *kc, int k, const PlCorpus *c, Conv conv, const char *name, PlKType t) {
    PlKBatch b;
    PlStatus st = pl_kbatch_make(&b, kc, k, c);
    if (st) return st;
    if (conv == CONV_KERAS_LEN) {
        st = pl_karray_make(&kc->in[0], "lengths", PL_KT_INT, 1, &b.B);
        for (int r = 0; !st && r < b.B; r++) kc->in[0].v[r] = b.len[r];
        if (!st) st = pl_karray_scalar(&kc->in[1], "maxlen", PL_KT_INT, b.T);
        pl_karray_text(&kc->in[2], "padding", pl_side_name(b.side));
        kc->nin = 3;
    } else {
        st = ids_inputs(kc, &b);
    }
    size_t n = (size_t)b.B * b.T;
    if (!st) st = pl_karray_make(&kc->out[0], name, t, 2, (int[]){b.B, b.T});
    kc->nout = 1;
    if (!st) {
        /* The core gives the mask in each convention from the one padding mask. */
        uint8_t bits[64];
        float bias[64];
        if (conv == CONV_INF || conv == CONV_FINFO) pl_mask_additive(bias, b.mask, n);
        else
            pl_mask_bool(bits, b.mask, n,
                         conv == CONV_TORCH ? PL_MASK_TORCH
                         : conv == CONV_HF  ? PL_MASK_HF
                                            : PL_MASK_KERAS);
        for (size_t i = 0; i < n; i++)
            kc->out[0].v[i] = conv == CONV_FINFO ? (isinf(bias[i]) ? -3.4028234663852886e38 : 0.0)
                              : conv == CONV_INF ? (double)bias[i]
                                                 : bits[i];
    }
    pl_kbatch_done(&b);
    return st;
}

static PlStatus make_keras(PlKCase *kc, int k, const PlCorpus *c) {
    return make_conv(kc, k, c, CONV_KERAS_LEN, "mask", PL_KT_BOOL);
}
static PlStatus make_torch(PlKCase *kc, int k, const PlCorpus *c) {
    return make_conv(kc, k, c, CONV_TORCH, "key_padding_mask", PL_KT_BOOL);
}
static PlStatus make_hf(PlKCase *kc, int k, const PlCorpus *c) {
    return make_conv(kc, k, c, CONV_HF, "attention_mask", PL_KT_INT);
}
static PlStatus make_inf(PlKCase *kc, int k, const PlCorpus *c) {
    return make_conv(kc, k, c, CONV_INF, "bias", PL_KT_FLOAT);
}
static PlStatus make_finfo(PlKCase *kc, int k, const PlCorpus *c) {
    return make_conv(kc, k, c, CONV_FINFO, "bias", PL_KT_FLOAT);
}

/* Whether cell idx (row, token) of the case's batch is a pad, read from
 * its inputs: the ids against pad_id, or the lengths and the side. */
int pl_ktask_is_pad(const PlKCase *kc, const int *idx) {
    if (strcmp(kc->in[0].name, "lengths") == 0) {
        int L = (int)kc->in[0].v[idx[0]], T = (int)kc->in[1].v[0];
        int first = strcmp(kc->in[2].text, "pre") == 0 ? T - L : 0;
        return idx[1] < first || idx[1] >= first + L;
    }
    const PlKArray *m = &kc->in[0];
    if (strcmp(m->name, "input_ids") == 0) return (int)m->v[(size_t)idx[0] * m->shape[1] + idx[1]] == kc->pad_id;
    for (int i = 0; i < kc->nin; i++) /* an attention_mask (1 = real) or a key_padding_mask (True = pad) */
        if (strcmp(kc->in[i].name, "attention_mask") == 0)
            return kc->in[i].v[(size_t)idx[0] * kc->in[i].shape[1] + idx[1]] == 0.0;
        else if (strcmp(kc->in[i].name, "key_padding_mask") == 0)
            return kc->in[i].v[(size_t)idx[0] * kc->in[i].shape[1] + idx[1]] != 0.0;
    return 0;
}

static void why_conv(char *buf, size_t cap, const PlKCase *kc, int o, const int *idx, double got) {
    (void)got;
    (void)o;
    const char *name = kc->out[0].name;
    int pad = pl_ktask_is_pad(kc, idx);
    const char *where = strcmp(kc->in[0].name, "lengths") == 0
                            ? (pad ? "past the row's length, on the padding's side" : "within the row's length")
                        : pad ? "input_ids holds the pad id there"
                              : "a real token";
    const char *val = strcmp(name, "mask") == 0 ? (pad ? "False (Keras: True = keep)" : "True (Keras: True = keep)")
                      : strcmp(name, "key_padding_mask") == 0
                          ? (pad ? "True (PyTorch: True = ignore the key)" : "False (PyTorch: True = ignore the key)")
                      : strcmp(name, "attention_mask") == 0
                          ? (pad ? "0 (Hugging Face: 1 = attend)" : "1 (Hugging Face: 1 = attend)")
                      : !pad ? "0: a real token's bias changes no score"
                      : kc->out[0].v[0] < -1e30 || (kc->out[0].n > 1 && kc->out[0].v[kc->out[0].n - 1] < -1e30)
                          ? "torch.finfo(torch.float32).min, -3.4028235e+38: finite, so a row of pads gives no NaN"
                          : "-inf: exp(-inf) is exactly 0";
    snprintf(buf, cap, "%s, so %s is %s", where, name, val);
}

#define CONV_IN_IDS                                                                   \
    {                                                                                 \
        {"input_ids", PL_KT_INT, "B,T", "row,token"}, { "pad_id", PL_KT_INT, "", "" } \
    }
const PlKTask pl_ktask_keras = {
    "keras_mask",
    {{"lengths", PL_KT_INT, "B", "row"}, {"maxlen", PL_KT_INT, "", ""}, {"padding", PL_KT_TEXT, "", ""}},
    {{"mask", PL_KT_BOOL, "B,maxlen", "row,token"}},
    3,
    1,
    PL_KBATCH_CASES,
    make_keras,
    why_conv};
const PlKTask pl_ktask_torch = {
    "key_padding_mask", CONV_IN_IDS, {{"key_padding_mask", PL_KT_BOOL, "B,T", "row,key"}}, 2, 1, PL_KBATCH_CASES,
    make_torch,         why_conv};
const PlKTask pl_ktask_hf = {
    "attention_mask", CONV_IN_IDS, {{"attention_mask", PL_KT_INT, "B,T", "row,token"}}, 2, 1, PL_KBATCH_CASES,
    make_hf,          why_conv};
const PlKTask pl_ktask_inf = {
    "additive_mask", CONV_IN_IDS, {{"bias", PL_KT_FLOAT, "B,T", "row,key"}}, 2, 1, PL_KBATCH_CASES, make_inf, why_conv};
const PlKTask pl_ktask_finfo = {
    "finfo_mask", CONV_IN_IDS, {{"bias", PL_KT_FLOAT, "B,T", "row,key"}}, 2, 1, PL_KBATCH_CASES, make_finfo, why_conv};

/* ---- causal plus padding ---- */

static PlStatus make_causal(PlKCase *kc, int k, const PlCorpus *c) {
    PlKBatch b;
    PlStatus st = pl_kbatch_make(&b, kc, k, c);
    if (st) return st;
    st = pl_ktask_mask_input(&kc->in[0], "attention_mask", &b, PL_KT_INT, 0);
    kc->nin = 1, kc->nout = 1;
    if (!st) st = pl_karray_make(&kc->out[0], "allowed", PL_KT_BOOL, 3, (int[]){b.B, b.T, b.T});
    uint8_t m[1024];
    if (!st) {
        pl_mask_causal_padding(m, b.mask, b.B, b.T);
        for (size_t i = 0; i < kc->out[0].n; i++) kc->out[0].v[i] = m[i];
    }
    pl_kbatch_done(&b);
    return st;
}

static void why_causal(char *buf, size_t cap, const PlKCase *kc, int o, const int *idx, double got) {
    (void)got;
    (void)o;
    int key[2] = {idx[0], idx[2]};
    if (idx[2] > idx[1]) snprintf(buf, cap, "key %d comes after query %d: the causal mask hides it", idx[2], idx[1]);
    else if (pl_ktask_is_pad(kc, key))
        snprintf(buf, cap, "key %d is a pad: the padding mask hides it, even before the query", idx[2]);
    else snprintf(buf, cap, "key %d is a real token at or before query %d: both masks let it through", idx[2], idx[1]);
}

const PlKTask pl_ktask_causal = {"causal_padding_mask",
                                 {{"attention_mask", PL_KT_INT, "B,T", "row,token"}},
                                 {{"allowed", PL_KT_BOOL, "B,T,T", "row,query,key"}},
                                 1,
                                 1,
                                 PL_KBATCH_CASES,
                                 make_causal,
                                 why_causal};

/* ---- -100 labels ---- */

static PlStatus make_labels(PlKCase *kc, int k, const PlCorpus *c) {
    PlKBatch b;
    PlStatus st = pl_kbatch_make(&b, kc, k, c);
    if (st) return st;
    st = pl_karray_make(&kc->in[0], "input_ids", PL_KT_INT, 2, (int[]){b.B, b.T});
    for (size_t i = 0; !st && i < kc->in[0].n; i++) kc->in[0].v[i] = b.ids[i];
    if (!st) st = pl_ktask_mask_input(&kc->in[1], "attention_mask", &b, PL_KT_INT, 0);
    kc->nin = 2, kc->nout = 1;
    if (!st) st = pl_karray_make(&kc->out[0], "labels", PL_KT_INT, 2, (int[]){b.B, b.T});
    int32_t lab[64];
    if (!st) {
        pl_labels_ignore(lab, b.ids, b.mask, kc->out[0].n);
        for (size_t i = 0; i < kc->out[0].n; i++) kc->out[0].v[i] = lab[i];
    }
    pl_kbatch_done(&b);
    return st;
}

static void why_labels(char *buf, size_t cap, const PlKCase *kc, int o, const int *idx, double got) {
    (void)got;
    (void)o;
    if (pl_ktask_is_pad(kc, idx))
        snprintf(
            buf, cap,
            "a pad (attention_mask 0): its label is -100, which cross_entropy's ignore_index skips, whatever the pad id");
    else snprintf(buf, cap, "a real token: its label is its own id");
}

const PlKTask pl_ktask_labels = {
    "labels",
    {{"input_ids", PL_KT_INT, "B,T", "row,token"}, {"attention_mask", PL_KT_INT, "B,T", "row,token"}},
    {{"labels", PL_KT_INT, "B,T", "row,token"}},
    2,
    1,
    PL_KBATCH_CASES,
    make_labels,
    why_labels};

/* ---- position ids ---- */

static PlStatus make_pos(PlKCase *kc, int k, const PlCorpus *c) {
    PlKBatch b;
    PlStatus st = pl_kbatch_make(&b, kc, k, c);
    if (st) return st;
    st = pl_ktask_mask_input(&kc->in[0], "attention_mask", &b, PL_KT_INT, 0);
    kc->nin = 1, kc->nout = 1;
    if (!st) st = pl_karray_make(&kc->out[0], "position_ids", PL_KT_INT, 2, (int[]){b.B, b.T});
    if (!st && !(kc->out[0].care = malloc(kc->out[0].n))) st = PL_ENOMEM;
    int32_t pos[64];
    if (!st) {
        pl_position_ids(pos, b.mask, b.B, b.T);
        for (size_t i = 0; i < kc->out[0].n; i++) kc->out[0].v[i] = pos[i], kc->out[0].care[i] = b.mask[i];
    }
    pl_kbatch_done(&b);
    return st;
}

static void why_pos(char *buf, size_t cap, const PlKCase *kc, int o, const int *idx, double got) {
    (void)got;
    (void)o;
    const PlKArray *m = &kc->in[0];
    int T = m->shape[1], first = 0;
    while (first < T && m->v[(size_t)idx[0] * T + first] == 0.0) first++;
    if (first)
        snprintf(buf, cap,
                 "row %d's first real token is at index %d (left padding): positions count from it "
                 "(attention_mask.cumsum(-1) - 1), as they would in the row alone",
                 idx[0], first);
    else snprintf(buf, cap, "positions count the row's real tokens from 0 (attention_mask.cumsum(-1) - 1)");
}

const PlKTask pl_ktask_pos = {"position_ids",
                              {{"attention_mask", PL_KT_INT, "B,T", "row,token"}},
                              {{"position_ids", PL_KT_INT, "B,T", "row,token"}},
                              1,
                              1,
                              PL_KBATCH_CASES,
                              make_pos,
                              why_pos};

/* ---- cu_seqlens ---- */

static PlStatus make_cu(PlKCase *kc, int k, const PlCorpus *c) {
    PlKBatch b;
    PlStatus st = pl_kbatch_make(&b, kc, k, c);
    if (st) return st;
    st = pl_ktask_mask_input(&kc->in[0], "attention_mask", &b, PL_KT_INT, 0);
    kc->nin = 1, kc->nout = 2;
    int cu[17], B1 = b.B + 1, longest = 0;
    pl_cu_seqlens(cu, b.len, b.B);
    for (int r = 0; r < b.B; r++) longest = b.len[r] > longest ? b.len[r] : longest;
    if (!st) st = pl_karray_make(&kc->out[0], "cu_seqlens", PL_KT_INT, 1, &B1);
    for (int r = 0; !st && r < B1; r++) kc->out[0].v[r] = cu[r];
    if (!st) st = pl_karray_scalar(&kc->out[1], "max_seqlen", PL_KT_INT, longest);
    pl_kbatch_done(&b);
    return st;
}

static void why_cu(char *buf, size_t cap, const PlKCase *kc, int o, const int *idx, double got) {
    (void)got;
    if (o == 1) snprintf(buf, cap, "the longest row's real tokens, not the padded width %d", kc->in[0].shape[1]);
    else if (idx[0] == 0) snprintf(buf, cap, "cu_seqlens starts at 0");
    else
        snprintf(
            buf, cap,
            "cu_seqlens[%d] is the real tokens of rows 0..%d added up: pads are not packed, and an empty row adds 0",
            idx[0], idx[0] - 1);
}

const PlKTask pl_ktask_cu = {"cu_seqlens",
                             {{"attention_mask", PL_KT_INT, "B,T", "row,token"}},
                             {{"cu_seqlens", PL_KT_INT, "B+1", "entry"}, {"max_seqlen", PL_KT_INT, "", ""}},
                             1,
                             2,
                             PL_KBATCH_CASES,
                             make_cu,
                             why_cu};
