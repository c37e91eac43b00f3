/* The app layer without a terminal: the lab's actions, what they change,
 * background training, and sessions. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/lab.h"
#include "core/rng.h"
#include "suites.h"

static PlLab *small_lab(void) {
    PlLabSettings s = pl_lab_settings_default();
    snprintf(s.corpus, sizeof s.corpus, "builtin:1:400");
    PlErr err;
    PlLab *lab = pl_lab_new(&s, &err);
    ck_assert_msg(lab != NULL, "%s", err.msg);
    return lab;
}

START_TEST(test_defaults_are_the_tutorial_settings) {
    PlLabSettings s = pl_lab_settings_default();
    ck_assert_str_eq(s.corpus, "builtin");
    ck_assert(s.padding == PL_PRE && s.truncating == PL_PRE && s.maxlen == 200 && !s.mask);
    ck_assert(s.batching == PL_BATCH_STATIC && s.model == PL_ARCH_RNN && s.conv == PL_MASK_KERAS);
    ck_assert(s.seed == 0 && s.example == 0 && s.view == PL_VIEW_BATCH);
}
END_TEST

START_TEST(test_cold_and_hot_actions_are_told_apart) {
    PlLab *lab = small_lab();
    ck_assert_int_eq(pl_lab_act(lab, PL_ACT_PADDING), PL_LAB_COLD);
    ck_assert_int_eq(pl_lab_settings(lab)->padding, PL_POST);
    ck_assert_uint_eq(pl_lab_take_changes(lab), PL_CHG_PADDING);
    ck_assert_uint_eq(pl_lab_take_changes(lab), 0);
    ck_assert_int_eq(pl_lab_act(lab, PL_ACT_MASK), PL_LAB_COLD);
    ck_assert_int_eq(pl_lab_act(lab, PL_ACT_CONVENTION), PL_LAB_HOT);
    ck_assert_int_eq(pl_lab_settings(lab)->conv, PL_MASK_TORCH);
    ck_assert_int_eq(pl_lab_act(lab, PL_ACT_NEXT_EXAMPLE), PL_LAB_HOT);
    ck_assert_int_eq(pl_lab_act(lab, PL_ACT_PREV_EXAMPLE), PL_LAB_HOT);
    ck_assert_int_eq(pl_lab_act(lab, PL_ACT_PREV_EXAMPLE), PL_LAB_HOT);
    ck_assert_int_eq(pl_lab_settings(lab)->example, 399); /* wraps around */
    ck_assert_int_eq(pl_lab_act(lab, PL_ACT_BATCHING), PL_LAB_COLD);
    ck_assert_int_eq(pl_lab_settings(lab)->batching, PL_BATCH_DYNAMIC);
    ck_assert_int_eq(pl_lab_act(lab, PL_ACT_MODEL), PL_LAB_COLD);
    ck_assert_int_eq(pl_lab_settings(lab)->model, PL_ARCH_GRU);
    pl_lab_free(lab);
}
END_TEST

START_TEST(test_maxlen_steps_by_10_50_100_and_stays_in_range) {
    PlLab *lab = small_lab();
    static const int up[] = {250, 300, 350, 400, 500};
    for (int i = 0; i < 5; i++) {
        pl_lab_act(lab, PL_ACT_MAXLEN_UP);
        ck_assert_int_eq(pl_lab_settings(lab)->maxlen, up[i]);
    }
    static const int down[] = {400, 350, 300, 250, 200, 150, 100, 90};
    for (int i = 0; i < 8; i++) {
        pl_lab_act(lab, PL_ACT_MAXLEN_DOWN);
        ck_assert_int_eq(pl_lab_settings(lab)->maxlen, down[i]);
    }
    for (int i = 0; i < 20; i++) pl_lab_act(lab, PL_ACT_MAXLEN_DOWN);
    ck_assert_int_eq(pl_lab_settings(lab)->maxlen, 10);
    ck_assert_int_eq(pl_lab_act(lab, PL_ACT_MAXLEN_DOWN), 0);
    pl_lab_free(lab);
}
END_TEST

START_TEST(test_the_cost_view_agrees_with_the_stats_figures) {
    PlLab *lab = small_lab();
    const PlLabCost *k = pl_lab_cost(lab, NULL);
    ck_assert_ptr_nonnull(k);
    const PlCorpus *c = pl_lab_corpus(lab);
    int *len = malloc((size_t)c->n * sizeof *len);
    pl_corpus_lengths(c, len);
    PlMaxlenRow row;
    pl_maxlen_row(len, c->n, 200, &row);
    ck_assert(fabs(k->padding_share - row.padding_share) < 1e-12);
    ck_assert(fabs(k->kept_share - row.kept_share) < 1e-12);
    ck_assert(fabs(k->truncated_share - row.rows_truncated) < 1e-12);
    ck_assert_int_eq(k->sweep_maxlen[k->sweep_at], 200);
    free(len);
    pl_lab_free(lab);
}
END_TEST

START_TEST(test_views_follow_the_settings) {
    PlLab *lab = small_lab();
    const PlProbeBatch *b = pl_lab_batch(lab, NULL);
    ck_assert_ptr_nonnull(b);
    ck_assert_int_eq(b->conv, PL_MASK_KERAS);
    pl_lab_act(lab, PL_ACT_CONVENTION);
    b = pl_lab_batch(lab, NULL);
    ck_assert_int_eq(b->conv, PL_MASK_TORCH);
    pl_lab_act(lab, PL_ACT_MASK);
    const PlProbeRnn *r = pl_lab_rnn(lab, NULL);
    ck_assert_ptr_nonnull(r);
    ck_assert(r->mask && r->final_distance_to_last_real == 0.0f);
    for (int v = 0; v < PL_VIEW_COUNT; v++) {
        PlView back;
        ck_assert_int_eq(pl_view_parse(pl_view_name((PlView)v), &back), 0);
        ck_assert_int_eq(back, v);
    }
    pl_lab_free(lab);
}
END_TEST

static void wait_training(PlLab *lab) {
    struct timespec ts = {0, 20000000};
    for (int i = 0; i < 3000 && (pl_lab_tick(lab), pl_lab_training(lab)->active); i++) nanosleep(&ts, NULL);
    ck_assert(!pl_lab_training(lab)->active);
}

START_TEST(test_a_cold_change_retrains_and_records_the_run) {
    PlLab *lab = small_lab();
    ck_assert_ptr_nonnull(pl_lab_batch(lab, NULL)); /* a view computed before the run ends... */
    pl_lab_act(lab, PL_ACT_RUN);
    wait_training(lab);
    ck_assert_ptr_nonnull(pl_lab_batch(lab, NULL)); /* ...is recomputed, not leaked, after it */
    pl_lab_act(lab, PL_ACT_PADDING);
    ck_assert(pl_lab_training(lab)->active);
    wait_training(lab);
    int n;
    const PlLabRun *runs = pl_lab_runs(lab, &n);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(runs[0].settings.padding, PL_PRE);
    ck_assert_int_eq(runs[1].settings.padding, PL_POST);
    ck_assert_int_eq(runs[1].epochs, 5);
    ck_assert(runs[1].best_val_acc > 0.0f && runs[1].best_val_acc <= 1.0f);
    const PlLabTraining *t = pl_lab_training(lab);
    ck_assert_int_eq(t->curve_n, 5);
    ck_assert_int_eq(t->prev_n, 5);
    ck_assert(t->curve[4] == runs[1].val_acc[4]);
    pl_lab_act(lab, PL_ACT_SORT_RUNS);
    runs = pl_lab_runs(lab, &n);
    ck_assert(runs[0].best_val_acc >= runs[1].best_val_acc);
    pl_lab_free(lab);
}
END_TEST

START_TEST(test_sessions_round_trip_and_name_damage) {
    char *dir = pl_test_tmpdir(), path[4200];
    snprintf(path, sizeof path, "%s/s.session", dir);
    PlLab *lab = small_lab();
    pl_lab_act(lab, PL_ACT_PADDING);
    pl_lab_act(lab, PL_ACT_MAXLEN_UP);
    pl_lab_set_view(lab, PL_VIEW_RNN);
    wait_training(lab);
    PlErr err;
    ck_assert_int_eq(pl_lab_save_session(lab, path, &err), PL_OK);
    PlLabSettings s;
    PlLabRun runs[PL_LAB_MAX_RUNS];
    int n;
    ck_assert_int_eq(pl_lab_read_session(path, &s, runs, &n, &err), PL_OK);
    ck_assert_str_eq(s.corpus, "builtin:1:400");
    ck_assert(s.padding == PL_POST && s.maxlen == 250 && s.view == PL_VIEW_RNN);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(runs[0].settings.maxlen, 250);
    ck_assert(fabsf(runs[0].best_val_acc - pl_lab_runs(lab, &n)[0].best_val_acc) < 1e-4f);
    pl_test_write_file(path, "corpus = builtin\nmask = maybe\n", 29);
    ck_assert_int_eq(pl_lab_read_session(path, &s, runs, &n, &err), PL_EINPUT);
    ck_assert_msg(strstr(err.msg, "s.session:2: mask must be on or off, got 'maybe'") != NULL, "%s", err.msg);
    pl_test_write_file(path, "colour = blue\n", 14);
    ck_assert_int_eq(pl_lab_read_session(path, &s, runs, &n, &err), PL_EINPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "unknown setting 'colour'"));
    pl_lab_free(lab);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(test_random_bytes_as_a_session_fail_cleanly) {
    char *dir = pl_test_tmpdir(), path[4200];
    snprintf(path, sizeof path, "%s/junk.session", dir);
    PlRng rng;
    pl_rng_seed(&rng, 77);
    for (int trial = 0; trial < 50; trial++) {
        char buf[600];
        size_t n = (size_t)pl_rng_below(&rng, sizeof buf);
        for (size_t i = 0; i < n; i++) buf[i] = (char)pl_rng_below(&rng, 256);
        if (trial % 2) memcpy(buf, "maxlen = ", n > 9 ? 9 : n); /* half start like a session */
        pl_test_write_file(path, buf, n);
        PlLabSettings s;
        PlLabRun runs[PL_LAB_MAX_RUNS];
        int nruns = -1;
        PlErr err;
        PlStatus st = pl_lab_read_session(path, &s, runs, &nruns, &err);
        ck_assert(st == PL_OK || st == PL_EINPUT);
        if (st == PL_EINPUT) ck_assert_ptr_nonnull(strstr(err.msg, "junk.session:"));
        else ck_assert(nruns >= 0 && nruns <= PL_LAB_MAX_RUNS && s.maxlen >= 1);
    }
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

Suite *lab_suite(void) {
    Suite *s = suite_create("lab");
    TCase *tc = tcase_create("actions");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_defaults_are_the_tutorial_settings);
    tcase_add_test(tc, test_cold_and_hot_actions_are_told_apart);
    tcase_add_test(tc, test_maxlen_steps_by_10_50_100_and_stays_in_range);
    tcase_add_test(tc, test_the_cost_view_agrees_with_the_stats_figures);
    tcase_add_test(tc, test_views_follow_the_settings);
    tcase_add_test(tc, test_a_cold_change_retrains_and_records_the_run);
    tcase_add_test(tc, test_sessions_round_trip_and_name_damage);
    tcase_add_test(tc, test_random_bytes_as_a_session_fail_cleanly);
    suite_add_tcase(s, tc);
    return s;
}
