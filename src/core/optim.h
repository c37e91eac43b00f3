/* Optimisers with Keras's defaults: Adam (1e-3, 0.9, 0.999, 1e-7) and SGD
 * (0.01). Adam follows Keras's update exactly:
 *   m += (g - m)(1 - b1);  v += (g^2 - v)(1 - b2)
 *   w -= lr * sqrt(1 - b2^t) / (1 - b1^t) * m / (sqrt(v) + eps) */
#ifndef PL_OPTIM_H
#define PL_OPTIM_H

#include <stddef.h>

typedef enum { PL_OPT_ADAM, PL_OPT_SGD } PlOptKind;

typedef struct {
    PlOptKind kind;
    float lr, beta1, beta2, eps;
    long step; /* updates done so far */
} PlOptim;

void pl_optim_init(PlOptim *o, PlOptKind kind);

/* Starts one update (advances the step count); call before pl_optim_apply
 * on each parameter block of that update. */
void pl_optim_begin(PlOptim *o);

/* Updates w (n) from its gradient g with the moments m and v (n each, zero at
 * the start; unused by SGD). */
void pl_optim_apply(const PlOptim *o, float *w, const float *g, float *m, float *v, size_t n);
/* The same update, zeroing g as it reads it: the gradient is ready for the
 * next backward without a pass of its own. */
void pl_optim_step(const PlOptim *o, float *w, float *g, float *m, float *v, size_t n);

#endif
