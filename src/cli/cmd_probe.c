/* padlab probe batch and padlab probe attention. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "probe_cli.h"

/* ---- batch ---- */

static void json_mask_row(JsonW *w, const PlProbeBatch *r, size_t at, int T) {
    json_arr(w, "mask");
    for (int t = 0; t < T; t++) {
        if (r->conv != PL_MASK_ADDITIVE) json_int(w, NULL, r->conv_mask[at + t]);
        else if (r->additive[at + t] == 0.0f) json_int(w, NULL, 0);
        else json_num(w, NULL, (double)r->additive[at + t]); /* -inf prints as null */
    }
    json_close(w, ']');
}

static void batch_json(const PlCorpus *c, const PlProbeBatch *r) {
    const PlBatch *b = r->batch;
    JsonW w;
    json_begin(&w, stdout);
    json_obj(&w, "summary");
    json_int(&w, "real_tokens", r->real_tokens);
    json_int(&w, "mask_real", r->mask_real);
    json_int(&w, "mask_ones", r->mask_ones);
    json_int(&w, "label_positions", r->label_positions);
    json_bool(&w, "agree", r->agree);
    if (r->disagrees) json_str(&w, "disagrees", r->disagrees);
    json_close(&w, '}');
    json_str(&w, "convention", pl_mask_conv_name(r->conv));
    json_int(&w, "B", b->B);
    json_int(&w, "T", b->T);
    json_arr(&w, "rows");
    for (int i = 0; i < b->B; i++) {
        size_t at = (size_t)i * b->T;
        json_obj(&w, NULL);
        json_int(&w, "example", b->row[i]);
        json_int(&w, "label", b->labels[i]);
        json_int(&w, "length", b->orig_len[i]);
        json_int(&w, "kept", b->len[i]);
        json_arr(&w, "ids");
        for (int t = 0; t < b->T; t++) json_int(&w, NULL, b->ids[at + t]);
        json_close(&w, ']');
        json_arr(&w, "words");
        for (int t = 0; t < b->T; t++) json_str(&w, NULL, pl_corpus_word(c, b->ids[at + t]));
        json_close(&w, ']');
        json_mask_row(&w, r, at, b->T);
        json_arr(&w, "labels");
        for (int t = 0; t < b->T; t++) json_int(&w, NULL, r->labels[at + t]);
        json_close(&w, ']');
        json_close(&w, '}');
    }
    json_close(&w, ']');
    json_end(&w);
}

static const char *conv_meaning(PlMaskConv c) {
    static const char *const m[] = {"1 = real token (Keras, True = keep)", "1 = pad (PyTorch key_padding_mask, True = ignore)",
                                    "1 = real token (Hugging Face attention_mask)", "0 = real token, -inf = pad (additive bias)"};
    return m[c];
}

static void batch_table(const PlCorpus *c, const PlProbeBatch *r, const PlProbeOpts *o) {
    const PlBatch *b = r->batch;
    printf("a batch of %d rows, width %d (padding %s, truncating %s); mask convention %s: %s\n\n", b->B, b->T,
           pl_side_name(o->padding), pl_side_name(o->truncating), pl_mask_conv_name(r->conv), conv_meaning(r->conv));
    for (int i = 0; i < b->B; i++) {
        size_t at = (size_t)i * b->T;
        printf("row %d: example %d, label %d, %d tokens, %d kept\n  words  ", i, b->row[i], b->labels[i], b->orig_len[i], b->len[i]);
        probe_print_tokens(c, b->ids + at, b->mask + at, b->T);
        printf("  ids   ");
        for (int t = 0; t < b->T; t++) printf(" %d", b->ids[at + t]);
        printf("\n  mask  ");
        for (int t = 0; t < b->T; t++) {
            if (r->conv == PL_MASK_ADDITIVE) printf(" %s", r->additive[at + t] == 0.0f ? "0" : "-inf");
            else printf(" %d", r->conv_mask[at + t]);
        }
        printf("\n  labels");
        for (int t = 0; t < b->T; t++) printf(" %d", r->labels[at + t]);
        printf("\n\n");
    }
    printf("real tokens %ld; positions the mask marks real %ld (cells holding %s: %ld); label positions that count %ld\n",
           r->real_tokens, r->mask_real, r->conv == PL_MASK_ADDITIVE ? "0" : "1", r->mask_ones, r->label_positions);
    if (r->agree) printf("the three counts agree\n");
    else printf("the counts disagree: the %s count is off\n", r->disagrees);
}

static int run_batch(const CliArgs *a) {
    static const char *const convs[] = {"keras", "torch", "hf", "additive", NULL};
    int conv;
    if (cli_choice(a, "convention", "keras", convs, &conv)) return 2;
    ProbeSetup s;
    int rc = probe_setup(a, &s);
    if (rc) return rc;
    s.opts.conv = (PlMaskConv)conv;
    PlProbeBatch r;
    PlErr err;
    PlStatus st = pl_probe_batch(s.corpus, &s.opts, &r, &err);
    if (st) rc = probe_failed(a, st, &err);
    else if (s.fmt == OUT_JSON) batch_json(s.corpus, &r);
    else batch_table(s.corpus, &r, &s.opts);
    pl_probe_batch_free(&r);
    probe_done(&s);
    return rc;
}

static const CliOpt batch_opts[] = {
    PROBE_OPTS,
    {"convention", "CONV", "the mask shown: keras (default), torch, hf or additive"},
    {NULL, NULL, NULL},
};

const CliCommand cli_cmd_probe_batch = {
    .name = "probe batch",
    .summary = "one complete batch: ids, words, mask, labels, and whether their counts agree",
    .usage = "[--corpus SRC] [--example I] [--batch I,J,...] [--maxlen N] [--padding pre|post]\n"
             "                         [--truncating pre|post] [--convention keras|torch|hf|additive] [--format table|json]",
    .details = "Prints every row of a padded batch (as wide as its longest row, up to --maxlen):\n"
               "the words (_ for a pad), the ids, the mask in the chosen convention and the\n"
               "token labels with -100 at pads. Then the check every training script wants:\n"
               "the real tokens, the positions the mask marks real (read in its own convention)\n"
               "and the labels that count must be the same number.",
    .opts = batch_opts,
    .max_pos = 0,
    .run = run_batch,
};

/* ---- attention ---- */

static void attention_summary_json(JsonW *w, const PlProbeAttention *r) {
    json_obj(w, "summary");
    json_num(w, "pad_weight_max", (double)r->pad_weight_max);
    json_num(w, "row_sum_error_max", (double)r->row_sum_error_max);
    json_num(w, "batch_invariance_max_diff", (double)r->batch_invariance_max_diff);
    json_num(w, "packed_vs_padded_max_diff", (double)r->packed_vs_padded_max_diff);
    json_int(w, "nan_count", r->nan_count);
    json_num(w, "leak_total", (double)r->leak_total);
    json_int(w, "empty_rows", r->empty_rows);
    json_num(w, "wrong_fix_min_row_sum", (double)r->wrong_fix_min_sum);
    json_int(w, "padded_cells", r->padded_cells);
    json_int(w, "packed_cells", r->packed_cells);
    json_close(w, '}');
}

static void float_matrix(JsonW *w, const char *key, const float *m, int rows, int cols) {
    json_arr(w, key);
    for (int i = 0; i < rows; i++) {
        json_arr(w, NULL);
        for (int j = 0; j < cols; j++) json_num(w, NULL, (double)m[(size_t)i * cols + j]);
        json_close(w, ']');
    }
    json_close(w, ']');
}

static void attention_json(const PlProbeAttention *r) {
    JsonW w;
    json_begin(&w, stdout);
    attention_summary_json(&w, r);
    json_int(&w, "T", r->T);
    json_int(&w, "heads", r->heads);
    json_int(&w, "dhead", r->dhead);
    json_bool(&w, "mask", r->mask);
    json_bool(&w, "causal", r->causal);
    json_int(&w, "real_tokens", r->L);
    json_arr(&w, "cu_seqlens");
    for (int i = 0; i <= r->B; i++) json_int(&w, NULL, r->cu_seqlens[i]);
    json_close(&w, ']');
    json_arr(&w, "example_mask");
    for (int t = 0; t < r->T; t++) json_int(&w, NULL, r->real[t]);
    json_close(&w, ']');
    float_matrix(&w, "bias", r->bias, r->T, r->T);
    json_arr(&w, "heads_detail");
    for (int h = 0; h < r->heads; h++) {
        json_obj(&w, NULL);
        float_matrix(&w, "scores", r->scores + (size_t)h * r->T * r->T, r->T, r->T);
        float_matrix(&w, "weights", r->weights + (size_t)h * r->T * r->T, r->T, r->T);
        float_matrix(&w, "leak", r->leak + (size_t)h * r->T, 1, r->T);
        float_matrix(&w, "row_sum", r->row_sum + (size_t)h * r->T, 1, r->T);
        json_close(&w, '}');
    }
    json_close(&w, ']');
    json_end(&w);
}

static void attention_rows(const PlProbeAttention *r) {
    static const char *const head[] = {"query", "kind", "row_sum", "pad_weight", "wrong_fix_sum"};
    OutTable t;
    out_table_init(&t, 5, head);
    for (int i = 0; i < r->T; i++) {
        if (r->T > 16 && i >= 6 && i < r->T - 6) continue;
        out_table_cell(&t, "%d", i);
        out_table_cell(&t, "%s", r->real[i] ? "real" : "pad");
        out_table_cell(&t, "%.6f", (double)r->row_sum[i]);
        out_table_cell(&t, "%.6f", (double)r->leak[i]);
        out_table_cell(&t, "%.6f", (double)r->wrong_fix_sum[i]);
    }
    out_table_print(&t, stdout, OUT_TABLE, 2);
    out_table_done(&t);
    if (r->T > 16) printf("  (rows 6..%d left out; --format json has them all)\n", r->T - 7);
}

static void attention_table(const PlProbeAttention *r) {
    printf("self-attention, %d head%s of %d, over a batch of %d rows of width %d; padding mask %s, causal %s\n",
           r->heads, r->heads > 1 ? "s" : "", r->dhead, r->B, r->T, r->mask ? "on" : "off", r->causal ? "on" : "off");
    printf("the example: row %d, %d real tokens of %d\n\n", r->row, r->L, r->T);
    printf("head 0, one line per query row of the example (sums over keys):\n");
    attention_rows(r);
    printf("\nlargest weight on a pad key (real queries)   %.6g\n", (double)r->pad_weight_max);
    printf("weight leaked onto pads, all heads          %.6g\n", (double)r->leak_total);
    printf("largest |row sum - 1| (real queries)        %.3g\n", (double)r->row_sum_error_max);
    printf("query rows that see no key (zero weights)   %d  (kept as zero rows, as varlen kernels do: no NaN)\n", r->empty_rows);
    printf("NaN in weights or outputs                   %d\n", r->nan_count);
    printf("wrong fix (weights x mask after softmax, not renormalised): smallest real row sum %.6f\n", (double)r->wrong_fix_min_sum);
    printf("batch invariance: next to example %d (width %d) vs example %d (width %d): outputs differ by %.3g\n",
           r->short_partner, r->short_width, r->long_partner, r->long_width, (double)r->batch_invariance_max_diff);
    printf("packed varlen (cu_seqlens");
    for (int i = 0; i <= r->B; i++) printf("%s%d", i ? " " : " ", r->cu_seqlens[i]);
    printf(") vs the masked padded batch: outputs differ by %.3g\n", (double)r->packed_vs_padded_max_diff);
    printf("score cells per head: padded %lld, packed %lld\n", (long long)r->padded_cells, (long long)r->packed_cells);
}

static int run_attention(const CliArgs *a) {
    int heads, dhead;
    if (cli_int(a, "heads", 2, 1, 64, &heads) || cli_int(a, "dhead", 16, 1, 256, &dhead)) return 2;
    ProbeSetup s;
    int rc = probe_setup(a, &s);
    if (rc) return rc;
    PlProbeAttention r;
    PlErr err;
    PlStatus st = pl_probe_attention(s.corpus, &s.opts, s.model, heads, dhead, cli_flag(a, "causal"), &r, &err);
    if (st) rc = probe_failed(a, st, &err);
    else if (s.fmt == OUT_JSON) attention_json(&r);
    else attention_table(&r);
    pl_probe_attention_free(&r);
    probe_done(&s);
    return rc;
}

static const CliOpt attention_opts[] = {
    PROBE_OPTS,
    {"heads", "N", "attention heads (default 2)"},
    {"dhead", "N", "width of each head (default 16)"},
    {"causal", NULL, "add the causal mask"},
    {NULL, NULL, NULL},
};

const CliCommand cli_cmd_probe_attention = {
    .name = "probe attention",
    .summary = "attention scores, the additive mask, softmax weights, leaks and invariance",
    .usage = "[--corpus SRC] [--example I] [--batch I,J,...] [--mask on|off] [--causal]\n"
             "                             [--heads 2] [--dhead 16] [--model FILE] [--format table|json]",
    .details = "Runs scaled dot-product self-attention over the embedded batch (fresh Keras\n"
               "weights from --seed, or an attention model's). Reports, for the example: the\n"
               "weight that lands on pad keys, row sums, rows with no visible key, NaN; the same\n"
               "sentence next to a short and a long partner; the packed varlen computation\n"
               "against the masked padded batch; and the wrong fix of masking after softmax.",
    .opts = attention_opts,
    .max_pos = 0,
    .run = run_attention,
};
