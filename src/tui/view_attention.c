/* The attention view: the softmax weights of the example's queries (head 0)
 * as a heatmap, with its axes, its pad key columns marked, and the figures
 * beside it. */
#include <stdio.h>

#include "views.h"

#define MAX_SIDE 48

typedef struct {
    int n, T;
    double cell[MAX_SIDE][MAX_SIDE], top;
    int pad_col[MAX_SIDE]; /* the block of keys holds a pad */
    int pad_row[MAX_SIDE]; /* the block of queries holds a pad */
} Heat;

/* Each cell is the mean weight of its block of queries and keys; a key
 * column is a pad column when its block holds a pad key. */
static void heat_blocks(Heat *h, const PlProbeAttention *r, int n) {
    int T = r->T;
    h->n = n, h->T = T, h->top = 0.0;
    for (int j = 0; j < n; j++) {
        h->pad_col[j] = 0;
        for (int k = j * T / n; k < (j + 1) * T / n; k++) h->pad_col[j] |= !r->real[k];
        h->pad_row[j] = h->pad_col[j];
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int qa = i * T / n, qz = (i + 1) * T / n, ka = j * T / n, kz = (j + 1) * T / n;
            double w = 0.0;
            for (int q = qa; q < qz; q++)
                for (int k = ka; k < kz; k++) w += (double)r->weights[(size_t)q * T + k];
            h->cell[i][j] = w / (qz - qa);
            h->top = h->cell[i][j] > h->top ? h->cell[i][j] : h->top;
        }
}

/* Rows are query blocks (their first position at the left, a pad mark
 * beside), columns key blocks (a pad mark under each). */
static void heat_draw(TuiPane *p, int row, const Heat *h, int legend_w) {
    int n = h->n, T = h->T;
    pane_putc(p, TUI_DIM, row, 0, 2 * n + 7, "query   key %s", "->");
    for (int i = 0; i < n; i++) {
        pane_putc(p, TUI_DIM, row + 1 + i, 0, 4, "%4d", i * T / n);
        pane_putc(p, h->pad_row[i] ? TUI_PAD : TUI_DIM, row + 1 + i, 4, 1, "%s",
                  h->pad_row[i] ? tui_glyph(TUI_G_PADKEY) : " ");
        for (int j = 0; j < n; j++) {
            const char *g = tui_shade(h->top > 0.0 ? h->cell[i][j] / h->top : 0.0);
            pane_putc(p, h->pad_col[j] ? TUI_PAD : TUI_REAL, row + 1 + i, 6 + 2 * j, 2, "%s%s", g, g);
        }
    }
    int y = row + 1 + n;
    for (int j = 0; j < n; j++)
        pane_putc(p, h->pad_col[j] ? TUI_PAD : TUI_DIM, y, 6 + 2 * j, 2, "%s ",
                  h->pad_col[j] ? tui_glyph(TUI_G_PADKEY) : "'");
    pane_putc(p, TUI_DIM, y + 1, 6, 2 * n + 8, "0%*d", 2 * n - 1, T - 1);
    pane_put(p, y + 2, 0, legend_w, "%s a block with pads", tui_glyph(TUI_G_PADKEY));
    pane_put(p, y + 3, 0, legend_w, "weight 0 %s%s%s%s %.2g", tui_shade(0.25), tui_shade(0.5), tui_shade(0.75),
             tui_shade(1.0), h->top);
}

static void figures(TuiPane *p, int row, int col, const PlProbeAttention *r) {
    int w = p->box.w - col;
    pane_put(p, row++, col, w, "pad weight %.2f in %dx%d rows", (double)r->leak_total, r->L, r->heads);
    pane_put(p, row++, col, w, "  largest one weight %.4f", (double)r->pad_weight_max);
    pane_put(p, row++, col, w, "|row sum - 1| <= %.1e, NaN %d", (double)r->row_sum_error_max, r->nan_count);
    pane_put(p, row++, col, w, "queries seeing no key %d (zeros)", r->empty_rows);
    pane_put(p, row++, col, w, "short vs long partner:");
    pane_putc(p, r->batch_invariance_max_diff > 0.0f ? TUI_WARN : TUI_GOOD, row++, col, w, "  outputs differ %.2g",
              (double)r->batch_invariance_max_diff);
    pane_put(p, row++, col, w, "packed vs padded+mask %.2g", (double)r->packed_vs_padded_max_diff);
    pane_put(p, row++, col, w, "zeroing pads after the");
    pane_put(p, row++, col, w, "  softmax: a row sums %.3f", (double)r->wrong_fix_min_sum);
    pane_put(p, row++, col, w, "score cells per head:");
    pane_put(p, row++, col, w, "  %lld padded, %lld packed", (long long)r->padded_cells, (long long)r->packed_cells);
}

void tui_view_attention(PlLab *lab, TuiPane *p) {
    PlResultStatus st;
    const PlProbeAttention *r = pl_lab_view_result(lab, PL_VIEW_ATTENTION, PL_R_ATTENTION, &st);
    char src[256];
    tui_source(st.info, TUI_SRC_FOCUS | TUI_SRC_WEIGHTS, src, sizeof src);
    const char *look = r && r->mask ? "the pad key columns: with the mask on they get exactly nothing"
                                    : "the pad key columns: with the mask off the real queries pay them";
    if (!tui_header(p, "attention: where the example's queries put their weight (head 0)", src, look, &st, r != NULL))
        return;
    int row = 3;
    TuiColor c = r->pad_share > 0.0f ? TUI_WARN : TUI_GOOD;
    pane_putc(p, c, row++, 0, p->box.w, "mask %s: a real query puts %.1f%% of its weight on pads (%d real of %d keys)",
              r->mask ? "on" : "off", 100.0 * (double)r->pad_share, r->L, r->T);
    int room = p->box.h - p->fixed - 6, side = room < (p->box.w - 45) / 2 ? room : (p->box.w - 45) / 2;
    side = side > MAX_SIDE ? MAX_SIDE : side < 6 ? 6 : side;
    int n = r->T < side ? r->T : side;
    Heat h;
    heat_blocks(&h, r, n);
    int col = 6 + 2 * n + 2, beside = p->box.w - col >= 36;
    heat_draw(p, row, &h, beside ? col - 1 : p->box.w);
    if (beside) figures(p, row, col, r);
    else figures(p, row + n + 6, 0, r);
}
