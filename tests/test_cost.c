/* Cost accounting, worked out by hand. */
#include <math.h>

#include "core/cost.h"
#include "suites.h"

static const int lens[] = {5, 3, 8, 2, 7};

static PlCost cost_of(PlPlanOpts o) {
    PlPlan *p;
    ck_assert_int_eq(pl_plan_make(lens, 5, &o, &p, NULL), PL_OK);
    PlCost c;
    ck_assert_int_eq(pl_cost_of_plan(&c, p, lens, NULL), PL_OK);
    pl_plan_free(p);
    return c;
}

START_TEST(test_padding_64_to_512_costs_8x_slots_and_64x_attention) {
    int len[32];
    for (int i = 0; i < 32; i++) len[i] = 64;
    PlCost tight, wide;
    pl_cost_static(&tight, len, 32, 64);
    pl_cost_static(&wide, len, 32, 512);
    ck_assert_int_eq(wide.slots, 8 * tight.slots);
    ck_assert_int_eq(wide.attn_cells, 64 * tight.attn_cells);
    ck_assert_int_eq(wide.real_tokens, 32 * 64);
    ck_assert_int_eq(wide.attn_real_cells, tight.attn_cells);
    ck_assert(fabs(pl_cost_padding_share(&wide) - 0.875) < 1e-12);
    ck_assert_int_eq(pl_cost_bytes(&wide, 32), 32LL * 512 * 32 * 4);
}
END_TEST

START_TEST(test_static_maxlen_4_on_five_rows) {
    PlCost c;
    pl_cost_static(&c, lens, 5, 4);
    ck_assert_int_eq(c.slots, 20);
    ck_assert_int_eq(c.real_tokens, 17); /* 4 3 4 2 4 */
    ck_assert_int_eq(c.total_tokens, 25);
    ck_assert_int_eq(c.rows_truncated, 3);
    ck_assert_int_eq(c.rnn_steps, 20);
    ck_assert_int_eq(c.rnn_wasted, 3);
    ck_assert_int_eq(c.attn_cells, 80);
    ck_assert_int_eq(c.attn_real_cells, 16 + 9 + 16 + 4 + 16);
    ck_assert(fabs(pl_cost_padding_share(&c) - 0.15) < 1e-12);
    ck_assert(fabs(pl_cost_kept_share(&c) - 0.68) < 1e-12);
    ck_assert(fabs(pl_cost_truncated_share(&c) - 0.6) < 1e-12);
}
END_TEST

START_TEST(test_dynamic_cost_sums_each_batch_width) {
    PlCost c = cost_of((PlPlanOpts){.kind = PL_BATCH_DYNAMIC, .batch_size = 2});
    ck_assert_int_eq(c.batches, 3);
    ck_assert_int_eq(c.slots, 2 * 5 + 2 * 8 + 7);
    ck_assert_int_eq(c.real_tokens, 25);
    ck_assert_int_eq(c.rows_truncated, 0);
    ck_assert_int_eq(c.attn_cells, 2 * 25 + 2 * 64 + 49);
    ck_assert(fabs(pl_cost_padding_share(&c) - 8.0 / 33.0) < 1e-12);
}
END_TEST

START_TEST(test_packed_cost_has_no_padding_and_block_attention) {
    PlCost c = cost_of((PlPlanOpts){.kind = PL_BATCH_PACKED, .batch_size = 2});
    ck_assert_int_eq(c.slots, 25);
    ck_assert_int_eq(c.attn_cells, 25 + 9 + 64 + 4 + 49);
    ck_assert_int_eq(c.rnn_wasted, 0);
    ck_assert(pl_cost_padding_share(&c) == 0.0);
}
END_TEST

START_TEST(test_a_cap_counts_truncated_rows_even_when_widths_round_up) {
    /* Cap 6, rounded to multiples of 4: widths 8, 8, 8, but no row keeps more than 6. */
    PlCost c = cost_of((PlPlanOpts){.kind = PL_BATCH_MULTIPLE, .batch_size = 2, .multiple = 4, .maxlen = 6});
    ck_assert_int_eq(c.slots, 40);
    ck_assert_int_eq(c.real_tokens, 5 + 3 + 6 + 2 + 6);
    ck_assert_int_eq(c.rows_truncated, 2);
}
END_TEST

START_TEST(test_compare_measures_every_strategy_against_static) {
    /* lengths 5 3 8 2 7 (25 tokens), batches of 2, rows cut to 4: each keeps 4 3 4 2 4 = 17 */
    const int bounds[] = {4, 7}, sizes[] = {2, 2, 2};
    PlCompareOpts o = {2, 4, bounds, 2, sizes, 0};
    PlStrategyRow rows[PL_BATCH_COUNT];
    int n;
    ck_assert_int_eq(pl_cost_compare(lens, 5, &o, rows, &n, NULL), PL_OK);
    ck_assert_int_eq(n, PL_BATCH_COUNT);
    for (int k = 0; k < n; k++) ck_assert_int_eq(rows[k].kind, k);
    /* longest cuts nothing: 5 rows of 8 */
    ck_assert(fabs(rows[PL_BATCH_LONGEST].padding_share - (1.0 - 25.0 / 40.0)) < 1e-12);
    ck_assert_int_eq(rows[PL_BATCH_LONGEST].tokens_cut, 0);
    ck_assert(fabs(rows[PL_BATCH_LONGEST].cells_saved - (1.0 - 40.0 / 20.0)) < 1e-12);
    /* static: 5 rows of 4, 8 tokens cut */
    ck_assert(fabs(rows[PL_BATCH_STATIC].padding_share - 0.15) < 1e-12);
    ck_assert_int_eq(rows[PL_BATCH_STATIC].tokens_cut, 8);
    ck_assert(rows[PL_BATCH_STATIC].cells_saved == 0.0 && rows[PL_BATCH_STATIC].attn_saved == 0.0);
    /* dynamic: widths 4, 4, 4 = static's 20 cells */
    ck_assert_int_eq(rows[PL_BATCH_DYNAMIC].cost.slots, 20);
    /* bucket_longest: widths 3 (2 rows), 4 (1 row), 4 (2 rows) = 18 cells */
    ck_assert_int_eq(rows[PL_BATCH_BUCKET_LONGEST].cost.slots, 18);
    ck_assert(fabs(rows[PL_BATCH_BUCKET_LONGEST].cells_saved - (1.0 - 18.0 / 20.0)) < 1e-12);
    /* packed: the 17 kept tokens, attention 16 + 9 + 16 + 4 + 16 = 61 of static's 80 */
    ck_assert_int_eq(rows[PL_BATCH_PACKED].cost.slots, 17);
    ck_assert(fabs(rows[PL_BATCH_PACKED].cells_saved - 0.15) < 1e-12);
    ck_assert(fabs(rows[PL_BATCH_PACKED].attn_saved - (1.0 - 61.0 / 80.0)) < 1e-12);
    ck_assert(rows[PL_BATCH_PACKED].padding_share == 0.0);
    /* the shapes a compiler sees: static and dynamic 2 x 4 twice, then 1 x 4; bucket_longest 2 x 3, 1 x 4, 2 x 4 */
    ck_assert_int_eq(rows[PL_BATCH_STATIC].cost.shapes, 2);
    ck_assert_int_eq(rows[PL_BATCH_DYNAMIC].cost.shapes, 2);
    ck_assert_int_eq(rows[PL_BATCH_BUCKET_LONGEST].cost.shapes, 3);
}
END_TEST

/* Sixteen rows of 1 to 16 tokens, one row a batch, maxlen 16 (nothing cut):
 * each batch is 1 x its width, so the shapes are the distinct widths. */
START_TEST(test_shapes_are_the_distinct_widths_multiple_of_8_and_buckets_bound_them) {
    int len[16];
    for (int i = 0; i < 16; i++) len[i] = i + 1;
    const int bounds[] = {4, 8, 12};
    PlCompareOpts o = {1, 16, bounds, 3, NULL, 0};
    PlStrategyRow rows[PL_BATCH_COUNT];
    int n;
    ck_assert_int_eq(pl_cost_compare(len, 16, &o, rows, &n, NULL), PL_OK);
    ck_assert_int_eq(rows[PL_BATCH_STATIC].cost.shapes, 1);   /* 1 x 16 each */
    ck_assert_int_eq(rows[PL_BATCH_DYNAMIC].cost.shapes, 16); /* 1 x 1 .. 1 x 16 */
    ck_assert_int_eq(rows[PL_BATCH_MULTIPLE].cost.shapes, 2); /* 1 x 8 (1..8 tokens), 1 x 16 (9..16) */
    /* buckets 1..3, 4..7, 8..11, 12..16, each as wide as its longest: 1 x 3, 7, 11, 16 */
    ck_assert_int_eq(rows[PL_BATCH_BUCKET_LONGEST].cost.shapes, 4);
    ck_assert_int_eq(rows[PL_BATCH_PACKED].cost.shapes, 16); /* one row of each review's tokens */
    ck_assert_int_eq(rows[PL_BATCH_DYNAMIC].cost.batches, 16);
    /* five rows a batch, in the corpus's order: 1..5, 6..10, 11..15, and 16 alone */
    o.batch_size = 5;
    ck_assert_int_eq(pl_cost_compare(len, 16, &o, rows, &n, NULL), PL_OK);
    /* dynamic: 5 x 5, 5 x 10, 5 x 15, 1 x 16; multiple_of_8: 5 x 8, 5 x 16, 5 x 16, 1 x 16 */
    ck_assert_int_eq(rows[PL_BATCH_DYNAMIC].cost.shapes, 4);
    ck_assert_int_eq(rows[PL_BATCH_MULTIPLE].cost.shapes, 3);
    ck_assert_int_eq(rows[PL_BATCH_STATIC].cost.shapes, 2); /* 5 x 16 three times, 1 x 16 */
}
END_TEST

Suite *cost_suite(void) {
    Suite *s = suite_create("cost");
    TCase *tc = tcase_create("accounting");
    tcase_add_test(tc, test_padding_64_to_512_costs_8x_slots_and_64x_attention);
    tcase_add_test(tc, test_static_maxlen_4_on_five_rows);
    tcase_add_test(tc, test_dynamic_cost_sums_each_batch_width);
    tcase_add_test(tc, test_packed_cost_has_no_padding_and_block_attention);
    tcase_add_test(tc, test_a_cap_counts_truncated_rows_even_when_widths_round_up);
    tcase_add_test(tc, test_compare_measures_every_strategy_against_static);
    tcase_add_test(tc, test_shapes_are_the_distinct_widths_multiple_of_8_and_buckets_bound_them);
    suite_add_tcase(s, tc);
    return s;
}
