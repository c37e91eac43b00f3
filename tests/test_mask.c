/* Masks in every convention, and their agreement. */
#include <math.h>
#include <string.h>

#include "core/mask.h"
#include "core/rng.h"
#include "suites.h"

static const uint8_t real_real_pad[] = {1, 1, 0};

START_TEST(test_each_convention_encodes_the_same_mask) {
    uint8_t out[3];
    pl_mask_bool(out, real_real_pad, 3, PL_MASK_KERAS);
    ck_assert_mem_eq(out, ((const uint8_t[]){1, 1, 0}), 3);
    pl_mask_bool(out, real_real_pad, 3, PL_MASK_TORCH);
    ck_assert_mem_eq(out, ((const uint8_t[]){0, 0, 1}), 3);
    pl_mask_bool(out, real_real_pad, 3, PL_MASK_HF);
    ck_assert_mem_eq(out, ((const uint8_t[]){1, 1, 0}), 3);
    float add[3];
    pl_mask_additive(add, real_real_pad, 3);
    ck_assert(add[0] == 0.0f && add[1] == 0.0f);
    ck_assert(isinf(add[2]) && add[2] < 0.0f);
}
END_TEST

START_TEST(test_conventions_agree_on_random_masks) {
    PlRng rng;
    pl_rng_seed(&rng, 11);
    uint8_t m[257], k[257], t[257], h[257];
    float a[257];
    for (int i = 0; i < 257; i++) m[i] = (uint8_t)pl_rng_below(&rng, 2);
    pl_mask_bool(k, m, 257, PL_MASK_KERAS);
    pl_mask_bool(t, m, 257, PL_MASK_TORCH);
    pl_mask_bool(h, m, 257, PL_MASK_HF);
    pl_mask_additive(a, m, 257);
    for (int i = 0; i < 257; i++) {
        ck_assert_int_eq(k[i], m[i]);
        ck_assert_int_eq(t[i], !k[i]);
        ck_assert_int_eq(h[i], k[i]);
        ck_assert_int_eq(isfinite(a[i]) != 0, k[i]);
    }
}
END_TEST

START_TEST(test_causal_mask_is_lower_triangular) {
    uint8_t c[9];
    pl_mask_causal(c, 3);
    ck_assert_mem_eq(c, ((const uint8_t[]){1, 0, 0, 1, 1, 0, 1, 1, 1}), 9);
}
END_TEST

START_TEST(test_causal_and_left_padding_leave_a_query_with_no_key) {
    const uint8_t left_padded[] = {0, 1, 1};
    uint8_t c[9];
    pl_mask_causal_padding(c, left_padded, 1, 3);
    ck_assert_mem_eq(c, ((const uint8_t[]){0, 0, 0, 0, 1, 0, 0, 1, 1}), 9);
    pl_mask_key_padding(c, left_padded, 1, 3);
    ck_assert_mem_eq(c, ((const uint8_t[]){0, 1, 1, 0, 1, 1, 0, 1, 1}), 9);
}
END_TEST

START_TEST(test_packed_mask_is_block_diagonal_over_cu_seqlens) {
    int cu[3];
    pl_cu_seqlens(cu, (const int[]){2, 1}, 2);
    ck_assert_int_eq(cu[0], 0);
    ck_assert_int_eq(cu[1], 2);
    ck_assert_int_eq(cu[2], 3);
    uint8_t m[9];
    pl_mask_block_diagonal(m, cu, 2, 0);
    ck_assert_mem_eq(m, ((const uint8_t[]){1, 1, 0, 1, 1, 0, 0, 0, 1}), 9);
    pl_mask_block_diagonal(m, cu, 2, 1);
    ck_assert_mem_eq(m, ((const uint8_t[]){1, 0, 0, 1, 1, 0, 0, 0, 1}), 9);
}
END_TEST

START_TEST(test_labels_are_minus_100_where_the_mask_is_off) {
    int32_t labels[4];
    pl_labels_ignore(labels, (const int32_t[]){5, 6, 7, 8}, (const uint8_t[]){1, 1, 0, 0}, 4);
    ck_assert_int_eq(labels[0], 5);
    ck_assert_int_eq(labels[1], 6);
    ck_assert_int_eq(labels[2], -100);
    ck_assert_int_eq(labels[3], -100);
}
END_TEST

START_TEST(test_convention_names_round_trip) {
    for (int c = 0; c < 4; c++) {
        PlMaskConv back;
        ck_assert_int_eq(pl_mask_conv_parse(pl_mask_conv_name((PlMaskConv)c), &back), 0);
        ck_assert_int_eq(back, c);
    }
    PlMaskConv x;
    ck_assert_int_eq(pl_mask_conv_parse("tensorflow", &x), -1);
}
END_TEST

Suite *mask_suite(void) {
    Suite *s = suite_create("mask");
    TCase *tc = tcase_create("conventions");
    tcase_add_test(tc, test_each_convention_encodes_the_same_mask);
    tcase_add_test(tc, test_conventions_agree_on_random_masks);
    tcase_add_test(tc, test_convention_names_round_trip);
    tcase_add_test(tc, test_labels_are_minus_100_where_the_mask_is_off);
    suite_add_tcase(s, tc);
    tc = tcase_create("attention_patterns");
    tcase_add_test(tc, test_causal_mask_is_lower_triangular);
    tcase_add_test(tc, test_causal_and_left_padding_leave_a_query_with_no_key);
    tcase_add_test(tc, test_packed_mask_is_block_diagonal_over_cu_seqlens);
    suite_add_tcase(s, tc);
    return s;
}
