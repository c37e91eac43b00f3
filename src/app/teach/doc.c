/* Where lessons and decks are, reading one, and the parser skeleton both
 * formats fill in (doc.h). */
#include "doc.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app/dirs.h"
#include "app/lab/fill.h"
#include "core/infile.h"

/* ---- problems ---- */

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

static PlStatus fail_va(PlDoc *d, const char *fmt, va_list ap) {
    char msg[400];
    vsnprintf(msg, sizeof msg, fmt, ap);
    d->last_line = d->line;
    return pl_err_set(&d->last, PL_EINPUT, "%s:%d: %s", d->path, d->line, msg);
}

PlStatus pl_doc_fail(PlDoc *d, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    PlStatus st = fail_va(d, fmt, ap);
    va_end(ap);
    return st;
}

PlStatus pl_doc_fatal(PlDoc *d, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    d->fatal = 1;
    PlStatus st = fail_va(d, fmt, ap);
    va_end(ap);
    return st;
}

PlStatus pl_doc_found(PlDoc *d, PlStatus st) {
    if (st != PL_EINPUT || !d->probs || d->fatal) return st;
    pl_problems_add(d->probs, d->last_line, d->last.msg);
    return PL_OK;
}

/* ---- text ---- */

char *pl_doc_dupe(const char *s) { return strdup(s ? s : ""); }

char *pl_doc_trim(char *s) {
    while (isspace((unsigned char)*s)) s++;
    for (char *e = s + strlen(s); e > s && isspace((unsigned char)e[-1]);) *--e = '\0';
    return s;
}

PlStatus pl_doc_append(char **text, const char *line) {
    size_t a = *text ? strlen(*text) : 0;
    if (!*line) {
        if (!a || (*text)[a - 1] == '\n') return PL_OK;
        line = "\n";
    }
    const char *sep = !a || (*text)[a - 1] == '\n' || line[0] == '\n' ? "" : strncmp(line, "- ", 2) == 0 ? "\n" : " ";
    size_t m = strlen(sep), n = strlen(line);
    char *t = realloc(*text, a + m + n + 1);
    if (!t) return PL_ENOMEM;
    memcpy(t + a, sep, m);
    memcpy(t + a + m, line, n + 1);
    *text = t;
    return PL_OK;
}

PlStatus pl_doc_header_text(PlDoc *d, const PlDocField *f, const char *value) {
    char **at = (char **)(void *)((char *)d->out + f->offset);
    free(*at);
    return (*at = strdup(value)) ? PL_OK : PL_ENOMEM;
}

PlStatus pl_doc_placeholders(PlDoc *d, const char *text) {
    char why[200];
    return pl_fill_check(text, why, sizeof why) ? pl_doc_fail(d, "%s", why) : PL_OK;
}

PlStatus pl_doc_settings(PlDoc *d, const char *text, PlSettingsPatch **out) {
    char why[300];
    free(*out);
    if (!(*out = malloc(sizeof **out))) return PL_ENOMEM;
    return pl_settings_patch_parse(text, *out, why, sizeof why) ? pl_doc_fail(d, "%s", why) : PL_OK;
}

/* ---- the lines of a document ---- */

/* "name: value" (loose: "name:value" too, every space after the colon
 * skipped) as a row of the table, with *value; NULL when no row names it. */
static const PlDocField *field_of(const PlDocField *rows, int n, const char *line, int loose, const char **value) {
    for (int k = 0; k < n; k++) {
        size_t len = strlen(rows[k].name);
        if (strncmp(line, rows[k].name, len) != 0 || line[len] != ':') continue;
        const char *v = line + len + 1;
        if (loose) v += strspn(v, " ");
        else if (*v && *v++ != ' ') continue;
        *value = v;
        return &rows[k];
    }
    return NULL;
}

static PlStatus header_line(PlDoc *d, const char *line) {
    const PlDocFormat *f = d->format;
    const char *v;
    const PlDocField *row = field_of(f->header, f->nheader, line, 1, &v);
    if (row) return row->handle(d, row, v);
    if (!*line) return PL_OK;
    char names[200] = "";
    for (int k = 0; k < f->nheader; k++) {
        const char *sep = !k ? "" : k == f->nheader - 1 ? " and " : ", ";
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s:", sep, f->header[k].name);
    }
    return pl_doc_fail(d, "before the first %s (##) come only %s, got '%.40s'", f->section, names, line);
}

static PlStatus section_line(PlDoc *d, const char *line) {
    const PlDocFormat *f = d->format;
    const char *v;
    const PlDocField *row = field_of(f->fields, f->nfields, line, 0, &v);
    if (!row) return f->text(d, line);
    PlStatus st = f->enter ? f->enter(d, row) : PL_OK;
    return st ? st : row->handle(d, row, v);
}

static PlStatus parse_line(PlDoc *d, char *line) {
    for (char *e = line + strlen(line); e > line && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r');) *--e = '\0';
    if (line[0] == ';') /* a note for the teacher */
        return d->format->note && *d->title ? d->format->note(d, line + 1 + (line[1] == ' ')) : PL_OK;
    if (!*d->title) {
        if (!*line) return PL_OK;
        if (strncmp(line, "# ", 2) != 0 || !line[2])
            return pl_doc_fatal(d, "%s starts with its title: # Title", d->format->what);
        return (*d->title = strdup(line + 2)) ? PL_OK : PL_ENOMEM;
    }
    if (strncmp(line, "## ", 3) == 0 || strcmp(line, "##") == 0) {
        d->sections++;
        return d->format->begin(d, line[2] ? line + 3 : line + 2);
    }
    return d->sections ? section_line(d, line) : header_line(d, line);
}

/* A line of the text, or why it is refused: before the title (a NUL byte)
 * that leaves nothing to read on. */
static PlStatus doc_line(PlDoc *d, int number, char *line, const char *refused) {
    d->line = number;
    if (refused) return pl_doc_found(d, *d->title ? pl_doc_fail(d, "%s", refused) : pl_doc_fatal(d, "%s", refused));
    return pl_doc_found(d, parse_line(d, line));
}

/* Splits text (n bytes, no NUL needed at its end) into lines and hands each
 * to doc_line in order, until one returns non-zero; returns that status. A
 * text holding a NUL byte is refused at line 1, a line longer than
 * PL_DOC_LINE_MAX at its own. */
static PlStatus lines(PlDoc *d, const char *text, size_t n) {
    char why[120];
    if (n && memchr(text, '\0', n)) {
        snprintf(why, sizeof why, "%s is text: this file holds a NUL byte", d->format->what);
        return doc_line(d, 1, NULL, why);
    }
    char *line = malloc(PL_DOC_LINE_MAX + 1);
    if (!line) return PL_ENOMEM;
    PlStatus st = PL_OK;
    int number = 0;
    for (size_t at = 0; !st && at < n;) {
        const char *nl = memchr(text + at, '\n', n - at);
        size_t len = nl ? (size_t)(nl - text - at) : n - at;
        number++;
        if (len > PL_DOC_LINE_MAX) {
            snprintf(why, sizeof why, "a line is at most %d bytes long", PL_DOC_LINE_MAX);
            st = doc_line(d, number, NULL, why);
        } else {
            memcpy(line, text + at, len), line[len] = '\0';
            st = doc_line(d, number, line, NULL);
        }
        at += len + 1;
    }
    free(line);
    return st;
}

static PlStatus finish(PlDoc *d) {
    if (*d->title) return d->format->finish(d);
    d->line = 1;
    return pl_doc_fatal(d, "%s starts with its title: # Title", d->format->what);
}

PlStatus pl_doc_parse(PlDoc *d, const char *text, size_t n, PlErr *err) {
    PlStatus st = lines(d, text, n);
    if (!st) st = finish(d);
    if (st == PL_EINPUT && d->probs) pl_problems_add(d->probs, d->last_line, d->last.msg); /* the one that stopped it */
    if (st == PL_ENOMEM) {
        /* out of memory says nothing about the file: it is the one thing said */
        pl_err_set(&d->last, st, "%s: out of memory", d->path);
        if (d->probs) memset(d->probs, 0, sizeof *d->probs), pl_problems_add(d->probs, 0, d->last.msg);
    }
    if (!st && !(d->probs && d->probs->n)) return PL_OK;
    return pl_err_set(err, st ? st : PL_EINPUT, "%s", d->probs && d->probs->n ? d->probs->at[0].msg : d->last.msg);
}

/* ---- reading a file ---- */

static char *read_file(const char *path, const char *what, size_t *n, PlErr *err) {
    FILE *f;
    uint64_t size;
    PlStatus st = pl_infile_open(path, PL_DOC_MAX_BYTES, &f, &size, err);
    if (st == PL_ERANGE) return pl_err_set(err, PL_EINPUT, "%s: %s is at most 1 MB", path, what), NULL;
    if (st) return NULL;
    char *buf = malloc((size_t)size + 1);
    *n = buf ? fread(buf, 1, (size_t)size + 1, f) : 0;
    int bad = ferror(f);
    fclose(f);
    if (!buf) return pl_err_set(err, PL_ENOMEM, "%s: out of memory", path), NULL;
    if (bad || *n > PL_DOC_MAX_BYTES) {
        free(buf);
        if (bad) return pl_err_set(err, PL_EIO, "%s: cannot read", path), NULL;
        return pl_err_set(err, PL_EINPUT, "%s: %s is at most 1 MB", path, what), NULL;
    }
    return buf;
}

char *pl_doc_read(const PlDocFormat *f, const char *path, size_t *n, PlProblems *probs, PlErr *err) {
    char *buf = read_file(path, f->what, n, err);
    if (!buf && probs) pl_problems_add(probs, 0, err->msg);
    return buf;
}

void *pl_doc_load(const PlDocFormat *f, const char *path, PlProblems *probs, PlErr *err) {
    size_t n;
    char *buf = pl_doc_read(f, path, &n, probs, err);
    void *doc = buf ? f->parse(path, buf, n, probs, err) : NULL;
    free(buf);
    return doc;
}

void *pl_doc_no_memory(const char *path, PlProblems *probs, PlErr *err) {
    pl_err_set(err, PL_ENOMEM, "%s: out of memory", path);
    if (probs) pl_problems_add(probs, 0, err->msg);
    return NULL;
}

void pl_doc_name(const PlDocFormat *f, const char *path, char *name, size_t cap) {
    const char *base = strrchr(path, '/');
    snprintf(name, cap, "%s", base ? base + 1 : path);
    size_t a = strlen(name), b = strlen(f->suffix);
    if (a >= b && strcmp(name + a - b, f->suffix) == 0) name[a - b] = '\0';
}

/* ---- where documents are ---- */

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

int pl_doc_dirs(const PlDocFormat *f, char dirs[][1024], int max) {
    int n = 0;
    const char *list = getenv(f->env);
    if (list && *list) {
        char *copy = strdup(list), *save = NULL;
        if (!copy) return -1;
        for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) n = add_dir(dirs, n, max, d);
        free(copy);
    }
    char data[990], user[1024];
    if (pl_dir_find(PL_DIR_DATA, data, sizeof data, NULL) == PL_OK) { /* none: only the others are looked in */
        snprintf(user, sizeof user, "%s/%.20s", data, f->sub);
        n = add_dir(dirs, n, max, user);
    }
    n = add_dir(dirs, n, max, f->installed);
    return add_dir(dirs, n, max, f->source);
}

static int has_suffix(const char *s, const char *suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static const char *base_of(const char *path) {
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

static int cmp_names(const void *a, const void *b) { return strcmp(base_of(a), base_of(b)); }

static int listed(char paths[][1024], int n, const char *file) {
    for (int i = 0; i < n; i++)
        if (strcmp(base_of(paths[i]), file) == 0) return 1;
    return 0;
}

#define MAX_DIRS 8

/* Whether file, in dir, is a document an older padlab installed under a
 * name that has since changed: left behind by an install over it, it is
 * not one of this padlab's (a user's own folder is theirs, whatever the name). */
static int left_behind(const PlDocFormat *f, const char *dir, const char *file) {
    char name[300];
    if (!f->renamed || !f->installed || strcmp(dir, f->installed)) return 0;
    pl_doc_name(f, file, name, sizeof name);
    return f->renamed(name) != NULL;
}

int pl_doc_list(const PlDocFormat *f, char paths[][1024], int max) {
    char dirs[MAX_DIRS][1024];
    int nd = pl_doc_dirs(f, dirs, MAX_DIRS), n = 0;
    if (nd < 0) return -1;
    for (int d = 0; d < nd; d++) {
        DIR *dir = opendir(dirs[d]);
        if (!dir && errno == ENOMEM) return -1;
        if (!dir) continue;
        for (struct dirent *e; (e = readdir(dir)) && n < max;)
            if (e->d_name[0] != '.' && has_suffix(e->d_name, f->suffix) && !listed(paths, n, e->d_name) &&
                !left_behind(f, dirs[d], e->d_name))
                snprintf(paths[n++], 1024, "%.700s/%.300s", dirs[d], e->d_name);
        closedir(dir);
    }
    qsort(paths, (size_t)n, sizeof paths[0], cmp_names);
    return n;
}

/* The name without its number: "01-rectangle" -> "rectangle". */
static const char *bare_name(const char *name) {
    const char *s = name;
    while (isdigit((unsigned char)*s)) s++;
    return s != name && *s == '-' ? s + 1 : name;
}

int pl_doc_find(const PlDocFormat *f, const char *name, char *path, int cap) {
    struct stat sb;
    if ((strchr(name, '/') || has_suffix(name, f->suffix)) && stat(name, &sb) == 0 && S_ISREG(sb.st_mode))
        return snprintf(path, (size_t)cap, "%s", name), 0;
    char want[300];
    snprintf(want, sizeof want, "%.290s", name);
    if (has_suffix(want, f->suffix)) want[strlen(want) - strlen(f->suffix)] = '\0';
    char(*paths)[1024] = malloc(256 * sizeof *paths);
    int n = paths ? pl_doc_list(f, paths, 256) : -1, found = -1;
    if (n < 0) return free(paths), -2;
    const char *now = f->renamed ? f->renamed(want) : NULL;
    for (int pass = 0; pass < 3 && found < 0; pass++) /* the name, the name it became, the bare name */
        for (int i = 0; i < n && found < 0 && (pass != 1 || now); i++) {
            char base[300];
            pl_doc_name(f, paths[i], base, sizeof base);
            if (strcmp(pass == 2 ? bare_name(base) : base, pass == 1 ? now : want) == 0) found = i;
        }
    if (found >= 0) snprintf(path, (size_t)cap, "%s", paths[found]);
    free(paths);
    return found >= 0 ? 0 : -1;
}
