/* Where lessons and decks are, and reading one (doc.h). */
#include "doc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app/dirs.h"
#include "core/infile.h"

char *pl_datafile_read(const char *path, const char *what, size_t *n, PlErr *err) {
    FILE *f;
    uint64_t size;
    PlStatus st = pl_infile_open(path, PL_DATAFILE_MAX_BYTES, &f, &size, err);
    if (st == PL_ERANGE) return pl_err_set(err, PL_EINPUT, "%s: %s is at most 1 MB", path, what), NULL;
    if (st) return NULL;
    char *buf = malloc((size_t)size + 1);
    *n = buf ? fread(buf, 1, (size_t)size + 1, f) : 0;
    int bad = ferror(f);
    fclose(f);
    if (!buf) return pl_err_set(err, PL_ENOMEM, "%s: out of memory", path), NULL;
    if (bad || *n > PL_DATAFILE_MAX_BYTES) {
        free(buf);
        if (bad) return pl_err_set(err, PL_EIO, "%s: cannot read", path), NULL;
        return pl_err_set(err, PL_EINPUT, "%s: %s is at most 1 MB", path, what), NULL;
    }
    return buf;
}

PlStatus pl_datafile_lines(const char *text, size_t n, const char *what, PlLineFn fn, void *ctx) {
    char why[120];
    if (n && memchr(text, '\0', n)) {
        snprintf(why, sizeof why, "%s is text: this file holds a NUL byte", what);
        return fn(ctx, 1, NULL, why);
    }
    char *line = malloc(PL_DATAFILE_LINE_MAX + 1);
    if (!line) return PL_ENOMEM;
    PlStatus st = PL_OK;
    int number = 0;
    for (size_t at = 0; !st && at < n;) {
        const char *nl = memchr(text + at, '\n', n - at);
        size_t len = nl ? (size_t)(nl - text - at) : n - at;
        number++;
        if (len > PL_DATAFILE_LINE_MAX) {
            snprintf(why, sizeof why, "a line is at most %d bytes long", PL_DATAFILE_LINE_MAX);
            st = fn(ctx, number, NULL, why);
        } else {
            memcpy(line, text + at, len), line[len] = '\0';
            st = fn(ctx, number, line, NULL);
        }
        at += len + 1;
    }
    free(line);
    return st;
}

void pl_problems_add(PlProblems *p, int line, const char *msg) {
    if (p->n == PL_PROBLEMS_MAX) {
        p->more++;
        return;
    }
    int at = p->n;
    while (at > 0 && p->at[at - 1].line > line) at--;
    memmove(&p->at[at + 1], &p->at[at], sizeof p->at[0] * (size_t)(p->n - at));
    p->at[at].line = line;
    snprintf(p->at[at].msg, sizeof p->at[at].msg, "%s", msg);
    p->n++;
}

static int is_dir(const char *path) {
    struct stat sb;
    return *path && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static int add_dir(char dirs[][1024], int n, int max, const char *dir) {
    if (n >= max || !is_dir(dir)) return n;
    for (int i = 0; i < n; i++)
        if (strcmp(dirs[i], dir) == 0) return n;
    snprintf(dirs[n], 1024, "%s", dir);
    return n + 1;
}

int pl_datafile_dirs(const char *env, const char *sub, const char *installed, const char *source, char dirs[][1024],
                     int max) {
    int n = 0;
    const char *list = getenv(env);
    if (list && *list) {
        char *copy = strdup(list), *save = NULL;
        for (char *d = copy ? strtok_r(copy, ":", &save) : NULL; d; d = strtok_r(NULL, ":", &save))
            n = add_dir(dirs, n, max, d);
        free(copy);
    }
    char data[990], user[1024];
    if (pl_dir_find(PL_DIR_DATA, data, sizeof data, NULL) == PL_OK) { /* none: only the others are looked in */
        snprintf(user, sizeof user, "%s/%.20s", data, sub);
        n = add_dir(dirs, n, max, user);
    }
    n = add_dir(dirs, n, max, installed);
    return add_dir(dirs, n, max, source);
}
