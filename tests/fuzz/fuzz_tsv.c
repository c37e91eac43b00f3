/* libFuzzer harness: the TSV corpus parser (LABEL<TAB>TEXT lines), from
 * memory. A corpus it accepts must be consistent: offsets rising, every id
 * below num_words, labels 0 or 1. */
#include "core/corpus_loaders.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    PlCorpusOpts opts = {.num_words = 50};
    PlCorpus *c = NULL;
    PlErr err;
    if (pl_corpus_load_tsv_mem("fuzz.tsv", (const char *)data, size, &opts, &c, &err) == PL_OK) {
        FUZZ_CHECK(c->n > 0 && c->offsets[0] == 0);
        for (int i = 0; i < c->n; i++) {
            FUZZ_CHECK(c->offsets[i + 1] >= c->offsets[i]);
            FUZZ_CHECK(c->labels[i] <= 1);
        }
        for (int64_t k = 0; k < c->offsets[c->n]; k++) FUZZ_CHECK(c->ids[k] >= 0 && c->ids[k] < c->num_words);
        pl_corpus_free(c);
    } else {
        FUZZ_CHECK(c == NULL && err.msg[0] && !strchr(err.msg, '\n'));
    }
    return 0;
}
