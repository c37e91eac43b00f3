/* The katas' batches from the learner's corpus (batch.h). */
#include "batch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *what;
    int B, T;
    PlSide side;
    int empty;  /* the row left empty, or -1 */
    int pad_id; /* 1: a pad id one past the vocabulary, not 0 */
    int full;   /* every row as long as the batch is wide */
} Spec;

static const Spec specs[PL_KBATCH_CASES] = {
    {"corpus rows, right padding", 4, 10, PL_POST, -1, 0, 0},
    {"left padding", 4, 10, PL_PRE, -1, 0, 0},
    {"an empty row", 3, 8, PL_POST, 1, 0, 0},
    {"pad id %d, not 0", 3, 8, PL_POST, -1, 1, 0},
    {"no pad in any row", 3, 6, PL_POST, -1, 0, 1},
    {"a batch of one, left padded", 1, 7, PL_PRE, -1, 0, 0},
    {"an empty row, left padded", 3, 8, PL_PRE, 1, 0, 0},
};

/* The first corpus row from `from` on with at least want tokens (or from
 * itself when none has). */
static int row_with(const PlCorpus *c, int from, int want) {
    for (int i = from; i < c->n; i++)
        if (pl_corpus_len(c, i) >= want) return i;
    return c->n ? from % c->n : 0;
}

PlStatus pl_kbatch_make(PlKBatch *b, PlKCase *kc, int k, const PlCorpus *c) {
    const Spec *s = &specs[k];
    memset(b, 0, sizeof *b);
    b->B = s->B, b->T = s->T, b->side = s->side, b->pad_id = s->pad_id ? c->vocab_size : PL_PAD_ID;
    snprintf(kc->what, sizeof kc->what, s->what, b->pad_id);
    kc->pad_id = b->pad_id;
    size_t n = (size_t)b->B * b->T;
    b->ids = malloc(n * sizeof *b->ids), b->mask = malloc(n), b->len = malloc((size_t)b->B * sizeof *b->len);
    if (!b->ids || !b->mask || !b->len) return pl_kbatch_done(b), PL_ENOMEM;
    int T = s->T, caps[4] = {T, T - 4, 3, T - 1};
    PlPadOpts o = {.maxlen = T, .padding = s->side, .truncating = PL_POST, .value = b->pad_id};
    for (int r = 0, from = 0; r < b->B; r++) {
        int cap = s->full ? T : s->B == 1 ? T - 2 : caps[r % 4], i = row_with(c, from, cap);
        from = i + 1;
        int len = r == s->empty || !c->n ? 0 : pl_corpus_len(c, i);
        b->len[r] = pl_pad_row(b->ids + (size_t)r * T, b->mask + (size_t)r * T, c->n ? pl_corpus_seq(c, i) : NULL,
                               len < cap ? len : cap, T, &o);
    }
    return PL_OK;
}

void pl_kbatch_done(PlKBatch *b) {
    free(b->ids), free(b->mask), free(b->len);
    b->ids = NULL, b->mask = NULL, b->len = NULL;
}

PlStatus pl_kbatch_rows(PlKArray *a, const char *name, const PlCorpus *c, int from, int n, const int *cap) {
    int len[16] = {0}, at[16] = {0};
    for (int r = 0; r < n; r++) {
        at[r] = row_with(c, from, cap[r]), from = at[r] + 1;
        int L = c->n ? pl_corpus_len(c, at[r]) : 0;
        len[r] = L < cap[r] ? L : cap[r];
    }
    PlStatus st = pl_karray_make_ragged(a, name, PL_KT_INT, n, len);
    for (int r = 0, k = 0; !st && r < n; r++)
        for (int t = 0; t < len[r]; t++) a->v[k++] = pl_corpus_seq(c, at[r])[t];
    return st;
}
