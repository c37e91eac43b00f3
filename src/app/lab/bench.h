/* Measuring this machine and padlab's training speed, for `padlab bench`. */
#ifndef PL_APP_BENCH_H
#define PL_APP_BENCH_H

#include "core/corpus.h"
#include "core/train.h"

typedef struct {
    double gemm_gflops;  /* single-precision GEMM, 512^3, one thread */
    double fma_gflops;   /* a register-bound FMA loop, one thread */
    const char *fma_isa; /* the instruction set the FMA loop ran on */
    const char *simd;    /* the kernels' vector level (core/kernels.h) */
    int simd_forced;     /* PADLAB_SIMD chose it */
} PlMachineRates;

/* Both rates, and the training rates below, are taken on this thread's CPU
 * time: on a shared machine other work stretches the wall clock, not them. */

PlStatus pl_bench_machine(PlMachineRates *r, PlErr *err);

typedef struct {
    const char *name; /* "rnn" or "avgpool" */
    int epochs;
    double seconds; /* whole training run, validation included */
    double seconds_per_epoch;
    double cpu_seconds_per_epoch; /* this thread's CPU time */
    double real_tokens_per_s;
    double padded_steps_per_s; /* B*T cells per second of training */
    double gflop;              /* arithmetic of the run as a plain dense implementation does it */
    double gflops;             /* gflop / CPU seconds */
    float best_val_acc;
} PlTrainBench;

/* Trains the model of cfg on c and measures it. */
PlStatus pl_bench_train(const PlCorpus *c, const PlTrainConfig *cfg, const char *name, PlTrainBench *out, PlErr *err);

/* How long the lab's worker takes to recompute one result after a change:
 * pl_result_compute of kind k (an app-layer PlResultKind) at the default
 * settings but for maxlen, with fresh weights, reps times. */
typedef struct {
    int kind;
    int maxlen;
    int reps;
    double ms_median, ms_min, ms_max;
} PlProbeBench;

PlStatus pl_bench_probe(const PlCorpus *c, const int *lens, int kind, int maxlen, int reps, PlProbeBench *out,
                        PlErr *err);

/* How long loading the corpus at spec takes (wall clock, the median of
 * three): tokenizing its text, and reading it back from the corpus cache
 * (core/corpus_cache.h; an entry is written first when there is none).
 * Only a TSV file has both: for another source from_text is 0 and the
 * rest unset. */
typedef struct {
    int from_text;   /* 1 when spec is a TSV file */
    double text_ms;  /* tokenized */
    double cache_ms; /* read back from the cache, or -1 when it could not be */
    double file_mib; /* the file's size */
} PlLoadBench;

PlStatus pl_bench_load(const char *spec, int num_words, PlLoadBench *out, PlErr *err);

/* The CPU's model name (from /proc/cpuinfo), or "an unknown CPU". */
const char *pl_bench_cpu(char *buf, int cap);

#endif
