/* libFuzzer harness: reading a corpus cache entry (corpus_cache.h). The
 * input is an entry; the harness takes its key from the input's own header
 * and sets its payload digest (bytes 72..80 of the header) to the body's,
 * so that mutations reach the checks past the digest. An entry it accepts
 * must be a consistent corpus: offsets rising from 0 to the id count,
 * every id below num_words and the vocabulary, labels 0 or 1, and every
 * id's word printable back. */
#include "core/corpus_cache.h"
#include "core/digest.h"
#include "fuzz_util.h"

enum { HEADER = 80 };

static uint64_t field64(const uint8_t *p, size_t at) {
    uint64_t x;
    memcpy(&x, p + at, 8);
    return x;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint8_t *entry = malloc(size ? size : 1);
    FUZZ_CHECK(entry != NULL);
    memcpy(entry, data, size);
    PlCacheKey key = {0};
    if (size >= HEADER) {
        uint64_t body = pl_digest(0, entry + HEADER, size - HEADER);
        memcpy(entry + 72, &body, 8);
        int32_t num_words;
        memcpy(&num_words, entry + 40, 4);
        key = (PlCacheKey){field64(entry, 16), field64(entry, 24), num_words, field64(entry, 32)};
    }
    const char *path = fuzz_file("in.corpus", entry, size);
    free(entry);
    PlCorpus *c = NULL;
    if (pl_cache_read(path, &key, &c) != PL_OK) {
        FUZZ_CHECK(c == NULL);
        return 0;
    }
    FUZZ_CHECK(c->n > 0 && c->offsets[0] == 0 && c->map != NULL && c->num_words > PL_FIRST_WORD_ID);
    for (int i = 0; i < c->n; i++) FUZZ_CHECK(c->offsets[i + 1] >= c->offsets[i] && c->labels[i] <= 1);
    for (int64_t k = 0; k < c->offsets[c->n]; k++) {
        FUZZ_CHECK(c->ids[k] >= 0 && c->ids[k] < c->num_words && c->ids[k] < c->vocab_size);
        FUZZ_CHECK(pl_corpus_word(c, c->ids[k])[0] != '\0');
    }
    pl_corpus_free(c);
    return 0;
}
