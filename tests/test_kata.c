/* The katas (app/kata): the expected values against small cases worked out
 * by hand, the first wrong cell named, the candidate's JSON read, the .npy
 * header NumPy reads, and the kata format's messages. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/kata/attempt.h"
#include "app/kata/bugs.h"
#include "core/corpus_load.h"
#include "core/mask.h"
#include "core/nn/nn.h"
#include "core/plan.h"
#include "suites.h"

/* Four rows of twelve words: every batch case's rows are cut from them. */
#define TWELVE "a b c d e f g h i j k l"
static const char *const inline4 = "inline:" TWELVE "|" TWELVE "|" TWELVE "|" TWELVE;

static PlCorpus *corpus(void) {
    PlCorpus *c;
    PlErr err;
    PlCorpusOpts o = {0};
    ck_assert_int_eq(pl_corpus_load(inline4, &o, &c, &err), PL_OK);
    return c;
}

static PlKCase *cases_of(const char *task, PlCorpus *c) {
    const PlKTask *t = pl_ktask_find(task);
    ck_assert_ptr_nonnull(t);
    PlKCase *cases = calloc((size_t)t->ncases, sizeof *cases);
    ck_assert_int_eq(pl_ktask_cases(t, c, cases), PL_OK);
    return cases;
}

static void free_cases(const char *task, PlKCase *cases) {
    for (int i = 0; i < pl_ktask_find(task)->ncases; i++) pl_kcase_done(&cases[i]);
    free(cases);
}

START_TEST(test_position_ids_count_from_the_first_real_token) {
    uint8_t mask[10] = {0, 0, 1, 1, 1, 1, 1, 0, 0, 0};
    int32_t pos[10], want[10] = {1, 1, 0, 1, 2, 0, 1, 1, 1, 1};
    pl_position_ids(pos, mask, 2, 5);
    for (int i = 0; i < 10; i++) ck_assert_int_eq(pos[i], want[i]);
}
END_TEST

START_TEST(test_masked_softmax_gives_pads_zero_and_an_empty_row_zeros) {
    float S[4] = {0.0f, logf(3.0f), 1.0f, 2.0f};
    uint8_t all[2] = {1, 1}, first[2] = {1, 0}, none[2] = {0, 0};
    pl_attention_softmax(S, all, 0, 2);
    ck_assert(fabsf(S[0] - 0.25f) < 1e-6f && fabsf(S[1] - 0.75f) < 1e-6f);
    ck_assert(fabsf(S[2] - 0.2689414f) < 1e-6f && fabsf(S[3] - 0.7310586f) < 1e-6f); /* 1/(1+e), e/(1+e) */
    float T[4] = {3.0f, 9.0f, -1.0f, 4.0f}, U[4] = {3.0f, 9.0f, -1.0f, 4.0f};
    pl_attention_softmax(T, first, 0, 2);
    ck_assert(T[0] == 1.0f && T[1] == 0.0f && T[2] == 1.0f && T[3] == 0.0f);
    pl_attention_softmax(U, none, 0, 2);
    for (int i = 0; i < 4; i++) ck_assert(U[i] == 0.0f); /* zeros, never NaN */
}
END_TEST

START_TEST(test_float16_fill_and_the_overflow_of_adding) {
    float s[3] = {-20.0f, -1.5f, -31.5f}, out[3];
    uint8_t m[3] = {0, 1, 0};
    pl_mask_fill(out, s, m, 3, -65504.0f);
    ck_assert(out[0] == -65504.0f && out[1] == -1.5f && out[2] == -65504.0f);
    ck_assert_uint_eq(pl_half_bits(-65504.0f), 0xfbffu);
    ck_assert_uint_eq(pl_half_bits(-20.0f - 65504.0f), 0xfc00u); /* -65524 rounds to -inf */
    ck_assert_uint_eq(pl_half_bits(1.0f), 0x3c00u);
    ck_assert_uint_eq(pl_half_bits(-31.5f), 0xcfe0u);
    ck_assert_uint_eq(pl_half_bits(5.9604645e-08f), 0x0001u); /* the smallest subnormal */
}
END_TEST

START_TEST(test_a_length_at_a_boundary_starts_the_next_bucket) {
    int b[2] = {10, 20};
    ck_assert_int_eq(pl_plan_bucket_of(9, b, 2), 0);
    ck_assert_int_eq(pl_plan_bucket_of(10, b, 2), 1);
    ck_assert_int_eq(pl_plan_bucket_of(19, b, 2), 1);
    ck_assert_int_eq(pl_plan_bucket_of(20, b, 2), 2);
}
END_TEST

/* Rows of 12 tokens cut to the caps 10, 6, 3, 9 (case 1), and 8, 0, 3 with
 * the middle row empty (case 3). */
START_TEST(test_cu_seqlens_cases_add_up_the_real_lengths) {
    PlCorpus *c = corpus();
    PlKCase *cases = cases_of("cu_seqlens", c);
    double want1[5] = {0, 10, 16, 19, 28}, want3[4] = {0, 8, 8, 11};
    ck_assert_str_eq(cases[0].what, "corpus rows, right padding");
    for (int i = 0; i < 5; i++) ck_assert(cases[0].out[0].v[i] == want1[i]);
    ck_assert(cases[0].out[1].v[0] == 10.0);
    ck_assert_str_eq(cases[2].what, "an empty row");
    for (int i = 0; i < 4; i++) ck_assert(cases[2].out[0].v[i] == want3[i]);
    ck_assert(cases[2].out[1].v[0] == 8.0);
    free_cases("cu_seqlens", cases);
    pl_corpus_free(c);
}
END_TEST

/* Case 1 of block_mask: the rows cut to 10, 6, 3 and 9 tokens, right
 * padded to T = 10, causal+padding in tiles of 4 (nb = 3, T padded to 12).
 * Row 1 (6 real): tile (0,0) keeps 10 of 16 cells (partial), (1,0) all 16
 * (full), (1,1) 7 (keys 4 and 5 only), (2,0) 8 (queries 8 and 9 alone are
 * inside T: partial, never full), (2,1) 4, (2,2) none (pad keys). Row 0
 * (10 real) differs at (2,2): queries 8, 9 keep keys 8 and 8, 9. */
START_TEST(test_block_mask_judges_each_tile_as_a_block_sparse_kernel) {
    PlCorpus *c = corpus();
    PlKCase *cases = cases_of("block_mask", c);
    const PlKCase *k = &cases[0];
    double row1[9] = {1, 0, 0, 2, 1, 0, 1, 1, 0}, row0_22 = 1;
    double part1[3] = {1, 1, 2}, full1[3] = {0, 1, 0};
    ck_assert_str_eq(k->in[2].text, "causal+padding");
    ck_assert_int_eq(k->out[0].shape[0], 4);
    ck_assert_int_eq(k->out[0].shape[1], 3);
    for (int i = 0; i < 9; i++) ck_assert_msg(k->out[0].v[9 + i] == row1[i], "row 1 tile %d", i);
    ck_assert(k->out[0].v[8] == row0_22);
    for (int i = 0; i < 3; i++) ck_assert(k->out[1].v[3 + i] == part1[i] && k->out[2].v[3 + i] == full1[i]);
    /* case 3: padding over an empty row, T = 8 a multiple of 4: row 0 full, row 1 empty, row 2 (3 real) partial
     * in key block 0 and empty in key block 1 */
    double row2[4] = {1, 0, 1, 0};
    for (int i = 0; i < 4; i++)
        ck_assert(cases[2].out[0].v[i] == 2 && cases[2].out[0].v[4 + i] == 0 && cases[2].out[0].v[8 + i] == row2[i]);
    free_cases("block_mask", cases);
    pl_corpus_free(c);
}
END_TEST

/* compile_shapes on rows of 12 cut to 12, 9, 6 in turn. Case 2, ten rows in
 * batches of 4: every batch 12 wide, two shapes (4 x 12 and the last 2 x
 * 12). Case 5, cut to multiples of 8 (8 each, 6 raised to 8): three batches
 * 8 wide, one shape. Case 7, runs of three (12, 9, 6, 12) and the boundary
 * 9: bucket 0 holds the 6s (one batch, 6 wide), bucket 1 the 12s and 9s
 * (three batches, all 12 wide): (3,6) and (3,12), two shapes. */
START_TEST(test_compile_shapes_counts_rows_and_width_together) {
    PlCorpus *c = corpus();
    PlKCase *cases = cases_of("compile_shapes", c);
    ck_assert_int_eq(cases[1].out[0].shape[0], 3);
    for (int b = 0; b < 3; b++) ck_assert(cases[1].out[0].v[b] == 12 && cases[4].out[0].v[b] == 8);
    ck_assert(cases[1].out[1].v[0] == 2 && cases[4].out[1].v[0] == 1);
    ck_assert(cases[6].in[3].v[0] == 9);
    double w7[4] = {6, 12, 12, 12};
    ck_assert_int_eq(cases[6].out[0].shape[0], 4);
    for (int b = 0; b < 4; b++) ck_assert(cases[6].out[0].v[b] == w7[b]);
    ck_assert(cases[6].out[1].v[0] == 2);
    free_cases("compile_shapes", cases);
    pl_corpus_free(c);
}
END_TEST

/* Row 1 of case 2 keeps 6 tokens left-padded to 10: its first real token is
 * at index 4 and has position 0; counting from the row's start says 4. */
START_TEST(test_check_names_the_first_wrong_cell_and_why) {
    PlCorpus *c = corpus();
    PlKCase *cases = cases_of("position_ids", c);
    const PlKTask *t = pl_ktask_find("position_ids");
    char json[400] = "{\"position_ids\": [", msg[1000];
    for (int r = 0; r < 4; r++) {
        strcat(json, r ? ", [" : "[");
        for (int i = 0; i < 10; i++) sprintf(json + strlen(json), i ? ", %d" : "%d", i);
        strcat(json, "]");
    }
    strcat(json, "]}");
    PlErr err;
    PlJson *j = pl_json_parse(json, strlen(json), &err);
    ck_assert_ptr_nonnull(j);
    ck_assert_int_eq(pl_kcheck_case(t, &cases[0], 1, j, msg, sizeof msg), PL_KCHECK_PASS); /* right padding: right */
    ck_assert_int_eq(pl_kcheck_case(t, &cases[1], 2, j, msg, sizeof msg), PL_KCHECK_WRONG);
    ck_assert_str_eq(msg, "case 2 (left padding), row 1, token 4: position_ids is 4, expected 0: row 1's first real "
                          "token is at index 4 (left padding): positions count from it (attention_mask.cumsum(-1) - "
                          "1), as they would in the row alone");
    pl_json_free(j);
    free_cases("position_ids", cases);
    pl_corpus_free(c);
}
END_TEST

/* The answers a list of objects, one per case: each case's outputs as bug
 * b gives them (b NULL: as expected), or case wrong_at (0-based) alone
 * holding bug b's (all others right). Parsed; the caller frees it. */
static PlJson *answers_of(const PlKTask *t, const PlKCase *cases, const PlKBug *b, int wrong_at) {
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    ck_assert_ptr_nonnull(f);
    fputc('[', f);
    for (int i = 0; i < t->ncases; i++) {
        PlKCase bc;
        int use = b && (wrong_at < 0 || wrong_at == i);
        if (use) ck_assert_int_ge(pl_kbug_case(b, &cases[i], &bc), 0);
        const PlKCase *c = use ? &bc : &cases[i];
        fprintf(f, "%s{", i ? ", " : "");
        for (int o = 0; o < t->nout; o++) {
            fprintf(f, "%s\"%s\": ", o ? ", " : "", t->out[o].name);
            ck_assert_int_eq(pl_karray_json(f, &c->out[o]), 0);
        }
        fputc('}', f);
        if (use) pl_kbug_case_done(&bc);
    }
    fputc(']', f);
    fclose(f);
    PlErr err;
    PlJson *j = pl_json_parse(text, n, &err);
    ck_assert_msg(j != NULL, "%s", err.msg);
    free(text);
    return j;
}

/* Every kata rejects each of its known bugs, naming it: the bug's outputs
 * differ from the expected in at least one case of the test corpus, and
 * check calls them what they are; the expected outputs pass every case. */
START_TEST(test_every_kata_names_each_of_its_known_bugs) {
    PlCorpus *c = corpus();
    char names[400], *save = NULL;
    pl_ktask_names(names, sizeof names);
    int tasks = 0, bugs_seen = 0;
    for (char *name = strtok_r(names, ", ", &save); name; name = strtok_r(NULL, ", ", &save)) {
        const PlKTask *t = pl_ktask_find(name);
        ck_assert_ptr_nonnull(t);
        PlKCase *cases = cases_of(name, c);
        PlKata k;
        memset(&k, 0, sizeof k);
        k.task = t;
        char msg[3000];
        int passed, n;
        PlJson *right = answers_of(t, cases, NULL, -1);
        ck_assert_int_eq(pl_kata_check_answers(&k, cases, right, &passed, msg, sizeof msg), PL_KCHECK_PASS);
        ck_assert_int_eq(passed, t->ncases);
        pl_json_free(right);
        const PlKBug *bugs = pl_kbugs_of(t, &n);
        ck_assert_msg(n > 0, "%s lists no bug", name);
        for (int i = 0; i < n; i++) {
            PlJson *j = answers_of(t, cases, &bugs[i], -1);
            int v = pl_kata_check_answers(&k, cases, j, &passed, msg, sizeof msg);
            ck_assert_msg(v == PL_KCHECK_WRONG, "%s: %s passes every case", name, bugs[i].name);
            ck_assert_msg(strstr(msg, bugs[i].name) != NULL, "%s: %s is not named: %s", name, bugs[i].name, msg);
            ck_assert_int_lt(passed, t->ncases);
            pl_json_free(j);
            bugs_seen++;
        }
        free_cases(name, cases);
        tasks++;
    }
    ck_assert_int_eq(tasks, 21);
    ck_assert_int_ge(bugs_seen, 54);
    pl_corpus_free(c);
}
END_TEST

/* The count is of every case: one wrong case of seven leaves six passing,
 * and the message names that case. keras_mask's seventh case is an empty
 * row under padding='pre', where NumPy's mask[i, -0:] = True fills the row. */
START_TEST(test_check_counts_every_case_and_names_row_minus_zero) {
    PlCorpus *c = corpus();
    const PlKTask *t = pl_ktask_find("keras_mask");
    PlKCase *cases = cases_of("keras_mask", c);
    int n;
    const PlKBug *bugs = pl_kbugs_of(t, &n), *minus_zero = NULL;
    for (int i = 0; i < n; i++)
        if (strstr(bugs[i].name, "row[-n:]")) minus_zero = &bugs[i];
    ck_assert_ptr_nonnull(minus_zero);
    ck_assert_int_eq(t->ncases, 7);
    PlJson *j = answers_of(t, cases, minus_zero, -1); /* the bug on every case: only the 7th tells */
    PlKata k;
    memset(&k, 0, sizeof k);
    k.task = t;
    char msg[3000];
    int passed;
    ck_assert_int_eq(pl_kata_check_answers(&k, cases, j, &passed, msg, sizeof msg), PL_KCHECK_WRONG);
    ck_assert_int_eq(passed, 6);
    ck_assert_msg(
        strncmp(msg, "case 7 (an empty row, left padded): your output is what row[-n:] with n = 0 gives", 81) == 0,
        "%s", msg);
    pl_json_free(j);
    free_cases("keras_mask", cases);
    pl_corpus_free(c);
}
END_TEST

START_TEST(test_json_reads_what_python_writes_and_names_where_it_stops) {
    PlErr err;
    const char *ok = "{\"a\": [-Infinity, NaN, 1.5e2, true], \"b\": \"x\\\"y\"}";
    PlJson *j = pl_json_parse(ok, strlen(ok), &err);
    ck_assert_ptr_nonnull(j);
    const PlJson *a = pl_json_get(j, "a");
    ck_assert(a && a->n == 4 && isinf(a->items[0].num) && a->items[0].num < 0 && isnan(a->items[1].num));
    ck_assert(a->items[2].num == 150.0 && a->items[3].t == PL_J_BOOL && a->items[3].num == 1.0);
    ck_assert_str_eq(pl_json_get(j, "b")->str, "x\"y");
    pl_json_free(j);
    const char *bad = "[1,\n  2 x]";
    ck_assert_ptr_null(pl_json_parse(bad, strlen(bad), &err));
    ck_assert_str_eq(err.msg, "line 2, column 5: expected ',' or ']', got 'x'");
    ck_assert_ptr_null(pl_json_parse("[1,", 3, &err));
    ck_assert_str_eq(err.msg, "line 1, column 4: expected a value, got the end of the text");
}
END_TEST

START_TEST(test_npy_header_is_what_numpy_reads) {
    char *dir = pl_test_tmpdir(), path[4200];
    PlKArray a;
    PlErr err;
    ck_assert_int_eq(pl_karray_make(&a, "ids", PL_KT_INT, 2, (int[]){2, 3}), PL_OK);
    for (int i = 0; i < 6; i++) a.v[i] = i - 1;
    ck_assert_int_eq(pl_karray_npy(dir, &a, &err), PL_OK);
    snprintf(path, sizeof path, "%s/ids.npy", dir);
    FILE *f = fopen(path, "rb");
    unsigned char buf[200];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    /* 10 bytes, the 60-byte dict and its newline padded to 128, then six int32 */
    ck_assert_int_eq((int)n, 128 + 24);
    ck_assert(memcmp(buf, "\x93NUMPY\x01\x00", 8) == 0);
    ck_assert_int_eq(buf[8] | buf[9] << 8, 118);
    ck_assert(strstr((char *)buf + 10, "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }") != NULL);
    ck_assert(buf[127] == '\n' && buf[126] == ' ');
    ck_assert(buf[128] == 0xff && buf[129] == 0xff && buf[130] == 0xff && buf[131] == 0xff); /* -1, little-endian */
    ck_assert(buf[132] == 0 && buf[136] == 1);
    pl_karray_done(&a);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(test_a_kata_file_names_its_arrays_as_its_computation_does) {
    PlErr err;
    const char *good = "# K\ncompute: labels\ninputs: input_ids attention_mask\noutputs: labels\n\n## Task\nDo it.\n";
    PlKata *k = pl_kata_parse("k.kata", good, strlen(good), &err);
    ck_assert_ptr_nonnull(k);
    ck_assert_str_eq(k->task->name, "labels");
    ck_assert_str_eq(k->sec[0].text, "Do it.");
    pl_kata_free(k);
    const char *swapped = "# K\ncompute: labels\ninputs: attention_mask input_ids\noutputs: labels\n## Task\nx\n";
    ck_assert_ptr_null(pl_kata_parse("k.kata", swapped, strlen(swapped), &err));
    ck_assert_str_eq(err.msg, "k.kata:3: inputs: labels takes input_ids attention_mask, in that order, got "
                              "'attention_mask input_ids'");
    const char *bare = "# K\ncompute: labels\ninputs: input_ids attention_mask\noutputs: labels\n";
    ck_assert_ptr_null(pl_kata_parse("k.kata", bare, strlen(bare), &err));
    ck_assert_str_eq(err.msg,
                     "k.kata:1: a kata has its statement: a section (## Task) with the text a candidate reads");
}
END_TEST

Suite *kata_suite(void) {
    Suite *s = suite_create("kata");
    TCase *tc = tcase_create("expected values");
    tcase_add_test(tc, test_position_ids_count_from_the_first_real_token);
    tcase_add_test(tc, test_masked_softmax_gives_pads_zero_and_an_empty_row_zeros);
    tcase_add_test(tc, test_float16_fill_and_the_overflow_of_adding);
    tcase_add_test(tc, test_a_length_at_a_boundary_starts_the_next_bucket);
    tcase_add_test(tc, test_cu_seqlens_cases_add_up_the_real_lengths);
    tcase_add_test(tc, test_block_mask_judges_each_tile_as_a_block_sparse_kernel);
    tcase_add_test(tc, test_compile_shapes_counts_rows_and_width_together);
    suite_add_tcase(s, tc);
    tc = tcase_create("checking and files");
    tcase_add_test(tc, test_check_names_the_first_wrong_cell_and_why);
    tcase_add_test(tc, test_every_kata_names_each_of_its_known_bugs);
    tcase_add_test(tc, test_check_counts_every_case_and_names_row_minus_zero);
    tcase_add_test(tc, test_json_reads_what_python_writes_and_names_where_it_stops);
    tcase_add_test(tc, test_npy_header_is_what_numpy_reads);
    tcase_add_test(tc, test_a_kata_file_names_its_arrays_as_its_computation_does);
    suite_add_tcase(s, tc);
    return s;
}
