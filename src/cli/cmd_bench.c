/* padlab bench: how fast padlab trains here, against what this machine can do. */
#include <stdio.h>

#include <stdlib.h>
#include <string.h>

#include "app/lab/bench.h"
#include "app/lab/lab.h"
#include "cli.h"

static void print_json(const PlCorpus *c, const PlLoadBench *load, const PlMachineRates *m, const PlTrainBench *b,
                       int n) {
    JsonW w;
    json_begin(&w, stdout);
    json_obj(&w, "machine");
    json_num(&w, "gemm_gflops", m->gemm_gflops);
    json_num(&w, "fma_gflops", m->fma_gflops);
    json_str(&w, "fma_isa", m->fma_isa);
    json_str(&w, "simd", m->simd);
    json_int(&w, "simd_forced", m->simd_forced);
    json_close(&w, '}');
    json_str(&w, "corpus", c->source);
    if (load->from_text) {
        json_obj(&w, "loading");
        json_num(&w, "file_mib", load->file_mib);
        json_num(&w, "tokenized_ms", load->text_ms);
        json_num(&w, "from_cache_ms", load->cache_ms);
        json_close(&w, '}');
    }
    json_arr(&w, "models");
    for (int i = 0; i < n; i++) {
        json_obj(&w, NULL);
        json_str(&w, "model", b[i].name);
        json_int(&w, "epochs", b[i].epochs);
        json_num(&w, "seconds", b[i].seconds);
        json_num(&w, "seconds_per_epoch", b[i].seconds_per_epoch);
        json_num(&w, "cpu_seconds_per_epoch", b[i].cpu_seconds_per_epoch);
        json_num(&w, "real_tokens_per_s", b[i].real_tokens_per_s);
        json_num(&w, "padded_steps_per_s", b[i].padded_steps_per_s);
        json_num(&w, "gflop", b[i].gflop);
        json_num(&w, "gflops", b[i].gflops);
        json_num(&w, "share_of_gemm", b[i].gflops / m->gemm_gflops);
        json_num(&w, "share_of_fma", b[i].gflops / m->fma_gflops);
        json_num(&w, "best_val_acc", (double)b[i].best_val_acc);
        json_close(&w, '}');
    }
    json_close(&w, ']');
    json_end(&w);
}

static void print_loading(const PlCorpus *c, const PlLoadBench *load) {
    if (!load->from_text) return;
    printf("loading %s (%.1f MiB, %d reviews): tokenized %.1f ms", c->source, load->file_mib, c->n, load->text_ms);
    if (load->cache_ms >= 0) printf(", from the corpus cache %.1f ms", load->cache_ms);
    else printf(", no corpus cache (no cache folder could be written)");
    printf(" (wall clock, median of 3)\n");
}

static int print_table(const PlCorpus *c, const PlLoadBench *load, const PlMachineRates *m, const PlTrainBench *b,
                       int n, int epochs) {
    static const char *const head[] = {"model", "s/epoch", "cpu_s/epoch", "real_tok/s", "padded_steps/s",
                                       "GFLOP", "GFLOP/s", "of_gemm",     "of_fma",     "best_val_acc"};
    char cpu[256];
    printf("cpu: %s\n", pl_bench_cpu(cpu, sizeof cpu));
    printf("vector level: %s (%s; PADLAB_SIMD=baseline|avx2|avx512 forces one)\n", m->simd,
           m->simd_forced ? "forced by PADLAB_SIMD" : "the widest this CPU runs");
    printf("machine: sgemm 512x512x512 on one thread %.1f GFLOP/s; FMA loop (%s) %.1f GFLOP/s\n", m->gemm_gflops,
           m->fma_isa, m->fma_gflops);
    print_loading(c, load);
    printf("rates are per second of this thread's CPU time (s/epoch is the wall clock)\n");
    printf("training on %s: maxlen %d, batch %d, %d epochs, one thread, validation included\n", c->source,
           PL_DEFAULT_MAXLEN, PL_DEFAULT_BATCH, epochs);
    OutTable t;
    out_table_init(&t, 10, head);
    for (int i = 0; i < n; i++) {
        out_table_cell(&t, "%s", b[i].name);
        out_table_cell(&t, "%.3f", b[i].seconds_per_epoch);
        out_table_cell(&t, "%.3f", b[i].cpu_seconds_per_epoch);
        out_table_cell(&t, "%.0f", b[i].real_tokens_per_s);
        out_table_cell(&t, "%.0f", b[i].padded_steps_per_s);
        out_table_cell(&t, "%.1f", b[i].gflop);
        out_table_cell(&t, "%.1f", b[i].gflops);
        out_table_cell(&t, "%.1f%%", 100.0 * b[i].gflops / m->gemm_gflops);
        if (m->fma_gflops > 0.0) out_table_cell(&t, "%.1f%%", 100.0 * b[i].gflops / m->fma_gflops);
        else out_table_cell(&t, "-"); /* no FMA unit: no peak to read against */
        out_table_cell(&t, "%.4f", (double)b[i].best_val_acc);
    }
    int bad = out_table_print(&t, stdout, OUT_TABLE, 2);
    out_table_done(&t);
    if (n > 1 && strcmp(b[1].name, "rnn_masked") == 0)
        printf("masked / unmasked SimpleRNN, CPU time: %.2fx\n",
               b[1].cpu_seconds_per_epoch / b[0].cpu_seconds_per_epoch);
    return bad;
}

/* ---- the probes: how long a view waits for its result after a change ---- */

#define FRAME_MS 16.0 /* a toggle that feels instant: one frame at 60 Hz */

static void probes_table(const PlCorpus *c, const PlProbeBench *b, int nk, const int *maxlens, int nm, int reps) {
    char cpu[256];
    printf("cpu: %s\n", pl_bench_cpu(cpu, sizeof cpu));
    printf("corpus %s: each result recomputed as the lab's worker does after a change (static batches of 32,\n"
           "fresh weights), median of %d runs in ms of CPU time, min-max in brackets; "
           "the goal is under %.0f ms at maxlen 200\n\n",
           c->source, reps, FRAME_MS);
    printf("  %-10s", "result");
    for (int m = 0; m < nm; m++) printf("  maxlen %-13d", maxlens[m]);
    printf("  of %.0f ms at %d\n", FRAME_MS, maxlens[0]);
    for (int k = 0; k < nk; k++) {
        const PlProbeBench *row = b + (size_t)k * nm;
        printf("  %-10s", pl_result_name((PlResultKind)row[0].kind));
        for (int m = 0; m < nm; m++) {
            char cell[64];
            snprintf(cell, sizeof cell, "%.1f (%.1f-%.1f)", row[m].ms_median, row[m].ms_min, row[m].ms_max);
            printf("  %-20s", cell);
        }
        printf("  %.2fx%s\n", row[0].ms_median / FRAME_MS, row[0].ms_median < FRAME_MS ? "" : "  over");
    }
}

static void probes_json(const PlCorpus *c, const PlProbeBench *b, int n) {
    char cpu[256];
    JsonW w;
    json_begin(&w, stdout);
    json_str(&w, "cpu", pl_bench_cpu(cpu, sizeof cpu));
    json_str(&w, "corpus", c->source);
    json_num(&w, "goal_ms", FRAME_MS);
    json_arr(&w, "results");
    for (int i = 0; i < n; i++) {
        json_obj(&w, NULL);
        json_str(&w, "result", pl_result_name((PlResultKind)b[i].kind));
        json_int(&w, "maxlen", b[i].maxlen);
        json_int(&w, "reps", b[i].reps);
        json_num(&w, "ms_median", b[i].ms_median);
        json_num(&w, "ms_min", b[i].ms_min);
        json_num(&w, "ms_max", b[i].ms_max);
        json_close(&w, '}');
    }
    json_close(&w, ']');
    json_end(&w);
}

static int run_probes(const CliArgs *a, const PlCorpus *c, OutFormat fmt) {
    int maxlens[8], nm, reps;
    if (cli_maxlen_list(a, "200,400,800", 1, 2000, c, maxlens, 8, &nm) || cli_int(a, "reps", 5, 1, 1000, &reps))
        return 2;
    int *lens = cli_lengths(c);
    PlProbeBench *b = malloc(sizeof *b * PL_R_COUNT * (size_t)nm);
    if (!lens || !b) {
        free(lens), free(b);
        fprintf(stderr, "padlab bench: out of memory while preparing the benchmark\n");
        return 1;
    }
    PlErr err;
    int rc = 0;
    for (int k = 0; k < PL_R_COUNT && !rc; k++)
        for (int m = 0; m < nm && !rc; m++)
            if (pl_bench_probe(c, lens, k, maxlens[m], reps, &b[k * nm + m], &err)) {
                fprintf(stderr, "padlab bench: %s\n", err.msg);
                rc = 1;
            }
    if (!rc && fmt == OUT_JSON) probes_json(c, b, PL_R_COUNT * nm);
    else if (!rc) probes_table(c, b, PL_R_COUNT, maxlens, nm, reps);
    free(lens), free(b);
    return rc;
}

/* The models timed, in the order printed: the masked SimpleRNN right after
 * the unmasked one, so that their ratio can be read off. */
static const struct {
    const char *name;
    PlArch arch;
    PlSeqMask mask;
    PlPoolMask pool;
} bench_models[] = {
    {"rnn", PL_ARCH_RNN, PL_SEQ_NONE, PL_POOL_UNMASKED},
    {"rnn_masked", PL_ARCH_RNN, PL_SEQ_KERAS, PL_POOL_UNMASKED},
    {"gru", PL_ARCH_GRU, PL_SEQ_NONE, PL_POOL_UNMASKED},
    {"gru_masked", PL_ARCH_GRU, PL_SEQ_KERAS, PL_POOL_UNMASKED},
    {"lstm", PL_ARCH_LSTM, PL_SEQ_NONE, PL_POOL_UNMASKED},
    {"lstm_masked", PL_ARCH_LSTM, PL_SEQ_KERAS, PL_POOL_UNMASKED},
    {"avgpool", PL_ARCH_AVGPOOL, PL_SEQ_NONE, PL_POOL_UNMASKED},
    {"avgpool_masked", PL_ARCH_AVGPOOL, PL_SEQ_KERAS, PL_POOL_MASKED},
};
#define BENCH_MODELS ((int)(sizeof bench_models / sizeof bench_models[0]))
#define BENCH_DEFAULT "rnn,rnn_masked,gru,lstm,avgpool"

/* The rows of --models (a comma-separated list of bench_models names) into
 * pick; returns how many, or -1 after saying which name is unknown. */
static int pick_models(const CliArgs *a, int *pick) {
    char list[256];
    snprintf(list, sizeof list, "%s", cli_str(a, "models", BENCH_DEFAULT));
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int i = 0;
        while (i < BENCH_MODELS && strcmp(bench_models[i].name, tok) != 0) i++;
        if (i == BENCH_MODELS || n == BENCH_MODELS)
            return cli_usage_error(a, "--models: unknown or repeated model '%s'", tok), -1;
        pick[n++] = i;
    }
    return n;
}

static int run(const CliArgs *a) {
    OutFormat fmt;
    int epochs;
    if (cli_format(a, &fmt) || cli_int(a, "epochs", PL_DEFAULT_EPOCHS, 1, PL_MAX_EPOCHS, &epochs)) return 2;
    if (fmt == OUT_CSV) return cli_usage_error(a, "--format: bench prints table or json");
    PlCorpus *c;
    int rc = cli_load_corpus(a, &c);
    if (rc) return rc;
    if (cli_flag(a, "probes")) {
        rc = run_probes(a, c, fmt);
        pl_corpus_free(c);
        return rc;
    }
    int pick[BENCH_MODELS], n = pick_models(a, pick);
    if (n < 0) {
        pl_corpus_free(c);
        return 2;
    }
    PlMachineRates m;
    PlLoadBench load;
    PlErr err;
    if (pl_bench_load(cli_str(a, "corpus", pl_settings[PL_S_CORPUS].def_text), c->num_words, &load, &err) ||
        pl_bench_machine(&m, &err)) {
        fprintf(stderr, "padlab bench: %s\n", err.msg);
        pl_corpus_free(c);
        return 1;
    }
    PlTrainBench b[BENCH_MODELS];
    for (int i = 0; i < n && !rc; i++) {
        PlTrainConfig cfg = pl_train_config_default(bench_models[pick[i]].arch);
        cfg.model.mask = bench_models[pick[i]].mask;
        cfg.model.pool = bench_models[pick[i]].pool;
        cfg.epochs = epochs;
        if (pl_bench_train(c, &cfg, bench_models[pick[i]].name, &b[i], &err)) {
            fprintf(stderr, "padlab bench: %s\n", err.msg);
            rc = 1;
        }
    }
    if (!rc && fmt == OUT_JSON) print_json(c, &load, &m, b, n);
    else if (!rc && print_table(c, &load, &m, b, n, epochs)) rc = cli_no_memory(a, "building the table");
    pl_corpus_free(c);
    return rc;
}

static const CliOpt opts[] = {
    CLI_OPT_CORPUS,
    {"epochs", "N", "epochs per model (default " PL_STR(PL_DEFAULT_EPOCHS) ")"},
    {"models", "LIST", "the models timed (default " BENCH_DEFAULT "; also gru_masked, lstm_masked, avgpool_masked)"},
    {"probes", NULL, "instead: how long each view's result takes to recompute after a change"},
    {"maxlen", "N,N,...", "with --probes: the maxlens to measure at, none for the longest review (default 200,400,800)"},
    {"reps", "N", "with --probes: runs per figure, the median is shown (default 5)"},
    {"format", "FMT", "table (default) or json"},
    {NULL, NULL, NULL},
};

const CliCommand cli_cmd_bench = {
    .name = "bench",
    .summary = "training speed of the recurrent and pooling models, the vector level, and this machine's rates",
    .usage = "[--corpus SRC] [--epochs " CLI_DEF_EPOCHS "] [--models LIST] [--format table|json]\n"
             "       padlab bench --probes [--corpus SRC] [--maxlen 200,400,none] [--reps 5] [--format table|json]",
    .details = "Measures single-precision GEMM (512^3) and a register-bound FMA loop on one\n"
               "thread, then trains Embedding(10000,32) -> SimpleRNN(32) -> Dense(1)\n"
               "(unmasked, then with the Keras mask), the same with GRU(32) and LSTM(32),\n"
               "and Embedding -> average pooling -> Dense(1) with the tutorial settings,\n"
               "timing the whole run. Rates are per second of CPU time, which other work\n"
               "on a shared machine does not stretch. It names the kernels' vector level\n"
               "(PADLAB_SIMD=baseline|avx2|avx512 forces a narrower one). GFLOP counts\n"
               "the arithmetic of every layer as a plain dense implementation does it (2\n"
               "per multiply-add; padlab's fused embedding projection does less), so\n"
               "GFLOP/s is an effective rate; of_gemm and of_fma are its shares of the two\n"
               "machine rates, the FMA loop run at the kernels' vector level (AVX2 forced\n"
               "on an AVX-512 CPU is read against the AVX2 peak). A TSV corpus is also\n"
               "timed loading, tokenized and read back from the corpus cache (the wall\n"
               "clock, median of three).\n"
               "bench/compare runs the same models in PyTorch beside it.\n"
               "With --probes it times each result the lab's views draw, as the worker\n"
               "recomputes it after a change (bench/probes runs it on imdb5k).",
    .opts = opts,
    .settings = CLI_CORPUS,
    .max_pos = 0,
    .run = run,
};
