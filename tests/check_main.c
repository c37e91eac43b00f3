/* Runs every core suite and prints a tally line that quickstart adds up:
 *   tally: N passed, N failed, N skipped
 * Pass suite names as arguments to run only those. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/dirs.h"
#include "suites.h"

const char *pl_test_imdb_path(void) {
    static char path[4096];
    const char *dir = getenv("PADLAB_SHARED_DATA");
    snprintf(path, sizeof path, "%s/imdb5k.tsv", dir ? dir : "../shared/data");
    return access(path, R_OK) == 0 ? path : NULL;
}

/* PADLAB_TEST_PLAY=imdb5k (tests/play_all.sh, the long suite): imdb5k alone. */
static int imdb_only(void) {
    const char *only = getenv("PADLAB_TEST_PLAY");
    return only && strcmp(only, "imdb5k") == 0 && pl_test_imdb_path();
}

int pl_test_play_corpora(void) {
#if defined(__SANITIZE_ADDRESS__)
    return 1;
#else
    return imdb_only() ? 1 : 2;
#endif
}

const char *pl_test_play_corpus(int k) {
    if (imdb_only()) return pl_test_imdb_path();
    return k == 0 ? "builtin" : "builtin:0:5000:70";
}

char *pl_test_tmpdir(void) {
    char tmpl[] = "/tmp/padlab-test-XXXXXX";
    char *d = mkdtemp(tmpl);
    ck_assert_ptr_nonnull(d);
    return strdup(d);
}

void pl_test_rmtree(const char *path) {
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", path);
    ck_assert_int_eq(system(cmd), 0);
}

void pl_test_write_file(const char *path, const char *data, size_t n) {
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(data, 1, n, f), n);
    fclose(f);
}

typedef struct {
    const char *name;
    Suite *(*make)(void);
} SuiteRow;

static const SuiteRow suites[] = {
    {"text", text_suite},         {"corpus", corpus_suite},   {"pad", pad_suite},
    {"mask", mask_suite},         {"plan", plan_suite},       {"cost", cost_suite},
    {"stats", stats_suite},       {"nn", nn_suite},           {"kernels", kernels_suite},
    {"model", model_suite},       {"probe", probe_suite},     {"attmap", attmap_suite},
    {"settings", settings_suite}, {"lab", lab_suite},         {"train", train_suite},
    {"export", export_suite},     {"lessons", lessons_suite}, {"review", lesson_review_suite},
    {"quantity", quantity_suite}, {"ledger", ledger_suite},   {"drill", drill_suite},
    {"atomic", atomic_suite},     {"dirs", dirs_suite},       {"book", book_suite},
    {"kata", kata_suite},         {"class", class_suite},     {"limit", limit_suite},
};

static int wanted(const char *name, int argc, char **argv) {
    if (argc < 2) return 1;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], name) == 0) return 1;
    return 0;
}

int main(int argc, char **argv) {
    pl_dirs_setup_core(); /* as padlab's main: the corpus cache under XDG_CACHE_HOME, which make check sets */
    SRunner *sr = srunner_create(NULL);
    for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++)
        if (wanted(suites[i].name, argc, argv)) srunner_add_suite(sr, suites[i].make());
    int skipped = 0;
    if (wanted("cache", argc, argv)) {
        int left_out;
        srunner_add_suite(sr, cache_suite(&left_out));
        skipped += left_out;
    }
    if (wanted("corpus_parts", argc, argv)) {
        int left_out;
        srunner_add_suite(sr, corpus_parts_suite(&left_out));
        skipped += left_out;
    }
    if (wanted("reference", argc, argv)) {
        int left_out;
        Suite *ref = reference_suite(&left_out);
        if (ref) srunner_add_suite(sr, ref);
        skipped += left_out;
    }
    srunner_run_all(sr, CK_NORMAL);
    int run = srunner_ntests_run(sr), failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    printf("tally: %d passed, %d failed, %d skipped\n", run - failed, failed, skipped);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
