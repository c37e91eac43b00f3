/* padlab experiment: train a grid of settings over several seeds and print
 * what each setting did to the validation accuracy. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/lab/worker.h"
#include "app/report/part.h"
#include "app/report/report.h"
#include "cli.h"
#include "core/atomic.h"
#include "core/experiment.h"
#include "core/kernels.h"
#include "core/tensor.h"

#define MAX_SEEDS 64

typedef struct {
    int done, total;
    int tty;
} Ticker;

static int on_progress(int run, const PlProgress *p, void *ctx) {
    Ticker *t = ctx;
    (void)run;
    if (p->batch != p->batches || p->val_acc < 0.0f || p->epoch != p->epochs) return 0;
    t->done++;
    if (t->tty) fprintf(stderr, "\r  trained %d of %d runs", t->done, t->total);
    if (t->tty && t->done == t->total) fputs("\r\033[K", stderr);
    return 0;
}

static void setup_cells(OutTable *t, const PlSetup *s) {
    char buf[64];
    for (int i = 0; i < s->n; i++) out_table_cell(t, "%s", pl_setup_text(&s->v[i], buf, sizeof buf));
}

static void json_setup(JsonW *w, const PlSetup *s) {
    json_obj(w, "setup");
    for (int i = 0; i < s->n; i++) {
        const PlSetupVal *v = &s->v[i];
        if (v->kind == PL_VAL_STR) json_str(w, v->key, v->str);
        else if (v->kind == PL_VAL_BOOL) json_bool(w, v->key, v->num);
        else json_int(w, v->key, v->num);
    }
    json_close(w, '}');
}

/* "at", "above" or "below": where an accuracy lies against chance. */
static const char *against(const PlChance *ch, double acc) {
    PlChanceVerdict v = pl_chance_verdict(ch, acc);
    return v == PL_AT_CHANCE ? "at" : v == PL_ABOVE_CHANCE ? "above" : "below";
}

/* What the tables say of the corpus: its name, its chance and its longest
 * review (0: not known, in a merge). */
typedef struct {
    const char *source;
    PlChance chance;
    int longest;
} Corpus;

static void print_json(const PlExperiment *e, const Corpus *c, int epochs, const PlRun *runs, int n,
                       const PlSummary *sum, int ns) {
    JsonW w;
    const PlChance ch = c->chance;
    json_begin(&w, stdout);
    json_str(&w, "experiment", e->name);
    json_str(&w, "corpus", c->source);
    json_int(&w, "epochs", epochs);
    if (!e->by_loss) pl_report_json_chance(&w, &ch);
    json_arr(&w, "runs");
    for (int i = 0; i < n; i++) {
        const PlTrainResult *r = &runs[i].res;
        json_obj(&w, NULL);
        json_setup(&w, &runs[i].setup);
        json_int(&w, "seed", (int64_t)runs[i].cfg.seed);
        json_arr(&w, "val_acc");
        for (int k = 0; k < r->epochs_done; k++) json_num(&w, NULL, (double)r->val_acc[k]);
        json_close(&w, ']');
        json_arr(&w, "train_loss");
        for (int k = 0; k < r->epochs_done; k++) json_num(&w, NULL, (double)r->train_loss[k]);
        json_close(&w, ']');
        if (e->by_loss) {
            json_arr(&w, "val_loss");
            for (int k = 0; k < r->epochs_done; k++) json_num(&w, NULL, (double)r->val_loss[k]);
            json_close(&w, ']');
            json_num(&w, "best_val_loss", (double)r->best_val_loss);
        }
        json_num(&w, "best_val_acc", (double)r->best_val_acc);
        if (!e->by_loss) json_str(&w, "vs_chance", against(&ch, (double)r->best_val_acc));
        json_arr(&w, "acc_by_length");
        for (int k = 0; k < PL_LEN_BUCKETS; k++) {
            json_obj(&w, NULL);
            json_int(&w, "max_length", r->bucket_hi[k] == INT32_MAX ? -1 : r->bucket_hi[k]);
            json_int(&w, "n", r->bucket_n[k]);
            if (r->bucket_n[k]) json_num(&w, "acc", (double)r->bucket_acc[k]);
            else json_num(&w, "acc", NAN); /* null: no review of that length */
            json_close(&w, '}');
        }
        json_close(&w, ']');
        json_int(&w, "steps", r->steps);
        json_num(&w, "seconds", r->seconds);
        json_close(&w, '}');
    }
    json_close(&w, ']');
    json_arr(&w, "summary");
    for (int k = 0; k < ns; k++) {
        json_obj(&w, NULL);
        json_setup(&w, &sum[k].setup);
        json_str(&w, "metric", e->by_loss ? "best_val_loss" : "best_val_acc");
        json_num(&w, "mean", sum[k].mean);
        json_num(&w, "std", sum[k].std);
        json_num(&w, "min", sum[k].min);
        json_num(&w, "max", sum[k].max);
        json_num(&w, "median", sum[k].median);
        if (!e->by_loss) json_str(&w, "vs_chance", against(&ch, sum[k].median));
        json_int(&w, "n", sum[k].n);
        json_num(&w, "seconds_per_epoch", sum[k].seconds_per_epoch);
        json_int(&w, "steps", sum[k].steps);
        if (e->shows_dilution) json_num(&w, "real_weight", sum[k].dilution);
        json_close(&w, '}');
    }
    json_close(&w, ']');
    json_end(&w);
}

static int print_runs(const PlRun *runs, int n, int epochs, int by_loss, const PlChance *ch) {
    const PlSetup *s0 = &runs[0].setup;
    const char *head[PL_SETUP_MAX + 8];
    int nc = 0;
    for (int i = 0; i < s0->n; i++) head[nc++] = s0->v[i].key;
    const char *rest[] = {"seed", by_loss ? "val_loss by epoch" : "val_acc by epoch",
                          "best", "chance",
                          "short", "mid",
                          "long", "s/epoch"};
    for (int i = 0; i < 8; i++) {
        if (by_loss && i >= 3 && i <= 6) continue; /* no chance or length buckets for the token task */
        head[nc++] = rest[i];
    }
    OutTable t;
    out_table_init(&t, nc, head);
    for (int i = 0; i < n; i++) {
        const PlTrainResult *r = &runs[i].res;
        char accs[256] = "";
        for (int k = 0; k < r->epochs_done && k < 20; k++)
            snprintf(accs + strlen(accs), sizeof accs - strlen(accs), "%s%.3f", k ? " " : "",
                     (double)(by_loss ? r->val_loss[k] : r->val_acc[k]));
        setup_cells(&t, &runs[i].setup);
        out_table_cell(&t, "%llu", (unsigned long long)runs[i].cfg.seed);
        out_table_cell(&t, "%s", runs[i].status ? "failed" : accs);
        out_table_cell(&t, "%.4f", (double)(by_loss ? r->best_val_loss : r->best_val_acc));
        if (!by_loss) out_table_cell(&t, "%s", against(ch, (double)r->best_val_acc));
        for (int k = 0; !by_loss && k < PL_LEN_BUCKETS; k++) /* a length no review has: no accuracy, not 0 */
            if (r->bucket_n[k]) out_table_cell(&t, "%.3f", (double)r->bucket_acc[k]);
            else out_table_cell(&t, "%s", "-");
        out_table_cell(&t, "%.3f", r->seconds / (epochs ? epochs : 1));
    }
    int bad = out_table_print(&t, stdout, OUT_TABLE, 2);
    out_table_done(&t);
    return bad;
}

static int print_summary(const PlExperiment *e, const PlSummary *sum, int ns, OutFormat fmt, const PlChance *ch) {
    const char *head[PL_SETUP_MAX + 11];
    int nc = 0;
    for (int i = 0; i < sum[0].setup.n; i++) head[nc++] = sum[0].setup.v[i].key;
    const char *rest[] = {"n", "median", "chance", "mean", "std", "min", "max", "s/epoch", "steps", "real_weight"};
    for (int i = 0; i < 9 + e->shows_dilution; i++)
        if (i != 2 || !e->by_loss) head[nc++] = rest[i];
    OutTable t;
    out_table_init(&t, nc, head);
    for (int k = 0; k < ns; k++) {
        setup_cells(&t, &sum[k].setup);
        out_table_cell(&t, "%d", sum[k].n);
        out_table_cell(&t, "%.4f", sum[k].median);
        if (!e->by_loss) out_table_cell(&t, "%s", against(ch, sum[k].median));
        out_table_cell(&t, "%.4f", sum[k].mean);
        out_table_cell(&t, "%.4f", sum[k].std);
        out_table_cell(&t, "%.4f", sum[k].min);
        out_table_cell(&t, "%.4f", sum[k].max);
        out_table_cell(&t, "%.3f", sum[k].seconds_per_epoch);
        out_table_cell(&t, "%lld", (long long)sum[k].steps);
        if (e->shows_dilution) out_table_cell(&t, "%.4f", sum[k].dilution);
    }
    int bad = out_table_print(&t, stdout, fmt, fmt == OUT_TABLE ? 2 : 0);
    out_table_done(&t);
    return bad;
}

/* Reads --seeds K (seeds 0..K-1) or --seed S (just S). */
static int read_seeds(const CliArgs *a, PlSeed *seeds, int *n) {
    int k, s;
    if (cli_flag(a, "seeds") && cli_flag(a, "seed")) return cli_usage_error(a, "--seeds and --seed cannot be combined");
    if (cli_int(a, "seeds", 1, 1, MAX_SEEDS, &k) || cli_int(a, "seed", 0, 0, 2147483647, &s)) return 2;
    if (cli_flag(a, "seed")) {
        seeds[0] = (PlSeed)s;
        *n = 1;
        return 0;
    }
    for (int i = 0; i < k; i++) seeds[i] = (PlSeed)i;
    *n = k;
    return 0;
}

/* Prints the experiment's runs and summary. Reads nothing but its
 * arguments, so the runs of a merge print as those of one machine. */
static int report(const PlExperiment *e, const Corpus *c, const PlExperimentOpts *o, PlRun *runs, int n,
                  OutFormat fmt) {
    PlSummary *sum;
    int ns;
    PlErr err;
    if (pl_experiment_summarise(runs, n, e->by_loss, &sum, &ns, &err)) {
        fprintf(stderr, "padlab experiment: %s\n", err.msg);
        return 1;
    }
    int bad = 0;
    const PlChance ch = c->chance;
    if (fmt == OUT_JSON) {
        print_json(e, c, o->epochs, runs, n, sum, ns);
    } else if (fmt == OUT_CSV) {
        bad = print_summary(e, sum, ns, OUT_CSV, &ch);
    } else {
        int whole = c->longest && o->maxlen >= c->longest; /* --maxlen none, or as wide */
        printf("experiment %s: %s\ncorpus %s, %d epochs, maxlen %d%s, %d seed%s\n", e->name, e->summary, c->source,
               o->epochs, o->maxlen, whole ? " (the longest review: nothing cut)" : "", o->n_seeds,
               o->n_seeds > 1 ? "s" : "");
        if (!e->by_loss)
            printf("chance %.4f: always answering %s on the %d validation reviews; an accuracy within %.4f of it is "
                   "at chance\n",
                   ch.share, pl_label_name(ch.label), ch.n_val, ch.noise);
        printf("\n");
        printf(e->by_loss
                   ? "runs (validation cross-entropy per real next token; pads never count here):\n"
                   : "runs (validation accuracy; short/mid/long = reviews up to maxlen/2, up to maxlen, longer):\n");
        bad = print_runs(runs, n, o->epochs, e->by_loss, &ch);
        printf("\nsummary (%s over the epochs, per setup):\n",
               e->by_loss ? "lowest validation cross-entropy per real next token" : "best validation accuracy");
        bad = bad || print_summary(e, sum, ns, OUT_TABLE, &ch);
    }
    free(sum);
    if (bad) {
        fprintf(stderr, "padlab experiment: out of memory while building the table\n");
        return 1;
    }
    return 0;
}

/* Reads --shard I/N (0 <= I < N): *shards is 0 without it. */
static int read_shard(const CliArgs *a, int *shard, int *shards) {
    const char *v = cli_str(a, "shard", NULL);
    int used = 0;
    *shard = 0, *shards = 0;
    if (!v) return 0;
    if (sscanf(v, "%d/%d%n", shard, shards, &used) != 2 || v[used] || *shards < 1 || *shards > PL_PART_MAX_SHARDS ||
        *shard < 0 || *shard >= *shards)
        return cli_usage_error(a, "--shard takes I/N, shard I of N counted from 0 (0 <= I < N <= %d), not '%s'",
                               PL_PART_MAX_SHARDS, v);
    return 0;
}

/* Keeps the runs of shard I of N, k mod N = I, in plan order at the front
 * of runs, and each one's place in the plan in index. Round robin rather than
 * blocks: the plan lists a setup's seeds together, and setups differ in cost
 * (maxlen 400 against 50, an LSTM against a SimpleRNN), so blocks would give
 * one shard all the dear runs. Returns how many. */
static int keep_shard(PlRun *runs, int n, int shard, int shards, int *index) {
    int m = 0;
    for (int k = shard; k < n; k += shards) {
        runs[m] = runs[k];
        index[m++] = k;
    }
    return m;
}

/* The part file's head: what the runs were planned and trained from. */
static void part_head(PlPart *p, const PlExperiment *e, const PlExperimentOpts *o, const PlCorpus *c) {
    snprintf(p->padlab, sizeof p->padlab, "%s", PACKAGE_VERSION);
    snprintf(p->experiment, sizeof p->experiment, "%s", e->name);
    p->epochs = o->epochs, p->maxlen = o->maxlen, p->n_seeds = o->n_seeds;
    memcpy(p->seeds, o->seeds, (size_t)o->n_seeds * sizeof *o->seeds);
    snprintf(p->corpus, sizeof p->corpus, "%s", c->source);
    p->corpus_digest = pl_corpus_digest(c);
    p->chance = pl_chance_of(c, PL_VAL_SPLIT);
    snprintf(p->arithmetic, sizeof p->arithmetic, "%s, OpenBLAS %s", pl_simd_name(pl_simd_level(NULL)), pl_blas_core());
}

static int write_part_to(FILE *f, void *ctx) { return pl_part_write(f, ctx) ? -1 : 0; }

/* The part to --out (through the atomic writer) or, for a shard without
 * --out, to stdout: `ssh host padlab experiment ... --shard 1/4 > part1.json`. */
static int write_part(const CliArgs *a, const PlPart *p) {
    const char *out = cli_str(a, "out", NULL);
    PlErr err;
    if (!out) return pl_part_write(stdout, p) ? 1 : 0;
    if (pl_write_atomic(out, write_part_to, (void *)p, &err)) {
        fprintf(stderr, "padlab experiment: %s\n", err.msg);
        return 1;
    }
    return 0;
}

/* Trains the runs of the plan this invocation is given (all, or a shard's),
 * then prints the tables or writes the part. */
static int train(const CliArgs *a, const PlExperiment *e, const PlExperimentOpts *o, OutFormat fmt, int threads,
                 int shard, int shards, const PlCorpus *c, PlRun *runs, int n) {
    PlPart part = {.shard = shard, .shards = shards ? shards : 1};
    PlErr err;
    PlModel *first = NULL;
    const char *save = cli_str(a, "save-model", NULL);
    int rc = 0;
    if (!(part.index = malloc((size_t)(n ? n : 1) * sizeof *part.index))) return cli_no_memory(a, "planning");
    part.n = keep_shard(runs, n, part.shard, part.shards, part.index);
    part.runs = runs;
    part_head(&part, e, o, c);
    Ticker tick = {0, part.n, isatty(2)};
    if (pl_runs_execute(runs, part.n, c, threads, on_progress, NULL, &tick, save ? &first : NULL, &err)) {
        fprintf(stderr, "padlab experiment: %s\n", err.msg);
        rc = 1;
    }
    Corpus tables = {c->source, part.chance, pl_corpus_longest(c)};
    if (!rc && !shards) rc = report(e, &tables, o, runs, n, fmt);
    if (!rc && (shards || cli_flag(a, "out"))) rc = write_part(a, &part);
    if (!rc && save && pl_model_save(first, save, &err)) {
        fprintf(stderr, "padlab experiment: %s\n", err.msg);
        rc = 1;
    }
    pl_model_free(first);
    free(part.index);
    return rc;
}

static int run_plan(const CliArgs *a) {
    if (a->npos != 1) return cli_usage_error(a, "expected one experiment name (see padlab experiment --help)");
    const PlExperiment *e = pl_experiment_find(a->pos[0]);
    if (!e) return cli_usage_error(a, "unknown experiment '%s' (see padlab experiment --help)", a->pos[0]);
    PlSeed seeds[MAX_SEEDS];
    PlExperimentOpts o = {0, 0, seeds, 0};
    OutFormat fmt;
    int threads, shard, shards, nmax;
    if (cli_int(a, "epochs", PL_DEFAULT_EPOCHS, 1, PL_MAX_EPOCHS, &o.epochs) ||
        cli_maxlen_list(a, CLI_DEF_MAXLEN, 2, 100000, NULL, &o.maxlen, 1, &nmax) || read_seeds(a, seeds, &o.n_seeds) ||
        cli_format(a, &fmt) || cli_int(a, "threads", 2, 1, 16, &threads) || read_shard(a, &shard, &shards))
        return 2;
    if (shards && cli_flag(a, "format"))
        return cli_usage_error(a, "--shard writes a part file, not tables: --format is for --merge");
    static const char *const outputs[] = {"save-model", "out", NULL};
    if (cli_outputs_regular(a, outputs)) return 2;
    if (shard && cli_flag(a, "save-model"))
        return cli_usage_error(a, "--save-model keeps the plan's first run, which shard 0/%d trains", shards);
    PlCorpus *c;
    int rc = cli_load_corpus(a, &c);
    if (rc) return rc;
    o.maxlen = pl_maxlen_of(o.maxlen, pl_corpus_longest(c)); /* none: as wide as the longest review */
    PlRun *runs;
    int n;
    PlErr err;
    if (pl_experiment_plan(e, &o, c, &runs, &n, &err) == PL_OK) {
        rc = train(a, e, &o, fmt, threads, shard, shards, c, runs, n);
        free(runs);
    } else {
        fprintf(stderr, "padlab experiment: %s\n", err.msg);
        rc = 2;
    }
    pl_corpus_free(c);
    return rc;
}

/* --merge PART...: the tables of the whole experiment from its parts. */
static int merge(const CliArgs *a) {
    static const char *const trains[] = {"corpus", "num-words", "epochs",     "seeds", "seed",
                                         "maxlen", "threads",   "save-model", "shard", "out"};
    OutFormat fmt;
    for (size_t i = 0; i < sizeof trains / sizeof *trains; i++)
        if (cli_flag(a, trains[i]))
            return cli_usage_error(a, "--merge takes its settings from the parts: --%s is not for it", trains[i]);
    if (a->npos < 1) return cli_usage_error(a, "--merge expects the part files (PART.json...)");
    if (cli_format(a, &fmt)) return 2;
    PlPart *parts = calloc((size_t)a->npos, sizeof *parts), whole;
    if (!parts) return cli_no_memory(a, "reading the parts");
    PlErr err;
    PlRun *runs = NULL;
    int n = 0, rc = 0;
    for (int i = 0; !rc && i < a->npos; i++)
        if (pl_part_load(a->pos[i], &parts[i], &err)) rc = 2;
    if (!rc && pl_part_merge(parts, a->pos, a->npos, PACKAGE_VERSION, &whole, &runs, &n, &err)) rc = 2;
    if (rc) fprintf(stderr, "padlab experiment: %s\n", err.msg);
    if (!rc) {
        PlExperimentOpts o = pl_part_opts(&whole);
        Corpus tables = {whole.corpus, whole.chance, 0};
        rc = report(pl_experiment_find(whole.experiment), &tables, &o, runs, n, fmt);
    }
    for (int i = 0; i < a->npos; i++) pl_part_done(&parts[i]);
    free(parts);
    free(runs);
    return rc;
}

static int run(const CliArgs *a) { return cli_flag(a, "merge") ? merge(a) : run_plan(a); }

static const CliOpt opts[] = {
    CLI_OPT_CORPUS,
    {"epochs", "N", "epochs per run (default " CLI_DEF_EPOCHS ")"},
    {"seeds", "K", "run every setup with seeds 0..K-1 (default 1)"},
    {"seed", "S", "run every setup with seed S only"},
    {"maxlen", "N|none", "maxlen of the runs, none for the longest review (default " CLI_DEF_MAXLEN
                         "; the maxlen experiment sweeps its own)"},
    {"threads", "N", "runs trained at once (default 2)"},
    {"save-model", "FILE", "save the trained model of the first run"},
    {"shard", "I/N", "train only the runs k with k mod N = I (I from 0) and write them as a part file"},
    {"out", "FILE", "write the part file to FILE (default with --shard: stdout)"},
    {"merge", NULL, "print the whole experiment from its part files, as one machine would"},
    CLI_OPT_FORMAT,
    {NULL, NULL, NULL},
};

const CliCommand cli_cmd_experiment = {
    .name = "experiment",
    .summary = "train a grid of settings over seeds and compare them",
    .usage = "NAME [--corpus SRC] [--epochs " CLI_DEF_EPOCHS "] [--seeds K | --seed S] [--maxlen N|none]\n"
             "                         [--format table|csv|json] [--save-model FILE] [--shard I/N] [--out FILE]\n"
             "       padlab experiment --merge PART.json... [--format table|csv|json]",
    .details = "NAME is one of:\n"
               "  padding     Embedding(10000,32) -> SimpleRNN(32) -> Dense(1): padding pre/post x mask off/on\n"
               "  pooling     Embedding -> global average pooling -> Dense(1): unmasked, masked, divide-by-T\n"
               "  cells       SimpleRNN vs GRU vs LSTM, post padding, mask off/on\n"
               "  maxlen      accuracy and time at maxlen 50, 100, 200, 400 (pooling and RNN, masked)\n"
               "  batching    a masked SimpleRNN on static, dynamic, tf_bucket and packed batches\n"
               "  truncation  truncating pre vs post vs overlapping windows (pooling and RNN)\n"
               "  loss        next-token prediction (64 classes) with the loss per real token, per\n"
               "              sequence or over batch x T, and with the pad targets left in\n"
               "Keras fit semantics: batch " CLI_DEF_BATCH ", the last 20% of the corpus validates, training\n"
               "order reshuffled every epoch from the seed, Adam(1e-3). Each run reports its\n"
               "best validation accuracy; the summary gives median, mean and spread per setup.\n"
               "CSV prints the summary table.\n"
               "Too many runs for one machine: train the plan in N shards, anywhere (--shard I/N,\n"
               "I = 0..N-1: run k is shard k mod N's), each writing a part file; --merge checks that\n"
               "the parts are of one experiment, corpus, padlab and arithmetic and cover every shard\n"
               "once, and prints the tables one machine would have (timings as the shards took).",
    .opts = opts,
    .settings = CLI_CORPUS,
    .max_pos = CLI_MAX_POS,
    .run = run,
};
