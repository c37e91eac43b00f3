/* Padding and truncation with Keras pad_sequences semantics. */
#include <string.h>

#include "core/corpus_load.h"
#include "core/corpus_loaders.h"
#include "core/names.h"
#include "core/pad.h"
#include "suites.h"

static const int32_t seq5[] = {17, 42, 9, 6, 3};
static const int32_t seq3[] = {17, 81, 4};

static void assert_row(const int32_t *row, const int32_t *want, int T) {
    for (int t = 0; t < T; t++) ck_assert_msg(row[t] == want[t], "cell %d: %d, want %d", t, row[t], want[t]);
}

START_TEST(test_post_padding_keeps_real_tokens_first) {
    PlPadOpts o = {5, PL_POST, PL_PRE, 0};
    int32_t row[5];
    uint8_t mask[5];
    ck_assert_int_eq(pl_pad_row(row, mask, seq5, 5, 5, &o), 5);
    assert_row(row, (const int32_t[]){17, 42, 9, 6, 3}, 5);
    ck_assert_mem_eq(mask, ((const uint8_t[]){1, 1, 1, 1, 1}), 5);
    ck_assert_int_eq(pl_pad_row(row, mask, seq3, 3, 5, &o), 3);
    assert_row(row, (const int32_t[]){17, 81, 4, 0, 0}, 5);
    ck_assert_mem_eq(mask, ((const uint8_t[]){1, 1, 1, 0, 0}), 5);
}
END_TEST

START_TEST(test_pre_padding_puts_pads_before_the_tokens) {
    PlPadOpts o = {5, PL_PRE, PL_PRE, 0};
    int32_t row[5];
    uint8_t mask[5];
    pl_pad_row(row, mask, seq3, 3, 5, &o);
    assert_row(row, (const int32_t[]){0, 0, 17, 81, 4}, 5);
    ck_assert_mem_eq(mask, ((const uint8_t[]){0, 0, 1, 1, 1}), 5);
    ck_assert_int_eq(pl_pad_first_real(3, 5, PL_PRE), 2);
    ck_assert_int_eq(pl_pad_first_real(3, 5, PL_POST), 0);
}
END_TEST

START_TEST(test_truncating_pre_keeps_the_end_and_post_the_start) {
    int32_t row[3];
    PlPadOpts pre = {3, PL_PRE, PL_PRE, 0}, post = {3, PL_PRE, PL_POST, 0};
    ck_assert_int_eq(pl_pad_row(row, NULL, seq5, 5, 3, &pre), 3);
    assert_row(row, (const int32_t[]){9, 6, 3}, 3);
    pl_pad_row(row, NULL, seq5, 5, 3, &post);
    assert_row(row, (const int32_t[]){17, 42, 9}, 3);
}
END_TEST

START_TEST(test_empty_sequence_is_a_full_row_of_the_pad_value) {
    PlPadOpts o = {4, PL_POST, PL_PRE, -1};
    int32_t row[4];
    uint8_t mask[4];
    ck_assert_int_eq(pl_pad_row(row, mask, seq5, 0, 4, &o), 0);
    assert_row(row, (const int32_t[]){-1, -1, -1, -1}, 4);
    ck_assert_mem_eq(mask, ((const uint8_t[]){0, 0, 0, 0}), 4);
}
END_TEST

START_TEST(test_side_names_parse_and_print) {
    PlSide s;
    ck_assert_int_eq(pl_side_parse("post", &s), 0);
    ck_assert_int_eq(s, PL_POST);
    ck_assert_int_eq(pl_side_parse("left", &s), -1);
    ck_assert_str_eq(pl_side_name(PL_PRE), "pre");
}
END_TEST

/* One lookup behind every parser: a NULL-terminated name table, and a table
 * of rows whose first member is the name. */
START_TEST(test_name_tables_and_row_tables_find_their_names) {
    static const char *const names[] = {"pre", "post", NULL};
    ck_assert_int_eq(pl_name_find(names, "post"), 1);
    ck_assert_int_eq(pl_name_find(names, "Post"), -1);
    ck_assert_str_eq(pl_name_of(names, 0), "pre");
    ck_assert_str_eq(pl_name_of(names, 2), "?");
    ck_assert_str_eq(pl_name_of(names, -1), "?");
    static const struct {
        const char *name;
        int value;
    } rows[] = {{"static", 4}, {"dynamic", 7}, {NULL, 0}, {"hidden", 9}};
    ck_assert_int_eq(PL_ROW_FIND(rows, 4, "dynamic"), 1);
    ck_assert_int_eq(PL_ROW_FIND(rows, 1, "dynamic"), -1); /* beyond n */
    ck_assert_int_eq(PL_ROW_FIND(rows, 4, "hidden"), -1);  /* beyond the NULL name */
}
END_TEST

START_TEST(test_batch_of_corpus_rows_pads_to_the_longest_by_default) {
    const char *tsv = "1\ta b c d\n0\tb c\n";
    PlCorpus *c;
    ck_assert_int_eq(pl_corpus_load_tsv_mem("m", tsv, strlen(tsv), NULL, &c, NULL), PL_OK);
    PlBatch *b;
    PlPadOpts o = {0, PL_POST, PL_PRE, 0};
    ck_assert_int_eq(pl_batch_make(c, (const int[]){1, 0}, 2, 0, &o, &b, NULL), PL_OK);
    ck_assert_int_eq(b->T, 5);
    /* ids: b=3, c=4, a=5, d=6 (b and c appear twice) */
    assert_row(b->ids, (const int32_t[]){1, 3, 4, 0, 0, 1, 5, 3, 4, 6}, 10);
    ck_assert_int_eq(b->len[0], 3);
    ck_assert_int_eq(b->labels[0], 0);
    ck_assert_int_eq(b->row[1], 0);
    pl_batch_free(b);
    PlErr err;
    ck_assert_int_eq(pl_batch_make(c, (const int[]){2}, 1, 0, &o, &b, &err), PL_ERANGE);
    ck_assert_ptr_null(b);
    pl_corpus_free(c);
}
END_TEST

/* ---- the batch's invariants (pl_batch_is_consistent) ---- */

/* Batches of three corpora's first rows are consistent under either padding
 * and truncation, at their own width, a width that cuts and one that pads,
 * with and without a maxlen under the width. */
START_TEST(test_every_batch_made_from_a_corpus_is_consistent) {
    static const char *const corpora[] = {"builtin:1:200", "builtin:3:60", "builtin:5:80"};
    static const int widths[] = {0, 5, 400}, maxlens[] = {0, 3};
    int made = 0;
    for (int ci = 0; ci < 3; ci++) {
        PlCorpus *c;
        ck_assert_int_eq(pl_corpus_load(corpora[ci], NULL, &c, NULL), PL_OK);
        int rows[9], B = c->n < 9 ? c->n : 9;
        for (int i = 0; i < B; i++) rows[i] = (i * 7) % c->n;
        for (int w = 0; w < 3; w++)
            for (int m = 0; m < 2; m++)
                for (int side = 0; side < 4; side++) {
                    PlPadOpts o = {maxlens[m], (PlSide)(side & 1), (PlSide)(side >> 1), 0};
                    PlBatch *b;
                    ck_assert_int_eq(pl_batch_make(c, rows, B, widths[w], &o, &b, NULL), PL_OK);
                    ck_assert_msg(pl_batch_is_consistent(b), "%s, width %d, maxlen %d, sides %d", corpora[ci],
                                  widths[w], maxlens[m], side);
                    pl_batch_free(b);
                    made++;
                }
        pl_corpus_free(c);
    }
    ck_assert_int_eq(made, 3 * 3 * 2 * 4);
}
END_TEST

/* A pre-padded batch of "a b c d" and "b c" at width 6 (lengths 5 and 3,
 * start token included), broken by hand one way at a time. */
START_TEST(test_a_broken_batch_is_not_consistent) {
    const char *tsv = "1\ta b c d\n0\tb c\n";
    PlCorpus *c;
    ck_assert_int_eq(pl_corpus_load_tsv_mem("m", tsv, strlen(tsv), NULL, &c, NULL), PL_OK);
    PlBatch *b;
    PlPadOpts o = {0, PL_PRE, PL_PRE, 0};
    ck_assert_int_eq(pl_batch_make(c, (const int[]){0, 1}, 2, 6, &o, &b, NULL), PL_OK);
    ck_assert_int_eq(b->len[1], 3);
    ck_assert(pl_batch_is_consistent(b));
    b->mask[6 + 2] = 1; /* a pad cell of row 1 marked real */
    ck_assert(!pl_batch_is_consistent(b));
    b->mask[6 + 2] = 0;
    b->mask[6 + 4] = 0; /* a real cell marked pad */
    ck_assert(!pl_batch_is_consistent(b));
    b->mask[6 + 4] = 1;
    b->len[1] = 4; /* a length its mask does not have, and longer than the review */
    ck_assert(!pl_batch_is_consistent(b));
    b->len[1] = 3;
    b->padding = PL_POST; /* the real cells on the other side */
    ck_assert(!pl_batch_is_consistent(b));
    b->padding = PL_PRE;
    b->len[0] = 7; /* wider than the batch */
    ck_assert(!pl_batch_is_consistent(b));
    b->len[0] = 5;
    ck_assert(pl_batch_is_consistent(b));
    pl_batch_free(b);
    pl_corpus_free(c);
}
END_TEST

Suite *pad_suite(void) {
    Suite *s = suite_create("pad");
    TCase *tc = tcase_create("pad_sequences");
    tcase_add_test(tc, test_name_tables_and_row_tables_find_their_names);
    tcase_add_test(tc, test_post_padding_keeps_real_tokens_first);
    tcase_add_test(tc, test_pre_padding_puts_pads_before_the_tokens);
    tcase_add_test(tc, test_truncating_pre_keeps_the_end_and_post_the_start);
    tcase_add_test(tc, test_empty_sequence_is_a_full_row_of_the_pad_value);
    tcase_add_test(tc, test_side_names_parse_and_print);
    suite_add_tcase(s, tc);
    tc = tcase_create("batch");
    tcase_add_test(tc, test_batch_of_corpus_rows_pads_to_the_longest_by_default);
    tcase_add_test(tc, test_every_batch_made_from_a_corpus_is_consistent);
    tcase_add_test(tc, test_a_broken_batch_is_not_consistent);
    suite_add_tcase(s, tc);
    return s;
}
