/* The batch probe, and the batch every probe starts from. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"

PlProbeOpts pl_probe_opts_default(void) {
    PlProbeOpts o;
    memset(&o, 0, sizeof o);
    o.maxlen = PL_DEFAULT_MAXLEN;
    o.padding = PL_PRE;
    o.truncating = PL_PRE;
    o.conv = PL_MASK_KERAS;
    o.batching = PL_BATCH_STATIC;
    o.batch_size = PL_DEFAULT_BATCH;
    return o;
}

int pl_probe_auto_example(const PlCorpus *c, int maxlen) {
    for (int i = 0; i < c->n; i++)
        if (pl_corpus_len(c, i) < maxlen / 2) return i;
    return 0;
}

void pl_probe_pick_free(PlBatchPick *p) {
    if (!p) return;
    free(p->rows);
    free(p->cu_seqlens);
    memset(p, 0, sizeof *p);
}

static PlStatus check_row(const PlCorpus *c, int row) { return row >= 0 && row < c->n ? PL_OK : PL_ERANGE; }

/* Plans lengths len[0..n) under the probe's batching and copies out the
 * batch that holds position `hold`. Given rows are one batch, so the
 * bucketed strategies size them as dynamic batching does. */
static PlStatus plan_pick(const int *len, int n, const PlProbeOpts *o, int given, int hold, PlBatchPick *pick,
                          PlErr *err) {
    int bounds[3];
    PlBatching kind = o->batching;
    if (given && (kind == PL_BATCH_BUCKET_LONGEST || kind == PL_BATCH_TF_BUCKET || kind == PL_BATCH_GROUPED))
        kind = PL_BATCH_DYNAMIC;
    PlPlanOpts po = pl_plan_opts_standard(kind, o->maxlen, given ? n : o->batch_size, bounds);
    PlPlan *p;
    PlStatus st = pl_plan_make(len, n, &po, &p, err);
    if (st) return st;
    int b = pl_plan_batch_of(p, hold);
    pick->index = given ? 0 : b, pick->count = given ? 1 : p->n_batches;
    pick->B = p->start[b + 1] - p->start[b];
    pick->width = p->width[b] > 0 ? p->width[b] : 1;
    pick->packed = p->packed;
    pick->rows = malloc((size_t)pick->B * sizeof *pick->rows);
    pick->cu_seqlens = malloc(((size_t)pick->B + 1) * sizeof *pick->cu_seqlens);
    if (!pick->rows || !pick->cu_seqlens) st = pl_err_set(err, PL_ENOMEM, "out of memory for a batch");
    for (int i = 0; !st && i < pick->B; i++) {
        int k = p->order[p->start[b] + i];
        pick->rows[i] = k;
        if (k == hold) pick->at = i;
        pick->cu_seqlens[i + 1] = (i ? pick->cu_seqlens[i] : 0) + pl_plan_kept(p, len[k]);
    }
    if (!st) pick->cu_seqlens[0] = 0;
    pl_plan_free(p);
    return st;
}

PlStatus pl_probe_pick(const PlCorpus *c, const PlProbeOpts *o, PlBatchPick *pick, PlErr *err) {
    memset(pick, 0, sizeof *pick);
    pick->batching = o->batching;
    if (check_row(c, o->example))
        return pl_err_set(err, PL_ERANGE, "example %d is out of range (the corpus has %d, from 0)", o->example, c->n);
    if (o->maxlen < 1) return pl_err_set(err, PL_ERANGE, "maxlen must be >= 1");
    if (o->batch_size < 1) return pl_err_set(err, PL_ERANGE, "the batch size must be >= 1");
    int n = o->batch ? o->nbatch : c->n, hold = o->example;
    int *len = malloc(((size_t)n + 1) * sizeof *len);
    if (!len) return pl_err_set(err, PL_ENOMEM, "out of memory for a batch");
    if (o->batch) {
        hold = -1;
        for (int i = 0; i < n; i++) {
            if (check_row(c, o->batch[i])) {
                free(len);
                return pl_err_set(err, PL_ERANGE, "example %d is out of range (the corpus has %d, from 0)", o->batch[i],
                                  c->n);
            }
            len[i] = pl_corpus_len(c, o->batch[i]);
            if (o->batch[i] == o->example && hold < 0) hold = i;
        }
        hold = hold < 0 ? 0 : hold;
    } else {
        pl_corpus_lengths(c, len);
    }
    PlStatus st = n > 0 ? plan_pick(len, n, o, o->batch != NULL, hold, pick, err)
                        : pl_err_set(err, PL_ERANGE, "a batch needs at least one row");
    free(len);
    for (int i = 0; !st && o->batch && i < pick->B; i++) pick->rows[i] = o->batch[pick->rows[i]];
    if (st) pl_probe_pick_free(pick);
    return st;
}

void pl_probe_focus(const PlBatchPick *pick, const PlProbeOpts *o, int n, int *rows, PlProbeOpts *out) {
    *out = *o;
    out->example = pick->rows[pick->at];
    if (pick->packed) {
        rows[0] = out->example;
        out->nbatch = 1;
        out->width = pick->cu_seqlens[pick->at + 1] - pick->cu_seqlens[pick->at];
    } else {
        out->nbatch = n < pick->B ? n : pick->B;
        for (int i = 0; i < out->nbatch; i++) rows[i] = pick->rows[(pick->at + i) % pick->B];
        out->width = pick->width;
    }
    out->batch = rows;
    if (out->width < 1) out->width = 1;
}

static PlPadOpts pad_opts(const PlProbeOpts *o) {
    PlPadOpts po = {o->batching == PL_BATCH_LONGEST ? 0 : o->maxlen, o->padding, o->truncating, 0};
    return po;
}

/* A packed batch: one row holding each row's kept tokens in turn, no pads. */
static PlStatus packed_batch(const PlCorpus *c, const PlProbeOpts *o, const PlBatchPick *pick, PlBatch **out,
                             PlErr *err) {
    PlPadOpts po = pad_opts(o);
    PlStatus st = pl_batch_make(c, &pick->rows[pick->at], 1, pick->width, &po, out, err);
    if (st) return st;
    PlBatch *b = *out;
    b->orig_len[0] = 0;
    for (int i = 0; i < pick->B; i++) {
        int at = pick->cu_seqlens[i], kept = pick->cu_seqlens[i + 1] - at;
        pl_pad_row(b->ids + at, b->mask + at, pl_corpus_seq(c, pick->rows[i]), pl_corpus_len(c, pick->rows[i]), kept,
                   &po);
        b->orig_len[0] += pl_corpus_len(c, pick->rows[i]);
    }
    b->len[0] = pick->width;
    return PL_OK;
}

static PlStatus batch_of_pick(const PlCorpus *c, const PlProbeOpts *o, const PlBatchPick *pick, PlBatch **out,
                              PlErr *err) {
    if (pick->packed) return packed_batch(c, o, pick, out, err);
    PlPadOpts po = pad_opts(o);
    return pl_batch_make(c, pick->rows, pick->B, pick->width, &po, out, err);
}

PlStatus pl_probe_batch_make(const PlCorpus *c, const PlProbeOpts *o, PlBatch **out, PlErr *err) {
    *out = NULL;
    if (o->width > 0) {
        PlPadOpts po = pad_opts(o);
        return pl_batch_make(c, o->batch ? o->batch : &o->example, o->batch ? o->nbatch : 1, o->width, &po, out, err);
    }
    PlBatchPick pick;
    PlStatus st = pl_probe_pick(c, o, &pick, err);
    if (!st) st = batch_of_pick(c, o, &pick, out, err);
    pl_probe_pick_free(&pick);
    return st;
}

PlStatus pl_probe_focus_batch(const PlCorpus *c, const PlProbeOpts *o, int n, PlBatch **out, PlErr *err) {
    *out = NULL;
    if (o->width > 0) return pl_probe_batch_make(c, o, out, err);
    PlBatchPick pick;
    PlStatus st = pl_probe_pick(c, o, &pick, err);
    int *rows = st ? NULL : malloc((size_t)(n > 0 ? n : 1) * sizeof *rows);
    if (!st && !rows) st = pl_err_set(err, PL_ENOMEM, "out of memory for a batch");
    if (!st) {
        PlProbeOpts f;
        pl_probe_focus(&pick, o, n > 0 ? n : 1, rows, &f);
        st = pl_probe_batch_make(c, &f, out, err);
    }
    free(rows);
    pl_probe_pick_free(&pick);
    return st;
}

void pl_probe_batch_free(PlProbeBatch *r) {
    if (!r) return;
    pl_probe_pick_free(&r->pick);
    pl_batch_free(r->batch);
    free(r->conv_mask);
    free(r->additive);
    free(r->labels);
    memset(r, 0, sizeof *r);
}

/* Positions a convention marks as real, read the way that library reads it. */
static long count_real(const PlProbeBatch *r, size_t n) {
    long k = 0;
    for (size_t i = 0; i < n; i++) {
        if (r->conv == PL_MASK_ADDITIVE) k += r->additive[i] == 0.0f;
        else if (r->conv == PL_MASK_TORCH) k += r->conv_mask[i] == 0;
        else k += r->conv_mask[i] == 1;
    }
    return k;
}

PlStatus pl_probe_batch(const PlCorpus *c, const PlProbeOpts *o, PlProbeBatch *r, PlErr *err) {
    memset(r, 0, sizeof *r);
    PlStatus st = pl_probe_pick(c, o, &r->pick, err);
    if (!st) st = batch_of_pick(c, o, &r->pick, &r->batch, err);
    if (st) {
        pl_probe_batch_free(r);
        return st;
    }
    PlBatch *b = r->batch;
    size_t n = (size_t)b->B * b->T;
    r->conv = o->conv;
    r->conv_mask = malloc(n + 1);
    r->additive = malloc((n + 1) * sizeof *r->additive);
    r->labels = malloc((n + 1) * sizeof *r->labels);
    if (!r->conv_mask || !r->additive || !r->labels) {
        pl_probe_batch_free(r);
        return pl_err_set(err, PL_ENOMEM, "out of memory for the batch probe");
    }
    pl_mask_bool(r->conv_mask, b->mask, n, o->conv == PL_MASK_ADDITIVE ? PL_MASK_KERAS : o->conv);
    pl_mask_additive(r->additive, b->mask, n);
    pl_labels_ignore(r->labels, b->ids, b->mask, n);
    for (int i = 0; i < b->B; i++) r->real_tokens += b->len[i];
    for (size_t i = 0; i < n; i++) {
        r->mask_ones += o->conv == PL_MASK_ADDITIVE ? r->additive[i] == 0.0f : r->conv_mask[i] == 1;
        r->label_positions += r->labels[i] != PL_IGNORE_INDEX;
    }
    r->mask_real = count_real(r, n);
    for (int i = 0; i < r->pick.B; i++) {
        int L = pl_corpus_len(c, r->pick.rows[i]), kept = r->pick.cu_seqlens[i + 1] - r->pick.cu_seqlens[i];
        r->rows_cut += L > kept;
        r->tokens_cut += L - kept;
    }
    for (size_t i = 0; i < n; i++) r->id0_real += b->mask[i] && b->ids[i] == PL_PAD_ID;
    r->example_length = pl_corpus_len(c, r->pick.rows[r->pick.at]);
    r->agree = r->real_tokens == r->mask_real && r->mask_real == r->label_positions;
    r->disagrees = r->agree                               ? NULL
                   : r->mask_real == r->label_positions   ? "real tokens"
                   : r->real_tokens == r->label_positions ? "mask"
                                                          : "labels";
    return PL_OK;
}
