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

/* One Adam update of n weights. The plain loop is the reference; the AVX-512
 * version replaces the square root and the division by their hardware
 * estimates refined with one Newton step (relative error below 1e-6), which
 * is what lets a dense update of a 320,000-weight embedding run every batch
 * without dominating the training time. */
static void adam_plain(float *w, const float *g, float *m, float *v, size_t n, float alpha, float b1,
                       float b2, float eps) {
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

#if defined(__x86_64__)
#include <immintrin.h>

__attribute__((target("avx512f"))) static void adam_avx512(float *w, const float *g, float *m, float *v, size_t n,
                                                           float alpha, float b1, float b2, float eps) {
    __m512 c1 = _mm512_set1_ps(1.0f - b1), c2 = _mm512_set1_ps(1.0f - b2), ve = _mm512_set1_ps(eps);
    __m512 va = _mm512_set1_ps(alpha), half = _mm512_set1_ps(0.5f), three = _mm512_set1_ps(3.0f), two = _mm512_set1_ps(2.0f);
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m512 gi = _mm512_loadu_ps(g + i), mi = _mm512_loadu_ps(m + i), vi = _mm512_loadu_ps(v + i);
        mi = _mm512_fmadd_ps(_mm512_sub_ps(gi, mi), c1, mi);
        vi = _mm512_fmadd_ps(_mm512_fmsub_ps(gi, gi, vi), c2, vi);
        _mm512_storeu_ps(m + i, mi);
        _mm512_storeu_ps(v + i, vi);
        /* sqrt(v) = v * rsqrt(v), rsqrt refined by y (3 - v y^2) / 2; zero stays zero. */
        __m512 y = _mm512_rsqrt14_ps(vi);
        y = _mm512_mul_ps(_mm512_mul_ps(half, y), _mm512_fnmadd_ps(_mm512_mul_ps(vi, y), y, three));
        __m512 den = _mm512_add_ps(_mm512_maskz_mul_ps(_mm512_cmp_ps_mask(vi, _mm512_setzero_ps(), _CMP_GT_OQ), vi, y), ve);
        __m512 r = _mm512_rcp14_ps(den);
        r = _mm512_mul_ps(r, _mm512_fnmadd_ps(den, r, two));
        _mm512_storeu_ps(w + i, _mm512_fnmadd_ps(_mm512_mul_ps(va, mi), r, _mm512_loadu_ps(w + i)));
    }
    adam_plain(w + i, g + i, m + i, v + i, n - i, alpha, b1, b2, eps);
}
#endif

static void adam_apply(float *w, const float *g, float *m, float *v, size_t n, float alpha, float b1, float b2,
                       float eps) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx512f")) {
        adam_avx512(w, g, m, v, n, alpha, b1, b2, eps);
        return;
    }
#endif
    adam_plain(w, g, m, v, n, alpha, b1, b2, eps);
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
