/* Loading a corpus from TSV: one example per line, LABEL<TAB>TEXT, label 0 or
 * 1, an optional header line "label<TAB>text", "\r\n" line ends accepted,
 * blank lines skipped. A file is read a chunk at a time, an in-memory text
 * all at once; both parse the same way. A large file's tokens go through
 * the cache (corpus_cache.h): read back when its bytes were seen before. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "corpus_build.h"
#include "corpus_cache.h"
#include "corpus_loaders.h"
#include "infile.h"

static int is_header(const char *line, size_t len) { return len == 10 && strncasecmp(line, "label\ttext", 10) == 0; }

static PlStatus parse_line(PlCorpusBuilder *b, const char *name, long line_no, const char *line, size_t len,
                           PlErr *err) {
    char snip[128];
    if (memchr(line, '\0', len))
        return pl_err_set(err, PL_EINPUT, "%s:%ld: contains a NUL byte (not a text file?)", name, line_no);
    const char *tab = memchr(line, '\t', len);
    if (!tab)
        return pl_err_set(err, PL_EINPUT, "%s:%ld: expected LABEL<TAB>TEXT, found no tab in %s", name, line_no,
                          pl_snippet(snip, sizeof snip, line, len));
    size_t lab_len = (size_t)(tab - line);
    if (lab_len != 1 || (line[0] != '0' && line[0] != '1'))
        return pl_err_set(err, PL_EINPUT, "%s:%ld: label must be 0 or 1, got %s", name, line_no,
                          pl_snippet(snip, sizeof snip, line, lab_len));
    if (pl_builder_add_text(b, line[0] - '0', tab + 1, len - lab_len - 1))
        return pl_err_set(err, PL_ENOMEM, "%s:%ld: out of memory", name, line_no);
    return PL_OK;
}

/* Parses the lines of buf[0..n); with more to come, stops before a last
 * line that has no newline yet and says in *used where. */
static PlStatus parse_lines(PlCorpusBuilder *b, const char *name, const char *buf, size_t n, int more, long *line_no,
                            size_t *used, PlErr *err) {
    size_t pos = 0;
    while (pos < n) {
        const char *nl = memchr(buf + pos, '\n', n - pos);
        if (!nl && more) break;
        ++*line_no;
        size_t end = nl ? (size_t)(nl - buf) : n;
        size_t len = end - pos;
        if (len > 0 && buf[pos + len - 1] == '\r') len--;
        const char *line = buf + pos;
        pos = end + 1;
        if (*line_no == 1 && len >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0) line += 3, len -= 3; /* a UTF-8 BOM */
        if (len == 0 || (*line_no == 1 && is_header(line, len))) continue;
        PlStatus st = parse_line(b, name, *line_no, line, len, err);
        if (st) return st;
    }
    *used = pos < n ? pos : n;
    return PL_OK;
}

/* The corpus b holds, when reading it went well (st) and it holds any
 * example; b is emptied either way. */
static PlStatus finish(PlCorpusBuilder *b, PlStatus st, const char *name, const PlCorpusOpts *opts, PlCorpus **out,
                       PlErr *err) {
    if (st == PL_OK && b->n == 0)
        st = pl_err_set(err, PL_EINPUT, "%s: no examples (expected lines of LABEL<TAB>TEXT)", name);
    if (st) {
        pl_builder_done(b);
        return st;
    }
    return pl_builder_finish(b, opts, name, out, err);
}

PlStatus pl_corpus_load_tsv_mem(const char *name, const char *buf, size_t n, const PlCorpusOpts *opts, PlCorpus **out,
                                PlErr *err) {
    *out = NULL;
    if (n == 0) return pl_err_set(err, PL_EINPUT, "%s: empty file", name);
    PlCorpusBuilder b;
    pl_builder_init(&b);
    long line_no = 0;
    size_t used;
    return finish(&b, parse_lines(&b, name, buf, n, 0, &line_no, &used, err), name, opts, out, err);
}

#define CHUNK ((size_t)1 << 20)
#define EXPECT_FROM ((uint64_t)4 << 20) /* a part's builder is sized from its bytes from here on */

/* A stretch of a file's lines and the builder they go to: the whole file
 * read in one pass, or one part of it (below). */
typedef struct {
    int fd;
    uint64_t from, to; /* whole lines: from is 0 or just past a newline */
    const char *name;  /* for messages */
    PlErr *err;        /* NULL: a part, whose failure is told again by one pass */
    PlCorpusBuilder b;
    PlStatus st;
} Part;

/* Reads [p->from, p->to) a chunk at a time (growing the buffer for a line
 * longer than a chunk) and parses every whole line: memory follows the
 * token ids, not the size of the file. */
static PlStatus read_lines(Part *p) {
    /* A part smaller than a chunk gets a buffer of its size: a small file
     * costs no megabyte (under a sanitizer, a fresh mapping per part). */
    size_t cap = p->to - p->from < CHUNK ? (size_t)(p->to - p->from) + 1 : CHUNK, have = 0;
    char *buf = malloc(cap);
    if (!buf) return pl_err_set(p->err, PL_ENOMEM, "%s: out of memory", p->name);
    long line_no = p->from ? 1 : 0; /* only the file's first line may be the header */
    if (p->to - p->from >= EXPECT_FROM) pl_builder_expect(&p->b, p->to - p->from);
    PlStatus st = PL_OK;
    for (uint64_t at = p->from; st == PL_OK;) {
        if (cap - have < (cap < CHUNK ? 1 : CHUNK / 2)) {
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                st = pl_err_set(p->err, PL_ENOMEM, "%s: out of memory", p->name);
                break;
            }
            buf = bigger, cap *= 2;
        }
        size_t want = p->to - at < cap - have ? (size_t)(p->to - at) : cap - have;
        ssize_t got = want ? pread(p->fd, buf + have, want, (off_t)at) : 0;
        if (got < 0) {
            st = pl_err_set(p->err, PL_EIO, "%s: read error: %s", p->name, strerror(errno));
            break;
        }
        at += (uint64_t)got, have += (size_t)got;
        size_t used;
        st = parse_lines(&p->b, p->name, buf, have, got != 0, &line_no, &used, p->err);
        if (st || got == 0) break;
        memmove(buf, buf + used, have - used);
        have -= used;
    }
    free(buf);
    return st;
}

/* The whole file in one pass. */
static PlStatus parse_file(const char *path, int fd, uint64_t size, const PlCorpusOpts *opts, PlCorpus **out,
                           PlErr *err) {
    if (size == 0) return pl_err_set(err, PL_EINPUT, "%s: empty file", path);
    Part whole = {.fd = fd, .from = 0, .to = size, .name = path, .err = err};
    pl_builder_init(&whole.b);
    return finish(&whole.b, read_lines(&whole), path, opts, out, err);
}

/* ---- in parts ---------------------------------------------------------------
 * A large file is cut at line ends into one part per core; each part is
 * tokenized by its own thread into its own builder, and the builders are
 * appended in file order, which gives the corpus a single pass would. A part
 * that fails makes the whole file be read again in one pass, whose message
 * names the right line. */

#define PARTS_MAX 8
#define PARTS_MIN_BYTES ((uint64_t)8 << 20) /* smaller files are read in one pass */
#define THREAD_MIN_BYTES ((uint64_t)16 << 10)

static void *run_part(void *arg) {
    Part *p = arg;
    p->st = read_lines(p);
    return NULL;
}

/* The first byte after the first newline at or after pos, or size. */
static uint64_t line_start_after(int fd, uint64_t pos, uint64_t size) {
    char buf[4096];
    while (pos < size) {
        ssize_t got = pread(fd, buf, sizeof buf, (off_t)pos);
        if (got <= 0) return size;
        const char *nl = memchr(buf, '\n', (size_t)got);
        if (nl) return pos + (uint64_t)(nl - buf) + 1;
        pos += (uint64_t)got;
    }
    return size;
}

/* Cuts [0, size) into at most nparts parts of whole lines; returns how many. */
static int cut_parts(Part *part, int nparts, int fd, uint64_t size) {
    int k = 0;
    for (uint64_t from = 0; from < size && k < nparts; k++) {
        uint64_t even = size / (uint64_t)nparts * (uint64_t)(k + 1); /* where an even cut would fall */
        uint64_t to = k == nparts - 1 ? size : line_start_after(fd, even > from ? even : from, size);
        part[k] = (Part){.fd = fd, .from = from, .to = to, .name = ""};
        pl_builder_init(&part[k].b);
        from = part[k].to;
    }
    return k;
}

/* Tokenizes the parts, part 0 in this thread; the first failure, else PL_OK. */
static PlStatus run_parts(Part *part, int n) {
    pthread_t th[PARTS_MAX];
    int started[PARTS_MAX] = {0};
    for (int k = 1; k < n; k++) /* a small part costs less than a thread: this one reads it */
        started[k] =
            part[k].to - part[k].from >= THREAD_MIN_BYTES && pthread_create(&th[k], NULL, run_part, &part[k]) == 0;
    for (int k = 1; k < n; k++)
        if (!started[k]) run_part(&part[k]); /* small, or no thread to be had: this one does it */
    run_part(&part[0]);
    PlStatus st = part[0].st;
    for (int k = 1; k < n; k++) {
        if (started[k]) pthread_join(th[k], NULL);
        if (st == PL_OK) st = part[k].st;
    }
    return st;
}

/* The corpus of the parts when all went well and they hold an example, else
 * (the builders emptied) the whole file read again in one pass, for the
 * exact message. */
static PlStatus finish_parts(Part *part, int n, PlStatus st, const char *path, int fd, uint64_t size,
                             const PlCorpusOpts *opts, PlCorpus **out, PlErr *err) {
    int64_t examples = 0;
    PlCorpusBuilder b[PARTS_MAX];
    for (int k = 0; k < n; k++) examples += part[k].b.n, b[k] = part[k].b;
    if (n > 0 && st == PL_OK && examples > 0) return pl_builder_finish_parts(b, n, opts, path, out, err);
    for (int k = 0; k < n; k++) pl_builder_done(&b[k]);
    return parse_file(path, fd, size, opts, out, err);
}

PlStatus pl_corpus_load_tsv_parts(const char *path, FILE *f, uint64_t size, int nparts, const PlCorpusOpts *opts,
                                  PlCorpus **out, PlErr *err) {
    *out = NULL;
    Part part[PARTS_MAX];
    int n = nparts > 1 ? cut_parts(part, nparts < PARTS_MAX ? nparts : PARTS_MAX, fileno(f), size) : 0;
    PlStatus st = n > 0 ? run_parts(part, n) : PL_EINPUT;
    return finish_parts(part, n, st, path, fileno(f), size, opts, out, err);
}

static int parts_for(uint64_t size) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (size < PARTS_MIN_BYTES || cores < 2) return 1;
    return cores < PARTS_MAX ? (int)cores : PARTS_MAX;
}

PlStatus pl_corpus_load_tsv(const char *path, const PlCorpusOpts *opts, PlCorpus **out, PlErr *err) {
    *out = NULL;
    FILE *f = NULL;
    uint64_t size;
    PlStatus opened = pl_infile_open(path, PL_MAX_FILE_BYTES, &f, &size, err); /* regular files only, of a sane size */
    if (opened) return opened;
    int num_words = opts && opts->num_words > 0 ? opts->num_words : PL_DEFAULT_NUM_WORDS;
    PlCacheKey key;
    char entry[4096];
    int cached = pl_cache_wanted(size, opts ? opts->cache : PL_CACHE_DEFAULT) &&
                 pl_cache_key(f, size, num_words, &key) == PL_OK && pl_cache_path(&key, entry, sizeof entry);
    if (cached && pl_cache_read(entry, &key, out) == PL_OK) {
        fclose(f);
        snprintf((*out)->source, sizeof(*out)->source, "%s", path);
        return PL_OK;
    }
    PlStatus st = pl_corpus_load_tsv_parts(path, f, size, parts_for(size), opts, out, err);
    fclose(f);
    if (st == PL_OK && cached) pl_cache_write(entry, &key, *out);
    return st;
}
