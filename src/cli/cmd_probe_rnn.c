/* padlab probe rnn and padlab probe pooling. */
#include <math.h>
#include <stdio.h>

#include "probe_cli.h"

static void float_array(JsonW *w, const char *key, const float *v, int n) {
    json_arr(w, key);
    for (int i = 0; i < n; i++) json_num(w, NULL, (double)v[i]);
    json_close(w, ']');
}

/* ---- rnn ---- */

static void rnn_json(const PlProbeRnn *r) {
    JsonW w;
    json_begin(&w, stdout);
    json_obj(&w, "summary");
    json_num(&w, "final_distance_to_last_real", (double)r->final_distance_to_last_real);
    json_num(&w, "last_real_survival", (double)r->last_real_survival);
    json_bool(&w, "fixed_point_found", r->fixed_found);
    json_num(&w, "masked_carry_distance", (double)r->masked_carry_distance);
    json_num(&w, "pad_embedding_norm", (double)r->pad_embedding_norm);
    float_array(&w, "distance_to_fixed_point", r->dist_fixed + r->last_real + 1, r->T - 1 - r->last_real);
    json_close(&w, '}');
    json_str(&w, "cell", pl_arch_name(r->cell));
    json_int(&w, "T", r->T);
    json_int(&w, "real_tokens", r->L);
    json_str(&w, "padding", pl_side_name(r->padding));
    json_bool(&w, "mask", r->mask);
    json_int(&w, "first_real", r->first_real);
    json_int(&w, "last_real", r->last_real);
    json_obj(&w, "readouts");
    json_num(&w, "last_position_norm", (double)r->last_pos_norm);
    json_num(&w, "last_real_norm", (double)r->last_real_norm);
    json_num(&w, "masked_carry_norm", (double)r->masked_carry_norm);
    json_close(&w, '}');
    json_obj(&w, "fixed_point");
    json_int(&w, "iterations", r->fixed_iters);
    json_num(&w, "residual", (double)r->fixed_residual);
    float_array(&w, "state", r->h_fixed, r->H);
    json_close(&w, '}');
    float_array(&w, "norm", r->norm, r->T);
    float_array(&w, "distance_to_last_real", r->dist_last, r->T);
    float_array(&w, "step_change", r->step, r->T);
    float_array(&w, "distance_to_fixed_point_all", r->dist_fixed, r->T);
    json_end(&w);
}

static void rnn_table(const PlProbeRnn *r) {
    static const char *const head[] = {"step", "input", "|h|", "to_last_real", "change", "to_fixed_point"};
    printf("%s, %d units, one example padded to %d (%s padding), %d real tokens at steps %d..%d; mask %s\n\n",
           pl_arch_name(r->cell), r->H, r->T, pl_side_name(r->padding), r->L, r->first_real, r->last_real, r->mask ? "on" : "off");
    OutTable t;
    out_table_init(&t, 6, head);
    for (int s = 0; s < r->T; s++) {
        int near = s < 3 || (s >= r->first_real - 2 && s <= r->first_real + 1) || (s >= r->last_real - 1 && s <= r->last_real + 4) || s >= r->T - 3;
        if (!near && r->T > 24) continue;
        out_table_cell(&t, "%d", s);
        out_table_cell(&t, "%s", s >= r->first_real && s <= r->last_real ? "token" : "pad");
        out_table_cell(&t, "%.5f", (double)r->norm[s]);
        out_table_cell(&t, "%.5f", (double)r->dist_last[s]);
        out_table_cell(&t, "%.5f", (double)r->step[s]);
        out_table_cell(&t, "%.5f", (double)r->dist_fixed[s]);
    }
    out_table_print(&t, stdout, OUT_TABLE, 2);
    out_table_done(&t);
    if (r->T > 24) printf("  (steps away from the edges left out; --format json has every step)\n");
    if (r->fixed_found)
        printf("\nfixed point of the pad-input map: found after %d pad steps (residual %.2g), |h*| %.5f\n", r->fixed_iters,
               (double)r->fixed_residual, (double)r->fixed_norm);
    else
        printf("\nthe pad-input map has no fixed point here: after %d pad steps the state still moves by %.3g each step\n"
               "(it cycles); distances to h* below are to the state where the search stopped\n", r->fixed_iters,
               (double)r->fixed_residual);
    printf("readouts: last array position without the mask |h| %.5f, last real step |h| %.5f, masked carry |h| %.5f\n", (double)r->last_pos_norm,
           (double)r->last_real_norm, (double)r->masked_carry_norm);
    printf("the state read out is %.6g away from the state after the last real token\n", (double)r->final_distance_to_last_real);
    printf("with the mask the carried state is %.6g away from it\n", (double)r->masked_carry_distance);
    if (r->fixed_found)
        printf("of the last real state's distance from h*, %.1f%% remains at the last position (100%% = intact)\n",
               100.0 * (double)r->last_real_survival);
    printf("pad embedding row |e_0| = %.5f%s\n", (double)r->pad_embedding_norm,
           r->zero_pad_embedding ? " (zeroed: the pads still move the state through the bias and the recurrence)" : "");
}

static int run_rnn(const CliArgs *a) {
    static const char *const cells[] = {"rnn", "gru", "lstm", NULL};
    int cell;
    if (cli_choice(a, "cell", "rnn", cells, &cell)) return 2;
    ProbeSetup s;
    int rc = probe_setup(a, &s);
    if (rc) return rc;
    PlProbeRnn r;
    PlErr err;
    PlStatus st = pl_probe_rnn(s.corpus, &s.opts, s.model, (PlArch)cell, cli_flag(a, "zero-pad-embedding"), &r, &err);
    if (st) rc = probe_failed(a, st, &err);
    else if (s.fmt == OUT_JSON) rnn_json(&r);
    else rnn_table(&r);
    pl_probe_rnn_free(&r);
    probe_done(&s);
    return rc;
}

static const CliOpt rnn_opts[] = {
    PROBE_OPTS,
    {"cell", "rnn|gru|lstm", "the recurrent cell of fresh weights (default rnn)"},
    {"zero-pad-embedding", NULL, "set the pad row of the embedding to zero"},
    {NULL, NULL, NULL},
};

const CliCommand cli_cmd_probe_rnn = {
    .name = "probe rnn",
    .summary = "a recurrent state step by step over one padded example: drift, fixed point, readouts",
    .usage = "[--corpus SRC] [--example I] [--maxlen N] [--padding pre|post] [--mask on|off]\n"
             "                       [--cell rnn|gru|lstm] [--zero-pad-embedding] [--model FILE] [--format table|json]",
    .details = "Pads the example to --maxlen and follows the hidden state: its norm, its distance\n"
               "from the state after the last real token, the change at each step, and its\n"
               "distance from h*, the fixed point the pad input drives the state to (found by\n"
               "iterating pads). Compares the three readouts: the last array position, the last\n"
               "real step, and the state the mask carries.",
    .opts = rnn_opts,
    .max_pos = 0,
    .run = run_rnn,
};

/* ---- pooling ---- */

static void pooling_json(const PlProbePooling *r) {
    JsonW w;
    json_begin(&w, stdout);
    json_obj(&w, "summary");
    json_num(&w, "mean_real_weight", r->mean_real_weight);
    json_num(&w, "min_real_weight", r->min_real_weight);
    json_num(&w, "avg_unmasked_distance", (double)r->avg_unmasked_dist);
    json_num(&w, "avg_divide_by_T_distance", (double)r->avg_div_t_dist);
    json_num(&w, "max_unmasked_distance", (double)r->max_unmasked_dist);
    json_close(&w, '}');
    json_int(&w, "maxlen", r->maxlen);
    json_arr(&w, "histogram");
    for (int k = 0; k < PL_POOL_HIST_BINS; k++) json_int(&w, NULL, r->hist[k]);
    json_close(&w, ']');
    json_obj(&w, "example");
    json_int(&w, "real_tokens", r->L);
    json_num(&w, "real_weight", (double)r->example_weight);
    float_array(&w, "avg_masked", r->avg_masked, r->E);
    float_array(&w, "avg_unmasked", r->avg_unmasked, r->E);
    float_array(&w, "avg_divide_by_T", r->avg_div_t, r->E);
    float_array(&w, "max_masked", r->max_masked, r->E);
    float_array(&w, "max_unmasked", r->max_unmasked, r->E);
    json_close(&w, '}');
    json_end(&w);
}

static void pooling_table(const PlProbePooling *r, const PlCorpus *c) {
    printf("weight on real tokens, min(L, %d) / %d, over %d reviews: mean %.4f, minimum %.4f\n", r->maxlen, r->maxlen, c->n,
           r->mean_real_weight, r->min_real_weight);
    int most = 1;
    for (int k = 0; k < PL_POOL_HIST_BINS; k++) most = r->hist[k] > most ? r->hist[k] : most;
    for (int k = 0; k < PL_POOL_HIST_BINS; k++) {
        printf("  %.1f-%.1f %6d ", k / 10.0, (k + 1) / 10.0, r->hist[k]);
        for (int i = 0; i < 40 * r->hist[k] / most; i++) putchar('#');
        putchar('\n');
    }
    printf("\nthe example: %d real tokens of %d, weight %.4f\n", r->L, r->maxlen, (double)r->example_weight);
    printf("  average, masked                     the reference\n");
    printf("  average, unmasked (pads counted)    distance %.6f\n", (double)r->avg_unmasked_dist);
    printf("  average, real sum divided by T      distance %.6f\n", (double)r->avg_div_t_dist);
    printf("  max, unmasked vs masked             distance %.6f\n", (double)r->max_unmasked_dist);
}

static int run_pooling(const CliArgs *a) {
    ProbeSetup s;
    int rc = probe_setup(a, &s);
    if (rc) return rc;
    PlProbePooling r;
    PlErr err;
    PlStatus st = pl_probe_pooling(s.corpus, &s.opts, s.model, &r, &err);
    if (st) rc = probe_failed(a, st, &err);
    else if (s.fmt == OUT_JSON) pooling_json(&r);
    else pooling_table(&r, s.corpus);
    pl_probe_pooling_free(&r);
    probe_done(&s);
    return rc;
}

static const CliOpt pooling_opts[] = {
    PROBE_OPTS,
    {NULL, NULL, NULL},
};

const CliCommand cli_cmd_probe_pooling = {
    .name = "probe pooling",
    .summary = "how pads dilute a pooled vector, over the corpus and for one example",
    .usage = "[--corpus SRC] [--example I] [--maxlen N] [--padding pre|post] [--model FILE] [--format table|json]",
    .details = "Over the corpus: the weight real tokens get in an unmasked mean, min(L, maxlen)\n"
               "/ maxlen, its mean, minimum and histogram. For the example: the masked mean,\n"
               "the unmasked mean, the real sum divided by T, and masked and unmasked max\n"
               "pooling, with how far each lands from the masked vector.",
    .opts = pooling_opts,
    .max_pos = 0,
    .run = run_pooling,
};
