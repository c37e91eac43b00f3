/* Padding and truncation with Keras pad_sequences semantics, and padded
 * batches of corpus rows.
 *
 * A row of width T holds min(len, T) tokens. truncating = PRE keeps the last
 * T tokens, POST the first T. padding = PRE puts the pad cells before the
 * tokens, POST after them. An empty sequence is a full row of the pad value. */
#ifndef PL_PAD_H
#define PL_PAD_H

#include <stdint.h>

#include "corpus.h"
#include "err.h"

typedef enum { PL_PRE = 0, PL_POST = 1 } PlSide;

/* "pre", "post", NULL: the names of PlSide, indexed by it. */
extern const char *const pl_side_names[];

typedef struct {
    int maxlen;        /* rows keep at most this many tokens; a row wider than
                          maxlen (a batch rounded up past it) gets more pads */
    PlSide padding;    /* Keras default: PRE */
    PlSide truncating; /* Keras default: PRE */
    int32_t value;     /* the pad value, 0 by default */
} PlPadOpts;

const char *pl_side_name(PlSide s);
/* Parses "pre" or "post"; returns 0 on success, -1 otherwise. */
int pl_side_parse(const char *s, PlSide *out);

/* Writes seq[0..len) into row (T) as pad_sequences does; mask (T, may be NULL)
 * gets 1 at real cells and 0 at pad cells. Returns the number of tokens kept,
 * min(len, T, maxlen when it is above 0). Can't fail. */
int pl_pad_row(int32_t *row, uint8_t *mask, const int32_t *seq, int len, int T, const PlPadOpts *o);

/* Index in the row of the first real cell: 0 under POST padding, T - kept
 * under PRE. */
int pl_pad_first_real(int kept, int T, PlSide padding);

/* A padded batch.
 * ids is (B,T); mask is (B,T), 1 = real; len (B) tokens kept; orig_len (B)
 * length before truncation; row (B) corpus index; labels (B). */
typedef struct {
    int B, T;
    int32_t *ids;
    uint8_t *mask;
    int *len;
    int *orig_len;
    int *row;
    uint8_t *labels;
    PlSide padding;
} PlBatch;

/* Pads corpus rows rows[0..B) to width T (T = 0: the longest of them, before
 * any truncation, as pad_sequences does). Returns PL_ERANGE for a bad row index
 * or width, PL_ENOMEM on allocation failure; *out is NULL then. */
PlStatus pl_batch_make(const PlCorpus *c, const int *rows, int B, int T, const PlPadOpts *o, PlBatch **out, PlErr *err);
void pl_batch_free(PlBatch *b);

/* Whether b is well made: each row keeps 0 <= len <= min(orig_len, T)
 * tokens and its mask has exactly len ones, side by side at the padding's
 * end (pl_pad_first_real). 1 or 0; for pl_assert and the tests. */
int pl_batch_is_consistent(const PlBatch *b);

/* The batch row that holds corpus row `row` (0 when none does). */
int pl_batch_row_of(const PlBatch *b, int row);

#endif
