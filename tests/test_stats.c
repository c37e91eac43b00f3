/* Length statistics and the maxlen sweep. */
#include <math.h>

#include "core/stats.h"
#include "suites.h"

START_TEST(test_percentiles_interpolate_between_order_statistics) {
    const int v[] = {1, 2, 3, 4};
    ck_assert(fabs(pl_percentile_sorted(v, 4, 50.0) - 2.5) < 1e-12);
    ck_assert(fabs(pl_percentile_sorted(v, 4, 95.0) - 3.85) < 1e-12);
    ck_assert(pl_percentile_sorted(v, 4, 0.0) == 1.0);
    ck_assert(pl_percentile_sorted(v, 4, 100.0) == 4.0);
    const int one[] = {7};
    ck_assert(pl_percentile_sorted(one, 1, 95.0) == 7.0);
}
END_TEST

START_TEST(test_summary_of_five_lengths) {
    const int len[] = {5, 3, 8, 2, 7};
    PlLengthSummary s;
    ck_assert_int_eq(pl_length_summary(len, 5, &s, NULL), PL_OK);
    ck_assert_int_eq(s.min, 2);
    ck_assert_int_eq(s.max, 8);
    ck_assert(s.mean == 5.0);
    ck_assert(s.median == 5.0);
    ck_assert(s.p95 == 8.0); /* sorted 2 3 5 7 8: the ceil(4.75) = 5th shortest */
    PlErr err;
    ck_assert_int_eq(pl_length_summary(len, 0, &s, &err), PL_ERANGE);
}
END_TEST

START_TEST(test_maxlen_row_shares) {
    const int len[] = {5, 3, 8, 2, 7};
    PlMaxlenRow r;
    pl_maxlen_row(len, 5, 4, &r);
    ck_assert_int_eq(r.maxlen, 4);
    ck_assert(fabs(r.padding_share - 0.15) < 1e-12);
    ck_assert(fabs(r.kept_share - 0.68) < 1e-12);
    ck_assert(fabs(r.rows_truncated - 0.6) < 1e-12);
    pl_maxlen_row(len, 5, 10, &r);
    ck_assert(fabs(r.padding_share - 0.5) < 1e-12);
    ck_assert(r.kept_share == 1.0 && r.rows_truncated == 0.0);
}
END_TEST

Suite *stats_suite(void) {
    Suite *s = suite_create("stats");
    TCase *tc = tcase_create("lengths");
    tcase_add_test(tc, test_percentiles_interpolate_between_order_statistics);
    tcase_add_test(tc, test_summary_of_five_lengths);
    tcase_add_test(tc, test_maxlen_row_shares);
    suite_add_tcase(s, tc);
    return s;
}
