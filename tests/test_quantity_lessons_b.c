/* The quantities lessons 05 to 07 added: the pooling figures measured from
 * the pad row, and the loss figures about rows and pad targets, on cases
 * worked out by hand and against the probe structs they read. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app/lab/quantity.h"
#include "core/corpus_loaders.h"
#include "core/probe.h"
#include "suites.h"

static double value_of(const char *name, const void *result) {
    PlQuantity q;
    char why[200];
    double v;
    PlLabSettings s = pl_settings_default();
    ck_assert_msg(pl_quantity_parse(name, &q, why, sizeof why) == 0, "%s", why);
    ck_assert_int_eq(pl_quantity_value_in(&q, result, &s, &v), 0);
    return v;
}

static int has_no_value(const char *name, const void *result) {
    PlQuantity q;
    char why[200];
    double v;
    PlLabSettings s = pl_settings_default();
    ck_assert_msg(pl_quantity_parse(name, &q, why, sizeof why) == 0, "%s", why);
    return pl_quantity_value_in(&q, result, &s, &v) == -1;
}

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

Suite *quantity_lessons_b_suite(void) {
    Suite *s = suite_create("quantity_lessons_b");
    TCase *pool = tcase_create("pooling from the pad row");
    tcase_add_test(pool, test_one_token_in_four_sits_a_quarter_of_the_way_from_the_pad_row);
    tcase_add_test(pool, test_pad_distance_agrees_with_the_models_own_pad_row);
    suite_add_tcase(s, pool);
    TCase *loss = tcase_create("loss rows and pad targets");
    tcase_add_test(loss, test_loss_rows_of_three_and_six_tokens_count_two_and_five_targets);
    tcase_add_test(loss, test_loss_shares_follow_the_targets_row_by_row);
    suite_add_tcase(s, loss);
    return s;
}
