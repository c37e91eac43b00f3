/* Batching strategies, worked out by hand on the lengths 5 3 8 2 7. */
#include <stdlib.h>
#include <string.h>

#include "core/corpus_load.h"
#include "core/plan.h"
#include "suites.h"

static const int lens[] = {5, 3, 8, 2, 7};

static PlPlan *plan(PlPlanOpts o) {
    PlPlan *p = NULL;
    PlErr err;
    ck_assert_msg(pl_plan_make(lens, 5, &o, &p, &err) == PL_OK, "%s", err.msg);
    return p;
}

static void assert_batches(const PlPlan *p, const int *order, const int *start, const int *width, int nb) {
    ck_assert_int_eq(p->n_batches, nb);
    for (int b = 0; b <= nb; b++) ck_assert_int_eq(p->start[b], start[b]);
    for (int b = 0; b < nb; b++) ck_assert_int_eq(p->width[b], width[b]);
    for (int i = 0; i < p->n_rows; i++) ck_assert_int_eq(p->order[i], order[i]);
}

START_TEST(test_dynamic_batches_pad_to_their_own_longest) {
    PlPlan *p = plan((PlPlanOpts){.kind = PL_BATCH_DYNAMIC, .batch_size = 2});
    assert_batches(p, (const int[]){0, 1, 2, 3, 4}, (const int[]){0, 2, 4, 5}, (const int[]){5, 8, 7}, 3);
    pl_plan_free(p);
}
END_TEST

START_TEST(test_pad_to_multiple_rounds_each_batch_up) {
    PlPlan *p = plan((PlPlanOpts){.kind = PL_BATCH_MULTIPLE, .batch_size = 2, .multiple = 3});
    assert_batches(p, (const int[]){0, 1, 2, 3, 4}, (const int[]){0, 2, 4, 5}, (const int[]){6, 9, 9}, 3);
    pl_plan_free(p);
    p = plan((PlPlanOpts){.kind = PL_BATCH_MULTIPLE, .batch_size = 2});
    assert_batches(p, (const int[]){0, 1, 2, 3, 4}, (const int[]){0, 2, 4, 5}, (const int[]){8, 8, 8}, 3);
    pl_plan_free(p);
}
END_TEST

START_TEST(test_longest_and_static_use_one_width) {
    PlPlan *p = plan((PlPlanOpts){.kind = PL_BATCH_LONGEST, .batch_size = 2});
    assert_batches(p, (const int[]){0, 1, 2, 3, 4}, (const int[]){0, 2, 4, 5}, (const int[]){8, 8, 8}, 3);
    pl_plan_free(p);
    p = plan((PlPlanOpts){.kind = PL_BATCH_STATIC, .batch_size = 4, .maxlen = 4});
    assert_batches(p, (const int[]){0, 1, 2, 3, 4}, (const int[]){0, 4, 5}, (const int[]){4, 4}, 2);
    ck_assert_int_eq(p->cap, 4);
    pl_plan_free(p);
}
END_TEST

START_TEST(test_bucket_longest_pads_each_bucket_to_its_longest) {
    const int bounds[] = {4, 7};
    PlPlan *p = plan((PlPlanOpts){.kind = PL_BATCH_BUCKET_LONGEST, .boundaries = bounds, .n_boundaries = 2});
    /* [0,4): rows 1,3 (3,2); [4,7): row 0 (5); [7,inf): rows 2,4 (8,7) */
    assert_batches(p, (const int[]){1, 3, 0, 2, 4}, (const int[]){0, 2, 3, 5}, (const int[]){3, 5, 8}, 3);
    pl_plan_free(p);
    /* one row a batch: a bucket's batches all take its longest row's width (8, not 7) */
    p = plan((PlPlanOpts){.kind = PL_BATCH_BUCKET_LONGEST, .batch_size = 1, .boundaries = bounds, .n_boundaries = 2});
    assert_batches(p, (const int[]){1, 3, 0, 2, 4}, (const int[]){0, 1, 2, 3, 4, 5}, (const int[]){3, 3, 5, 8, 8}, 5);
    pl_plan_free(p);
}
END_TEST

START_TEST(test_tf_bucket_emits_full_windows_then_flushes) {
    const int bounds[] = {4, 7}, sizes[] = {1, 2, 2};
    PlPlan *p = plan(
        (PlPlanOpts){.kind = PL_BATCH_TF_BUCKET, .boundaries = bounds, .n_boundaries = 2, .bucket_batch_sizes = sizes});
    /* row 1 fills bucket 0 (size 1), row 3 again, rows 2,4 fill bucket 2, row 0 is flushed */
    assert_batches(p, (const int[]){1, 3, 2, 4, 0}, (const int[]){0, 1, 2, 4, 5}, (const int[]){3, 2, 8, 5}, 4);
    pl_plan_free(p);
}
END_TEST

START_TEST(test_tf_bucket_pads_to_boundary_minus_one) {
    const int bounds[] = {4, 9}, sizes[] = {2, 2, 2};
    PlPlan *p = plan((PlPlanOpts){.kind = PL_BATCH_TF_BUCKET,
                                  .boundaries = bounds,
                                  .n_boundaries = 2,
                                  .bucket_batch_sizes = sizes,
                                  .pad_to_boundary = 1});
    assert_batches(p, (const int[]){0, 2, 1, 3, 4}, (const int[]){0, 2, 4, 5}, (const int[]){8, 3, 8}, 3);
    pl_plan_free(p);
}
END_TEST

START_TEST(test_pad_to_boundary_refuses_lengths_past_the_last_boundary) {
    const int bounds[] = {4, 7};
    PlPlanOpts o = {.kind = PL_BATCH_TF_BUCKET, .boundaries = bounds, .n_boundaries = 2, .pad_to_boundary = 1};
    PlPlan *p = NULL;
    PlErr err;
    ck_assert_int_eq(pl_plan_make(lens, 5, &o, &p, &err), PL_ERANGE);
    ck_assert_ptr_null(p);
    ck_assert_ptr_nonnull(strstr(err.msg, "2 sequences reach it"));
}
END_TEST

START_TEST(test_packed_batches_concatenate_rows) {
    PlPlan *p = plan((PlPlanOpts){.kind = PL_BATCH_PACKED, .batch_size = 2});
    ck_assert_int_eq(p->packed, 1);
    assert_batches(p, (const int[]){0, 1, 2, 3, 4}, (const int[]){0, 2, 4, 5}, (const int[]){8, 10, 7}, 3);
    pl_plan_free(p);
}
END_TEST

START_TEST(test_length_grouped_sorts_within_windows_and_keeps_every_row) {
    PlPlanOpts o = {.kind = PL_BATCH_GROUPED, .batch_size = 2, .window = 5, .seed = 3};
    PlPlan *p = plan(o), *q = plan(o);
    int seen[5] = {0};
    for (int i = 0; i < 5; i++) seen[p->order[i]]++;
    for (int i = 0; i < 5; i++) ck_assert_int_eq(seen[i], 1);
    /* One window: sorted 8 7 | 5 3 | 2, batches in a shuffled order. */
    int widths[3], w8 = 0;
    for (int b = 0; b < p->n_batches; b++) {
        widths[b] = p->width[b];
        w8 += widths[b] == 8;
        for (int i = p->start[b] + 1; i < p->start[b + 1]; i++)
            ck_assert_int_ge(lens[p->order[i - 1]], lens[p->order[i]]);
        ck_assert_int_eq(p->width[b], lens[p->order[p->start[b]]]);
        ck_assert_int_eq(q->width[b], p->width[b]);
    }
    ck_assert_int_eq(p->n_batches, 3);
    ck_assert_int_eq(w8, 1);
    ck_assert_int_eq(widths[0] + widths[1] + widths[2], 8 + 5 + 2);
    pl_plan_free(p);
    pl_plan_free(q);
}
END_TEST

START_TEST(test_shuffled_dynamic_batches_are_a_seeded_permutation) {
    PlPlanOpts o = {.kind = PL_BATCH_DYNAMIC, .batch_size = 2, .shuffle = 1, .seed = 9};
    PlPlan *p = plan(o), *q = plan(o);
    int seen[5] = {0};
    for (int i = 0; i < 5; i++) {
        seen[p->order[i]]++;
        ck_assert_int_eq(p->order[i], q->order[i]);
    }
    for (int i = 0; i < 5; i++) ck_assert_int_eq(seen[i], 1);
    pl_plan_free(p);
    pl_plan_free(q);
}
END_TEST

START_TEST(test_impossible_options_are_refused) {
    const int down[] = {7, 4};
    PlPlan *p = NULL;
    PlErr err;
    PlPlanOpts o = {.kind = PL_BATCH_BUCKET_LONGEST, .boundaries = down, .n_boundaries = 2};
    ck_assert_int_eq(pl_plan_make(lens, 5, &o, &p, &err), PL_ERANGE);
    o = (PlPlanOpts){.kind = PL_BATCH_STATIC, .maxlen = 0};
    ck_assert_int_eq(pl_plan_make(lens, 5, &o, &p, &err), PL_ERANGE);
    ck_assert_ptr_null(p);
    PlBatching k;
    ck_assert_int_eq(pl_batching_parse("tf_bucket", &k), 0);
    ck_assert_int_eq(k, PL_BATCH_TF_BUCKET);
    ck_assert_int_eq(pl_batching_parse("bucketed", &k), -1);
}
END_TEST

/* ---- the plan's invariants (pl_plan_is_consistent) ---- */

/* Every strategy makes a consistent plan, on three corpora, at maxlens
 * that cut rows and one that cuts none, in batches of one, seven and 32,
 * shuffled or not. */
START_TEST(test_every_strategy_makes_a_consistent_plan) {
    static const char *const corpora[] = {"builtin:1:200", "builtin:3:60", "builtin:5:80"};
    static const int maxlens[] = {16, 64, 4000}, sizes[] = {1, 7, 32};
    int made = 0;
    for (int ci = 0; ci < 3; ci++) {
        PlCorpus *c;
        ck_assert_int_eq(pl_corpus_load(corpora[ci], NULL, &c, NULL), PL_OK);
        int *len = malloc((size_t)c->n * sizeof *len);
        for (int i = 0; i < c->n; i++) len[i] = pl_corpus_len(c, i);
        for (int k = 0; k < PL_BATCH_COUNT; k++)
            for (int m = 0; m < 3; m++)
                for (int b = 0; b < 3; b++)
                    for (int shuffle = 0; shuffle < 2; shuffle++) {
                        int bounds[3];
                        PlPlanOpts o = pl_plan_opts_standard((PlBatching)k, maxlens[m], sizes[b], bounds);
                        o.shuffle = shuffle, o.seed = 7;
                        PlPlan *p;
                        PlErr err;
                        ck_assert_msg(pl_plan_make(len, c->n, &o, &p, &err) == PL_OK, "%s", err.msg);
                        ck_assert_msg(pl_plan_is_consistent(p, len), "%s, %s, maxlen %d, batch %d, shuffle %d",
                                      corpora[ci], pl_batching_name((PlBatching)k), maxlens[m], sizes[b], shuffle);
                        pl_plan_free(p);
                        made++;
                    }
        free(len);
        pl_corpus_free(c);
    }
    ck_assert_int_eq(made, 3 * PL_BATCH_COUNT * 3 * 3 * 2);
}
END_TEST

/* The dynamic plan of 5 3 8 2 7 in twos (rows 0-1, 2-3, 4; widths 5 8 7),
 * broken by hand one way at a time. */
START_TEST(test_a_broken_plan_is_not_consistent) {
    PlPlan *p = plan((PlPlanOpts){.kind = PL_BATCH_DYNAMIC, .batch_size = 2});
    ck_assert(pl_plan_is_consistent(p, lens));
    p->order[1] = 0; /* row 0 twice, row 1 in no batch */
    ck_assert(!pl_plan_is_consistent(p, lens));
    p->order[1] = 1;
    p->width[1] = 7; /* narrower than row 2's 8 tokens */
    ck_assert(!pl_plan_is_consistent(p, lens));
    ck_assert(pl_plan_is_consistent(p, NULL)); /* without the lengths no width can be checked */
    p->width[1] = 8;
    p->start[2] = 2; /* an empty batch */
    ck_assert(!pl_plan_is_consistent(p, lens));
    p->start[2] = 4;
    p->start[3] = 4; /* row 4 in no batch */
    ck_assert(!pl_plan_is_consistent(p, lens));
    p->start[3] = 5;
    ck_assert(pl_plan_is_consistent(p, lens));
    pl_plan_free(p);
    p = plan((PlPlanOpts){.kind = PL_BATCH_PACKED, .batch_size = 2});
    ck_assert_int_eq(p->width[0], 8); /* 5 + 3 */
    ck_assert(pl_plan_is_consistent(p, lens));
    p->width[0] = 9; /* a packed batch is exactly as wide as its rows' total */
    ck_assert(!pl_plan_is_consistent(p, lens));
    pl_plan_free(p);
    ck_assert(!pl_plan_is_consistent(NULL, lens));
}
END_TEST

Suite *plan_suite(void) {
    Suite *s = suite_create("plan");
    TCase *tc = tcase_create("strategies");
    tcase_add_test(tc, test_dynamic_batches_pad_to_their_own_longest);
    tcase_add_test(tc, test_pad_to_multiple_rounds_each_batch_up);
    tcase_add_test(tc, test_longest_and_static_use_one_width);
    tcase_add_test(tc, test_bucket_longest_pads_each_bucket_to_its_longest);
    tcase_add_test(tc, test_tf_bucket_emits_full_windows_then_flushes);
    tcase_add_test(tc, test_tf_bucket_pads_to_boundary_minus_one);
    tcase_add_test(tc, test_pad_to_boundary_refuses_lengths_past_the_last_boundary);
    tcase_add_test(tc, test_packed_batches_concatenate_rows);
    tcase_add_test(tc, test_length_grouped_sorts_within_windows_and_keeps_every_row);
    tcase_add_test(tc, test_shuffled_dynamic_batches_are_a_seeded_permutation);
    tcase_add_test(tc, test_impossible_options_are_refused);
    suite_add_tcase(s, tc);
    tc = tcase_create("invariants");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_every_strategy_makes_a_consistent_plan);
    tcase_add_test(tc, test_a_broken_plan_is_not_consistent);
    suite_add_tcase(s, tc);
    return s;
}
