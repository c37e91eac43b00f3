/* Loading an aclImdb-style folder: the .txt files of ROOT/neg (label 0) and
 * those of ROOT/pos (label 1), each file one review, files in byte-wise name
 * order. The two are then interleaved (neg, pos, neg, pos, ...) so that any
 * tail of the corpus, such as the last 20% a validation split takes, holds
 * both labels. ROOT may also hold train/ or test/ with the two folders. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "corpus_build.h"
#include "corpus_loaders.h"
#include "infile.h"
#include "text.h"

static int is_dir(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Writes a/b into buf; returns -1 when it does not fit. */
static int join_path(char *buf, size_t cap, const char *a, const char *b) {
    int n = snprintf(buf, cap, "%s/%s", a, b);
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}

static int has_pos_neg(const char *root) {
    char a[4096], b[4096];
    return join_path(a, sizeof a, root, "pos") == 0 && join_path(b, sizeof b, root, "neg") == 0 && is_dir(a) &&
           is_dir(b);
}

/* Finds the folder holding pos/ and neg/: root itself, root/train or root/test. */
static PlStatus find_base(const char *root, char *base, size_t cap, PlErr *err) {
    static const char *const below[] = {"train", "test"};
    if (strlen(root) < cap && has_pos_neg(root)) {
        memcpy(base, root, strlen(root) + 1);
        return PL_OK;
    }
    for (size_t i = 0; i < sizeof below / sizeof below[0]; i++)
        if (join_path(base, cap, root, below[i]) == 0 && has_pos_neg(base)) return PL_OK;
    return pl_err_set(err, PL_EINPUT,
                      "%s: not an aclImdb-style folder (expected pos/ and neg/, or train/ or "
                      "test/ holding them)",
                      root);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void free_names(char **names, size_t n) {
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
}

static int ends_with_txt(const char *s) {
    size_t n = strlen(s);
    return n > 4 && strcmp(s + n - 4, ".txt") == 0;
}

/* What a folder load left out: entries named *.txt that are not regular
 * files (a FIFO would block the loader, a device would never end). */
typedef struct {
    int n;
    char first[256];
} Skipped;

static int regular_in(const char *dir, const char *name, Skipped *sk) {
    char path[8192];
    if (join_path(path, sizeof path, dir, name) == 0 && pl_infile_regular(path)) return 1;
    if (sk->n++ == 0) snprintf(sk->first, sizeof sk->first, "%.255s", path);
    return 0;
}

/* Lists the *.txt names of dir that are regular files, sorted. */
static PlStatus list_txt(const char *dir, char ***out, size_t *count, Skipped *sk, PlErr *err) {
    DIR *d = opendir(dir);
    if (!d) return pl_err_set(err, PL_EIO, "%s: cannot open folder: %s", dir, strerror(errno));
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    PlStatus st = PL_OK;
    while (st == PL_OK && (e = readdir(d)) != NULL) {
        if (!ends_with_txt(e->d_name) || !regular_in(dir, e->d_name, sk)) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 256;
            char **bigger = realloc(names, cap * sizeof *names);
            if (!bigger) st = PL_ENOMEM;
            else names = bigger;
        }
        if (st == PL_OK && !(names[n++] = strdup(e->d_name))) st = PL_ENOMEM;
    }
    closedir(d);
    if (st) {
        free_names(names, n);
        return pl_err_set(err, st, "%s: out of memory listing the folder", dir);
    }
    if (n > 1) qsort(names, n, sizeof *names, cmp_str);
    *out = names;
    *count = n;
    return PL_OK;
}

static long line_of_offset(const char *buf, size_t off) {
    long line = 1;
    for (size_t i = 0; i < off; i++) line += buf[i] == '\n';
    return line;
}

static PlStatus add_file(PlCorpusBuilder *b, const char *path, int label, PlErr *err) {
    char *buf = NULL;
    size_t n = 0;
    PlStatus st = pl_read_file(path, &buf, &n, err);
    if (st) return st;
    const char *nul = memchr(buf, '\0', n);
    if (nul)
        st = pl_err_set(err, PL_EINPUT, "%s:%ld: contains a NUL byte (not a text file?)", path,
                        line_of_offset(buf, (size_t)(nul - buf)));
    else if (pl_builder_add_text(b, label, buf, n)) st = pl_err_set(err, PL_ENOMEM, "%s: out of memory", path);
    free(buf);
    return st;
}

static PlStatus add_class(PlCorpusBuilder *b, const char *base, const char *sub, int label, Skipped *sk, PlErr *err) {
    char dir[4096], path[8192];
    if (join_path(dir, sizeof dir, base, sub)) return pl_err_set(err, PL_EINPUT, "%s: path too long", base);
    char **names = NULL;
    size_t n = 0;
    PlStatus st = list_txt(dir, &names, &n, sk, err);
    for (size_t i = 0; st == PL_OK && i < n; i++) {
        if (join_path(path, sizeof path, dir, names[i])) st = pl_err_set(err, PL_EINPUT, "%s: path too long", dir);
        else st = add_file(b, path, label, err);
    }
    free_names(names, n);
    return st;
}

/* s[] (cap bytes) rewritten as pl_text_printable shows it, cut at a whole
 * character: a file's name in a message cannot drive the terminal. */
static void shown_in_place(char *s, size_t cap) {
    char copy[sizeof((PlErr *)0)->msg], c[7];
    size_t o = 0;
    snprintf(copy, sizeof copy, "%s", s);
    for (const char *p = copy;;) {
        int k = pl_text_shown_char(p, c);
        size_t len = strlen(c);
        if (!k || o + len >= cap) break;
        memcpy(s + o, c, len), o += len, p += k;
    }
    s[o] = '\0';
}

static PlStatus shown_err(PlErr *err, PlStatus st) {
    if (st && err) shown_in_place(err->msg, sizeof err->msg);
    return st;
}

PlStatus pl_corpus_load_dir(const char *path, const PlCorpusOpts *opts, PlCorpus **out, PlErr *err) {
    char base[4096];
    *out = NULL;
    PlStatus st = find_base(path, base, sizeof base, err);
    if (st) return shown_err(err, st);
    PlCorpusBuilder b;
    pl_builder_init(&b);
    Skipped sk = {0, ""};
    st = add_class(&b, base, "neg", 0, &sk, err);
    int negatives = b.n;
    if (st == PL_OK) st = add_class(&b, base, "pos", 1, &sk, err);
    if (st == PL_OK && pl_builder_interleave(&b, negatives)) st = pl_err_set(err, PL_ENOMEM, "%s: out of memory", base);
    if (st == PL_OK && b.n == 0)
        st = pl_err_set(err, PL_EINPUT, "%s: no examples (no .txt files in pos/ or neg/)", base);
    if (st) {
        pl_builder_done(&b);
        return shown_err(err, st);
    }
    st = pl_builder_finish(&b, opts, path, out, err);
    if (!st) {
        (*out)->skipped = sk.n;
        snprintf((*out)->skipped_first, sizeof(*out)->skipped_first, "%s", sk.first);
        shown_in_place((*out)->skipped_first, sizeof(*out)->skipped_first);
    }
    return shown_err(err, st);
}
