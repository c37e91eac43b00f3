/* The attention view: head 0's softmax weights of the example as a map of
 * weight relative to uniform, one character per block of keys and one line
 * per block of queries (the blocks and their values come from the app
 * layer's map, app/lab/attmap.h), the pad key columns marked under it, each
 * row's share of weight on pads as a bar beside it, and the figures.
 *
 * Layout (columns):
 *   0..3 the block's first query, 4 a pad-query mark, 6.. the map (nk),
 *   then a space, the pad-share bar (BAR_W) and its percentage (5). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app/lab/attmap.h"
#include "views.h"

#define MAP_X 6
#define BAR_W 8
#define BESIDE_W 36 /* the figures' column when they go beside the map */

/* The glyph of a log2 relative weight, rounded to a power of two from 1/8
 * to 8 (so an even spread, about 1, never straddles two glyphs); a block
 * the mask hides from its queries is "-". */
static const char *rel_glyph(float r, int ascii) {
    static const char *const uni[] = {"\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2588"};
    static const char *const asc[] = {".", ":", "~", "=", "+", "*", "#"};
    if (isnan(r)) return "-";
    int k = (int)lrintf(r < -3.0f ? -3.0f : r > 3.0f ? 3.0f : r) + 3;
    return ascii ? asc[k] : uni[k];
}

/* The terminal draws ASCII when its full shade is '#' (--ascii, or a locale
 * without UTF-8). */
static int ascii_terminal(void) { return tui_shade(1.0)[0] == '#'; }

/* The map's rows: the block's first query and a pad mark, its cells (pad
 * key blocks in the pad colour, blank while attention.pad_share is hidden),
 * then its real queries' pad share: the figure attention.pad_share is made
 * of, its bar empty and its colour plain while that is hidden. */
static void map_rows(TuiPane *p, int row, const PlAttMap *m, int ascii) {
    int hidden = tui_hidden("attention.pad_share");
    for (int i = 0; i < m->nq; i++) {
        int y = row + i;
        pane_putc(p, TUI_DIM, y, 0, 4, "%4d", pl_attmap_first(m->T, m->qper, i));
        pane_putc(p, TUI_PAD, y, 4, 1, "%s", m->pad_queries[i] ? tui_glyph(TUI_G_PADKEY) : " ");
        for (int j = 0; j < m->nk; j++) /* a pad key's column is the share in a picture: blank while it is hidden */
            pane_putc(p, m->pad_keys[j] ? TUI_PAD : TUI_REAL, y, MAP_X + j, 1, "%s",
                      hidden && m->pad_keys[j] ? " " : rel_glyph(m->rel[(size_t)i * m->nk + j], ascii));
        int bx = MAP_X + m->nk + 1;
        float s = m->share[i];
        if (isnan(s)) {
            pane_putc(p, TUI_DIM, y, bx, BAR_W + 5, "%-*s", BAR_W + 5, "pad rows");
            continue;
        }
        TuiColor c = hidden ? TUI_NORMAL : s > 0.0f ? TUI_WARN : TUI_GOOD;
        pane_bar(p, y, bx, BAR_W, hidden ? 0.0 : (double)s, c);
        pane_putc(p, c, y, bx + BAR_W, 5, "%s", PL_FIG("attention.pad_share", "%4.0f%%", 100.0 * (double)s));
    }
}

/* Under the map: the pad key blocks marked, then each tenth column's first
 * key at that column. */
static void key_axis(TuiPane *p, int row, const PlAttMap *m) {
    for (int j = 0; j < m->nk; j++)
        pane_putc(p, m->pad_keys[j] ? TUI_PAD : TUI_DIM, row, MAP_X + j, 1, "%s",
                  m->pad_keys[j] ? tui_glyph(TUI_G_PADKEY) : " ");
    pane_putc(p, TUI_DIM, row, 0, MAP_X, "pads");
    pane_putc(p, TUI_DIM, row + 1, 0, MAP_X, "key");
    int free_at = 0; /* a label never runs into the next */
    for (int j = 0; j < m->nk; j += 10) {
        char n[16];
        int len = snprintf(n, sizeof n, "%d", pl_attmap_first(m->T, m->kper, j));
        if (j < free_at || j + len > m->nk + 4) continue;
        pane_putc(p, TUI_DIM, row + 1, MAP_X + j, len, "%s", n);
        free_at = j + len + 1;
    }
}

/* What a cell and a line cover, and the glyphs' legend: four short lines. */
static void legend(TuiPane *p, int row, const PlAttMap *m, int w, int ascii) {
    char keys[24], queries[24];
    snprintf(keys, sizeof keys, m->kper == 1 ? "1 key" : "%d keys", m->kper);
    snprintf(queries, sizeof queries, m->qper == 1 ? "1 query" : "%d queries", m->qper);
    pane_put(p, row, 0, w, "a cell: %s x %s, its mean", keys, queries);
    pane_put(p, row + 1, 0, w, "weight / uniform (1/keys seen):");
    pane_put(p, row + 2, 0, w, "%s1/8 %s1/4 %s1/2 %s1 %s2 %s4 %s8+", rel_glyph(-3, ascii), rel_glyph(-2, ascii),
             rel_glyph(-1, ascii), rel_glyph(0, ascii), rel_glyph(1, ascii), rel_glyph(2, ascii), rel_glyph(3, ascii));
    pane_put(p, row + 3, 0, w, "- hidden by the mask  %s pad%s", tui_glyph(TUI_G_PADKEY),
             tui_hidden("attention.pad_share") ? "  (pad key columns: hidden until you answer)" : "");
}

/* The figures, each marked with its quantity; a colour that tells a hidden
 * figure's sign is plain while it is hidden. Head 0's share on pads is the
 * view's pad share read on one head. */
static void figures(TuiPane *p, int row, int col, const PlProbeAttention *r) {
    int w = p->box.w - col;
    double inv = (double)r->batch_invariance_max_diff;
    TuiColor head = tui_hidden("attention.pad_share") ? TUI_NORMAL : r->head_pad_share[0] > 0.0f ? TUI_WARN : TUI_GOOD;
    TuiColor differ = tui_hidden("attention.invariance") ? TUI_NORMAL : inv < 1e-6 ? TUI_GOOD : TUI_WARN;
    pane_putc(p, head, row++, col, w, "head 0: %s on pads",
              PL_FIG("attention.pad_share", "%.1f%%", 100.0 * (double)r->head_pad_share[0]));
    pane_put(p, row++, col, w, "pad weight %s in %sx%s rows",
             PL_FIG("attention.leak_total", "%.2f", (double)r->leak_total), PL_FIG("attention.real", "%d", r->L),
             PL_FIG("attention.heads", "%d", r->heads));
    pane_put(p, row++, col, w, "  largest one weight %s",
             PL_FIG("attention.pad_weight_max", "%.4f", (double)r->pad_weight_max));
    pane_put(p, row++, col, w, "|row sum - 1| <= %s, NaN %s",
             PL_FIG("attention.row_sum_error", "%.1e", (double)r->row_sum_error_max),
             PL_FIG("attention.nan", "%d", r->nan_count));
    pane_put(p, row++, col, w, "queries seeing no key %s (zeros)", PL_FIG("attention.empty_rows", "%d", r->empty_rows));
    pane_put(p, row++, col, w, "short vs long partner:");
    pane_putc(p, differ, row++, col, w, "  outputs differ %s", PL_FIG("attention.invariance", "%.2g", inv));
    pane_put(p, row++, col, w, "packed vs padded+mask %s",
             PL_FIG("attention.packed_vs_padded", "%.2e", (double)r->packed_vs_padded_max_diff));
    pane_put(p, row++, col, w, "zeroing pads after the");
    pane_put(p, row++, col, w, "  softmax: a row sums %s",
             PL_FIG("attention.wrong_fix_sum", "%.3f", (double)r->wrong_fix_min_sum));
    pane_put(p, row++, col, w, "score cells per head:");
    pane_put(p, row++, col, w, "  %s padded, %s packed",
             PL_FIG("attention.padded_cells", "%lld", (long long)r->padded_cells),
             PL_FIG("attention.packed_cells", "%lld", (long long)r->packed_cells));
}

void tui_view_attention(PlLab *lab, TuiPane *p) {
    PlResultStatus st;
    const PlProbeAttention *r = pl_lab_view_result(lab, PL_VIEW_ATTENTION, PL_R_ATTENTION, &st);
    char src[256];
    tui_source(st.info, TUI_SRC_FOCUS | TUI_SRC_WEIGHTS, src, sizeof src);
    /* what to look at says what the weight on pads comes to: with the mask, nothing, to the last weight */
    char look[256];
    if (r && r->mask)
        pl_fig(look, sizeof look, "attention.pad_share,attention.pad_weight_max",
               "the pad key columns: with the mask on they get exactly nothing");
    else
        pl_fig(look, sizeof look, "attention.pad_share",
               "the pad key columns: with the mask off the real queries pay them");
    if (!tui_header(p, "attention: where one review's weight goes (head 0)", src, look, &st, r != NULL)) return;
    int row = p->fixed;
    TuiColor c = tui_hidden("attention.pad_share") ? TUI_NORMAL : r->pad_share > 0.0f ? TUI_WARN : TUI_GOOD;
    pane_putc(p, c, row++, 0, p->box.w, "mask %s: one review's real queries put %s of their weight on pads",
              r->mask ? "on" : "off", PL_FIG("attention.pad_share", "%.1f%%", 100.0 * (double)r->pad_share));
    int right = MAP_X + 1 + BAR_W + 5 + 1, beside = p->box.w - right - BESIDE_W >= 16;
    int max_k = p->box.w - right - (beside ? BESIDE_W : 0), max_q = p->box.h - p->fixed - 8;
    PlAttMap m;
    if (pl_attmap_make(&m, r, max_q < 4 ? 4 : max_q, max_k < 8 ? 8 : max_k)) {
        pane_putc(p, TUI_WARN, row, 0, p->box.w, "out of memory for the attention map");
        return;
    }
    int ascii = ascii_terminal(), col = MAP_X + m.nk + 1 + BAR_W + 5 + 2;
    pane_putc(p, TUI_DIM, row, 0, MAP_X + m.nk, "query keys ->");
    pane_putc(p, TUI_DIM, row, MAP_X + m.nk + 1, BAR_W + 5, "%% on pads");
    map_rows(p, row + 1, &m, ascii);
    key_axis(p, row + 1 + m.nq, &m);
    legend(p, row + 3 + m.nq, &m, beside ? col - 1 : p->box.w, ascii);
    if (beside) figures(p, row, col, r);
    else figures(p, row + m.nq + 5, 0, r);
    pl_attmap_free(&m);
}
