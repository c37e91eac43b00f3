/* Finishing builders into a corpus.
 *
 * A builder holds examples in order, with its own vocabulary (indices by
 * first appearance in it, counts of its own). Builders taken one after
 * another have the vocabulary one builder would have built from all their
 * text: a word first appears in the first builder that has it, at its first
 * appearance there, and its counts add up. So the finish
 *   1. merges the vocabularies of parts 1.. into part 0's, in part order
 *      (map: a part's word index -> the corpus's),
 *   2. ranks the merged vocabulary (pl_corpus_rank_words),
 *   3. turns each part's map into its final ids (rank + 3, or PL_OOV_ID
 *      from num_words on),
 *   4. places every part's ids, offsets and labels in its stretch of part
 *      0's arrays grown to the whole: part 0 in place, the others copied
 *      down from their end, their memory given back a chunk at a time.
 * Steps 1-3 go over words, step 4 over tokens, one thread a part. Each
 * part writes only its own stretch, so the corpus is the same bits
 * whatever the number of parts or threads and whichever ends first. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_build.h"

typedef struct {
    PlCorpusBuilder *from;
    int nwords;       /* the part's words */
    int *final;       /* (nwords) the corpus id of the part's word i */
    int32_t *ids;     /* the corpus's ids from the part's first on */
    int64_t *offsets; /* the corpus's offsets from the part's first example on */
    uint8_t *labels;  /* the corpus's labels from the part's first example on */
    int64_t base;     /* ids before the part */
} Placing;

#define MOVE_CHUNK ((int64_t)1 << 22) /* ids: 16 MiB given back at a time */

/* Writes the part's ids as final ids at p->ids (which may be the part's own
 * array: a later id is never read after an earlier one is written), last
 * chunk first; a copy gives each chunk's memory back once it is written. */
static void place_ids(const Placing *p) {
    PlCorpusBuilder *b = p->from;
    const int *final = p->final;
    for (int64_t end = b->n_ids; end > 0;) {
        int64_t beg = end > MOVE_CHUNK ? end - MOVE_CHUNK : 0;
        for (int64_t k = beg; k < end; k++) {
            int32_t id = b->ids[k];
            p->ids[k] = id < PL_FIRST_WORD_ID ? id : final[id - PL_FIRST_WORD_ID];
        }
        end = beg;
        if (p->ids == b->ids) continue;
        if (end == 0) {
            free(b->ids), b->ids = NULL, b->cap_ids = 0;
            break;
        }
        int32_t *shrunk = realloc(b->ids, (size_t)end * sizeof *shrunk);
        if (shrunk) b->ids = shrunk, b->cap_ids = end; /* a refused shrink only keeps the memory longer */
    }
}

static void *place(void *arg) {
    const Placing *p = arg;
    place_ids(p);
    PlCorpusBuilder *b = p->from;
    if (p->offsets == b->offsets || b->n == 0) return NULL; /* part 0: already in place; an empty part has no arrays */
    for (int i = 0; i < b->n; i++) p->offsets[i] = p->base + b->offsets[i];
    memcpy(p->labels, b->labels, (size_t)b->n);
    return NULL;
}

/* Places every part, each but part 0 on a thread of its own when one can be
 * had (else on this one). */
static void place_all(Placing *pl, int n) {
    pthread_t *th = malloc((size_t)n * sizeof *th);
    char *started = calloc((size_t)n, 1);
    for (int k = 1; k < n && th && started; k++)
        started[k] = pl[k].from->n_ids > 0 && pthread_create(&th[k], NULL, place, &pl[k]) == 0;
    place(&pl[0]);
    for (int k = 1; k < n; k++)
        if (started && started[k]) pthread_join(th[k], NULL);
        else place(&pl[k]);
    free(th);
    free(started);
}

/* Steps 1 and 3: each part's map to the merged vocabulary (in part order),
 * then, once c is ranked, to final ids. */
static PlStatus merge_words(PlCorpusBuilder *part, int n, Placing *pl) {
    for (int k = 0; k < n; k++) {
        PlVocab *v = &part[k].vocab;
        pl[k].nwords = v->n;
        pl[k].final = malloc((size_t)(v->n ? v->n : 1) * sizeof *pl[k].final);
        if (!pl[k].final) return PL_ENOMEM;
        if (k == 0)
            for (int i = 0; i < v->n; i++) pl[k].final[i] = i;
        else if (pl_vocab_merge(&part[0].vocab, v, pl[k].final)) return PL_ENOMEM;
        if (k > 0) pl_vocab_done(v); /* its words are in part 0's now */
    }
    return PL_OK;
}

static void final_ids(const PlCorpus *c, Placing *pl, int n) {
    for (int k = 0; k < n; k++)
        for (int i = 0; i < pl[k].nwords; i++) {
            int id = c->rank_of_word[pl[k].final[i]] + PL_FIRST_WORD_ID;
            pl[k].final[i] = id < c->num_words ? id : PL_OOV_ID;
        }
}

/* Grows part 0's arrays to hold every part and points each placing at its stretch. */
static PlStatus make_room(PlCorpusBuilder *part, int n, Placing *pl, int64_t n_ids, int64_t n_ex) {
    PlCorpusBuilder *b = &part[0];
    /* at least one of each, so that a corpus with no id or no example still has arrays to point into (no
     * offset is added to a null pointer) */
    if (n_ids > b->cap_ids || !b->ids) {
        int64_t want = n_ids > 0 ? n_ids : 1;
        int32_t *ids = realloc(b->ids, (size_t)want * sizeof *ids);
        if (!ids) return PL_ENOMEM;
        b->ids = ids, b->cap_ids = want;
    }
    if (n_ex > b->cap || !b->offsets || !b->labels) {
        int64_t *off = realloc(b->offsets, ((size_t)n_ex + 1) * sizeof *off);
        if (!off) return PL_ENOMEM;
        b->offsets = off;
        uint8_t *lab = realloc(b->labels, (size_t)n_ex + 1);
        if (!lab) return PL_ENOMEM;
        b->labels = lab, b->cap = (int)n_ex;
    }
    for (int k = 0, first = 0; k < n; first += part[k++].n) {
        pl[k].ids = b->ids + pl[k].base;
        pl[k].offsets = b->offsets + first;
        pl[k].labels = b->labels + first;
    }
    b->offsets[n_ex] = n_ids;
    return PL_OK;
}

/* Moves part 0's arrays and merged vocabulary into c. */
static void take_arrays(PlCorpus *c, PlCorpusBuilder *b, int64_t n_ex, const char *name) {
    c->n = (int)n_ex;
    c->ids = b->ids;
    c->offsets = b->offsets;
    c->labels = b->labels;
    c->vocab_size = c->vocab.n + PL_FIRST_WORD_ID;
    snprintf(c->source, sizeof c->source, "%s", name);
    b->ids = NULL;
    b->offsets = NULL;
    b->labels = NULL;
}

PlStatus pl_builder_finish_parts(PlCorpusBuilder *part, int n, const PlCorpusOpts *opts, const char *name,
                                 PlCorpus **out, PlErr *err) {
    *out = NULL;
    PlCorpus *c = calloc(1, sizeof *c);
    Placing *pl = calloc((size_t)n, sizeof *pl);
    int64_t n_ids = 0, n_ex = 0;
    for (int k = 0; k < n; k++) pl_builder_count(&part[k]);
    for (int k = 0; k < n; k++) {
        if (pl) pl[k].from = &part[k], pl[k].base = n_ids;
        n_ids += part[k].n_ids, n_ex += part[k].n;
    }
    if (!c || !pl || n_ex >= INT32_MAX - 1 || merge_words(part, n, pl)) goto nomem;
    c->num_words = opts && opts->num_words > 0 ? opts->num_words : PL_DEFAULT_NUM_WORDS;
    c->vocab = part[0].vocab;
    pl_vocab_init(&part[0].vocab);
    if (pl_corpus_rank_words(c) || make_room(part, n, pl, n_ids, n_ex)) goto nomem;
    final_ids(c, pl, n);
    place_all(pl, n);
    take_arrays(c, &part[0], n_ex, name);
    for (int k = 0; k < n; k++) free(pl[k].final), pl_builder_done(&part[k]);
    free(pl);
    *out = c;
    return PL_OK;
nomem:
    for (int k = 0; k < n; k++) {
        if (pl) free(pl[k].final);
        pl_builder_done(&part[k]);
    }
    free(pl);
    pl_corpus_free(c);
    return pl_err_set(err, PL_ENOMEM, "%s: out of memory while building the corpus", name);
}

PlStatus pl_builder_finish(PlCorpusBuilder *b, const PlCorpusOpts *opts, const char *name, PlCorpus **out, PlErr *err) {
    return pl_builder_finish_parts(b, 1, opts, name, out, err);
}
