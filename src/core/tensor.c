#include "tensor.h"

#include <cblas.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "kernels.h"
#include "tanh_fit.h"

/* OpenBLAS takes a work buffer for each product running at once. Its serial
 * build (the one padlab links, since the threaded one hangs under a memory
 * limit before main) claims those buffers without a lock unless it was built
 * with USE_LOCKING, which Debian's is not: two products started at once by
 * two of padlab's threads can then pack their operands into the same buffer,
 * and a training run beside another one came out with other numbers on most
 * tries. So against a serial OpenBLAS the products take turns (measured: the
 * padding and cells experiments, two runs at a time, within 10% of the time
 * they took side by side). A threaded OpenBLAS locks its own claims; there
 * the products run side by side, except under an address-space limit
 * (ulimit -v), where OpenBLAS would retry a buffer it cannot have for ever:
 * then too they take turns, one buffer serves them all, and pl_blas_init
 * makes sure once, before any product, that it fits. This is the core's one
 * piece of process-wide state, and it mirrors OpenBLAS's own. */
#define BLAS_BUFFER ((size_t)128 << 20)
static pthread_mutex_t blas_turn = PTHREAD_MUTEX_INITIALIZER;
enum { BLAS_UNCHECKED, BLAS_FREE, BLAS_TAKING_TURNS };
static atomic_int blas_mode;

static int address_space_limited(void) {
    struct rlimit as, data;
    return (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) ||
           (getrlimit(RLIMIT_DATA, &data) == 0 && data.rlim_cur != RLIM_INFINITY);
}

/* Under the lock: the limit checked and, under one, OpenBLAS's buffer taken. */
static PlStatus blas_check(PlErr *err) {
    if (!address_space_limited()) {
        atomic_store(&blas_mode, openblas_get_parallel() == 0 ? BLAS_TAKING_TURNS : BLAS_FREE);
        return PL_OK;
    }
    /* The buffer and room to spare for what the product itself allocates,
     * mapped and unmapped at once (malloc might keep it: a sanitizer's
     * quarantine does). */
    size_t room = BLAS_BUFFER + ((size_t)16 << 20);
    void *p = mmap(NULL, room, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return pl_err_set(err, PL_ENOMEM, "out of memory while reserving OpenBLAS's %zu MB work buffer",
                          BLAS_BUFFER >> 20);
    munmap(p, room);
    enum { W = 96 }; /* past OpenBLAS's small-matrix path, so the buffer is taken now */
    static float a[W * W], c[W * W];
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, W, W, W, 1.0f, a, W, a, W, 0.0f, c, W);
    atomic_store(&blas_mode, BLAS_TAKING_TURNS);
    return PL_OK;
}

PlStatus pl_blas_init(PlErr *err) {
    openblas_set_num_threads(1);
    if (atomic_load(&blas_mode) != BLAS_UNCHECKED) return PL_OK;
    pthread_mutex_lock(&blas_turn);
    PlStatus st = atomic_load(&blas_mode) == BLAS_UNCHECKED ? blas_check(err) : PL_OK;
    pthread_mutex_unlock(&blas_turn);
    return st;
}

const char *pl_blas_core(void) { return openblas_get_corename(); }

void pl_gemm(int transA, int transB, int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
             float beta, float *C, int ldc) {
    if (M == 0 || N == 0) return;
    int turns = atomic_load(&blas_mode) == BLAS_TAKING_TURNS;
    if (turns) pthread_mutex_lock(&blas_turn);
    cblas_sgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans, transB ? CblasTrans : CblasNoTrans, M, N, K, alpha,
                A, lda, B, ldb, beta, C, ldc);
    if (turns) pthread_mutex_unlock(&blas_turn);
}

/* Bitwise choice: a where m is all ones, b where it is zero. The tanh
 * below picks its cases this way, not with ?:, because gcc turns a chain of
 * ?: into branches, and a branch around a comparison or a division (both
 * may trap) is one it will not vectorise under -ftrapping-math. */
static inline float pick(uint32_t m, float a, float b) {
    uint32_t ua, ub;
    memcpy(&ua, &a, sizeof ua);
    memcpy(&ub, &b, sizeof ub);
    ua = (ua & m) | (ub & ~m);
    memcpy(&a, &ua, sizeof a);
    return a;
}

/* All ones when c holds. */
static inline uint32_t when(int c) { return 0u - (uint32_t)c; }

/* tanh as the rational fit of tanh_fit.h, exactly +-1 beyond its limit;
 * below 4e-4 tanh(x) = x to float precision. */
static inline float tanh_rational(float a) {
    float x = pick(when(a > PL_TANH_LIMIT), PL_TANH_LIMIT, a), r;
    x = pick(when(a < -PL_TANH_LIMIT), -PL_TANH_LIMIT, x);
    PL_TANH_RATIO(float, x, r);
    return pick(when(fabsf(a) < PL_TANH_LINEAR), a, r);
}

float pl_tanhf(float x) { return tanh_rational(x); }
float pl_sigmoidf(float x) { return 0.5f + 0.5f * tanh_rational(0.5f * x); }

/* The vector forms run the same fit on the widest unit here (kernels.h). */
void pl_tanh_vec(float *y, const float *x, size_t n) { pl_kernels()->tanh(y, x, n); }
void pl_sigmoid_vec(float *y, const float *x, size_t n) { pl_kernels()->sigmoid(y, x, n); }

void pl_init_uniform(float *w, size_t n, float lo, float hi, PlRng *rng) {
    for (size_t i = 0; i < n; i++) w[i] = lo + (hi - lo) * (float)pl_rng_uniform(rng);
}

void pl_init_glorot(float *w, int fan_in, int fan_out, PlRng *rng) {
    float limit = sqrtf(6.0f / (float)(fan_in + fan_out));
    pl_init_uniform(w, (size_t)fan_in * (size_t)fan_out, -limit, limit, rng);
}

/* Modified Gram-Schmidt on the columns of a (m, n) matrix, m >= n, in place;
 * r_diag gets the diagonal of R. */
static void gram_schmidt(double *a, int m, int n, double *r_diag) {
    for (int j = 0; j < n; j++) {
        for (int k = 0; k < j; k++) {
            double dot = 0.0;
            for (int i = 0; i < m; i++) dot += a[i * n + k] * a[i * n + j];
            for (int i = 0; i < m; i++) a[i * n + j] -= dot * a[i * n + k];
        }
        double norm = 0.0;
        for (int i = 0; i < m; i++) norm += a[i * n + j] * a[i * n + j];
        norm = sqrt(norm);
        r_diag[j] = norm;
        for (int i = 0; i < m; i++) a[i * n + j] /= norm;
    }
}

PlStatus pl_init_orthogonal(float *w, int rows, int cols, PlRng *rng) {
    /* Keras draws a (max, min) Gaussian matrix, takes Q, and transposes it
     * when the kernel is wider than tall. */
    int m = rows > cols ? rows : cols, n = rows > cols ? cols : rows;
    double *a = malloc((size_t)m * n * sizeof *a), *d = malloc((size_t)n * sizeof *d);
    if (!a || !d) {
        free(a);
        free(d);
        return PL_ENOMEM;
    }
    for (int i = 0; i < m * n; i++) a[i] = pl_rng_normal(rng);
    gram_schmidt(a, m, n, d);
    /* Gram-Schmidt makes R's diagonal positive, which is the sign fix. */
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            float v = (float)a[i * n + j];
            if (rows >= cols) w[i * cols + j] = v;
            else w[j * cols + i] = v;
        }
    free(a);
    free(d);
    return PL_OK;
}

float *pl_transpose_into(float *t, const float *a, int rows, int cols) {
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) t[(size_t)j * rows + i] = a[(size_t)i * cols + j];
    return t;
}

void *pl_alloc_big(size_t n) {
    const size_t huge = (size_t)2 << 20;
    if (n < huge) return malloc(n ? n : 1);
    size_t whole = (n + huge - 1) / huge * huge;
    void *p = NULL;
    if (whole < n || posix_memalign(&p, huge, whole)) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, whole, MADV_HUGEPAGE); /* a hint: without huge pages the memory is the same */
#endif
    return p;
}

float pl_l2_norm(const float *a, size_t n) {
    double s = 0.0;
    for (size_t i = 0; i < n; i++) s += (double)(a[i] * a[i]);
    return (float)sqrt(s);
}

float pl_l2_dist(const float *a, const float *b, size_t n) {
    double s = 0.0;
    for (size_t i = 0; i < n; i++) s += (double)((a[i] - b[i]) * (a[i] - b[i]));
    return (float)sqrt(s);
}

float pl_max_abs_diff(const float *a, const float *b, size_t n) {
    float m = 0.0f;
    for (size_t i = 0; i < n; i++) {
        float d = fabsf(a[i] - b[i]);
        if (d > m || d != d) m = d != d ? INFINITY : d;
    }
    return m;
}
