/* The corpus type's accessors. The loaders are corpus_loaders.h. */
#include "corpus.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "digest.h"

void pl_corpus_free(PlCorpus *c) {
    if (!c) return;
    free(c->offsets);
    if (c->map) munmap(c->map, c->map_len);
    else free(c->ids);
    free(c->labels);
    free(c->word_of_id);
    free(c->rank_of_word);
    pl_vocab_done(&c->vocab);
    free(c);
}

const char *pl_corpus_word(const PlCorpus *c, int id) {
    static const char *const reserved[] = {"<pad>", "<start>", "<oov>"};
    if (id >= 0 && id < PL_FIRST_WORD_ID) return reserved[id];
    if (id < 0 || id >= c->vocab_size) return "<?>";
    return pl_vocab_word(&c->vocab, c->word_of_id[id - PL_FIRST_WORD_ID]);
}

int pl_corpus_word_id(const PlCorpus *c, const char *word) {
    int idx = pl_vocab_find(&c->vocab, word, strlen(word));
    return idx < 0 ? -1 : c->rank_of_word[idx] + PL_FIRST_WORD_ID;
}

void pl_corpus_lengths(const PlCorpus *c, int *len) {
    for (int i = 0; i < c->n; i++) len[i] = pl_corpus_len(c, i);
}

int pl_corpus_longest(const PlCorpus *c) {
    int longest = 0;
    for (int i = 0; i < c->n; i++)
        if (pl_corpus_len(c, i) > longest) longest = pl_corpus_len(c, i);
    return longest;
}

uint64_t pl_corpus_digest(const PlCorpus *c) {
    PlDigest d;
    int32_t head[3] = {c->n, c->num_words, c->vocab_size};
    pl_digest_init(&d, 0x636f72707573ULL); /* "corpus" */
    pl_digest_add(&d, head, sizeof head);
    pl_digest_add(&d, c->offsets, (size_t)(c->n + 1) * sizeof *c->offsets);
    pl_digest_add(&d, c->ids, (size_t)c->offsets[c->n] * sizeof *c->ids);
    pl_digest_add(&d, c->labels, (size_t)c->n);
    for (int id = PL_FIRST_WORD_ID; id < c->vocab_size; id++) {
        const char *w = pl_corpus_word(c, id);
        uint32_t len = (uint32_t)strlen(w);
        pl_digest_add(&d, &len, sizeof len);
        pl_digest_add(&d, w, len);
    }
    return pl_digest_end(&d);
}
