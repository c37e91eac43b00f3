#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/corpus_load.h"
#include "core/kernels.h"
#include "core/stats.h"
#include "core/tensor.h"
#include "lab.h"
#include "worker.h"

/* This thread's CPU seconds. */
static double cpu_clock(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double gemm_rate(void) {
    int n = 512, reps = 20;
    float *a = malloc(sizeof(float) * (size_t)n * n), *b = malloc(sizeof(float) * (size_t)n * n);
    float *c = calloc((size_t)n * n, sizeof(float));
    if (!a || !b || !c) {
        free(a), free(b), free(c);
        return -1.0;
    }
    for (int i = 0; i < n * n; i++) a[i] = b[i] = 1e-3f * (float)(i % 97);
    if (pl_blas_init(NULL)) {
        free(a), free(b), free(c);
        return -1.0;
    }
    pl_gemm(0, 0, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n); /* warm up */
    double t0 = cpu_clock();
    for (int r = 0; r < reps; r++) pl_gemm(0, 0, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
    double t = cpu_clock() - t0;
    free(a), free(b), free(c);
    return 2.0 * n * n * n * reps / t / 1e9;
}

/* Twelve independent accumulators hide the FMA latency on both FMA ports;
 * each is one full vector register of the instruction set. */
typedef float V16 __attribute__((vector_size(64)));
typedef float V8 __attribute__((vector_size(32)));

#define FMA_LOOP(V, iters, x, y)                                                               \
    do {                                                                                       \
        V acc[12];                                                                             \
        for (int i = 0; i < 12; i++) acc[i] = (V){0} + (float)i * 1e-3f;                       \
        for (long k = 0; k < (iters); k++) {                                                   \
            _Pragma("GCC unroll 12") for (int i = 0; i < 12; i++) acc[i] = acc[i] * (x) + (y); \
        }                                                                                      \
        float s = 0.0f;                                                                        \
        for (int i = 0; i < 12; i++)                                                           \
            for (unsigned j = 0; j < sizeof(V) / sizeof(float); j++) s += acc[i][j];           \
        return s;                                                                              \
    } while (0)

__attribute__((target("avx512f,fma"))) static float fma_avx512(long iters, float x, float y) {
    FMA_LOOP(V16, iters, x, y);
}
__attribute__((target("avx2,fma"))) static float fma_avx2(long iters, float x, float y) { FMA_LOOP(V8, iters, x, y); }

/* Runs the loop on the instruction set the vector kernels use (the widest
 * here, or the one PADLAB_SIMD forces), so that their share is of their own
 * peak; the baseline kernels are read against the widest this CPU runs.
 * Returns the lanes per vector, 0 with no FMA unit. */
static int fma_run(long iters, float *sink) {
    PlSimdLevel level = pl_simd_level(NULL);
    int wide = __builtin_cpu_supports("avx512f"), fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (level == PL_SIMD_AVX512 || (level == PL_SIMD_BASELINE && wide))
        return *sink = fma_avx512(iters, 0.999f, 1e-4f), 16;
    if (fma) return *sink = fma_avx2(iters, 0.999f, 1e-4f), 8;
    return 0;
}

PlStatus pl_bench_machine(PlMachineRates *r, PlErr *err) {
    r->gemm_gflops = gemm_rate();
    if (r->gemm_gflops < 0.0) return pl_err_set(err, PL_ENOMEM, "out of memory while timing sgemm");
    long iters = 20000000;
    float sink = 0.0f;
    fma_run(1000, &sink);
    double t0 = cpu_clock();
    int lanes = fma_run(iters, &sink);
    double t = cpu_clock() - t0;
    r->fma_gflops = lanes ? 2.0 * 12.0 * lanes * (double)iters / t / 1e9 : 0.0;
    r->fma_isa = lanes == 16 ? "avx512f" : lanes == 8 ? "avx2" : "none (no FMA unit found)";
    if (sink == 12345.0f) r->fma_gflops += 0.0; /* keeps the loop's result alive */
    r->simd = pl_simd_name(pl_simd_level(&r->simd_forced));
    return PL_OK;
}

/* Floating-point operations per (row, step) cell of one training step and of
 * one validation step, counting the products (2 per multiply-add). */
static void flop_per_cell(const PlTrainConfig *cfg, double *train, double *eval) {
    double E = cfg->model.embed, H = cfg->model.hidden;
    if (pl_arch_recurrent(cfg->model.arch)) {
        double g = cfg->model.arch == PL_ARCH_GRU ? 3 : cfg->model.arch == PL_ARCH_LSTM ? 4 : 1;
        double fwd = 2 * E * g * H + 2 * H * g * H;
        *eval = fwd;
        *train = 3 * fwd; /* backward: input and weight gradients of both products */
    } else {
        *eval = E; /* the pooling sum */
        *train = 2 * E + 2 * E;
    }
}

static double bench_clock(void *ctx) { return (void)ctx, pl_app_clock(); }

PlStatus pl_bench_train(const PlCorpus *c, const PlTrainConfig *cfg, const char *name, PlTrainBench *out, PlErr *err) {
    PlTrainResult res;
    double cpu0 = cpu_clock();
    PlStatus st = pl_train(c, cfg, NULL, NULL, bench_clock, &res, NULL, err);
    if (st) return st;
    double cpu = cpu_clock() - cpu0;
    double ft, fe;
    flop_per_cell(cfg, &ft, &fe);
    double eval_cells = (double)res.n_val * cfg->maxlen * res.epochs_done;
    out->name = name;
    out->epochs = res.epochs_done;
    out->seconds = res.seconds;
    out->seconds_per_epoch = res.seconds / res.epochs_done;
    out->real_tokens_per_s = (double)res.real_tokens / cpu;
    out->padded_steps_per_s = (double)res.steps / cpu;
    out->gflop = ((double)res.steps * ft + eval_cells * fe) / 1e9;
    out->cpu_seconds_per_epoch = cpu / res.epochs_done;
    out->gflops = out->gflop / cpu;
    out->best_val_acc = res.best_val_acc;
    return PL_OK;
}

PlStatus pl_bench_probe(const PlCorpus *c, const int *lens, int kind, int maxlen, int reps, PlProbeBench *out,
                        PlErr *err) {
    PlLabSettings s = pl_settings_default();
    s.maxlen = maxlen;
    s.example = pl_probe_auto_example(c, maxlen);
    double *ms = malloc((size_t)(reps > 0 ? reps : 1) * sizeof *ms);
    if (!ms) return pl_err_set(err, PL_ENOMEM, "out of memory for the benchmark");
    memset(out, 0, sizeof *out);
    out->kind = kind, out->maxlen = maxlen, out->reps = reps;
    PlStatus st = PL_OK;
    for (int r = 0; r < reps && !st; r++) {
        void *res = NULL;
        PlResultInfo info;
        double t0 = cpu_clock(); /* the result is computed on this thread */
        st = pl_result_compute(c, lens, (PlResultKind)kind, &s, NULL, NULL, &res, &info, err);
        ms[r] = 1e3 * (cpu_clock() - t0);
        pl_result_free((PlResultKind)kind, res);
    }
    if (!st) {
        out->ms_median = pl_median(ms, reps);
        out->ms_min = ms[0], out->ms_max = ms[reps - 1];
    }
    free(ms);
    return st;
}

const char *pl_bench_cpu(char *buf, int cap) {
    snprintf(buf, (size_t)cap, "an unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return buf;
    char line[512];
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "model name", 10) == 0 && strchr(line, ':')) {
            char *v = strchr(line, ':') + 1;
            while (*v == ' ' || *v == '\t') v++;
            v[strcspn(v, "\n")] = '\0';
            snprintf(buf, (size_t)cap, "%s", v);
            break;
        }
    fclose(f);
    /* The vector units matter as much as the name: the same CPU name comes with or without AVX-512. */
    const char *isa = __builtin_cpu_supports("avx512f") ? "AVX-512"
                      : __builtin_cpu_supports("avx2")  ? "AVX2, no AVX-512"
                                                        : "no AVX2";
    size_t n = strlen(buf);
    snprintf(buf + n, (size_t)cap - n, " (%s, %ld cores)", isa, sysconf(_SC_NPROCESSORS_ONLN));
    return buf;
}

/* Median wall milliseconds of three loads of spec through the cache as use
 * says; *cached says whether the last came from the cache. */
static PlStatus timed_loads(const char *spec, int num_words, PlCacheUse use, double *ms, int *cached, PlErr *err) {
    PlCorpusOpts o = {num_words, use};
    double t[3];
    PlStatus st = PL_OK;
    for (int r = 0; r < 3 && !st; r++) {
        PlCorpus *c = NULL;
        double t0 = pl_app_clock();
        st = pl_corpus_load(spec, &o, &c, err);
        t[r] = 1e3 * (pl_app_clock() - t0);
        *cached = c && c->map;
        pl_corpus_free(c);
    }
    if (!st) *ms = pl_median(t, 3);
    return st;
}

PlStatus pl_bench_load(const char *spec, int num_words, PlLoadBench *out, PlErr *err) {
    memset(out, 0, sizeof *out);
    struct stat sb;
    if (!spec || stat(spec, &sb) != 0 || !S_ISREG(sb.st_mode)) return PL_OK;
    out->from_text = 1;
    out->file_mib = (double)sb.st_size / (1 << 20);
    int cached = 0;
    PlStatus st = timed_loads(spec, num_words, PL_CACHE_OFF, &out->text_ms, &cached, err);
    if (!st) st = timed_loads(spec, num_words, PL_CACHE_ALL, &out->cache_ms, &cached, err);
    if (!st && !cached) out->cache_ms = -1; /* no cache folder to be had */
    return st;
}
