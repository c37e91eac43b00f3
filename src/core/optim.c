#include "optim.h"

#include <math.h>

void pl_optim_init(PlOptim *o, PlOptKind kind) {
    o->kind = kind;
    o->lr = kind == PL_OPT_ADAM ? 1e-3f : 1e-2f;
    o->beta1 = 0.9f;
    o->beta2 = 0.999f;
    o->eps = 1e-7f;
    o->step = 0;
}

void pl_optim_begin(PlOptim *o) { o->step++; }

__attribute__((target_clones("avx512f", "avx2", "default")))
static void adam_apply(float *w, const float *g, float *m, float *v, size_t n, float alpha,
                       float b1, float b2, float eps) {
    float c1 = 1.0f - b1, c2 = 1.0f - b2;
    for (size_t i = 0; i < n; i++) {
        float gi = g[i];
        float mi = m[i] + (gi - m[i]) * c1;
        float vi = v[i] + (gi * gi - v[i]) * c2;
        m[i] = mi;
        v[i] = vi;
        w[i] -= alpha * mi / (sqrtf(vi) + eps);
    }
}

void pl_optim_apply(const PlOptim *o, float *w, const float *g, float *m, float *v, size_t n) {
    if (o->kind == PL_OPT_SGD) {
        for (size_t i = 0; i < n; i++) w[i] -= o->lr * g[i];
        return;
    }
    double t = (double)o->step;
    float alpha = (float)((double)o->lr * sqrt(1.0 - pow((double)o->beta2, t)) / (1.0 - pow((double)o->beta1, t)));
    adam_apply(w, g, m, v, n, alpha, o->beta1, o->beta2, o->eps);
}
