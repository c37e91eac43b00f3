/* The batch view (the current batch, cell by cell) and the masks view (its
 * mask in the four conventions, and the inverted-polarity bug measured). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app/report/report.h"
#include "views.h"

#define LABEL 13 /* "  4048  91" and a marker */

/* The mask of row i in its convention, squeezed like the cells above it. */
static void mask_row(TuiPane *p, int row, int col, int w, const PlProbeBatch *r, int i) {
    const PlBatch *b = r->batch;
    int cols = b->T < w ? b->T : w;
    for (int c = 0; c < cols; c++) {
        size_t at = (size_t)i * b->T + (size_t)((int64_t)c * b->T / cols);
        const char *s = r->conv == PL_MASK_ADDITIVE ? (r->additive[at] == 0.0f ? "0" : "-")
                        : r->conv_mask[at]          ? "1"
                                                    : "0";
        pane_putc(p, TUI_DIM, row, col + c, 1, "%s", s);
    }
}

/* Tokens truncation cut from row i: a mark on the side they were cut from. */
static void cut_mark(TuiPane *p, int row, const PlBatch *b, int i, int grid_w, PlSide truncating) {
    if (b->orig_len[i] <= b->len[i]) return;
    int col = truncating == PL_PRE ? LABEL : LABEL + 1 + (b->T < grid_w ? b->T : grid_w);
    pane_putc(p, TUI_TRUNC, row, col, 1, "%s", tui_glyph(TUI_G_CUT));
}

/* The columns a row of T cells is drawn in: T at one character per cell
 * (f), else squeezed to what the pane has. */
static int grid_width(const TuiPane *p, int T) {
    int gw = p->box.w - LABEL - 2;
    return p->full || gw > T ? T : gw < 1 ? 1 : gw;
}

static void padded_rows(TuiPane *p, int *row, const PlProbeBatch *r, const PlLabSettings *s) {
    const PlBatch *b = r->batch;
    int gw = grid_width(p, b->T);
    for (int i = 0; i < b->B; i++, *row += 2) {
        int mine = i == r->pick.at;
        char len[64]; /* the example's row: its kept tokens */
        if (mine) pl_fig(len, sizeof len, "batch.example_kept", "%4d", b->len[i]);
        else snprintf(len, sizeof len, "%4d", b->len[i]);
        pane_putc(p, mine ? TUI_SELECTED : TUI_NORMAL, *row, 0, LABEL, "%s%6d %s", mine ? ">" : " ", b->row[i], len);
        cut_mark(p, *row, b, i, gw, (PlSide)s->truncating);
        tui_cells(p, *row, LABEL + 1, gw, b->mask + (size_t)i * b->T, b->T);
        pane_putc(p, TUI_DIM, *row + 1, 0, LABEL, "   mask %s", pl_mask_conv_name(r->conv));
        mask_row(p, *row + 1, LABEL + 1, gw, r, i);
    }
}

/* Brings the example's row (pane row ex) into view, under the counts when
 * it fits: before anything scrolled is drawn, so that no line is drawn at
 * two scrolls. The body starts at a row's own line (the one before the
 * example's), never at a mask line. */
static void follow_example(TuiPane *p, int ex) {
    if (!p->follow) return;
    int body = p->box.h - p->fixed, first = ex > p->fixed + 5 ? ex - 2 : ex;
    p->scroll = ex + 2 - p->fixed > body ? first - p->fixed : 0;
    p->follow = 0;
}

/* A packed batch: one row, the sequences back to back, a bar where one ends. */
static void packed_row(TuiPane *p, int *row, const PlProbeBatch *r) {
    const PlBatchPick *k = &r->pick;
    int w = p->box.w - 2, T = k->width, cols = p->full || T < w ? T : w;
    *row +=
        pane_wrap(p, TUI_NORMAL, *row, 0, "one row of %s tokens: %s review%s back to back, no pads; %s where one ends",
                  PL_FIG("batch.width", "%d", T), PL_FIG("batch.rows", "%d", k->B),
                  k->B == 1 && !tui_hidden("batch.rows") ? "" : "s", tui_glyph(TUI_G_BOUND));
    for (int c = 0, seq = 0; c < cols; c++) {
        int a = (int)((int64_t)c * T / cols), z = (int)((int64_t)(c + 1) * T / cols), bound = 0;
        while (seq < k->B && k->cu_seqlens[seq + 1] <= a) seq++;
        for (int q = 1; q < k->B; q++) bound |= k->cu_seqlens[q] > a && k->cu_seqlens[q] <= z && k->cu_seqlens[q] != T;
        TuiColor color = seq == k->at ? TUI_SELECTED : seq % 2 ? TUI_GOOD : TUI_REAL;
        pane_putc(p, bound ? TUI_TRUNC : color, *row, c, 1, "%s",
                  bound ? tui_glyph(TUI_G_BOUND) : tui_glyph(TUI_G_REAL));
    }
    (*row) += 2;
    char line[4096] = "cu_seqlens";
    for (int i = 0; i <= k->B && strlen(line) < sizeof line - 16; i++)
        snprintf(line + strlen(line), sizeof line - strlen(line), " %d", k->cu_seqlens[i]);
    for (const char *s = line; *s; (*row)++) { /* wrapped over as many rows as it takes */
        int n = (int)strlen(s) < p->box.w ? (int)strlen(s) : p->box.w;
        while (n < (int)strlen(s) && n > 0 && s[n] != ' ') n--;
        if (n == 0) n = p->box.w;
        pane_put(p, *row, 0, n, "%.*s", n, s);
        s += n;
        while (*s == ' ') s++;
    }
    *row += pane_wrap(p, TUI_NORMAL, *row, 0, "the example (highlighted) is sequence %d: tokens %d..%d", k->at,
                      k->cu_seqlens[k->at], k->cu_seqlens[k->at + 1] - 1);
}

/* The same documents as a flattening collator packs them (the packing
 * probe: the example and the rows after it): positions restarting at 0 in
 * each, the boundaries read back from them, and what a plain causal mask
 * and unmasked boundary labels would do. */
static void packing_rows(TuiPane *p, int *row, PlLab *lab) {
    PlResultStatus st;
    const PlProbePacking *k = pl_lab_view_result(lab, PL_VIEW_BATCH, PL_R_PACKING, &st);
    (*row)++;
    if (!k) {
        *row += pane_wrap(p, TUI_DIM, *row, 0, "padding-free packing: %s", st.error ? st.error : "computing...");
        return;
    }
    *row += pane_wrap(p, TUI_NORMAL, *row, 0,
                      "padding-free (DataCollatorWithFlattening): %s reviews from the example, %s tokens",
                      PL_FIG("packing.documents", "%d", k->D), PL_FIG("packing.tokens", "%d", k->N));
    char line[4096];
    int n = snprintf(line, sizeof line, "position_ids");
    /* document 0 is the example: its last position and its end in cu_seqlens give its kept tokens */
    for (int d = 0; d < k->D && n < (int)sizeof line - 240; d++) { /* each document counts from 0 again */
        char fig[192];
        n += snprintf(line + n, sizeof line - (size_t)n, "%s 0 1 .. %s", d ? " |" : "",
                      pl_fig(fig, sizeof fig, d ? "" : "batch.example_kept", "%d", k->len[d] - 1));
    }
    *row += pane_wrap(p, TUI_NORMAL, *row, 2, "%s", line);
    n = snprintf(line, sizeof line, "cu_seqlens, read back from the position ids:");
    for (int d = 0; d <= k->n_read && n < (int)sizeof line - 240; d++) {
        char fig[192];
        n += snprintf(line + n, sizeof line - (size_t)n, " %s",
                      pl_fig(fig, sizeof fig, d == 1 ? "batch.example_kept" : "", "%d", k->cu_read[d]));
    }
    *row += pane_wrap(p, TUI_NORMAL, *row, 2, "%s", line);
    *row += pane_wrap(p, TUI_WARN, *row, 2,
                      "a plain causal mask over the row: %s of the attention crosses to earlier reviews",
                      PL_FIG("packing.cross_share", "%.1f%%", 100.0 * (double)k->cross_row));
    n = snprintf(line, sizeof line, "per document");
    for (int d = 0; d < k->D && n < (int)sizeof line - 200; d++) {
        char fig[192];
        n += snprintf(line + n, sizeof line - (size_t)n, " %s",
                      pl_fig(fig, sizeof fig, "packing.cross_share", "%.1f%%", 100.0 * (double)k->cross[d]));
    }
    *row += pane_wrap(p, TUI_DIM, *row, 4, "%s; a document mask against each review alone %s", line,
                      PL_FIG("packing.document_mask", "%.2g", (double)k->aware_max_diff));
    *row += pane_wrap(p, TUI_NORMAL, *row, 2, "labels -100 at each review's first token: %s loss terms",
                      PL_FIG("packing.loss_terms", "%ld", k->loss_terms));
    *row += pane_wrap(p, TUI_WARN, *row, 4,
                      "without them %s, %s of which predict a review's first token from another's last",
                      PL_FIG("packing.unmasked_terms", "%ld", k->loss_terms_unmasked),
                      PL_FIG("packing.boundary_terms", "%ld", k->boundary_terms));
}

static void example_words(TuiPane *p, int row, PlLab *lab, const PlProbeBatch *r, const PlLabSettings *s) {
    const PlBatch *b = r->batch;
    const PlCorpus *c = pl_lab_corpus(lab);
    int i = r->pick.packed ? 0 : r->pick.at, L = pl_corpus_len(c, r->pick.rows[r->pick.at]);
    int kept = r->pick.packed ? r->pick.cu_seqlens[r->pick.at + 1] - r->pick.cu_seqlens[r->pick.at] : b->len[i];
    /* what was cut is the tokens less the kept: it tells either of them; with none cut the tokens are the kept */
    if (L > kept)
        pane_putc(p, TUI_TRUNC, row, 0, p->box.w, "example %d: %s tokens, %s kept, %s cut from the %s (truncating %s)",
                  r->pick.rows[r->pick.at], PL_FIG("batch.example_tokens", "%d", L),
                  PL_FIG("batch.example_kept", "%d", kept),
                  PL_FIG("batch.example_tokens,batch.example_kept", "%d", L - kept),
                  s->truncating == PL_PRE ? "start" : "end", pl_side_name((PlSide)s->truncating));
    else
        pane_put(p, row, 0, p->box.w, "example %d: %s tokens, none cut", r->pick.rows[r->pick.at],
                 PL_FIG("batch.example_tokens,batch.example_kept", "%d", L));
    char words[1024] = "";
    const int32_t *seq = pl_corpus_seq(c, r->pick.rows[r->pick.at]);
    int from = s->truncating == PL_PRE ? L - kept : 0;
    for (int t = from; t < from + kept && strlen(words) < sizeof words - 40; t++)
        snprintf(words + strlen(words), sizeof words - strlen(words), "%s ", pl_corpus_word(c, seq[t]));
    pane_putc(p, TUI_DIM, row + 1, 0, p->box.w, "  %s", words);
}

void tui_view_batch(PlLab *lab, TuiPane *p) {
    PlResultStatus st;
    const PlProbeBatch *r = pl_lab_view_result(lab, PL_VIEW_BATCH, PL_R_BATCH, &st);
    char src[256];
    tui_source(st.info, TUI_SRC_BATCH, src, sizeof src);
    if (!tui_header(p, "batch: the batch that holds the example, cell by cell", src,
                    "each row's pads and cut end, and the mask under it (j/k scroll)", &st, r != NULL))
        return;
    const PlLabSettings *s = &st.info->settings;
    int row = p->fixed;
    p->fixed = p->box.h; /* the counts stay in view while the rows scroll */
    /* the mask's and the labels' counts are the real tokens when they agree: the same figure */
    row +=
        pane_wrap(p, r->agree ? TUI_GOOD : TUI_WARN, row, 0, "real tokens %s, mask marks %s real, labels count %s: %s",
                  PL_FIG("batch.real_tokens", "%ld", r->real_tokens), PL_FIG("batch.real_tokens", "%ld", r->mask_real),
                  PL_FIG("batch.real_tokens", "%ld", r->label_positions), r->agree ? "they agree" : "they disagree");
    p->fixed = row;
    /* the padded rows start under the legend (1 line), the example's words (2) and the scale (1) */
    if (!r->pick.packed) follow_example(p, row + 4 + 2 * r->pick.at);
    int T = r->pick.packed ? r->pick.width : r->batch->T, gw = r->pick.packed ? p->box.w - 2 : grid_width(p, T);
    if (gw > T) gw = T;
    pane_putc(p, TUI_REAL, row, 0, 2, "%s", tui_glyph(TUI_G_REAL));
    pane_put(p, row, 2, 6, "real");
    pane_putc(p, TUI_PAD, row, 8, 2, "%s", tui_glyph(TUI_G_PAD));
    pane_put(p, row, 10, 12, "pad (%s)", pl_side_name((PlSide)s->padding));
    pane_putc(p, TUI_TRUNC, row, 22, 2, "%s", tui_glyph(TUI_G_CUT));
    pane_put(p, row, 24, p->box.w - 24, "cut (truncating %s)   rows: review, tokens kept",
             pl_side_name((PlSide)s->truncating));
    row++;
    example_words(p, row, lab, r, s);
    row += 2;
    if (gw < T) { /* squeezed: say by how much, and what a column holding both is */
        pane_putc(p, TUI_WARN, row, 0, 1, "%s", tui_glyph(TUI_G_MIXED));
        pane_putc(p, TUI_WARN, row, 2, p->box.w - 2,
                  "real and pad in one char; 1 char = %s cells (%s in %d); f: 1 per cell",
                  PL_FIG("batch.width", "%.3g", (double)T / gw), PL_FIG("batch.width", "%d", T), gw);
    } else
        pane_putc(p, TUI_DIM, row, 0, p->box.w, "1 char = 1 cell (%s cells)%s", PL_FIG("batch.width", "%d", T),
                  p->full ? "; f squeezes, < > scroll" : "");
    row++;
    if (r->pick.packed) packed_row(p, &row, r), packing_rows(p, &row, lab);
    else padded_rows(p, &row, r, s);
}

/* ---- masks ---- */

static const char *keep_text(PlMaskConv c) {
    static const char *const t[] = {"1 = keep", "1 = ignore", "1 = keep", "0 keep/-inf"};
    return t[c];
}

static void mask_cells(TuiPane *p, int row, int col, int w, const PlProbeMasks *m, PlMaskConv c) {
    int T = m->T, cols = T < w ? T : w;
    for (int k = 0; k < cols; k++) {
        size_t at = (size_t)m->row * T + (size_t)((int64_t)k * T / cols);
        int pad = !m->keras[at];
        const char *s = c == PL_MASK_KERAS   ? (m->keras[at] ? "1" : "0")
                        : c == PL_MASK_TORCH ? (m->torch[at] ? "1" : "0")
                        : c == PL_MASK_HF    ? (m->hf[at] ? "1" : "0")
                                             : (m->additive[at] == 0.0f ? "0" : "-");
        pane_putc(p, pad ? TUI_PAD : TUI_REAL, row, col + k, 1, "%s", s);
    }
}

/* Masks as rules: every rule of the batch counted per tile as a
 * block-sparse kernel sees it, and what a dense mask would take instead. */
/* The rules' tiles; returns the row of their heading, or -1 while they compute. */
static int blocks_rows(TuiPane *p, int *row, PlLab *lab) {
    PlResultStatus st;
    const PlProbeBlocks *k = pl_lab_view_result(lab, PL_VIEW_MASKS, PL_R_BLOCKS, &st);
    (*row)++;
    if (!k) {
        *row += pane_wrap(p, TUI_DIM, *row, 0, "masks as rules: %s", st.error ? st.error : "computing...");
        return -1;
    }
    int heading = *row;
    *row +=
        pane_wrap(p, TUI_NORMAL, *row, 0, "masks as rules: %s tiles of %s x %s, as FlexAttention's BlockMask sees them",
                  PL_FIG("blocks.tiles", "%lld", (long long)k->tiles), PL_FIG("blocks.block", "%d", k->block),
                  PL_FIG("blocks.block", "%d", k->block));
    pane_putc(p, TUI_DIM, (*row)++, 2, p->box.w - 2, "%-16s %8s %8s %8s %9s", "rule", "skipped", "partial", "full",
              "computed");
    for (int r = 0; r < PL_RULE_COUNT; r++) {
        const PlBlockCount *n = &k->rules[r];
        const char *name = pl_mask_rules[r].name;
        char q[4][96];
        snprintf(q[0], sizeof q[0], "blocks.empty(%s)", name);
        snprintf(q[1], sizeof q[1], "blocks.partial(%s)", name);
        snprintf(q[2], sizeof q[2], "blocks.full(%s)", name);
        snprintf(q[3], sizeof q[3], "blocks.computed_share(%s)", name);
        char d[4][32]; /* each cell drawn, then padded: a hidden one keeps its column */
        pane_put(p, (*row)++, 2, p->box.w - 2, "%-16s %s %s %s %s", name,
                 tui_cell(PL_FIG(q[0], "%ld", n->empty), 8, d[0], 32),
                 tui_cell(PL_FIG(q[1], "%ld", n->partial), 8, d[1], 32),
                 tui_cell(PL_FIG(q[2], "%ld", n->full), 8, d[2], 32),
                 tui_cell(PL_FIG(q[3], "%.1f%%", 100.0 * n->computed_share), 9, d[3], 32));
    }
    *row += pane_wrap(p, TUI_DIM, *row, 2, "computed: score cells in visited tiles, of the dense B x T x T");
    *row += pane_wrap(p, TUI_NORMAL, *row, 0, "a dense (B,1,T,T) mask takes %s bytes as bool, %s as float32;",
                      PL_FIG("blocks.dense_bool_bytes", "%lld", (long long)k->dense_bool_bytes),
                      PL_FIG("blocks.dense_float_bytes", "%lld", (long long)k->dense_float_bytes));
    *row += pane_wrap(p, TUI_NORMAL, *row, 2, "a rule is a function: its BlockMask takes %s bytes (%s forward)",
                      PL_FIG("blocks.block_mask_bytes", "%lld", (long long)k->block_mask_bytes),
                      PL_FIG("blocks.block_mask_forward_bytes", "%lld", (long long)k->block_mask_forward_bytes));
    return heading;
}

static int masks_body(PlLab *lab, TuiPane *p, const PlProbeMasks *m);

void tui_view_masks(PlLab *lab, TuiPane *p) {
    PlResultStatus st;
    const PlProbeMasks *m = pl_lab_view_result(lab, PL_VIEW_MASKS, PL_R_MASKS, &st);
    char src[256];
    tui_source(st.info, TUI_SRC_FOCUS | TUI_SRC_WEIGHTS, src, sizeof src);
    if (!tui_header(p, "masks: one mask, four conventions, and the bug of mixing them up", src,
                    "the same cells four ways; then HF's mask given as PyTorch's key_padding_mask", &st, m != NULL))
        return;
    if (p->follow) { /* the rules' heading at the top: laid out unseen first, so no line is drawn at two scrolls */
        int keep = p->scroll;
        p->scroll = 1 << 20;
        int heading = masks_body(lab, p, m);
        p->scroll = heading >= 0 ? heading - p->fixed : keep;
        p->follow = heading < 0; /* the tiles still computing: once they are here */
    }
    masks_body(lab, p, m);
}

/* The view under its header; returns the row of the rules' heading, or -1. */
static int masks_body(PlLab *lab, TuiPane *p, const PlProbeMasks *m) {
    const PlLabSettings *s = pl_lab_settings(lab);
    int row = p->fixed, w = p->box.w - 24 < 40 ? p->box.w - 24 : 40;
    /* the example's row is the batch view's (the close-up keeps the batch's width) */
    row += pane_wrap(p, TUI_NORMAL, row, 0, "example %d: %s real tokens, %s pads (- in additive = -inf)",
                     m->example[m->row], PL_FIG("batch.example_kept", "%d", m->len[m->row]),
                     PL_FIG("batch.example_pads", "%d", m->pads[m->row]));
    for (int c = 0; c < 4; c++, row += 2) {
        int mine = c == s->convention;
        pane_putc(p, mine ? TUI_SELECTED : TUI_NORMAL, row, 0, 22, "%-9s %s", pl_mask_conv_name((PlMaskConv)c),
                  keep_text((PlMaskConv)c));
        mask_cells(p, row, 23, w, m, (PlMaskConv)c);
        pane_putc(p, TUI_DIM, row + 1, 2, p->box.w - 2, "%s", pl_mask_conv_code((PlMaskConv)c));
    }
    /* agreeing, the one count is every convention's: the close-up rows' real tokens (80 columns hold it) */
    char rows[48];
    if (m->B == 1) snprintf(rows, sizeof rows, "the row's real tokens");
    else snprintf(rows, sizeof rows, "the %d rows' real tokens", m->B);
    pane_putc(p, m->agree ? TUI_GOOD : TUI_WARN, row++, 0, p->box.w,
              "each read its own way, all four keep %s cells: %s",
              PL_FIG(m->agree ? "masks.keep(keras),masks.keep(torch),masks.keep(hf),masks.keep(additive)"
                              : "masks.keep(keras)",
                     "%ld", m->keep[0]),
              m->agree ? rows : "they disagree");
    char note[300];
    if (m->real_pad_ids) row += pane_wrap(p, TUI_WARN, row, 0, "%s", pl_report_masks_ids_note(m, note, sizeof note));
    row++;
    row += pane_wrap(p, TUI_NORMAL, row, 0, "a real token's attention on pads, over %s rows with pads (%ld tokens):",
                     PL_FIG("masks.padded_rows", "%d", m->padded_rows), m->padded_queries);
    if (!m->padded_rows) {
        row +=
            pane_wrap(p, TUI_DIM, row, 2, "%s",
                      PL_FIG("masks.padded_rows", "no row here has a pad: raise maxlen or pick a shorter example (n)"));
    } else {
        row += pane_wrap(p, TUI_NORMAL, row, 2, "key_padding_mask = the torch mask   %s",
                         PL_FIG("masks.share_right", "%5.1f%%", 100.0 * (double)m->share_right));
        row += pane_wrap(p, TUI_NORMAL, row, 2, "no mask at all                      %s",
                         PL_FIG("masks.share_none", "%5.1f%%", 100.0 * (double)m->share_none));
        row += pane_wrap(
            p, TUI_WARN, row, 2, "key_padding_mask = the hf mask      %s",
            PL_FIG("masks.share_inverted", "%5.1f%%: only the pads are seen", 100.0 * (double)m->share_inverted));
    }
    /* hidden, the line stands whether there are such rows or not: its absence would say there are none */
    int one = m->blind_rows == 1 && !tui_hidden("masks.blind_rows"); /* hidden, the plural: it tells nothing */
    if (m->blind_rows || tui_hidden("masks.blind_rows"))
        row += pane_wrap(p, TUI_WARN, row, 2, "%s",
                         PL_FIG("masks.blind_rows",
                                "%d row%s with no pad see%s no key: NaN from torch.softmax, zeros from SDPA",
                                m->blind_rows, one ? "" : "s", one ? "s" : ""));
    return blocks_rows(p, &row, lab);
}
