/* The trainer's buffers: every batching strategy at every maxlen trains
 * without writing past a buffer, with the work its plan implies; a model or
 * batches too large to allocate fail with PL_ENOMEM and a message, not a
 * crash. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/corpus_load.h"
#include "core/model.h"
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

Suite *train_suite(void) {
    Suite *s = suite_create("train");
    TCase *tc = tcase_create("batches");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_every_strategy_trains_at_every_maxlen);
    suite_add_tcase(s, tc);
    tc = tcase_create("memory");
    tcase_add_test(tc, test_a_model_too_large_to_allocate_fails_cleanly);
    tcase_add_test(tc, test_batches_too_large_to_allocate_fail_cleanly);
    suite_add_tcase(s, tc);
    return s;
}
