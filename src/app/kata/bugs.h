/* The known wrong answers of each kata: the bugs candidates write (an
 * inverted polarity, a -inf fill, a division by the width, pads kept in a
 * sum, an inclusive boundary, NumPy's row[-0:], truncating at the wrong end,
 * positions that count pads ...), each computed from a case's inputs as the
 * buggy code would. When a wrong answer is exactly one of them, check names
 * it instead of leaving the candidate with a cell. */
#ifndef PL_APP_KATA_BUGS_H
#define PL_APP_KATA_BUGS_H

#include "app/json.h"
#include "task.h"

typedef struct {
    const char *name; /* "bisect_left": how the candidate would call it */
    const char *says; /* what it gets wrong, one clause */
    /* Turns kc's expected outputs into this bug's, from kc's inputs. */
    void (*apply)(PlKCase *kc);
} PlKBug;

/* The bugs of task t (a row of task.h), n of them; NULL and 0 for none. */
const PlKBug *pl_kbugs_of(const PlKTask *t, int *n);
/* The bugs whose outputs on case kc are what got holds, into found (at most
 * cap); how many. Two bugs can give the same outputs on a case (a pad id of
 * 0 makes "0 at the pads" and "labels = input_ids" one); one that gives the
 * expected outputs on kc cannot be told apart there and is not counted. */
int pl_kbug_match(const PlKTask *t, const PlKCase *kc, const PlJson *got, const PlKBug **found, int cap);
/* Builds kc's outputs as bug b gives them, into out (a copy of kc whose
 * output cells are its own: free with pl_kbug_case_done). 1 when they
 * differ from the expected, 0 when not, -1 out of memory. */
int pl_kbug_case(const PlKBug *b, const PlKCase *kc, PlKCase *out);
void pl_kbug_case_done(PlKCase *c);

#endif
