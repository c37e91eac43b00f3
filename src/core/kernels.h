/* The hot kernels, built once per vector level and chosen at start-up.
 *
 * Layout: kernels_impl.h holds each kernel once, written on GCC vector
 * types of PL_K_BYTES; kernels_base.c, kernels_avx2.c and kernels_avx512.c
 * include it under their own target (SSE2 16-byte vectors; AVX2+FMA 32;
 * AVX-512 64), each exporting one PlKernels table. kernels.c picks the
 * widest table this CPU runs, or the one the run's start names
 * (pl_kernels_choose: baseline, avx2, avx512; padlab's main passes
 * PADLAB_SIMD), so that tests and benchmarks can run every level the
 * machine has. All matrices are row-major with explicit row strides. Levels agree
 * to float rounding (FMA contracts at avx2 and above), not bit for bit. */
#ifndef PL_KERNELS_H
#define PL_KERNELS_H

#include <stddef.h>
#include <stdint.h>

typedef enum { PL_SIMD_BASELINE, PL_SIMD_AVX2, PL_SIMD_AVX512, PL_SIMD_COUNT } PlSimdLevel;

typedef struct {
    const char *name; /* "baseline", "avx2", "avx512" */
    /* y[i] = tanh(x[i]), sigmoid(x[i]) (rational fit, see tensor.h); y may equal x. */
    void (*tanh)(float *y, const float *x, size_t n);
    void (*sigmoid)(float *y, const float *x, size_t n);
    /* C (M,N) += A (M,K) B (K,N). For the per-step products of the recurrent
     * cells (M = batch rows, K = H, N = gates x H): B stays in L1 and the
     * accumulators in registers, with no packing. */
    void (*gemm_acc)(float *C, int ldc, const float *A, int lda, const float *B, int ldb, int M, int N, int K);
    /* C (M,N) = tanh(C + A B) (A may be NULL: C = tanh(C)). One SimpleRNN step. */
    void (*gemm_tanh)(float *C, int ldc, const float *A, int lda, const float *B, int ldb, int M, int N, int K);
    /* The same step from rows of a table: C (M,N) = tanh(X[xi[i]] + A B),
     * X's rows of stride ldx (A NULL: C = tanh(X rows)). The SimpleRNN's
     * projected input is read where it lies, with no copy into C first. */
    void (*gemm_tanh_rows)(float *C, int ldc, const float *X, const int *xi, int ldx, const float *A, int lda,
                           const float *B, int ldb, int M, int N, int K);
    /* C (M,N) += A^T B, A stored (K,M): a weight gradient h^T da of one step. */
    void (*gemm_tn_acc)(float *C, int ldc, const float *A, int lda, const float *B, int ldb, int M, int N, int K);
    /* da[i] = dh[i] * (1 - h[i]^2): back through a tanh whose output is h. */
    void (*dtanh)(float *da, const float *dh, const float *h, size_t n);
    /* y[i] += x[i]. */
    void (*add)(float *y, const float *x, size_t n);
    /* For r = 0..rows-1 in order, row to[r] of y (rows of w) += row r of x,
     * skipping rows whose to[r] is skip (-1: none): a scatter-add, as one
     * call rather than one per row. */
    void (*add_rows)(float *y, const int *to, const float *x, size_t rows, int w, int skip);
    /* One step of the gated cells for rows 0..n-1 (gru.c, lstm.c say the
     * layouts), the recurrent product then the gates: the GRU's g
     * (n,3H) gets [z r n] from x Wx + b_in, hu (n,3H) is scratch for
     * h_{t-1} U + b_rec, of which hun (n,H) keeps the part the reset gate
     * multiplies, and ht (n,H) gets the state; the LSTM's g (n,4H) gets the
     * activated gates from x Wx + b, ct and ht the cell and state. The
     * projected input x Wx + b is row xi[r] of X (rows of G), or, X NULL,
     * already in g. hp (and cp) NULL: the first step, a zero state. */
    void (*gru_step)(float *ht, float *g, float *hun, float *hu, const float *X, const int *xi, const float *hp,
                     const float *U, const float *brec, int n, int H);
    void (*lstm_step)(float *ht, float *ct, float *g, const float *X, const int *xi, const float *hp, const float *cp,
                      const float *U, int n, int H);
    /* One step of the gated cells backward for rows 0..n-1, dh (n,H) in:
     * the GRU's da and dhu (n,3H) (hun as its forward kept it), dbrec += the
     * dhu rows, dhp += z dh; the
     * LSTM's da (n,4H) and the carried dc (n,H), which becomes dc_{t-1}.
     * keep (n) NULL, or 0 for a row the mask carried over: its da (and
     * dhu) is zero and dhp += dh. dhp NULL: the first step. */
    void (*gru_step_backward)(float *da, float *dhu, float *dhp, float *dbrec, const float *dh, const float *g,
                              const float *hun, const float *hp, const uint8_t *keep, int n, int H);
    void (*lstm_step_backward)(float *da, float *dc, float *dhp, const float *dh, const float *g, const float *c,
                               const float *cp, const uint8_t *keep, int n, int H);
    /* One Keras Adam update of n weights, alpha already bias-corrected:
     * m += (g - m)(1 - b1); v += (g^2 - v)(1 - b2); w -= alpha m / (sqrt(v) + eps);
     * g is zeroed as it is read (the next backward adds into it), which saves
     * a pass over the whole gradient.
     * Exact square root and division at every level (an estimate reads a
     * denormal v as zero, and GRU/LSTM training then diverges). */
    void (*adam)(float *w, float *g, float *m, float *v, size_t n, float alpha, float b1, float b2, float eps);
} PlKernels;

extern const PlKernels pl_kernels_baseline, pl_kernels_avx2, pl_kernels_avx512;

/* Chooses the table for the whole run: the level named (clamped to what
 * this CPU runs, as pl_simd_pick), or the widest for NULL, empty or an
 * unknown name. Call at start-up, before any kernel runs and any thread
 * starts; without a call the first use takes the widest. Can't fail. */
void pl_kernels_choose(const char *level);
/* The table in use, the same for the whole run. Can't fail. */
const PlKernels *pl_kernels(void);
/* The level of pl_kernels(), and whether a name given to pl_kernels_choose chose it. */
PlSimdLevel pl_simd_level(int *forced);
/* Whether this CPU runs level l. */
int pl_simd_supported(PlSimdLevel l);
/* The table of level l (for tests: compare a level with the baseline), or
 * NULL when this CPU cannot run it. */
const PlKernels *pl_kernels_at(PlSimdLevel l);
/* The level a name asks for, clamped to best (the widest this
 * CPU runs): NULL, empty or unknown names give best. Pure, for tests. */
PlSimdLevel pl_simd_pick(const char *forced, PlSimdLevel best, int *used_forced);
const char *pl_simd_name(PlSimdLevel l);

/* Subnormal floats flushed to zero in the calling thread (x86: MXCSR's
 * flush-to-zero and denormals-are-zero bits) until pl_fp_flush_end(saved).
 * A gradient that fades through a GRU's steps reaches the subnormal range,
 * and on many Intel cores every product with a subnormal operand or result
 * takes a microcode assist of some hundred cycles: a GRU trained four times
 * slower there than an LSTM of more arithmetic. TensorFlow runs Keras's CPU
 * kernels with the same two bits set. The model's forward, backward and
 * update set them, so every caller (training, probes, tests) computes the
 * same bits. Elsewhere than x86 a no-op. Can't fail. */
unsigned pl_fp_flush_begin(void);
void pl_fp_flush_end(unsigned saved);

#endif
