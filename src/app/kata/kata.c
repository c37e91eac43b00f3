/* The kata format (kata.h, doc/katas.md): its field table and what a kata
 * must have. Lines, the title, fields and "PATH:LINE: message" are doc.c's. */
#include "kata.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    PlDoc doc; /* first: the handlers get it */
    PlKata *kata;
    int compute_line, inputs_line, outputs_line;
} Parser;

#define P(d) ((Parser *)(void *)(d))

/* ---- the header ---- */

static PlStatus compute(PlDoc *d, const PlDocField *f, const char *v) {
    PlKata *k = P(d)->kata;
    PlStatus st = pl_doc_header_text(d, f, v);
    if (st) return st;
    P(d)->compute_line = d->line;
    if ((k->task = pl_ktask_find(v))) return PL_OK;
    char names[600];
    pl_ktask_names(names, sizeof names);
    return pl_doc_fail(d, "compute: is one of %s, got '%.40s'", names, v);
}

static PlStatus arrays(PlDoc *d, const PlDocField *f, const char *v) {
    PlStatus st = pl_doc_header_text(d, f, v);
    if (!st) *(f->arg ? &P(d)->outputs_line : &P(d)->inputs_line) = d->line;
    return st;
}

static const PlDocField header[] = {
    {"compute", compute, .offset = offsetof(PlKata, compute)},
    {"about", pl_doc_header_text, .offset = offsetof(PlKata, about)},
    {"inputs", arrays, .arg = 0, .offset = offsetof(PlKata, inputs)},
    {"outputs", arrays, .arg = 1, .offset = offsetof(PlKata, outputs)},
};

/* ---- sections ---- */

static PlStatus section(PlDoc *d, char *title) {
    PlKata *k = P(d)->kata;
    if (k->nsec == PL_KATA_MAX_SECTIONS) return pl_doc_fatal(d, "a kata has at most %d sections", PL_KATA_MAX_SECTIONS);
    char *t = pl_doc_trim(title);
    if (!*t) return pl_doc_fail(d, "a section (##) needs its title");
    if (!(k->sec[k->nsec].title = pl_doc_dupe(t))) return PL_ENOMEM;
    k->nsec++;
    return PL_OK;
}

static PlStatus text(PlDoc *d, const char *line) {
    PlKata *k = P(d)->kata;
    if (k->nsec == 0) return pl_doc_fail(d, "text before the first section: a section starts with '## TITLE'");
    return pl_doc_append(&k->sec[k->nsec - 1].text, line);
}

/* ---- what a kata must have ---- */

/* "a b c" against the task's names of args[0..n). */
static int same_names(const char *given, const PlKArg *args, int n, char *want, size_t cap) {
    want[0] = '\0';
    for (int i = 0; i < n; i++) snprintf(want + strlen(want), cap - strlen(want), "%s%s", i ? " " : "", args[i].name);
    char copy[PL_DOC_LINE_MAX + 1], *save = NULL;
    snprintf(copy, sizeof copy, "%s", given);
    int i = 0;
    for (char *w = strtok_r(copy, " ,", &save); w; w = strtok_r(NULL, " ,", &save), i++)
        if (i >= n || strcmp(w, args[i].name) != 0) return 0;
    return i == n;
}

static PlStatus check_arrays(PlDoc *d, int line, const char *given, const char *field, const PlKArg *args, int n) {
    char want[300];
    int same = same_names(given ? given : "", args, n, want, sizeof want);
    d->line = given ? line : 1;
    if (!given) return pl_doc_fail(d, "a kata names its %s: %s: %s", field, field, want);
    if (same) return PL_OK;
    return pl_doc_fail(d, "%s: %s %s %s, in that order, got '%.60s'", field, P(d)->kata->compute,
                       field[0] == 'i' ? "takes" : "gives", want, given);
}

static PlStatus finish(PlDoc *d) {
    Parser *p = P(d);
    PlKata *k = p->kata;
    d->line = 1;
    if (!k->compute) return pl_doc_fatal(d, "a kata names the computation that checks it: compute: NAME");
    if (!k->task) return PL_OK; /* said where compute: is */
    PlStatus st = pl_doc_found(d, check_arrays(d, p->inputs_line, k->inputs, "inputs", k->task->in, k->task->nin));
    if (!st) st = pl_doc_found(d, check_arrays(d, p->outputs_line, k->outputs, "outputs", k->task->out, k->task->nout));
    d->line = 1;
    if (!st && !k->nsec) st = pl_doc_fail(d, "a kata has its statement: a section (## Task) with the text a candidate reads");
    for (int i = 0; !st && i < k->nsec; i++)
        if (!k->sec[i].text) st = pl_doc_fail(d, "the section '%.40s' has no text", k->sec[i].title);
    return st;
}

#ifndef PL_KATAS_DIR
#define PL_KATAS_DIR ""
#endif
#ifndef PL_SOURCE_KATAS_DIR
#define PL_SOURCE_KATAS_DIR ""
#endif

static void *parse(const char *path, const char *text, size_t n, PlProblems *probs, PlErr *err);

static const PlDocFormat format = {
    .what = "a kata",
    .suffix = ".kata",
    .section = "section",
    .env = "PADLAB_KATAS",
    .sub = "katas",
    .installed = PL_KATAS_DIR,
    .source = PL_SOURCE_KATAS_DIR,
    .header = header,
    .nheader = (int)(sizeof header / sizeof header[0]),
    .fields = NULL,
    .nfields = 0,
    .begin = section,
    .text = text,
    .finish = finish,
    .parse = parse,
};

static void *parse(const char *path, const char *text, size_t n, PlProblems *probs, PlErr *err) {
    PlKata *k = calloc(1, sizeof *k);
    if (!k) return pl_doc_no_memory(path, probs, err);
    pl_doc_name(&format, path, k->name, sizeof k->name);
    snprintf(k->path, sizeof k->path, "%s", path);
    Parser p = {.doc = {.format = &format, .path = path, .out = k, .title = &k->title, .probs = probs}, .kata = k};
    if (pl_doc_parse(&p.doc, text, n, err)) {
        pl_kata_free(k);
        return NULL;
    }
    return k;
}

PlKata *pl_kata_parse(const char *path, const char *text, size_t n, PlErr *err) {
    return parse(path, text, n, NULL, err);
}

PlKata *pl_kata_parse_all(const char *path, const char *text, size_t n, PlProblems *probs) {
    PlErr err;
    return parse(path, text, n, probs, &err);
}

PlKata *pl_kata_load(const char *path, PlErr *err) { return pl_doc_load(&format, path, NULL, err); }

PlKata *pl_kata_check(const char *path, PlProblems *probs) {
    PlErr err;
    return pl_doc_load(&format, path, probs, &err);
}

void pl_kata_free(PlKata *k) {
    if (!k) return;
    for (int i = 0; i < k->nsec; i++) free(k->sec[i].title), free(k->sec[i].text);
    free(k->title), free(k->about), free(k->compute), free(k->inputs), free(k->outputs);
    free(k);
}

int pl_kata_list(char paths[][1024], int max) { return pl_doc_list(&format, paths, max); }
int pl_kata_find(const char *name, char *path, int cap) { return pl_doc_find(&format, name, path, cap); }
