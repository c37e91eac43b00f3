/* The quantity table (app/lab/quantity.c): each quantity a lesson or a deck
 * names, read through the table and checked against the result struct it
 * reads, a case worked out by hand, or runs written out by hand. By the
 * results they read: the attention batch's shape, pooling from the pad row,
 * the loss's rows and pad targets, the cost sweep (the share cut, where the
 * padding share meets it, the p95), a value in float16, and the spread and
 * the pre+mask / post+mask drift of trained runs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/lab/lab.h"
#include "app/lab/quantity.h"
#include "core/corpus_load.h"
#include "core/corpus_loaders.h"
#include "core/probe.h"
#include "suites.h"

static PlQuantity quantity(const char *name) {
    PlQuantity q;
    char why[200];
    ck_assert_msg(pl_quantity_parse(name, &q, why, sizeof why) == 0, "%s", why);
    return q;
}

/* The value of quantity name in result, under the default settings. */
static double value_of(const char *name, const void *result) {
    PlQuantity q = quantity(name);
    PlLabSettings s = pl_settings_default();
    double v;
    ck_assert_int_eq(pl_quantity_value_in(&q, result, &s, &v), 0);
    return v;
}

/* Whether quantity name has no value in result. */
static int has_no_value(const char *name, const void *result) {
    PlQuantity q = quantity(name);
    PlLabSettings s = pl_settings_default();
    double v;
    return pl_quantity_value_in(&q, result, &s, &v) == -1;
}

/* ---- the attention batch's shape ---- */

/* Reviews of 4, 6 and 2 tokens (start token included). */
static const char *tiny_tsv = "1\tgood fine film\n0\tbad bad dull slow film\n1\tgood\n";

/* The value of an attention quantity, which reads the attention result alone. */
static double attention_value(const char *name, const void *result) {
    PlQuantity q = quantity(name);
    ck_assert_uint_eq(pl_quantity_kinds(&q), 1u << PL_R_ATTENTION);
    return value_of(name, result);
}

START_TEST(test_attention_shape_quantities_count_rows_heads_masks_and_scores) {
    PlCorpus *c;
    ck_assert_int_eq(pl_corpus_load_tsv_mem("tiny.tsv", tiny_tsv, strlen(tiny_tsv), NULL, &c, NULL), PL_OK);
    static const int rows[] = {0, 1, 2};
    PlProbeOpts o = pl_probe_opts_default();
    o.example = 0, o.batch = rows, o.nbatch = 3, o.maxlen = 5, o.padding = PL_POST, o.mask = 1;
    PlProbeAttention r;
    ck_assert_int_eq(pl_probe_attention(c, &o, NULL, 2, 4, 0, &r, NULL), PL_OK);
    /* Three rows of a static batch 5 wide, two heads: by hand, the padding
     * mask (B, 1, 1, T) holds 3 x 5 entries and the scores (B, h, T, T)
     * 3 x 2 x 5 x 5. */
    ck_assert_int_eq(r.B, 3);
    ck_assert_int_eq(r.T, 5);
    ck_assert_int_eq(r.heads, 2);
    ck_assert(attention_value("attention.rows", &r) == 3.0);
    ck_assert(attention_value("attention.heads", &r) == 2.0);
    ck_assert(attention_value("attention.mask_cells", &r) == 15.0);
    ck_assert(attention_value("attention.score_cells", &r) == 150.0);
    /* The scores are every head's padded cells. */
    ck_assert(attention_value("attention.score_cells", &r) == (double)r.heads * (double)r.padded_cells);
    pl_probe_attention_free(&r);
    pl_corpus_free(c);
}
END_TEST

/* ---- pooling from the pad row ---- */

START_TEST(test_one_token_in_four_sits_a_quarter_of_the_way_from_the_pad_row) {
    /* E = 2, L = 1 of T = 4: the token's vector m = (1, 0), the pad row e0 = (0, 2).
     * Unmasked mean (m + 3 e0) / 4 = (0.25, 1.5); real sum / T = m / 4. */
    float masked[2] = {1.0f, 0.0f}, unmasked[2] = {0.25f, 1.5f}, div_t[2] = {0.25f, 0.0f};
    PlProbePooling r;
    memset(&r, 0, sizeof r);
    r.E = 2, r.L = 1, r.T = 4;
    r.avg_masked = masked, r.avg_unmasked = unmasked, r.avg_div_t = div_t;
    ck_assert_double_eq_tol(value_of("pooling.masked_pad_distance", &r), sqrt(5.0), 1e-6);
    ck_assert_double_eq_tol(value_of("pooling.pad_distance", &r), sqrt(0.0625 + 0.25), 1e-6);
    ck_assert_double_eq_tol(value_of("pooling.pad_distance", &r) / value_of("pooling.masked_pad_distance", &r), 0.25,
                            1e-6);
    ck_assert_double_eq_tol(value_of("pooling.masked_norm", &r), 1.0, 1e-9);
    r.L = 4; /* no pad: the pad row cannot be read back */
    ck_assert(has_no_value("pooling.pad_distance", &r));
    ck_assert(has_no_value("pooling.masked_pad_distance", &r));
    ck_assert_double_eq_tol(value_of("pooling.masked_norm", &r), 1.0, 1e-9);
}
END_TEST

START_TEST(test_pad_distance_agrees_with_the_models_own_pad_row) {
    PlCorpus *c;
    ck_assert_int_eq(pl_corpus_inline("inline:a wonderful film|a long and rather dreadful film", NULL, &c, NULL),
                     PL_OK);
    PlModelConfig cfg = pl_model_config_default(PL_ARCH_AVGPOOL);
    cfg.vocab = c->num_words;
    PlModel *m;
    ck_assert_int_eq(pl_model_new(&cfg, 7, &m, NULL), PL_OK);
    PlProbeOpts o = pl_probe_opts_default();
    o.example = 0, o.maxlen = 20, o.padding = PL_POST;
    PlProbePooling r;
    ck_assert_int_eq(pl_probe_pooling(c, &o, m, &r, NULL), PL_OK);
    ck_assert_int_eq(r.L, 3);
    ck_assert_int_eq(r.T, 20);
    const float *e0 = pl_model_param_view(m, PL_P_EMBEDDING, NULL);
    double du = 0.0, dm = 0.0, nm = 0.0;
    for (int i = 0; i < r.E; i++) {
        du += ((double)r.avg_unmasked[i] - (double)e0[i]) * ((double)r.avg_unmasked[i] - (double)e0[i]);
        dm += ((double)r.avg_masked[i] - (double)e0[i]) * ((double)r.avg_masked[i] - (double)e0[i]);
        nm += (double)r.avg_masked[i] * (double)r.avg_masked[i];
    }
    ck_assert_double_eq_tol(value_of("pooling.pad_distance", &r), sqrt(du), 1e-5);
    ck_assert_double_eq_tol(value_of("pooling.masked_pad_distance", &r), sqrt(dm), 1e-5);
    ck_assert_double_eq_tol(value_of("pooling.masked_norm", &r), sqrt(nm), 1e-6);
    /* The unmasked mean lies on the segment from e0 to the masked mean, L / T of the way. */
    ck_assert_double_eq_tol(sqrt(du) / sqrt(dm), 3.0 / 20.0, 1e-4);
    pl_probe_pooling_free(&r);
    pl_model_free(m);
    pl_corpus_free(c);
}
END_TEST

/* ---- the loss's rows and pad targets ---- */

START_TEST(test_loss_rows_of_three_and_six_tokens_count_two_and_five_targets) {
    PlCorpus *c;
    ck_assert_int_eq(pl_corpus_inline("inline:a b c|a b c d e f", NULL, &c, NULL), PL_OK);
    static const int rows[] = {0, 1};
    PlProbeOpts o = pl_probe_opts_default();
    o.example = 0, o.batch = rows, o.nbatch = 2, o.maxlen = 8, o.padding = PL_POST;
    PlProbeLoss r;
    ck_assert_int_eq(pl_probe_loss(c, &o, NULL, &r, NULL), PL_OK);
    ck_assert_int_eq(r.B, 2);
    ck_assert_int_eq(r.T, 8);
    ck_assert_int_eq(r.real_terms, 2 + 5);           /* every token but a row's last has a real next one */
    ck_assert_int_eq(r.fake_terms, 2 * (8 - 1) - 7); /* without ignore_index every position but the last counts */
    ck_assert_double_eq(value_of("loss.rows", &r), 2.0);
    ck_assert_double_eq(value_of("loss.width", &r), 8.0);
    ck_assert_double_eq(value_of("loss.shortest_targets", &r), 2.0);
    ck_assert_double_eq(value_of("loss.longest_targets", &r), 5.0);
    ck_assert_double_eq_tol(value_of("loss.shortest_share", &r), 2.0 / 7.0, 1e-12);
    ck_assert_double_eq_tol(value_of("loss.pad_target_share", &r), 7.0 / 14.0, 1e-12);
    pl_probe_loss_free(&r);
    pl_corpus_free(c);
}
END_TEST

START_TEST(test_loss_shares_follow_the_targets_row_by_row) {
    /* B = 3, T = 3: rows with 2, 0 and 1 counted targets; 3 fake pad targets. */
    int32_t targets[9] = {4, 7, -100, -100, -100, -100, 5, -100, -100};
    PlProbeLoss r;
    memset(&r, 0, sizeof r);
    r.B = 3, r.T = 3, r.targets = targets, r.real_terms = 3, r.fake_terms = 3;
    ck_assert_double_eq(value_of("loss.shortest_targets", &r), 0.0);
    ck_assert_double_eq(value_of("loss.longest_targets", &r), 2.0);
    ck_assert_double_eq(value_of("loss.shortest_share", &r), 0.0);
    ck_assert_double_eq_tol(value_of("loss.pad_target_share", &r), 0.5, 1e-12);
    r.real_terms = 0, r.fake_terms = 0; /* nothing counts: no share to give */
    ck_assert(has_no_value("loss.shortest_share", &r));
    ck_assert(has_no_value("loss.pad_target_share", &r));
}
END_TEST

/* ---- the cost sweep and the corpus's lengths ---- */

/* The cost result of corpus under the default settings at maxlen. */
static PlLabCost *cost_of(const char *corpus, int maxlen, PlLabSettings *s) {
    *s = pl_settings_default();
    snprintf(s->corpus, sizeof s->corpus, "%s", corpus);
    s->maxlen = maxlen;
    s->example = 0;
    PlCorpus *c;
    PlErr err;
    ck_assert_msg(pl_corpus_load(corpus, NULL, &c, &err) == PL_OK, "%s", err.msg);
    int *lens = malloc(((size_t)c->n + 1) * sizeof *lens);
    ck_assert_ptr_nonnull(lens);
    pl_corpus_lengths(c, lens);
    void *r = NULL;
    PlResultInfo info;
    ck_assert_msg(pl_result_compute(c, lens, PL_R_COST, s, NULL, NULL, &r, &info, &err) == PL_OK, "%s", err.msg);
    free(lens);
    pl_corpus_free(c);
    return r;
}

/* An inline corpus of two rows, of 10 and 100 tokens. */
static char *two_rows_spec(void) {
    char *spec = malloc(2048);
    ck_assert_ptr_nonnull(spec);
    strcpy(spec, "inline:");
    for (int i = 0; i < 10; i++) strcat(spec, "short ");
    strcat(spec, "|");
    for (int i = 0; i < 100; i++) strcat(spec, "long ");
    return spec;
}

START_TEST(test_the_cut_share_is_the_tokens_cut_over_all_tokens) {
    PlLabSettings s;
    PlLabCost *k = cost_of("builtin:1:400", 200, &s);
    PlQuantity q = quantity("cost.cut_share");
    double v;
    ck_assert_int_eq(pl_quantity_value_in(&q, k, &s, &v), 0);
    ck_assert(k->tokens_cut > 0);
    ck_assert_double_eq_tol(v, (double)k->tokens_cut / (double)k->cost.total_tokens, 1e-12);
    ck_assert_double_eq_tol(v, 1.0 - k->kept_share, 1e-12);
    pl_result_free(PL_R_COST, k);
}
END_TEST

START_TEST(test_the_crossing_is_worked_out_by_hand_on_two_rows) {
    /* Rows of 10 and 100 tokens, 110 in all. maxlen 25: kept 35, cut 75/110 =
     * 68%, pads 1 - 35/50 = 30%. 50: kept 60, cut 50/110, pads 1 - 60/100 =
     * 40%: pads - cut = -0.054545. 75: kept 85, cut 25/110, pads 1 - 85/150:
     * pads - cut = +0.206061. The lines meet between them, at 50 + 25 x
     * 0.054545 / 0.260606 = 55.2326. */
    char *spec = two_rows_spec();
    PlLabSettings s;
    PlLabCost *k = cost_of(spec, 200, &s);
    PlQuantity q = quantity("cost.crossing_maxlen");
    double v;
    ck_assert_int_eq(pl_quantity_value_in(&q, k, &s, &v), 0);
    ck_assert_double_eq_tol(v, 55.2326, 1e-3);
    ck_assert_double_eq(v, k->cross_maxlen); /* the figure every view draws */
    char buf[32];
    ck_assert_str_eq(pl_quantity_format(&q, v, buf, sizeof buf), "55");
    pl_result_free(PL_R_COST, k);
    free(spec);
}
END_TEST

START_TEST(test_the_crossing_has_no_value_when_the_sweep_never_crosses) {
    /* One row longer than every maxlen of the sweep: no pad anywhere, and
     * always something cut. */
    char *spec = malloc(8192);
    ck_assert_ptr_nonnull(spec);
    strcpy(spec, "inline:");
    for (int i = 0; i < 900; i++) strcat(spec, "word ");
    PlLabSettings s;
    PlLabCost *k = cost_of(spec, 200, &s);
    PlQuantity q = quantity("cost.crossing_maxlen");
    double v;
    ck_assert_int_eq(pl_quantity_value_in(&q, k, &s, &v), -1);
    pl_result_free(PL_R_COST, k);
    free(spec);
}
END_TEST

START_TEST(test_the_p95_is_a_length_by_nearest_rank) {
    /* Twenty inline rows of 1 to 20 tokens (an inline row gets no start
     * token): ceil(0.95 x 20) = 19, so the 19th shortest, 19 tokens, is the
     * p95, and a maxlen of 19 cuts one row in 20 (the interpolated
     * percentile would be 19.05, not a maxlen). */
    char *spec = malloc(2048);
    ck_assert_ptr_nonnull(spec);
    strcpy(spec, "inline:");
    for (int r = 1; r <= 20; r++) {
        for (int i = 0; i < r; i++) strcat(spec, "w ");
        if (r < 20) strcat(spec, "|");
    }
    PlLabSettings s;
    PlLabCost *k = cost_of(spec, 200, &s);
    PlQuantity q = quantity("corpus.p95");
    double v;
    ck_assert_int_eq(pl_quantity_value_in(&q, k, &s, &v), 0);
    ck_assert_double_eq(v, 19.0);
    char buf[32];
    ck_assert_str_eq(pl_quantity_format(&q, v, buf, sizeof buf), "19");
    pl_result_free(PL_R_COST, k);
    free(spec);
}
END_TEST

/* ---- a value in float16 ---- */

static double half(const char *name) {
    PlQuantity q = quantity(name);
    PlLabSettings s = pl_settings_default();
    double v;
    ck_assert_int_eq(pl_quantity_kinds(&q), 0u); /* no result needed */
    ck_assert_int_eq(pl_quantity_value_in(&q, NULL, &s, &v), 0);
    return v;
}

START_TEST(test_half_rounds_to_float16_and_overflows_past_65504) {
    /* float16: 11 significant bits, largest finite 65504 = 2^16 - 32, so from
     * 65520 on (half a step of 32 above it, ties to even) a value is inf. */
    ck_assert(isinf(half("half(-1e9)")) && half("half(-1e9)") < 0);
    ck_assert_double_eq(half("half(-65504)"), -65504.0);
    ck_assert_double_eq(half("half(-65519)"), -65504.0);
    ck_assert(isinf(half("half(-65520)")));
    ck_assert(isinf(half("half(-65524)"))); /* finfo(float16).min plus a score of -20 */
    ck_assert_double_eq(half("half(-30000)"), -30000.0);
    ck_assert_double_eq(half("half(0.1)"), 0.0999755859375); /* 1638 x 2^-14 */
    ck_assert_double_eq(half("half(1e-8)"), 0.0);            /* below half the smallest subnormal, 2^-24 */
    PlQuantity q = quantity("half(-1e9)");
    char buf[32];
    ck_assert_str_eq(pl_quantity_format(&q, half("half(-1e9)"), buf, sizeof buf), "-inf");
    q = quantity("half(-65504)");
    ck_assert_str_eq(pl_quantity_format(&q, -65504.0, buf, sizeof buf), "-65504");
    char why[200];
    ck_assert_int_eq(pl_quantity_parse("half(much)", &q, why, sizeof why), -1);
}
END_TEST

/* ---- trained runs: the spread and the drift ---- */

/* A finished run of settings s with its seed, its accuracy by epoch. */
static PlLabRun run_of(const PlLabSettings *s, int padding, int mask, int seed, float a0, float a1) {
    PlLabRun r;
    memset(&r, 0, sizeof r);
    r.settings = *s;
    r.settings.padding = padding, r.settings.mask = mask, r.settings.seed = seed;
    r.epochs = 2;
    r.val_acc[0] = a0, r.val_acc[1] = a1;
    r.train_loss[0] = 0.6f, r.train_loss[1] = 0.5f;
    r.best_val_acc = a0 > a1 ? a0 : a1;
    r.seconds = 1.0;
    r.grid = 1;
    return r;
}

/* The value of quantity name in the lab. */
static double lab_value(PlLab *lab, const char *name) {
    PlQuantity q = quantity(name);
    double v;
    char why[200];
    ck_assert_msg(pl_quantity_value(lab, &q, &v, why, sizeof why) == 0, "%s: %s", name, why);
    return v;
}

START_TEST(test_the_spread_and_the_drift_of_runs_written_by_hand) {
    PlLabSettings s = pl_settings_default();
    snprintf(s.corpus, sizeof s.corpus, "builtin:1:200");
    s.seeds = 2;
    PlErr err;
    PlLab *lab = pl_lab_new(&s, &err);
    ck_assert_msg(lab != NULL, "%s", err.msg);
    PlQuantity drift = quantity("grid.drift");
    double v;
    char why[200];
    ck_assert_int_eq(pl_quantity_value(lab, &drift, &v, why, sizeof why), -1); /* no grid yet */

    /* pre/post x off/on, seeds 0 and 1. pre+mask against post+mask: seed 0
     * differs by 0.05 then 0.10, seed 1 by 0 then 0.05; the drift is 0.10. */
    PlLabRun runs[] = {
        run_of(&s, PL_PRE, 0, 0, 0.60f, 0.80f),  run_of(&s, PL_PRE, 0, 1, 0.70f, 0.75f),
        run_of(&s, PL_PRE, 1, 0, 0.50f, 0.70f),  run_of(&s, PL_PRE, 1, 1, 0.60f, 0.80f),
        run_of(&s, PL_POST, 0, 0, 0.50f, 0.52f), run_of(&s, PL_POST, 0, 1, 0.51f, 0.50f),
        run_of(&s, PL_POST, 1, 0, 0.55f, 0.60f), run_of(&s, PL_POST, 1, 1, 0.60f, 0.75f),
    };
    int n = (int)(sizeof runs / sizeof runs[0]);
    for (int i = 0; i < n; i++) runs[i].id = i + 1;
    PlSession ses = {.settings = s, .runs = runs, .nruns = n, .has_grid = 1, .grid_base = s, .grid_seeds = 2};
    pl_lab_restore(lab, &ses);

    ck_assert_double_eq_tol(lab_value(lab, "grid.drift"), 0.10, 1e-6);
    ck_assert_double_eq_tol(lab_value(lab, "grid.spread(pre on)"), 0.80 - 0.70, 1e-6);
    ck_assert_double_eq_tol(lab_value(lab, "grid.spread(post off)"), 0.52 - 0.51, 1e-6);
    ck_assert_double_eq_tol(lab_value(lab, "grid.spread(post on)"), 0.75 - 0.60, 1e-6);
    ck_assert_double_eq(lab_value(lab, "grid.seeds(post on)"), 2.0);
    /* train.* reads the lab's own settings: pre, mask off, best 0.80 and 0.75. */
    ck_assert_double_eq_tol(lab_value(lab, "train.spread"), 0.80 - 0.75, 1e-6);
    ck_assert_double_eq_tol(lab_value(lab, "train.median"), 0.775, 1e-6);
    pl_lab_free(lab);
}
END_TEST

/* Three rows of 4, 6 and 2 tokens post-padded to 8, in tiles of 8: one
 * tile a row, never full (no row is 8 long), never empty (each has a real
 * key); the padding rule keeps 8 x (4 + 6 + 2) of the 3 x 64 cells. */
START_TEST(test_blocks_quantities_read_one_tile_a_row) {
    PlCorpus *c;
    ck_assert_int_eq(pl_corpus_load_tsv_mem("tiny.tsv", tiny_tsv, strlen(tiny_tsv), NULL, &c, NULL), PL_OK);
    static const int rows[] = {0, 1, 2};
    PlProbeOpts o = pl_probe_opts_default();
    o.batch = rows, o.nbatch = 3, o.maxlen = 8, o.padding = PL_POST;
    PlProbeBlocks r;
    ck_assert_int_eq(pl_probe_blocks(c, &o, 8, 64, &r, NULL), PL_OK);
    PlQuantity q = quantity("blocks.partial(causal+padding)");
    ck_assert_uint_eq(pl_quantity_kinds(&q), 1u << PL_R_BLOCKS);
    ck_assert_double_eq(value_of("blocks.tiles", &r), 3.0);
    ck_assert_double_eq(value_of("blocks.partial(padding)", &r), 3.0);
    ck_assert_double_eq(value_of("blocks.empty(padding)", &r), 0.0);
    ck_assert_double_eq(value_of("blocks.full(document)", &r), 3.0); /* a padded row is one document */
    ck_assert_double_eq_tol(value_of("blocks.kept_share(padding)", &r), 96.0 / 192.0, 1e-12);
    ck_assert_double_eq(value_of("blocks.block_mask_bytes", &r), 4.0 * 4.0 * (3.0 + 3.0));
    PlQuantity bad;
    char why[200];
    ck_assert_int_eq(pl_quantity_parse("blocks.empty(banded)", &bad, why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "a mask rule"));
    pl_probe_blocks_free(&r);
    pl_corpus_free(c);
}
END_TEST

/* A wrong answer's diagnosis says a quantity in its help's words ("1300 is
 * the real tokens of the example's batch here"): no help leans on the row
 * above it in the list ("of which on pads", "the same with the mask"). */
/* A % sign reads a share only: 646% is no count (it passed as 646, right),
 * while a share reads as 19.6, 19.6% or 0.196. */
START_TEST(test_a_percent_sign_reads_a_share_only) {
    PlQuantity count, share, value;
    char why[200];
    double a;
    ck_assert_int_eq(pl_quantity_parse("batch.pad_cells", &count, why, sizeof why), 0);
    ck_assert_int_eq(pl_quantity_parse("batch.pad_share", &share, why, sizeof why), 0);
    ck_assert_int_eq(pl_quantity_parse("attention.packed_vs_padded", &value, why, sizeof why), 0);
    ck_assert_int_eq(pl_quantity_read(&count, "646%", &a), -1);
    ck_assert_int_eq(pl_quantity_read(&value, "3%", &a), -1);
    ck_assert_int_eq(pl_quantity_read(&count, "1,300", &a), 0);
    ck_assert_double_eq(a, 1300.0);
    const char *shares[] = {"19.6", "19.6%", "0.196"};
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(pl_quantity_read(&share, shares[i], &a), 0);
        ck_assert_double_eq_tol(a, 0.196, 1e-12);
    }
    PlTolerance t = {PL_TOL_DEFAULT, 0};
    ck_assert_int_eq(pl_quantity_check(&count, 646, "646%", &t), -1);
    ck_assert_int_eq(pl_quantity_check(&count, 646, "646", &t), 1);
}
END_TEST

START_TEST(test_every_quantitys_help_stands_alone) {
    static const char *const leaning[] = {"of which", "the same", "its ", "their ", "that ",
                                          "the most", "of those", "per ", "them",   "it "};
    static const char *const bare[] = {"the lowest", "the highest", "the most", "the fewest"};
    for (int i = 0; i < pl_quantity_count(); i++) {
        const char *h = pl_quantity_help(i);
        ck_assert_msg(h && *h, "%s has no help", pl_quantity_pattern(i));
        for (size_t k = 0; k < sizeof leaning / sizeof leaning[0]; k++)
            ck_assert_msg(strncmp(h, leaning[k], strlen(leaning[k])) != 0, "%s: '%s' leans on the row above",
                          pl_quantity_pattern(i), h);
        for (size_t k = 0; k < sizeof bare / sizeof bare[0]; k++)
            ck_assert_msg(strcmp(h, bare[k]) != 0, "%s: '%s' leans on the row above", pl_quantity_pattern(i), h);
    }
}
END_TEST

Suite *quantity_suite(void) {
    Suite *s = suite_create("quantity");
    TCase *att = tcase_create("attention shapes");
    tcase_add_test(att, test_attention_shape_quantities_count_rows_heads_masks_and_scores);
    suite_add_tcase(s, att);
    TCase *blocks = tcase_create("blocks of a rule");
    tcase_add_test(blocks, test_blocks_quantities_read_one_tile_a_row);
    suite_add_tcase(s, blocks);
    TCase *pool = tcase_create("pooling from the pad row");
    tcase_add_test(pool, test_one_token_in_four_sits_a_quarter_of_the_way_from_the_pad_row);
    tcase_add_test(pool, test_pad_distance_agrees_with_the_models_own_pad_row);
    suite_add_tcase(s, pool);
    TCase *loss = tcase_create("loss rows and pad targets");
    tcase_add_test(loss, test_loss_rows_of_three_and_six_tokens_count_two_and_five_targets);
    tcase_add_test(loss, test_loss_shares_follow_the_targets_row_by_row);
    suite_add_tcase(s, loss);
    TCase *cost = tcase_create("cost");
    tcase_set_timeout(cost, 120);
    tcase_add_test(cost, test_the_cut_share_is_the_tokens_cut_over_all_tokens);
    tcase_add_test(cost, test_the_crossing_is_worked_out_by_hand_on_two_rows);
    tcase_add_test(cost, test_the_crossing_has_no_value_when_the_sweep_never_crosses);
    tcase_add_test(cost, test_the_p95_is_a_length_by_nearest_rank);
    tcase_add_test(cost, test_half_rounds_to_float16_and_overflows_past_65504);
    suite_add_tcase(s, cost);
    TCase *words = tcase_create("words");
    tcase_add_test(words, test_every_quantitys_help_stands_alone);
    tcase_add_test(words, test_a_percent_sign_reads_a_share_only);
    suite_add_tcase(s, words);
    TCase *runs = tcase_create("runs");
    tcase_set_timeout(runs, 120);
    tcase_add_test(runs, test_the_spread_and_the_drift_of_runs_written_by_hand);
    suite_add_tcase(s, runs);
    return s;
}
