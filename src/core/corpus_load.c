/* Choosing a loader from a corpus spec: the dispatcher, above the loaders. */
#include "corpus_load.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "corpus_loaders.h"

/* Parses "builtin", "builtin:SEED", "builtin:SEED:COUNT". */
static PlStatus parse_builtin(const char *spec, PlSeed *seed, int *count, PlErr *err) {
    *seed = 0;
    *count = PL_BUILTIN_COUNT;
    const char *p = spec + strlen("builtin");
    if (*p == '\0') return PL_OK;
    char *end;
    if (*p != ':' || p[1] < '0' || p[1] > '9') goto bad;
    errno = 0;
    unsigned long long s = strtoull(p + 1, &end, 10);
    if (errno || (*end != '\0' && *end != ':')) goto bad;
    *seed = s;
    if (*end == ':') {
        const char *q = end + 1;
        if (*q < '0' || *q > '9') goto bad;
        long c = strtol(q, &end, 10);
        if (*end != '\0' || c < 1 || c > 1000000) goto bad;
        *count = (int)c;
    }
    return PL_OK;
bad:
    return pl_err_set(err, PL_EINPUT,
                      "corpus '%s': expected builtin, builtin:SEED or builtin:SEED:COUNT "
                      "(COUNT from 1 to 1000000)",
                      spec);
}

PlStatus pl_corpus_load(const char *spec, const PlCorpusOpts *opts, PlCorpus **out, PlErr *err) {
    *out = NULL;
    if (!spec || !*spec || (strncmp(spec, "builtin", 7) == 0 && (spec[7] == '\0' || spec[7] == ':'))) {
        PlSeed seed;
        int count;
        PlStatus st = parse_builtin(spec && *spec ? spec : "builtin", &seed, &count, err);
        return st ? st : pl_corpus_builtin(seed, count, opts, out, err);
    }
    if (strncmp(spec, "inline:", 7) == 0) return pl_corpus_inline(spec, opts, out, err);
    struct stat sb;
    if (stat(spec, &sb) != 0) return pl_err_set(err, PL_EIO, "%s: cannot open: %s", spec, strerror(errno));
    if (S_ISDIR(sb.st_mode)) return pl_corpus_load_dir(spec, opts, out, err);
    return pl_corpus_load_tsv(spec, opts, out, err);
}
