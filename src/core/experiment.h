/* Named experiments: grids of training settings, each run over several
 * seeds, and the table of their results.
 *
 * An experiment only lists its runs; whoever executes them (the app layer's
 * worker, one run per thread) fills in the results, and pl_experiment_summarise
 * reduces them per setup. */
#ifndef PL_EXPERIMENT_H
#define PL_EXPERIMENT_H

#include <stdint.h>

#include "train.h"

#define PL_SETUP_MAX 4

/* One named setting of a run, as it appears in tables and JSON. */
typedef struct {
    const char *key;
    enum { PL_VAL_STR, PL_VAL_BOOL, PL_VAL_INT } kind;
    const char *str;
    int num; /* BOOL or INT */
} PlSetupVal;

typedef struct {
    PlSetupVal v[PL_SETUP_MAX];
    int n;
} PlSetup;

typedef struct {
    PlSetup setup;
    int setup_index; /* runs of the same setup share it */
    PlTrainConfig cfg;
    PlTrainResult res;
    PlStatus status; /* PL_OK once it ran */
    double dilution; /* pooling: mean weight on real tokens min(L,maxlen)/maxlen over the corpus */
} PlRun;

typedef struct {
    int epochs; /* 5 */
    int maxlen; /* PL_DEFAULT_MAXLEN */
    const PlSeed *seeds;
    int n_seeds;
} PlExperimentOpts;

typedef struct {
    const char *name;
    const char *summary;
    int shows_dilution; /* its table has the weight on real tokens */
    int by_loss;        /* summarised by the lowest validation loss, not the best accuracy */
    /* Fills runs (at most max) with one entry per setup and seed; returns the count. */
    int (*plan)(const PlExperimentOpts *o, PlRun *runs, int max);
} PlExperiment;

/* The registry, NULL-terminated. */
extern const PlExperiment *const pl_experiments[];
const PlExperiment *pl_experiment_find(const char *name);

/* Allocates and plans the runs of an experiment (*runs freed by the caller
 * with free()), always in the same order: setups as the experiment lists
 * them, each over o's seeds. c may be NULL (a plan only to be filled with
 * results trained elsewhere): the runs' dilution is then left 0. Returns
 * PL_ERANGE for impossible options. */
PlStatus pl_experiment_plan(const PlExperiment *e, const PlExperimentOpts *o, const PlCorpus *c, PlRun **runs, int *n,
                            PlErr *err);

typedef struct {
    PlSetup setup;
    int n;
    double mean, std, min, max, median; /* of best_val_acc (or best_val_loss) */
    double seconds_per_epoch;           /* mean */
    int64_t steps;                      /* mean recurrent steps per run */
    double dilution;
} PlSummary;

/* One summary per setup, in order of first appearance (*out freed by the
 * caller with free()). std is the sample standard deviation (0 for n = 1). */
PlStatus pl_experiment_summarise(const PlRun *runs, int n, int by_loss, PlSummary **out, int *nsum, PlErr *err);

/* Formats a setup value as text ("pre", "true", "200") into buf. */
const char *pl_setup_text(const PlSetupVal *v, char *buf, int cap);

#endif
