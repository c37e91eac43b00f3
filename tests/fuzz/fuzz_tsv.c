/* libFuzzer harness: the TSV corpus parser (LABEL<TAB>TEXT lines), from
 * memory and from a file read in three parts side by side. A corpus it
 * accepts must be consistent (offsets rising, every id below num_words,
 * labels 0 or 1) and the same both ways; a refusal is one line both ways. */
#include <sys/stat.h>

#include "core/corpus_loaders.h"
#include "fuzz_util.h"

static void check_same(const PlCorpus *a, const PlCorpus *b) {
    FUZZ_CHECK(a->n == b->n && a->vocab_size == b->vocab_size);
    FUZZ_CHECK(memcmp(a->offsets, b->offsets, ((size_t)a->n + 1) * sizeof *a->offsets) == 0);
    FUZZ_CHECK(memcmp(a->ids, b->ids, (size_t)a->offsets[a->n] * sizeof *a->ids) == 0);
    FUZZ_CHECK(memcmp(a->labels, b->labels, (size_t)a->n) == 0);
    for (int id = 0; id < a->vocab_size; id++) FUZZ_CHECK(strcmp(pl_corpus_word(a, id), pl_corpus_word(b, id)) == 0);
}

static PlStatus load_in_parts(const uint8_t *data, size_t size, const PlCorpusOpts *opts, PlCorpus **c, PlErr *err) {
    const char *path = fuzz_file("in.tsv", data, size);
    FILE *f = fopen(path, "rb");
    FUZZ_CHECK(f != NULL);
    PlStatus st = pl_corpus_load_tsv_parts(path, f, size, 3, opts, c, err);
    fclose(f);
    return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    PlCorpusOpts opts = {.num_words = 50};
    PlCorpus *c = NULL, *parts = NULL;
    PlErr err, err_parts;
    PlStatus st = pl_corpus_load_tsv_mem("fuzz.tsv", (const char *)data, size, &opts, &c, &err);
    PlStatus st_parts = load_in_parts(data, size, &opts, &parts, &err_parts);
    FUZZ_CHECK((st == PL_OK) == (st_parts == PL_OK));
    if (st == PL_OK) {
        FUZZ_CHECK(c->n > 0 && c->offsets[0] == 0);
        for (int i = 0; i < c->n; i++) {
            FUZZ_CHECK(c->offsets[i + 1] >= c->offsets[i]);
            FUZZ_CHECK(c->labels[i] <= 1);
        }
        for (int64_t k = 0; k < c->offsets[c->n]; k++) FUZZ_CHECK(c->ids[k] >= 0 && c->ids[k] < c->num_words);
        check_same(c, parts);
        pl_corpus_free(c);
        pl_corpus_free(parts);
    } else {
        FUZZ_CHECK(c == NULL && err.msg[0] && !strchr(err.msg, '\n'));
        FUZZ_CHECK(parts == NULL && err_parts.msg[0] && !strchr(err_parts.msg, '\n'));
    }
    return 0;
}
