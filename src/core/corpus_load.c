/* Choosing a loader from a corpus spec: the dispatcher, above the loaders. */
#include "corpus_load.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "corpus_loaders.h"

/* Reads ":N" at *p, N from lo to hi, moving *p past it. */
static int builtin_field(const char **p, long lo, long hi, long *v) {
    if (**p != ':' || (*p)[1] < '0' || (*p)[1] > '9') return -1;
    char *end;
    errno = 0;
    *v = strtol(*p + 1, &end, 10);
    if (errno || *v < lo || *v > hi || (*end != '\0' && *end != ':')) return -1;
    *p = end;
    return 0;
}

/* Parses "builtin", "builtin:SEED", "builtin:SEED:COUNT" and
 * "builtin:SEED:COUNT:POSITIVE" (the percentage of positive labels). */
static PlStatus parse_builtin(const char *spec, PlBuiltinSpec *b, PlErr *err) {
    b->seed = 0, b->count = PL_BUILTIN_COUNT, b->positive = 50;
    const char *p = spec + strlen("builtin");
    if (*p == '\0') return PL_OK;
    char *end;
    if (*p != ':' || p[1] < '0' || p[1] > '9') goto bad;
    errno = 0;
    unsigned long long s = strtoull(p + 1, &end, 10);
    if (errno || (*end != '\0' && *end != ':')) goto bad;
    b->seed = s;
    p = end;
    long v;
    if (*p && builtin_field(&p, 1, 1000000, &v)) goto bad;
    if (p != end) b->count = (int)v;
    const char *after_count = p;
    if (*p && builtin_field(&p, 1, 99, &v)) goto bad;
    if (p != after_count) b->positive = (int)v;
    if (*p) goto bad;
    return PL_OK;
bad:
    return pl_err_set(err, PL_EINPUT,
                      "corpus '%s': expected builtin, builtin:SEED, builtin:SEED:COUNT or builtin:SEED:COUNT:POSITIVE "
                      "(COUNT from 1 to 1000000, POSITIVE the percentage of positive reviews, 1 to 99)",
                      spec);
}

PlStatus pl_corpus_spec_check(const char *spec, PlErr *err) {
    PlBuiltinSpec b;
    if (strncmp(spec, "builtin", 7) == 0 && (spec[7] == '\0' || spec[7] == ':')) return parse_builtin(spec, &b, err);
    return PL_OK;
}

PlStatus pl_corpus_load(const char *spec, const PlCorpusOpts *opts, PlCorpus **out, PlErr *err) {
    *out = NULL;
    if (!spec || !*spec || (strncmp(spec, "builtin", 7) == 0 && (spec[7] == '\0' || spec[7] == ':'))) {
        PlBuiltinSpec b;
        PlStatus st = parse_builtin(spec && *spec ? spec : "builtin", &b, err);
        return st ? st : pl_corpus_builtin(&b, opts, out, err);
    }
    if (strncmp(spec, "inline:", 7) == 0) return pl_corpus_inline(spec, opts, out, err);
    struct stat sb;
    if (stat(spec, &sb) != 0) return pl_err_set(err, PL_EIO, "%s: cannot open: %s", spec, strerror(errno));
    if (S_ISDIR(sb.st_mode)) return pl_corpus_load_dir(spec, opts, out, err);
    return pl_corpus_load_tsv(spec, opts, out, err);
}
