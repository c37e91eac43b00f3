#include "pad.h"

#include <stdlib.h>
#include <string.h>

#include "assert.h" /* pl_assert: ours, not <assert.h> */
#include "names.h"

const char *const pl_side_names[] = {[PL_PRE] = "pre", [PL_POST] = "post", NULL};

const char *pl_side_name(PlSide s) { return s == PL_POST ? "post" : "pre"; }

int pl_side_parse(const char *s, PlSide *out) {
    int i = pl_name_find(pl_side_names, s);
    if (i < 0) return -1;
    *out = (PlSide)i;
    return 0;
}

int pl_pad_first_real(int kept, int T, PlSide padding) { return padding == PL_POST ? 0 : T - kept; }

int pl_pad_row(int32_t *row, uint8_t *mask, const int32_t *seq, int len, int T, const PlPadOpts *o) {
    int cap = o->maxlen > 0 && o->maxlen < T ? o->maxlen : T;
    int kept = len < cap ? len : cap;
    int first = pl_pad_first_real(kept, T, o->padding);
    for (int t = 0; t < T; t++) row[t] = o->value;
    /* seq may be NULL when len is 0: no pointer arithmetic on it then. */
    if (kept > 0) memcpy(row + first, o->truncating == PL_PRE ? seq + (len - kept) : seq, (size_t)kept * sizeof *row);
    if (mask) {
        memset(mask, 0, (size_t)T);
        memset(mask + first, 1, (size_t)kept);
    }
    return kept;
}

void pl_batch_free(PlBatch *b) {
    if (!b) return;
    free(b->ids);
    free(b->mask);
    free(b->len);
    free(b->orig_len);
    free(b->row);
    free(b->labels);
    free(b);
}

static PlBatch *batch_alloc(int B, int T) {
    PlBatch *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    size_t cells = (size_t)B * (size_t)T;
    b->B = B;
    b->T = T;
    b->ids = malloc((cells ? cells : 1) * sizeof *b->ids);
    b->mask = malloc(cells ? cells : 1);
    b->len = malloc((size_t)B * sizeof *b->len);
    b->orig_len = malloc((size_t)B * sizeof *b->orig_len);
    b->row = malloc((size_t)B * sizeof *b->row);
    b->labels = malloc((size_t)B);
    if (!b->ids || !b->mask || !b->len || !b->orig_len || !b->row || !b->labels) {
        pl_batch_free(b);
        return NULL;
    }
    return b;
}

PlStatus pl_batch_make(const PlCorpus *c, const int *rows, int B, int T, const PlPadOpts *o, PlBatch **out,
                       PlErr *err) {
    *out = NULL;
    if (B < 1) return pl_err_set(err, PL_ERANGE, "a batch needs at least one row");
    int longest = 0;
    for (int i = 0; i < B; i++) {
        if (rows[i] < 0 || rows[i] >= c->n)
            return pl_err_set(err, PL_ERANGE, "example %d is out of range (the corpus has %d)", rows[i], c->n);
        int L = pl_corpus_len(c, rows[i]);
        if (L > longest) longest = L;
    }
    if (T <= 0) T = longest;
    if ((size_t)B * (size_t)T > ((size_t)1 << 31))
        return pl_err_set(err, PL_ERANGE, "a %d x %d batch is too large", B, T);
    PlBatch *b = batch_alloc(B, T);
    if (!b) return pl_err_set(err, PL_ENOMEM, "out of memory for a %d x %d batch", B, T);
    b->padding = o->padding;
    for (int i = 0; i < B; i++) {
        int L = pl_corpus_len(c, rows[i]);
        size_t at = (size_t)i * (size_t)T;
        b->len[i] = pl_pad_row(b->ids + at, b->mask + at, pl_corpus_seq(c, rows[i]), L, T, o);
        b->orig_len[i] = L;
        b->row[i] = rows[i];
        b->labels[i] = c->labels[rows[i]];
    }
    pl_assert(pl_batch_is_consistent(b));
    *out = b;
    return PL_OK;
}

/* Row i's mask: len ones side by side from pl_pad_first_real, zeros elsewhere. */
static int mask_fits(const PlBatch *b, int i) {
    const uint8_t *m = b->mask + (size_t)i * (size_t)b->T;
    int first = pl_pad_first_real(b->len[i], b->T, b->padding);
    for (int t = 0; t < b->T; t++)
        if (m[t] != (t >= first && t < first + b->len[i])) return 0;
    return 1;
}

int pl_batch_is_consistent(const PlBatch *b) {
    if (!b || b->B < 0 || b->T < 0 || (b->padding != PL_PRE && b->padding != PL_POST)) return 0;
    for (int i = 0; i < b->B; i++) {
        int L = b->len[i];
        if (L < 0 || L > b->T || L > b->orig_len[i] || b->row[i] < 0) return 0;
        if (b->mask && !mask_fits(b, i)) return 0;
    }
    return 1;
}

int pl_batch_row_of(const PlBatch *b, int row) {
    for (int i = 0; i < b->B; i++)
        if (b->row[i] == row) return i;
    return 0;
}
