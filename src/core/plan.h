/* Batching strategies over a whole corpus, as a plan: which rows go in which
 * batch, and how wide each batch is padded. A plan works on sequence lengths
 * alone, so its accounting can be checked by hand.
 *
 * Layout: batch b holds rows order[start[b] .. start[b+1]) and is padded to
 * width[b]. In a packed plan the rows of a batch are concatenated with no
 * padding (cu_seqlens) and width[b] is the total of their lengths. */
#ifndef PL_PLAN_H
#define PL_PLAN_H

#include <stdint.h>

#include "err.h"
#include "rng.h"

typedef enum {
    PL_BATCH_LONGEST,        /* every row padded to the corpus's longest */
    PL_BATCH_STATIC,         /* every row padded or truncated to maxlen */
    PL_BATCH_DYNAMIC,        /* each batch padded to its own longest row */
    PL_BATCH_MULTIPLE,       /* dynamic, width rounded up to a multiple (pad_to_multiple_of) */
    PL_BATCH_GROUPED,        /* length-grouped: sort within windows, then shuffle batches */
    PL_BATCH_BUCKET_LONGEST, /* rows grouped by length bucket, every batch padded to its bucket's longest row */
    PL_BATCH_TF_BUCKET,      /* tf.data bucket_by_sequence_length */
    PL_BATCH_PACKED,         /* concatenated rows, cu_seqlens, no padding */
    PL_BATCH_COUNT
} PlBatching;

/* The tutorial's batches, the lab's, the trainer's and the probes' defaults:
 * rows cut to 200 tokens, 32 rows per batch. */
#define PL_DEFAULT_MAXLEN 200
#define PL_DEFAULT_BATCH 32

typedef struct {
    PlBatching kind;
    int batch_size;        /* rows per batch; 0 = PL_DEFAULT_BATCH */
    int maxlen;            /* static: the width; others: a cap on lengths, 0 = none */
    int multiple;          /* multiple: the multiple; 0 = 8 */
    const int *boundaries; /* bucket boundaries, increasing */
    int n_boundaries;
    const int *bucket_batch_sizes; /* tf_bucket: n_boundaries + 1 sizes; NULL = batch_size */
    int pad_to_boundary;           /* tf_bucket: pad to boundary - 1 (not the last bucket) */
    int window;                    /* grouped: rows sorted together; 0 = 50 * batch_size */
    int shuffle;                   /* dynamic, multiple, packed: shuffle rows first */
    PlSeed seed;                   /* for grouped and shuffle */
} PlPlanOpts;

typedef struct {
    int n_rows, n_batches;
    int *order; /* (n_rows) */
    int *start; /* (n_batches + 1) */
    int *width; /* (n_batches) */
    int packed;
    int cap; /* rows are cut to at most cap tokens; 0 = none */
} PlPlan;

/* The strategies' names, indexed by PlBatching, NULL at PL_BATCH_COUNT. */
extern const char *const pl_batching_names[];
const char *pl_batching_name(PlBatching k);
/* Parses a strategy name (as pl_batching_name prints); 0 on success, -1 otherwise. */
int pl_batching_parse(const char *s, PlBatching *out);

/* Makes the plan for n sequences of lengths len[0..n). Returns PL_ERANGE for
 * impossible options (message in err) or PL_ENOMEM; *out is NULL then. */
PlStatus pl_plan_make(const int *len, int n, const PlPlanOpts *o, PlPlan **out, PlErr *err);
void pl_plan_free(PlPlan *p);

/* The tf_bucket boundaries the trainer and the lab use at a maxlen: its
 * quarters. Fills bounds (3 entries); returns how many to use (0 below 4). */
int pl_plan_quarter_bounds(int maxlen, int bounds[3]);

/* The one set of plan options padlab uses for a strategy, wherever it plans:
 * the trainer, the lab's batch and cost views, `padlab buckets` and the
 * probes. Rows are cut to maxlen (longest: never), static batches are
 * maxlen wide, the bucketed strategies split at the quarters of maxlen (kept
 * in bounds, which must outlive the options) and every batch has batch_size
 * rows. */
PlPlanOpts pl_plan_opts_standard(PlBatching kind, int maxlen, int batch_size, int bounds[3]);

/* The bucket of a row of L tokens under increasing boundaries[0..n): k
 * when boundaries[k-1] <= L < boundaries[k] (0 below the first, n from the
 * last on), as tf.data's bucket_by_sequence_length assigns it. */
int pl_plan_bucket_of(int L, const int *boundaries, int n);

/* The batch of p that holds row; -1 when the plan has no such row. */
int pl_plan_batch_of(const PlPlan *p, int row);

/* Whether p is well made: every row of 0..n_rows) in exactly one batch, no
 * batch empty, and (when len, the rows' lengths, is given) every batch at
 * least as wide as its rows once cut to the cap, a packed batch exactly as
 * wide as their total. 1 or 0; for pl_assert and the tests. */
int pl_plan_is_consistent(const PlPlan *p, const int *len);

/* Length of row i once the plan's cap applies. */
static inline int pl_plan_kept(const PlPlan *p, int L) { return p->cap && L > p->cap ? p->cap : L; }

#endif
