/* Drawing the lab's results. Nothing here computes a number: every figure
 * comes from the lab (src/app), which gets it from the probes. */
#include "views.h"

#include <curses.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "screen.h"

void tui_put(int y, int x, int w, const char *fmt, ...) {
    if (w <= 0 || y < 0 || y >= LINES) return;
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if ((int)strlen(buf) > w) buf[w] = '\0';
    mvaddstr(y, x, buf);
}

static void heading(TuiBox b, int row, const char *text) {
    tui_color(TUI_GOOD);
    tui_put(b.y + row, b.x, b.w, "%s", text);
    tui_color_off(TUI_GOOD);
}

static void failed(TuiBox b, const PlErr *err) {
    tui_color(TUI_WARN);
    tui_put(b.y, b.x, b.w, "cannot compute this view: %s", err->msg);
    tui_color_off(TUI_WARN);
}

/* ---- batch: the B x T grid ---- */

/* One row of cells compressed to w screen columns: real, pad or both. */
static void grid_row(int y, int x, int w, const uint8_t *mask, int T) {
    int cols = T < w ? T : w;
    for (int c = 0; c < cols; c++) {
        int a = c * T / cols, z = (c + 1) * T / cols, real = 0, pad = 0;
        for (int t = a; t < z; t++) real += mask[t] != 0, pad += mask[t] == 0;
        TuiColor col = pad && !real ? TUI_PAD : TUI_REAL;
        tui_color(col);
        mvaddstr(y, x + c, pad && real ? tui_glyph(TUI_G_MIXED) : real ? tui_glyph(TUI_G_REAL) : tui_glyph(TUI_G_PAD));
        tui_color_off(col);
    }
}

static void mask_row(int y, int x, int w, const PlProbeBatch *r, int row) {
    const PlBatch *b = r->batch;
    int cols = b->T < w ? b->T : w;
    for (int c = 0; c < cols; c++) {
        size_t i = (size_t)row * b->T + (size_t)c * b->T / cols;
        const char *s = r->conv == PL_MASK_ADDITIVE ? (r->additive[i] == 0.0f ? "0" : "-") : r->conv_mask[i] ? "1" : "0";
        mvaddstr(y, x + c, s);
    }
}

static void view_batch(PlLab *lab, TuiBox b, int *scroll) {
    *scroll = 0; /* fits the screen: nothing to scroll */
    PlErr err;
    const PlProbeBatch *r = pl_lab_batch(lab, &err);
    if (!r) return failed(b, &err);
    const PlBatch *bt = r->batch;
    const PlLabSettings *s = pl_lab_settings(lab);
    int gw = b.w - 14;
    heading(b, 0, "batch: one row per review, one column per position");
    tui_put(b.y + 1, b.x, b.w, "%d rows x %d positions%s", bt->B, bt->T, bt->T > gw ? " (several positions per column)" : "");
    int y = b.y + 3;
    for (int i = 0; i < bt->B && y + 1 < b.y + b.h; i++) {
        tui_put(y, b.x, 13, "ex %-5d %4d", bt->row[i], bt->len[i]);
        grid_row(y, b.x + 13, gw, bt->mask + (size_t)i * bt->T, bt->T);
        tui_put(y + 1, b.x, 13, " mask %-6s", pl_mask_conv_name(r->conv));
        tui_color(TUI_DIM);
        mask_row(y + 1, b.x + 13, gw, r, i);
        tui_color_off(TUI_DIM);
        y += 2;
    }
    y++;
    tui_color(TUI_REAL);
    tui_put(y, b.x, 3, "%s", tui_glyph(TUI_G_REAL));
    tui_color_off(TUI_REAL);
    tui_color(TUI_PAD);
    tui_put(y, b.x + 12, 3, "%s", tui_glyph(TUI_G_PAD));
    tui_color_off(TUI_PAD);
    tui_put(y, b.x + 2, 9, "real");
    tui_put(y, b.x + 14, b.w - 14, "pad (%s padding, truncating %s)", pl_side_name(s->padding), pl_side_name(s->truncating));
    y += 2;
    tui_put(y++, b.x, b.w, "real tokens %ld | mask marks real %ld | labels counted (not -100) %ld", r->real_tokens, r->mask_real,
            r->label_positions);
    tui_color(r->agree ? TUI_GOOD : TUI_WARN);
    tui_put(y++, b.x, b.w, "%s", r->agree ? "the three counts agree" : "the counts disagree");
    tui_color_off(r->agree ? TUI_GOOD : TUI_WARN);
    if (y < b.y + b.h) {
        char words[512] = "";
        const PlCorpus *c = pl_lab_corpus(lab);
        size_t at = (size_t)0 * bt->T;
        for (int t = 0; t < bt->T && strlen(words) < sizeof words - 40; t++)
            if (bt->mask[at + t]) snprintf(words + strlen(words), sizeof words - strlen(words), "%s ", pl_corpus_word(c, bt->ids[at + t]));
        tui_put(y + 1, b.x, b.w, "example %d: %s", bt->row[0], words);
    }
}

/* ---- cost ---- */

static void view_cost(PlLab *lab, TuiBox b, int *scroll) {
    *scroll = 0; /* fits the screen: nothing to scroll */
    PlErr err;
    const PlLabCost *k = pl_lab_cost(lab, &err);
    if (!k) return failed(b, &err);
    const PlLabSettings *s = pl_lab_settings(lab);
    const PlCost *c = &k->cost;
    heading(b, 0, "cost of the whole corpus under the current batching and maxlen");
    tui_put(b.y + 1, b.x, b.w, "batching %s, maxlen %d, batch size 32", pl_batching_name(s->batching), s->maxlen);
    tui_put(b.y + 3, b.x, b.w, "padding share   %5.1f%%", 100.0 * k->padding_share);
    tui_bar(b.y + 3, b.x + 24, b.w - 26 > 30 ? 30 : b.w - 26, k->padding_share, TUI_PAD);
    tui_put(b.y + 4, b.x, b.w, "tokens kept     %5.1f%%", 100.0 * k->kept_share);
    tui_bar(b.y + 4, b.x + 24, b.w - 26 > 30 ? 30 : b.w - 26, k->kept_share, TUI_REAL);
    tui_put(b.y + 5, b.x, b.w, "rows truncated  %5.1f%%", 100.0 * k->truncated_share);
    tui_bar(b.y + 5, b.x + 24, b.w - 26 > 30 ? 30 : b.w - 26, k->truncated_share, TUI_TRUNC);
    tui_put(b.y + 6, b.x, b.w, "RNN steps       %lld real of %lld run (%lld on pads)", (long long)c->real_tokens, (long long)c->rnn_steps,
            (long long)c->rnn_wasted);
    tui_put(b.y + 7, b.x, b.w, "attention cells %lld real of %lld", (long long)c->attn_real_cells, (long long)c->attn_cells);
    tui_put(b.y + 8, b.x, b.w, "activations     %.1f MB at width 32", (double)pl_cost_bytes(c, 32) / 1e6);
    int y = b.y + 10;
    tui_put(y, b.x, b.w, "padding share against maxlen (25 .. 800; %s marks %d):", tui_glyph(TUI_G_MARK), s->maxlen);
    tui_color(TUI_PAD);
    for (int i = 0; i < PL_LAB_SWEEP && i < b.w; i++) mvaddstr(y + 1, b.x + i, tui_shade(k->sweep_padding[i]));
    tui_color_off(TUI_PAD);
    tui_color(TUI_REAL);
    for (int i = 0; i < PL_LAB_SWEEP && i < b.w; i++) mvaddstr(y + 2, b.x + i, tui_shade(k->sweep_kept[i]));
    tui_color_off(TUI_REAL);
    tui_put(y + 1, b.x + PL_LAB_SWEEP + 2, b.w - PL_LAB_SWEEP - 2, "padding share");
    tui_put(y + 2, b.x + PL_LAB_SWEEP + 2, b.w - PL_LAB_SWEEP - 2, "tokens kept");
    tui_put(y + 3, b.x + k->sweep_at, 2, "%s", tui_glyph(TUI_G_MARK));
    y += 5;
    tui_put(y++, b.x, b.w, "strategy         padding  recovered");
    for (int i = 0; i < k->nstrategies && y < b.y + b.h; i++, y++) {
        const PlStrategyRow *r = &k->strategies[i];
        int here = r->kind == s->batching;
        if (here) tui_color(TUI_SELECTED);
        tui_put(y, b.x, b.w, "%-15s  %6.1f%%  %8.1f%%", pl_batching_name(r->kind), 100.0 * r->padding_share, 100.0 * r->recovered);
        if (here) tui_color_off(TUI_SELECTED);
    }
}

/* ---- a small line chart of series in [lo, hi] ---- */

static void chart(TuiBox b, const float *a, int na, const float *c, int nc, double lo, double hi, int mark_a, int mark_z) {
    int w = b.w, h = b.h;
    if (w < 4 || h < 2) return;
    for (int col = 0; col < w; col++) {
        int at = col * (na - 1) / (w > 1 ? w - 1 : 1);
        if (mark_a >= 0) { /* a strip under the chart: real steps vs pads */
            int real = at >= mark_a && at <= mark_z;
            tui_color(real ? TUI_REAL : TUI_PAD);
            mvaddstr(b.y + h, b.x + col, real ? tui_glyph(TUI_G_REAL) : tui_glyph(TUI_G_PAD));
            tui_color_off(real ? TUI_REAL : TUI_PAD);
        }
        for (int s = 0; s < 2; s++) {
            const float *v = s ? c : a;
            int n = s ? nc : na;
            if (!v || n < 1) continue;
            int i = n > 1 ? col * (n - 1) / (w > 1 ? w - 1 : 1) : 0;
            double f = ((double)v[i] - lo) / (hi - lo);
            if (f != f) continue;
            f = f < 0 ? 0 : f > 1 ? 1 : f;
            int row = h - 1 - (int)(f * (h - 1) + 0.5);
            TuiColor col_c = s ? TUI_PAD : TUI_REAL;
            tui_color(col_c);
            mvaddstr(b.y + row, b.x + col, s ? "o" : "*");
            tui_color_off(col_c);
        }
    }
}

/* ---- rnn ---- */

static void view_rnn(PlLab *lab, TuiBox b, int *scroll) {
    *scroll = 0; /* fits the screen: nothing to scroll */
    PlErr err;
    const PlProbeRnn *r = pl_lab_rnn(lab, &err);
    if (!r) return failed(b, &err);
    heading(b, 0, "rnn: the hidden state of one example, step by step");
    tui_put(b.y + 1, b.x, b.w, "%s, %d units, %d real tokens at steps %d..%d of %d (%s padding), mask %s", pl_arch_name(r->cell), r->H, r->L,
            r->first_real, r->last_real, r->T, pl_side_name(r->padding), r->mask ? "on" : "off");
    float top = 0.0f;
    for (int t = 0; t < r->T; t++) top = fmaxf(top, fmaxf(r->dist_last[t], r->dist_fixed[t]));
    int ch = b.h - 11 > 4 ? b.h - 11 : 4;
    tui_put(b.y + 2, b.x, b.w, "* distance from the state after the last real token   o distance from h* (pads' fixed point)");
    TuiBox cb = {b.y + 3, b.x + 6, ch, b.w - 6};
    tui_put(cb.y, b.x, 6, "%5.2f", (double)top);
    tui_put(cb.y + ch - 1, b.x, 6, "%5.2f", 0.0);
    chart(cb, r->dist_last, r->T, r->dist_fixed, r->T, 0.0, top > 0.0f ? (double)top : 1.0, r->first_real, r->last_real);
    int y = cb.y + ch + 2;
    tui_put(y++, b.x, b.w, "the strip under the chart: %s real steps, %s pads", tui_glyph(TUI_G_REAL), tui_glyph(TUI_G_PAD));
    tui_put(y++, b.x, b.w, "|h| read at: last position (no mask) %.3f, last real step %.3f, masked carry %.3f",
            (double)r->last_pos_norm, (double)r->last_real_norm, (double)r->masked_carry_norm);
    TuiColor c = r->final_distance_to_last_real == 0.0f ? TUI_GOOD : TUI_WARN;
    tui_color(c);
    if (r->fixed_found)
        tui_put(y++, b.x, b.w, "the state read out is %.4f from the last real state; %.0f%% of it survives the pads",
                (double)r->final_distance_to_last_real, 100.0 * (double)r->last_real_survival);
    else
        tui_put(y++, b.x, b.w, "the state read out is %.4f from the last real state; the pads never let it settle",
                (double)r->final_distance_to_last_real);
    tui_color_off(c);
    tui_put(y++, b.x, b.w, "with the mask the carried state is %.4f away; pad embedding |e0| = %.3f", (double)r->masked_carry_distance,
            (double)r->pad_embedding_norm);
}

/* ---- attention: a heatmap of head 0 ---- */

static void view_attention(PlLab *lab, TuiBox b, int *scroll) {
    *scroll = 0; /* fits the screen: nothing to scroll */
    PlErr err;
    const PlProbeAttention *r = pl_lab_attention(lab, &err);
    if (!r) return failed(b, &err);
    heading(b, 0, "attention weights of the example, head 0: rows are queries, columns keys");
    int side = b.h - 8 < (b.w - 2) / 2 ? b.h - 8 : (b.w - 2) / 2;
    side = side < 4 ? 4 : side;
    int n = r->T < side ? r->T : side, T = r->T;
    /* Each cell: the mean weight of its block, shaded against the largest block. */
    double cell[64][64], top = 0.0;
    if (n > 64) n = 64;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int qa = i * T / n, qz = (i + 1) * T / n, ka = j * T / n, kz = (j + 1) * T / n;
            double w = 0.0;
            for (int q = qa; q < qz; q++)
                for (int k = ka; k < kz; k++) w += (double)r->weights[(size_t)q * T + k];
            cell[i][j] = w / (qz - qa);
            top = cell[i][j] > top ? cell[i][j] : top;
        }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int ka = j * T / n, kz = (j + 1) * T / n, pad = 0;
            for (int k = ka; k < kz; k++) pad |= !r->real[k];
            TuiColor c = pad ? TUI_PAD : TUI_REAL;
            tui_color(c);
            mvaddstr(b.y + 1 + i, b.x + 2 * j, tui_shade(top > 0.0 ? cell[i][j] / top : 0.0));
            mvaddstr(b.y + 1 + i, b.x + 2 * j + 1, tui_shade(top > 0.0 ? cell[i][j] / top : 0.0));
            tui_color_off(c);
        }
    int y = b.y + 2 + n;
    tui_put(y++, b.x, b.w, "mask %s: weight on pad keys %.3f in all (largest single %.4f)", r->mask ? "on" : "off",
            (double)r->leak_total, (double)r->pad_weight_max);
    tui_put(y++, b.x, b.w, "|row sum - 1| <= %.1e; rows with no key %d (zero, not NaN); NaN %d", (double)r->row_sum_error_max,
            r->empty_rows, r->nan_count);
    tui_put(y++, b.x, b.w, "same sentence, short vs long partner: outputs differ by %.2g", (double)r->batch_invariance_max_diff);
    tui_put(y++, b.x, b.w, "packed varlen vs padded: %.2g; the wrong fix leaves a row sum of %.3f", (double)r->packed_vs_padded_max_diff,
            (double)r->wrong_fix_min_sum);
}

/* ---- pooling ---- */

static void view_pooling(PlLab *lab, TuiBox b, int *scroll) {
    *scroll = 0; /* fits the screen: nothing to scroll */
    PlErr err;
    const PlProbePooling *r = pl_lab_pooling(lab, &err);
    if (!r) return failed(b, &err);
    heading(b, 0, "pooling: the share of an unmasked mean that real tokens get");
    tui_put(b.y + 1, b.x, b.w, "over the corpus at maxlen %d: mean %.1f%%, minimum %.1f%%", r->maxlen, 100.0 * r->mean_real_weight,
            100.0 * r->min_real_weight);
    int most = 1;
    for (int k = 0; k < PL_POOL_HIST_BINS; k++) most = r->hist[k] > most ? r->hist[k] : most;
    for (int k = 0; k < PL_POOL_HIST_BINS && 3 + k < b.h; k++) {
        tui_put(b.y + 3 + k, b.x, 16, "%3d-%3d%% %6d", 10 * k, 10 * (k + 1), r->hist[k]);
        tui_bar(b.y + 3 + k, b.x + 17, b.w - 19 > 40 ? 40 : b.w - 19, (double)r->hist[k] / most, TUI_REAL);
    }
    int y = b.y + 4 + PL_POOL_HIST_BINS;
    tui_put(y++, b.x, b.w, "example: %d real tokens of %d: weight %.3f", r->L, r->T, (double)r->example_weight);
    tui_put(y++, b.x, b.w, "distance from the masked mean: unmasked %.4f, real sum / T %.4f", (double)r->avg_unmasked_dist,
            (double)r->avg_div_t_dist);
    tui_put(y++, b.x, b.w, "max pooling, unmasked vs masked: %.4f", (double)r->max_unmasked_dist);
}

/* ---- loss ---- */

static void view_loss(PlLab *lab, TuiBox b, int *scroll) {
    *scroll = 0; /* fits the screen: nothing to scroll */
    PlErr err;
    const PlProbeLoss *r = pl_lab_loss(lab, &err);
    if (!r) return failed(b, &err);
    heading(b, 0, "loss: next-token cross-entropy of the batch, pads at -100");
    tui_put(b.y + 1, b.x, b.w, "%d rows x %d positions, %ld targets count, %d classes", r->B, r->T, r->real_terms, r->C);
    tui_put(b.y + 3, b.x, b.w, "normalisation    loss      |gradient|");
    tui_put(b.y + 4, b.x, b.w, "per token       %7.4f   %9.5f", (double)r->per_token, (double)r->grad_per_token);
    tui_put(b.y + 5, b.x, b.w, "per sequence    %7.4f   %9.5f", (double)r->per_sequence, (double)r->grad_per_sequence);
    tui_put(b.y + 6, b.x, b.w, "batch x T       %7.4f   %9.5f", (double)r->batch_t, (double)r->grad_batch_t);
    tui_put(b.y + 8, b.x, b.w, "padded to %d: per token %.4f, batch x T %.4f (same rows, more pads)", r->wide_T, (double)r->per_token_wide,
            (double)r->batch_t_wide);
    tui_color(TUI_WARN);
    tui_put(b.y + 10, b.x, b.w, "without ignore_index: %ld fake pad targets join in; the loss reads %.4f,", r->fake_terms,
            (double)r->loss_with_pads);
    tui_put(b.y + 11, b.x, b.w, "and %.4f for a model that learned to predict pad", (double)r->loss_pad_perfect);
    tui_color_off(TUI_WARN);
}

/* ---- train ---- */

/* Validation accuracy per epoch, one column group per epoch: * this run,
 * o the previous one (the previous drawn first, so this run shows on top). */
static void epoch_chart(TuiBox b, const PlLabTraining *t, int epochs) {
    int step = epochs > 1 ? (b.w - 2) / epochs : b.w - 2;
    step = step > 8 ? 8 : step < 2 ? 2 : step;
    for (int e = 0; e < epochs; e++) tui_put(b.y + b.h, b.x + e * step, step, "%d", e + 1);
    for (int s = 0; s < 2; s++) {
        const float *v = s ? t->curve : t->prev_curve;
        int n = s ? t->curve_n : t->prev_n;
        TuiColor c = s ? TUI_REAL : TUI_PAD;
        tui_color(c);
        for (int e = 0; e < n && e < epochs; e++) {
            double f = ((double)v[e] - 0.5) / 0.5;
            f = f < 0 ? 0 : f > 1 ? 1 : f;
            mvaddstr(b.y + b.h - 1 - (int)(f * (b.h - 1) + 0.5), b.x + e * step, s ? "*" : "o");
        }
        tui_color_off(c);
    }
}

static void view_train(PlLab *lab, TuiBox b, int *scroll) {
    const PlLabTraining *t = pl_lab_training(lab);
    heading(b, 0, "train: the running configuration and the finished runs");
    const PlProgress *p = &t->progress;
    if (t->active && p->batches) {
        double done = ((p->epoch - 1) * (double)p->batches + p->batch) / ((double)p->epochs * p->batches);
        tui_put(b.y + 1, b.x, b.w, "%s epoch %d/%d  batch %d/%d  loss %.3f  ETA %.1f s", t->paused ? "PAUSED" : "training", p->epoch,
                p->epochs, p->batch, p->batches, (double)p->loss, t->eta);
        tui_bar(b.y + 2, b.x, b.w - 2 > 50 ? 50 : b.w - 2, done, TUI_GOOD);
    } else {
        tui_put(b.y + 1, b.x, b.w, "%s", t->status);
    }
    int ch = b.h / 2 - 4 > 3 ? b.h / 2 - 4 : 3;
    tui_put(b.y + 3, b.x, b.w, "validation accuracy per epoch (0.5 .. 1.0): * this run, o the previous run");
    TuiBox cb = {b.y + 4, b.x + 5, ch, b.w - 6};
    tui_put(cb.y, b.x, 5, "1.0");
    tui_put(cb.y + ch - 1, b.x, 5, "0.5");
    epoch_chart(cb, t, p->epochs > 0 ? p->epochs : (t->curve_n > t->prev_n ? t->curve_n : t->prev_n));
    char accs[160] = "";
    for (int i = 0; i < t->curve_n && strlen(accs) < 140; i++) snprintf(accs + strlen(accs), sizeof accs - strlen(accs), "%.3f ", (double)t->curve[i]);
    tui_put(cb.y + ch + 1, b.x, b.w, "this run: %s", accs);
    int y = cb.y + ch + 3, n;
    PlLabGrid g = pl_lab_grid(lab);
    if (g.active) {
        tui_put(y++, b.x, b.w, "%s: %d of %d runs", g.status, g.finished, g.total);
    } else if (g.done) {
        tui_put(y++, b.x, b.w, "grid (g): padding x mask, %d seeds   median  mean  std   min   max", PL_LAB_GRID_SEEDS);
        for (int k = 0; k < g.n; k++) {
            const PlSummary *s = &g.summary[k];
            tui_put(y++, b.x, b.w, "  padding %-4s mask %-5s                   %.3f  %.3f %.3f %.3f %.3f", s->setup.v[0].str,
                    s->setup.v[1].num ? "on" : "off", s->median, s->mean, s->std, s->min, s->max);
        }
    } else {
        tui_put(y++, b.x, b.w, "g runs the padding x mask grid over %d seeds; %s", PL_LAB_GRID_SEEDS, g.status[0] ? g.status : "");
    }
    y++;
    const PlLabRun *runs = pl_lab_runs(lab, &n);
    static const char *const sorts[] = {"in order", "by best accuracy", "by time"};
    if (*scroll > n - 1) *scroll = n > 0 ? n - 1 : 0;
    tui_put(y++, b.x, b.w, "finished runs, %s (s sorts, j/k scroll):", sorts[pl_lab_runs_sort(lab)]);
    tui_color(TUI_DIM);
    tui_put(y++, b.x, b.w, "  %-9s %-7s %-5s %-4s %6s %-8s %4s  %5s  %6s", "model", "padding", "trunc", "mask", "maxlen", "batching",
            "seed", "best", "time");
    tui_color_off(TUI_DIM);
    for (int i = *scroll; i < n && y < b.y + b.h; i++, y++) {
        const PlLabSettings *s = &runs[i].settings;
        tui_put(y, b.x, b.w, "  %-9s %-7s %-5s %-4s %6d %-8.8s %4d  %.3f  %5.2fs", pl_arch_name(s->model), pl_side_name(s->padding),
                pl_side_name(s->truncating), s->mask ? "on" : "off", s->maxlen, pl_batching_name(s->batching), s->seed,
                (double)runs[i].best_val_acc, runs[i].seconds);
    }
}

/* ---- layers ---- */

static void view_layers(PlLab *lab, TuiBox b, int *scroll) {
    PlErr err;
    const PlProbeLayers *r = pl_lab_layers(lab, &err);
    if (!r) return failed(b, &err);
    heading(b, 0, "layers: perturb only the pads; does anything reach a real position?");
    tui_put(b.y + 1, b.x, b.w, "%ld pad cells perturbed in a %d x %d batch", r->pads, r->B, r->T);
    if (*scroll > r->n - 1) *scroll = r->n - 1;
    for (int i = *scroll; i < r->n && 2 + i - *scroll < b.h; i++) {
        const PlLayerLeak *l = &r->rows[i];
        int ok = l->leak == 0.0f;
        int y = b.y + 2 + i - *scroll;
        tui_put(y, b.x, 32, "%-10s mask %-4s %10.3g", l->name, l->mask, (double)l->leak);
        tui_color(ok ? TUI_GOOD : TUI_WARN);
        tui_put(y, b.x + 33, b.w - 33, "%s", !r->pads ? "(no pads)" : ok ? "respects the pads" : "pads leak in");
        tui_color_off(ok ? TUI_GOOD : TUI_WARN);
    }
}

/* ---- generate ---- */

static void view_generate(PlLab *lab, TuiBox b, int *scroll) {
    *scroll = 0; /* fits the screen: nothing to scroll */
    PlErr err;
    const PlProbeGenerate *r = pl_lab_generate(lab, &err);
    if (!r) return failed(b, &err);
    heading(b, 0, "generate: decoder prompts, left vs right padding");
    int y = b.y + 2;
    for (int i = 0; i < r->B && y + 3 < b.y + b.h - 5; i++) {
        tui_put(y++, b.x, b.w, "prompt %d (%d tokens)", i, r->len[i]);
        for (int side = 0; side < 2; side++, y++) {
            const int32_t *ids = (side ? r->ids_right : r->ids_left) + (size_t)i * r->T;
            tui_put(y, b.x + 2, 7, "%s", side ? "right" : "left");
            uint8_t real[4096];
            int T = r->T < 4096 ? r->T : 4096;
            for (int t = 0; t < T; t++) real[t] = ids[t] != 0;
            grid_row(y, b.x + 9, b.w - 10, real, T);
        }
    }
    y++;
    tui_put(y++, b.x, b.w, "the last column is a pad in %d rows (right) and %d (left)", r->naive_last_column_pad_rows_right,
            r->naive_last_column_pad_rows_left);
    tui_put(y++, b.x, b.w, "next-token logits against each prompt run alone (largest difference):");
    tui_put(y++, b.x, b.w, "  left, corrected position ids %.2g; left, positions 0..T-1 %.2g", (double)r->left_vs_single_max_diff,
            (double)r->left_naive_positions_max_diff);
    tui_put(y++, b.x, b.w, "  right, at the last real token %.2g; right, at the last column %.2g",
            (double)r->right_last_real_vs_single_max_diff, (double)r->right_last_column_vs_single_max_diff);
}

void tui_view_draw(PlLab *lab, PlView v, TuiBox b, int *scroll) {
    static void (*const draw[PL_VIEW_COUNT])(PlLab *, TuiBox, int *) = {
        [PL_VIEW_BATCH] = view_batch, [PL_VIEW_COST] = view_cost, [PL_VIEW_ATTENTION] = view_attention,
        [PL_VIEW_RNN] = view_rnn, [PL_VIEW_POOLING] = view_pooling, [PL_VIEW_LOSS] = view_loss,
        [PL_VIEW_TRAIN] = view_train, [PL_VIEW_LAYERS] = view_layers, [PL_VIEW_GENERATE] = view_generate,
    };
    draw[v](lab, b, scroll);
}
