/* The pl_attend kernel for one vector width, included by attend.c once per
 * instruction set with these defined:
 *   LANES       floats per vector (4 SSE2, 8 AVX2, 16 AVX-512)
 *   VARIANT(n)  n with the instruction set's suffix
 *   TARGET      the function attribute that enables the instruction set
 * Each width gets its own vector types, its own K block width (LANES keys)
 * and its own V row stride (D rounded up to LANES); a vector is always one
 * register, which GCC compiles far better than a wider one split in parts.
 * Layout of the scratch, per batch row and head: see Scratch in attend.c. */

#define Vf VARIANT(Vf)
#define Vi VARIANT(Vi)
#define Vu VARIANT(Vu)
typedef float Vf __attribute__((vector_size(LANES * sizeof(float))));
typedef int32_t Vi __attribute__((vector_size(LANES * sizeof(int32_t))));
typedef uint32_t Vu __attribute__((vector_size(LANES * sizeof(uint32_t))));

#define KERNEL static inline __attribute__((always_inline)) TARGET

#define vload VARIANT(vload)
KERNEL Vf vload(const float *p) {
    Vf v;
    memcpy(&v, p, sizeof v);
    return v;
}
#define vload_i VARIANT(vload_i)
KERNEL Vi vload_i(const int32_t *p) {
    Vi v;
    memcpy(&v, p, sizeof v);
    return v;
}
#define vstore VARIANT(vstore)
KERNEL void vstore(float *p, Vf v) { memcpy(p, &v, sizeof v); }
#define vsplat VARIANT(vsplat)
KERNEL Vf vsplat(float x) {
#if LANES == 4
    return (Vf){x, x, x, x};
#elif LANES == 8
    return (Vf){x, x, x, x, x, x, x, x};
#else
    return (Vf){x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x};
#endif
}
#define vselect VARIANT(vselect)
KERNEL Vf vselect(Vi m, Vf a, Vf b) { return (Vf)(((Vi)a & m) | ((Vi)b & ~m)); }
/* The larger of a and b by b > a, as a scalar max loop: a NaN b is passed over. */
#define vmax VARIANT(vmax)
KERNEL Vf vmax(Vf a, Vf b) { return vselect(b > a, b, a); }
/* Lanes 0..n-1 set, the rest clear (0 <= n <= LANES). */
#define lanes_below VARIANT(lanes_below)
KERNEL Vi lanes_below(int n) { return vload_i(lane_ones + 16 - n); }

#define hsum VARIANT(hsum)
KERNEL float hsum(Vf v) {
    float t[LANES], s = 0.0f;
    memcpy(t, &v, sizeof t);
    for (int l = 0; l < LANES; l++) s += t[l];
    return s;
}
#define hmax VARIANT(hmax)
KERNEL float hmax(Vf v) {
    float t[LANES], m = -INFINITY;
    memcpy(t, &v, sizeof t);
    for (int l = 0; l < LANES; l++) m = t[l] > m ? t[l] : m;
    return m;
}
/* Minus the sum of the lanes: the count of a mask accumulated as -1s. */
#define hcount VARIANT(hcount)
KERNEL int hcount(Vi v) {
    int32_t t[LANES];
    int c = 0;
    memcpy(t, &v, sizeof t);
    for (int l = 0; l < LANES; l++) c -= t[l];
    return c;
}

/* exp, as Cephes's expf: x = n ln2 + r with |r| <= ln2/2, a degree-6
 * polynomial for e^r, 2^n from the exponent bits; within 2 ulp of libm.
 * Below -87.33 (a result under the smallest normal float) it gives 0, as a
 * softmax wants for a weight 1e-38 of the largest; a NaN stays NaN. Only
 * selects, no branches, so it stays vectorised. */
#define vexp VARIANT(vexp)
KERNEL Vf vexp(Vf x) {
    const float lo = -87.3365447505531f, hi = 88.0f, magic = 12582912.0f; /* 1.5 * 2^23 */
    Vi under = x < lo;
    x = vselect(x > hi, vsplat(hi), x);
    x = vselect(under, vsplat(lo), x);
    Vf t = x * 1.44269504088896341f + magic; /* round(x / ln2) in the low mantissa bits */
    Vf n = t - magic;
    Vi ni = (Vi)t - (Vi)vsplat(magic);
    Vf r = x - n * 0.693359375f;
    r = r - n * -2.12194440e-4f;
    Vf p = vsplat(1.9875691500e-4f);
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    Vf y = p * r * r + r + 1.0f;
    y = y * (Vf)((Vu)(ni + 127) << 23);
    return (Vf)((Vi)y & ~under);
}

/* Query qi over the first nv gathered keys: its weights in w->s, its
 * output in oi (D); its two sums and its NaN count returned. */
#define one_query VARIANT(one_query)
KERNEL void one_query(float *oi, float *ws_out, float *wl_out, int *nan_out, const Scratch *w, const float *qi, int nv,
                      int D, float scale) {
    int nbv = (nv + LANES - 1) / LANES, Dp = (D + LANES - 1) / LANES * LANES;
    float *s = w->s;
    Vf mx = vsplat(-INFINITY);
    Vi tail = lanes_below(nv - (nbv - 1) * LANES); /* the live lanes of the last block */
    int blk = 0;
    /* Scores, four blocks at a time: four independent chains of multiply-adds. */
    for (; blk + 4 <= nbv; blk += 4) {
        const float *k0 = w->K + (size_t)blk * D * LANES;
        Vf a0 = {0.0f}, a1 = {0.0f}, a2 = {0.0f}, a3 = {0.0f};
        for (int d = 0; d < D; d++) {
            Vf qd = vsplat(qi[d]);
            a0 += qd * vload(k0 + (size_t)d * LANES);
            a1 += qd * vload(k0 + (size_t)(D + d) * LANES);
            a2 += qd * vload(k0 + (size_t)(2 * D + d) * LANES);
            a3 += qd * vload(k0 + (size_t)(3 * D + d) * LANES);
        }
        a0 *= scale, a1 *= scale, a2 *= scale, a3 *= scale;
        if (blk + 4 == nbv) a3 = vselect(tail, a3, vsplat(-INFINITY));
        mx = vmax(vmax(mx, a0), vmax(a1, vmax(a2, a3)));
        vstore(s + (size_t)blk * LANES, a0);
        vstore(s + (size_t)(blk + 1) * LANES, a1);
        vstore(s + (size_t)(blk + 2) * LANES, a2);
        vstore(s + (size_t)(blk + 3) * LANES, a3);
    }
    for (; blk < nbv; blk++) {
        const float *k0 = w->K + (size_t)blk * D * LANES;
        Vf a0 = {0.0f};
        for (int d = 0; d < D; d++) a0 += vsplat(qi[d]) * vload(k0 + (size_t)d * LANES);
        a0 *= scale;
        if (blk + 1 == nbv) a0 = vselect(tail, a0, vsplat(-INFINITY));
        mx = vmax(mx, a0);
        vstore(s + (size_t)blk * LANES, a0);
    }
    float m = hmax(mx);
    Vf sum = {0.0f};
    for (blk = 0; blk < nbv; blk++) {
        Vf e = vexp(vload(s + (size_t)blk * LANES) - m);
        if (blk + 1 == nbv) e = (Vf)((Vi)e & tail); /* not exp(-inf - m): m may be -inf */
        vstore(s + (size_t)blk * LANES, e);
        sum += e;
    }
    float total = hsum(sum), inv = total > 0.0f ? 1.0f / total : 0.0f;
    Vf ws = {0.0f}, wl = {0.0f};
    Vi nan = {0};
    for (blk = 0; blk < nbv; blk++) {
        Vf x = vload(s + (size_t)blk * LANES) * inv;
        vstore(s + (size_t)blk * LANES, x);
        ws += x;
        wl += (Vf)((Vi)x & vload_i(w->selm + (size_t)blk * LANES));
        nan += x != x;
    }
    *nan_out += hcount(nan);
    *ws_out = hsum(ws), *wl_out = hsum(wl);
    /* o = sum_j w_j v_j: two vectors of dimensions per pass over the keys
     * (one weight broadcast serves both), two chains each. */
    int c = 0;
    for (; c + 2 * LANES <= Dp; c += 2 * LANES) {
        Vf o0 = {0.0f}, o1 = {0.0f}, o2 = {0.0f}, o3 = {0.0f};
        const float *vc = w->V + c;
        int p = 0;
        for (; p + 2 <= nv; p += 2) {
            Vf w0 = vsplat(s[p]), w1 = vsplat(s[p + 1]);
            const float *v0 = vc + (size_t)p * Dp, *v1 = v0 + Dp;
            o0 += w0 * vload(v0), o1 += w0 * vload(v0 + LANES);
            o2 += w1 * vload(v1), o3 += w1 * vload(v1 + LANES);
        }
        if (p < nv) {
            Vf w0 = vsplat(s[p]);
            o0 += w0 * vload(vc + (size_t)p * Dp), o1 += w0 * vload(vc + (size_t)p * Dp + LANES);
        }
        float t[2 * LANES];
        vstore(t, o0 + o2);
        vstore(t + LANES, o1 + o3);
        memcpy(oi + c, t, (size_t)(D - c < 2 * LANES ? D - c : 2 * LANES) * sizeof *t);
    }
    for (; c < Dp; c += LANES) {
        Vf o0 = {0.0f}, o1 = {0.0f}, o2 = {0.0f}, o3 = {0.0f};
        const float *vc = w->V + c;
        int p = 0;
        for (; p + 4 <= nv; p += 4) {
            o0 += vsplat(s[p]) * vload(vc + (size_t)p * Dp);
            o1 += vsplat(s[p + 1]) * vload(vc + (size_t)(p + 1) * Dp);
            o2 += vsplat(s[p + 2]) * vload(vc + (size_t)(p + 2) * Dp);
            o3 += vsplat(s[p + 3]) * vload(vc + (size_t)(p + 3) * Dp);
        }
        for (; p < nv; p++) o0 += vsplat(s[p]) * vload(vc + (size_t)p * Dp);
        float t[LANES];
        vstore(t, (o0 + o1) + (o2 + o3));
        memcpy(oi + c, t, (size_t)(D - c < LANES ? D - c : LANES) * sizeof *t);
    }
}

/* Row b, head h: gather the keys, then every query asked for. */
#define one_head VARIANT(one_head)
KERNEL void one_head(float *o, float *keep, float *wsum, float *wsel, PlAttendCounts *counts, const Scratch *w,
                     const float *q, const float *k, const float *v, const PlAttend *a, int b, int h) {
    int T = a->T, B = a->B, D = a->D, HD = a->NH * a->D, Dp = (D + LANES - 1) / LANES * LANES;
    float scale = 1.0f / sqrtf((float)D);
    const uint8_t *mrow = a->mask ? a->mask + (size_t)b * T : NULL, *srow = a->sel ? a->sel + (size_t)b * T : NULL;
    const uint8_t *qrow = a->query ? a->query + (size_t)b * T : NULL;
    const int *same = a->same && !a->causal ? a->same + (size_t)b * T : NULL;
    if (T <= 0) return;
    int n = 0;
    for (int j = 0; j < T; j++)
        if (!mrow || mrow[j]) w->idx[n++] = j;
    int nb = (n + LANES - 1) / LANES;
    for (int p = 0; p < nb * LANES; p++) {
        const float *kr = p < n ? k + ((size_t)w->idx[p] * B + b) * HD + (size_t)h * D : NULL;
        float *kp = w->K + (size_t)(p / LANES) * D * LANES + p % LANES;
        for (int d = 0; d < D; d++) kp[(size_t)d * LANES] = kr ? kr[d] : 0.0f;
        w->selm[p] = p < n && srow && srow[w->idx[p]] ? -1 : 0;
    }
    for (int p = 0; p < n; p++) {
        const float *vr = v + ((size_t)w->idx[p] * B + b) * HD + (size_t)h * D;
        float *vp = w->V + (size_t)p * Dp;
        memcpy(vp, vr, (size_t)D * sizeof *vp);
        for (int d = D; d < Dp; d++) vp[d] = 0.0f;
    }
    memset(w->done, 0, (size_t)T);
    float *krows = keep && b == a->keep_row ? keep + (size_t)h * T * T : NULL;
    size_t sums = ((size_t)b * a->NH + h) * T;
    int nv = n;
    for (int i = 0, seen = 0; i < T; i++) {
        if (a->causal) {
            while (seen < n && w->idx[seen] <= i) seen++;
            nv = seen;
        }
        if (qrow && !qrow[i]) continue;
        float *oi = o + ((size_t)i * B + b) * HD + (size_t)h * D;
        float *krow = krows ? krows + (size_t)i * T : NULL;
        int r = same ? same[i] : i;
        float ws, wl;
        if (r != i && w->done[r]) {
            memcpy(oi, o + ((size_t)r * B + b) * HD + (size_t)h * D, (size_t)D * sizeof *oi);
            if (krow) memcpy(krow, krows + (size_t)r * T, (size_t)T * sizeof *krow);
            w->nan[i] = w->nan[r], w->empty[i] = w->empty[r];
            ws = wsum ? wsum[sums + r] : 0.0f, wl = wsel ? wsel[sums + r] : 0.0f;
        } else {
            w->nan[i] = 0;
            one_query(oi, &ws, &wl, &w->nan[i], w, q + ((size_t)i * B + b) * HD + (size_t)h * D, nv, D, scale);
            w->empty[i] = ws == 0.0f;
            w->done[i] = 1;
            if (krow) {
                if (n == T) {
                    memcpy(krow, w->s, (size_t)nv * sizeof *krow);
                    memset(krow + nv, 0, (size_t)(T - nv) * sizeof *krow);
                } else {
                    memset(krow, 0, (size_t)T * sizeof *krow);
                    for (int p = 0; p < nv; p++) krow[w->idx[p]] = w->s[p];
                }
            }
        }
        if (wsum) wsum[sums + i] = ws;
        if (wsel) wsel[sums + i] = wl;
        if (counts) counts->nan += w->nan[i], counts->empty += w->empty[i];
    }
}

static TARGET void VARIANT(attend)(float *o, float *keep, float *wsum, float *wsel, PlAttendCounts *counts,
                                   const Scratch *w, const float *q, const float *k, const float *v,
                                   const PlAttend *a) {
    for (int b = 0; b < a->B; b++)
        for (int h = 0; h < a->NH; h++) one_head(o, keep, wsum, wsel, counts, w, q, k, v, a, b, h);
}

#undef Vf
#undef Vi
#undef Vu
#undef KERNEL
#undef vload
#undef vload_i
#undef vstore
#undef vsplat
#undef vselect
#undef vmax
#undef lanes_below
#undef hsum
#undef hmax
#undef hcount
#undef vexp
#undef one_query
#undef one_head
