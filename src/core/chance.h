/* Chance: what a classifier scores on the validation split by answering the
 * split's majority label every time. Every accuracy padlab shows is read
 * against it, never against an assumed 50%: on a corpus that is 68% positive,
 * 68% is what a model that learned nothing scores.
 *
 * A run's best validation accuracy is "at chance" when it lies within noise
 * of that share: PL_CHANCE_Z binomial standard errors of an accuracy at the
 * share over the split's reviews. The best of several epochs is the largest
 * of several noisy readings, so the band is wider than the usual two errors. */
#ifndef PL_CHANCE_H
#define PL_CHANCE_H

#include "corpus.h"

#define PL_CHANCE_Z 3.0

typedef struct {
    int n_val;    /* reviews in the validation split */
    int label;    /* its majority label (a tie: 1) */
    int count;    /* its reviews with that label */
    double share; /* count / n_val: the chance line; 0 when n_val is 0 */
    double noise; /* PL_CHANCE_Z standard errors of an accuracy at share over n_val */
} PlChance;

/* The first n_train reviews train and the rest validate: the split pl_train
 * makes for a validation share val_split of n reviews. */
int pl_train_split(int n, double val_split);

/* The chance of corpus c under a validation share val_split. Can't fail. */
PlChance pl_chance_of(const PlCorpus *c, double val_split);

typedef enum { PL_BELOW_CHANCE = -1, PL_AT_CHANCE = 0, PL_ABOVE_CHANCE = 1 } PlChanceVerdict;

/* Where an accuracy lies against chance: within noise of the share is at
 * chance. */
PlChanceVerdict pl_chance_verdict(const PlChance *ch, double acc);

/* "at chance", "above chance" or "below chance". */
const char *pl_chance_verdict_name(PlChanceVerdict v);

/* "positive" for label 1, "negative" for 0. */
const char *pl_label_name(int label);

#endif
