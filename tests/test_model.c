/* Models and training: the pre/mask = post/mask identity, packing, Keras's
 * initialisers and Adam, determinism, saving, and a short training run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/corpus_load.h"
#include "core/loss.h"
#include "core/model.h"
#include "core/optim.h"
#include "core/tensor.h"
#include "core/train.h"
#include "suites.h"

/* Three sequences of lengths 6, 3 and 1 over ids < 50, padded to T = 8 at
 * the given side. */
static void make_batch(int32_t *ids, uint8_t *mask, PlSide side) {
    static const int32_t seqs[3][6] = {{1, 7, 9, 12, 40, 3}, {1, 22, 5}, {1}};
    static const int lens[3] = {6, 3, 1};
    PlPadOpts o = {8, side, PL_PRE, 0};
    for (int b = 0; b < 3; b++) pl_pad_row(ids + b * 8, mask + b * 8, seqs[b], lens[b], 8, &o);
}

static PlModel *small_model(PlArch arch, PlSeqMask mask, uint64_t seed) {
    PlModelConfig c = pl_model_config_default(arch);
    c.vocab = 50;
    c.embed = 6;
    c.hidden = 5;
    c.mask = mask;
    c.pool = PL_POOL_MASKED;
    c.heads = 2;
    c.dhead = 3;
    PlModel *m;
    ck_assert_int_eq(pl_model_new(&c, seed, &m, NULL), PL_OK);
    return m;
}

/* Runs forward and backward (loss: BCE against labels 1 0 1); copies out the
 * logits and the gradients. */
static void forward_backward(PlModel *m, PlSide side, float *logits, float *grads) {
    int32_t ids[24];
    uint8_t mask[24], y[3] = {1, 0, 1};
    make_batch(ids, mask, side);
    ck_assert_int_eq(pl_model_forward(m, ids, mask, 3, 8, NULL), PL_OK);
    float dz[3];
    memcpy(logits, pl_model_logits(m), sizeof(float) * 3);
    pl_bce_logits(dz, logits, y, 3);
    pl_model_zero_grad(m);
    pl_model_backward(m, dz);
    memcpy(grads, pl_model_grads(m), sizeof(float) * pl_model_nparams(m));
}

START_TEST(test_with_the_mask_pre_and_post_padding_are_the_same_computation) {
    static const PlArch archs[] = {PL_ARCH_RNN,     PL_ARCH_GRU,     PL_ARCH_LSTM,
                                   PL_ARCH_AVGPOOL, PL_ARCH_MAXPOOL, PL_ARCH_ATTENTION};
    for (int a = 0; a < 6; a++) {
        if (archs[a] == PL_ARCH_ATTENTION) continue; /* attention sees positions only through order: checked below */
        PlModel *m = small_model(archs[a], PL_SEQ_KERAS, 5);
        size_t n = pl_model_nparams(m);
        float la[3], lb[3], *ga = malloc(n * sizeof *ga), *gb = malloc(n * sizeof *gb);
        forward_backward(m, PL_PRE, la, ga);
        forward_backward(m, PL_POST, lb, gb);
        for (int i = 0; i < 3; i++)
            ck_assert_msg(fabsf(la[i] - lb[i]) <= 1e-6f, "%s logit %d", pl_arch_name(archs[a]), i);
        float worst = pl_max_abs_diff(ga, gb, n);
        ck_assert_msg(worst <= 1e-6f, "%s: gradients differ by %g", pl_arch_name(archs[a]), (double)worst);
        free(ga);
        free(gb);
        pl_model_free(m);
    }
}
END_TEST

START_TEST(test_without_the_mask_post_padding_changes_the_rnn_output) {
    PlModel *m = small_model(PL_ARCH_RNN, PL_SEQ_NONE, 5);
    size_t n = pl_model_nparams(m);
    float la[3], lb[3], *g = malloc(n * sizeof *g);
    forward_backward(m, PL_PRE, la, g);
    forward_backward(m, PL_POST, lb, g);
    /* The 1-token row reads 7 pads after its word instead of before it. */
    ck_assert_msg(fabsf(la[2] - lb[2]) > 1e-4f, "pre %g post %g", (double)la[2], (double)lb[2]);
    free(g);
    pl_model_free(m);
}
END_TEST

START_TEST(test_packed_rnn_gives_the_keras_masked_logits_and_gradients) {
    static const PlArch archs[] = {PL_ARCH_RNN, PL_ARCH_GRU, PL_ARCH_LSTM};
    for (int a = 0; a < 3; a++) {
        PlModel *k = small_model(archs[a], PL_SEQ_KERAS, 9), *p = small_model(archs[a], PL_SEQ_PACKED, 9);
        size_t n = pl_model_nparams(k);
        float lk[3], lp[3], *gk = malloc(n * sizeof *gk), *gp = malloc(n * sizeof *gp);
        forward_backward(k, PL_POST, lk, gk);
        forward_backward(p, PL_POST, lp, gp);
        for (int i = 0; i < 3; i++) ck_assert(fabsf(lk[i] - lp[i]) <= 1e-6f);
        ck_assert(pl_max_abs_diff(gk, gp, n) <= 1e-6f);
        free(gk);
        free(gp);
        pl_model_free(k);
        pl_model_free(p);
    }
}
END_TEST

START_TEST(test_initialisers_follow_keras) {
    PlModel *m = small_model(PL_ARCH_LSTM, PL_SEQ_NONE, 3);
    size_t n;
    float *emb = pl_model_param(m, PL_P_EMBEDDING, &n);
    ck_assert_uint_eq(n, 50 * 6);
    float lo = 1, hi = -1;
    for (size_t i = 0; i < n; i++) lo = fminf(lo, emb[i]), hi = fmaxf(hi, emb[i]);
    ck_assert(lo >= -0.05f && hi <= 0.05f && hi - lo > 0.08f);
    float *k = pl_model_param(m, PL_P_KERNEL, &n), limit = sqrtf(6.0f / (6 + 20));
    for (size_t i = 0; i < n; i++) ck_assert(fabsf(k[i]) <= limit);
    float *u = pl_model_param(m, PL_P_RECURRENT, &n); /* (5, 20): orthonormal rows */
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) {
            double dot = 0.0;
            for (int c = 0; c < 20; c++) dot += (double)(u[i * 20 + c] * u[j * 20 + c]);
            ck_assert_msg(fabs(dot - (i == j)) < 1e-5, "U U^T [%d][%d] = %f", i, j, dot);
        }
    float *b = pl_model_param(m, PL_P_BIAS, &n);
    for (int j = 0; j < 20; j++) ck_assert(b[j] == (j >= 5 && j < 10 ? 1.0f : 0.0f)); /* unit forget bias */
    ck_assert(pl_model_param(m, PL_P_DENSE_B, NULL)[0] == 0.0f);
    pl_model_free(m);
}
END_TEST

START_TEST(test_adam_first_step_moves_each_weight_by_about_lr) {
    PlOptim o;
    pl_optim_init(&o, PL_OPT_ADAM);
    ck_assert(o.lr == 1e-3f && o.beta1 == 0.9f && o.beta2 == 0.999f && o.eps == 1e-7f);
    float w[2] = {0.5f, -0.5f}, g[2] = {0.2f, -4.0f}, m1[2] = {0}, m2[2] = {0};
    pl_optim_begin(&o);
    pl_optim_apply(&o, w, g, m1, m2, 2);
    /* m = 0.1 g, v = 0.001 g^2, alpha = 1e-3 sqrt(0.001) / 0.1: the step is
     * 1e-3 * |g| sqrt(0.001) / (|g| sqrt(0.001) + 1e-7) in the direction -g. */
    double s0 = 1e-3 * 0.2 * sqrt(0.001) / (0.2 * sqrt(0.001) + 1e-7);
    ck_assert_msg(fabs((double)w[0] - (0.5 - s0)) < 1e-7, "w0 %.9f", (double)w[0]);
    ck_assert(fabs((double)w[1] - (-0.5 + 1e-3)) < 1e-7);
    ck_assert(fabs((double)m1[0] - 0.02) < 1e-8 && fabs((double)m2[1] - 0.016) < 1e-6);
    PlOptim sgd;
    pl_optim_init(&sgd, PL_OPT_SGD);
    pl_optim_apply(&sgd, w, g, NULL, NULL, 1);
    ck_assert(fabs((double)w[0] - (0.5 - s0 - 0.002)) < 1e-7);
}
END_TEST

static PlTrainConfig quick_config(PlArch arch) {
    PlTrainConfig c = pl_train_config_default(arch);
    c.model.embed = 16;
    c.model.hidden = 16;
    c.maxlen = 100;
    c.epochs = 3;
    return c;
}

START_TEST(test_training_is_deterministic_bit_for_bit) {
    PlCorpus *c;
    ck_assert_int_eq(pl_corpus_load("builtin:2:400", NULL, &c, NULL), PL_OK);
    PlTrainConfig cfg = quick_config(PL_ARCH_RNN);
    cfg.epochs = 2;
    PlTrainResult a, b;
    PlModel *ma, *mb;
    ck_assert_int_eq(pl_train(c, &cfg, NULL, NULL, NULL, &a, &ma, NULL), PL_OK);
    ck_assert_int_eq(pl_train(c, &cfg, NULL, NULL, NULL, &b, &mb, NULL), PL_OK);
    ck_assert_mem_eq(a.val_acc, b.val_acc, sizeof a.val_acc);
    ck_assert_mem_eq(a.train_loss, b.train_loss, sizeof a.train_loss);
    ck_assert_mem_eq(pl_model_params(ma), pl_model_params(mb), pl_model_nparams(ma) * sizeof(float));
    ck_assert_int_eq(a.n_train, 320);
    ck_assert_int_eq(a.n_val, 80);
    ck_assert_int_eq(a.steps, 2LL * 320 * 100);
    pl_model_free(ma);
    pl_model_free(mb);
    pl_corpus_free(c);
}
END_TEST

START_TEST(test_a_short_run_learns_the_builtin_sentiment) {
    PlCorpus *c;
    ck_assert_int_eq(pl_corpus_load("builtin:4:1500", NULL, &c, NULL), PL_OK);
    PlTrainConfig cfg = pl_train_config_default(PL_ARCH_AVGPOOL); /* Embedding(10000,32), maxlen 200 */
    cfg.model.pool = PL_POOL_MASKED;
    PlTrainResult r;
    ck_assert_int_eq(pl_train(c, &cfg, NULL, NULL, NULL, &r, NULL, NULL), PL_OK);
    ck_assert_msg(r.best_val_acc >= 0.75f, "masked pooling reached only %.3f", (double)r.best_val_acc);
    ck_assert_int_eq(r.epochs_done, 5);
    pl_corpus_free(c);
}
END_TEST

static int cancel_at_batch_3(const PlProgress *p, void *ctx) {
    (void)ctx;
    return p->batch == 3;
}

START_TEST(test_progress_can_cancel_a_run) {
    PlCorpus *c;
    ck_assert_int_eq(pl_corpus_load("builtin:2:400", NULL, &c, NULL), PL_OK);
    PlTrainConfig cfg = quick_config(PL_ARCH_RNN);
    PlTrainResult r;
    PlErr err;
    PlModel *m = NULL;
    ck_assert_int_eq(pl_train(c, &cfg, cancel_at_batch_3, NULL, NULL, &r, &m, &err), PL_ECANCELED);
    ck_assert_int_eq(r.epochs_done, 0);
    ck_assert_int_eq(r.steps, 3 * 32 * 100);
    pl_model_free(m);
    pl_corpus_free(c);
}
END_TEST

START_TEST(test_frozen_pad_row_stays_zero_through_training) {
    PlModel *m = small_model(PL_ARCH_RNN, PL_SEQ_NONE, 1);
    pl_model_free(m);
    PlModelConfig c = pl_model_config_default(PL_ARCH_RNN);
    c.vocab = 50, c.embed = 6, c.hidden = 5, c.freeze_pad = 1;
    ck_assert_int_eq(pl_model_new(&c, 1, &m, NULL), PL_OK);
    float lg[3], *g = malloc(pl_model_nparams(m) * sizeof *g);
    for (int step = 0; step < 3; step++) {
        forward_backward(m, PL_POST, lg, g);
        pl_model_update(m);
    }
    float *emb = pl_model_param(m, PL_P_EMBEDDING, NULL);
    for (int e = 0; e < 6; e++) ck_assert(emb[e] == 0.0f);
    ck_assert(emb[6] != 0.0f);
    free(g);
    pl_model_free(m);
}
END_TEST

START_TEST(test_model_files_round_trip_and_refuse_damage) {
    char *dir = pl_test_tmpdir(), path[4200];
    snprintf(path, sizeof path, "%s/m.padlab", dir);
    PlModel *m = small_model(PL_ARCH_GRU, PL_SEQ_KERAS, 12), *back;
    PlErr err;
    ck_assert_int_eq(pl_model_save(m, path, &err), PL_OK);
    ck_assert_int_eq(pl_model_load(path, &back, &err), PL_OK);
    ck_assert_int_eq(pl_model_config(back)->arch, PL_ARCH_GRU);
    ck_assert_int_eq(pl_model_config(back)->mask, PL_SEQ_KERAS);
    ck_assert_mem_eq(pl_model_params(m), pl_model_params(back), pl_model_nparams(m) * sizeof(float));
    pl_model_free(back);
    FILE *f = fopen(path, "r+b");
    fseek(f, 100, SEEK_SET);
    fputc(0x5a, f);
    fclose(f);
    ck_assert_int_eq(pl_model_load(path, &back, &err), PL_EINPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "checksum mismatch"));
    pl_test_write_file(path, "PADLABMD\2\0\0\0", 12);
    ck_assert_int_eq(pl_model_load(path, &back, &err), PL_EINPUT);
    ck_assert_msg(strstr(err.msg, "model format version 2") != NULL, "%s", err.msg);
    pl_test_write_file(path, "hello", 5);
    ck_assert_int_eq(pl_model_load(path, &back, &err), PL_EINPUT);
    ck_assert_ptr_null(back);
    pl_model_free(m);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

/* nn.h's convention, kept by the model: backward adds into the gradients,
 * pl_model_zero_grad alone clears them. A second forward and backward of the
 * same batch without zeroing doubles every gradient (up to the order the
 * kernels add in). */
START_TEST(test_model_backward_adds_into_the_gradients_and_zero_grad_clears_them) {
    static const PlArch archs[] = {PL_ARCH_RNN,     PL_ARCH_GRU,     PL_ARCH_LSTM,
                                   PL_ARCH_AVGPOOL, PL_ARCH_MAXPOOL, PL_ARCH_ATTENTION};
    for (int a = 0; a < 6; a++) {
        PlModel *m = small_model(archs[a], PL_SEQ_KERAS, 7);
        size_t n = pl_model_nparams(m);
        float lg[3], *once = malloc(n * sizeof *once), dz[3];
        int32_t ids[24];
        uint8_t mask[24], y[3] = {1, 0, 1};
        forward_backward(m, PL_POST, lg, once);
        make_batch(ids, mask, PL_POST);
        ck_assert_int_eq(pl_model_forward(m, ids, mask, 3, 8, NULL), PL_OK);
        pl_bce_logits(dz, pl_model_logits(m), y, 3);
        pl_model_backward(m, dz);
        const float *g = pl_model_grads(m);
        int nonzero = 0;
        for (size_t i = 0; i < n; i++) {
            ck_assert_msg(fabsf(g[i] - 2.0f * once[i]) <= 1e-6f + 1e-5f * fabsf(once[i]),
                          "%s: gradient %zu is %g after two passes, %g after one", pl_arch_name(archs[a]), i,
                          (double)g[i], (double)once[i]);
            nonzero += once[i] != 0.0f;
        }
        ck_assert_int_gt(nonzero, 0);
        pl_model_zero_grad(m);
        for (size_t i = 0; i < n; i++) ck_assert(g[i] == 0.0f);
        free(once);
        pl_model_free(m);
    }
}
END_TEST

START_TEST(test_a_failed_model_save_leaves_no_temporary_file) {
    char *dir = pl_test_tmpdir(), path[4200], cmd[4300];
    snprintf(path, sizeof path, "%s/taken", dir);
    ck_assert_int_eq(mkdir(path, 0755), 0); /* a folder where the file should go: refused before a byte */
    PlModel *m = small_model(PL_ARCH_RNN, PL_SEQ_NONE, 3);
    PlErr err;
    ck_assert_int_eq(pl_model_save(m, path, &err), PL_EINPUT);
    ck_assert_msg(strstr(err.msg, "is a folder") != NULL, "%s", err.msg);
    snprintf(cmd, sizeof cmd, "test \"$(ls -A '%s')\" = taken", dir);
    ck_assert_int_eq(system(cmd), 0);
    pl_model_free(m);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

Suite *model_suite(void) {
    Suite *s = suite_create("model");
    TCase *tc = tcase_create("semantics");
    tcase_add_test(tc, test_with_the_mask_pre_and_post_padding_are_the_same_computation);
    tcase_add_test(tc, test_without_the_mask_post_padding_changes_the_rnn_output);
    tcase_add_test(tc, test_packed_rnn_gives_the_keras_masked_logits_and_gradients);
    tcase_add_test(tc, test_initialisers_follow_keras);
    tcase_add_test(tc, test_adam_first_step_moves_each_weight_by_about_lr);
    tcase_add_test(tc, test_frozen_pad_row_stays_zero_through_training);
    tcase_add_test(tc, test_model_files_round_trip_and_refuse_damage);
    tcase_add_test(tc, test_a_failed_model_save_leaves_no_temporary_file);
    tcase_add_test(tc, test_model_backward_adds_into_the_gradients_and_zero_grad_clears_them);
    suite_add_tcase(s, tc);
    tc = tcase_create("training");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_training_is_deterministic_bit_for_bit);
    tcase_add_test(tc, test_a_short_run_learns_the_builtin_sentiment);
    tcase_add_test(tc, test_progress_can_cancel_a_run);
    suite_add_tcase(s, tc);
    return s;
}
