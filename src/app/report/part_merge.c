/* Merging the parts of an experiment (part.h): the checks that they are of
 * one experiment and cover it once, then its runs in plan order. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "part.h"

/* "a.json (part 1/3)" */
static const char *who(char *buf, size_t cap, const char *name, const PlPart *p) {
    snprintf(buf, cap, "%s (part %d/%d)", name, p->shard, p->shards);
    return buf;
}

/* "padding, 2 epochs, maxlen 200, seeds 0 1 2" */
static const char *settings(char *buf, size_t cap, const PlPart *p) {
    int at = snprintf(buf, cap, "%s, %d epoch%s, maxlen %d, seed%s", p->experiment, p->epochs,
                      p->epochs == 1 ? "" : "s", p->maxlen, p->n_seeds == 1 ? "" : "s");
    for (int i = 0; i < p->n_seeds && at > 0 && (size_t)at < cap; i++)
        at += snprintf(buf + at, cap - (size_t)at, " %" PRIu64, (uint64_t)p->seeds[i]);
    return buf;
}

static int same_settings(const PlPart *a, const PlPart *b) {
    return strcmp(a->experiment, b->experiment) == 0 && a->epochs == b->epochs && a->maxlen == b->maxlen &&
           a->n_seeds == b->n_seeds && memcmp(a->seeds, b->seeds, (size_t)a->n_seeds * sizeof *a->seeds) == 0;
}

static int same_corpus(const PlPart *a, const PlPart *b) {
    return strcmp(a->corpus, b->corpus) == 0 && a->corpus_digest == b->corpus_digest &&
           memcmp(&a->chance, &b->chance, sizeof a->chance) == 0;
}

/* Part b against part a, the first: what they disagree on, in one line. */
static PlStatus agree(const PlPart *a, const char *an, const PlPart *b, const char *bn, PlErr *err) {
    char wa[300], wb[300], sa[200], sb[200];
    who(wa, sizeof wa, an, a), who(wb, sizeof wb, bn, b);
    if (!same_settings(a, b))
        return pl_err_set(err, PL_EINPUT, "parts disagree on the experiment: %s is %s, %s is %s", wa,
                          settings(sa, sizeof sa, a), wb, settings(sb, sizeof sb, b));
    if (!same_corpus(a, b))
        return pl_err_set(err, PL_EINPUT,
                          "parts disagree on the corpus: %s read %.100s (digest %016" PRIx64
                          "), %s read %.100s (digest %016" PRIx64 ")",
                          wa, a->corpus, a->corpus_digest, wb, b->corpus, b->corpus_digest);
    if (strcmp(a->arithmetic, b->arithmetic) != 0)
        return pl_err_set(err, PL_EINPUT,
                          "parts disagree on the arithmetic: %s ran on %s, %s on %s, whose sums differ "
                          "in their last bits and train apart (set PADLAB_SIMD and OPENBLAS_CORETYPE alike "
                          "on every host)",
                          wa, a->arithmetic, wb, b->arithmetic);
    if (a->shards != b->shards)
        return pl_err_set(err, PL_EINPUT, "parts disagree on the number of shards: %s, %s", wa, wb);
    return PL_OK;
}

/* Every shard 0..N-1 given exactly once. */
static PlStatus cover(const PlPart *parts, const char *const *names, int np, PlErr *err) {
    int shards = parts[0].shards, *given = malloc((size_t)shards * sizeof *given), missing = 0;
    if (!given) return pl_err_set(err, PL_ENOMEM, "out of memory merging %d parts", np);
    for (int s = 0; s < shards; s++) given[s] = -1;
    for (int i = 0; i < np; i++) {
        int s = parts[i].shard;
        if (given[s] >= 0) {
            pl_err_set(err, PL_EINPUT, "part %d/%d given twice: %s and %s", s, shards, names[given[s]], names[i]);
            return free(given), PL_EINPUT;
        }
        given[s] = i;
    }
    char list[400] = "";
    for (int s = 0; s < shards; s++) {
        if (given[s] >= 0) continue;
        size_t at = strlen(list);
        if (missing++ < 8) snprintf(list + at, sizeof list - at, "%s%d/%d", missing > 1 ? ", " : "", s, shards);
    }
    free(given);
    if (missing == 1) return pl_err_set(err, PL_EINPUT, "part %s is missing", list);
    if (missing > 8) return pl_err_set(err, PL_EINPUT, "%d parts are missing: %s, ...", missing, list);
    if (missing) return pl_err_set(err, PL_EINPUT, "parts %s are missing", list);
    return PL_OK;
}

/* The runs of part p into their places in the plan. */
static PlStatus place(const PlPart *p, const char *name, PlRun *runs, int n, char *taken, PlErr *err) {
    char w[300];
    int want = p->shard < n ? (n - p->shard + p->shards - 1) / p->shards : 0;
    if (p->n != want)
        return pl_err_set(err, PL_EINPUT, "%s holds %d run%s, where the plan gives it %d", who(w, sizeof w, name, p),
                          p->n, p->n == 1 ? "" : "s", want);
    for (int i = 0; i < p->n; i++) {
        int k = p->index[i];
        if (k >= n || k % p->shards != p->shard || taken[k])
            return pl_err_set(err, PL_EINPUT,
                              "%s: runs item %d is run %d, which is not one of this part's (run k is "
                              "part k mod %d's, once)",
                              who(w, sizeof w, name, p), i + 1, k, p->shards);
        if (p->runs[i].cfg.seed != runs[k].cfg.seed)
            return pl_err_set(err, PL_EINPUT, "%s: run %d has seed %" PRIu64 ", where the plan has seed %" PRIu64,
                              who(w, sizeof w, name, p), k, (uint64_t)p->runs[i].cfg.seed, (uint64_t)runs[k].cfg.seed);
        runs[k].res = p->runs[i].res;
        runs[k].dilution = p->runs[i].dilution;
        taken[k] = 1;
    }
    return PL_OK;
}

static PlStatus assemble(const PlPart *parts, const char *const *names, int np, PlRun **out, int *nout, PlErr *err) {
    const PlExperiment *e = pl_experiment_find(parts[0].experiment);
    if (!e) return pl_err_set(err, PL_EINPUT, "%s: padlab has no experiment '%.40s'", names[0], parts[0].experiment);
    PlExperimentOpts o = pl_part_opts(&parts[0]);
    PlRun *runs;
    int n;
    PlStatus st = pl_experiment_plan(e, &o, NULL, &runs, &n, err);
    if (st) return st;
    char *taken = calloc((size_t)n + 1, 1);
    if (!taken) st = pl_err_set(err, PL_ENOMEM, "out of memory merging %d parts", np);
    for (int i = 0; !st && i < np; i++) st = place(&parts[i], names[i], runs, n, taken, err);
    free(taken);
    if (st) return free(runs), st;
    *out = runs;
    *nout = n;
    return PL_OK;
}

PlStatus pl_part_merge(const PlPart *parts, const char *const *names, int np, const char *version, PlPart *whole,
                       PlRun **runs, int *n, PlErr *err) {
    *runs = NULL;
    *n = 0;
    if (np < 1) return pl_err_set(err, PL_EINPUT, "no part to merge");
    for (int i = 0; i < np; i++) {
        char w[300];
        if (strcmp(parts[i].padlab, version) != 0)
            return pl_err_set(err, PL_EINPUT,
                              "%s was trained by padlab %s, and this is padlab %s: merge with the "
                              "version that trained it",
                              who(w, sizeof w, names[i], &parts[i]), parts[i].padlab, version);
        PlStatus st = i ? agree(&parts[0], names[0], &parts[i], names[i], err) : PL_OK;
        if (st) return st;
    }
    PlStatus st = cover(parts, names, np, err);
    if (!st) st = assemble(parts, names, np, runs, n, err);
    if (st) return st;
    *whole = parts[0];
    whole->runs = NULL;
    whole->index = NULL;
    whole->n = 0;
    return PL_OK;
}
