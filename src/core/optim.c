#include "optim.h"

#include <math.h>
#include <string.h>

#include "kernels.h"

void pl_optim_init(PlOptim *o, PlOptKind kind) {
    o->kind = kind;
    o->lr = kind == PL_OPT_ADAM ? 1e-3f : 1e-2f;
    o->beta1 = 0.9f;
    o->beta2 = 0.999f;
    o->eps = 1e-7f;
    o->step = 0;
}

void pl_optim_begin(PlOptim *o) { o->step++; }

/* The bias-corrected step size of this update. */
static float adam_alpha(const PlOptim *o) {
    double t = (double)o->step;
    return (float)((double)o->lr * sqrt(1.0 - pow((double)o->beta2, t)) / (1.0 - pow((double)o->beta1, t)));
}

void pl_optim_step(const PlOptim *o, float *w, float *g, float *m, float *v, size_t n) {
    if (o->kind == PL_OPT_SGD) {
        for (size_t i = 0; i < n; i++) w[i] -= o->lr * g[i], g[i] = 0.0f;
        return;
    }
    /* The kernel of the widest vector unit here, exact sqrt and division (kernels.h says why). */
    pl_kernels()->adam(w, g, m, v, n, adam_alpha(o), o->beta1, o->beta2, o->eps);
}

void pl_optim_apply(const PlOptim *o, float *w, const float *g, float *m, float *v, size_t n) {
    float buf[256]; /* the kernel clears what it reads: it reads a copy */
    for (size_t i = 0; i < n; i += 256) {
        size_t k = n - i < 256 ? n - i : 256;
        memcpy(buf, g + i, k * sizeof *buf);
        pl_optim_step(o, w + i, buf, m ? m + i : NULL, v ? v + i : NULL, k);
    }
}
