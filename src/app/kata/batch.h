/* The padded batches the katas' cases are cut from: the learner's corpus's
 * rows, a few tokens each so that a cell can be read, padded by the core's
 * pad_sequences (pl_pad_row) in each of the ways toy checkers forget. */
#ifndef PL_APP_KATA_BATCH_H
#define PL_APP_KATA_BATCH_H

#include <stdint.h>

#include "core/corpus.h"
#include "core/err.h"
#include "core/pad.h"
#include "karray.h"

/* ids, mask (B,T) batch-major; mask 1 = real; len (B). */
typedef struct {
    int B, T;
    int32_t *ids;
    uint8_t *mask;
    int *len;
    int pad_id;
    PlSide side;
} PlKBatch;

/* The batch cases every batch kata is tried on, in order. */
#define PL_KBATCH_CASES 7

/* Makes batch case k (0..PL_KBATCH_CASES) of c into b, and names it in
 * kc->what (kc->pad_id too). PL_OK or PL_ENOMEM. */
PlStatus pl_kbatch_make(PlKBatch *b, PlKCase *kc, int k, const PlCorpus *c);
void pl_kbatch_done(PlKBatch *b);

/* Rows of the corpus for ragged inputs: n rows (from row `from`), row r cut
 * to at most cap[r] tokens; into a (named name). */
PlStatus pl_kbatch_rows(PlKArray *a, const char *name, const PlCorpus *c, int from, int n, const int *cap);

#endif
