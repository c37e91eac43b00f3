/* padlab probe masks and padlab probe identity. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "probe_cli.h"

static void float_array(JsonW *w, const char *key, const float *v, int n) {
    json_arr(w, key);
    for (int i = 0; i < n; i++) json_num(w, NULL, (double)v[i]);
    json_close(w, ']');
}

/* ---- masks ---- */

/* What 1 (or 0.0 for the bias) means in each convention, by PlMaskConv. */
static const char *const keep_word[] = {"1 = keep", "1 = ignore", "1 = keep", "0 = keep"};

static void json_bool_row(JsonW *w, const char *key, const uint8_t *m, int T) {
    json_arr(w, key);
    for (int t = 0; t < T; t++) json_int(w, NULL, m[t]);
    json_close(w, ']');
}

static void masks_json(const PlProbeMasks *r) {
    JsonW w;
    json_begin(&w, stdout);
    json_obj(&w, "summary");
    json_num(&w, "share_right", (double)r->share_right);
    json_num(&w, "share_none", (double)r->share_none);
    json_num(&w, "share_inverted", (double)r->share_inverted);
    json_int(&w, "padded_rows", r->padded_rows);
    json_int(&w, "padded_queries", r->padded_queries);
    json_int(&w, "blind_rows", r->blind_rows);
    json_int(&w, "blind_queries", r->blind_queries);
    json_int(&w, "real_tokens", r->real_tokens);
    json_bool(&w, "agree", r->agree);
    json_int(&w, "nan_count", r->nan_count);
    json_close(&w, '}');
    json_int(&w, "B", r->B);
    json_int(&w, "T", r->T);
    json_int(&w, "heads", r->heads);
    json_int(&w, "dhead", r->dhead);
    json_int(&w, "example_row", r->row);
    json_arr(&w, "conventions");
    for (int k = 0; k < 4; k++) {
        json_obj(&w, NULL);
        json_str(&w, "name", pl_mask_conv_name((PlMaskConv)k));
        json_str(&w, "meaning", keep_word[k]);
        json_str(&w, "code", pl_mask_conv_code((PlMaskConv)k));
        json_int(&w, "keep", r->keep[k]);
        json_close(&w, '}');
    }
    json_close(&w, ']');
    json_arr(&w, "rows");
    for (int i = 0; i < r->B; i++) {
        size_t at = (size_t)i * r->T;
        json_obj(&w, NULL);
        json_int(&w, "example", r->example[i]);
        json_int(&w, "real_tokens", r->len[i]);
        json_int(&w, "pads", r->pads[i]);
        json_bool(&w, "blind", r->pads[i] == 0);
        json_arr(&w, "ids");
        for (int t = 0; t < r->T; t++) json_int(&w, NULL, r->ids[at + t]);
        json_close(&w, ']');
        json_bool_row(&w, "keras", r->keras + at, r->T);
        json_bool_row(&w, "torch", r->torch + at, r->T);
        json_bool_row(&w, "hf", r->hf + at, r->T);
        json_arr(&w, "additive");
        for (int t = 0; t < r->T; t++) {
            if (r->additive[at + t] == 0.0f) json_int(&w, NULL, 0);
            else json_num(&w, NULL, (double)r->additive[at + t]); /* -inf prints as null */
        }
        json_close(&w, ']');
        json_num(&w, "share_right", (double)r->row_share[(size_t)i * 3 + 0]);
        json_num(&w, "share_none", (double)r->row_share[(size_t)i * 3 + 1]);
        json_num(&w, "share_inverted", (double)r->row_share[(size_t)i * 3 + 2]);
        json_close(&w, '}');
    }
    json_close(&w, ']');
    json_end(&w);
}

/* The cell of convention k at (row, t), as a library prints it. */
static const char *mask_cell(const PlProbeMasks *r, int k, size_t at, char *buf, size_t n) {
    int v = k == PL_MASK_KERAS ? r->keras[at] : k == PL_MASK_TORCH ? r->torch[at] : r->hf[at];
    if (k == PL_MASK_ADDITIVE) return r->additive[at] == 0.0f ? "0" : "-inf";
    snprintf(buf, n, "%d", v);
    return buf;
}

/* The example row's four masks side by side, one column per run of real
 * tokens or pads (the mask is constant along a run), each with its code. */
static void masks_example(const PlCorpus *c, const PlProbeMasks *r) {
    enum { MAX_RUNS = 8 };
    int start[MAX_RUNS], end[MAX_RUNS], nruns = 0;
    size_t row = (size_t)r->row * r->T;
    for (int t = 0; t < r->T && nruns < MAX_RUNS; t++) {
        if (t == 0 || r->keras[row + t] != r->keras[row + t - 1]) start[nruns] = t, end[nruns] = t, nruns++;
        else end[nruns - 1] = t;
    }
    char head[MAX_RUNS][32];
    int width[MAX_RUNS];
    for (int k = 0; k < nruns; k++) {
        const char *kind = r->keras[row + start[k]] ? "real" : "pad";
        if (start[k] == end[k]) snprintf(head[k], sizeof head[k], "%d %s", start[k], kind);
        else snprintf(head[k], sizeof head[k], "%d-%d %s", start[k], end[k], kind);
        width[k] = (int)strlen(head[k]) > 4 ? (int)strlen(head[k]) : 4;
    }
    printf("the example, row %d (review %d): %d real tokens and %d pads\n  words  ", r->row, r->example[r->row],
           r->len[r->row], r->pads[r->row]);
    probe_print_tokens(c, r->ids + row, r->keras + row, r->T);
    /* Printed by hand rather than as an OutTable: every mask column is
     * right-aligned, -inf included. */
    printf("\n  %-10s  %-10s", "convention", "meaning");
    for (int k = 0; k < nruns; k++) printf("  %*s", width[k], head[k]);
    printf("  built from input_ids (pad_id = 0) by\n");
    for (int m = 0; m < 4; m++) {
        char buf[8];
        printf("  %-10s  %-10s", pl_mask_conv_name((PlMaskConv)m), keep_word[m]);
        for (int k = 0; k < nruns; k++) printf("  %*s", width[k], mask_cell(r, m, row + (size_t)start[k], buf, sizeof buf));
        printf("  %s\n", pl_mask_conv_code((PlMaskConv)m));
    }
}

static void pct(OutTable *t, float share) {
    if (isnan(share)) out_table_cell(t, "-");
    else out_table_cell(t, "%.1f%%", 100.0 * (double)share);
}

static void masks_rows(const PlProbeMasks *r) {
    static const char *const head[] = {"row", "review", "real", "pads", "on pads: right", "no mask", "inverted"};
    OutTable t;
    out_table_init(&t, 7, head);
    for (int i = 0; i < r->B; i++) {
        const float *s = r->row_share + (size_t)i * 3;
        out_table_cell(&t, "%d", i);
        out_table_cell(&t, "%d", r->example[i]);
        out_table_cell(&t, "%d", r->len[i]);
        out_table_cell(&t, "%d", r->pads[i]);
        pct(&t, s[0]);
        pct(&t, s[1]);
        if (r->pads[i] == 0) out_table_cell(&t, "blind: sees no key");
        else pct(&t, s[2]);
    }
    out_table_print(&t, stdout, OUT_TABLE, 2);
    out_table_done(&t);
}

/* weights names where the attention weights came from, for the sentence. */
static void masks_table(const PlCorpus *c, const PlProbeMasks *r, const PlProbeOpts *o, const char *weights) {
    printf("one padding mask in four conventions: a batch of %d rows of width %d (padding %s, truncating %s)\n\n", r->B, r->T,
           pl_side_name(o->padding), pl_side_name(o->truncating));
    masks_example(c, r);
    if (r->agree)
        printf("\nread each in its own convention, all four keep the same %ld cells: the batch's real tokens.\n", r->real_tokens);
    else
        printf("\nthe conventions disagree on what to keep (keras %ld, torch %ld, hf %ld, additive %ld, real tokens %ld)\n",
               r->keep[0], r->keep[1], r->keep[2], r->keep[3], r->real_tokens);
    printf("\nself-attention over the batch, %d heads of %d (%s).\n"
           "Of the attention each real token pays, the share that lands on pads, row by row:\n", r->heads, r->dhead, weights);
    masks_rows(r);
    if (!r->padded_rows) {
        printf("\nno row of this batch has a pad, so there is nothing to leak: try a larger --maxlen or other --batch rows\n");
    } else {
        printf("\nover the %d row%s with pads (%ld real tokens):\n", r->padded_rows, r->padded_rows == 1 ? "" : "s",
               r->padded_queries);
        static const char *const label[] = {"key_padding_mask = input_ids == pad_id (right)", "no mask at all",
                                            "key_padding_mask = the hf attention_mask (inverted)"};
        static const char *const verdict[] = {"the pads get nothing", "the pads take a share they should not",
                                              "the real tokens are hidden: only pads are seen"};
        const float share[] = {r->share_right, r->share_none, r->share_inverted};
        for (int k = 0; k < 3; k++) printf("  %-52s %6.1f%%  %s\n", label[k], 100.0 * (double)share[k], verdict[k]);
    }
    if (r->blind_rows)
        printf("\n%d row%s (%ld query positions) %s no pad, so the inverted mask hides every key from %s tokens.\n"
               "PyTorch's softmax over nothing but -inf gives NaN there; padlab keeps zero weights and a zero output.\n",
               r->blind_rows, r->blind_rows == 1 ? "" : "s", r->blind_queries, r->blind_rows == 1 ? "has" : "have",
               r->blind_rows == 1 ? "its" : "their");
    else
        printf("\nevery row has a pad, so no row is blind under the inverted mask; a full row would see no key at all.\n");
}

static int run_masks(const CliArgs *a) {
    ProbeSetup s;
    int rc = probe_setup(a, &s);
    if (rc) return rc;
    PlProbeMasks r;
    PlErr err;
    PlStatus st = pl_probe_masks(s.corpus, &s.opts, s.model, &r, &err);
    if (st) rc = probe_failed(a, st, &err);
    else if (s.fmt == OUT_JSON) masks_json(&r);
    else
        masks_table(s.corpus, &r, &s.opts,
                    !s.model ? "fresh weights from --seed"
                    : pl_model_config(s.model)->arch == PL_ARCH_ATTENTION ? "the model's weights"
                                                                          : "the model's embedding, fresh attention weights from --seed");
    pl_probe_masks_free(&r);
    probe_done(&s);
    return rc;
}

static const CliOpt masks_opts[] = {
    PROBE_OPTS,
    {NULL, NULL, NULL},
};

const CliCommand cli_cmd_probe_masks = {
    .name = "probe masks",
    .summary = "the batch's mask in four conventions, and the inverted-polarity bug measured",
    .usage = "[--corpus SRC] [--example I] [--batch I,J,...] [--maxlen N] [--padding pre|post]\n"
             "                         [--seed S] [--model FILE] [--format table|json]",
    .details = "Writes the batch's one padding mask as Keras (1 = keep), PyTorch key_padding_mask\n"
               "(1 = ignore), Hugging Face attention_mask (1 = keep) and the additive bias (0 / -inf),\n"
               "each with the line of library code that builds it from input_ids. Then runs\n"
               "self-attention over the batch three ways and reports the share of the real tokens'\n"
               "attention that lands on pads: with the right mask (0%), with none, and with the\n"
               "Hugging Face mask passed as key_padding_mask (100%: pads seen, real tokens hidden);\n"
               "rows with no pad are blind under that bug. --mask does not matter here.",
    .opts = masks_opts,
    .max_pos = 0,
    .run = run_masks,
};

/* ---- identity ---- */

static void identity_json(const PlProbeIdentity *r) {
    JsonW w;
    json_begin(&w, stdout);
    json_obj(&w, "summary");
    json_num(&w, "masked_max_diff", (double)r->masked_max_diff);
    json_num(&w, "unmasked_max_diff", (double)r->unmasked_max_diff);
    json_num(&w, "mask_effect_max_diff", (double)r->mask_effect_max_diff);
    json_bool(&w, "order_blind", r->order_blind);
    json_int(&w, "pads", r->pads);
    json_close(&w, '}');
    json_str(&w, "arch", pl_arch_name(r->arch));
    json_int(&w, "B", r->B);
    json_int(&w, "T", r->T);
    json_arr(&w, "examples");
    for (int i = 0; i < r->B; i++) json_int(&w, NULL, r->example[i]);
    json_close(&w, ']');
    json_arr(&w, "real_tokens");
    for (int i = 0; i < r->B; i++) json_int(&w, NULL, r->len[i]);
    json_close(&w, ']');
    json_obj(&w, "logits");
    float_array(&w, "pre_masked", r->pre_masked, r->B);
    float_array(&w, "post_masked", r->post_masked, r->B);
    float_array(&w, "pre_unmasked", r->pre_unmasked, r->B);
    float_array(&w, "post_unmasked", r->post_unmasked, r->B);
    json_close(&w, '}');
    json_end(&w);
}

static void identity_table(const PlProbeIdentity *r, int own_weights) {
    static const char *const head[] = {"row", "review", "real", "pre + mask", "post + mask", "pre, no mask", "post, no mask"};
    printf("the same %d reviews padded pre and padded post to width %d, through one %s (%s); one logit per row\n\n", r->B, r->T,
           pl_arch_name(r->arch), own_weights ? "the model's weights" : "fresh weights from --seed");
    OutTable t;
    out_table_init(&t, 7, head);
    for (int i = 0; i < r->B; i++) {
        out_table_cell(&t, "%d", i);
        out_table_cell(&t, "%d", r->example[i]);
        out_table_cell(&t, "%d", r->len[i]);
        out_table_cell(&t, "%.7f", (double)r->pre_masked[i]);
        out_table_cell(&t, "%.7f", (double)r->post_masked[i]);
        out_table_cell(&t, "%.7f", (double)r->pre_unmasked[i]);
        out_table_cell(&t, "%.7f", (double)r->post_unmasked[i]);
    }
    out_table_print(&t, stdout, OUT_TABLE, 2);
    out_table_done(&t);
    if (!r->pads) {
        printf("\nthis batch has no pads (every row fills the width), so padding pre and post give the same batch and\n"
               "nothing can differ: try a larger --maxlen or --batch rows of different lengths\n");
        return;
    }
    if (r->masked_max_diff == 0.0f) printf("\nwith the mask, pre and post padding give exactly the same logits.\n");
    else
        printf("\nwith the mask, pre and post padding give the same logits: they differ by at most %.3g (float rounding).\n",
               (double)r->masked_max_diff);
    if (!r->order_blind) {
        printf("without it they differ by up to %.3g: the pads are read like words, and where they sit changes the answer.\n",
               (double)r->unmasked_max_diff);
    } else {
        printf("without it they still agree (%.3g): %s does not see token order, so the side the pads are on cannot\n"
               "matter. The pads still change the answer: masked and unmasked logits differ by up to %.3g.\n",
               (double)r->unmasked_max_diff, pl_arch_name(r->arch), (double)r->mask_effect_max_diff);
    }
}

static int run_identity(const CliArgs *a) {
    const char *archs[PL_ARCH_COUNT + 1];
    for (int i = 0; i < PL_ARCH_COUNT; i++) archs[i] = pl_arch_name((PlArch)i);
    archs[PL_ARCH_COUNT] = NULL;
    int arch;
    if (cli_choice(a, "arch", "rnn", archs, &arch)) return 2;
    ProbeSetup s;
    int rc = probe_setup(a, &s);
    if (rc) return rc;
    if (s.model && cli_flag(a, "arch") && pl_model_config(s.model)->arch != (PlArch)arch) {
        rc = cli_usage_error(a, "--arch %s: the model is %s (--arch names fresh weights; a --model brings its own)",
                             archs[arch], pl_arch_name(pl_model_config(s.model)->arch));
        probe_done(&s);
        return rc;
    }
    PlProbeIdentity r;
    PlErr err;
    PlStatus st = pl_probe_identity(s.corpus, &s.opts, (PlArch)arch, s.model, &r, &err);
    if (st) rc = probe_failed(a, st, &err);
    else if (s.fmt == OUT_JSON) identity_json(&r);
    else identity_table(&r, s.model != NULL);
    pl_probe_identity_free(&r);
    probe_done(&s);
    return rc;
}

static const CliOpt identity_opts[] = {
    PROBE_OPTS,
    {"arch", "KIND", "fresh weights of rnn (default), gru, lstm, avgpool, maxpool or attention"},
    {NULL, NULL, NULL},
};

const CliCommand cli_cmd_probe_identity = {
    .name = "probe identity",
    .summary = "the same reviews padded pre and post through one model: equal with the mask",
    .usage = "[--corpus SRC] [--example I] [--batch I,J,...] [--maxlen N] [--truncating pre|post]\n"
             "                            [--arch KIND] [--seed S] [--model FILE] [--format table|json]",
    .details = "Pads the batch both ways (same rows, same width) and runs both through the same\n"
               "weights (fresh from --seed, or a saved model's) with the Keras mask and without it.\n"
               "Prints every row's four logits and the largest pre/post difference each way: float\n"
               "rounding with the mask; large without it for the recurrent models. Pooling and\n"
               "attention (which has no positions) do not see order, so they agree even unmasked,\n"
               "and the probe shows what the mask changes instead. --padding and --mask do not\n"
               "matter here: both are run.",
    .opts = identity_opts,
    .max_pos = 0,
    .run = run_identity,
};
