/* padlab bench: how fast padlab trains here, against what this machine can do. */
#include <stdio.h>

#include "app/bench.h"
#include "cli.h"

static void print_json(const PlCorpus *c, const PlMachineRates *m, const PlTrainBench *b, int n) {
    JsonW w;
    json_begin(&w, stdout);
    json_obj(&w, "machine");
    json_num(&w, "gemm_gflops", m->gemm_gflops);
    json_num(&w, "fma_gflops", m->fma_gflops);
    json_str(&w, "fma_isa", m->fma_isa);
    json_close(&w, '}');
    json_str(&w, "corpus", c->source);
    json_arr(&w, "models");
    for (int i = 0; i < n; i++) {
        json_obj(&w, NULL);
        json_str(&w, "model", b[i].name);
        json_int(&w, "epochs", b[i].epochs);
        json_num(&w, "seconds", b[i].seconds);
        json_num(&w, "seconds_per_epoch", b[i].seconds_per_epoch);
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

static void print_table(const PlCorpus *c, const PlMachineRates *m, const PlTrainBench *b, int n, int epochs) {
    static const char *const head[] = {"model", "s/epoch", "real_tok/s", "padded_steps/s", "GFLOP", "GFLOP/s", "of_gemm", "of_fma", "best_val_acc"};
    printf("machine: sgemm 512x512x512 on one thread %.1f GFLOP/s; FMA loop (%s) %.1f GFLOP/s\n", m->gemm_gflops,
           m->fma_isa, m->fma_gflops);
    printf("training on %s: maxlen 200, batch 32, %d epochs, one thread, validation included\n", c->source, epochs);
    OutTable t;
    out_table_init(&t, 9, head);
    for (int i = 0; i < n; i++) {
        out_table_cell(&t, "%s", b[i].name);
        out_table_cell(&t, "%.3f", b[i].seconds_per_epoch);
        out_table_cell(&t, "%.0f", b[i].real_tokens_per_s);
        out_table_cell(&t, "%.0f", b[i].padded_steps_per_s);
        out_table_cell(&t, "%.1f", b[i].gflop);
        out_table_cell(&t, "%.1f", b[i].gflops);
        out_table_cell(&t, "%.1f%%", 100.0 * b[i].gflops / m->gemm_gflops);
        out_table_cell(&t, "%.1f%%", 100.0 * b[i].gflops / m->fma_gflops);
        out_table_cell(&t, "%.4f", (double)b[i].best_val_acc);
    }
    out_table_print(&t, stdout, OUT_TABLE, 2);
    out_table_done(&t);
}

static int run(const CliArgs *a) {
    OutFormat fmt;
    int epochs;
    if (cli_format(a, &fmt) || cli_int(a, "epochs", 5, 1, PL_MAX_EPOCHS, &epochs)) return 2;
    if (fmt == OUT_CSV) return cli_usage_error(a, "--format: bench prints table or json");
    PlCorpus *c;
    int rc = cli_load_corpus(a, &c);
    if (rc) return rc;
    PlMachineRates m;
    pl_bench_machine(&m);
    PlTrainConfig rnn = pl_train_config_default(PL_ARCH_RNN), pool = pl_train_config_default(PL_ARCH_AVGPOOL);
    rnn.epochs = pool.epochs = epochs;
    PlTrainBench b[2];
    PlErr err;
    if (pl_bench_train(c, &rnn, "rnn", &b[0], &err) || pl_bench_train(c, &pool, "avgpool", &b[1], &err)) {
        fprintf(stderr, "padlab bench: %s\n", err.msg);
        rc = 1;
    } else if (fmt == OUT_JSON) {
        print_json(c, &m, b, 2);
    } else {
        print_table(c, &m, b, 2, epochs);
    }
    pl_corpus_free(c);
    return rc;
}

static const CliOpt opts[] = {
    CLI_OPT_CORPUS,
    {"epochs", "N", "epochs per model (default 5)"},
    {"format", "FMT", "table (default) or json"},
    {NULL, NULL, NULL},
};

const CliCommand cli_cmd_bench = {
    .name = "bench",
    .summary = "training speed of the RNN and pooling models, and this machine's rates",
    .usage = "[--corpus SRC] [--epochs 5] [--format table|json]",
    .details = "Measures single-precision GEMM (512^3) and a register-bound FMA loop on one\n"
               "thread, then trains Embedding(10000,32) -> SimpleRNN(32) -> Dense(1) and\n"
               "Embedding -> average pooling -> Dense(1) with the tutorial settings, timing\n"
               "the whole run. GFLOP counts the arithmetic of every layer as a plain dense\n"
               "implementation does it (2 per multiply-add; padlab's fused embedding\n"
               "projection does less), so GFLOP/s is an effective rate; of_gemm and of_fma\n"
               "are its shares of the two machine rates.\n"
               "bench/compare runs the same models in PyTorch beside it.",
    .opts = opts,
    .max_pos = 0,
    .run = run,
};
