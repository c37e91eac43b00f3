/* The cost result: what the selected batching costs over the whole corpus,
 * the static sweep over maxlen, and every strategy side by side (the table
 * `padlab buckets` prints for the same settings). */
#include "report.h"

#include <math.h>
#include <string.h>

/* The names of the static sweep's point i: cost.static_WHAT_share(M), and
 * where M is the lab's maxlen the lab's own share too (its padding share
 * only when it batches statically: the sweep is static's). */
static const char *sweep_names(char *buf, size_t cap, const char *what, const PlLabCost *k, int i,
                               const PlResultInfo *info) {
    int here = k->sweep_maxlen[i] == pl_maxlen_of(info->settings.maxlen, info->longest);
    int same = here && (strcmp(what, "kept") == 0 || info->settings.batching == PL_BATCH_STATIC);
    snprintf(buf, cap, "cost.static_%s_share(%d)%s%s%s", what, k->sweep_maxlen[i], same ? ",cost." : "",
             same ? what : "", same ? "_share" : "");
    return buf;
}

PlStatus pl_report_cost_json(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                             const PlReportOpts *o) {
    const PlLabCost *k = result;
    const PlCost *cost = &k->cost;
    JsonW w;
    char q[96];
    json_begin(&w, f);
    w.ledger = o->ledger;
    json_obj(&w, "summary");
    json_str(&w, "strategy", pl_batching_name((PlBatching)info->settings.batching));
    int sel = info->settings.batching;
    char n1[128];
    json_fig(&w, "padding_share", pl_report_selected_names(n1, sizeof n1, "padding_share", "padding_share", sel),
             k->padding_share);
    json_fig(&w, "kept_share", "cost.kept_share", k->kept_share);
    json_fig(&w, "truncated_share", "cost.truncated_share", k->truncated_share);
    json_fig_int(&w, "tokens_cut", "cost.tokens_cut", k->tokens_cut);
    json_fig_int(&w, "batches", "cost.batches", cost->batches);
    json_fig_int(&w, "shapes", pl_report_selected_names(n1, sizeof n1, "shapes", "shapes", sel), cost->shapes);
    json_fig_int(&w, "slots", pl_report_selected_names(n1, sizeof n1, "cells", "cells", sel), cost->slots);
    json_fig_int(&w, "real_tokens", "cost.real_tokens", cost->real_tokens);
    json_int(&w, "total_tokens", cost->total_tokens);
    json_int(&w, "rows_truncated", cost->rows_truncated);
    json_fig_int(&w, "rnn_steps", pl_report_selected_names(n1, sizeof n1, "rnn_steps", "cells", sel), cost->rnn_steps);
    json_fig_int(&w, "rnn_wasted", pl_report_selected_names(n1, sizeof n1, "rnn_wasted", "cells", sel),
                 cost->rnn_wasted);
    json_fig_int(&w, "attention_cells",
                 pl_report_selected_names(n1, sizeof n1, "attention_cells", "attention_cells", sel), cost->attn_cells);
    json_fig_int(&w, "attention_real_cells", "cost.attention_real_cells", cost->attn_real_cells);
    json_close(&w, '}');
    json_arr(&w, "sweep");
    for (int i = 0; i < PL_LAB_SWEEP; i++) {
        json_obj(&w, NULL);
        json_int(&w, "maxlen", k->sweep_maxlen[i]);
        json_fig(&w, "padding_share", sweep_names(q, sizeof q, "padding", k, i, info), k->sweep_padding[i]);
        json_fig(&w, "kept_share", sweep_names(q, sizeof q, "kept", k, i, info), k->sweep_kept[i]);
        json_close(&w, '}');
    }
    json_close(&w, ']');
    json_int(&w, "sweep_at", k->sweep_at);
    json_obj(&w, "crossing");
    json_fig(&w, "maxlen", "cost.crossing_maxlen", k->cross_maxlen);
    json_fig(&w, "share", "cost.crossing_maxlen", k->cross_share);
    json_close(&w, '}');
    json_obj(&w, "lengths");
    json_fig_int(&w, "min", "corpus.min", k->lengths.min);
    json_fig_int(&w, "max", "corpus.max", k->lengths.max);
    json_fig(&w, "p50", "corpus.median", k->lengths.median);
    json_num(&w, "p90", k->len_p90);
    json_fig(&w, "p95", "corpus.p95", k->lengths.p95);
    json_num(&w, "p99", k->len_p99);
    json_int(&w, "longer_than_maxlen", k->len_over_maxlen);
    json_int(&w, "bin_width", k->len_bin_width);
    json_arr(&w, "histogram");
    for (int b = 0; b < PL_LAB_LEN_BINS; b++) json_int(&w, NULL, k->len_hist[b]);
    json_close(&w, ']');
    json_close(&w, '}');
    pl_report_strategies_json(&w, k->strategies, k->nstrategies, info->settings.batching);
    return pl_report_json_end(&w, PL_R_COST, c, info, o);
}

PlStatus pl_report_cost_text(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                             const PlReportOpts *o) {
    static const char *const sweep_head[] = {"maxlen", "padding_share", "kept_share"};
    const PlLabCost *k = result;
    const PlCost *cost = &k->cost;
    int selected = info->settings.batching;
    const PlLedger *l = o->ledger;
    pl_report_header(f, PL_R_COST, c, info, o);
    char n1[128];
    fputs("padding share    ", f),
        pl_fig_fprintf(f, l, pl_report_selected_names(n1, sizeof n1, "padding_share", "padding_share", selected),
                       "%.1f%%", 100.0 * k->padding_share);
    fputs(" of the ", f), pl_fig_fprintf(f, l, pl_report_selected_names(n1, sizeof n1, "cells", "cells", selected),
                                         "%lld", (long long)cost->slots);
    fputs(" cells in ", f), pl_fig_fprintf(f, l, "cost.batches", "%lld", (long long)cost->batches);
    fputs(" batches\nbatch shapes     ", f),
        pl_fig_fprintf(f, l, pl_report_selected_names(n1, sizeof n1, "shapes", "shapes", selected), "%lld",
                       (long long)cost->shapes);
    fputs(" distinct rows x width\ntokens kept      ", f),
        pl_fig_fprintf(f, l, "cost.kept_share", "%.1f%%", 100.0 * k->kept_share);
    fputs(" (", f), pl_fig_fprintf(f, l, "cost.real_tokens", "%lld", (long long)cost->real_tokens);
    fprintf(f, " of %lld)\ntokens cut       ", (long long)cost->total_tokens);
    pl_fig_fprintf(f, l, "cost.tokens_cut", "%lld", (long long)k->tokens_cut);
    fputs(" (", f), pl_fig_fprintf(f, l, "cost.truncated_share", "%.1f%%", 100.0 * k->truncated_share);
    fputs(" of the rows were truncated)\nRNN steps        ", f);
    pl_fig_fprintf(f, l, "cost.real_tokens", "%lld", (long long)cost->real_tokens);
    fputs(" real of ", f), pl_fig_fprintf(f, l, pl_report_selected_names(n1, sizeof n1, "rnn_steps", "cells", selected),
                                          "%lld", (long long)cost->rnn_steps);
    fputs(" run (", f), pl_fig_fprintf(f, l, pl_report_selected_names(n1, sizeof n1, "rnn_wasted", "cells", selected),
                                       "%lld", (long long)cost->rnn_wasted);
    fputs(" on pads)\nattention cells  ", f);
    pl_fig_fprintf(f, l, "cost.attention_real_cells", "%lld", (long long)cost->attn_real_cells);
    fputs(" real of ", f),
        pl_fig_fprintf(f, l, pl_report_selected_names(n1, sizeof n1, "attention_cells", "attention_cells", selected),
                       "%lld", (long long)cost->attn_cells);
    fputs("; activations ", f); /* cells x width: the cells' figure */
    pl_fig_fprintf(f, l, pl_report_selected_names(n1, sizeof n1, "rnn_steps", "cells", selected), "%.1f",
                   (double)pl_cost_bytes(cost, PL_DEFAULT_WIDTH) / 1e6);
    fprintf(f, " MB at width %d\n", PL_DEFAULT_WIDTH);
    char maxlen[64];
    pl_maxlen_text(info->settings.maxlen, info->longest, maxlen, sizeof maxlen);
    fprintf(f, "\nstatic batches at maxlen %d .. %d (the nearest to maxlen %s: %d):\n", k->sweep_maxlen[0],
            k->sweep_maxlen[PL_LAB_SWEEP - 1], maxlen, k->sweep_maxlen[k->sweep_at]);
    OutTable t;
    out_table_init(&t, 3, sweep_head);
    for (int i = 0; i < PL_LAB_SWEEP; i++) {
        char q[160], v[64];
        out_table_cell(&t, "%d", k->sweep_maxlen[i]);
        out_table_cell(
            &t, "%s",
            pl_fig_drawn(v, sizeof v, l, sweep_names(q, sizeof q, "padding", k, i, info), "%.4f", k->sweep_padding[i]));
        out_table_cell(
            &t, "%s",
            pl_fig_drawn(v, sizeof v, l, sweep_names(q, sizeof q, "kept", k, i, info), "%.4f", k->sweep_kept[i]));
    }
    int bad = out_table_print(&t, f, OUT_TABLE, 2);
    out_table_done(&t);
    if (bad) return PL_ENOMEM;
    if (k->cross_maxlen >= 0.0)
        pl_fig_fprintf(f, l, "cost.crossing_maxlen",
                       "padding share meets the share of tokens cut at maxlen %.0f (%.1f%% each)", k->cross_maxlen,
                       100.0 * k->cross_share),
            fputc('\n', f);
    fputs("\nlengths: min ", f), pl_fig_fprintf(f, l, "corpus.min", "%d", k->lengths.min);
    fputs(", median ", f), pl_fig_fprintf(f, l, "corpus.median", "%.0f", k->lengths.median);
    fprintf(f, ", p90 %.0f, p95 ", k->len_p90), pl_fig_fprintf(f, l, "corpus.p95", "%.0f", k->lengths.p95);
    fprintf(f, ", p99 %.0f, max ", k->len_p99), pl_fig_fprintf(f, l, "corpus.max", "%d", k->lengths.max);
    fprintf(f, "; %d reviews longer than maxlen %s\n", k->len_over_maxlen, maxlen);
    fprintf(f, "  histogram, bins of %d tokens (the last holds every longer review):", k->len_bin_width);
    for (int b = 0; b < PL_LAB_LEN_BINS; b++) fprintf(f, " %d", k->len_hist[b]);
    fprintf(f, "\n");
    fprintf(f, "\nevery strategy at these settings (vs static: the cells and attention cells it computes, against "
               "static's):\n");
    if (pl_report_strategies_table(f, k->strategies, k->nstrategies, OUT_TABLE, selected, l)) return PL_ENOMEM;
    fprintf(f, "  (* the selected strategy)\n");
    return pl_report_status(f);
}

const char *pl_report_vs_static(double saved, int than_static, char *buf, int cap) {
    double ratio = 1.0 - saved; /* its cells over static's */
    const char *tail = than_static ? " than static" : "";
    if (fabs(saved) < 0.0005) snprintf(buf, (size_t)cap, "same%s", than_static ? " as static" : "");
    else if (saved > 0.0) snprintf(buf, (size_t)cap, "%.1f%% fewer%s", 100.0 * saved, tail);
    else if (ratio < 2.0) snprintf(buf, (size_t)cap, "%.1f%% more%s", -100.0 * saved, tail);
    else snprintf(buf, (size_t)cap, "%.1fx as many%s", ratio, than_static ? " as static" : "");
    return buf;
}

const char *pl_report_selected_names(char *buf, size_t cap, const char *bare, const char *row, int selected) {
    snprintf(buf, cap, "cost.%s,cost.%s(%s)", bare, row, pl_batching_name((PlBatching)selected));
    return buf;
}

static int same_cells(const PlStrategyRow *a, const PlStrategyRow *b) {
    return a->cost.batches == b->cost.batches && a->cost.slots == b->cost.slots && a->tokens_cut == b->tokens_cut;
}

/* Two rows with the same cells may still differ in their shapes (widths 10
 * and 20 against 15 and 15): a row's shapes are the lab's only when equal. */
static int same_row(const char *q, const PlStrategyRow *a, const PlStrategyRow *b) {
    return same_cells(a, b) && (strcmp(q, "shapes") != 0 || a->cost.shapes == b->cost.shapes);
}

const char *pl_report_row_names(char *buf, size_t cap, const char *q, const PlStrategyRow *rows, int n, int i,
                                int selected) {
    if (rows[i].kind == PL_BATCH_LONGEST && strcmp(q, "tokens_cut") == 0 && (int)rows[i].kind != selected)
        return snprintf(buf, cap, "%s", ""), buf; /* padded to the longest, nothing is cut: 0 tells nothing */
    int same = 0;
    for (int j = 0; j < n && selected >= 0; j++)
        if ((int)rows[j].kind == selected) same = j == i || same_row(q, &rows[i], &rows[j]);
    if (same) snprintf(buf, cap, "cost.%s(%s),cost.%s", q, pl_batching_name(rows[i].kind), q);
    else snprintf(buf, cap, "cost.%s(%s)", q, pl_batching_name(rows[i].kind));
    return buf;
}

/* A row's real tokens: the lab's, but the longest's, which cuts nothing: the corpus's tokens, on show. */
static const char *real_name(const PlStrategyRow *r) { return r->kind == PL_BATCH_LONGEST ? "" : "cost.real_tokens"; }

void pl_report_strategies_json(JsonW *w, const PlStrategyRow *rows, int n, int selected) {
    char q[160];
    json_arr(w, "strategies");
    for (int i = 0; i < n; i++) {
        const PlStrategyRow *r = &rows[i];
        json_obj(w, NULL);
        json_str(w, "name", pl_batching_name(r->kind));
        json_fig_int(w, "batches", pl_report_row_names(q, sizeof q, "batches", rows, n, i, selected), r->cost.batches);
        json_fig_int(w, "shapes", pl_report_row_names(q, sizeof q, "shapes", rows, n, i, selected), r->cost.shapes);
        json_fig(w, "padding_share", pl_report_row_names(q, sizeof q, "padding_share", rows, n, i, selected),
                 r->padding_share);
        json_fig_int(w, "slots", pl_report_row_names(q, sizeof q, "cells", rows, n, i, selected), r->cost.slots);
        json_fig_int(w, "real_tokens", real_name(r), r->cost.real_tokens);
        json_fig_int(w, "tokens_cut", pl_report_row_names(q, sizeof q, "tokens_cut", rows, n, i, selected),
                     r->tokens_cut);
        json_fig_int(w, "attention_cells", pl_report_row_names(q, sizeof q, "attention_cells", rows, n, i, selected),
                     r->cost.attn_cells);
        json_fig(w, "cells_saved", pl_report_row_names(q, sizeof q, "cells_saved", rows, n, i, -1), r->cells_saved);
        json_fig(w, "attention_saved", pl_report_row_names(q, sizeof q, "attention_saved", rows, n, i, -1),
                 r->attn_saved);
        json_fig(w, "cells_vs_static", pl_report_row_names(q, sizeof q, "cells_saved", rows, n, i, -1),
                 1.0 - r->cells_saved);
        json_fig(w, "attention_vs_static", pl_report_row_names(q, sizeof q, "attention_saved", rows, n, i, -1),
                 1.0 - r->attn_saved);
        json_close(w, '}');
    }
    json_close(w, ']');
}

/* Row i's names for figure q_ (in a loop over rows with its q buffer). */
#define ROWN(q_, selected_) pl_report_row_names(q, sizeof q, (q_), rows, n, i, (selected_))

/* A table for a reader says what each strategy computes against static in
 * words; CSV keeps the numbers: the saving (negative: it computes more) and
 * the ratio to static's. */
int pl_report_strategies_table(FILE *f, const PlStrategyRow *rows, int n, OutFormat fmt, int selected,
                               const PlLedger *l) {
    static const char *const head[] = {"strategy",    "batches",         "shapes",          "padding_share",
                                       "slots",       "real_tokens",     "tokens_cut",      "attention_cells",
                                       "cells_saved", "attention_saved", "cells_vs_static", "attention_vs_static"};
    static const char *const words[] = {
        "strategy",    "batches",    "shapes",          "padding_share",   "slots",
        "real_tokens", "tokens_cut", "attention_cells", "cells_vs_static", "attention_vs_static"};
    int csv = fmt == OUT_CSV;
    OutTable t;
    out_table_init(&t, csv ? 12 : 10, csv ? head : words);
    for (int i = 0; i < n; i++) {
        const PlStrategyRow *r = &rows[i];
        char a[48], b[48], q[160], v[96];
        PlBatching k = r->kind;
        out_table_cell(&t, "%s%s", pl_batching_name(k), (int)k == selected ? " *" : "");
        out_table_cell(&t, "%s",
                       pl_fig_drawn(v, sizeof v, l, ROWN("batches", selected), "%lld", (long long)r->cost.batches));
        out_table_cell(&t, "%s",
                       pl_fig_drawn(v, sizeof v, l, ROWN("shapes", selected), "%lld", (long long)r->cost.shapes));
        out_table_cell(&t, "%s",
                       pl_fig_drawn(v, sizeof v, l, ROWN("padding_share", selected), "%.4f", r->padding_share));
        out_table_cell(&t, "%s",
                       pl_fig_drawn(v, sizeof v, l, ROWN("cells", selected), "%lld", (long long)r->cost.slots));
        /* the real tokens do not follow the batching: every row's are the lab's */
        out_table_cell(&t, "%s", pl_fig_drawn(v, sizeof v, l, real_name(r), "%lld", (long long)r->cost.real_tokens));
        out_table_cell(&t, "%s",
                       pl_fig_drawn(v, sizeof v, l, ROWN("tokens_cut", selected), "%lld", (long long)r->tokens_cut));
        out_table_cell(
            &t, "%s",
            pl_fig_drawn(v, sizeof v, l, ROWN("attention_cells", selected), "%lld", (long long)r->cost.attn_cells));
        const char *saved = ROWN("cells_saved", -1);
        if (csv) {
            out_table_cell(&t, "%s", pl_fig_drawn(v, sizeof v, l, saved, "%.4f", r->cells_saved));
            out_table_cell(&t, "%s", pl_fig_drawn(v, sizeof v, l, ROWN("attention_saved", -1), "%.4f", r->attn_saved));
            out_table_cell(&t, "%s",
                           pl_fig_drawn(v, sizeof v, l, ROWN("cells_saved", -1), "%.4f", 1.0 - r->cells_saved));
            out_table_cell(&t, "%s",
                           pl_fig_drawn(v, sizeof v, l, ROWN("attention_saved", -1), "%.4f", 1.0 - r->attn_saved));
        } else {
            pl_report_vs_static(r->cells_saved, 0, a, sizeof a);
            out_table_cell(&t, "%s", pl_fig_drawn(v, sizeof v, l, saved, "%s", a));
            pl_report_vs_static(r->attn_saved, 0, b, sizeof b);
            out_table_cell(&t, "%s", pl_fig_drawn(v, sizeof v, l, ROWN("attention_saved", -1), "%s", b));
        }
    }
    int bad = out_table_print(&t, f, fmt, fmt == OUT_TABLE ? 2 : 0);
    out_table_done(&t);
    if (!bad && fmt == OUT_TABLE)
        fputs("  " PL_REPORT_SHAPES_WHAT "\n  " PL_REPORT_SHAPES_WHY "\n  " PL_REPORT_SHAPES_BOUND "\n", f);
    return bad;
}
