/* What a batching choice costs: padded slots, real tokens kept, truncated
 * rows, RNN steps, attention score cells, bytes. All counts are exact
 * integers; the shares are derived from them. */
#ifndef PL_COST_H
#define PL_COST_H

#include <stdint.h>

#include "err.h"
#include "plan.h"

typedef struct {
    int64_t rows, batches;
    int64_t slots;           /* cells in the padded batches (packed: tokens) */
    int64_t real_tokens;     /* tokens in the batches, after truncation */
    int64_t total_tokens;    /* tokens in the source sequences */
    int64_t rows_truncated;  /* rows longer than the width they got */
    int64_t attn_cells;      /* score cells: T*T per row (packed: L*L per row) */
    int64_t attn_real_cells; /* score cells between two real tokens: kept L*L per row */
    int64_t rnn_steps;       /* recurrent steps run: slots (packed: tokens) */
    int64_t rnn_wasted;      /* of which on pad cells */
    int64_t shapes;          /* distinct batch shapes in the epoch, rows x width (packed: 1 x the batch's
                                tokens): what a compiler without dynamic shapes compiles once each */
} PlCost;

/* Adds one row of length L placed in a padded row of width T. */
void pl_cost_add_row(PlCost *c, int L, int T);
/* Adds one row of length L to a packed batch (no padding). */
void pl_cost_add_packed(PlCost *c, int L);

/* The cost of a plan over lengths len. Returns PL_OK, or PL_ENOMEM with err
 * when there is no memory to count its shapes (c is then not to be shown). */
PlStatus pl_cost_of_plan(PlCost *c, const PlPlan *p, const int *len, PlErr *err);

/* The cost of padding or truncating every row to maxlen. Can't fail. */
void pl_cost_static(PlCost *c, const int *len, int n, int maxlen);

double pl_cost_padding_share(const PlCost *c); /* 1 - real / slots */
double pl_cost_kept_share(const PlCost *c);    /* real / total */
double pl_cost_truncated_share(const PlCost *c);
/* Bytes of a float activation of the given width over every slot. */
int64_t pl_cost_bytes(const PlCost *c, int hidden);

/* One row of the strategy comparison behind `padlab buckets`. What a
 * strategy saves is measured against static batches at the same maxlen (the
 * tutorial's batches): a negative share costs more than static. */
typedef struct {
    PlBatching kind;
    PlCost cost;
    double padding_share;
    double cells_saved; /* 1 - cells / static's cells */
    double attn_saved;  /* 1 - attention score cells / static's */
    int64_t tokens_cut; /* tokens truncation threw away */
} PlStrategyRow;

typedef struct {
    int batch_size;        /* rows per batch */
    int maxlen;            /* rows are cut to maxlen (longest: never); static's width */
    const int *boundaries; /* bucket boundaries; NULL: the quarters of maxlen, as the trainer and the lab use */
    int n_boundaries;
    const int *bucket_batch_sizes; /* tf_bucket, n_boundaries + 1 entries; NULL: batch_size each */
    PlSeed seed;                   /* length_grouped's shuffles */
} PlCompareOpts;

/* Fills rows[0..*nrows) with one row per strategy, in the order longest,
 * static, dynamic, multiple_of_8, length_grouped, bucket_longest, tf_bucket,
 * packed. rows must hold PL_BATCH_COUNT entries. Returns the plan's error on
 * impossible options, or PL_ENOMEM when a plan or its shapes ran out of memory. */
PlStatus pl_cost_compare(const int *len, int n, const PlCompareOpts *o, PlStrategyRow *rows, int *nrows, PlErr *err);

#endif
