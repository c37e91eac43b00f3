/* The loss probe: which positions a token loss counts, and what dividing by
 * what does to its value and its gradient. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "loss.h"
#include "probe.h"
#include "probe_weights.h"
#include "tensor.h"

void pl_probe_loss_free(PlProbeLoss *r) {
    if (!r) return;
    free(r->targets), free(r->terms);
    free(r->chat_ids), free(r->chat_labels), free(r->chat_terms);
    memset(r, 0, sizeof *r);
}

static PlStatus token_model(const PlCorpus *c, const PlModel *model, PlSeed seed, PlModel **out, PlErr *err) {
    if (model) {
        const PlModelConfig *mc = pl_model_config(model);
        if (mc->classes < 2)
            return pl_err_set(err, PL_ERANGE,
                              "the loss probe needs a model with a token head (padlab experiment loss --save-model)");
        PlStatus st = pl_probe_check_vocab(mc->vocab, c, err);
        return st ? st : pl_model_copy(model, mc, out, err);
    }
    PlModelConfig cfg = pl_model_config_default(PL_ARCH_RNN);
    cfg.vocab = c->num_words;
    cfg.classes = 64;
    return pl_model_new(&cfg, seed, out, err);
}

/* Loss of the batch under a normalisation; grad gets |dlogits|. */
static float loss_of(const float *logits, const int32_t *targets, int B, int T, int C, PlLossNorm norm, float *dz,
                     float *grad, float *terms) {
    float l = pl_token_ce(dz, terms, logits, targets, T, B, C, norm);
    if (grad) *grad = pl_l2_norm(dz, (size_t)B * T * C);
    return l;
}

/* The same rows padded to twice the width: the batch x T loss shrinks. */
static PlStatus widened(PlProbeLoss *r, const PlCorpus *c, const PlBatch *b, PlModel *m, PlErr *err) {
    PlPadOpts po = {2 * b->T, b->padding, PL_PRE, 0};
    PlBatch *w = NULL;
    PlStatus st = pl_batch_make(c, b->row, b->B, 2 * b->T, &po, &w, err);
    int32_t *tg = NULL;
    if (!st && !(tg = malloc((size_t)w->B * w->T * sizeof *tg)))
        st = pl_err_set(err, PL_ENOMEM, "out of memory for the loss probe");
    /* Widening must not bring back truncated tokens: keep each row's kept tokens. */
    if (!st) {
        for (int i = 0; i < w->B; i++) {
            if (w->len[i] == b->len[i]) continue;
            memset(w->ids + (size_t)i * w->T, 0, (size_t)w->T * sizeof *w->ids);
            memset(w->mask + (size_t)i * w->T, 0, (size_t)w->T);
            int first = pl_pad_first_real(b->len[i], w->T, b->padding),
                src = pl_pad_first_real(b->len[i], b->T, b->padding);
            memcpy(w->ids + (size_t)i * w->T + first, b->ids + (size_t)i * b->T + src,
                   (size_t)b->len[i] * sizeof *w->ids);
            memset(w->mask + (size_t)i * w->T + first, 1, (size_t)b->len[i]);
        }
        st = pl_model_forward(m, w->ids, w->mask, w->B, w->T, err);
    }
    if (!st) {
        pl_next_token_targets(tg, w->ids, w->mask, w->B, w->T, r->C, 0);
        r->wide_T = w->T;
        r->per_token_wide = pl_token_ce(NULL, NULL, pl_model_logits(m), tg, w->T, w->B, r->C, PL_NORM_TOKEN);
        r->batch_t_wide = pl_token_ce(NULL, NULL, pl_model_logits(m), tg, w->T, w->B, r->C, PL_NORM_BATCH_T);
    }
    free(tg);
    pl_batch_free(w);
    return st;
}

/* Without ignore_index: the pad targets enter a per-token mean. */
static void with_pads(PlProbeLoss *r, const PlBatch *b, const float *logits, int32_t *tg, float *terms) {
    pl_next_token_targets(tg, b->ids, b->mask, b->B, b->T, r->C, 1);
    r->loss_with_pads = pl_token_ce(NULL, terms, logits, tg, b->T, b->B, r->C, PL_NORM_TOKEN);
    long all = 0;
    double kept_sum = 0.0;
    for (size_t i = 0; i < (size_t)b->B * b->T; i++) {
        if (tg[i] == PL_IGNORE_INDEX) continue;
        all++;
        /* A model that has learned that a pad follows a pad pays nothing
         * there; every other target keeps this model's own term, the first
         * pad after a review's last word too (nothing in the words says
         * the review ends there), and under pre padding the first word
         * after the last pad. */
        if (!b->mask[i] && tg[i] == 0) continue;
        kept_sum += (double)terms[i];
    }
    r->fake_terms = all - r->real_terms;
    r->loss_pad_perfect = all ? (float)(kept_sum / all) : 0.0f;
}

/* The kept words of row i of b: its kept tokens less a leading <start>. */
static const int32_t *row_words(const PlBatch *b, int i, int *n) {
    const int32_t *w = b->ids + (size_t)i * b->T + pl_pad_first_real(b->len[i], b->T, b->padding);
    *n = b->len[i];
    if (*n > 0 && w[0] == PL_START_ID) w++, --*n;
    return w;
}

/* The chat batch of b's rows (see PlProbeLoss), its labels, and both losses
 * from one forward of m over it. */
static PlStatus chat(PlProbeLoss *r, const PlCorpus *c, const PlBatch *b, PlModel *m, PlErr *err) {
    const int32_t *sys = c->n > 0 ? pl_corpus_seq(c, 0) : NULL;
    int nsys = c->n > 0 ? pl_corpus_len(c, 0) : 0;
    if (nsys > 0 && sys[0] == PL_START_ID) sys++, nsys--;
    nsys = nsys < PL_CHAT_SYSTEM_WORDS ? nsys : PL_CHAT_SYSTEM_WORDS;
    int B = b->B, T = 0;
    for (int i = 0; i < B; i++) {
        int n;
        row_words(b, i, &n);
        T = 3 + nsys + n > T ? 3 + nsys + n : T;
    }
    size_t n = (size_t)B * T;
    uint8_t *mask = calloc(n, 1);
    int32_t *lm = malloc(n * sizeof *lm), *done = malloc(n * sizeof *done);
    r->chat_B = B, r->chat_T = T, r->chat_system = nsys;
    r->chat_ids = calloc(n, sizeof *r->chat_ids);
    r->chat_labels = malloc(n * sizeof *r->chat_labels);
    r->chat_terms = calloc(n, sizeof *r->chat_terms);
    PlStatus st = PL_OK;
    if (!mask || !lm || !done || !r->chat_ids || !r->chat_labels || !r->chat_terms)
        st = pl_err_set(err, PL_ENOMEM, "out of memory for the loss probe's chat batch");
    for (int i = 0; !st && i < B; i++) {
        int words, t = 0;
        const int32_t *w = row_words(b, i, &words);
        int answer = (words + 3) / 4, user = words - answer;
        int32_t *ids = r->chat_ids + (size_t)i * T, *lab = r->chat_labels + (size_t)i * T;
        uint8_t *mk = mask + (size_t)i * T;
        ids[t++] = PL_START_ID;
        for (int k = 0; k < nsys; k++) ids[t++] = sys[k];
        ids[t++] = PL_START_ID;
        for (int k = 0; k < user; k++) ids[t++] = w[k];
        ids[t++] = PL_START_ID;
        int prompt = t;
        for (int k = 0; k < answer; k++) ids[t++] = w[user + k];
        for (int k = 0; k < T; k++) {
            mk[k] = k < t;
            lab[k] = k >= prompt && k < t ? ids[k] : PL_IGNORE_INDEX;
        }
        r->chat_real += t;
        r->completion_tokens += answer;
    }
    if (!st) st = pl_model_forward(m, r->chat_ids, mask, B, T, err);
    if (!st) {
        const float *z = pl_model_logits(m);
        /* a plain LM collator's targets: every real next token; a
         * completion-only one's: those whose label is not -100 */
        pl_next_token_targets(lm, r->chat_ids, mask, B, T, r->C, 0);
        for (size_t i = 0; i < n; i++) {
            int last = (int)(i % (size_t)T) == T - 1;
            done[i] = !last && r->chat_labels[i + 1] != PL_IGNORE_INDEX ? lm[i] : PL_IGNORE_INDEX;
            r->prompt_terms += lm[i] != PL_IGNORE_INDEX;
        }
        r->prompt_included_loss = pl_token_ce(NULL, r->chat_terms, z, lm, T, B, r->C, PL_NORM_TOKEN);
        r->completion_loss = pl_token_ce(NULL, NULL, z, done, T, B, r->C, PL_NORM_TOKEN);
        /* each term beside the label it scores: one position on */
        for (int i = 0; i < B; i++) {
            float *row = r->chat_terms + (size_t)i * T;
            memmove(row + 1, row, (size_t)(T - 1) * sizeof *row);
            row[0] = 0.0f;
        }
    }
    free(mask), free(lm), free(done);
    return st;
}

PlStatus pl_probe_loss(const PlCorpus *c, const PlProbeOpts *o, const PlModel *model, PlProbeLoss *r, PlErr *err) {
    memset(r, 0, sizeof *r);
    PlModel *m = NULL;
    PlBatch *b = NULL;
    float *dz = NULL, *scratch = NULL;
    int32_t *tg = NULL;
    PlStatus st = token_model(c, model, o->seed, &m, err);
    if (!st) st = pl_probe_focus_batch(c, o, PL_PROBE_FOCUS_ROWS, &b, err);
    if (!st) {
        r->B = b->B, r->T = b->T, r->C = pl_model_config(m)->classes;
        size_t n = (size_t)b->B * b->T;
        r->targets = malloc(n * sizeof *r->targets), r->terms = malloc(n * sizeof *r->terms);
        tg = malloc(n * sizeof *tg), scratch = malloc(n * sizeof *scratch), dz = malloc(n * r->C * sizeof *dz);
        if (!r->targets || !r->terms || !tg || !scratch || !dz)
            st = pl_err_set(err, PL_ENOMEM, "out of memory for the loss probe");
    }
    if (!st) st = pl_model_forward(m, b->ids, b->mask, b->B, b->T, err);
    if (!st) {
        const float *z = pl_model_logits(m);
        pl_next_token_targets(r->targets, b->ids, b->mask, b->B, b->T, r->C, 0);
        for (size_t i = 0; i < (size_t)b->B * b->T; i++) r->real_terms += r->targets[i] != PL_IGNORE_INDEX;
        r->per_token = loss_of(z, r->targets, b->B, b->T, r->C, PL_NORM_TOKEN, dz, &r->grad_per_token, r->terms);
        r->per_sequence = loss_of(z, r->targets, b->B, b->T, r->C, PL_NORM_SEQUENCE, dz, &r->grad_per_sequence, NULL);
        r->batch_t = loss_of(z, r->targets, b->B, b->T, r->C, PL_NORM_BATCH_T, dz, &r->grad_batch_t, NULL);
        with_pads(r, b, z, tg, scratch);
        st = widened(r, c, b, m, err);
        if (!st) st = chat(r, c, b, m, err);
    }
    free(dz), free(scratch), free(tg);
    pl_batch_free(b);
    pl_model_free(m);
    if (st) pl_probe_loss_free(r);
    return st;
}
