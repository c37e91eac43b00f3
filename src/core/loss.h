/* Losses: binary cross-entropy from logits for the classifiers, and token
 * cross-entropy with ignore_index (-100) under three normalisations. */
#ifndef PL_LOSS_H
#define PL_LOSS_H

#include <stdint.h>

/* Mean over n of the binary cross-entropy of logits z (n) against labels y
 * (n, 0 or 1), computed stably as max(z,0) - z*y + log(1 + exp(-|z|)).
 * dz (n), when not NULL, gets d(mean)/dz = (sigmoid(z) - y) / n. */
float pl_bce_logits(float *dz, const float *z, const uint8_t *y, int n);

typedef enum {
    PL_NORM_TOKEN,    /* sum over real targets / their count */
    PL_NORM_SEQUENCE, /* mean within each sequence, then mean over sequences */
    PL_NORM_BATCH_T   /* sum over real targets / (B*T), whatever the padding */
} PlLossNorm;

const char *pl_loss_norm_name(PlLossNorm n);

/* Token cross-entropy. logits (T,B,C) time-major; targets (B,T), where -100
 * marks a position that contributes nothing. dlogits (T,B,C), when not NULL,
 * gets the gradient of the normalised loss (zero rows at ignored positions).
 * terms (B,T), when not NULL, gets each position's loss (0 where ignored).
 * Returns the normalised loss (0 when no target counts). Allocates nothing,
 * so it cannot fail. */
float pl_token_ce(float *dlogits, float *terms, const float *logits, const int32_t *targets, int T, int B, int C,
                  PlLossNorm norm);

/* Next-token targets for a padded batch: at each position the class of the
 * token at t+1 (ids below C-1 are their own class, the rest share C-1). When
 * the next cell is a pad its target is the pad class 0 if pads_count, else
 * -100; the last column has no next token (-100). ids and mask (B,T). */
void pl_next_token_targets(int32_t *targets, const int32_t *ids, const uint8_t *mask, int B, int T, int C,
                           int pads_count);

#endif
