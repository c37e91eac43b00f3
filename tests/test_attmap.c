/* The attention map (app/lab/attmap.c) on hand-worked cases, and the two
 * figures it reads from the attention probe: how many keys each query sees
 * and each head's pad share. */
#include <math.h>
#include <string.h>

#include "app/lab/attmap.h"
#include "core/corpus_load.h"
#include "core/corpus_loaders.h"
#include "core/probe.h"
#include "suites.h"

/* A hand-made result: T = 4, one head, keys 0 and 1 pads (pre padding). */
typedef struct {
    PlProbeAttention a;
    uint8_t real[4];
    float bias[16], weights[16], leak[4];
    int visible[4];
} Hand;

static void hand_init(Hand *h, int mask_causal) {
    memset(h, 0, sizeof *h);
    static const uint8_t real[4] = {0, 0, 1, 1};
    /* mask off: every query sees every key, weights as below (rows sum to 1) */
    static const float open[16] = {0.25f, 0.25f, 0.25f, 0.25f, 0.25f,   0.25f,   0.25f,  0.25f,
                                   0.1f,  0.1f,  0.4f,  0.4f,  0.0625f, 0.0625f, 0.125f, 0.75f};
    /* mask and causal on: query 2 sees key 2, query 3 keys 2 and 3, queries 0 and 1 none */
    static const float shut[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1.0f, 0, 0, 0, 0.5f, 0.5f};
    memcpy(h->real, real, sizeof real);
    memcpy(h->weights, mask_causal ? shut : open, sizeof open);
    for (int q = 0; q < 4; q++)
        for (int k = 0; k < 4; k++) {
            int hidden = mask_causal && (!real[k] || k > q);
            h->bias[q * 4 + k] = hidden ? -INFINITY : 0.0f;
            h->visible[q] += !hidden;
            h->leak[q] += real[k] ? 0.0f : h->weights[q * 4 + k];
        }
    h->a.T = 4, h->a.heads = 1, h->a.L = 2, h->a.mask = h->a.causal = mask_causal;
    h->a.real = h->real, h->a.bias = h->bias, h->a.weights = h->weights, h->a.leak = h->leak;
    h->a.visible = h->visible;
}

#define NEAR(x, want) ck_assert_msg(fabs((double)(x) - (want)) < 1e-5, "%s = %.6f, want %.6f", #x, (double)(x), (want))

START_TEST(test_a_cell_is_its_weight_against_uniform_and_a_row_its_pad_share) {
    Hand h;
    hand_init(&h, 0);
    PlAttMap m;
    ck_assert_int_eq(pl_attmap_make(&m, &h.a, 4, 4), PL_OK);
    ck_assert_int_eq(m.nq, 4);
    ck_assert_int_eq(m.nk, 4);
    ck_assert_int_eq(m.kper, 1);
    NEAR(m.rel[0 * 4 + 0], 0.0);                       /* 0.25 x 4 keys = 1: even */
    NEAR(m.rel[2 * 4 + 0], log2(0.4));                 /* 0.1 x 4 */
    NEAR(m.rel[3 * 4 + 3], log2(3.0));                 /* 0.75 x 4 */
    NEAR(m.rel[3 * 4 + 0], -2.0);                      /* 0.0625 x 4 = 1/4 */
    ck_assert(isnan(m.share[0]) && isnan(m.share[1])); /* pad queries have no bar */
    NEAR(m.share[2], 0.2);
    NEAR(m.share[3], 0.125);
    ck_assert_int_eq(m.pad_keys[0], 1);
    ck_assert_int_eq(m.pad_keys[2], 0);
    ck_assert_int_eq(m.pad_queries[1], 1);
    ck_assert_int_eq(m.pad_queries[3], 0);
    NEAR(pl_attmap_rel_cell(&h.a, 3, 3), 3.0);
    pl_attmap_free(&m);
}
END_TEST

START_TEST(test_a_block_is_the_mean_of_its_queries_and_keys) {
    Hand h;
    hand_init(&h, 0);
    PlAttMap m;
    /* at most 3 blocks of 4: 2 to a block, so 2 blocks */
    ck_assert_int_eq(pl_attmap_make(&m, &h.a, 3, 3), PL_OK);
    ck_assert_int_eq(m.nq, 2);
    ck_assert_int_eq(m.kper, 2);
    ck_assert_int_eq(m.qper, 2);
    NEAR(m.rel[0], 0.0);
    /* queries 2, 3 on pad keys 0, 1: (0.2 / 2 x 4 + 0.125 / 2 x 4) / 2 = 0.325 */
    NEAR(m.rel[2], log2(0.325));
    /* on real keys 2, 3: (0.8 / 2 x 4 + 0.875 / 2 x 4) / 2 = 1.675 */
    NEAR(m.rel[3], log2(1.675));
    NEAR(m.share[1], (0.2 + 0.125) / 2);
    ck_assert(isnan(m.share[0]));
    ck_assert_int_eq(m.pad_keys[0], 2);
    ck_assert_int_eq(m.pad_keys[1], 0);
    ck_assert_int_eq(m.pad_queries[0], 2);
    pl_attmap_free(&m);
    pl_attmap_free(&m); /* harmless twice */
}
END_TEST

START_TEST(test_hidden_keys_take_no_part_and_an_all_hidden_block_is_nan) {
    Hand h;
    hand_init(&h, 1);
    PlAttMap m;
    ck_assert_int_eq(pl_attmap_make(&m, &h.a, 4, 4), PL_OK);
    ck_assert(isnan(m.rel[0]) && isnan(m.rel[2 * 4 + 3])); /* no key; the causal mask hides key 3 from query 2 */
    NEAR(m.rel[2 * 4 + 2], 0.0);                           /* 1 x 1 key seen */
    NEAR(m.rel[3 * 4 + 2], 0.0);                           /* 0.5 x 2 keys seen */
    NEAR(m.share[2], 0.0);
    pl_attmap_free(&m);
    ck_assert_int_eq(pl_attmap_make(&m, &h.a, 2, 2), PL_OK);
    ck_assert(isnan(m.rel[0]) && isnan(m.rel[1]) && isnan(m.rel[2]));
    NEAR(m.rel[3], 0.0); /* query 2: 1 / 1 key x 1, query 3: 1 / 2 keys x 2 */
    pl_attmap_free(&m);
}
END_TEST

/* Reviews of 4, 6 and 2 tokens (start token included). */
static const char *tiny_tsv = "1\tgood fine film\n0\tbad bad dull slow film\n1\tgood\n";

START_TEST(test_the_probe_counts_the_keys_each_query_sees_and_each_heads_share) {
    PlCorpus *c;
    ck_assert_int_eq(pl_corpus_load_tsv_mem("tiny.tsv", tiny_tsv, strlen(tiny_tsv), NULL, &c, NULL), PL_OK);
    static const int rows[] = {2, 1};
    for (int mask = 0; mask < 2; mask++)
        for (int causal = 0; causal < 2; causal++) {
            PlProbeOpts o = pl_probe_opts_default();
            o.example = 2, o.batch = rows, o.nbatch = 2, o.maxlen = 6, o.padding = PL_PRE, o.mask = mask;
            PlProbeAttention r;
            ck_assert_int_eq(pl_probe_attention(c, &o, NULL, 2, 4, causal, &r, NULL), PL_OK);
            ck_assert_int_eq(r.T, 6);
            ck_assert_int_eq(r.L, 2); /* 4 pads, then 2 tokens */
            for (int q = 0; q < 6; q++) {
                int want = 0; /* the keys up to q (causal) or all, the real ones (mask) */
                for (int k = 0; k < 6; k++) want += (!causal || k <= q) && (!mask || k >= 4);
                ck_assert_int_eq(r.visible[q], want);
            }
            double all = 0.0;
            for (int hd = 0; hd < 2; hd++) {
                double s = (double)r.leak[hd * 6 + 4] + (double)r.leak[hd * 6 + 5];
                NEAR(r.head_pad_share[hd], s / 2);
                all += s / 2;
            }
            NEAR(r.pad_share, all / 2);
            if (mask) NEAR(r.head_pad_share[0], 0.0);
            pl_probe_attention_free(&r);
        }
    pl_corpus_free(c);
}
END_TEST

Suite *attmap_suite(void) {
    Suite *s = suite_create("attmap");
    TCase *tc = tcase_create("map");
    tcase_set_timeout(tc, PL_TEST_HANG);
    tcase_add_test(tc, test_a_cell_is_its_weight_against_uniform_and_a_row_its_pad_share);
    tcase_add_test(tc, test_a_block_is_the_mean_of_its_queries_and_keys);
    tcase_add_test(tc, test_hidden_keys_take_no_part_and_an_all_hidden_block_is_nan);
    tcase_add_test(tc, test_the_probe_counts_the_keys_each_query_sees_and_each_heads_share);
    suite_add_tcase(s, tc);
    return s;
}
