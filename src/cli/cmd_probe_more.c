/* padlab probe loss, layers and generate. */
#include <stdio.h>

#include "probe_cli.h"

/* ---- loss ---- */

static void loss_json(const PlProbeLoss *r) {
    JsonW w;
    json_begin(&w, stdout);
    json_obj(&w, "summary");
    json_num(&w, "per_token", (double)r->per_token);
    json_num(&w, "per_sequence", (double)r->per_sequence);
    json_num(&w, "batch_t", (double)r->batch_t);
    json_int(&w, "fake_terms", r->fake_terms);
    json_int(&w, "real_terms", r->real_terms);
    json_num(&w, "grad_per_token", (double)r->grad_per_token);
    json_num(&w, "grad_per_sequence", (double)r->grad_per_sequence);
    json_num(&w, "grad_batch_t", (double)r->grad_batch_t);
    json_int(&w, "wide_T", r->wide_T);
    json_num(&w, "per_token_wide", (double)r->per_token_wide);
    json_num(&w, "batch_t_wide", (double)r->batch_t_wide);
    json_num(&w, "loss_with_pads", (double)r->loss_with_pads);
    json_num(&w, "loss_pad_perfect", (double)r->loss_pad_perfect);
    json_close(&w, '}');
    json_int(&w, "B", r->B);
    json_int(&w, "T", r->T);
    json_int(&w, "classes", r->C);
    json_arr(&w, "rows");
    for (int b = 0; b < r->B; b++) {
        json_obj(&w, NULL);
        json_arr(&w, "targets");
        for (int t = 0; t < r->T; t++) json_int(&w, NULL, r->targets[(size_t)b * r->T + t]);
        json_close(&w, ']');
        json_arr(&w, "terms");
        for (int t = 0; t < r->T; t++) json_num(&w, NULL, (double)r->terms[(size_t)b * r->T + t]);
        json_close(&w, ']');
        json_close(&w, '}');
    }
    json_close(&w, ']');
    json_end(&w);
}

static void loss_table(const PlProbeLoss *r) {
    printf("next-token cross-entropy over a batch of %d rows of width %d (%d classes), pads at -100\n\n", r->B, r->T, r->C);
    for (int b = 0; b < r->B; b++) {
        long n = 0;
        double s = 0.0;
        for (int t = 0; t < r->T; t++) {
            size_t i = (size_t)b * r->T + t;
            if (r->targets[i] == -100) continue;
            n++;
            s += (double)r->terms[i];
        }
        printf("  row %d: %ld positions count, their losses sum to %.4f (mean %.4f)\n", b, n, s, n ? s / n : 0.0);
    }
    printf("\n  normalisation   loss     |gradient|\n");
    printf("  per token      %.5f  %.6f\n", (double)r->per_token, (double)r->grad_per_token);
    printf("  per sequence   %.5f  %.6f\n", (double)r->per_sequence, (double)r->grad_per_sequence);
    printf("  batch x T      %.5f  %.6f\n", (double)r->batch_t, (double)r->grad_batch_t);
    printf("\npadded to %d instead of %d: per token %.5f (unchanged), batch x T %.5f\n", r->wide_T, r->T, (double)r->per_token_wide,
           (double)r->batch_t_wide);
    printf("without ignore_index: %ld fake pad targets join the %ld real ones; the per-token loss reads %.5f,\n", r->fake_terms,
           r->real_terms, (double)r->loss_with_pads);
    printf("and a model that learned to predict pad would read %.5f without being any better at the real ones\n",
           (double)r->loss_pad_perfect);
}

static int run_loss(const CliArgs *a) {
    ProbeSetup s;
    int rc = probe_setup(a, &s);
    if (rc) return rc;
    PlProbeLoss r;
    PlErr err;
    PlStatus st = pl_probe_loss(s.corpus, &s.opts, s.model, &r, &err);
    if (st) rc = probe_failed(a, st, &err);
    else if (s.fmt == OUT_JSON) loss_json(&r);
    else loss_table(&r);
    pl_probe_loss_free(&r);
    probe_done(&s);
    return rc;
}

static const CliOpt common_opts[] = {
    PROBE_OPTS,
    {NULL, NULL, NULL},
};

const CliCommand cli_cmd_probe_loss = {
    .name = "probe loss",
    .summary = "token losses per position, three normalisations, pads left in the loss",
    .usage = "[--corpus SRC] [--batch I,J,...] [--maxlen N] [--padding pre|post] [--model FILE] [--format table|json]",
    .details = "A recurrent token model (fresh from --seed, or one saved by padlab experiment loss)\n"
               "predicts the next token at every position of the batch; pad targets are -100.\n"
               "Prints each position's loss, the batch loss per real token, per sequence and\n"
               "over batch x T with its gradient size, what batch x T does when the same rows\n"
               "are padded wider, and what happens without ignore_index.",
    .opts = common_opts,
    .max_pos = 0,
    .run = run_loss,
};

/* ---- layers ---- */

static void layers_json(const PlProbeLayers *r) {
    JsonW w;
    json_begin(&w, stdout);
    json_obj(&w, "summary");
    float worst = 0.0f;
    for (int i = 0; i < r->n; i++)
        if (r->rows[i].mask[1] == 'n' && r->rows[i].leak > worst) worst = r->rows[i].leak; /* mask "on" */
    json_num(&w, "masked_leak_max", (double)worst);
    json_int(&w, "pads", r->pads);
    json_close(&w, '}');
    json_arr(&w, "layers");
    for (int i = 0; i < r->n; i++) {
        json_obj(&w, NULL);
        json_str(&w, "name", r->rows[i].name);
        json_str(&w, "mask", r->rows[i].mask);
        json_num(&w, "leak", (double)r->rows[i].leak);
        json_close(&w, '}');
    }
    json_close(&w, ']');
    json_end(&w);
}

static void layers_table(const PlProbeLayers *r) {
    static const char *const head[] = {"layer", "mask", "leak", "verdict"};
    printf("the %ld pad cells of a %d x %d batch perturbed; the largest change that reaches a real\n"
           "position (or the pooled output, or a recurrent readout):\n\n", r->pads, r->B, r->T);
    OutTable t;
    out_table_init(&t, 4, head);
    for (int i = 0; i < r->n; i++) {
        out_table_cell(&t, "%s", r->rows[i].name);
        out_table_cell(&t, "%s", r->rows[i].mask);
        out_table_cell(&t, "%.3g", (double)r->rows[i].leak);
        out_table_cell(&t, "%s", !r->pads ? "(no pads)" : r->rows[i].leak == 0.0f ? "respects the pads" : "pads leak in");
    }
    out_table_print(&t, stdout, OUT_TABLE, 2);
    out_table_done(&t);
    if (!r->pads) printf("\nthis batch has no pads, so nothing could leak: try a larger --maxlen or shorter reviews\n");
}

static int run_layers(const CliArgs *a) {
    ProbeSetup s;
    int rc = probe_setup(a, &s);
    if (rc) return rc;
    PlProbeLayers r;
    PlErr err;
    PlStatus st = pl_probe_layers(s.corpus, &s.opts, s.model, &r, &err);
    if (st) rc = probe_failed(a, st, &err);
    else if (s.fmt == OUT_JSON) layers_json(&r);
    else layers_table(&r);
    probe_done(&s);
    return rc;
}

const CliCommand cli_cmd_probe_layers = {
    .name = "probe layers",
    .summary = "which layers respect a mask, measured by perturbing the pads",
    .usage = "[--corpus SRC] [--batch I,J,...] [--maxlen N] [--padding pre|post] [--format table|json]",
    .details = "Replaces every pad of the batch (the pad id, or its embedding with noise) and\n"
               "measures how far the change reaches: embedding, SimpleRNN, GRU and LSTM with and\n"
               "without the mask, average and max pooling masked and unmasked, dense, conv1d,\n"
               "flatten, and attention with and without the padding mask. 0 means the layer\n"
               "respects the pads.",
    .opts = common_opts,
    .max_pos = 0,
    .run = run_layers,
};

/* ---- generate ---- */

static void int_rows(JsonW *w, const char *key, const int32_t *v, int B, int T) {
    json_arr(w, key);
    for (int b = 0; b < B; b++) {
        json_arr(w, NULL);
        for (int t = 0; t < T; t++) json_int(w, NULL, v[(size_t)b * T + t]);
        json_close(w, ']');
    }
    json_close(w, ']');
}

static void generate_json(const PlProbeGenerate *r) {
    JsonW w;
    json_begin(&w, stdout);
    json_obj(&w, "summary");
    json_obj(&w, "left");
    json_int(&w, "naive_last_column_pad_rows", r->naive_last_column_pad_rows_left);
    json_num(&w, "left_vs_single_max_diff", (double)r->left_vs_single_max_diff);
    json_num(&w, "naive_positions_max_diff", (double)r->left_naive_positions_max_diff);
    json_close(&w, '}');
    json_obj(&w, "right");
    json_int(&w, "naive_last_column_pad_rows", r->naive_last_column_pad_rows_right);
    json_num(&w, "last_real_vs_single_max_diff", (double)r->right_last_real_vs_single_max_diff);
    json_num(&w, "last_column_vs_single_max_diff", (double)r->right_last_column_vs_single_max_diff);
    json_close(&w, '}');
    json_num(&w, "left_vs_single_max_diff", (double)r->left_vs_single_max_diff);
    json_close(&w, '}');
    json_int(&w, "B", r->B);
    json_int(&w, "T", r->T);
    int_rows(&w, "ids_left", r->ids_left, r->B, r->T);
    int_rows(&w, "ids_right", r->ids_right, r->B, r->T);
    int_rows(&w, "position_ids_naive", r->pos_naive, r->B, r->T);
    int_rows(&w, "position_ids_left_corrected", r->pos_left, r->B, r->T);
    json_end(&w);
}

static void print_row(const char *label, const int32_t *v, int T) {
    printf("    %-10s", label);
    for (int t = 0; t < T; t++) printf(" %4d", v[t]);
    putchar('\n');
}

static void generate_table(const PlProbeGenerate *r) {
    printf("%d prompts, lengths", r->B);
    for (int b = 0; b < r->B; b++) printf(" %d", r->len[b]);
    printf("; a batch of width %d\n\n", r->T);
    for (int b = 0; b < r->B; b++) {
        size_t at = (size_t)b * r->T;
        printf("  prompt %d\n", b);
        print_row("left ids", r->ids_left + at, r->T);
        print_row("left pos", r->pos_left + at, r->T);
        print_row("right ids", r->ids_right + at, r->T);
        print_row("naive pos", r->pos_naive + at, r->T);
    }
    printf("\nnaive code reads the last column: a pad in %d row%s under right padding, %d under left padding\n",
           r->naive_last_column_pad_rows_right, r->naive_last_column_pad_rows_right == 1 ? "" : "s", r->naive_last_column_pad_rows_left);
    printf("next-token logits against each prompt run alone (largest difference):\n");
    printf("  left padding, corrected position ids      %.3g\n", (double)r->left_vs_single_max_diff);
    printf("  left padding, position ids 0..T-1         %.3g\n", (double)r->left_naive_positions_max_diff);
    printf("  right padding, read at the last real token %.3g\n", (double)r->right_last_real_vs_single_max_diff);
    printf("  right padding, read at the last column    %.3g\n", (double)r->right_last_column_vs_single_max_diff);
}

static int run_generate(const CliArgs *a) {
    ProbeSetup s;
    int rc = probe_setup(a, &s);
    if (rc) return rc;
    PlProbeGenerate r;
    PlErr err;
    PlStatus st = pl_probe_generate(s.corpus, &s.opts, &r, &err);
    if (st) rc = probe_failed(a, st, &err);
    else if (s.fmt == OUT_JSON) generate_json(&r);
    else generate_table(&r);
    pl_probe_generate_free(&r);
    probe_done(&s);
    return rc;
}

const CliCommand cli_cmd_probe_generate = {
    .name = "probe generate",
    .summary = "decoder-only batches: left vs right padding, the last column, position ids",
    .usage = "[--corpus SRC] [--batch I,J,...] [--maxlen N] [--seed S] [--format table|json]",
    .details = "The batch's rows are prompts (cut to --maxlen). Lays them out left-padded and\n"
               "right-padded, shows the position ids a naive model uses and the corrected ones,\n"
               "and runs a small seeded causal decoder: its next-token logits under each layout\n"
               "against each prompt run alone.",
    .opts = common_opts,
    .max_pos = 0,
    .run = run_generate,
};
