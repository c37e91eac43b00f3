#include "stats.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"

double pl_percentile_sorted(const int *sorted, int n, double p) {
    double pos = p / 100.0 * (n - 1);
    int lo = (int)pos;
    if (lo >= n - 1) return sorted[n - 1];
    double frac = pos - lo;
    return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

static int cmp_int(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

PlStatus pl_length_summary(const int *len, int n, PlLengthSummary *s, PlErr *err) {
    if (n < 1) return pl_err_set(err, PL_ERANGE, "no sequences to summarise");
    int *sorted = malloc((size_t)n * sizeof *sorted);
    if (!sorted) return pl_err_set(err, PL_ENOMEM, "out of memory sorting %d lengths", n);
    memcpy(sorted, len, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_int);
    double total = 0.0;
    for (int i = 0; i < n; i++) total += sorted[i];
    s->n = n;
    s->min = sorted[0];
    s->max = sorted[n - 1];
    s->mean = total / n;
    s->median = pl_percentile_sorted(sorted, n, 50.0);
    s->p95 = sorted[(95 * (int64_t)n + 99) / 100 - 1]; /* nearest rank: a length a maxlen can be */
    free(sorted);
    return PL_OK;
}

void pl_maxlen_row(const int *len, int n, int maxlen, PlMaxlenRow *row) {
    PlCost c;
    pl_cost_static(&c, len, n, maxlen);
    row->maxlen = maxlen;
    row->padding_share = pl_cost_padding_share(&c);
    row->kept_share = pl_cost_kept_share(&c);
    row->rows_truncated = pl_cost_truncated_share(&c);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double pl_median(double *x, int n) {
    qsort(x, (size_t)n, sizeof *x, cmp_double);
    return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}
