/* The generate probe: what left and right padding do to a decoder's next
 * token, with and without corrected position ids. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"
#include "probe_decoder.h"
#include "tensor.h"

void pl_probe_generate_free(PlProbeGenerate *r) {
    if (!r) return;
    free(r->len), free(r->ids_left), free(r->ids_right), free(r->pos_naive), free(r->pos_left);
    memset(r, 0, sizeof *r);
}

/* Each prompt alone: logits (B,C) at its last token, positions 0..L-1. */
static int alone(const PlDecoder *d, PlAttendBufs *u, const PlProbeGenerate *r, float *out) {
    for (int i = 0; i < r->B; i++) {
        int L = r->len[i], col = L - 1;
        int *pos = malloc((size_t)L * sizeof *pos);
        uint8_t *m = malloc((size_t)L);
        int ok = pos && m;
        if (ok) {
            for (int t = 0; t < L; t++) pos[t] = t, m[t] = 1;
            const int *cols[1] = {&col};
            float *logits[1] = {out + (size_t)i * PL_DEC_C};
            ok = pl_decoder_read(d, u, r->ids_right + (size_t)i * r->T, m, pos, cols, 1, 1, L, logits) == 0;
        }
        free(pos), free(m);
        if (!ok) return -1;
    }
    return 0;
}

static int alloc_result(PlProbeGenerate *r) {
    size_t n = (size_t)r->B * r->T;
    r->len = malloc((size_t)r->B * sizeof *r->len);
    r->ids_left = malloc(n * sizeof *r->ids_left), r->ids_right = malloc(n * sizeof *r->ids_right);
    r->pos_naive = malloc(n * sizeof *r->pos_naive), r->pos_left = malloc(n * sizeof *r->pos_left);
    return r->len && r->ids_left && r->ids_right && r->pos_naive && r->pos_left ? 0 : -1;
}

/* The two layouts of the same prompts, and their position ids. */
static void layouts(PlProbeGenerate *r, const PlBatch *b, uint8_t *ml, uint8_t *mr) {
    PlPadOpts left = {r->T, PL_PRE, PL_PRE, 0}, right = {r->T, PL_POST, PL_PRE, 0};
    for (int i = 0; i < r->B; i++) {
        const int32_t *src = b->ids + (size_t)i * b->T + pl_pad_first_real(b->len[i], b->T, b->padding);
        size_t at = (size_t)i * r->T;
        r->len[i] = b->len[i];
        pl_pad_row(r->ids_left + at, ml + at, src, b->len[i], r->T, &left);
        pl_pad_row(r->ids_right + at, mr + at, src, b->len[i], r->T, &right);
        int seen = 0;
        for (int t = 0; t < r->T; t++) {
            r->pos_naive[at + t] = t;
            seen += ml[at + t];
            r->pos_left[at + t] = ml[at + t] ? seen - 1 : 1;
        }
        r->naive_last_column_pad_rows_left += !ml[at + r->T - 1];
        r->naive_last_column_pad_rows_right += !mr[at + r->T - 1];
    }
}

static float max_diff(const float *a, const float *b, int n) { return pl_max_abs_diff(a, b, (size_t)n); }

PlStatus pl_probe_generate(const PlCorpus *c, const PlProbeOpts *o, PlProbeGenerate *r, PlErr *err) {
    memset(r, 0, sizeof *r);
    PlBatch *b = NULL;
    PlDecoder d = {0};
    /* It builds no model, so it reserves OpenBLAS's buffer itself: under a
     * memory limit OpenBLAS would otherwise retry it for ever. */
    PlStatus st = pl_blas_init(err);
    if (!st) st = pl_probe_focus_batch(c, o, PL_PROBE_FOCUS_ROWS, &b, err);
    if (st) return st;
    r->B = b->B, r->T = b->T, r->C = PL_DEC_C;
    size_t n = (size_t)r->B * r->T, nl = (size_t)r->B * PL_DEC_C;
    uint8_t *ml = malloc(n), *mr = malloc(n);
    int *col_last = malloc((size_t)r->B * sizeof *col_last), *col_real = malloc((size_t)r->B * sizeof *col_real);
    float *single = malloc(nl * sizeof *single), *z = malloc(nl * sizeof *z), *zl = malloc(nl * sizeof *zl);
    if (alloc_result(r) || !ml || !mr || !col_last || !col_real || !single || !z || !zl ||
        pl_decoder_init(&d, c->num_words, r->T, o->seed)) {
        st = pl_err_set(err, PL_ENOMEM, "out of memory for the generate probe");
    } else {
        layouts(r, b, ml, mr);
        for (int i = 0; i < r->B; i++) col_last[i] = r->T - 1, col_real[i] = r->len[i] - 1;
        PlAttendBufs u = {0};
        const int *last[1] = {col_last}, *both[2] = {col_real, col_last};
        float *into_z[1] = {z}, *into_both[2] = {z, zl};
        int bad = alone(&d, &u, r, single);
        bad = bad || pl_decoder_read(&d, &u, r->ids_left, ml, r->pos_left, last, 1, r->B, r->T, into_z);
        if (!bad) r->left_vs_single_max_diff = max_diff(z, single, (int)nl);
        bad = bad || pl_decoder_read(&d, &u, r->ids_left, ml, r->pos_naive, last, 1, r->B, r->T, into_z);
        if (!bad) r->left_naive_positions_max_diff = max_diff(z, single, (int)nl);
        /* Right padding read at the last real token and at the last column: one run. */
        bad = bad || pl_decoder_read(&d, &u, r->ids_right, mr, r->pos_naive, both, 2, r->B, r->T, into_both);
        if (!bad) r->right_last_real_vs_single_max_diff = max_diff(z, single, (int)nl);
        if (!bad) r->right_last_column_vs_single_max_diff = max_diff(zl, single, (int)nl);
        pl_attend_bufs_done(&u);
        if (bad) st = pl_err_set(err, PL_ENOMEM, "out of memory for the generate probe");
    }
    free(ml), free(mr), free(col_last), free(col_real), free(single), free(z), free(zl);
    pl_decoder_free(&d);
    pl_batch_free(b);
    if (st) pl_probe_generate_free(r);
    return st;
}
