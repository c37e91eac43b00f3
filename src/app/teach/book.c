/* A learner's book (see book.h): its one format, read and written, and the
 * save that merges under a lock. */
#include "book.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "choices.h"
#include "core/atomic.h"
#include "core/text.h"

#define FORMAT 2
#define MAX_BYTES (64L << 20) /* a bigger book is not one padlab wrote */

/* ---- records ---- */

void *pl_book_at(const PlBook *b, int i) { return b->rec + (size_t)i * b->kind->size; }

static void *find_in(const unsigned char *rec, int n, size_t size, const char *name) {
    for (int i = 0; i < n; i++)
        if (strcmp((const char *)(rec + (size_t)i * size), name) == 0) return (void *)(rec + (size_t)i * size);
    return NULL;
}

void *pl_book_find(const PlBook *b, const char *name) {
    return b->kind ? find_in(b->rec, b->n, b->kind->size, name) : NULL;
}

/* Room for one more record at the end (not counted yet); NULL when full or out of memory. */
static void *grow(PlBook *b) {
    if (b->n == b->cap) {
        if (b->cap >= PL_BOOK_MAX_RECORDS) return NULL;
        int cap = b->cap ? 2 * b->cap : 64;
        unsigned char *r = realloc(b->rec, b->kind->size * (size_t)cap);
        if (!r) return NULL;
        b->rec = r, b->cap = cap;
    }
    return pl_book_at(b, b->n);
}

void *pl_book_of(PlBook *b, const char *name) {
    void *r = pl_book_find(b, name);
    if (r) return r;
    if (!name[0] || strlen(name) >= PL_BOOK_NAME_CAP || !(r = grow(b))) return NULL;
    memset(r, 0, b->kind->size);
    memcpy(r, name, strlen(name));
    b->n++;
    return r;
}

int pl_book_forget(PlBook *b, const char *name, int prefix) {
    size_t len = strlen(name), size = b->kind->size;
    int kept = 0, gone = 0;
    for (int i = 0; i < b->n; i++) {
        const char *r = pl_book_at(b, i);
        if (prefix ? strncmp(r, name, len) == 0 : strcmp(r, name) == 0) gone++;
        else memmove(pl_book_at(b, kept++), r, size);
    }
    b->n = kept;
    return gone;
}

void pl_book_done(PlBook *b) {
    free(b->rec);
    free(b->base);
    b->rec = b->base = NULL, b->n = b->cap = b->nbase = 0;
}

/* What was read or written becomes what the next save merges against. */
static PlStatus rebase(PlBook *b) {
    free(b->base);
    b->base = NULL, b->nbase = 0, b->base_salt = b->salt;
    if (!b->n) return PL_OK;
    if (!(b->base = malloc(b->kind->size * (size_t)b->n))) return PL_ENOMEM;
    memcpy(b->base, b->rec, b->kind->size * (size_t)b->n);
    b->nbase = b->n;
    return PL_OK;
}

/* ---- names: %XX for a space, '%', '=' and control bytes ---- */

static int plain(unsigned char c) { return c > ' ' && c != 0x7f && c != '%' && c != '='; }

static void put_name(FILE *f, const char *name) {
    for (const unsigned char *s = (const unsigned char *)name; *s; s++)
        if (plain(*s)) fputc(*s, f);
        else fprintf(f, "%%%02X", *s);
}

/* The name written as tok (raw in the first format) into out; 0, or -1. */
static int take_name(const char *tok, int format, char *out) {
    size_t n = 0;
    for (const char *s = tok; *s; s++) {
        int c = (unsigned char)*s;
        if (format >= 2 && c == '%') {
            if ((c = pl_text_percent_byte(s, strlen(s))) < 0) return -1;
            s += 2;
        }
        if (n + 1 >= PL_BOOK_NAME_CAP) return -1;
        out[n++] = (char)c;
    }
    out[n] = '\0';
    return n ? 0 : -1;
}

/* ---- reading ---- */

/* Appends the k records at from unless one of the name is kept already. 0, or -1. */
static int add_renamed(PlBook *b, const unsigned char *from, int k) {
    for (int j = 0; j < k; j++) {
        const unsigned char *o = from + b->kind->size * (size_t)j;
        if (pl_book_find(b, (const char *)o)) continue; /* kept under its new name: the newer */
        void *r = grow(b);
        if (!r) return -1;
        memcpy(r, o, b->kind->size);
        b->n++;
    }
    return 0;
}

/* Every record of an old name read under its new one(s) (kind->renamed),
 * after those of current names. 0, or -1 out of memory (or the book full). */
static int rename_records(PlBook *b) {
    size_t size = b->kind->size;
    unsigned char *out = malloc(size * PL_BOOK_RENAMED_MAX), *moved = NULL;
    int kept = 0, nmoved = 0, rc = out ? 0 : -1;
    for (int i = 0; i < b->n && !rc; i++) {
        unsigned char *r = pl_book_at(b, i);
        int k = b->kind->renamed(r, out, PL_BOOK_RENAMED_MAX);
        if (!k) {
            memmove(pl_book_at(b, kept++), r, size);
            continue;
        }
        unsigned char *m = realloc(moved, size * (size_t)(nmoved + k));
        if (!m) rc = -1;
        else moved = m, memcpy(moved + size * (size_t)nmoved, out, size * (size_t)k), nmoved += k;
    }
    if (!rc) b->n = kept, rc = add_renamed(b, moved, nmoved);
    free(out), free(moved);
    return rc;
}

/* "NAME k=v k=v" into the next record; 0, or -1. */
static int parse_record(PlBook *b, char *v, int format) {
    char *save = NULL, *tok = strtok_r(v, " ", &save);
    unsigned char *r = grow(b);
    if (!tok || !r) return -1;
    memset(r, 0, b->kind->size);
    if (take_name(tok, format, (char *)r)) return -1;
    for (char *t = strtok_r(NULL, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(t, '=');
        if (!eq) return -1;
        *eq = '\0';
        if (b->kind->field(r, t, eq + 1)) return -1;
    }
    if (b->kind->check && b->kind->check(r)) return -1;
    b->n++;
    return 0;
}

/* One line (NUL-terminated, its newline gone); *format is the book's. */
static PlStatus parse_line(PlBook *b, char *line, int *format, const char *shown, int no, PlErr *err) {
    size_t wl = strlen(b->kind->word);
    if (!line[0] || line[0] == '#') return PL_OK;
    if (strncmp(line, "format = ", 9) == 0) {
        if (strcmp(line + 9, "2") != 0 || b->n || b->salt)
            return pl_err_set(err, PL_EINPUT, "%s:%d: expected 'format = 2' before every other line", shown, no);
        *format = FORMAT;
        return PL_OK;
    }
    if (strncmp(line, "learner = ", 10) == 0) {
        if (pl_choices_salt_parse(line + 10, &b->salt))
            return pl_err_set(err, PL_EINPUT, "%s:%d: expected 'learner = ' and 16 hex digits", shown, no);
        return PL_OK;
    }
    if (b->n == PL_BOOK_MAX_RECORDS)
        return pl_err_set(err, PL_EINPUT, "%s:%d: more than %d records", shown, no, PL_BOOK_MAX_RECORDS);
    if (!grow(b)) /* never taken for damage: a good book is not set aside for want of memory */
        return pl_err_set(err, PL_ENOMEM, "%s: out of memory", shown);
    if (strncmp(line, b->kind->word, wl) || strncmp(line + wl, " = ", 3) || parse_record(b, line + wl + 3, *format)) {
        if (!b->skipped++) /* left out, the rest kept: named once */
            snprintf(b->skipped_first, sizeof b->skipped_first, "%.140s:%d: expected '%.130s'", shown, no,
                     b->kind->expect);
    }
    return PL_OK;
}

PlStatus pl_book_parse(PlBook *b, const PlBookKind *kind, const char *text, size_t len, const char *shown, PlErr *err) {
    memset(b, 0, sizeof *b);
    b->kind = kind;
    int format = 1, no = 0;
    PlStatus st = PL_OK;
    char *line = NULL;
    for (size_t at = 0; !st && at < len; no++) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t n = (nl ? (size_t)(nl - text) : len) - at;
        char *l = realloc(line, n + 1);
        if (!l) {
            st = pl_err_set(err, PL_ENOMEM, "%s: out of memory", shown);
            break;
        }
        line = l;
        memcpy(line, text + at, n);
        line[n] = '\0';
        if (memchr(text + at, '\0', n)) {
            st = pl_err_set(err, PL_EINPUT, "%s:%d: a NUL byte in the line", shown, no + 1);
            break;
        }
        at += n + 1;
        if (n && line[n - 1] == '\r') line[n - 1] = '\0';
        st = parse_line(b, line, &format, shown, no + 1, err);
    }
    free(line);
    if (!st && kind->renamed && rename_records(b)) st = pl_err_set(err, PL_ENOMEM, "%s: out of memory", shown);
    if (!st) st = rebase(b) ? pl_err_set(err, PL_ENOMEM, "%s: out of memory", shown) : PL_OK;
    if (st) pl_book_done(b), b->salt = b->base_salt = 0;
    return st;
}

/* The whole file into *text (NULL and 0 when there is none yet), its
 * identity into *id. A FIFO or a device is refused without waiting on it. */
static PlStatus slurp(const char *path, char **text, size_t *len, struct stat *id, PlErr *err) {
    *text = NULL, *len = 0;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT) return PL_OK;
    if (fd < 0) return pl_err_set(err, PL_EIO, "%s: cannot open: %s", path, strerror(errno));
    PlStatus st = PL_OK;
    if (fstat(fd, id)) st = pl_err_set(err, PL_EIO, "%s: cannot read: %s", path, strerror(errno));
    else if (!S_ISREG(id->st_mode)) st = pl_err_set(err, PL_EIO, "%s: not a regular file", path);
    else if (id->st_size > MAX_BYTES) st = pl_err_set(err, PL_EIO, "%s: too large for a book", path);
    else if (!(*text = malloc((size_t)id->st_size + 1))) st = pl_err_set(err, PL_ENOMEM, "%s: out of memory", path);
    while (!st && *len < (size_t)id->st_size) {
        ssize_t got = read(fd, *text + *len, (size_t)id->st_size - *len);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) st = pl_err_set(err, PL_EIO, "%s: cannot read: %s", path, strerror(errno));
        if (got <= 0) break;
        *len += (size_t)got;
    }
    close(fd);
    if (st) free(*text), *text = NULL, *len = 0;
    return st;
}

/* Renames the damaged book to the first free PATH.damaged-N (a link, then
 * the old name removed: a name that is taken is never replaced). */
static int set_aside(const char *path, char *aside, size_t cap) {
    for (int k = 1; k < 1000; k++) {
        snprintf(aside, cap, "%s.damaged-%d", path, k);
        if (link(path, aside) == 0) return unlink(path);
        if (errno != EEXIST) return -1;
    }
    return -1;
}

/* What a reader says of damage it left as it is (b->notice). */
static void say_left(PlBook *b, const char *why) {
    if (why) snprintf(b->notice, sizeof b->notice, "%.400s: nothing of it read; the file is left as it is until a save sets it aside", why);
    else snprintf(b->notice, sizeof b->notice, "%.300s (%d damaged record%s left out); the file is left as it is until a save sets it aside",
                  b->skipped_first, b->skipped, b->skipped == 1 ? "" : "s");
}

/* Reads path into b. Damage is only read (say_left) unless locked: then
 * the caller holds the lock and is about to write, which would lose what
 * could not be read, so the file is set aside first. */
static PlStatus read_book(PlBook *b, const PlBookKind *kind, const char *path, int locked, PlErr *err) {
    char *text, aside[1100];
    size_t len;
    struct stat id;
    PlErr why;
    memset(b, 0, sizeof *b);
    b->kind = kind;
    PlStatus st = slurp(path, &text, &len, &id, err); /* its failure is said in err already */
    if (!st && (st = pl_book_parse(b, kind, text ? text : "", len, path, &why)) == PL_ENOMEM && err) *err = why;
    free(text);
    snprintf(b->path, sizeof b->path, "%s", path);
    if (st && st != PL_EINPUT) return st;
    if (!st && !b->skipped) return PL_OK;
    if (!locked) return say_left(b, st ? why.msg : NULL), PL_OK;
    char what[420];
    snprintf(what, sizeof what, "%.400s", st ? why.msg : b->skipped_first);
    struct stat now;
    if (stat(path, &now) || now.st_ino != id.st_ino || now.st_dev != id.st_dev || set_aside(path, aside, sizeof aside))
        return pl_err_set(err, PL_EINPUT, "%s (it could not be set aside: %s)", what, strerror(errno));
    const char *slash = strrchr(aside, '/');
    if (st) snprintf(b->notice, sizeof b->notice, "%.400s; set aside as %.150s, a new book begun", what, slash ? slash + 1 : aside);
    else snprintf(b->notice, sizeof b->notice, "%.300s (%d damaged record%s); the whole file set aside as %.150s, the rest kept",
                  what, b->skipped, b->skipped == 1 ? "" : "s", slash ? slash + 1 : aside);
    return PL_OK;
}

PlStatus pl_book_load(PlBook *b, const PlBookKind *kind, const char *path, PlErr *err) {
    return read_book(b, kind, path, 0, err);
}

/* ---- writing ---- */

int pl_book_write(const PlBook *b, FILE *f) {
    fprintf(f, "# %s\nformat = %d\n", b->kind->comment, FORMAT);
    if (b->salt) fprintf(f, "learner = %016llx\n", (unsigned long long)b->salt);
    for (int i = 0; i < b->n; i++) {
        const char *r = pl_book_at(b, i);
        fprintf(f, "%s = ", b->kind->word);
        put_name(f, r);
        b->kind->write(f, r);
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}

static int write_cb(FILE *f, void *ctx) { return pl_book_write(ctx, f); }

/* Folds b (what this instance holds, against its base) into now (the book
 * on disk): a record changed here is merged, one forgotten here is dropped,
 * one made here is added; the rest is now's. 0, or -1 out of memory. */
static int merge(PlBook *now, const PlBook *b) {
    size_t size = b->kind->size;
    unsigned char *zero = calloc(1, size);
    if (!zero) return -1;
    int kept = 0, n = now->n;
    for (int i = 0; i < n; i++) {
        unsigned char *d = pl_book_at(now, i);
        const unsigned char *base = find_in(b->base, b->nbase, size, (char *)d), *mine = pl_book_find(b, (char *)d);
        if (base && !mine) continue; /* forgotten here */
        if (mine && !(base && memcmp(base, mine, size) == 0)) b->kind->merge(d, base ? base : zero, mine);
        memmove(pl_book_at(now, kept++), d, size);
    }
    now->n = kept;
    for (int i = 0; i < b->n; i++) {
        const unsigned char *mine = pl_book_at(b, i), *base = find_in(b->base, b->nbase, size, (char *)mine);
        if (find_in(now->rec, kept, size, (const char *)mine) || (base && memcmp(base, mine, size) == 0))
            continue; /* merged above, or unchanged here and forgotten by another */
        unsigned char *r = grow(now);
        if (!r) return free(zero), -1;
        memcpy(r, mine, size);
        now->n++;
    }
    free(zero);
    if (b->salt != b->base_salt || !now->salt) now->salt = b->salt;
    return 0;
}

PlStatus pl_book_save(PlBook *b, PlErr *err) {
    if (!b->path[0]) return pl_err_set(err, PL_EIO, "no book file to save to");
    int fd = pl_lock_beside(b->path, err);
    if (fd < 0) return PL_EIO;
    PlBook now;
    PlStatus st = read_book(&now, b->kind, b->path, 1, err);
    if (!st && now.notice[0]) snprintf(b->notice, sizeof b->notice, "%s", now.notice);
    if (!st && merge(&now, b)) st = pl_err_set(err, PL_ENOMEM, "%s: out of memory", b->path);
    if (!st) st = pl_write_atomic(b->path, write_cb, &now, err);
    if (!st && rebase(&now)) st = pl_err_set(err, PL_ENOMEM, "%s: out of memory", b->path);
    close(fd);
    if (st) return pl_book_done(&now), st;
    pl_book_done(b);
    b->rec = now.rec, b->n = now.n, b->cap = now.cap, b->salt = now.salt;
    b->base = now.base, b->nbase = now.nbase, b->base_salt = now.base_salt;
    return PL_OK;
}
