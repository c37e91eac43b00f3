/* The computations behind the katas: one row each, naming the arrays a
 * candidate's code takes and gives, the cases it is tried on, and the core
 * function that gives the expected outputs. A kata file names one of them
 * (compute:); nothing a case holds is stored, everything is computed here
 * from the learner's corpus. */
#ifndef PL_APP_KATA_TASK_H
#define PL_APP_KATA_TASK_H

#include <stddef.h>

#include "core/corpus.h"
#include "karray.h"

/* An array a computation takes or gives. */
typedef struct {
    const char *name;
    PlKType type;
    const char *dims; /* "B,T": its shape, as the statement writes it ("" for a scalar) */
    const char *axes; /* "row,key": what a cell's indices are called in a message */
} PlKArg;

#define PL_KTASK_MAX_ARGS 6

typedef struct PlKTask {
    const char *name;
    PlKArg in[PL_KTASK_MAX_ARGS], out[PL_KTASK_MAX_ARGS];
    int nin, nout;
    int ncases;
    /* Builds case k (0..ncases) of c's rows: inputs and expected outputs.
     * PL_OK or PL_ENOMEM. */
    PlStatus (*make)(PlKCase *kc, int k, const PlCorpus *c);
    /* Why the expected value of output o at cell idx is what it is: one
     * sentence into buf; got, the value given there, may sharpen it. */
    void (*why)(char *buf, size_t cap, const PlKCase *kc, int o, const int *idx, double got);
} PlKTask;

/* The task named name, or NULL. */
const PlKTask *pl_ktask_find(const char *name);
/* Every task's name, for a message: "pad_sequences, keras_mask, ...". */
void pl_ktask_names(char *buf, size_t cap);
/* Builds every case of t from corpus c into cases (t->ncases of them,
 * zeroed first); on failure frees what it built. */
PlStatus pl_ktask_cases(const PlKTask *t, const PlCorpus *c, PlKCase *cases);

#endif
