/* The generated corpus: review-like sequences that need no download.
 *
 * Lengths (start token included) are log-normal, median 178 and sigma 0.75,
 * redrawn below 13 or above 2600: this gives IMDB's shape (minimum in the
 * teens, median near 180, mean near 240, 95th percentile near 600, a tail past
 * 1,500). Each word is a sentiment word with probability 6%, of the review's
 * polarity four times in five; otherwise an ordinary word drawn from a Zipf
 * law. The label is therefore spread through the whole review, so truncation
 * and padding choices matter the way they do on real reviews. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "builtin_words.h"
#include "corpus_build.h"
#include "corpus_loaders.h"
#include "rng.h"

#define LEN_MEDIAN 178.0
#define LEN_SIGMA 0.75
#define LEN_MIN 13
#define LEN_MAX 2600
#define P_SENTIMENT 0.06
#define P_AGREE 0.8

typedef struct {
    double *cum; /* (n) cumulative Zipf weights, cum[n-1] = 1 */
    int n;
} Zipf;

static int zipf_init(Zipf *z, int n, double s) {
    z->n = n;
    z->cum = malloc((size_t)n * sizeof *z->cum);
    if (!z->cum) return -1;
    double total = 0.0;
    for (int r = 0; r < n; r++) z->cum[r] = (total += 1.0 / pow(r + 2.0, s));
    for (int r = 0; r < n; r++) z->cum[r] /= total;
    return 0;
}

static int zipf_draw(const Zipf *z, PlRng *rng) {
    double u = pl_rng_uniform(rng);
    int lo = 0, hi = z->n - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (z->cum[mid] > u) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

static int draw_length(PlRng *rng) {
    for (;;) {
        double len = LEN_MEDIAN * exp(LEN_SIGMA * pl_rng_normal(rng));
        if (len >= LEN_MIN && len <= LEN_MAX) return (int)len;
    }
}

typedef struct {
    Zipf neutral, sentiment;
} Lexicon;

static const char *draw_word(const Lexicon *lx, PlRng *rng, int label) {
    if (pl_rng_uniform(rng) >= P_SENTIMENT) return pl_builtin_neutral[zipf_draw(&lx->neutral, rng)];
    int positive = (pl_rng_uniform(rng) < P_AGREE) == (label == 1);
    int r = zipf_draw(&lx->sentiment, rng);
    return positive ? pl_builtin_positive[r % pl_builtin_n_positive] : pl_builtin_negative[r % pl_builtin_n_negative];
}

/* A review's label: a fair coin for a balanced corpus (as it always was, so
 * the default corpus keeps its bits), else a coin weighted to positive%. */
static int draw_label(PlRng *rng, int positive) {
    if (positive == 50) return (int)pl_rng_below(rng, 2);
    return pl_rng_uniform(rng) < (double)positive / 100.0;
}

PlStatus pl_corpus_builtin(const PlBuiltinSpec *spec, const PlCorpusOpts *opts, PlCorpus **out, PlErr *err) {
    PlSeed seed = spec->seed;
    int count = spec->count;
    *out = NULL;
    if (count < 1) return pl_err_set(err, PL_ERANGE, "builtin corpus: count must be >= 1");
    Lexicon lx = {{0}, {0}};
    const char **words = malloc(LEN_MAX * sizeof *words);
    int nsent = pl_builtin_n_positive < pl_builtin_n_negative ? pl_builtin_n_positive : pl_builtin_n_negative;
    PlCorpusBuilder b;
    pl_builder_init(&b);
    PlStatus st = PL_OK;
    if (!words || zipf_init(&lx.neutral, pl_builtin_n_neutral, 1.05) || zipf_init(&lx.sentiment, nsent, 0.8))
        st = PL_ENOMEM;
    PlRng rng;
    pl_rng_seed(&rng, seed);
    for (int i = 0; st == PL_OK && i < count; i++) {
        int label = draw_label(&rng, spec->positive);
        int n = draw_length(&rng) - 1; /* the start token is added by the builder */
        for (int k = 0; k < n; k++) words[k] = draw_word(&lx, &rng, label);
        st = pl_builder_add_words(&b, label, words, n);
    }
    free(words);
    free(lx.neutral.cum);
    free(lx.sentiment.cum);
    if (st) {
        pl_builder_done(&b);
        return pl_err_set(err, st, "builtin corpus: out of memory");
    }
    char name[64];
    if (spec->positive != 50)
        snprintf(name, sizeof name, "builtin:%llu:%d:%d", (unsigned long long)seed, count, spec->positive);
    else if (seed == 0 && count == PL_BUILTIN_COUNT) snprintf(name, sizeof name, "builtin");
    else snprintf(name, sizeof name, "builtin:%llu:%d", (unsigned long long)seed, count);
    return pl_builder_finish(&b, opts, name, out, err);
}
