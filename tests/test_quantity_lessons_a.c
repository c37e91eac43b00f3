/* The quantities the attention lessons added: the shape of the close-up
 * batch the attention probe runs over, read through the quantity table and
 * checked against the probe's own struct and a case worked out by hand. */
#include <string.h>

#include "app/lab/quantity.h"
#include "core/corpus_loaders.h"
#include "core/probe.h"
#include "suites.h"

/* Reviews of 4, 6 and 2 tokens (start token included). */
static const char *tiny_tsv = "1\tgood fine film\n0\tbad bad dull slow film\n1\tgood\n";

static double value_of(const char *name, const void *result) {
    PlQuantity q;
    char why[200];
    ck_assert_msg(pl_quantity_parse(name, &q, why, sizeof why) == 0, "%s", why);
    ck_assert_uint_eq(pl_quantity_kinds(&q), 1u << PL_R_ATTENTION);
    PlLabSettings s = pl_settings_default();
    double v;
    ck_assert_int_eq(pl_quantity_value_in(&q, result, &s, &v), 0);
    return v;
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
    ck_assert(value_of("attention.rows", &r) == 3.0);
    ck_assert(value_of("attention.heads", &r) == 2.0);
    ck_assert(value_of("attention.mask_cells", &r) == 15.0);
    ck_assert(value_of("attention.score_cells", &r) == 150.0);
    /* The scores are every head's padded cells. */
    ck_assert(value_of("attention.score_cells", &r) == (double)r.heads * (double)r.padded_cells);
    pl_probe_attention_free(&r);
    pl_corpus_free(c);
}
END_TEST

Suite *quantity_lessons_a_suite(void) {
    Suite *s = suite_create("quantity_lessons_a");
    TCase *tc = tcase_create("attention shapes");
    tcase_add_test(tc, test_attention_shape_quantities_count_rows_heads_masks_and_scores);
    suite_add_tcase(s, tc);
    return s;
}
