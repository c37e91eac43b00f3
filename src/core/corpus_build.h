/* Private to the corpus loaders: accumulates labelled texts or token lists,
 * interning words as they come, then ranks the vocabulary and produces a
 * PlCorpus. */
#ifndef PL_CORPUS_BUILD_H
#define PL_CORPUS_BUILD_H

#include "corpus.h"

typedef struct {
    PlVocab vocab;
    int32_t *ids; /* 1 for the start token, vocab index + 3 for a word */
    int64_t n_ids, cap_ids;
    int64_t *offsets; /* (cap + 1) */
    uint8_t *labels;
    int n, cap;
    uint32_t *tally; /* (tally_cap) occurrences of word i not yet in vocab.count: half its width, so */
    int tally_cap;   /* a large text's counts take half the cache they took */
    int64_t tallied; /* ids counted in the tally: it goes into vocab.count before one could overflow */
    char *clean; /* scratch for pl_text_clean */
    size_t clean_cap;
    PlStatus st; /* first failure inside a token callback */
} PlCorpusBuilder;

void pl_builder_init(PlCorpusBuilder *b);
void pl_builder_done(PlCorpusBuilder *b);

/* Sizes b for examples made of about `bytes` bytes of text: room for as
 * many ids as such text can hold in all likelihood, and a vocabulary table
 * that needs no growing through its first words. A hint: when there is no
 * memory for it, b grows as it goes. */
void pl_builder_expect(PlCorpusBuilder *b, uint64_t bytes);

/* Adds b's tally into its vocabulary's counts and empties it: what
 * finishing does first. Can't fail. */
void pl_builder_count(PlCorpusBuilder *b);

/* Tokenizes text[0..n) and appends it as one example. */
PlStatus pl_builder_add_text(PlCorpusBuilder *b, int label, const char *text, size_t n);

/* Appends one example made of already clean words. */
PlStatus pl_builder_add_words(PlCorpusBuilder *b, int label, const char *const *words, int n);

/* Appends one example exactly as written, with no start token: each of
 * tokens[0..n) is a special token ("0" or "<pad>", "<start>", "<oov>") or
 * text, cleaned and split as pl_builder_add_text does. */
PlStatus pl_builder_add_tokens(PlCorpusBuilder *b, int label, const char *const *tokens, int n);

/* Reorders the examples so that the first `split` and the rest alternate:
 * a0 b0 a1 b1 ..., the longer group's tail last. Returns PL_ENOMEM on failure. */
PlStatus pl_builder_interleave(PlCorpusBuilder *b, int split);

/* Ranks the vocabulary and moves everything into a new corpus. The builder is
 * emptied either way. name fills corpus->source. */
PlStatus pl_builder_finish(PlCorpusBuilder *b, const PlCorpusOpts *opts, const char *name, PlCorpus **out, PlErr *err);

/* The same for the n builders part[0..n) taken one after another: the
 * corpus one builder given all their examples in turn would finish into,
 * whatever n (corpus_finish.c says how). Each part's ids are placed by a
 * thread of its own, part 0's by this one. Every builder is emptied either
 * way. */
PlStatus pl_builder_finish_parts(PlCorpusBuilder *part, int n, const PlCorpusOpts *opts, const char *name,
                                 PlCorpus **out, PlErr *err);

/* Fills c->rank_of_word and c->word_of_id from c->vocab (ranks by
 * descending count, ties in order of first appearance). PL_ENOMEM on
 * failure (pl_corpus_free still frees what was made). */
PlStatus pl_corpus_rank_words(PlCorpus *c);

/* Writes a printable, quoted excerpt of s[0..n) (at most 24 bytes shown) into
 * buf, for error messages. Returns buf. */
char *pl_snippet(char *buf, size_t cap, const char *s, size_t n);

/* The largest corpus file read: 2 GiB. */
#define PL_MAX_FILE_BYTES ((size_t)1 << 31)

/* Reads a whole file into a new buffer (*buf, freed by the caller).
 * Fails with PL_EIO (unreadable) or PL_ENOMEM (too large). */
PlStatus pl_read_file(const char *path, char **buf, size_t *n, PlErr *err);

#endif
