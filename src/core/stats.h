/* Length statistics of a corpus and the maxlen sweep. */
#ifndef PL_STATS_H
#define PL_STATS_H

#include "err.h"

typedef struct {
    int n;
    int min, max;
    double mean, median; /* the median interpolated, as numpy's */
    double p95;          /* by nearest rank, the ceil(0.95 n)-th shortest: a length a maxlen can be */
} PlLengthSummary;

/* Percentile p (0..100) of sorted[0..n), interpolating linearly between order
 * statistics at position p/100 * (n-1), as numpy's default does. n > 0. */
double pl_percentile_sorted(const int *sorted, int n, double p);

/* Sorts x[0..n) in place (n > 0) and returns its median: the middle value,
 * or the mean of the two middle ones. */
double pl_median(double *x, int n);

/* Summarises len[0..n) (n > 0). Returns PL_ENOMEM if the sorted copy cannot
 * be made, PL_ERANGE for n < 1. */
PlStatus pl_length_summary(const int *len, int n, PlLengthSummary *s, PlErr *err);

/* One row of the maxlen sweep: every sequence padded or truncated to maxlen. */
typedef struct {
    int maxlen;
    double padding_share;  /* pad cells / all cells */
    double kept_share;     /* tokens kept / tokens in the corpus */
    double rows_truncated; /* share of rows longer than maxlen */
} PlMaxlenRow;

void pl_maxlen_row(const int *len, int n, int maxlen, PlMaxlenRow *row);

#endif
