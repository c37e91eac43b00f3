/* The batch probe, and the batch every probe starts from. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"

PlProbeOpts pl_probe_opts_default(void) {
    PlProbeOpts o;
    memset(&o, 0, sizeof o);
    o.maxlen = 200;
    o.padding = PL_PRE;
    o.truncating = PL_PRE;
    o.conv = PL_MASK_KERAS;
    return o;
}

PlStatus pl_probe_batch_make(const PlCorpus *c, const PlProbeOpts *o, PlBatch **out, PlErr *err) {
    *out = NULL;
    if (o->example < 0 || o->example >= c->n)
        return pl_err_set(err, PL_ERANGE, "example %d is out of range (the corpus has %d, from 0)", o->example, c->n);
    if (o->maxlen < 1) return pl_err_set(err, PL_ERANGE, "maxlen must be >= 1");
    int dflt[4], n = 0;
    const int *rows = o->batch;
    if (!rows) {
        for (int i = 0; i < 4 && o->example + i < c->n; i++) dflt[n++] = o->example + i;
        rows = dflt;
    } else {
        n = o->nbatch;
    }
    int T = 0;
    for (int i = 0; i < n; i++) {
        if (rows[i] < 0 || rows[i] >= c->n)
            return pl_err_set(err, PL_ERANGE, "example %d is out of range (the corpus has %d, from 0)", rows[i], c->n);
        int L = pl_corpus_len(c, rows[i]);
        T = L > T ? L : T;
    }
    T = T < o->maxlen ? T : o->maxlen;
    PlPadOpts po = {T, o->padding, o->truncating, 0};
    return pl_batch_make(c, rows, n, T, &po, out, err);
}

void pl_probe_batch_free(PlProbeBatch *r) {
    if (!r) return;
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
    PlStatus st = pl_probe_batch_make(c, o, &r->batch, err);
    if (st) return st;
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
    r->agree = r->real_tokens == r->mask_real && r->mask_real == r->label_positions;
    r->disagrees = r->agree ? NULL
                   : r->mask_real == r->label_positions ? "real tokens"
                   : r->real_tokens == r->label_positions ? "mask"
                                                          : "labels";
    return PL_OK;
}
