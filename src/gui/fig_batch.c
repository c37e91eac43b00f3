/* The figures of cells: the current batch (real, pad and cut cells, packed
 * rows with their boundaries), the example's mask in four conventions, and
 * the decoder's left- and right-padded prompts. Pads are hatched as well as
 * grey, cut tokens cross-hatched, so no cell is told by colour alone. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "app/report/report.h"
#include "figures.h"

/* Each number these figures write is marked with its quantity's name
 * (app/lab/ledger.h); a bar that shows one without writing it is left out
 * while the ledger hides it. */

static int hidden(const GuiList *dl, const char *names) { return pl_ledger_hides_name(dl->ledger, names); }

#define FIG PL_FIG /* names "" writes a number that is no quantity: never hidden */

static const GuiKey key_real = {"real token", GUI_C_REAL, GUI_KEY_BOX, 0, GUI_PAT_NONE, 0};
static const GuiKey key_pad = {"pad", GUI_C_PAD, GUI_KEY_BOX, 0, GUI_PAT_HATCH, 0};
static const GuiKey key_cut = {"cut by truncation", GUI_C_TRUNC, GUI_KEY_BOX, 0, GUI_PAT_CROSS, 0};

/* One row of cells from mask (T, 1 = real) over r: a rectangle per run. */
static void cell_row(GuiList *dl, GuiRect r, const uint8_t *mask, int T) {
    double cw = r.w / T;
    for (int a = 0; a < T;) {
        int b = a;
        while (b < T && (mask[b] != 0) == (mask[a] != 0)) b++;
        GuiRect c = {r.x + a * cw, r.y, (b - a) * cw, r.h};
        if (mask[a]) gui_rect(dl, c, GUI_C_REAL);
        else gui_rect_pat(dl, c, GUI_C_PAD, GUI_PAT_HATCH, GUI_C_DIM);
        a = b;
    }
}

/* w into out, shortened (a '.' for what is left out, cut between
 * characters) until it is at most max wide. */
static const char *fit_word(const GuiList *dl, const char *w, double max, char *out, size_t cap) {
    snprintf(out, cap, "%s", w);
    size_t n = strlen(out);
    while (n > 1 && gui_text_w(dl, GUI_SMALL, 0, out) > max) {
        do n--;
        while (n > 1 && ((unsigned char)out[n] & 0xC0) == 0x80);
        out[n - 1] = '.', out[n] = '\0';
    }
    return out;
}

/* Row i's words in its real cells, where a row is a line high and a cell
 * holds a short word: a small batch read as its tokens (a real <pad> among
 * them shows as one), as the terminal's word lines read it; a word wider
 * than its cell is cut, a '.' for the rest. */
static void cell_words(GuiList *dl, GuiRect row, const PlBatch *b, int i, const PlCorpus *c) {
    double u = dl->st->unit, th = gui_text_h(dl, GUI_SMALL), cw = row.w / b->T;
    /* a real <pad> at least as "<pa.", a word cut to the cell (the hover and the terminal have it whole) */
    if (row.h < th + 2 * u || cw < gui_text_w(dl, GUI_SMALL, 0, "<pa.") + 3 * u) return;
    for (int t = 0; t < b->T; t++) {
        size_t at = (size_t)i * b->T + (size_t)t;
        if (!b->mask[at]) continue;
        char w[96];
        gui_text(dl, row.x + (t + 0.5) * cw, row.y + row.h / 2 - th / 2, GUI_SMALL, GUI_C_BG, GUI_CENTER, "%s",
                 fit_word(dl, pl_corpus_word(c, b->ids[at]), cw - 3 * u, w, sizeof w));
    }
}

static const char *mask_text(const PlProbeBatch *r, size_t at, char *buf, int cap) {
    if (r->conv == PL_MASK_ADDITIVE) snprintf(buf, (size_t)cap, "%s", r->additive[at] == 0.0f ? "0" : "-inf");
    else snprintf(buf, (size_t)cap, "%d", r->conv_mask[at]);
    return buf;
}

static void padded(GuiList *dl, PlLab *lab, GuiRect a, const PlProbeBatch *r, const PlLabSettings *s) {
    const PlBatch *b = r->batch;
    const PlCorpus *c = pl_lab_corpus(lab);
    double u = dl->st->unit, label_w = gui_text_w(dl, GUI_SMALL, 1, "> 00000 0000") + 8 * u, cut_w = 40 * u;
    double th = gui_text_h(dl, GUI_SMALL), top = a.y + th + 6 * u;
    char foot[600]; /* wrapped to the figure's width (beside a lesson it is narrow): the rows stop above it */
    snprintf(foot, sizeof foot, "%s x %s; %s padding, truncating %s; mask in the %s convention (hover a cell)",
             PL_FIG("batch.rows", "%d row%s", b->B, b->B == 1 ? "" : "s"), PL_FIG("batch.width", "%d", b->T),
             pl_side_name((PlSide)s->padding), pl_side_name((PlSide)s->truncating), pl_mask_conv_name(r->conv));
    double foot_h = th * gui_wrap_lines(dl, GUI_SMALL, 0, foot, a.w);
    GuiRect grid = {a.x + label_w + cut_w, top, a.w - label_w - 2 * cut_w, a.y + a.h - top - foot_h - 6 * u};
    double rh = grid.h / b->B, gap = rh > 6 * u ? 1.5 * u : 0.0;
    if (rh > 28 * u) rh = 28 * u;
    gui_text_mono(dl, a.x, a.y, GUI_SMALL, GUI_C_DIM, GUI_LEFT, "  review  len");
    gui_text(dl, grid.x, a.y, GUI_SMALL, GUI_C_DIM, GUI_LEFT, "position 0");
    gui_text(dl, grid.x + grid.w, a.y, GUI_SMALL, GUI_C_DIM, GUI_RIGHT, "%d", b->T - 1);
    /* rows thinner than a line are named every few (and the example's always, its neighbours then left out), no
     * two names touching; rows of a line each are all named */
    int every = rh >= th * 0.9 ? 1 : rh > 0 ? (int)fmin(ceil(th * 1.05 / rh), b->B + 1.0) : b->B + 1, pick = r->pick.at;
    for (int i = 0; i < b->B; i++) {
        GuiRect row = {grid.x, grid.y + i * rh, grid.w, rh - gap};
        int mine = i == pick,
            near_mine = every > 1 && pick >= 0 && pick < b->B && !mine && fabs((double)(i - pick)) * rh < th * 1.05;
        const char *kept = mine ? "batch.example_kept" : ""; /* the example's row: its tokens in the batch */
        if (mine || (i % every == 0 && !near_mine))
            gui_text_mono(dl, a.x, row.y + row.h / 2 - th / 2, GUI_SMALL, mine ? GUI_C_SEL : GUI_C_FG, GUI_LEFT,
                          "%s%6d %s", mine ? ">" : " ", b->row[i], FIG(kept, "%4d", b->len[i]));
        cell_row(dl, row, b->mask + (size_t)i * b->T, b->T);
        cell_words(dl, row, b, i, c);
        if (!hidden(dl, kept)) gui_datum(dl, "real tokens", b->row[i], b->len[i], NULL);
        int cut = b->orig_len[i] - b->len[i];
        if (cut > 0) { /* the cut tokens, on the side they were cut from */
            double w = cut_w - 6 * u;
            w *= fmin(1.0, 0.25 + 0.75 * cut / (double)b->T);
            GuiRect m = s->truncating == PL_PRE ? (GuiRect){grid.x - 3 * u - w, row.y, w, row.h}
                                                : (GuiRect){grid.x + grid.w + 3 * u, row.y, w, row.h};
            gui_rect_pat(dl, m, GUI_C_TRUNC, GUI_PAT_CROSS, GUI_C_BG);
            gui_hover(dl, m, "review %d: %d tokens cut from the %s (truncating %s), %s kept", b->row[i], cut,
                      s->truncating == PL_PRE ? "start" : "end", pl_side_name((PlSide)s->truncating),
                      FIG(kept, "%d", b->len[i]));
            gui_datum(dl, "tokens cut", b->row[i], cut, NULL);
        }
        if (mine)
            gui_frame(dl, (GuiRect){row.x - 1.5 * u, row.y - 1.5 * u, row.w + 3 * u, row.h + 3 * u}, GUI_C_SEL, 2 * u);
        if (gui_mouse_in(dl, row)) {
            int t = (int)((dl->mx - row.x) / row.w * b->T);
            t = t < 0 ? 0 : t >= b->T ? b->T - 1 : t;
            size_t at = (size_t)i * b->T + (size_t)t;
            char m[16];
            int32_t id = b->ids[at];
            gui_hover(dl, row, "review %d, position %d: %s (id %d), mask %s (%s), label %d", b->row[i], t,
                      b->mask[at] ? pl_corpus_word(c, id) : "pad", id, mask_text(r, at, m, sizeof m),
                      pl_mask_conv_name(r->conv), r->labels[at]);
        }
    }
    gui_text_wrap(dl, a.x, a.y + a.h - foot_h, a.w, GUI_SMALL, GUI_C_DIM, GUI_LEFT, "%s", foot);
}

/* Lines of text under a figure, each FOOT_LINE bytes: their height at
 * width w (mono: as a table, one per line), and drawing them from y. */
enum { FOOT_LINES = 12, FOOT_LINE = 768 };
typedef struct {
    char text[FOOT_LINES][FOOT_LINE];
    GuiColor color[FOOT_LINES];
    int mono[FOOT_LINES];
    int n;
} Foot;

static void foot_add(Foot *f, GuiColor c, int mono, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void foot_add(Foot *f, GuiColor c, int mono, const char *fmt, ...) {
    if (f->n >= FOOT_LINES) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->text[f->n], FOOT_LINE, fmt, ap);
    va_end(ap);
    f->color[f->n] = c, f->mono[f->n++] = mono;
}

static double foot_height(GuiList *dl, const Foot *f, double w) {
    double th = gui_text_h(dl, GUI_SMALL), h = 0;
    for (int i = 0; i < f->n; i++)
        h += th * (f->mono[i] ? 1 : gui_wrap_lines(dl, GUI_SMALL, 0, f->text[i], w)) + th * 0.1;
    return h;
}

static void foot_draw(GuiList *dl, const Foot *f, double x, double y, double w) {
    double th = gui_text_h(dl, GUI_SMALL);
    for (int i = 0; i < f->n; i++)
        y += (f->mono[i] ? (gui_text_mono(dl, x, y, GUI_SMALL, f->color[i], GUI_LEFT, "%s", f->text[i]), th)
                         : gui_text_wrap(dl, x, y, w, GUI_SMALL, f->color[i], GUI_LEFT, "%s", f->text[i])) +
             th * 0.1;
}

/* The packing probe's lines: the example and the reviews after it as a
 * flattening collator packs them, positions restarting, and what a plain
 * causal mask and unmasked boundary labels would do. */
static void packing_foot(Foot *f, const PlProbePacking *k, const PlResultStatus *st) {
    f->n = 0;
    if (!k) {
        foot_add(f, GUI_C_DIM, 0, "padding-free packing: %s", st->error ? st->error : "computing...");
        return;
    }
    foot_add(f, GUI_C_FG, 0,
             "padding-free, as DataCollatorWithFlattening packs them: %s reviews from the example, %s tokens",
             PL_FIG("packing.documents", "%d", k->D), PL_FIG("packing.tokens", "%d", k->N));
    char line[FOOT_LINE];
    int n = snprintf(line, sizeof line, "position_ids restart at 0 in each review:");
    /* document 0 is the example: its last position and its end in cu_seqlens give its kept tokens */
    for (int d = 0; d < k->D && n < (int)sizeof line - 240; d++) { /* each document counts from 0 again */
        char fig[192];
        n += snprintf(line + n, sizeof line - (size_t)n, "%s 0 1 .. %s", d ? " |" : "",
                      pl_fig(fig, sizeof fig, d ? "" : "batch.example_kept", "%d", k->len[d] - 1));
    }
    foot_add(f, GUI_C_FG, 0, "%s", line);
    n = snprintf(line, sizeof line, "cu_seqlens, read back from the position ids:");
    for (int d = 0; d <= k->n_read && n < (int)sizeof line - 240; d++) {
        char fig[192];
        n += snprintf(line + n, sizeof line - (size_t)n, " %s",
                      pl_fig(fig, sizeof fig, d == 1 ? "batch.example_kept" : "", "%d", k->cu_read[d]));
    }
    foot_add(f, GUI_C_FG, 0, "%s", line);
    n = snprintf(line, sizeof line, "per review");
    for (int d = 0; d < k->D && n < (int)sizeof line - 200; d++) {
        char fig[192];
        n += snprintf(line + n, sizeof line - (size_t)n, " %s",
                      pl_fig(fig, sizeof fig, "packing.cross_share", "%.1f%%", 100.0 * (double)k->cross[d]));
    }
    foot_add(f, GUI_C_WARN, 0,
             "a plain causal mask over the row: %s of the attention crosses to earlier reviews (%s); "
             "a document mask against each review alone: %s",
             PL_FIG("packing.cross_share", "%.1f%%", 100.0 * (double)k->cross_row), line,
             PL_FIG("packing.document_mask", "%.2g", (double)k->aware_max_diff));
    foot_add(f, GUI_C_FG, 0,
             "labels -100 at each review's first token: %s loss terms; without them %s, %s of which "
             "predict a review's first token from another's last",
             PL_FIG("packing.loss_terms", "%ld", k->loss_terms),
             PL_FIG("packing.unmasked_terms", "%ld", k->loss_terms_unmasked),
             PL_FIG("packing.boundary_terms", "%ld", k->boundary_terms));
}

static void packed(GuiList *dl, GuiRect a, const PlProbeBatch *r) {
    const PlBatchPick *k = &r->pick;
    double u = dl->st->unit, th = gui_text_h(dl, GUI_SMALL);
    int T = k->width, lines = (int)ceil(T * 3.0 * u / a.w);
    if (lines < 1) lines = 1;
    int per = (T + lines - 1) / lines;
    /* the one row's tokens are its cells and its real tokens too; wrapped, as a narrow figure needs */
    double head = gui_text_wrap(dl, a.x, a.y, a.w, GUI_SMALL, GUI_C_DIM, GUI_LEFT,
                                "one row of %s tokens: %s review%s back to back, no pads; a bar where one ends "
                                "(cu_seqlens)",
                                PL_FIG("batch.width,batch.cells,batch.real_tokens", "%d", T),
                                PL_FIG("batch.rows", "%d", k->B), k->B == 1 && !hidden(dl, "batch.rows") ? "" : "s");
    double lh = (a.h - head - 2 * th) / lines, cw = a.w / per;
    if (lh > 40 * u) lh = 40 * u;
    double y0 = a.y + head + 4 * u;
    for (int q = 0; q < k->B; q++) {
        int s0 = k->cu_seqlens[q], s1 = k->cu_seqlens[q + 1];
        GuiColor col = q == k->at ? GUI_C_SEL : q % 2 ? GUI_C_REAL2 : GUI_C_REAL;
        gui_datum(dl, "cu_seqlens", q, s0, NULL);
        for (int t = s0; t < s1;) { /* the sequence's pieces on each line it spans */
            int line = t / per, end = (line + 1) * per < s1 ? (line + 1) * per : s1;
            GuiRect c = {a.x + (t - line * per) * cw, y0 + line * lh, (end - t) * cw, lh * 0.8};
            gui_rect(dl, c, col);
            gui_hover(dl, c, "sequence %d (review %d): tokens %d..%d, %s long", q, k->rows[q], s0, s1 - 1,
                      FIG(q == k->at ? "batch.example_kept" : "", "%d", s1 - s0));
            t = end;
        }
        int line = s1 / per;
        if (q + 1 < k->B) {
            double bx = a.x + (s1 - line * per) * cw, by = y0 + line * lh;
            gui_line(dl, bx, by - 2 * u, bx, by + lh * 0.8 + 2 * u, GUI_C_FG, 2 * u, 0);
        }
    }
    gui_datum(dl, "cu_seqlens", k->B, k->cu_seqlens[k->B], NULL);
    gui_text(dl, a.x, y0 + lines * lh + 4 * u, GUI_SMALL, GUI_C_FG, GUI_LEFT,
             "the example (highlighted) is sequence %d: tokens %d..%d", k->at, k->cu_seqlens[k->at],
             k->cu_seqlens[k->at + 1] - 1);
}

void gui_fig_batch(GuiList *dl, PlLab *lab, GuiRect r, int *current) {
    PlResultStatus st;
    const PlProbeBatch *b = pl_lab_view_result(lab, PL_VIEW_BATCH, PL_R_BATCH, &st);
    char src[320], look[400] = "";
    gui_fig_source(lab, PL_R_BATCH, &st, src, sizeof src);
    if (b) /* the mask's count and the labels' are the real tokens again, when they agree */
        snprintf(look, sizeof look, "real tokens %s, the mask marks %s real, labels count %s: %s",
                 PL_FIG("batch.real_tokens", "%ld", b->real_tokens),
                 FIG(b->mask_real == b->real_tokens ? "batch.real_tokens" : "", "%ld", b->mask_real),
                 FIG(b->label_positions == b->real_tokens ? "batch.real_tokens" : "", "%ld", b->label_positions),
                 b->agree ? "they agree" : "they disagree");
    *current = b && !st.stale;
    GuiRect a =
        gui_fig_header(dl, r, "batch: the batch that holds the example, cell by cell", src, look, &st, b != NULL);
    if (!b || a.h <= 0) return;
    GuiKey padded_keys[] = {
        key_real, key_pad, key_cut, {"the example", GUI_C_SEL, GUI_KEY_LINE, 0, GUI_PAT_NONE, 2 * dl->st->unit}};
    GuiKey packed_keys[] = {{"a review", GUI_C_REAL, GUI_KEY_BOX, 0, GUI_PAT_NONE, 0},
                            {"the next", GUI_C_REAL2, GUI_KEY_BOX, 0, GUI_PAT_NONE, 0},
                            {"the example", GUI_C_SEL, GUI_KEY_BOX, 0, GUI_PAT_NONE, 0},
                            {"a boundary", GUI_C_FG, GUI_KEY_MARK, 0, GUI_PAT_NONE, 2 * dl->st->unit}};
    const GuiKey *keys = b->pick.packed ? packed_keys : padded_keys;
    int nk = 4;
    double lh = gui_text_h(dl, GUI_SMALL) + 6 * dl->st->unit;
    gui_legend_at(dl, a.x + a.w - gui_legend_width(dl, keys, nk), a.y, keys, nk);
    a.y += lh, a.h -= lh;
    if (b->pick.packed) {
        PlResultStatus kst;
        const PlProbePacking *k = pl_lab_view_result(lab, PL_VIEW_BATCH, PL_R_PACKING, &kst);
        Foot f;
        packing_foot(&f, k, &kst);
        double fh = foot_height(dl, &f, a.w), gap = 12 * dl->st->unit;
        if (a.h - fh - gap >= 6 * gui_text_h(dl, GUI_SMALL)) { /* the row keeps room for a few lines of its cells */
            foot_draw(dl, &f, a.x, a.y + a.h - fh, a.w);
            a.h -= fh + gap;
        }
        packed(dl, a, b);
    } else padded(dl, lab, a, b, &st.info->settings);
}

/* ---- masks ---- */

static const char *keep_text(PlMaskConv c) {
    static const char *const t[] = {"1 = keep", "1 = ignore", "1 = keep", "0 keep, -inf pad"};
    return t[c];
}

/* The names of rule r's figures: its empty, partial and full tiles and its computed share. */
static void rule_names(char q[4][96], int r) {
    static const char *const what[4] = {"empty", "partial", "full", "computed_share"};
    for (int i = 0; i < 4; i++) snprintf(q[i], 96, "blocks.%s(%s)", what[i], pl_mask_rules[r].name);
}

/* One rule's tiles for the brief foot: "causal 32/96/0", each count a figure; its length. */
static size_t brief_rule(char *seg, size_t cap, const PlProbeBlocks *k, int r) {
    const PlBlockCount *c = &k->rules[r];
    const char *name = pl_mask_rules[r].name;
    char q[4][96], fig[3][192];
    rule_names(q, r);
    int n = snprintf(seg, cap, "%s %s/%s/%s", name, pl_fig(fig[0], sizeof fig[0], q[0], "%ld", c->empty),
                     pl_fig(fig[1], sizeof fig[1], q[1], "%ld", c->partial),
                     pl_fig(fig[2], sizeof fig[2], q[2], "%ld", c->full));
    return n < 0 ? 0 : (size_t)n;
}

/* The blocks probe's lines: every rule counted per tile as a block-sparse
 * kernel sees it, and a dense mask's bytes against a block mask's; as a
 * table (pass 0), in a few lines (1, 2), or where to find them (3). */
static void blocks_foot(Foot *f, const PlProbeBlocks *k, const PlResultStatus *st, int pass) {
    f->n = 0;
    if (!k) {
        foot_add(f, GUI_C_DIM, 0, "masks as rules: %s", st->error ? st->error : "computing...");
        return;
    }
    if (pass == 3) { /* no room for a figure: where they are */
        foot_add(f, GUI_C_DIM, 0, "masks as rules: a taller window shows their tiles; e exports them whole");
        return;
    }
    if (pass > 0) { /* every rule's skipped / partial / full tiles, as many rules to a line as it holds, the bytes on
                       another */
        char line[FOOT_LINE], seg[FOOT_LINE];
        size_t n = (size_t)snprintf(line, sizeof line, "masks as rules, %s tiles of %s, skipped / partial / full:",
                                    PL_FIG("blocks.tiles", "%lld", (long long)k->tiles),
                                    PL_FIG("blocks.block", "%d", k->block));
        for (int r = 0; r < PL_RULE_COUNT; r++) {
            size_t m = brief_rule(seg, sizeof seg, k, r);
            if (n + m + 2 >= sizeof line) foot_add(f, GUI_C_FG, 0, "%s", line), n = 0, line[0] = 0;
            n += (size_t)snprintf(line + n, sizeof line - n, "%s%s", n ? (r ? "; " : " ") : "", seg);
        }
        foot_add(f, GUI_C_FG, 0, "%s", line);
        foot_add(f, GUI_C_FG, 0, "a dense (B,1,T,T) mask: %s bytes as bool; the BlockMask: %s (%s forward)",
                 PL_FIG("blocks.dense_bool_bytes", "%lld", (long long)k->dense_bool_bytes),
                 PL_FIG("blocks.block_mask_bytes", "%lld", (long long)k->block_mask_bytes),
                 PL_FIG("blocks.block_mask_forward_bytes", "%lld", (long long)k->block_mask_forward_bytes));
        return;
    }
    foot_add(f, GUI_C_FG, 0,
             "masks as rules: %s tiles of %s x %s as FlexAttention's BlockMask sees them; a tile with no "
             "kept cell is skipped whole, a full one computed with no mask",
             PL_FIG("blocks.tiles", "%lld", (long long)k->tiles), PL_FIG("blocks.block", "%d", k->block),
             PL_FIG("blocks.block", "%d", k->block));
    foot_add(f, GUI_C_DIM, 1, "%-16s %8s %8s %8s %9s", "rule", "skipped", "partial", "full", "computed");
    for (int r = 0; r < PL_RULE_COUNT; r++) {
        const PlBlockCount *n = &k->rules[r];
        const char *name = pl_mask_rules[r].name;
        char q[4][96];
        rule_names(q, r);
        foot_add(f, GUI_C_FG, 1, "%-16s %s %s %s %s", name, PL_FIG(q[0], "%8ld", n->empty),
                 PL_FIG(q[1], "%8ld", n->partial), PL_FIG(q[2], "%8ld", n->full),
                 PL_FIG(q[3], "%8.1f%%", 100.0 * n->computed_share));
    }
    foot_add(
        f, GUI_C_FG, 0,
        "computed: the score cells of the tiles visited, of the dense B x T x T. A dense (B,1,T,T) mask "
        "takes %s bytes as bool, %s as float32; a rule is a function, and its BlockMask takes %s bytes (%s forward)",
        PL_FIG("blocks.dense_bool_bytes", "%lld", (long long)k->dense_bool_bytes),
        PL_FIG("blocks.dense_float_bytes", "%lld", (long long)k->dense_float_bytes),
        PL_FIG("blocks.block_mask_bytes", "%lld", (long long)k->block_mask_bytes),
        PL_FIG("blocks.block_mask_forward_bytes", "%lld", (long long)k->block_mask_forward_bytes));
}

void gui_fig_masks(GuiList *dl, PlLab *lab, GuiRect r, int *current) {
    PlResultStatus st;
    const PlProbeMasks *m = pl_lab_view_result(lab, PL_VIEW_MASKS, PL_R_MASKS, &st);
    char src[320], look[900] = "";
    gui_fig_source(lab, PL_R_MASKS, &st, src, sizeof src);
    if (m) { /* the close-up holds the example at the batch's width: its tokens and pads are the batch view's;
              * keep[0] is every convention's count that equals it, and the real tokens' when they agree */
        char keep[256] = "";
        for (int c = 0; c < 4; c++)
            if (m->keep[c] == m->keep[0]) {
                size_t n = strlen(keep);
                snprintf(keep + n, sizeof keep - n, "%smasks.keep(%s)", n ? "," : "", pl_mask_conv_name((PlMaskConv)c));
            }
        if (m->real_tokens == m->keep[0]) strncat(keep, ",masks.real_tokens", sizeof keep - strlen(keep) - 1);
        snprintf(look, sizeof look,
                 "example %d: %s real tokens, %s pads; over the %d rows each convention read its own way keeps %s "
                 "cells: %s",
                 m->example[m->row], PL_FIG("batch.example_kept", "%d", m->len[m->row]),
                 PL_FIG("batch.example_pads", "%d", m->pads[m->row]), m->B, PL_FIG(keep, "%ld", m->keep[0]),
                 PL_FIG(keep, "%s", m->agree ? "their real tokens" : "they disagree"));
        char note[300];
        if (m->real_pad_ids) /* the code under each row reads ids: where a real token holds the pad's, it says so */
            snprintf(look + strlen(look), sizeof look - strlen(look), ". %s",
                     pl_report_masks_ids_note(m, note, sizeof note));
    }
    *current = m && !st.stale;
    GuiRect a = gui_fig_header(dl, r, "masks: one mask, four conventions, and the bug of mixing them up", src, look,
                               &st, m != NULL);
    if (!m || a.h <= 0) return;
    double u = dl->st->unit, gap = 24 * u, th = gui_text_h(dl, GUI_SMALL);
    /* a convention's row: its name, its cells, its code under them */
    double label_w = gui_text_w(dl, GUI_NORMAL, 0, "additive  0 keep, -inf pad") + 12 * u;
    int code_lines = 1; /* a convention's code wraps in a narrow view */
    for (int c = 0; c < 4; c++)
        code_lines =
            (int)fmax(code_lines, gui_wrap_lines(dl, GUI_SMALL, 1, pl_mask_conv_code((PlMaskConv)c), a.w - label_w));
    double row_need = gui_text_h(dl, GUI_NORMAL) + 2 * u + th + 2 * u + 3 * u + code_lines * th + 4 * u;
    /* The rules' tiles go across the foot: as a table where the conventions
     * keep their rows and the shares their lines, else in a few lines, else
     * in a few lines with the conventions' rows squeezed to their least,
     * else a line saying where they are, else (a window too short for the
     * conventions) nothing. */
    PlResultStatus bst;
    const PlProbeBlocks *bk = pl_lab_view_result(lab, PL_VIEW_MASKS, PL_R_BLOCKS, &bst);
    /* the shares as lines: three at most, spaced (squeezed: not spaced); a convention's row squeezed: its
     * cells at their least, its code under them */
    double lines = 3.0 * gui_text_h(dl, GUI_NORMAL) * 1.15 * 1.5, lines_least = 3.0 * gui_text_h(dl, GUI_NORMAL) * 1.15;
    double row_least = fmax(gui_text_h(dl, GUI_NORMAL) + 2 * u, th + 6 * u + code_lines * th);
    double row_bare = fmax(gui_text_h(dl, GUI_NORMAL), th + 2 * u) + 4 * u; /* its cells, no code under them */
    /* the foot as a table, in lines, in lines over squeezed rows, in lines over rows with no code (left to the
     * export and the terminal), where to find them */
    static const int foot_form[5] = {0, 1, 2, 2, 3};
    double keep[5] = {4 * row_need + th + lines + gap, 4 * row_need + th + lines + gap,
                      4 * row_least + th + lines_least, 4 * row_bare + th + lines_least,
                      4 * row_bare + th + lines_least};
    Foot foot;
    for (int pass = 0; pass < 5; pass++) {
        blocks_foot(&foot, bk, &bst, foot_form[pass]);
        double fh = foot_height(dl, &foot, a.w);
        if (!bk || a.h - fh - gap / 2 < keep[pass]) continue;
        foot_draw(dl, &foot, a.x, a.y + a.h - fh, a.w);
        a.h -= fh + gap / 2;
        if (pass >= 2) lines = lines_least;
        break;
    }
    GuiRect top, bottom;
    gui_split_for_cats(dl, a, 0.45, gap, 3, &top, &bottom);
    int shares_as_lines = top.h < 4 * row_need + th; /* too short for both: the shares as lines under the rows */
    if (shares_as_lines) {
        top = (GuiRect){a.x, a.y, a.w, a.h - lines - gap / 2};
        bottom = (GuiRect){a.x, a.y + a.h - lines, a.w, lines};
    }
    double rh = (top.h - th) / 4;
    /* a row's cells, and the code under them where the row holds both; too short a row for the code: it is
     * left to the export and the terminal, never drawn over the next row */
    double code_h = 3 * u + code_lines * th, cells_h = fmax(rh * 0.45, th + 2 * u);
    int with_code = rh - 4 * u - code_h >= th + u; /* the cells a label high, a unit to spare */
    if (with_code) cells_h = fmin(cells_h, rh - 4 * u - code_h);
    int T = m->T, sel = pl_lab_settings(lab)->convention;
    const uint8_t *row_keras = m->keras + (size_t)m->row * T;
    int runs = 1;
    for (int t = 1; t < T; t++) runs += row_keras[t] != row_keras[t - 1];
    for (int c = 0; c < 4; c++) {
        double y = top.y + c * rh;
        gui_text(dl, top.x, y + 2 * u, GUI_NORMAL, c == sel ? GUI_C_SEL : GUI_C_FG, GUI_LEFT, "%-8s %s",
                 pl_mask_conv_name((PlMaskConv)c), keep_text((PlMaskConv)c));
        GuiRect cells = {top.x + label_w, y + 2 * u, top.w - label_w, cells_h};
        if (with_code)
            gui_text_wrap_mono(dl, cells.x, cells.y + cells.h + 3 * u, cells.w, GUI_SMALL, GUI_C_DIM, GUI_LEFT, "%s",
                               pl_mask_conv_code((PlMaskConv)c));
        double cw = cells.w / T;
        /* the cells as this convention writes them: 1 dark, 0 light, -inf hatched; a run's value written on it */
        for (int t0 = 0; t0 < T;) {
            int t1 = t0;
            while (t1 < T && row_keras[t1] == row_keras[t0]) t1++;
            size_t at = (size_t)m->row * T + (size_t)t0;
            int one = c == PL_MASK_KERAS   ? m->keras[at]
                      : c == PL_MASK_TORCH ? m->torch[at]
                      : c == PL_MASK_HF    ? m->hf[at]
                                           : 0;
            int neginf = c == PL_MASK_ADDITIVE && m->additive[at] != 0.0f;
            const char *v = c == PL_MASK_ADDITIVE ? (neginf ? "-inf" : "0") : one ? "1" : "0";
            GuiRect run = {cells.x + t0 * cw, cells.y, (t1 - t0) * cw, cells.h};
            /* coloured by what the positions are (real tokens blue, pads hatched: -inf crossed), in
             * every convention alike; the value this convention writes there is the label on it */
            if (!row_keras[t0]) gui_rect_pat(dl, run, GUI_C_PAD, neginf ? GUI_PAT_CROSS : GUI_PAT_HATCH, GUI_C_NEGINF);
            else gui_rect(dl, run, GUI_C_REAL);
            gui_frame(dl, run, GUI_C_DIM, u);
            /* the example's row: its one run of real tokens and its one of pads are its counts (a mask
             * built from ids that holds a real 0 has more runs: pieces, no figure) */
            const char *count = runs > 2 ? "" : row_keras[t0] ? "batch.example_kept" : "batch.example_pads";
            char label[160];
            snprintf(label, sizeof label, "%s x %s (%s)", v, FIG(count, "%d", t1 - t0),
                     row_keras[t0] ? "real tokens" : "pads");
            if (gui_text_w(dl, GUI_SMALL, 0, label) + 8 * u >= run.w) /* short: the colour says which */
                snprintf(label, sizeof label, "%s x %s", v, FIG(count, "%d", t1 - t0));
            if (gui_text_w(dl, GUI_SMALL, 0, label) + 8 * u >= run.w) /* shorter: the value written, the count in
                                                                         the header */
                snprintf(label, sizeof label, "%s", v);
            if (gui_text_w(dl, GUI_SMALL, 0, label) + 8 * u < run.w) {
                double lw = gui_text_w(dl, GUI_SMALL, 0, label) + 8 * u;
                gui_rect(dl, (GuiRect){run.x + run.w / 2 - lw / 2, cells.y + cells.h / 2 - th / 2, lw, th}, GUI_C_BG);
                gui_text(dl, run.x + run.w / 2, cells.y + cells.h / 2 - th / 2, GUI_SMALL, GUI_C_FG, GUI_CENTER, "%s",
                         label);
            }
            gui_hover(dl, run, "%s, positions %d..%d: %s (%s)", pl_mask_conv_name((PlMaskConv)c), t0, t1 - 1, v,
                      row_keras[t0] ? "real tokens" : "pads");
            gui_datum(dl, pl_mask_conv_name((PlMaskConv)c), t0, neginf ? -INFINITY : one,
                      row_keras[t0] ? "real" : "pad");
            t0 = t1;
        }
        if (c == sel) gui_frame(dl, gui_inset(cells, -2 * u), GUI_C_SEL, 2 * u);
    }
    static const char *const names[] = {"key_padding_mask = torch mask", "no mask", "key_padding_mask = hf mask"};
    static const char *const quantity[] = {"masks.share_right", "masks.share_none", "masks.share_inverted"};
    const double v[] = {m->share_right, m->share_none, m->share_inverted};
    if (!m->padded_rows) { /* a packed batch, or one without a pad: every share is 0 of 0 */
        gui_fig_line(dl, bottom, bottom.y, GUI_C_FG,
                     "a real query's attention on pads: no row of this batch has a pad, so no mask has one to hide");
        return;
    }
    if (shares_as_lines) {
        double y =
            gui_fig_line(dl, bottom, bottom.y, GUI_C_FG, "a real query's attention on pads, over %s rows with pads:",
                         PL_FIG("masks.padded_rows", "%d", m->padded_rows));
        gui_fig_line(dl, bottom, y, GUI_C_FG, "%s %s, %s %s, %s %s", names[0],
                     PL_FIG(quantity[0], "%.1f%%", 100.0 * v[0]), names[1], PL_FIG(quantity[1], "%.1f%%", 100.0 * v[1]),
                     names[2], PL_FIG(quantity[2], "%.1f%%", 100.0 * v[2]));
        for (int i = 0; i < 3; i++)
            if (!hidden(dl, quantity[i])) gui_datum(dl, "share on pads", i, v[i], names[i]);
        return;
    }
    GuiPlotSpec sp = {.title = "a real query's attention on pads",
                      .ycats = names,
                      .ncats = 3,
                      .x0 = 0,
                      .x1 = 1,
                      .xfmt = GUI_FMT_PCT,
                      .xlabel = "share of its weight"};
    char note[400], blind[200];
    /* the clause on blind rows is there when there are some; while their count is hidden, the count in its place */
    if (hidden(dl, "masks.blind_rows"))
        snprintf(blind, sizeof blind, "; rows the hf mask leaves blind: %s",
                 PL_FIG("masks.blind_rows", "%d", m->blind_rows));
    else
        snprintf(blind, sizeof blind, "%s",
                 m->blind_rows ? "; rows with no pad see no key under the hf mask: NaN from "
                                 "torch.softmax, zeros from SDPA (2.5+)"
                               : "");
    snprintf(note, sizeof note, "over %s rows with pads (%ld query positions)%s",
             PL_FIG("masks.padded_rows", "%d", m->padded_rows), m->padded_queries, blind);
    sp.note = note;
    GuiPlot p;
    gui_plot_begin(dl, &p, bottom, &sp);
    for (int i = 0; i < 3; i++) {
        GuiRect band = gui_plot_cat(&p, i);
        int off = hidden(dl, quantity[i]);
        double x = off ? p.in.x : gui_plot_x(&p, v[i]); /* hidden: no bar, its label at the axis */
        gui_rect(dl, (GuiRect){p.in.x, band.y + band.h * 0.2, x - p.in.x, band.h * 0.6},
                 i == 0 ? GUI_C_GOOD : GUI_C_WARN);
        gui_text(dl, x + 4 * u > p.in.x + p.in.w - 60 * u ? x - 4 * u : x + 4 * u, band.y + band.h / 2 - th / 2,
                 GUI_SMALL, x + 4 * u > p.in.x + p.in.w - 60 * u ? GUI_C_BG : GUI_C_FG,
                 x + 4 * u > p.in.x + p.in.w - 60 * u ? GUI_RIGHT : GUI_LEFT, "%s",
                 PL_FIG(quantity[i], "%.1f%%", 100.0 * v[i]));
        if (!off) gui_datum(dl, "share on pads", i, v[i], names[i]);
        gui_hover(dl, band, "%s: %s of a real query's weight lands on pads", names[i],
                  PL_FIG(quantity[i], "%.4f%%", 100.0 * v[i]));
    }
}

/* ---- generate ---- */

/* The foot under a batch of prompts: how many rows end in a pad (brief: after
 * the side's name, the picture having no title). */
static void prompt_foot(char *foot, size_t cap, const PlProbeGenerate *g, int left, int brief) {
    snprintf(foot, cap, "%s%s of %s rows have a pad in the last column",
             brief ? (left ? "left padding: " : "right padding: ") : "",
             PL_FIG(left ? "generate.left_last_column_pads" : "generate.right_last_column_pads", "%d",
                    left ? g->naive_last_column_pad_rows_left : g->naive_last_column_pad_rows_right),
             PL_FIG("generate.prompts", "%d", g->B));
}

/* The colour of a side's count of rows ending in a pad: a warning where
 * some do, good where none does, plain while the count is asked (the colour
 * would tell it). */
static GuiColor last_column_color(const GuiList *dl, const PlProbeGenerate *g, int left) {
    if (hidden(dl, left ? "generate.left_last_column_pads" : "generate.right_last_column_pads")) return GUI_C_FG;
    return (left ? g->naive_last_column_pad_rows_left : g->naive_last_column_pad_rows_right) ? GUI_C_WARN : GUI_C_GOOD;
}

/* The prompts' rows padded left or right, the last column framed; brief: no
 * title over them, the foot under them names the side. */
static void prompt_grid(GuiList *dl, GuiRect r, const PlProbeGenerate *g, int left, int brief) {
    double u = dl->st->unit, th = gui_text_h(dl, GUI_SMALL), hh = 0;
    if (!brief)
        hh = gui_text_wrap(dl, r.x, r.y, r.w, GUI_NORMAL, GUI_C_FG, GUI_LEFT,
                           "%s padding: the model reads the last column", left ? "left" : "right");
    char foot[300];
    prompt_foot(foot, sizeof foot, g, left, brief);
    double fh = th * gui_wrap_lines(dl, GUI_SMALL, 0, foot, r.w);
    GuiRect grid = {r.x, r.y + hh + 4 * u, r.w, r.h - hh - fh - 8 * u};
    double rh = grid.h / g->B;
    if (rh > 26 * u) rh = 26 * u;
    uint8_t mask[4096];
    int T = g->T < 4096 ? g->T : 4096;
    for (int i = 0; i < g->B; i++) {
        for (int t = 0; t < T; t++) mask[t] = left ? t >= g->T - g->len[i] : t < g->len[i];
        GuiRect row = {grid.x, grid.y + i * rh, grid.w, rh * 0.85};
        cell_row(dl, row, mask, T);
        int pad_last = !mask[T - 1];
        gui_hover(dl, row, "prompt %d: %s tokens; the last column is %s", i,
                  PL_FIG(i ? "" : "generate.example_kept", "%d", g->len[i]),
                  pad_last ? "a pad" : "its last token");
    }
    double cw = grid.w / T, x = grid.x + (T - 1) * cw;
    gui_frame(dl, (GuiRect){x, grid.y - 2 * u, cw, g->B * rh}, GUI_C_MARK, 2 * u);
    gui_text_wrap(dl, r.x, grid.y + g->B * rh + 4 * u, r.w, GUI_SMALL, last_column_color(dl, g, left), GUI_LEFT, "%s",
                  foot);
}

/* The cache's lines (the same prompts decoded step by step with a
 * key/value cache), each of cap bytes, into line; returns how many. */
enum { CACHE_LINES = 8, CACHE_LINE = 768 };
static const char *const kv_diff[PL_KV_WAYS] = {"kvcache.left", "kvcache.slot_positions", "kvcache.no_mask",
                                                "kvcache.right"};
static int cache_text(const PlProbeKvcache *k, const PlResultStatus *st, int brief, char line[][CACHE_LINE]) {
    if (!k) {
        snprintf(line[0], CACHE_LINE, "decoding with a key/value cache: %s", st->error ? st->error : "computing...");
        return 1;
    }
    static const char *const long_names[PL_KV_WAYS] = {"left, positions from the mask", "left, positions by slot",
                                                       "left, no mask", "right, positions from the mask"};
    static const char *const short_names[PL_KV_WAYS] = {"mask positions", "slot positions", "no mask", "right"};
    const char *const *names = brief ? short_names : long_names;
    static const char *const toks[PL_KV_WAYS] = {"kvcache.left_tokens", "kvcache.slot_positions_tokens",
                                                 "kvcache.no_mask_tokens", "kvcache.right_tokens"};
    double slots = (double)k->B * k->slots;
    snprintf(line[0], CACHE_LINE,
             "decoding %s steps with a key/value cache (left-padded, the mask a column longer a step)",
             PL_FIG("kvcache.steps", "%d", k->S));
    snprintf(line[1], CACHE_LINE,
             brief ? "cache: %s slots, %s pads (%s), %s bytes"
                   : "the cache: %s slots, %s hold a pad (%s), %s bytes no query reads",
             PL_FIG("kvcache.slots", "%.0f", slots), PL_FIG("kvcache.pad_slots", "%lld", (long long)k->pad_slots),
             PL_FIG("kvcache.pad_share", "%.1f%%", 100.0 * (double)k->pad_slots / slots),
             PL_FIG("kvcache.pad_bytes", "%lld", (long long)(k->pad_slots * k->bytes_per_slot)));
    snprintf(line[2], CACHE_LINE,
             "a static cache of %s slots a row: %s hold no token (%s); scores on pad slots %s "
             "at\xc2\xa0step\xc2\xa0"
             "1", /* kept on one line (no-break spaces) */
             PL_FIG("kvcache.static_len", "%d", k->static_len),
             PL_FIG("kvcache.static_pad_slots", "%lld", (long long)k->static_pad_slots),
             PL_FIG("kvcache.static_pad_share", "%.1f%%",
                    100.0 * (double)k->static_pad_slots / ((double)k->B * k->static_len)),
             PL_FIG("kvcache.first_step_pad_share", "%.1f%%", 100.0 * (double)k->pad_cells[0] / (double)k->cells[0]));
    snprintf(line[3], CACHE_LINE,
             "against each prompt decoded alone (largest logit difference, tokens that differ of %s):",
             PL_FIG("kvcache.reads", "%d", k->B * k->reads));
    for (int w = 0; w < PL_KV_WAYS; w++)
        snprintf(line[4 + w], CACHE_LINE, brief ? " %s: %s, %s" : "   %s: %s, %s tokens", names[w],
                 PL_FIG(kv_diff[w], "%.2g", (double)k->way[w].max_diff),
                 PL_FIG(toks[w], "%d", k->way[w].tokens_differ));
    return 4 + PL_KV_WAYS;
}

/* The height of the cache's lines at width w, and drawing them from y. */
static double cache_height(GuiList *dl, double w, const PlProbeKvcache *k, const PlResultStatus *st, int brief) {
    char line[CACHE_LINES][CACHE_LINE];
    int n = cache_text(k, st, brief, line);
    double th = gui_text_h(dl, GUI_SMALL), h = 0;
    for (int i = 0; i < n; i++) h += th * gui_wrap_lines(dl, GUI_SMALL, 0, line[i], w) + th * 0.1;
    return h;
}

static void cache_draw(GuiList *dl, double x, double y, double w, const PlProbeKvcache *k, const PlResultStatus *st,
                       int brief) {
    char line[CACHE_LINES][CACHE_LINE];
    int n = cache_text(k, st, brief, line);
    double th = gui_text_h(dl, GUI_SMALL);
    for (int i = 0; i < n; i++) { /* a way's colour says "the same" only when its figure may be seen */
        int good = k && i >= 4 && k->way[i - 4].max_diff == 0.0f && !hidden(dl, kv_diff[i - 4]);
        y += gui_text_wrap(dl, x, y, w, GUI_SMALL,
                           i == 0 ? GUI_C_FG
                           : good ? GUI_C_GOOD
                                  : GUI_C_DIM,
                           GUI_LEFT, "%s", line[i]) +
             th * 0.1;
    }
}

/* The next-token differences against each prompt run alone, as lines. */
static const char *const diff_names[] = {"left, corrected position ids", "left, positions 0..T-1",
                                         "right, at the last real token", "right, at the last column"};
static const char *const diff_quantity[] = {"generate.left_corrected", "generate.left_naive",
                                            "generate.right_last_real", "generate.right_last_column"};
enum { DIFF_LINES = 5 };

static double diff_value(const PlProbeGenerate *g, int i) {
    const double v[] = {g->left_vs_single_max_diff, g->left_naive_positions_max_diff,
                        g->right_last_real_vs_single_max_diff, g->right_last_column_vs_single_max_diff};
    return v[i];
}

/* Line i of the differences (0 the heading) into buf. */
static void diff_line(char *buf, size_t cap, const PlProbeGenerate *g, int i) {
    if (i == 0) {
        snprintf(buf, cap, "next-token logits against each prompt run alone:");
        return;
    }
    double v = diff_value(g, i - 1);
    char label[96];
    snprintf(label, sizeof label, "%.2g%s", v, v < 1e-4 ? "  (the same)" : "  (wrong)");
    snprintf(buf, cap, "%s: %s", diff_names[i - 1], PL_FIG(diff_quantity[i - 1], "%s", label));
}

static double diff_lines_height(GuiList *dl, double w, const PlProbeGenerate *g) {
    double tn = gui_text_h(dl, GUI_NORMAL), h = 0;
    char buf[512];
    for (int i = 0; i < DIFF_LINES; i++) {
        diff_line(buf, sizeof buf, g, i);
        h += tn * gui_wrap_lines(dl, GUI_NORMAL, 0, buf, w) + tn * 0.15; /* as gui_fig_line spaces them */
    }
    return h;
}

static void diff_lines_draw(GuiList *dl, GuiRect r, const PlProbeGenerate *g) {
    char buf[512];
    double y = r.y;
    for (int i = 0; i < DIFF_LINES; i++) { /* the verdict and its colour follow the figure */
        diff_line(buf, sizeof buf, g, i);
        double v = i ? diff_value(g, i - 1) : 0;
        int off = i && hidden(dl, diff_quantity[i - 1]);
        y = gui_fig_line(dl, r, y, i == 0 ? GUI_C_DIM : v < 1e-4 || off ? GUI_C_FG : GUI_C_WARN, "%s", buf);
        if (i && !off) gui_datum(dl, "max difference", i - 1, v, diff_names[i - 1]);
    }
}

/* Too short for the prompts' rows over the plot: the cache's lines on the
 * right; on the left the two pictures, small, over the differences as lines,
 * or, with no room for them, the rows' counts as lines too. */
static void generate_narrow(GuiList *dl, GuiRect a, const PlProbeGenerate *g, const PlProbeKvcache *kv,
                            const PlResultStatus *kst, double gap) {
    GuiRect right = gui_col(a, 2, 1, gap), left = gui_col(a, 2, 0, gap);
    int brief = cache_height(dl, right.w, kv, kst, 0) > right.h; /* shorter labels, every figure kept */
    cache_draw(dl, right.x, right.y, right.w, kv, kst, brief);
    double u = dl->st->unit, th = gui_text_h(dl, GUI_SMALL), pic_w = gui_col(left, 2, 0, gap).w;
    char foot[2][300];
    int feet = 0;
    for (int side = 0; side < 2; side++) {
        prompt_foot(foot[side], sizeof foot[side], g, side == 0, 1);
        int n = gui_wrap_lines(dl, GUI_SMALL, 0, foot[side], pic_w);
        feet = n > feet ? n : feet;
    }
    double lines = diff_lines_height(dl, left.w, g), room = left.h - lines - gap / 2;
    if (room >= g->B * 6 * u + feet * th + 12 * u) { /* rows of 6 units at least, and the feet */
        GuiRect pics = {left.x, left.y, left.w, room};
        prompt_grid(dl, gui_col(pics, 2, 0, gap), g, 1, 1);
        prompt_grid(dl, gui_col(pics, 2, 1, gap), g, 0, 1);
        left.y += room + gap / 2, left.h -= room + gap / 2;
    } else {
        double y = left.y;
        for (int side = 1; side >= 0; side--)
            y = gui_fig_line(dl, left, y, last_column_color(dl, g, side), "%s padding: %s of %s rows end in a pad",
                             side ? "left" : "right",
                             PL_FIG(side ? "generate.left_last_column_pads" : "generate.right_last_column_pads", "%d",
                                    side ? g->naive_last_column_pad_rows_left : g->naive_last_column_pad_rows_right),
                             PL_FIG("generate.prompts", "%d", g->B));
        left.h -= y - left.y, left.y = y;
    }
    diff_lines_draw(dl, left, g);
}

void gui_fig_generate(GuiList *dl, PlLab *lab, GuiRect r, int *current) {
    PlResultStatus st;
    const PlProbeGenerate *g = pl_lab_view_result(lab, PL_VIEW_GENERATE, PL_R_GENERATE, &st);
    char src[320];
    gui_fig_source(lab, PL_R_GENERATE, &st, src, sizeof src);
    *current = g && !st.stale;
    GuiRect a = gui_fig_header(dl, r, "generate: a decoder's batch, padded left or right", src,
                               "left padding puts every prompt's last token in the last column; right padding does not",
                               &st, g != NULL);
    if (!g || a.h <= 0) return;
    double gap = 24 * dl->st->unit;
    PlResultStatus kst;
    const PlProbeKvcache *kv = pl_lab_view_result(lab, PL_VIEW_GENERATE, PL_R_KVCACHE, &kst);
    double u0 = dl->st->unit, th0 = gui_text_h(dl, GUI_SMALL);
    double grid_need = 2 * gui_text_h(dl, GUI_NORMAL) + g->B * 8 * u0 + 2 * th0 + 16 * u0;
    double lh = gui_text_h(dl, GUI_NORMAL) * 1.15 * 6;
    /* The cache's lines go across the foot when the rest keeps its room,
     * else beside the differences, which then come as lines. */
    double foot = cache_height(dl, a.w, kv, &kst, 0);
    int beside = a.h - foot - gap / 2 < grid_need + lh + gap;
    if (!beside) {
        cache_draw(dl, a.x, a.y + a.h - foot, a.w, kv, &kst, 0);
        a.h -= foot + gap / 2;
    }
    GuiRect top, bottom;
    gui_split_for_cats(dl, a, 0.5, gap, 4, &top, &bottom);
    int lines = beside || top.h < grid_need; /* the prompts' rows want some height: the differences as lines */
    double bh = beside ? fmax(lh, cache_height(dl, (a.w - gap) / 2, kv, &kst, 0)) : lh;
    if (beside && a.h - bh - gap / 2 < grid_need) { /* no room for the rows over the plot */
        generate_narrow(dl, a, g, kv, &kst, gap);
        return;
    } else if (lines) {
        top = (GuiRect){a.x, a.y, a.w, a.h - bh - gap / 2};
        bottom = (GuiRect){a.x, a.y + a.h - bh, a.w, bh};
        if (beside) {
            GuiRect right = gui_col(bottom, 2, 1, gap);
            cache_draw(dl, right.x, right.y, right.w, kv, &kst, 0);
            bottom = gui_col(bottom, 2, 0, gap);
        }
    }
    if (top.h > 0) {
        prompt_grid(dl, gui_col(top, 2, 0, gap), g, 1, 0);
        prompt_grid(dl, gui_col(top, 2, 1, gap), g, 0, 0);
    }
    if (lines) {
        diff_lines_draw(dl, bottom, g);
        return;
    }
    GuiPlotSpec sp = {.title = "next-token logits against each prompt run alone",
                      .note = "the largest difference; log scale, 1e-9 at the left",
                      .ycats = diff_names,
                      .ncats = 4,
                      .x0 = 1e-9,
                      .x1 = 10,
                      .logx = 1,
                      .xlabel = "largest |difference|"};
    GuiPlot p;
    gui_plot_begin(dl, &p, bottom, &sp);
    double u = dl->st->unit, th = gui_text_h(dl, GUI_SMALL);
    for (int i = 0; i < 4; i++) {
        double v = diff_value(g, i);
        GuiRect band = gui_plot_cat(&p, i);
        int off = hidden(dl, diff_quantity[i]); /* no bar: its length is the figure */
        double x = off ? p.in.x : gui_plot_x(&p, v > 1e-9 ? v : 1e-9);
        int ok = v < 1e-4;
        gui_rect(dl, (GuiRect){p.in.x, band.y + band.h * 0.2, x - p.in.x, band.h * 0.6}, ok ? GUI_C_GOOD : GUI_C_WARN);
        char text[64], label[256];
        snprintf(text, sizeof text, "%.2g%s", v, ok ? "  (the same)" : "  (wrong)");
        snprintf(label, sizeof label, "%s", PL_FIG(diff_quantity[i], "%s", text));
        int after = x + 4 * u + gui_text_w(dl, GUI_SMALL, 0, label) <= p.in.x + p.in.w; /* else inside the bar's end */
        gui_text(dl, after ? x + 4 * u : x - 4 * u, band.y + band.h / 2 - th / 2, GUI_SMALL,
                 after ? GUI_C_FG : GUI_C_BG, after ? GUI_LEFT : GUI_RIGHT, "%s", label);
        if (!off) gui_datum(dl, "max difference", i, v, diff_names[i]);
        gui_hover(dl, band, "%s: logits differ by up to %s", diff_names[i], PL_FIG(diff_quantity[i], "%.3g", v));
    }
}
