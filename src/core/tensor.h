/* Float kernels the layers share: matrix products on OpenBLAS, fast
 * vectorised activations, and Keras's initialisers.
 *
 * All matrices are row-major. The activations are rational approximations
 * that agree with libm to about 1e-7 absolute and vectorise, because tanh
 * and the sigmoid run on every cell of every step of every batch. */
#ifndef PL_TENSOR_H
#define PL_TENSOR_H

#include <stddef.h>

#include "err.h"
#include "rng.h"

/* Makes OpenBLAS single-threaded: small products are faster that way and the
 * sums come out in the same order every run. Under an address-space limit it
 * also makes sure, once, that OpenBLAS's work buffer fits (OpenBLAS would
 * otherwise wait for one for ever). Call it before the first pl_gemm; safe to
 * call more than once and from any thread. Returns PL_OK, or PL_ENOMEM. */
PlStatus pl_blas_init(PlErr *err);
/* The name of the kernel OpenBLAS chose for this CPU ("Haswell"): machines
 * whose OpenBLAS chose different ones may differ in a product's last bits.
 * Borrowed, valid for the whole run; can't fail. */
const char *pl_blas_core(void);

/* C (M,N) = alpha * op(A) op(B) + beta * C, op = transpose when trans* is set.
 * lda, ldb, ldc are the row strides of A, B and C as stored. */
void pl_gemm(int transA, int transB, int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
             float beta, float *C, int ldc);

float pl_tanhf(float x);
float pl_sigmoidf(float x);
/* y[i] = tanh(x[i]); y may equal x. */
void pl_tanh_vec(float *y, const float *x, size_t n);
/* y[i] = 1 / (1 + exp(-x[i])); y may equal x. */
void pl_sigmoid_vec(float *y, const float *x, size_t n);

/* Uniform in [lo, hi). */
void pl_init_uniform(float *w, size_t n, float lo, float hi, PlRng *rng);
/* Keras glorot_uniform for a (fan_in, fan_out) kernel: U(-l, l), l = sqrt(6 / (fan_in + fan_out)). */
void pl_init_glorot(float *w, int fan_in, int fan_out, PlRng *rng);
/* Keras orthogonal (gain 1) for a (rows, cols) kernel: the Q factor of a
 * Gaussian matrix, signs fixed by R's diagonal. Returns PL_ENOMEM on failure. */
PlStatus pl_init_orthogonal(float *w, int rows, int cols, PlRng *rng);

/* The (cols, rows) transpose of a (rows, cols) matrix, written to t;
 * returns t. The recurrent backward passes multiply by it every step:
 * OpenBLAS's small-matrix kernels only serve untransposed operands. */
float *pl_transpose_into(float *t, const float *a, int rows, int cols);

/* n bytes for a large matrix, uninitialised, freed with free(); NULL when
 * out of memory. From 2 MiB up they are aligned to 2 MiB and asked for in
 * huge pages where the kernel grants them: a probe's T x T matrices at
 * maxlen 2000 are 16-32 MB, and faulting them in 4 KiB pages takes longer
 * than computing them. */
void *pl_alloc_big(size_t n);

/* Euclidean norm of a (n), and distance between a and b (n), summed in double. */
float pl_l2_norm(const float *a, size_t n);
float pl_l2_dist(const float *a, const float *b, size_t n);

/* Largest |a[i] - b[i]|. */
float pl_max_abs_diff(const float *a, const float *b, size_t n);

#endif
