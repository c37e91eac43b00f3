/* One Check suite per core module; check_main runs them all. */
#ifndef PL_TEST_SUITES_H
#define PL_TEST_SUITES_H

#include <check.h>

#include "core/corpus.h"
#include "patience.h"

Suite *text_suite(void);
Suite *corpus_suite(void);
Suite *pad_suite(void);
Suite *mask_suite(void);
Suite *plan_suite(void);
Suite *cost_suite(void);
Suite *stats_suite(void);
Suite *nn_suite(void);
Suite *kernels_suite(void);
Suite *model_suite(void);
Suite *probe_suite(void);
Suite *attmap_suite(void);
Suite *settings_suite(void);
Suite *lab_suite(void);
Suite *train_suite(void);
Suite *export_suite(void);
Suite *lessons_suite(void);
Suite *lesson_review_suite(void);
Suite *quantity_suite(void);
Suite *ledger_suite(void);
Suite *drill_suite(void);
Suite *atomic_suite(void);
Suite *dirs_suite(void);
Suite *book_suite(void);
Suite *kata_suite(void);
Suite *class_suite(void);
Suite *limit_suite(void);
/* Returns NULL, after saying why, when the reference corpus is absent;
 * *skipped is then the number of checks that did not run. */
Suite *reference_suite(int *skipped);
/* The same when the reference corpus is absent: its imdb5k check is left out. */
Suite *cache_suite(int *skipped);
/* The same when the shared corpora are absent: its checks are left out. */
Suite *corpus_parts_suite(int *skipped);

/* How many corpora the shipped lessons and decks are played on, and the
 * k-th: builtin and the generated 70/30 one (make check); with
 * PADLAB_TEST_PLAY=imdb5k, imdb5k alone (tests/play_all.sh, make
 * check-full, when it is beside the tree). The build under the sanitizers
 * plays them on builtin alone: it looks for memory errors, which the corpus
 * does not change, and the plain build covers the three. */
int pl_test_play_corpora(void);
const char *pl_test_play_corpus(int k);

/* The reference corpus's path (PADLAB_SHARED_DATA/imdb5k.tsv), or NULL when
 * it is not there. */
const char *pl_test_imdb_path(void);

/* A fresh temporary directory for a test (removed by pl_test_rmtree). */
char *pl_test_tmpdir(void);
void pl_test_rmtree(const char *path);
void pl_test_write_file(const char *path, const char *data, size_t n);

/* Asserts that two corpora are the same, field for field (test_cache.c). */
void pl_test_assert_same_corpus(const PlCorpus *a, const PlCorpus *b);

#endif
