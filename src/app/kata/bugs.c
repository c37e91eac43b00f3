/* The katas' known bugs (bugs.h): each a function of a case's inputs that
 * writes the outputs the buggy code gives, and the matcher check asks. */
#include "bugs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/mask.h"
#include "core/pad.h"
#include "task_impl.h"

#define FINFO32_MIN (-3.4028234663852886e38)

/* ---- reading a case ---- */

static int rows(const PlKArray *a) { return a->shape[0]; }
static int cols(const PlKArray *a) { return a->ndim > 1 ? a->shape[1] : 1; }
/* Whether cell (r, t) of a (B,T) mask is real: 1 = real unless pad_is_one. */
static int real_at(const PlKArray *m, int r, int t, int pad_is_one) {
    return (m->v[(size_t)r * cols(m) + t] != 0.0) != (pad_is_one != 0);
}

/* ---- pad_sequences ---- */

static void pad_as(PlKCase *kc, int flip_padding, int flip_truncating, int zero_value) {
    const PlKArray *s = &kc->in[0];
    int T = (int)kc->in[1].v[0], pre_pad = !strcmp(kc->in[2].text, "pre"), pre_cut = !strcmp(kc->in[3].text, "pre");
    PlPadOpts o = {.maxlen = T,
                   .padding = (pre_pad != flip_padding) ? PL_PRE : PL_POST,
                   .truncating = (pre_cut != flip_truncating) ? PL_PRE : PL_POST,
                   .value = zero_value ? 0 : (int)kc->in[4].v[0]};
    int32_t seq[64], row[64];
    for (int r = 0, at = 0; r < rows(s) && T <= 64; r++) {
        int L = s->rowlen[r] < 64 ? s->rowlen[r] : 64;
        for (int t = 0; t < s->rowlen[r]; t++, at++)
            if (t < L) seq[t] = (int32_t)s->v[at];
        pl_pad_row(row, NULL, seq, L, T, &o);
        for (int t = 0; t < T; t++) kc->out[0].v[(size_t)r * T + t] = row[t];
    }
}
static void pad_side(PlKCase *kc) { pad_as(kc, 1, 0, 0); }
static void pad_cut(PlKCase *kc) { pad_as(kc, 0, 1, 0); }
static void pad_zero(PlKCase *kc) { pad_as(kc, 0, 0, 1); }

static const PlKBug pad_bugs[] = {
    {"padding on the other side", "padding='pre' puts the pads before the tokens, 'post' after them", pad_side},
    {"truncating at the other end", "truncating='pre' drops a long sequence's first tokens and keeps its last",
     pad_cut},
    {"pads of 0 whatever value says", "the pad cells hold value, which need not be 0", pad_zero},
};

/* ---- masks from lengths (keras_mask) ---- */

static void keras_as(PlKCase *kc, int invert, int minus_zero, int ignore_side) {
    int B = rows(&kc->in[0]), T = (int)kc->in[1].v[0], pre = !strcmp(kc->in[2].text, "pre") && !ignore_side;
    for (int r = 0; r < B; r++) {
        int L = (int)kc->in[0].v[r];
        for (int t = 0; t < T; t++) {
            int real = pre ? t >= T - L : t < L;
            if (minus_zero && pre && L == 0) real = 1; /* mask[i, -0:] = True: the whole row */
            kc->out[0].v[(size_t)r * T + t] = real != invert;
        }
    }
}
static void keras_inverted(PlKCase *kc) { keras_as(kc, 1, 0, 0); }
static void keras_minus_zero(PlKCase *kc) { keras_as(kc, 0, 1, 0); }
static void keras_side(PlKCase *kc) { keras_as(kc, 0, 0, 1); }

static const PlKBug keras_bugs[] = {
    {"the polarity inverted", "Keras's mask is True at the real tokens and False at the pads", keras_inverted},
    {"row[-n:] with n = 0", "under padding='pre' an empty row's mask[i, -0:] is the whole row, not none of it",
     keras_minus_zero},
    {"the padding side ignored", "under padding='pre' the real tokens are the last ones of the row", keras_side},
};

/* ---- masks from ids (key_padding_mask, attention_mask, additive, finfo) ---- */

/* value of each cell: at a real token or at a pad, judged by pad id 0 or the case's. */
static void ids_as(PlKCase *kc, double at_real, double at_pad, int pad_zero) {
    const PlKArray *ids = &kc->in[0];
    double pad = pad_zero ? 0 : kc->in[1].v[0];
    for (size_t i = 0; i < ids->n; i++) kc->out[0].v[i] = ids->v[i] != pad ? at_real : at_pad;
}
static void torch_inverted(PlKCase *kc) { ids_as(kc, 1, 0, 0); }
static void torch_zero(PlKCase *kc) { ids_as(kc, 0, 1, 1); }
static void hf_inverted(PlKCase *kc) { ids_as(kc, 0, 1, 0); }
static void hf_zero(PlKCase *kc) { ids_as(kc, 1, 0, 1); }
static void inf_finfo(PlKCase *kc) { ids_as(kc, 0, FINFO32_MIN, 0); }
static void inf_inverted(PlKCase *kc) { ids_as(kc, -HUGE_VAL, 0, 0); }
static void inf_zero(PlKCase *kc) { ids_as(kc, 0, -HUGE_VAL, 1); }
static void finfo_inf(PlKCase *kc) { ids_as(kc, 0, -HUGE_VAL, 0); }
static void finfo_inverted(PlKCase *kc) { ids_as(kc, FINFO32_MIN, 0, 0); }

#define ZERO_PAD_ID "input_ids == 0 taken for the pads", "the pads are the cells equal to pad_id, which need not be 0"
static const PlKBug torch_bugs[] = {
    {"the polarity inverted",
     "PyTorch's key_padding_mask is True at the pads (True = ignore), the opposite of "
     "attention_mask",
     torch_inverted},
    {ZERO_PAD_ID, torch_zero},
};
static const PlKBug hf_bugs[] = {
    {"the polarity inverted", "Hugging Face's attention_mask is 1 at the real tokens and 0 at the pads", hf_inverted},
    {ZERO_PAD_ID, hf_zero},
};
static const PlKBug inf_bugs[] = {
    {"torch.finfo(float32).min instead of -inf", "this kata asks -inf at the pads (the finfo_mask kata asks finfo.min)",
     inf_finfo},
    {"the polarity inverted", "the bias is -inf at the pads and 0 at the real tokens", inf_inverted},
    {ZERO_PAD_ID, inf_zero},
};
static const PlKBug finfo_bugs[] = {
    {"-inf instead of torch.finfo(float32).min",
     "this kata asks the finite minimum, which keeps a row of pads from "
     "turning NaN (the additive_mask kata asks -inf)",
     finfo_inf},
    {"the polarity inverted", "the bias is finfo.min at the pads and 0 at the real tokens", finfo_inverted},
};

/* ---- causal plus padding ---- */

static void causal_as(PlKCase *kc, int causal, int padding) {
    const PlKArray *m = &kc->in[0];
    int B = rows(m), T = cols(m);
    for (int r = 0; r < B; r++)
        for (int i = 0; i < T; i++)
            for (int j = 0; j < T; j++)
                kc->out[0].v[((size_t)r * T + i) * T + j] = (!causal || j <= i) && (!padding || real_at(m, r, j, 0));
}
static void causal_only(PlKCase *kc) { causal_as(kc, 1, 0); }
static void padding_only(PlKCase *kc) { causal_as(kc, 0, 1); }

static const PlKBug causal_bugs[] = {
    {"the causal mask alone", "a pad key must be hidden too, even before the query", causal_only},
    {"the padding mask alone", "a key after the query must be hidden too", padding_only},
};

/* ---- labels, position ids, cu_seqlens ---- */

static void labels_ids(PlKCase *kc) {
    for (size_t i = 0; i < kc->out[0].n; i++) kc->out[0].v[i] = kc->in[0].v[i];
}
static void labels_zero(PlKCase *kc) {
    for (size_t i = 0; i < kc->out[0].n; i++) kc->out[0].v[i] = kc->in[1].v[i] != 0.0 ? kc->in[0].v[i] : 0;
}
static const PlKBug labels_bugs[] = {
    {"labels = input_ids", "a pad's label must be -100, or the loss learns to predict pads", labels_ids},
    {"0 at the pads", "0 is a class like any other: only -100 is skipped by ignore_index", labels_zero},
};

static void pos_counting_pads(PlKCase *kc) {
    int T = cols(&kc->in[0]);
    for (size_t i = 0; i < kc->out[0].n; i++) kc->out[0].v[i] = (double)(i % (size_t)T);
}
static void pos_from_one(PlKCase *kc) {
    const PlKArray *m = &kc->in[0];
    for (int r = 0; r < rows(m); r++)
        for (int t = 0, n = 0; t < cols(m); t++) n += real_at(m, r, t, 0), kc->out[0].v[(size_t)r * cols(m) + t] = n;
}
static const PlKBug pos_bugs[] = {
    {"positions that count the pads (arange(T))", "under left padding the first real token is position 0",
     pos_counting_pads},
    {"attention_mask.cumsum(-1) without the - 1", "positions count from 0", pos_from_one},
};

static void cu_counting_pads(PlKCase *kc) {
    const PlKArray *m = &kc->in[0];
    for (int r = 0; r <= rows(m); r++) kc->out[0].v[r] = (double)r * cols(m);
    kc->out[1].v[0] = cols(m);
}
static void cu_width(PlKCase *kc) { kc->out[1].v[0] = cols(&kc->in[0]); }
static const PlKBug cu_bugs[] = {
    {"the padded width for every row", "cu_seqlens adds up each row's real tokens: pads are not packed",
     cu_counting_pads},
    {"max_seqlen = the padded width", "max_seqlen is the longest row's real tokens", cu_width},
};

/* ---- float16 fill ---- */

static double half_of(double x) {
    uint16_t h = pl_half_bits((float)x);
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 31 ? HUGE_VAL : e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
    return h & 0x8000u ? -v : v;
}

/* kind 0: score + finfo.min (added, in float16); 1: -inf; 2: fill where the query is a pad. */
static void fp16_as(PlKCase *kc, int kind) {
    const PlKArray *m = &kc->in[1];
    int B = rows(m), T = cols(m);
    for (int r = 0; r < B; r++)
        for (int i = 0; i < T; i++)
            for (int j = 0; j < T; j++) {
                size_t at = ((size_t)r * T + i) * T + j;
                double s = kc->in[0].v[at];
                int pad = !real_at(m, r, kind == 2 ? i : j, 0);
                kc->out[0].v[at] = !pad ? s : kind == 0 ? half_of(s - 65504.0) : kind == 1 ? -HUGE_VAL : -65504.0;
            }
}
static void fp16_added(PlKCase *kc) { fp16_as(kc, 0); }
static void fp16_inf(PlKCase *kc) { fp16_as(kc, 1); }
static void fp16_query(PlKCase *kc) { fp16_as(kc, 2); }
static const PlKBug fp16_bugs[] = {
    {"finfo.min added to the scores", "in float16 a score below -16 plus -65504 overflows to -inf: fill, don't add",
     fp16_added},
    {"-inf (or float32's min, which float16 turns to -inf)",
     "a row whose keys are all pads becomes NaN after the "
     "softmax: fill with float16's own finfo.min",
     fp16_inf},
    {"the query axis masked", "the mask hides pad keys (the last axis), not pad queries", fp16_query},
};

/* ---- masked mean ---- */

/* kind 0: real sum / T; 1: every cell's sum / real count; 2: every cell's sum / T. */
static void mean_as(PlKCase *kc, int kind) {
    const PlKArray *x = &kc->in[0], *m = &kc->in[1];
    int B = rows(m), T = cols(m), C = x->shape[2];
    for (int r = 0; r < B; r++) {
        int n = 0;
        for (int t = 0; t < T; t++) n += real_at(m, r, t, 0);
        for (int c = 0; c < C; c++) {
            double sum = 0;
            for (int t = 0; t < T; t++)
                if (kind || real_at(m, r, t, 0)) sum += x->v[((size_t)r * T + t) * C + c];
            double by = kind == 1 ? (n ? n : 1) : T;
            kc->out[0].v[(size_t)r * C + c] = (float)(sum / by);
        }
    }
}
static void mean_by_width(PlKCase *kc) { mean_as(kc, 0); }
static void mean_pads_summed(PlKCase *kc) { mean_as(kc, 1); }
static void mean_plain(PlKCase *kc) { mean_as(kc, 2); }
static const PlKBug mean_bugs[] = {
    {"the real tokens' sum divided by T", "divide by the row's real tokens, not the padded width", mean_by_width},
    {"the pads kept in the sum",
     "the pad cells hold values like any other: mask them out of the sum, not only the "
     "count",
     mean_pads_summed},
    {"x.mean(1), no mask at all", "both the sum and the count must leave the pads out", mean_plain},
};

/* ---- masked softmax ---- */

/* kind 0: no mask; 1: softmax over all, pads zeroed after; 2: a finite fill
 * (a row of pads gets uniform weights); 3: the polarity inverted. */
static void softmax_as(PlKCase *kc, int kind) {
    const PlKArray *m = &kc->in[1];
    int B = rows(m), T = cols(m);
    for (int r = 0; r < B; r++)
        for (int i = 0; i < T; i++) {
            const double *s = &kc->in[0].v[((size_t)r * T + i) * T];
            double *w = &kc->out[0].v[((size_t)r * T + i) * T], most = -HUGE_VAL, sum = 0;
            int visible[64], any = 0;
            for (int j = 0; j < T; j++) {
                int pad = !real_at(m, r, j, 1);
                visible[j] = kind == 0 || kind == 1 ? 1 : kind == 3 ? pad : !pad;
                any |= visible[j];
            }
            for (int j = 0; j < T; j++) visible[j] |= kind == 2 && !any; /* -1e9 everywhere: a uniform row */
            for (int j = 0; j < T; j++)
                if (visible[j] && s[j] > most) most = s[j];
            for (int j = 0; j < T; j++) sum += w[j] = visible[j] ? exp(s[j] - most) : 0;
            for (int j = 0; j < T; j++) w[j] = sum > 0 ? (float)(w[j] / sum) : 0;
            for (int j = 0; kind == 1 && j < T; j++)
                if (!real_at(m, r, j, 1)) w[j] = 0;
        }
}
static void softmax_none(PlKCase *kc) { softmax_as(kc, 0); }
static void softmax_after(PlKCase *kc) { softmax_as(kc, 1); }
static void softmax_finite(PlKCase *kc) { softmax_as(kc, 2); }
static void softmax_inverted(PlKCase *kc) { softmax_as(kc, 3); }
static const PlKBug softmax_bugs[] = {
    {"no mask", "pad keys take weight: mask the scores before the softmax", softmax_none},
    {"the pads zeroed after the softmax", "the real keys then sum to less than 1: mask before, so they share all of it",
     softmax_after},
    {"a finite fill such as -1e9", "a row whose keys are all pads gets uniform weights over the pads instead of 0",
     softmax_finite},
    {"the polarity inverted", "key_padding_mask is True at the pads (True = ignore)", softmax_inverted},
};

/* ---- token loss ---- */

static void loss_cells(PlKCase *kc) { kc->out[0].v[0] = kc->out[2].v[0]; }
static const PlKBug loss_bugs[] = {
    {"the mean over every cell for loss_token",
     "reduction='mean' with ignore_index divides by the labels that are "
     "not -100, not by B*T",
     loss_cells},
};

/* ---- buckets ---- */

static void buckets_left(PlKCase *kc) {
    const PlKArray *len = &kc->in[0], *bd = &kc->in[1];
    int K = rows(bd);
    for (int k = 0; k <= K; k++) kc->out[1].v[k] = 0;
    for (int i = 0; i < rows(len); i++) {
        int k = 0;
        while (k < K && bd->v[k] < len->v[i]) k++; /* bisect_left: an equal length stays below */
        kc->out[0].v[i] = k;
        if (len->v[i] > kc->out[1].v[k]) kc->out[1].v[k] = len->v[i];
    }
}
static const PlKBug bucket_bugs[] = {
    {"bisect_left", "a length equal to a boundary starts the next bucket (bisect_right)", buckets_left},
};

/* ---- completion-only labels ---- */

/* kind 0: the prompt counted from column 0; 1: pads kept as labels; 2: only
 * the pads masked; 3: one token too many masked. */
static void completion_as(PlKCase *kc, int kind) {
    const PlKArray *ids = &kc->in[0], *m = &kc->in[1];
    int B = rows(m), T = cols(m);
    for (int r = 0; r < B; r++) {
        int P = (int)kc->in[2].v[r];
        for (int t = 0, k = 0; t < T; t++) {
            size_t at = (size_t)r * T + t;
            int real = real_at(m, r, t, 0), idx = kind == 0 ? t : k;
            int prompt = kind == 2 ? 0 : idx < P + (kind == 3);
            kc->out[0].v[at] = (real || kind == 1) && !prompt ? ids->v[at] : PL_IGNORE_INDEX;
            k += real;
        }
    }
}
static void completion_column(PlKCase *kc) { completion_as(kc, 0); }
static void completion_pads(PlKCase *kc) { completion_as(kc, 1); }
static void completion_prompt(PlKCase *kc) { completion_as(kc, 2); }
static void completion_off(PlKCase *kc) { completion_as(kc, 3); }
static const PlKBug completion_bugs[] = {
    {"the prompt counted from column 0", "under left padding the prompt starts at the row's first real token",
     completion_column},
    {"the pads left as labels", "a pad's label is -100 too, or the loss learns to predict pads", completion_pads},
    {"the prompt left in the loss", "the prompt's tokens get -100: the loss reads the completion alone",
     completion_prompt},
    {"one token too many masked",
     "the completion starts right after the prompt's last token, which is masked, "
     "not the first answer token",
     completion_off},
};

/* ---- the KV cache's mask ---- */

static void kv_zeros(PlKCase *kc) {
    int B = rows(&kc->out[0]), W = cols(&kc->out[0]), T = cols(&kc->in[0]);
    for (int r = 0; r < B; r++)
        for (int t = T; t < W; t++) kc->out[0].v[(size_t)r * W + t] = 0;
}
static void kv_slots(PlKCase *kc) {
    int B = rows(&kc->out[2]), S = cols(&kc->out[2]), T = cols(&kc->in[0]);
    for (int r = 0; r < B; r++)
        for (int s = 0; s < S; s++) kc->out[2].v[(size_t)r * S + s] = T + s;
}
static const PlKBug kv_bugs[] = {
    {"zeros appended to the mask", "a generated token is real: generate appends a column of 1 each step", kv_zeros},
    {"position_ids = cache_position",
     "positions count the row's real tokens; cache_position counts the cache's "
     "slots, pads included",
     kv_slots},
};

/* ---- packed documents ---- */

static void packed_whole_row(PlKCase *kc) {
    for (size_t i = 0; i < kc->out[0].n; i++) kc->out[0].v[i] = (double)i;
}
static void packed_from_one(PlKCase *kc) {
    const PlKArray *cu = &kc->in[0];
    for (int d = 0; d + 1 < rows(cu); d++)
        for (int i = (int)cu->v[d]; i < (int)cu->v[d + 1]; i++) kc->out[0].v[i] = i - cu->v[d] + 1;
}
static const PlKBug packed_pos_bugs[] = {
    {"positions over the whole row (arange(N))", "positions restart at 0 with every document", packed_whole_row},
    {"positions from 1", "a document's first token is position 0", packed_from_one},
};

/* kind 0: a plain causal mask over the row; 1: the blocks without the triangle. */
static void packed_mask_as(PlKCase *kc, int kind) {
    const PlKArray *cu = &kc->in[0];
    int N = rows(&kc->out[0]);
    for (int d = 0; d + 1 < rows(cu); d++)
        for (int i = (int)cu->v[d]; i < (int)cu->v[d + 1]; i++)
            for (int j = 0; j < N; j++) {
                int same = j >= (int)cu->v[d] && j < (int)cu->v[d + 1];
                kc->out[0].v[(size_t)i * N + j] = kind == 0 ? j <= i : same;
            }
}
static void packed_plain_causal(PlKCase *kc) { packed_mask_as(kc, 0); }
static void packed_blocks_only(PlKCase *kc) { packed_mask_as(kc, 1); }
static const PlKBug packed_mask_bugs[] = {
    {"a plain causal mask over the row",
     "documents packed together never see each other: the mask is "
     "block-diagonal",
     packed_plain_causal},
    {"the blocks without the causal triangle", "within a document a token sees only the keys at or before it",
     packed_blocks_only},
};

/* ---- block masks ---- */

/* kind 0: a tile past T judged on its cells inside T; 1: the padding read
 * at the query; 2: the causal rule as key < query. */
static void blocks_as(PlKCase *kc, int kind) {
    const PlKArray *m = &kc->in[0], *doc = &kc->in[1];
    const char *rule = kc->in[2].text;
    int B = rows(m), T = cols(m), S = (int)kc->in[3].v[0], nb = (T + S - 1) / S;
    int causal = strstr(rule, "causal") != NULL, padding = strstr(rule, "padding") != NULL;
    int document = strstr(rule, "document") != NULL;
    for (int r = 0; r < B; r++)
        for (int qb = 0; qb < nb; qb++) {
            double *part = &kc->out[1].v[(size_t)r * nb + qb], *full = &kc->out[2].v[(size_t)r * nb + qb];
            *part = *full = 0;
            for (int kb = 0; kb < nb; kb++) {
                long kept = 0, cells = kind == 0 ? 0 : (long)S * S;
                for (int q = qb * S; q < (qb + 1) * S && q < T; q++)
                    for (int k = kb * S; k < (kb + 1) * S && k < T; k++) {
                        int ok = !causal || (kind == 2 ? k < q : k <= q);
                        ok = ok && (!padding || real_at(m, r, kind == 1 ? q : k, 0));
                        ok = ok && (!document || doc->v[(size_t)r * T + q] == doc->v[(size_t)r * T + k]);
                        kept += ok, cells += kind == 0;
                    }
                int tile = kept == 0 ? 0 : kept == cells ? 2 : 1;
                kc->out[0].v[((size_t)r * nb + qb) * nb + kb] = tile;
                *part += tile == 1, *full += tile == 2;
            }
        }
}
static void blocks_inside(PlKCase *kc) { blocks_as(kc, 0); }
static void blocks_query(PlKCase *kc) { blocks_as(kc, 1); }
static void blocks_strict(PlKCase *kc) { blocks_as(kc, 2); }
static void blocks_count_full(PlKCase *kc) {
    for (size_t i = 0; i < kc->out[1].n; i++) kc->out[1].v[i] += kc->out[2].v[i];
}
static const PlKBug block_bugs[] = {
    {"a tile past T judged on its cells inside T",
     "the mask is padded with cells no rule keeps up to whole tiles, so a tile that reaches past T is never full",
     blocks_inside},
    {"kv_num_blocks counting the full tiles too",
     "kv_num_blocks counts the partial tiles only; full_kv_num_blocks counts the full ones", blocks_count_full},
    {"the padding read at the query", "the padding rule hides pad keys (the key's token), whatever the query",
     blocks_query},
    {"the causal rule as key < query", "a query sees its own key: causal keeps key <= query, the diagonal included",
     blocks_strict},
};

/* ---- compile shapes ---- */

/* The distinct (rows[b], width[b]) among n batches. */
static int distinct_shapes(const int *rws, const double *width, int n) {
    int d = 0;
    for (int b = 0; b < n; b++) {
        int seen = 0;
        for (int e = 0; e < b && !seen; e++) seen = rws[e] == rws[b] && width[e] == width[b];
        d += !seen;
    }
    return d;
}

/* kind 0: distinct widths; 1: every batch; 2: rounded past an exact
 * multiple; 3: the multiple ignored; 4: each bucket batch to its own longest. */
static void shapes_as(PlKCase *kc, int kind) {
    PlPlan *p = NULL;
    if (pl_ktask_shapes_plan(kc, &p)) return;
    const char *s = kc->in[2].text;
    int n = p->n_batches, rws[64], own[64];
    double *w = kc->out[0].v;
    for (int b = 0; b < n && b < 64; b++) {
        rws[b] = p->start[b + 1] - p->start[b], own[b] = 0;
        for (int i = p->start[b]; i < p->start[b + 1]; i++) {
            int L = (int)kc->in[0].v[p->order[i]];
            own[b] = L > own[b] ? L : own[b];
        }
        if (kind == 2 && !strcmp(s, "multiple_of_8")) w[b] = (own[b] / 8 + 1) * 8;
        if ((kind == 3 && !strcmp(s, "multiple_of_8")) || (kind == 4 && !strcmp(s, "bucket_longest"))) w[b] = own[b];
        if (kind == 0) rws[b] = 0;
    }
    kc->out[1].v[0] = kind == 1 ? n : distinct_shapes(rws, w, n < 64 ? n : 64);
    pl_plan_free(p);
}
static void shapes_widths(PlKCase *kc) { shapes_as(kc, 0); }
static void shapes_batches(PlKCase *kc) { shapes_as(kc, 1); }
static void shapes_past(PlKCase *kc) { shapes_as(kc, 2); }
static void shapes_unrounded(PlKCase *kc) { shapes_as(kc, 3); }
static void shapes_own(PlKCase *kc) { shapes_as(kc, 4); }
static const PlKBug shapes_bugs[] = {
    {"the distinct widths, the rows left out",
     "a shape is (rows, width): a last batch of fewer rows is a new shape even at a width seen before", shapes_widths},
    {"every batch counted", "a batch whose (rows, width) came before reuses that compiled graph", shapes_batches},
    {"(width // 8 + 1) * 8", "a width already at a multiple of 8 stays: round up with -(-width // 8) * 8", shapes_past},
    {"the multiple of 8 left out", "multiple_of_8 rounds each batch's longest row up to a multiple of 8",
     shapes_unrounded},
    {"each bucket batch padded to its own longest row",
     "bucket_longest pads every batch of a bucket to the bucket's longest row, so a bucket is one width", shapes_own},
};

/* ---- the table ---- */

#define ROW(task, bugs) \
    { &task, bugs, (int)(sizeof bugs / sizeof bugs[0]) }
static const struct {
    const PlKTask *task;
    const PlKBug *bugs;
    int n;
} table[] = {
    ROW(pl_ktask_pad, pad_bugs),
    ROW(pl_ktask_keras, keras_bugs),
    ROW(pl_ktask_torch, torch_bugs),
    ROW(pl_ktask_hf, hf_bugs),
    ROW(pl_ktask_inf, inf_bugs),
    ROW(pl_ktask_finfo, finfo_bugs),
    ROW(pl_ktask_causal, causal_bugs),
    ROW(pl_ktask_labels, labels_bugs),
    ROW(pl_ktask_pos, pos_bugs),
    ROW(pl_ktask_cu, cu_bugs),
    ROW(pl_ktask_fp16, fp16_bugs),
    ROW(pl_ktask_mean, mean_bugs),
    ROW(pl_ktask_softmax, softmax_bugs),
    ROW(pl_ktask_loss, loss_bugs),
    ROW(pl_ktask_buckets, bucket_bugs),
    ROW(pl_ktask_completion, completion_bugs),
    ROW(pl_ktask_kv, kv_bugs),
    ROW(pl_ktask_packed_pos, packed_pos_bugs),
    ROW(pl_ktask_packed_mask, packed_mask_bugs),
    ROW(pl_ktask_blocks, block_bugs),
    ROW(pl_ktask_shapes, shapes_bugs),
};

const PlKBug *pl_kbugs_of(const PlKTask *t, int *n) {
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].task == t) return *n = table[i].n, table[i].bugs;
    return *n = 0, NULL;
}

void pl_kbug_case_done(PlKCase *c) {
    for (int o = 0; o < c->nout; o++) free(c->out[o].v), c->out[o].v = NULL;
}

int pl_kbug_case(const PlKBug *b, const PlKCase *kc, PlKCase *out) {
    *out = *kc; /* the inputs and the cells' care shared, read only */
    for (int o = 0; o < kc->nout; o++) out->out[o].v = NULL;
    for (int o = 0; o < kc->nout; o++) {
        if (!(out->out[o].v = malloc(sizeof(double) * (kc->out[o].n ? kc->out[o].n : 1))))
            return pl_kbug_case_done(out), -1;
        memcpy(out->out[o].v, kc->out[o].v, sizeof(double) * kc->out[o].n);
    }
    b->apply(out);
    for (int o = 0; o < kc->nout; o++)
        for (size_t i = 0; i < kc->out[o].n; i++) {
            double x = out->out[o].v[i], y = kc->out[o].v[i];
            if ((!kc->out[o].care || kc->out[o].care[i]) && !(x == y || (isnan(x) && isnan(y)))) return 1;
        }
    return 0;
}

int pl_kbug_match(const PlKTask *t, const PlKCase *kc, const PlJson *got, const PlKBug **found, int cap) {
    int n, k = 0;
    const PlKBug *bugs = pl_kbugs_of(t, &n);
    for (int i = 0; i < n && k < cap; i++) {
        PlKCase c;
        char msg[8];
        int differs = pl_kbug_case(&bugs[i], kc, &c);
        int same = differs == 1 && pl_kcheck_case(t, &c, 0, got, msg, sizeof msg) == PL_KCHECK_PASS;
        if (differs >= 0) pl_kbug_case_done(&c);
        if (same) found[k++] = &bugs[i];
    }
    return k;
}
