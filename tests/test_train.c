/* The trainer's buffers: every batching strategy at every maxlen trains
 * without writing past a buffer, with the work its plan implies; a model or
 * batches too large to allocate fail with PL_ENOMEM and a message, not a
 * crash. */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/chance.h"
#include "core/corpus_load.h"
#include "core/model.h"
#include "core/probe.h"
#include "core/rng.h"
#include "core/tensor.h"
#include "core/train.h"
#include "suites.h"

/* builtin:1:80 with validation 0.2: the first 64 reviews train, the last 16
 * validate; batch size 32. */
enum { N_REVIEWS = 80, N_TRAIN = 64, BS = 32 }; /* N_TRAIN = 2 BS: two batches of 32 */

static const int maxlens[] = {1, 7, 100, 150, 250, 1000};

static int round8(int x) { return (x + 7) / 8 * 8; }

static int by_desc(const void *a, const void *b) { return *(const int *)b - *(const int *)a; }

/* The cells one epoch must compute under strategy k at maxlen W, worked out
 * from the strategies' definitions (plan.h) over the training reviews' kept
 * lengths: lo <= steps <= hi, lo == hi where the shuffled order cannot
 * matter. */
typedef struct {
    int64_t lo, hi;
    int64_t real; /* real tokens: the kept lengths' sum, whatever the order */
} Expect;

static Expect expect_steps(const int *len, PlBatching k, int W) {
    int kept[N_TRAIN]; /* sorted longest first */
    int64_t real = 0;
    for (int i = 0; i < N_TRAIN; i++) {
        kept[i] = len[i] < W ? len[i] : W;
        real += kept[i];
    }
    qsort(kept, N_TRAIN, sizeof *kept, by_desc);
    /* The trainer's tf_bucket and bucket_longest boundaries: maxlen's quarters,
     * none below maxlen 4; bucket j holds lengths at or above j boundaries. */
    int bounds[3] = {W / 4, W / 2, 3 * W / 4}, nb = W >= 4 ? 3 : 0;
    int64_t bucket_n[4] = {0}, bucket_max[4] = {0}, bucket_real[4] = {0};
    for (int i = 0; i < N_TRAIN; i++) {
        int j = 0;
        while (j < nb && kept[i] >= bounds[j]) j++;
        bucket_n[j]++;
        bucket_real[j] += kept[i];
        bucket_max[j] = kept[i] > bucket_max[j] ? kept[i] : bucket_max[j];
    }
    int multiple = k == PL_BATCH_MULTIPLE;
    Expect e = {0, 0, real};
    switch (k) {
    case PL_BATCH_LONGEST: e.lo = e.hi = (int64_t)N_TRAIN * kept[0]; break;
    case PL_BATCH_STATIC: e.lo = e.hi = (int64_t)N_TRAIN * W; break;
    case PL_BATCH_PACKED: e.lo = e.hi = real; break; /* packed counts real tokens */
    case PL_BATCH_DYNAMIC:
    case PL_BATCH_MULTIPLE:
        /* Two batches of 32 in shuffled order. The one holding the longest row
         * is that wide; the other's widest row is at most the second longest
         * and at least the 33rd (any 32 rows reach it). */
        e.lo = (int64_t)BS * (multiple ? round8(kept[0]) : kept[0]) +
               (int64_t)BS * (multiple ? round8(kept[BS]) : kept[BS]);
        e.hi =
            (int64_t)BS * (multiple ? round8(kept[0]) : kept[0]) + (int64_t)BS * (multiple ? round8(kept[1]) : kept[1]);
        break;
    case PL_BATCH_GROUPED:
        /* The default window (50 batches) holds all 64 rows: sorted longest
         * first, then cut in two; each batch is as wide as its first row. */
        e.lo = e.hi = (int64_t)BS * kept[0] + (int64_t)(N_TRAIN - BS) * kept[BS];
        break;
    case PL_BATCH_BUCKET_LONGEST: /* every batch of a bucket as wide as the bucket's longest */
        for (int j = 0; j < 4; j++) e.lo += bucket_n[j] * bucket_max[j];
        e.hi = e.lo;
        break;
    case PL_BATCH_TF_BUCKET:
        /* A bucket of at most 32 rows is one batch, flushed at the end. In a
         * fuller one each row is padded at least to its own length and at most
         * to the bucket's longest. */
        for (int j = 0; j < 4; j++) {
            e.lo += bucket_n[j] <= BS ? bucket_n[j] * bucket_max[j] : bucket_real[j];
            e.hi += bucket_n[j] * bucket_max[j];
        }
        break;
    default: ck_abort_msg("no expectation for strategy %d", (int)k);
    }
    return e;
}

static void check_run(const PlCorpus *c, const int *len, PlBatching k, int W, int token_task) {
    PlTrainConfig cfg = pl_train_config_default(PL_ARCH_RNN);
    cfg.epochs = 1;
    cfg.maxlen = W;
    cfg.batching = k;
    if (token_task) {
        cfg.token_task = 1;
        cfg.model.classes = 8;
    }
    const char *what = token_task ? "token task" : "classifier";
    PlTrainResult res;
    PlErr err = {{0}};
    PlStatus st = pl_train(c, &cfg, NULL, NULL, NULL, &res, NULL, &err);
    if (token_task && k == PL_BATCH_PACKED) {
        /* By design: packed rows have no positions for a per-token head. */
        ck_assert_msg(st == PL_ERANGE, "%s %s maxlen %d: status %d", what, pl_batching_name(k), W, (int)st);
        ck_assert_msg(strstr(err.msg, "token task") && strstr(err.msg, "packed batching"), "message: %s", err.msg);
        return;
    }
    ck_assert_msg(st == PL_OK, "%s %s maxlen %d: %s", what, pl_batching_name(k), W, err.msg);
    ck_assert_int_eq(res.epochs_done, 1);
    ck_assert_int_eq(res.n_train, N_TRAIN);
    ck_assert_int_eq(res.n_val, N_REVIEWS - N_TRAIN);
    ck_assert_msg(isfinite(res.train_loss[0]) && isfinite(res.val_loss[0]), "%s %s maxlen %d: loss %g, val %g", what,
                  pl_batching_name(k), W, (double)res.train_loss[0], (double)res.val_loss[0]);
    Expect e = expect_steps(len, k, W);
    ck_assert_msg(res.real_tokens == e.real, "%s %s maxlen %d: %lld real tokens, expected %lld", what,
                  pl_batching_name(k), W, (long long)res.real_tokens, (long long)e.real);
    ck_assert_msg(res.steps >= e.lo && res.steps <= e.hi, "%s %s maxlen %d: %lld steps, expected %lld to %lld", what,
                  pl_batching_name(k), W, (long long)res.steps, (long long)e.lo, (long long)e.hi);
    if (k == PL_BATCH_MULTIPLE)
        ck_assert_msg(res.steps % 8 == 0, "multiple_of_8 maxlen %d: %lld steps", W, (long long)res.steps);
}

START_TEST(test_every_strategy_trains_at_every_maxlen) {
    PlCorpus *c;
    PlErr err;
    ck_assert_msg(pl_corpus_load("builtin:1:80", NULL, &c, &err) == PL_OK, "%s", err.msg);
    ck_assert_int_eq(c->n, N_REVIEWS);
    int len[N_REVIEWS], shortest = INT32_MAX, longest = 0;
    pl_corpus_lengths(c, len);
    for (int i = 0; i < N_TRAIN; i++) {
        shortest = len[i] < shortest ? len[i] : shortest;
        longest = len[i] > longest ? len[i] : longest;
    }
    /* The maxlens cut every review (1, 7: the order-dependent strategies then
     * have one answer, and multiple_of_8 rounds 7 up past maxlen), some
     * reviews (100 to 250) and none (1000). */
    ck_assert_msg(shortest > 7 && shortest < 100, "shortest training review %d", shortest);
    ck_assert_msg(longest > 250 && longest < 1000, "longest training review %d", longest);
    for (int k = 0; k < PL_BATCH_COUNT; k++)
        for (size_t w = 0; w < sizeof maxlens / sizeof maxlens[0]; w++) {
            check_run(c, len, (PlBatching)k, maxlens[w], 0);
            check_run(c, len, (PlBatching)k, maxlens[w], 1);
        }
    pl_corpus_free(c);
}
END_TEST

/* Bytes of address space this process has mapped now (Linux). */
static rlim_t mapped_bytes(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    ck_assert_ptr_nonnull(f);
    unsigned long pages = 0;
    ck_assert_int_eq(fscanf(f, "%lu", &pages), 1);
    fclose(f);
    return (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE);
}

/* Lets this process (Check forks one per test) map only 256 MiB more than it
 * has now; *old gets the limit to restore. Sizes the core accepts are ones a
 * big machine can allocate, so this is what makes them impossible. */
static void cap_address_space(struct rlimit *old) {
    ck_assert_int_eq(getrlimit(RLIMIT_AS, old), 0);
    struct rlimit cap = *old;
    cap.rlim_cur = mapped_bytes() + ((rlim_t)256 << 20);
    if (cap.rlim_max != RLIM_INFINITY && cap.rlim_cur > cap.rlim_max) cap.rlim_cur = cap.rlim_max;
    ck_assert_int_eq(setrlimit(RLIMIT_AS, &cap), 0);
}

START_TEST(test_a_model_too_large_to_allocate_fails_cleanly) {
    /* Within pl_model_new's limits (an embedding of at most 2^27 floats), but
     * each of the four parameter arrays needs 512 MB. */
    PlModelConfig mc = pl_model_config_default(PL_ARCH_RNN);
    mc.vocab = 1000000;
    mc.embed = 128;
    /* Embedding V*E, kernel E*H, recurrent H*H, bias H, dense H*1 + 1. */
    size_t nparams = (size_t)1000000 * 128 + 128 * 32 + 32 * 32 + 32 + 32 + 1;
    ck_assert_uint_eq(nparams, 128005185);
    struct rlimit old;
    cap_address_space(&old);
    PlModel *m = NULL;
    PlErr err = {{0}};
    PlStatus st = pl_model_new(&mc, 1, &m, &err);
    ck_assert_int_eq(setrlimit(RLIMIT_AS, &old), 0); /* before anything else allocates */
    ck_assert_int_eq(st, PL_ENOMEM);
    ck_assert_ptr_null(m);
    char want[128];
    snprintf(want, sizeof want, "out of memory while allocating %zu parameters", nparams);
    ck_assert_str_eq(err.msg, want);
}
END_TEST

START_TEST(test_batches_too_large_to_allocate_fail_cleanly) {
    /* The token task at maxlen 1000 with 65536 classes: static batches of
     * 32 x 1000 cells, whose dlogits need 32000 x 65536 floats (8.4 GB); the
     * model itself needs about 40 MB. */
    PlCorpus *c;
    PlErr err = {{0}};
    ck_assert_int_eq(pl_corpus_load("builtin:1:80", NULL, &c, &err), PL_OK);
    PlTrainConfig cfg = pl_train_config_default(PL_ARCH_RNN);
    cfg.epochs = 1;
    cfg.maxlen = 1000;
    cfg.token_task = 1;
    cfg.model.classes = 65536;
    PlTrainResult res;
    PlModel *m = NULL;
    struct rlimit old;
    cap_address_space(&old);
    PlStatus st = pl_train(c, &cfg, NULL, NULL, NULL, &res, &m, &err);
    ck_assert_int_eq(setrlimit(RLIMIT_AS, &old), 0);
    ck_assert_int_eq(st, PL_ENOMEM);
    ck_assert_ptr_null(m);
    ck_assert_str_eq(err.msg, "out of memory for batches of 32 rows and 32000 cells");
    ck_assert_int_eq(res.epochs_done, 0);
    ck_assert_int_eq(res.steps, 0);
    pl_corpus_free(c);
}
END_TEST

/* ---- chance: the validation split's majority share ---- */

START_TEST(test_chance_is_the_validation_splits_majority_share) {
    /* Ten rows: floor(10 x 0.8) = 8 train, rows 8 and 9 validate. Both are
     * negative, though the corpus is 80% positive: chance is read on the
     * split, 2 of 2 negative. */
    PlCorpus *c;
    ck_assert_int_eq(pl_corpus_load("inline:+ a|+ a|+ a|+ a|+ a|+ a|+ a|+ a|- a|- a", NULL, &c, NULL), PL_OK);
    PlChance ch = pl_chance_of(c, 0.2);
    ck_assert_int_eq(ch.n_val, 2);
    ck_assert_int_eq(ch.label, 0);
    ck_assert_int_eq(ch.count, 2);
    ck_assert(ch.share == 1.0 && ch.noise == 0.0);
    pl_corpus_free(c);
    /* A tie in the split: label 1, share one half. */
    ck_assert_int_eq(pl_corpus_load("inline:+ a|+ a|+ a|+ a|+ a|+ a|+ a|+ a|- a|+ a", NULL, &c, NULL), PL_OK);
    ch = pl_chance_of(c, 0.2);
    ck_assert(ch.label == 1 && ch.count == 1 && ch.share == 0.5);
    /* 3 x sqrt(0.5 x 0.5 / 2) = 1.0607 */
    ck_assert_double_eq_tol(ch.noise, 1.0606602, 1e-6);
    pl_corpus_free(c);
}
END_TEST

START_TEST(test_an_accuracy_within_noise_of_chance_is_at_chance) {
    /* 140 of 200 validation reviews positive: share 0.7, noise
     * 3 x sqrt(0.7 x 0.3 / 200) = 0.097211. */
    PlChance ch = {200, 1, 140, 0.7, 3.0 * sqrt(0.7 * 0.3 / 200.0)};
    ck_assert_double_eq_tol(ch.noise, 0.097211, 1e-6);
    ck_assert_int_eq(pl_chance_verdict(&ch, 0.700), PL_AT_CHANCE);
    ck_assert_int_eq(pl_chance_verdict(&ch, 0.797), PL_AT_CHANCE);
    ck_assert_int_eq(pl_chance_verdict(&ch, 0.798), PL_ABOVE_CHANCE);
    ck_assert_int_eq(pl_chance_verdict(&ch, 0.603), PL_AT_CHANCE);
    ck_assert_int_eq(pl_chance_verdict(&ch, 0.602), PL_BELOW_CHANCE);
    ck_assert_str_eq(pl_chance_verdict_name(PL_AT_CHANCE), "at chance");
}
END_TEST

START_TEST(test_a_generated_70_30_corpus_has_its_chance_at_70) {
    /* builtin:0:5000:70 draws each label positive with probability 0.7; its
     * last 1000 reviews, counted here one by one, are the split. */
    PlCorpus *c;
    ck_assert_int_eq(pl_corpus_load("builtin:0:5000:70", NULL, &c, NULL), PL_OK);
    int pos = 0, all = 0;
    for (int i = 4000; i < 5000; i++) pos += c->labels[i];
    for (int i = 0; i < 5000; i++) all += c->labels[i];
    PlChance ch = pl_chance_of(c, PL_VAL_SPLIT);
    ck_assert_int_eq(ch.n_val, 1000);
    ck_assert_int_eq(ch.label, 1);
    ck_assert_int_eq(ch.count, pos);
    ck_assert(all > 3400 && all < 3600); /* 3500 +- 3.5 standard deviations (32.4) */
    ck_assert(fabs(ch.share - 0.7) < 0.05);
    ck_assert_str_eq(c->source, "builtin:0:5000:70");
    pl_corpus_free(c);
    /* The balanced default keeps its labels: builtin:0:5000:50 is builtin. */
    PlCorpus *a, *b;
    ck_assert_int_eq(pl_corpus_load("builtin", NULL, &a, NULL), PL_OK);
    ck_assert_int_eq(pl_corpus_load("builtin:0:5000:50", NULL, &b, NULL), PL_OK);
    ck_assert_mem_eq(a->labels, b->labels, 5000);
    pl_corpus_free(a), pl_corpus_free(b);
    PlErr err;
    ck_assert_int_eq(pl_corpus_load("builtin:0:100:100", NULL, &c, &err), PL_EINPUT);
    ck_assert_int_eq(pl_corpus_load("builtin:0:100:70:1", NULL, &c, &err), PL_EINPUT);
}
END_TEST

START_TEST(test_the_trainer_validates_on_the_split_chance_reads) {
    PlCorpus *c;
    ck_assert_int_eq(pl_corpus_load("builtin:1:123", NULL, &c, NULL), PL_OK);
    PlTrainConfig cfg = pl_train_config_default(PL_ARCH_AVGPOOL);
    cfg.epochs = 1;
    cfg.maxlen = 20;
    PlTrainResult res;
    ck_assert_int_eq(pl_train(c, &cfg, NULL, NULL, NULL, &res, NULL, NULL), PL_OK);
    ck_assert_int_eq(res.n_val, 25); /* 123 - floor(98.4) */
    ck_assert_int_eq(pl_chance_of(c, cfg.val_split).n_val, res.n_val);
    pl_corpus_free(c);
}
END_TEST

/* ---- the same seed, the same bits, whatever runs beside it ---- */

typedef struct {
    const PlCorpus *c;
    PlTrainConfig cfg;
    PlTrainResult res;
    PlStatus st;
} Beside;

static void *train_beside(void *arg) {
    Beside *b = arg;
    b->st = pl_train(b->c, &b->cfg, NULL, NULL, NULL, &b->res, NULL, NULL);
    return NULL;
}

/* Runs every probe that multiplies matrices, over and over, until *stop. */
typedef struct {
    const PlCorpus *c;
    volatile int stop;
    int rounds;
} Probing;

static void *probe_beside(void *arg) {
    Probing *p = arg;
    PlProbeOpts o = pl_probe_opts_default();
    o.maxlen = 200;
    while (!p->stop) {
        PlProbeAttention a;
        PlProbeLayers l;
        PlProbeRnn r;
        ck_assert_int_eq(pl_probe_attention(p->c, &o, NULL, 2, 16, 0, &a, NULL), PL_OK);
        pl_probe_attention_free(&a);
        ck_assert_int_eq(pl_probe_layers(p->c, &o, NULL, &l, NULL), PL_OK);
        pl_probe_layers_free(&l);
        ck_assert_int_eq(pl_probe_rnn(p->c, &o, NULL, PL_ARCH_GRU, 0, &r, NULL), PL_OK);
        pl_probe_rnn_free(&r);
        p->rounds++;
    }
    return NULL;
}

static PlTrainConfig beside_config(PlArch arch, PlSide padding, int mask, PlSeed seed) {
    PlTrainConfig cfg = pl_train_config_default(arch);
    cfg.epochs = 2;
    cfg.maxlen = 200;
    cfg.padding = padding;
    cfg.seed = seed;
    cfg.model.mask = mask ? PL_SEQ_KERAS : PL_SEQ_NONE;
    return cfg;
}

static void assert_same_bits(const PlTrainResult *a, const PlTrainResult *b) {
    ck_assert_int_eq(a->epochs_done, b->epochs_done);
    ck_assert_mem_eq(a->val_acc, b->val_acc, sizeof a->val_acc);
    ck_assert_mem_eq(a->train_loss, b->train_loss, sizeof a->train_loss);
    ck_assert_mem_eq(a->val_loss, b->val_loss, sizeof a->val_loss);
    ck_assert_mem_eq(&a->best_val_acc, &b->best_val_acc, sizeof a->best_val_acc);
}

/* Products large enough that OpenBLAS packs them through its work buffers
 * (past any small-matrix path): each thread's own operands, many times. */
enum { GEMM_N = 192, GEMM_REPEAT = 400, GEMM_THREADS = 4 };

typedef struct {
    float *a, *b, *c, *want;
    int mismatches;
} Product;

static void *multiply_often(void *arg) {
    Product *p = arg;
    for (int k = 0; k < GEMM_REPEAT; k++) {
        pl_gemm(0, 0, GEMM_N, GEMM_N, GEMM_N, 1.0f, p->a, GEMM_N, p->b, GEMM_N, 0.0f, p->c, GEMM_N);
        p->mismatches += memcmp(p->c, p->want, sizeof(float) * GEMM_N * GEMM_N) != 0;
    }
    return NULL;
}

START_TEST(test_products_side_by_side_give_the_bits_of_one_alone) {
    ck_assert_int_eq(pl_blas_init(NULL), PL_OK);
    size_t nn = (size_t)GEMM_N * GEMM_N;
    Product p[GEMM_THREADS];
    PlRng rng;
    pl_rng_seed(&rng, 11);
    for (int t = 0; t < GEMM_THREADS; t++) {
        p[t].a = malloc(nn * sizeof(float)), p[t].b = malloc(nn * sizeof(float));
        p[t].c = malloc(nn * sizeof(float)), p[t].want = malloc(nn * sizeof(float));
        p[t].mismatches = 0;
        pl_init_uniform(p[t].a, nn, -1.0f, 1.0f, &rng);
        pl_init_uniform(p[t].b, nn, -1.0f, 1.0f, &rng);
        pl_gemm(0, 0, GEMM_N, GEMM_N, GEMM_N, 1.0f, p[t].a, GEMM_N, p[t].b, GEMM_N, 0.0f, p[t].want, GEMM_N);
    }
    pthread_t th[GEMM_THREADS];
    for (int t = 0; t < GEMM_THREADS; t++) ck_assert_int_eq(pthread_create(&th[t], NULL, multiply_often, &p[t]), 0);
    for (int t = 0; t < GEMM_THREADS; t++) pthread_join(th[t], NULL);
    for (int t = 0; t < GEMM_THREADS; t++) {
        ck_assert_msg(p[t].mismatches == 0, "thread %d: %d of %d products differ from the one computed alone", t,
                      p[t].mismatches, GEMM_REPEAT);
        free(p[t].a), free(p[t].b), free(p[t].c), free(p[t].want);
    }
}
END_TEST

START_TEST(test_a_run_beside_three_others_and_the_probes_gives_the_same_bits) {
    PlCorpus *c;
    ck_assert_int_eq(pl_corpus_load("builtin:2:3000", NULL, &c, NULL), PL_OK);
    Beside alone = {c, beside_config(PL_ARCH_GRU, PL_POST, 1, 7), {0}, PL_OK};
    train_beside(&alone);
    ck_assert_int_eq(alone.st, PL_OK);
    for (int round = 0; round < 5; round++) {
        Beside b[4] = {{c, alone.cfg, {0}, PL_OK},
                       {c, beside_config(PL_ARCH_LSTM, PL_PRE, 0, 1), {0}, PL_OK},
                       {c, beside_config(PL_ARCH_GRU, PL_PRE, 1, 2), {0}, PL_OK},
                       {c, beside_config(PL_ARCH_GRU, PL_POST, 1, 7), {0}, PL_OK}};
        Probing pr = {c, 0, 0};
        pthread_t th[5];
        ck_assert_int_eq(pthread_create(&th[4], NULL, probe_beside, &pr), 0);
        for (int i = 0; i < 4; i++) ck_assert_int_eq(pthread_create(&th[i], NULL, train_beside, &b[i]), 0);
        for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);
        pr.stop = 1;
        pthread_join(th[4], NULL);
        for (int i = 0; i < 4; i++) ck_assert_int_eq(b[i].st, PL_OK);
        assert_same_bits(&alone.res, &b[0].res);
        assert_same_bits(&alone.res, &b[3].res);
    }
    pl_corpus_free(c);
}
END_TEST

/* Attention at maxlen none on imdb5k (2474 wide), batch 32, 2 heads of 16
 * over E = 32: the model holds each head's T x T weights for the backward,
 * 32 x 2 x 2474^2 floats, beside per cell x, dx, y, dy (E each), q, k, v, o
 * and the 4 x HD scratch (HD = 32 each), one more T x T of scratch, the
 * features and their gradient (B x E each), B logits, and per cell an id, two
 * mask bytes and an argmax: 1.69 GB, what the process's resident size showed
 * (1.71 GB). Refused against 1.5 GB in one line; the tutorial's model fits. */
START_TEST(test_a_training_that_cannot_fit_is_refused_before_it_starts) {
    PlTrainConfig big = pl_train_config_default(PL_ARCH_ATTENTION);
    big.maxlen = 2474, big.batch_size = 32;
    ck_assert_int_eq(big.model.heads, 2);
    ck_assert_int_eq(big.model.dhead, 16);
    ck_assert_int_eq(big.model.embed, 32);
    uint64_t B = 32, T = 2474, cells = B * T;
    uint64_t floats = cells * (4 * 32 + 4 * 32 + 4 * 32) + B * 2 * T * T + T * T + 2 * B * 32 + B;
    uint64_t acts = floats * 4 + cells * (4 + 2 + 4);
    ck_assert_uint_eq(pl_model_batch_bytes(&big.model, 32, 2474), acts);
    size_t nparams;
    PlErr err;
    PlModelConfig m = big.model;
    m.vocab = 10000;
    ck_assert_int_eq(pl_model_config_check(&m, &nparams, &err), PL_OK);
    ck_assert_uint_eq(pl_train_memory_estimate(&big, 10000), nparams * 16 + acts + cells * 5);
    ck_assert_int_eq(pl_train_memory_check(&big, 10000, 1, 1500000000ull, &err), PL_ENOMEM);
    ck_assert_msg(strstr(err.msg, "attention at maxlen 2474, batch 32 needs about 1.7 GB to train (1 at once); "
                                  "1.5 GB are available") != NULL,
                  "%s", err.msg);
    ck_assert_int_eq(pl_train_memory_check(&big, 10000, 1, 0, &err), PL_OK); /* not known: no check */
    PlTrainConfig tutorial = pl_train_config_default(PL_ARCH_RNN);
    ck_assert_uint_lt(pl_train_memory_estimate(&tutorial, 10000), 20000000ull);
    ck_assert_int_eq(pl_train_memory_check(&tutorial, 10000, 2, 1000000000ull, &err), PL_OK);
}
END_TEST

/* A run of config cfg on c: its result, and the digest pl_train_batches
 * works out without training, which must be the run's. */
static uint64_t digest_of_run(const PlCorpus *c, const PlTrainConfig *cfg, PlTrainResult *res) {
    PlErr err;
    uint64_t planned = 0;
    ck_assert_msg(pl_train(c, cfg, NULL, NULL, NULL, res, NULL, &err) == PL_OK, "%s", err.msg);
    ck_assert_msg(pl_train_batches(c, cfg, &planned, &err) == PL_OK, "%s", err.msg);
    ck_assert_msg(planned == res->batches, "planned %llx, trained %llx", (unsigned long long)planned,
                  (unsigned long long)res->batches);
    ck_assert(res->batches != 0);
    return planned;
}

/* Static and dynamic batches at a maxlen no review is shorter than are the
 * same batches (each dynamic batch holds a row cut to maxlen, so it is as
 * wide as a static one): the runs are the same runs, to the bit, and their
 * digests agree. Wider than the longest review, or another seed, or the
 * rows packed, and the digest tells them apart. */
START_TEST(test_runs_that_see_the_same_batches_share_their_digest) {
    PlCorpus *c;
    PlErr err;
    ck_assert_int_eq(pl_corpus_load("builtin:1:80", NULL, &c, &err), PL_OK);
    int shortest = INT32_MAX;
    for (int i = 0; i < c->n; i++) shortest = pl_corpus_len(c, i) < shortest ? pl_corpus_len(c, i) : shortest;
    ck_assert_int_gt(shortest, 2);
    PlTrainConfig st = pl_train_config_default(PL_ARCH_AVGPOOL);
    st.epochs = 2, st.maxlen = shortest, st.batch_size = BS, st.seed = 3;
    st.model.mask = PL_SEQ_KERAS, st.model.pool = PL_POOL_MASKED;
    PlTrainConfig dy = st;
    dy.batching = PL_BATCH_DYNAMIC;
    st.batching = PL_BATCH_STATIC;
    PlTrainResult a, b;
    ck_assert(digest_of_run(c, &st, &a) == digest_of_run(c, &dy, &b));
    assert_same_bits(&a, &b);

    PlTrainConfig wide_st = st, wide_dy = dy, other_seed = st, packed = st;
    wide_st.maxlen = wide_dy.maxlen = pl_corpus_longest(c) + 10;
    other_seed.seed = 4;
    packed.batching = PL_BATCH_PACKED;
    uint64_t ws = digest_of_run(c, &wide_st, &a), wd = digest_of_run(c, &wide_dy, &b);
    ck_assert(ws != wd);
    ck_assert(digest_of_run(c, &other_seed, &a) != digest_of_run(c, &st, &b));
    ck_assert(digest_of_run(c, &packed, &a) != digest_of_run(c, &st, &b));
    pl_corpus_free(c);
}
END_TEST

Suite *train_suite(void) {
    Suite *s = suite_create("train");
    TCase *tc = tcase_create("batches");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_every_strategy_trains_at_every_maxlen);
    suite_add_tcase(s, tc);
    tc = tcase_create("chance");
    tcase_add_test(tc, test_chance_is_the_validation_splits_majority_share);
    tcase_add_test(tc, test_an_accuracy_within_noise_of_chance_is_at_chance);
    tcase_add_test(tc, test_a_generated_70_30_corpus_has_its_chance_at_70);
    tcase_add_test(tc, test_the_trainer_validates_on_the_split_chance_reads);
    suite_add_tcase(s, tc);
    tc = tcase_create("same bits");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_products_side_by_side_give_the_bits_of_one_alone);
    tcase_add_test(tc, test_a_run_beside_three_others_and_the_probes_gives_the_same_bits);
    tcase_add_test(tc, test_runs_that_see_the_same_batches_share_their_digest);
    suite_add_tcase(s, tc);
    tc = tcase_create("memory");
    tcase_add_test(tc, test_a_model_too_large_to_allocate_fails_cleanly);
    tcase_add_test(tc, test_batches_too_large_to_allocate_fail_cleanly);
    tcase_add_test(tc, test_a_training_that_cannot_fit_is_refused_before_it_starts);
    suite_add_tcase(s, tc);
    return s;
}
