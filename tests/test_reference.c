/* Figures on the reference corpus ../shared/data/imdb5k.tsv (see its README).
 * When the file is absent these checks do not run, and the tally says so. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/corpus.h"
#include "core/corpus_load.h"
#include "core/cost.h"
#include "core/stats.h"
#include "suites.h"

static PlCorpus *imdb;
static int *lens;

static void load_imdb(void) {
    PlErr err;
    ck_assert_msg(pl_corpus_load(pl_test_imdb_path(), NULL, &imdb, &err) == PL_OK, "%s", err.msg);
    lens = malloc((size_t)imdb->n * sizeof *lens);
    pl_corpus_lengths(imdb, lens);
}

static void free_imdb(void) {
    pl_corpus_free(imdb);
    free(lens);
}

/* |got - want| within half a unit of the 4th decimal the figure was given to. */
#define ck_assert_4dp(got, want) \
    ck_assert_msg(fabs((got) - (want)) <= 5e-5, "%s = %.6f, want %.4f", #got, (got), (want))

START_TEST(test_imdb5k_length_summary_matches_the_readme) {
    PlLengthSummary s;
    ck_assert_int_eq(pl_length_summary(lens, imdb->n, &s, NULL), PL_OK);
    ck_assert_int_eq(s.n, 5000);
    ck_assert_int_eq(s.min, 13);
    ck_assert(s.median == 177.0);
    ck_assert_msg(fabs(s.mean - 238.2) < 0.05, "mean %.4f", s.mean);
    ck_assert_msg(s.p95 == 600.0, "p95 %.4f", s.p95); /* the README's 600: the 4750th shortest of 5000 */
    ck_assert_int_eq(s.max, 2474);
    int pos = 0;
    for (int i = 0; i < imdb->n; i++) pos += imdb->labels[i];
    ck_assert_int_eq(pos, 2517);
}
END_TEST

START_TEST(test_imdb5k_at_maxlen_200_pads_a_fifth_and_truncates_43_percent) {
    PlMaxlenRow r;
    pl_maxlen_row(lens, imdb->n, 200, &r);
    ck_assert_4dp(r.padding_share, 0.1961);
    ck_assert_4dp(r.kept_share, 0.6749);
    ck_assert_4dp(r.rows_truncated, 0.4302);
}
END_TEST

/* The strategies as the lab and training batch them (32 rows, cut to 200,
 * buckets at the quarters of maxlen); the figures were worked out again by an
 * independent Python re-implementation of the tokenizer and the strategies. */
START_TEST(test_imdb5k_bucketing_recovers_most_of_the_padding) {
    PlCompareOpts o = {.batch_size = 32, .maxlen = 200};
    PlStrategyRow rows[PL_BATCH_COUNT];
    int n;
    ck_assert_int_eq(pl_cost_compare(lens, imdb->n, &o, rows, &n, NULL), PL_OK);
    ck_assert_4dp(rows[PL_BATCH_LONGEST].padding_share, 0.9037);
    ck_assert_4dp(rows[PL_BATCH_STATIC].padding_share, 0.1961);
    ck_assert_int_eq(rows[PL_BATCH_STATIC].tokens_cut, 387274);
    ck_assert_4dp(rows[PL_BATCH_DYNAMIC].padding_share, 0.1961); /* every batch of 32 holds a review past 200 */
    ck_assert_4dp(rows[PL_BATCH_BUCKET_LONGEST].padding_share, 0.0764);
    ck_assert_4dp(rows[PL_BATCH_TF_BUCKET].padding_share, 0.0749);
    ck_assert_int_eq(rows[PL_BATCH_TF_BUCKET].cost.slots, 869020);
    ck_assert(rows[PL_BATCH_PACKED].padding_share == 0.0);
    ck_assert_int_eq(rows[PL_BATCH_PACKED].cost.slots, rows[PL_BATCH_PACKED].cost.real_tokens);
}
END_TEST

enum { REFERENCE_CHECKS = 3 };

Suite *reference_suite(int *skipped) {
    *skipped = 0;
    if (!pl_test_imdb_path()) {
        *skipped = REFERENCE_CHECKS;
        printf("skip: %d reference checks: imdb5k.tsv not found in PADLAB_SHARED_DATA (%s)\n", REFERENCE_CHECKS,
               getenv("PADLAB_SHARED_DATA") ? getenv("PADLAB_SHARED_DATA") : "unset");
        return NULL;
    }
    Suite *s = suite_create("reference");
    TCase *tc = tcase_create("imdb5k");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, load_imdb, free_imdb);
    tcase_add_test(tc, test_imdb5k_length_summary_matches_the_readme);
    tcase_add_test(tc, test_imdb5k_at_maxlen_200_pads_a_fifth_and_truncates_43_percent);
    tcase_add_test(tc, test_imdb5k_bucketing_recovers_most_of_the_padding);
    suite_add_tcase(s, tc);
    return s;
}
