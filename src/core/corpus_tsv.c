/* Loading a corpus from TSV: one example per line, LABEL<TAB>TEXT, label 0 or
 * 1, an optional header line "label<TAB>text", "\r\n" line ends accepted,
 * blank lines skipped. A file is read a chunk at a time, an in-memory text
 * all at once; both parse the same way. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "corpus_build.h"
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
        if (len == 0 || (*line_no == 1 && is_header(line, len))) continue;
        PlStatus st = parse_line(b, name, *line_no, line, len, err);
        if (st) return st;
    }
    *used = pos < n ? pos : n;
    return PL_OK;
}

PlStatus pl_corpus_load_tsv_mem(const char *name, const char *buf, size_t n, const PlCorpusOpts *opts, PlCorpus **out,
                                PlErr *err) {
    *out = NULL;
    if (n == 0) return pl_err_set(err, PL_EINPUT, "%s: empty file", name);
    PlCorpusBuilder b;
    pl_builder_init(&b);
    long line_no = 0;
    size_t used;
    PlStatus st = parse_lines(&b, name, buf, n, 0, &line_no, &used, err);
    if (st == PL_OK && b.n == 0)
        st = pl_err_set(err, PL_EINPUT, "%s: no examples (expected lines of LABEL<TAB>TEXT)", name);
    if (st) {
        pl_builder_done(&b);
        return st;
    }
    return pl_builder_finish(&b, opts, name, out, err);
}

#define CHUNK ((size_t)1 << 20)

/* Reads f a chunk at a time into *buf (growing it for a line longer than a
 * chunk) and parses every whole line: memory follows the token ids, not
 * the size of the file. */
static PlStatus stream_lines(PlCorpusBuilder *b, const char *path, FILE *f, char **buf, size_t *cap, size_t *total,
                             PlErr *err) {
    long line_no = 0;
    size_t have = 0;
    for (;;) {
        if (*cap - have < CHUNK / 2) {
            char *bigger = realloc(*buf, *cap * 2);
            if (!bigger) return pl_err_set(err, PL_ENOMEM, "%s: out of memory", path);
            *buf = bigger, *cap *= 2;
        }
        size_t got = fread(*buf + have, 1, *cap - have, f);
        if (got == 0 && ferror(f)) return pl_err_set(err, PL_EIO, "%s: read error: %s", path, strerror(errno));
        have += got, *total += got;
        size_t used;
        PlStatus st = parse_lines(b, path, *buf, have, got != 0, &line_no, &used, err);
        if (st || got == 0) return st;
        memmove(*buf, *buf + used, have - used);
        have -= used;
    }
}

PlStatus pl_corpus_load_tsv(const char *path, const PlCorpusOpts *opts, PlCorpus **out, PlErr *err) {
    *out = NULL;
    FILE *f = NULL;
    PlStatus opened = pl_infile_open(path, PL_MAX_FILE_BYTES, &f, NULL, err); /* regular files only, of a sane size */
    if (opened) return opened;
    size_t cap = CHUNK, total = 0;
    char *buf = malloc(cap);
    PlCorpusBuilder b;
    pl_builder_init(&b);
    PlStatus st = buf ? stream_lines(&b, path, f, &buf, &cap, &total, err)
                      : pl_err_set(err, PL_ENOMEM, "%s: out of memory", path);
    fclose(f);
    free(buf);
    if (st == PL_OK && total == 0) st = pl_err_set(err, PL_EINPUT, "%s: empty file", path);
    else if (st == PL_OK && b.n == 0)
        st = pl_err_set(err, PL_EINPUT, "%s: no examples (expected lines of LABEL<TAB>TEXT)", path);
    if (st) {
        pl_builder_done(&b);
        return st;
    }
    return pl_builder_finish(&b, opts, path, out, err);
}
