/* The app layer without a terminal: changes and what they touch, undo and
 * reset, results from the worker (one batch for every view), training over
 * seeds, pause, the grid, and sessions. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app/lab/lab.h"
#include "app/lab/lab_internal.h" /* the result cache, to break it by hand */
#include "app/lab/quantity.h"
#include "app/report/report.h"
#include "core/experiment.h"
#include "core/rng.h"
#include "suites.h"

#define ALL_RESULTS ((1u << PL_R_COUNT) - 1)

static PlLab *lab_with(const char *corpus, int seeds) {
    PlLabSettings s = pl_settings_default();
    snprintf(s.corpus, sizeof s.corpus, "%s", corpus);
    s.seeds = seeds;
    PlErr err;
    PlLab *lab = pl_lab_new(&s, &err);
    ck_assert_msg(lab != NULL, "%s", err.msg);
    return lab;
}

static PlLab *small_lab(void) { return lab_with("builtin:1:400", 2); }

static void wait_training(PlLab *lab) {
    struct timespec ts = {0, 10000000};
    for (int i = 0; i < PL_TEST_POLLS; i++) {
        pl_lab_tick(lab);
        if (!pl_lab_training(lab)->active && !pl_lab_grid(lab).active) return;
        nanosleep(&ts, NULL);
    }
    ck_abort_msg("training did not end");
}

START_TEST(test_the_lab_opens_on_a_review_with_pads) {
    PlLab *lab = small_lab();
    const PlLabSettings *s = pl_lab_settings(lab);
    ck_assert_int_eq(s->example, pl_probe_auto_example(pl_lab_corpus(lab), 200));
    ck_assert(pl_corpus_len(pl_lab_corpus(lab), s->example) < 100);
    ck_assert(!pl_lab_training(lab)->active); /* nothing trains until asked */
    pl_lab_free(lab);
}
END_TEST

START_TEST(test_changes_are_hot_or_cold) {
    PlLab *lab = small_lab();
    ck_assert_int_eq(pl_lab_step(lab, PL_S_PADDING, 1), PL_LAB_COLD);
    ck_assert_int_eq(pl_lab_settings(lab)->padding, PL_POST);
    ck_assert_uint_eq(pl_lab_take_changes(lab), PL_S_BIT(PL_S_PADDING));
    ck_assert_uint_eq(pl_lab_take_changes(lab), 0);
    ck_assert(pl_lab_training(lab)->active);
    ck_assert_int_eq(pl_lab_step(lab, PL_S_CONVENTION, 1), PL_LAB_HOT);
    ck_assert_int_eq(pl_lab_settings(lab)->convention, PL_MASK_TORCH);
    ck_assert_int_eq(pl_lab_step(lab, PL_S_CONVENTION, -1), PL_LAB_HOT);
    ck_assert_int_eq(pl_lab_settings(lab)->convention, PL_MASK_KERAS);
    PlLabSettings s = *pl_lab_settings(lab);
    s.example = 0;
    pl_lab_apply(lab, &s, NULL);
    ck_assert_int_eq(pl_lab_step(lab, PL_S_EXAMPLE, -1), PL_LAB_HOT);
    ck_assert_int_eq(pl_lab_settings(lab)->example, 399); /* wraps around the corpus */
    ck_assert_int_eq(pl_lab_step(lab, PL_S_BATCHING, -1), PL_LAB_COLD);
    ck_assert_int_eq(pl_lab_settings(lab)->batching, PL_BATCH_PACKED);
    PlErr err;
    ck_assert_int_eq(pl_lab_set(lab, PL_S_MAXLEN, "7", &err), PL_LAB_COLD);
    ck_assert_int_eq(pl_lab_settings(lab)->maxlen, 7);
    ck_assert_int_eq(pl_lab_set(lab, PL_S_MAXLEN, "0", &err), -1);
    ck_assert_str_eq(err.msg, "maxlen must be a whole number from 1 to 2000 or none, got '0'");
    ck_assert_int_eq(pl_lab_set(lab, PL_S_EXAMPLE, "400", &err), -1);
    ck_assert_str_eq(err.msg, "example must be below 400 (the corpus's reviews), got 400");
    ck_assert_int_eq(pl_lab_step(lab, PL_S_MAXLEN, 1), PL_LAB_COLD);
    ck_assert_int_eq(pl_lab_settings(lab)->maxlen, 10);
    pl_lab_free(lab);
}
END_TEST

START_TEST(test_undo_goes_back_and_reset_keeps_the_corpus_and_view) {
    PlLab *lab = small_lab();
    PlLabSettings start = *pl_lab_settings(lab);
    pl_lab_step(lab, PL_S_PADDING, 1);
    pl_lab_step(lab, PL_S_MAXLEN, -1);
    pl_lab_step(lab, PL_S_VIEW, 1); /* a view change is not an undo step */
    ck_assert_int_eq(pl_lab_settings(lab)->maxlen, 150);
    ck_assert_int_eq(pl_lab_command(lab, PL_CMD_UNDO), PL_LAB_COLD);
    ck_assert_int_eq(pl_lab_settings(lab)->maxlen, 200);
    ck_assert_int_eq(pl_lab_settings(lab)->padding, PL_POST);
    ck_assert_int_eq(pl_lab_settings(lab)->view, PL_VIEW_COST);
    pl_lab_command(lab, PL_CMD_UNDO);
    ck_assert_int_eq(pl_lab_settings(lab)->padding, PL_PRE);
    ck_assert_int_eq(pl_lab_command(lab, PL_CMD_UNDO), 0); /* nothing left */
    pl_lab_step(lab, PL_S_MASK, 1);
    pl_lab_step(lab, PL_S_SEEDS, 1);
    ck_assert_int_eq(pl_lab_command(lab, PL_CMD_RESET), PL_LAB_COLD);
    const PlLabSettings *s = pl_lab_settings(lab);
    ck_assert_str_eq(s->corpus, "builtin:1:400");
    ck_assert(s->mask == 0 && s->seeds == PL_DEFAULT_SEEDS && s->view == PL_VIEW_COST && s->example == start.example);
    pl_lab_command(lab, PL_CMD_UNDO); /* a reset undoes like any change */
    ck_assert(pl_lab_settings(lab)->mask == 1 && pl_lab_settings(lab)->seeds == 3);
    pl_lab_free(lab);
}
END_TEST

START_TEST(test_results_come_from_the_worker_and_follow_the_settings) {
    PlLab *lab = small_lab();
    PlResultStatus st;
    ck_assert_int_eq(pl_lab_wait(lab, 1u << PL_R_BATCH, PL_TEST_PATIENCE), 0);
    const PlProbeBatch *b = pl_lab_batch(lab, &st);
    ck_assert_ptr_nonnull(b);
    ck_assert(!st.stale && !st.error);
    ck_assert_int_eq(b->conv, PL_MASK_KERAS);
    ck_assert_int_eq(b->batch->T, 200); /* static batches are maxlen wide */
    ck_assert_int_eq(b->batch->B, 32);
    pl_lab_step(lab, PL_S_CONVENTION, 1);
    b = pl_lab_batch(lab, &st);
    ck_assert(st.stale); /* the old one until the new one arrives */
    ck_assert_int_eq(pl_lab_wait(lab, 1u << PL_R_BATCH, PL_TEST_PATIENCE), 0);
    b = pl_lab_batch(lab, &st);
    ck_assert(!st.stale);
    ck_assert_int_eq(b->conv, PL_MASK_TORCH);
    pl_lab_step(lab, PL_S_MASK, 1);
    ck_assert_int_eq(pl_lab_wait(lab, 1u << PL_R_RNN, PL_TEST_PATIENCE), 0);
    const PlProbeRnn *r = pl_lab_rnn(lab, &st);
    ck_assert(r->mask && r->masked_carry_distance == 0.0f);
    pl_lab_free(lab);
}
END_TEST

/* Every view that shows a batch shows the lab's one batch: the width and the
 * rows the batch view holds, under every strategy, maxlen, padding and mask. */
START_TEST(test_every_view_shows_the_same_batch) {
    static const int batchings[] = {PL_BATCH_STATIC,         PL_BATCH_DYNAMIC,   PL_BATCH_MULTIPLE, PL_BATCH_GROUPED,
                                    PL_BATCH_BUCKET_LONGEST, PL_BATCH_TF_BUCKET, PL_BATCH_PACKED};
    static const int maxlens[] = {7, 100, 150, 200, 250};
    PlLab *lab = lab_with("builtin:1:200", 1);
    unsigned kinds = ALL_RESULTS & ~(1u << PL_R_COST);
    for (int bi = 0; bi < 7; bi++)
        for (int mi = 0; mi < 5; mi++)
            for (int pm = 0; pm < 4; pm++) {
                PlLabSettings s = *pl_lab_settings(lab);
                s.batching = batchings[bi], s.maxlen = maxlens[mi], s.padding = pm & 1, s.mask = pm >> 1;
                s.example = 3;
                pl_lab_apply(lab, &s, NULL);
                ck_assert_int_eq(pl_lab_wait(lab, kinds, PL_TEST_PATIENCE), 0);
                PlResultStatus bs;
                const PlProbeBatch *b = pl_lab_batch(lab, &bs);
                ck_assert_ptr_nonnull(b);
                int width = b->pick.width, kept = b->pick.cu_seqlens[b->pick.at + 1] - b->pick.cu_seqlens[b->pick.at];
                if (!b->pick.packed) ck_assert_int_eq(b->batch->T, width);
                if (batchings[bi] == PL_BATCH_STATIC) ck_assert_int_eq(width, maxlens[mi]);
                if (batchings[bi] == PL_BATCH_MULTIPLE) ck_assert_int_eq(width % 8, 0);
                for (int k = 0; k < PL_R_COUNT; k++) {
                    if (!(kinds & (1u << k))) continue;
                    PlResultStatus st;
                    ck_assert_msg(pl_lab_result(lab, (PlResultKind)k, &st) != NULL, "%s: %s",
                                  pl_result_name((PlResultKind)k), st.error);
                    ck_assert_int_eq(st.info->width, width);
                    ck_assert_int_eq(st.info->batch_index, bs.info->batch_index);
                    ck_assert_int_eq(st.info->rows[0], 3);
                    if (k != PL_R_BATCH) ck_assert_int_eq(st.info->focus_width, b->pick.packed ? kept : width);
                }
                const PlProbeRnn *r = pl_lab_rnn(lab, NULL);
                ck_assert_int_eq(r->T, b->pick.packed ? kept : width);
                ck_assert_int_eq(pl_lab_attention(lab, NULL)->T, r->T);
                ck_assert_int_eq(pl_lab_pooling(lab, NULL)->T, r->T);
            }
    pl_lab_free(lab);
}
END_TEST

/* Thirty random key presses (and a corpus swap): every result still computes. */
START_TEST(test_a_random_walk_over_the_settings_never_fails) {
    PlLab *lab = lab_with("builtin:1:200", 1);
    PlRng rng;
    pl_rng_seed(&rng, 2026);
    for (int step = 0; step < 30; step++) {
        int id = 1 + (int)pl_rng_below(&rng, PL_S_COUNT - 1), dir = pl_rng_below(&rng, 2) ? 1 : -1;
        if (id == PL_S_MAXLEN && pl_lab_settings(lab)->maxlen >= 600) dir = -1; /* keep the walk quick */
        pl_lab_step(lab, (PlSettingId)id, dir);
        if (step == 15) {
            PlErr err;
            ck_assert_int_ge(pl_lab_set(lab, PL_S_CORPUS, "builtin:2:150", &err), 0);
        }
        ck_assert_int_eq(pl_lab_wait(lab, ALL_RESULTS, PL_TEST_PATIENCE), 0);
        for (int k = 0; k < PL_R_COUNT; k++) {
            PlResultStatus st;
            const void *r = pl_lab_result(lab, (PlResultKind)k, &st);
            ck_assert_msg(r != NULL, "step %d, %s: %s", step, pl_result_name((PlResultKind)k),
                          st.error ? st.error : "none");
        }
        pl_lab_tick(lab);
    }
    ck_assert_str_eq(pl_lab_settings(lab)->corpus, "builtin:2:150");
    ck_assert_int_eq(pl_lab_corpus(lab)->n, 150);
    pl_lab_free(lab);
}
END_TEST

START_TEST(test_the_cost_headline_is_its_strategys_row) {
    PlLab *lab = small_lab();
    static const int batchings[] = {PL_BATCH_STATIC, PL_BATCH_DYNAMIC, PL_BATCH_TF_BUCKET, PL_BATCH_PACKED};
    const PlCorpus *c = pl_lab_corpus(lab);
    int *len = malloc((size_t)c->n * sizeof *len);
    pl_corpus_lengths(c, len);
    for (int i = 0; i < 4; i++) {
        PlLabSettings s = *pl_lab_settings(lab);
        s.batching = batchings[i];
        pl_lab_apply(lab, &s, NULL);
        ck_assert_int_eq(pl_lab_wait(lab, 1u << PL_R_COST, PL_TEST_PATIENCE), 0);
        const PlLabCost *k = pl_lab_cost(lab, NULL);
        PlStrategyRow rows[PL_BATCH_COUNT];
        int n;
        PlCompareOpts co = {.batch_size = 32, .maxlen = 200};
        ck_assert_int_eq(pl_cost_compare(len, c->n, &co, rows, &n, NULL), PL_OK);
        ck_assert(k->padding_share == rows[batchings[i]].padding_share);
        ck_assert(k->cost.slots == rows[batchings[i]].cost.slots);
        ck_assert(k->tokens_cut == rows[batchings[i]].tokens_cut);
    }
    PlMaxlenRow row; /* and static's row is the maxlen table's */
    pl_maxlen_row(len, c->n, 200, &row);
    const PlLabCost *k = pl_lab_cost(lab, NULL);
    ck_assert(fabs(k->strategies[PL_BATCH_STATIC].padding_share - row.padding_share) < 1e-12);
    ck_assert_int_eq(k->sweep_maxlen[k->sweep_at], 200);
    /* the length figures: every review in one bin, percentiles as numpy's, the crossing between sweep points */
    int total = 0, over = 0, longest = 0;
    for (int b = 0; b < PL_LAB_LEN_BINS; b++) total += k->len_hist[b];
    for (int i = 0; i < c->n; i++) over += len[i] > 200, longest = len[i] > longest ? len[i] : longest;
    ck_assert_int_eq(total, c->n);
    ck_assert_int_eq(k->len_over_maxlen, over);
    /* the first bucket at the quarters of maxlen holds the reviews shorter than 200 / 4, as the plan's buckets do */
    int first = 0;
    for (int i = 0; i < c->n; i++) first += len[i] < 50;
    ck_assert_int_eq(k->len_first_bucket, first);
    ck_assert_int_gt(first, 0);
    ck_assert_int_lt(first, c->n);
    PlQuantity q;
    double share;
    char why[200];
    ck_assert_int_eq(pl_quantity_parse("cost.first_bucket_share", &q, why, sizeof why), 0);
    ck_assert_int_eq(pl_quantity_value(lab, &q, &share, why, sizeof why), 0);
    ck_assert(fabs(share - (double)first / c->n) < 1e-12);
    ck_assert_int_eq(k->lengths.max, longest);
    ck_assert(k->len_bin_width * PL_LAB_LEN_BINS >= 220 && k->len_bin_width * PL_LAB_LEN_BINS >= k->len_p99);
    int below = 0;
    for (int i = 0; i < c->n; i++) below += len[i] < k->len_bin_width;
    ck_assert_int_eq(k->len_hist[0], below);
    ck_assert(k->lengths.median <= k->len_p90 && k->len_p90 <= k->lengths.p95 && k->lengths.p95 <= k->len_p99);
    ck_assert(k->cross_maxlen > 25.0 && k->cross_maxlen < 800.0);
    int j = (int)(k->cross_maxlen / 25.0) - 1; /* the sweep points on either side are on either side of it */
    ck_assert(k->sweep_padding[j] <= 1.0 - k->sweep_kept[j] && k->sweep_padding[j + 1] >= 1.0 - k->sweep_kept[j + 1]);
    ck_assert(fabs(k->cross_share - (1.0 - (k->sweep_kept[j] + (k->cross_maxlen - k->sweep_maxlen[j]) / 25.0 *
                                                                   (k->sweep_kept[j + 1] - k->sweep_kept[j])))) < 1e-9);
    free(len);
    pl_lab_free(lab);
}
END_TEST

/* Ten reviews of 900, 50, 250, 1200, 120, 790, 90, 390, 180 and 500 tokens
 * (start token included): 4470 tokens, the longest 1200. Written into dir;
 * returns the file's path (to free). */
static char *ten_reviews(const char *dir) {
    static const int lens[] = {900, 50, 250, 1200, 120, 790, 90, 390, 180, 500};
    char *path = malloc(strlen(dir) + 16), *text = malloc(5 * 4470 + 64);
    size_t n = 0;
    sprintf(path, "%s/ten.tsv", dir);
    for (int r = 0; r < 10; r++) {
        n += (size_t)sprintf(text + n, "%d\t", r % 2);
        for (int i = 1; i < lens[r]; i++) n += (size_t)sprintf(text + n, "w%d ", i % 7);
        text[n++] = '\n';
    }
    pl_test_write_file(path, text, n);
    free(text);
    return path;
}

/* maxlen none: whole reviews, nothing cut. In one batch of 32 the static
 * batch is as wide as the longest review, 10 x 1200 = 12000 cells of which
 * 4470 are real; the cost view's table is padlab buckets', every strategy
 * cutting nothing. */
START_TEST(test_maxlen_none_pads_to_the_longest_and_cuts_nothing) {
    char *dir = pl_test_tmpdir(), *path = ten_reviews(dir);
    PlLab *lab = lab_with(path, 1);
    ck_assert_int_eq(pl_lab_longest(lab), 1200);
    ck_assert_int_eq(pl_lab_set(lab, PL_S_MAXLEN, "none", NULL), PL_LAB_COLD);
    ck_assert_int_eq(pl_lab_wait(lab, (1u << PL_R_COST) | (1u << PL_R_BATCH), PL_TEST_PATIENCE), 0);
    PlResultStatus st;
    const PlLabCost *k = pl_lab_cost(lab, &st);
    ck_assert_int_eq(st.info->settings.maxlen, PL_MAXLEN_NONE);
    ck_assert_int_eq(st.info->longest, 1200);
    const PlCost *c = &k->strategies[PL_BATCH_STATIC].cost;
    ck_assert(c->slots == 12000 && c->real_tokens == 4470 && k->len_over_maxlen == 0);
    ck_assert(fabs(k->padding_share - (1.0 - 4470.0 / 12000.0)) < 1e-12);
    for (int i = 0; i < k->nstrategies; i++) ck_assert_int_eq(k->strategies[i].tokens_cut, 0);
    const PlProbeBatch *b = pl_lab_batch(lab, &st);
    ck_assert(b->batch->B == 10 && b->batch->T == 1200 && st.info->width == 1200);
    ck_assert_int_eq(pl_lab_wait(lab, ALL_RESULTS, PL_TEST_PATIENCE),
                     0); /* every probe computes at the longest's width */
    for (int r = 0; r < PL_R_COUNT; r++) ck_assert_ptr_nonnull(pl_lab_result(lab, (PlResultKind)r, NULL));
    wait_training(lab); /* the retrain the change started trains whole reviews */
    int n;
    const PlLabRun *runs = pl_lab_runs(lab, &n);
    ck_assert(n == 1 && runs[0].settings.maxlen == PL_MAXLEN_NONE && runs[0].epochs == 5);
    ck_assert_int_eq(pl_lab_step(lab, PL_S_MAXLEN, -1), PL_LAB_COLD); /* - comes back to the top of the ladder */
    ck_assert_int_eq(pl_lab_settings(lab)->maxlen, 2000);
    ck_assert_int_eq(pl_lab_step(lab, PL_S_MAXLEN, 1), PL_LAB_COLD);
    ck_assert_int_eq(pl_lab_settings(lab)->maxlen, PL_MAXLEN_NONE);
    pl_lab_free(lab);
    pl_test_rmtree(dir);
    free(dir), free(path);
}
END_TEST

/* A change never computes on the caller's thread: right after it, the result
 * on hand is still the old one, marked stale, whatever the worker is doing;
 * the new one comes only through the worker. */
START_TEST(test_a_change_never_waits_for_a_result) {
    PlLab *lab = lab_with("builtin:1:400", 1);
    PlLabSettings s = *pl_lab_settings(lab);
    s.maxlen = 2000;
    s.example = 0;
    pl_lab_apply(lab, &s, NULL);
    ck_assert_int_eq(pl_lab_wait(lab, 1u << PL_R_ATTENTION, PL_TEST_PATIENCE), 0);
    PlResultStatus st;
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(pl_lab_step(lab, PL_S_EXAMPLE, 1), PL_LAB_HOT);
        const PlProbeAttention *r = pl_lab_attention(lab, &st);
        ck_assert(st.stale);                   /* the change did not compute it... */
        ck_assert_int_eq(st.info->rows[0], i); /* ...the one on hand is the previous example's */
        ck_assert_ptr_nonnull(r);
        ck_assert_int_eq(pl_lab_wait(lab, 1u << PL_R_ATTENTION, PL_TEST_PATIENCE), 0);
        r = pl_lab_attention(lab, &st); /* the worker's */
        ck_assert(!st.stale && st.info->rows[0] == i + 1 && r->T == 2000);
    }
    pl_lab_free(lab);
}
END_TEST

START_TEST(test_a_retrain_trains_every_seed_and_groups_them) {
    PlLab *lab = small_lab();
    pl_lab_command(lab, PL_CMD_RUN);
    ck_assert_int_eq(pl_lab_training(lab)->n, 2);
    wait_training(lab);
    pl_lab_step(lab, PL_S_PADDING, 1);
    wait_training(lab);
    int n;
    const PlLabRun *runs = pl_lab_runs(lab, &n);
    ck_assert_int_eq(n, 4);
    ck_assert(runs[0].settings.seed == 0 && runs[1].settings.seed == 1 && runs[2].settings.seed == 0);
    ck_assert(runs[0].settings.padding == PL_PRE && runs[3].settings.padding == PL_POST);
    for (int i = 0; i < 4; i++) ck_assert(runs[i].id == i + 1 && runs[i].epochs == 5);
    PlLabGroup g[8];
    ck_assert_int_eq(pl_lab_groups(lab, g, 8), 2);
    ck_assert_int_eq(g[0].n, 2);
    float lo = fminf(runs[0].best_val_acc, runs[1].best_val_acc),
          hi = fmaxf(runs[0].best_val_acc, runs[1].best_val_acc);
    ck_assert(g[0].min == lo && g[0].max == hi && fabsf(g[0].median - 0.5f * (lo + hi)) < 1e-6f);
    PlLabCurves cv; /* the pre runs' curves: both seeds, and per epoch the mean of two is their median */
    ck_assert_int_eq(pl_lab_curves(lab, &runs[0].settings, &cv), 2);
    ck_assert(cv.runs[0] == &runs[0] && cv.runs[1] == &runs[1] && cv.epochs == 5 && !cv.live);
    for (int e = 0; e < 5; e++) {
        ck_assert(fabsf(cv.median_acc[e] - 0.5f * (runs[0].val_acc[e] + runs[1].val_acc[e])) < 1e-6f);
        ck_assert(fabsf(cv.median_loss[e] - 0.5f * (runs[0].train_loss[e] + runs[1].train_loss[e])) < 1e-6f);
    }
    PlResultStatus st;
    pl_lab_wait(lab, 1u << PL_R_RNN, PL_TEST_PATIENCE);
    pl_lab_rnn(lab, &st);
    ck_assert_int_eq(st.info->weights_run, 3); /* the probes read the first seed's model of the last retrain */
    ck_assert_int_eq(st.info->weights_seed, 0);
    pl_lab_command(lab, PL_CMD_SORT_RUNS);
    pl_lab_groups(lab, g, 8);
    ck_assert(g[0].median >= g[1].median);
    runs = pl_lab_runs(lab, &n); /* the runs themselves stay in the order they ran */
    ck_assert_int_eq(runs[0].id, 1);
    pl_lab_free(lab);
}
END_TEST

/* After an rnn trains, the attention view cannot read it (it has no
 * attention layer): every figure is the fresh attention of the seed, bit for
 * bit what `padlab probe attention` computes with no --weights, and the
 * header says so and why. The rnn view reads the run's model. */
START_TEST(test_a_model_without_attention_leaves_the_attention_view_fresh_and_says_why) {
    PlLab *lab = lab_with("builtin:1:200", 1);
    pl_lab_command(lab, PL_CMD_RUN);
    wait_training(lab);
    ck_assert_int_eq(pl_lab_wait(lab, (1u << PL_R_ATTENTION) | (1u << PL_R_RNN), 120), 0);
    PlResultStatus st;
    const PlProbeAttention *a = pl_lab_attention(lab, &st);
    ck_assert(st.info->weights_run == 0 && st.info->unread_run == 1 && st.info->unread_arch == PL_ARCH_RNN);
    char src[1200];
    PlReportOpts o = {0};
    pl_report_source(PL_R_ATTENTION, pl_lab_corpus(lab), st.info, &o, src, sizeof src);
    const char *why = "fresh attention weights from seed 0: run 1's rnn has no attention layer; batch 1 of 7";
    ck_assert_msg(strncmp(src, why, strlen(why)) == 0, "%s", src);
    const PlLabSettings *s = pl_lab_settings(lab);
    int *lens = malloc((size_t)pl_lab_corpus(lab)->n * sizeof *lens);
    for (int i = 0; i < pl_lab_corpus(lab)->n; i++) lens[i] = pl_corpus_len(pl_lab_corpus(lab), i);
    void *fresh;
    PlResultInfo info;
    PlErr err;
    ck_assert_int_eq(pl_result_compute(pl_lab_corpus(lab), lens, PL_R_ATTENTION, s, NULL, NULL, &fresh, &info, &err),
                     PL_OK);
    const PlProbeAttention *b = fresh;
    ck_assert(a->T == b->T && a->heads == b->heads);
    size_t cells = (size_t)a->heads * a->T * a->T;
    ck_assert(memcmp(a->weights, b->weights, cells * sizeof *a->weights) == 0);
    ck_assert(memcmp(a->scores, b->scores, cells * sizeof *a->scores) == 0);
    ck_assert(a->leak_total == b->leak_total && a->pad_weight_max == b->pad_weight_max);
    ck_assert(a->batch_invariance_max_diff == b->batch_invariance_max_diff);
    ck_assert(a->packed_vs_padded_max_diff == b->packed_vs_padded_max_diff);
    pl_result_free(PL_R_ATTENTION, fresh);
    free(lens);
    pl_lab_rnn(lab, &st);
    ck_assert(st.info->weights_run == 1 && st.info->unread_run == 0);
    pl_lab_free(lab);
}
END_TEST

START_TEST(test_a_seed_trained_again_counts_once) {
    PlLab *lab = small_lab(); /* seeds 0 and 1 */
    pl_lab_command(lab, PL_CMD_RUN);
    wait_training(lab);
    pl_lab_step(lab, PL_S_SEED, 1); /* seeds 1 and 2 */
    wait_training(lab);
    int n;
    const PlLabRun *runs = pl_lab_runs(lab, &n);
    ck_assert_int_eq(n, 3);
    ck_assert(runs[0].settings.seed == 0 && runs[1].settings.seed == 1 && runs[2].settings.seed == 2);
    ck_assert(runs[1].id == 3 && runs[2].id == 4); /* seed 1's new run replaced its first */
    PlLabGroup g[4];
    ck_assert_int_eq(pl_lab_groups(lab, g, 4), 1);
    ck_assert_int_eq(g[0].n, 3);
    pl_lab_free(lab);
}
END_TEST

START_TEST(test_a_memorised_run_is_flagged) {
    PlLabRun r;
    memset(&r, 0, sizeof r);
    r.epochs = 5;
    /* Balanced: 500 of 1000 validate positive, noise 3 x sqrt(0.25/1000) = 0.0474. */
    PlChance half = {1000, 1, 500, 0.5, 0.047434};
    r.train_loss[4] = 0.009f, r.best_val_acc = 0.54f;
    ck_assert(pl_lab_run_memorised(&r, &half));
    r.best_val_acc = 0.70f;
    ck_assert(!pl_lab_run_memorised(&r, &half));
    r.best_val_acc = 0.54f, r.train_loss[4] = 0.2f;
    ck_assert(!pl_lab_run_memorised(&r, &half));
    /* On a 70/30 split 0.70 is chance: the same run memorised (noise 0.0435). */
    PlChance skew = {1000, 1, 700, 0.7, 0.043474};
    r.train_loss[4] = 0.009f, r.best_val_acc = 0.70f;
    ck_assert(pl_lab_run_memorised(&r, &skew));
    r.best_val_acc = 0.76f;
    ck_assert(!pl_lab_run_memorised(&r, &skew));
}
END_TEST

/* The lab's clock in a test: it moves when the test moves it and, when
 * tick is set, by 1 s on every read from another thread (the training's),
 * so what a run counts never depends on how busy the machine is. */
typedef struct {
    pthread_mutex_t lock;
    double now;
    int tick;
    pthread_t test;
    int others; /* reads from other threads */
} TestClock;

static double test_clock(void *ctx) {
    TestClock *c = ctx;
    pthread_mutex_lock(&c->lock);
    if (!pthread_equal(pthread_self(), c->test)) c->others++, c->now += c->tick;
    double t = c->now;
    pthread_mutex_unlock(&c->lock);
    return t;
}

static void advance(TestClock *c, double seconds) {
    pthread_mutex_lock(&c->lock);
    c->now += seconds;
    pthread_mutex_unlock(&c->lock);
}

/* Waits for the first batch of the retrain to be done; paused, the run then
 * holds there until resumed. Never assumes how long the batch takes. */
static void wait_first_batch(PlLab *lab) {
    struct timespec ts = {0, 10000000};
    for (int i = 0; i < PL_TEST_POLLS && (pl_lab_tick(lab), pl_lab_training(lab)->job.fraction <= 0.0); i++)
        nanosleep(&ts, NULL);
    ck_assert(pl_lab_training(lab)->job.fraction > 0.0);
}

/* Paused at once, the run holds after its first batch while the clock moves
 * on 1000 s: the active time and the ETA stand still, and the finished run
 * counts none of it. The clock moves only while paused, so the run's time
 * is exactly 0. */
START_TEST(test_pause_leaves_the_paused_time_out) {
    TestClock clock = {PTHREAD_MUTEX_INITIALIZER, 100.0, 0, pthread_self(), 0};
    PlLab *lab = lab_with("builtin:1:1200", 1);
    pl_lab_clock(lab, test_clock, &clock);
    pl_lab_command(lab, PL_CMD_RUN);
    ck_assert_int_eq(pl_lab_command(lab, PL_CMD_PAUSE), PL_LAB_HOT);
    wait_first_batch(lab);
    double fraction = pl_lab_training(lab)->job.fraction, eta = pl_lab_training(lab)->eta;
    ck_assert(pl_lab_training(lab)->paused && pl_lab_training(lab)->job.active_seconds == 0.0);
    advance(&clock, 1000.0);
    pl_lab_tick(lab);
    ck_assert(pl_lab_training(lab)->job.fraction == fraction);  /* held after its batch */
    ck_assert(pl_lab_training(lab)->job.active_seconds == 0.0); /* paused, the clock counts nothing */
    ck_assert(pl_lab_training(lab)->eta == eta);                /* and the ETA stands still */
    pl_lab_command(lab, PL_CMD_PAUSE);
    wait_training(lab);
    int n;
    const PlLabRun *runs = pl_lab_runs(lab, &n);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(runs[0].epochs, 5);
    ck_assert_msg(runs[0].seconds == 0.0, "%.3f s counted of the 1000 s paused", runs[0].seconds);
    pl_lab_free(lab);
}
END_TEST

/* Unpaused, a run counts the lab's clock and only it: every read the
 * training makes moves the clock 1 s, so from its first read to its last
 * the run saw the clock move reads - 1 seconds, whatever the wall did. */
START_TEST(test_a_run_counts_the_labs_clock) {
    TestClock clock = {PTHREAD_MUTEX_INITIALIZER, 50.0, 1, pthread_self(), 0};
    PlLab *lab = lab_with("builtin:1:400", 1);
    pl_lab_clock(lab, test_clock, &clock);
    pl_lab_command(lab, PL_CMD_RUN);
    wait_training(lab);
    int n;
    const PlLabRun *runs = pl_lab_runs(lab, &n);
    ck_assert_int_eq(n, 1);
    ck_assert_int_ge(clock.others, 2);
    ck_assert_msg(runs[0].seconds == clock.others - 1, "%.3f s for %d reads", runs[0].seconds, clock.others);
    pl_lab_free(lab);
}
END_TEST

/* A clock that holds every training thread that reads it once stuck is set,
 * until released: a worker stuck inside a batch, as in OpenBLAS under a
 * memory limit. */
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t moved;
    int stuck, released, held;
    pthread_t test;
} StuckClock;

static double stuck_clock(void *ctx) {
    StuckClock *c = ctx;
    pthread_mutex_lock(&c->lock);
    if (c->stuck && !pthread_equal(pthread_self(), c->test)) {
        c->held++;
        pthread_cond_broadcast(&c->moved);
        while (!c->released) pthread_cond_wait(&c->moved, &c->lock);
    }
    pthread_mutex_unlock(&c->lock);
    return 0.0;
}

/* Quitting waits at most its patience for a stuck training and leaves the
 * lab as it was; once the thread moves on, closing frees it. */
START_TEST(test_quitting_never_waits_on_a_stuck_training) {
    StuckClock clock = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 1, 0, 0, pthread_self()};
    PlLab *lab = lab_with("builtin:1:400", 1);
    pl_lab_clock(lab, stuck_clock, &clock);
    pl_lab_command(lab, PL_CMD_RUN);
    pthread_mutex_lock(&clock.lock);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += PL_TEST_PATIENCE;
    while (!clock.held && pthread_cond_timedwait(&clock.moved, &clock.lock, &until) == 0) {}
    int held = clock.held;
    pthread_mutex_unlock(&clock.lock);
    ck_assert_int_ge(held, 1);
    ck_assert_int_eq(pl_lab_close(lab, 0.05), -1); /* the training is held: not waited for */
    pthread_mutex_lock(&clock.lock);
    clock.released = 1;
    pthread_cond_broadcast(&clock.moved);
    pthread_mutex_unlock(&clock.lock);
    ck_assert_int_eq(pl_lab_close(lab, PL_TEST_PATIENCE), 0); /* canceled, it ends after its batch */
}
END_TEST

START_TEST(test_the_grid_trains_the_selected_model_over_the_seeds) {
    PlLab *lab = lab_with("builtin:1:400", 1);
    pl_lab_step(lab, PL_S_MODEL, 1); /* gru */
    wait_training(lab);
    ck_assert_int_eq(pl_lab_command(lab, PL_CMD_GRID), PL_LAB_HOT);
    ck_assert(pl_lab_grid(lab).active);
    wait_training(lab);
    PlLabGrid g = pl_lab_grid(lab);
    ck_assert(g.done && g.ncells == 4 && g.total == 4);
    for (int c = 0; c < 4; c++) ck_assert_int_eq(g.cells[c].settings.model, PL_ARCH_GRU);
    ck_assert(g.cells[0].settings.padding == PL_PRE && g.cells[0].settings.mask == 0);
    ck_assert(g.cells[3].settings.padding == PL_POST && g.cells[3].settings.mask == 1);
    ck_assert_int_eq(g.cells[0].n, 1); /* the retrain's pre/off run on seed 0 is the grid's: counted once */
    ck_assert_int_eq(g.ndrift, 1);
    ck_assert(g.drift[0] >= 0.0f && g.drift[0] < 0.2f);
    int n;
    const PlLabRun *runs = pl_lab_runs(lab, &n);
    ck_assert_int_eq(n, 4);
    ck_assert(runs[0].grid && runs[0].id == 2); /* the grid's run replaced the retrain's */
    pl_lab_free(lab);
}
END_TEST

/* The padding experiment's runs for maxlen 60 and seeds 0..k-1, each
 * trained alone, one after the other: `padlab experiment --threads 1`. */
static PlRun *experiment_alone(const PlCorpus *c, int k, int *n) {
    PlSeed seeds[4] = {0, 1, 2, 3};
    PlExperimentOpts o = {PL_DEFAULT_EPOCHS, 60, seeds, k};
    PlRun *runs;
    ck_assert_int_eq(pl_experiment_plan(pl_experiment_find("padding"), &o, c, &runs, n, NULL), PL_OK);
    for (int i = 0; i < *n; i++)
        ck_assert_int_eq(pl_train(c, &runs[i].cfg, NULL, NULL, NULL, &runs[i].res, NULL, NULL), PL_OK);
    return runs;
}

/* Keeps the worker busy while the grid trains: views switched, the example
 * moved, every result asked for. */
static void busy_wait_grid(PlLab *lab) {
    for (int i = 0; i < 60000 && (pl_lab_grid(lab).active || pl_lab_training(lab)->active); i++) {
        pl_lab_step(lab, PL_S_VIEW, 1);
        if (i % 7 == 0) pl_lab_step(lab, PL_S_EXAMPLE, 1);
        pl_lab_demand(lab, ALL_RESULTS);
        pl_lab_tick(lab);
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    ck_assert(!pl_lab_grid(lab).active);
}

START_TEST(test_the_grid_gives_the_bits_of_the_experiment_run_alone) {
    PlLab *lab = lab_with("builtin:1:600", 2);
    PlErr err;
    PlLabSettings s = *pl_lab_settings(lab);
    s.maxlen = 60;
    ck_assert_int_ge(pl_lab_apply(lab, &s, &err), 0);
    pl_lab_retrain_cancel(lab, "the grid is what this test trains");
    int n;
    PlRun *want = experiment_alone(pl_lab_corpus(lab), 2, &n);
    ck_assert_int_eq(n, 8);
    for (int round = 0; round < 2; round++) { /* the grid twice: the same bits both times */
        ck_assert_int_eq(pl_lab_command(lab, PL_CMD_GRID), PL_LAB_HOT);
        busy_wait_grid(lab);
        ck_assert(pl_lab_grid(lab).done);
        int nruns;
        const PlLabRun *runs = pl_lab_runs(lab, &nruns);
        ck_assert_int_eq(nruns, 8);
        for (int i = 0; i < n; i++) {
            const PlLabRun *r = NULL;
            int pad = strcmp(want[i].setup.v[0].str, "post") == 0, mask = want[i].setup.v[1].num;
            for (int j = 0; j < nruns; j++)
                if (runs[j].settings.padding == pad && runs[j].settings.mask == mask &&
                    runs[j].settings.seed == (int)want[i].cfg.seed)
                    r = &runs[j];
            ck_assert_ptr_nonnull(r);
            ck_assert_int_eq(r->epochs, want[i].res.epochs_done);
            ck_assert_mem_eq(r->val_acc, want[i].res.val_acc, sizeof(float) * (size_t)r->epochs);
            ck_assert_mem_eq(r->train_loss, want[i].res.train_loss, sizeof(float) * (size_t)r->epochs);
        }
    }
    free(want);
    pl_lab_free(lab);
}
END_TEST

START_TEST(test_a_70_30_corpus_reads_its_accuracies_against_70) {
    PlLab *lab = lab_with("builtin:0:1000:70", 2);
    const PlChance *ch = pl_lab_chance(lab);
    PlChance want = pl_chance_of(pl_lab_corpus(lab), 0.2);
    ck_assert(ch->n_val == 200 && ch->label == 1 && ch->count == want.count && ch->share == want.share);
    PlQuantity q;
    char why[200];
    double v;
    ck_assert_int_eq(pl_quantity_parse("corpus.majority", &q, why, sizeof why), 0);
    ck_assert_int_eq(pl_quantity_value(lab, &q, &v, why, sizeof why), 0);
    ck_assert(v == ch->share); /* the lesson's figure is the lab's line */
    /* Post padding without a mask at maxlen 100: the state is read after
     * the pads, so it answers the majority whatever the review. */
    PlErr err;
    PlLabSettings s = *pl_lab_settings(lab);
    s.padding = PL_POST, s.maxlen = 100;
    ck_assert_int_ge(pl_lab_apply(lab, &s, &err), 0);
    wait_training(lab);
    PlLabGroup g;
    ck_assert(pl_lab_group_of(lab, pl_lab_settings(lab), &g));
    ck_assert(g.chance == (float)ch->share);
    ck_assert_int_eq(pl_lab_group_verdict(lab, &g), PL_AT_CHANCE);
    ck_assert_int_eq(g.at_chance, 2);
    char marked[400], status[400], expect[120];
    pl_lab_status_text(lab, marked, sizeof marked);
    pl_ledger_draw(NULL, marked, status, sizeof status); /* as drawn with nothing hidden */
    snprintf(expect, sizeof expect, ", at chance (always positive: %.3f)", ch->share);
    ck_assert_msg(strstr(status, expect) && strncmp(status, "trained 2 seeds: median accuracy ", 33) == 0, "%s",
                  status);
    ck_assert_int_eq(pl_quantity_parse("train.over_chance", &q, why, sizeof why), 0);
    ck_assert_int_eq(pl_quantity_value(lab, &q, &v, why, sizeof why), 0);
    ck_assert_double_eq_tol(v, (double)g.median - ch->share, 1e-6);
    pl_lab_free(lab);
}
END_TEST

START_TEST(test_the_status_line_counts_what_it_trained) {
    PlLab *lab = lab_with("builtin:1:400", 1);
    char st[400];
    ck_assert_str_eq(pl_lab_status_text(lab, st, sizeof st), "no model trained yet: r trains one");
    ck_assert_int_eq(pl_lab_command(lab, PL_CMD_GRID), PL_LAB_HOT);
    wait_training(lab);
    ck_assert_str_eq(pl_lab_status_text(lab, st, sizeof st), "the grid trained 4 runs: the train view (7) shows them");
    ck_assert_str_eq(pl_lab_grid(lab).status, "the grid is done: 4 runs");
    PlLabSettings s = *pl_lab_settings(lab);
    s.seed = 1; /* a second seed of a setting the grid trained */
    pl_lab_apply(lab, &s, NULL);
    pl_lab_command(lab, PL_CMD_RUN);
    wait_training(lab);
    pl_lab_status_text(lab, st, sizeof st);
    ck_assert_msg(strncmp(st, "trained 1 more seed: over its 2 seeds, median ", 46) == 0, "%s", st);
    pl_lab_free(lab);
}
END_TEST

START_TEST(test_sessions_keep_settings_runs_and_the_grid) {
    char *dir = pl_test_tmpdir(), path[4200];
    snprintf(path, sizeof path, "%s/s.session", dir);
    PlLab *lab = lab_with("builtin:1:400", 1);
    pl_lab_autosave(lab, path);
    pl_lab_step(lab, PL_S_PADDING, 1);
    pl_lab_step(lab, PL_S_MAXLEN, 1);
    pl_lab_step(lab, PL_S_VIEW, -1);
    wait_training(lab);
    pl_lab_command(lab, PL_CMD_GRID);
    wait_training(lab);
    pl_lab_command(lab, PL_CMD_SORT_RUNS);
    PlErr err;
    PlSession *s = pl_session_read(path, &err); /* autosaved after the grid */
    ck_assert_msg(s != NULL, "%s", err.msg);
    ck_assert_int_eq(s->nruns, 4); /* the grid's post/off run on seed 0 replaced the retrain's */
    ck_assert_int_eq(pl_lab_save_session(lab, path, &err), PL_OK);
    pl_session_free(s);
    s = pl_session_read(path, &err);
    ck_assert_msg(s != NULL, "%s", err.msg);
    ck_assert_str_eq(s->settings.corpus, "builtin:1:400");
    ck_assert(s->settings.padding == PL_POST && s->settings.maxlen == 250 && s->settings.view == PL_VIEW_MASKS);
    ck_assert(s->sort == 1 && s->has_grid && s->grid_seeds == 1 && s->grid_base.maxlen == 250);
    int n;
    const PlLabRun *runs = pl_lab_runs(lab, &n);
    ck_assert_int_eq(s->nruns, n);
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(s->runs[i].id, runs[i].id);
        ck_assert_int_eq(pl_settings_diff(&s->runs[i].settings, &runs[i].settings) & pl_settings_cold_mask(), 0);
        ck_assert(fabsf(s->runs[i].best_val_acc - runs[i].best_val_acc) < 1e-4f);
        ck_assert(fabsf(s->runs[i].train_loss[4] - runs[i].train_loss[4]) < 1e-4f && s->runs[i].grid == runs[i].grid);
        ck_assert(s->runs[i].batches == runs[i].batches && runs[i].batches != 0); /* the batches it saw */
    }
    PlLab *back = lab_with(s->settings.corpus, 1); /* reopened: the runs and the grid return, nothing retrains */
    pl_lab_restore(back, s);
    PlLabGrid g0 = pl_lab_grid(lab), g1 = pl_lab_grid(back);
    ck_assert(!pl_lab_training(back)->active && g1.done && g1.ncells == 4);
    for (int c = 0; c < 4; c++) ck_assert(fabsf(g0.cells[c].median - g1.cells[c].median) < 1e-4f);
    pl_session_free(s);
    pl_lab_free(back);
    pl_test_write_file(path, "corpus = builtin\nmask = maybe\n", 29);
    ck_assert_ptr_null(pl_session_read(path, &err));
    ck_assert_msg(strstr(err.msg, "s.session:2: mask must be one of off,on, got 'maybe'") != NULL, "%s", err.msg);
    pl_test_write_file(path, "colour = blue\n", 14);
    ck_assert_ptr_null(pl_session_read(path, &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "unknown setting 'colour'"));
    pl_test_write_file(path, "run = id=1 padding=up\n", 22);
    ck_assert_ptr_null(pl_session_read(path, &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "s.session:1: a run line: padding must be one of pre,post"));
    pl_lab_free(lab);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

/* A run line's numbers must be ones the train view can plot: accuracies
 * from 0 to 1, losses of 0 or more, never nan or inf, as many losses as
 * accuracies (a mismatch says so); of more runs than the lab keeps, the
 * newest are kept, as the lab keeps them. */
START_TEST(test_a_session_refuses_runs_it_cannot_plot_and_keeps_the_newest) {
    char *dir = pl_test_tmpdir(), path[4200];
    snprintf(path, sizeof path, "%s/v.session", dir);
    static const char *const bad[][2] = {
        {"run = id=1 acc=nan loss=0.5\n", "a run line: acc takes up to 100 numbers from 0 to 1, got 'nan'"},
        {"run = id=1 acc=inf loss=0.5\n", "a run line: acc takes up to 100 numbers from 0 to 1, got 'inf'"},
        {"run = id=1 acc=-5 loss=0.5\n", "a run line: acc takes up to 100 numbers from 0 to 1, got '-5'"},
        {"run = id=1 acc=0.5 loss=inf\n", "a run line: loss takes up to 100 numbers of 0 or more, got 'inf'"},
        {"run = id=1 acc=0.5,0.6 loss=0.5\n", "a run line: loss has 1 values and acc 2: one of each per epoch"},
        /* a field it knows, out of range: said so, not "not a field" */
        {"run = id=2147483647 acc=0.5 loss=0.5\n",
         "a run line: id must be a number from 0 to 1000000000, got '2147483647'"},
        {"run = id=1 best=1.5 acc=0.5 loss=0.5\n", "a run line: best must be a number from 0 to 1, got '1.5'"},
        {"run = id=1 grid=7 acc=0.5 loss=0.5\n", "a run line: grid must be a number from 0 to 1, got '7'"},
        {"run = id=1 batches=9c1e acc=0.5 loss=0.5\n", "a run line: batches must be 16 hexadecimal digits, got '9c1e'"},
        {"run = id=1 batches=0000000000000000 acc=0.5\n",
         "batches must be 16 hexadecimal digits, got '0000000000000000'"},
    };
    PlErr err;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pl_test_write_file(path, bad[i][0], strlen(bad[i][0]));
        ck_assert_ptr_null(pl_session_read(path, &err));
        ck_assert_msg(strstr(err.msg, bad[i][1]) != NULL, "%s", err.msg);
    }
    size_t cap = 300 * 64, n = 0;
    char *text = malloc(cap);
    for (int id = 1; id <= 300; id++) n += (size_t)snprintf(text + n, cap - n, "run = id=%d acc=0.5 loss=0.6\n", id);
    pl_test_write_file(path, text, n);
    PlSession *s = pl_session_read(path, &err);
    ck_assert_msg(s != NULL, "%s", err.msg);
    ck_assert_int_eq(s->nruns, PL_LAB_MAX_RUNS);
    ck_assert_int_eq(s->runs[0].id, 300 - PL_LAB_MAX_RUNS + 1);
    ck_assert_int_eq(s->runs[PL_LAB_MAX_RUNS - 1].id, 300);
    pl_session_free(s);
    free(text);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

/* Two labs on one session (a teacher's window and a laptop's terminal):
 * the one that saves last keeps the runs the other saved, once each, and
 * a run whose id another already took is numbered after the highest. */
START_TEST(test_two_labs_on_one_session_lose_no_run) {
    char *dir = pl_test_tmpdir(), path[4200], other[4200];
    snprintf(path, sizeof path, "%s/shared.session", dir);
    snprintf(other, sizeof other, "%s/b.session", dir);
    static const char a_runs[] = "run = id=1 seed=0 acc=0.5 loss=0.6\nrun = id=2 seed=1 acc=0.55 loss=0.5\n";
    static const char b_runs[] = "run = id=1 seed=0 acc=0.5 loss=0.6\nrun = id=2 seed=2 acc=0.61 loss=0.4\n"
                                 "run = id=3 seed=3 acc=0.62 loss=0.3\n";
    PlErr err;
    PlLab *a = small_lab(), *b = small_lab();
    pl_test_write_file(path, a_runs, strlen(a_runs));
    PlSession *s = pl_session_read(path, &err);
    ck_assert_msg(s != NULL, "%s", err.msg);
    pl_lab_restore(a, s); /* a holds seeds 0, 1 */
    pl_session_free(s);
    pl_test_write_file(other, b_runs, strlen(b_runs));
    s = pl_session_read(other, &err);
    ck_assert_msg(s != NULL, "%s", err.msg);
    pl_lab_restore(b, s); /* b holds seeds 0, 2, 3 */
    pl_session_free(s);
    ck_assert_int_eq(pl_lab_save_session(b, path, &err), PL_OK);
    ck_assert_int_eq(pl_lab_save_session(a, path, &err), PL_OK); /* a saves last */
    s = pl_session_read(path, &err);
    ck_assert_msg(s != NULL, "%s", err.msg);
    ck_assert_int_eq(s->nruns, 4); /* b's seeds 2 and 3 first, then a's 0 and 1; seed 0 once */
    static const int seeds[] = {2, 3, 0, 1}, ids[] = {3, 4, 1, 2}; /* b renumbered its own 2 and 3 */
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(s->runs[i].settings.seed, seeds[i]);
        ck_assert_int_eq(s->runs[i].id, ids[i]);
    }
    ck_assert_double_eq_tol((double)s->runs[1].val_acc[0], 0.62, 1e-6);
    pl_session_free(s);
    ck_assert_int_eq(pl_lab_save_session(a, path, &err), PL_OK); /* again: nothing doubles */
    s = pl_session_read(path, &err);
    ck_assert_int_eq(s->nruns, 4);
    pl_session_free(s);
    pl_lab_free(a);
    pl_lab_free(b);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

/* The decision both front ends take from the app layer: a new file is
 * saved there, a readable one restored under the flags given, a damaged one
 * never written over but saved beside it, at the first free FILE.N. */
START_TEST(test_a_session_the_lab_cannot_read_is_saved_beside_it) {
    char *dir = pl_test_tmpdir(), path[4200], want[4300];
    snprintf(path, sizeof path, "%s/bad.session", dir);
    PlLabSettings flags = pl_settings_default();
    flags.mask = 1;
    unsigned given = PL_S_BIT(PL_S_MASK);
    PlSessionOpen o;
    pl_session_open(&o, NULL, &flags, given); /* no --session: nothing read, nothing saved */
    ck_assert(!o.session && !o.save[0] && !o.problem[0] && o.settings.mask == 1);
    pl_session_open(&o, path, &flags, given); /* a new file: saved there after the first run */
    ck_assert(!o.session && !o.error[0] && !o.problem[0]);
    ck_assert_str_eq(o.save, path);
    pl_test_write_file(path, "padding = post\nmask = off\n", 26);
    pl_session_open(&o, path, &flags, given); /* read: the flag given wins over the session's mask */
    ck_assert_ptr_nonnull(o.session);
    ck_assert(o.settings.padding == PL_POST && o.settings.mask == 1 && !o.problem[0]);
    ck_assert_str_eq(o.save, path);
    pl_session_open_done(&o);
    pl_test_write_file(path, "junk\n", 5);
    pl_session_open(&o, path, &flags, given);
    ck_assert(!o.session && o.settings.padding == PL_PRE && o.settings.mask == 1);
    ck_assert_msg(strstr(o.error, "bad.session:1: expected 'setting = value', got 'junk'") != NULL, "%s", o.error);
    snprintf(want, sizeof want, "%s.1", path);
    ck_assert_str_eq(o.save, want);
    ck_assert_msg(strstr(o.problem, ": the lab will not write over it; saving to bad.session.1 beside it") != NULL,
                  "%s", o.problem);
    pl_test_write_file(want, "taken", 5); /* FILE.1 is someone's: FILE.2 */
    pl_session_open(&o, path, &flags, given);
    snprintf(want, sizeof want, "%s.2", path);
    ck_assert_str_eq(o.save, want);
    char nowhere[4300];
    snprintf(nowhere, sizeof nowhere, "%s/nowhere", dir);
    ck_assert_int_eq(symlink(nowhere, want), 0); /* a link to nowhere at FILE.2 is a name taken too */
    pl_session_open(&o, path, &flags, given);
    snprintf(want, sizeof want, "%s.3", path);
    ck_assert_str_eq(o.save, want);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

/* Opening a FIFO with no writer would wait for one forever: a session that
 * is not a regular file is refused at once, and the lab saves beside it. */
START_TEST(test_a_fifo_named_as_the_session_is_refused_at_once) {
    char *dir = pl_test_tmpdir(), path[4200], want[4300];
    snprintf(path, sizeof path, "%s/pipe.session", dir);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    PlErr err;
    ck_assert_ptr_null(pl_session_read(path, &err));
    ck_assert_msg(strstr(err.msg, "pipe.session: a FIFO, not a regular file") != NULL, "%s", err.msg);
    PlLabSettings flags = pl_settings_default();
    PlSessionOpen o;
    pl_session_open(&o, path, &flags, 0);
    ck_assert_ptr_null(o.session);
    snprintf(want, sizeof want, "%s.1", path);
    ck_assert_str_eq(o.save, want);
    ck_assert_msg(strstr(o.problem, "a FIFO, not a regular file: the lab will not write over it") != NULL, "%s",
                  o.problem);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(test_an_autosave_that_fails_says_so_at_once) {
    PlLab *lab = lab_with("builtin:1:400", 1);
    pl_lab_autosave(lab, "/nonexistent-folder/s.session");
    pl_lab_command(lab, PL_CMD_RUN);
    wait_training(lab);
    char msg[256];
    ck_assert(pl_lab_take_notice(lab, msg, sizeof msg));
    ck_assert_msg(strstr(msg, "the session was not saved: /nonexistent-folder/s.session") != NULL, "%s", msg);
    pl_lab_free(lab);
}
END_TEST

START_TEST(test_random_bytes_as_a_session_fail_cleanly) {
    char *dir = pl_test_tmpdir(), path[4200];
    snprintf(path, sizeof path, "%s/junk.session", dir);
    PlRng rng;
    pl_rng_seed(&rng, 77);
    for (int trial = 0; trial < 80; trial++) {
        char buf[600];
        size_t n = (size_t)pl_rng_below(&rng, sizeof buf);
        for (size_t i = 0; i < n; i++) buf[i] = (char)pl_rng_below(&rng, 256);
        static const char *const starts[] = {"maxlen = ", "run = id=1 ", "grid = seeds="};
        if (trial % 2) memcpy(buf, starts[trial % 3], n > 9 ? 9 : n);
        pl_test_write_file(path, buf, n);
        PlErr err;
        PlSession *s = pl_session_read(path, &err);
        if (!s) ck_assert_ptr_nonnull(strstr(err.msg, "junk.session:"));
        else ck_assert(s->nruns >= 0 && s->nruns <= PL_LAB_MAX_RUNS && s->settings.maxlen >= 1);
        pl_session_free(s);
    }
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

/* ---- the result cache's invariants (pl_lab_cache_is_consistent) ---- */

/* The cache is consistent as the lab opens, once every result came in, and
 * after a change made them stale and they came in again; a slot broken by
 * hand (the worker held, so that it sees none of it) is not. */
START_TEST(test_the_result_cache_stays_consistent_and_a_broken_one_is_caught) {
    PlLab *lab = small_lab();
    unsigned every = (1u << PL_R_COUNT) - 1;
    ck_assert(pl_lab_cache_is_consistent(lab));
    ck_assert_int_eq(pl_lab_wait(lab, every, PL_TEST_PATIENCE), 0);
    ck_assert(pl_lab_cache_is_consistent(lab));
    ck_assert_int_eq(pl_lab_step(lab, PL_S_PADDING, 1), PL_LAB_COLD);
    ck_assert_int_eq(pl_lab_wait(lab, every, PL_TEST_PATIENCE), 0);
    ck_assert(pl_lab_cache_is_consistent(lab));
    pl_lab_results_hold(lab, 1);
    PlSlot *slot = &lab->slots[PL_R_BATCH];
    ck_assert_ptr_nonnull(slot->data);
    slot->busy = 1; /* busy while the worker computes nothing */
    ck_assert(!pl_lab_cache_is_consistent(lab));
    slot->busy = 0;
    slot->failed = 1; /* failed, yet holding a result */
    ck_assert(!pl_lab_cache_is_consistent(lab));
    slot->failed = 0;
    slot->info.kind = PL_R_COST; /* a result of another kind */
    ck_assert(!pl_lab_cache_is_consistent(lab));
    slot->info.kind = PL_R_BATCH;
    slot->has_incoming = 1; /* an incoming result that neither came nor failed */
    slot->in_key = slot->key, slot->in_info = slot->info, slot->in_failed = 0;
    ck_assert(!pl_lab_cache_is_consistent(lab));
    slot->has_incoming = 0;
    slot->demand = lab->gen + 1; /* asked for in a generation to come */
    ck_assert(!pl_lab_cache_is_consistent(lab));
    slot->demand = lab->gen;
    ck_assert(pl_lab_cache_is_consistent(lab));
    pl_lab_results_hold(lab, 0);
    pl_lab_free(lab);
}
END_TEST

Suite *lab_suite(void) {
    Suite *s = suite_create("lab");
    TCase *tc = tcase_create("changes");
    tcase_set_timeout(tc, PL_TEST_HANG);
    tcase_add_test(tc, test_the_lab_opens_on_a_review_with_pads);
    tcase_add_test(tc, test_changes_are_hot_or_cold);
    tcase_add_test(tc, test_undo_goes_back_and_reset_keeps_the_corpus_and_view);
    tcase_add_test(tc, test_results_come_from_the_worker_and_follow_the_settings);
    tcase_add_test(tc, test_every_view_shows_the_same_batch);
    tcase_add_test(tc, test_a_random_walk_over_the_settings_never_fails);
    tcase_add_test(tc, test_the_cost_headline_is_its_strategys_row);
    tcase_add_test(tc, test_a_change_never_waits_for_a_result);
    tcase_add_test(tc, test_maxlen_none_pads_to_the_longest_and_cuts_nothing);
    tcase_add_test(tc, test_the_result_cache_stays_consistent_and_a_broken_one_is_caught);
    suite_add_tcase(s, tc);
    TCase *tt = tcase_create("training");
    tcase_set_timeout(tt, PL_TEST_HANG);
    tcase_add_test(tt, test_a_retrain_trains_every_seed_and_groups_them);
    tcase_add_test(tt, test_a_seed_trained_again_counts_once);
    tcase_add_test(tt, test_a_model_without_attention_leaves_the_attention_view_fresh_and_says_why);
    tcase_add_test(tt, test_a_memorised_run_is_flagged);
    tcase_add_test(tt, test_pause_leaves_the_paused_time_out);
    tcase_add_test(tt, test_a_run_counts_the_labs_clock);
    tcase_add_test(tt, test_quitting_never_waits_on_a_stuck_training);
    tcase_add_test(tt, test_the_grid_trains_the_selected_model_over_the_seeds);
    tcase_add_test(tt, test_the_grid_gives_the_bits_of_the_experiment_run_alone);
    tcase_add_test(tt, test_a_70_30_corpus_reads_its_accuracies_against_70);
    tcase_add_test(tt, test_the_status_line_counts_what_it_trained);
    suite_add_tcase(s, tt);
    TCase *ts = tcase_create("sessions");
    tcase_set_timeout(ts, PL_TEST_HANG);
    tcase_add_test(ts, test_sessions_keep_settings_runs_and_the_grid);
    tcase_add_test(ts, test_an_autosave_that_fails_says_so_at_once);
    tcase_add_test(ts, test_a_session_the_lab_cannot_read_is_saved_beside_it);
    tcase_add_test(ts, test_a_session_refuses_runs_it_cannot_plot_and_keeps_the_newest);
    tcase_add_test(ts, test_two_labs_on_one_session_lose_no_run);
    tcase_add_test(ts, test_a_fifo_named_as_the_session_is_refused_at_once);
    tcase_add_test(ts, test_random_bytes_as_a_session_fail_cleanly);
    suite_add_tcase(s, ts);
    return s;
}
