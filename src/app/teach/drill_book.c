/* The drill progress file (see drill_book.h). */
#include "drill_book.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/dirs.h"
#include "choices.h"
#include "core/atomic.h"
#include "progress.h"

#define MAX_RECORDS 100000

/* The fields of a line after the key, each an int of the record. */
static const struct {
    const char *name;
    size_t offset;
} keys[] = {
    {"box", offsetof(PlDrillRecord, s.box)},         {"due", offsetof(PlDrillRecord, s.due)},
    {"reviews", offsetof(PlDrillRecord, s.reviews)}, {"lapses", offsetof(PlDrillRecord, s.lapses)},
    {"right", offsetof(PlDrillRecord, right)},       {"wrong", offsetof(PlDrillRecord, wrong)},
    {"last", offsetof(PlDrillRecord, s.last)},
};
#define NKEYS ((int)(sizeof keys / sizeof keys[0]))

static int *int_at(PlDrillRecord *r, int k) { return (int *)(void *)((char *)r + keys[k].offset); }

static int valid_key(const char *key) {
    const char *slash = strchr(key, '/');
    return slash && slash != key && slash[1] && !strchr(slash + 1, '/') && strlen(key) < PL_DRILL_KEY_CAP &&
           !strpbrk(key, " \t");
}

static int parse_pair(char *t, PlDrillRecord *r) {
    char *eq = strchr(t, '='), *end;
    if (!eq) return -1;
    *eq = '\0';
    long v = strtol(eq + 1, &end, 10);
    if (end == eq + 1 || *end || v < -1 || v > 100000000) return -1;
    for (int k = 0; k < NKEYS; k++)
        if (strcmp(t, keys[k].name) == 0) return *int_at(r, k) = (int)v, 0;
    return -1;
}

static int parse_record(char *v, PlDrillRecord *r) {
    char *save = NULL, *key = strtok_r(v, " ", &save);
    memset(r, 0, sizeof *r);
    if (!key || !valid_key(key)) return -1;
    snprintf(r->key, sizeof r->key, "%s", key);
    for (char *t = strtok_r(NULL, " ", &save); t; t = strtok_r(NULL, " ", &save))
        if (parse_pair(t, r)) return -1;
    return r->s.box >= 0 && r->s.box <= PL_SCHED_BOXES ? 0 : -1;
}

static PlDrillRecord *grow(PlDrillBook *b) {
    if (b->n == b->cap) {
        if (b->cap >= MAX_RECORDS) return NULL;
        int cap = b->cap ? 2 * b->cap : 64;
        PlDrillRecord *r = realloc(b->r, sizeof *r * (size_t)cap);
        if (!r) return NULL;
        b->r = r, b->cap = cap;
    }
    return &b->r[b->n];
}

PlStatus pl_drill_book_load_from(PlDrillBook *b, const char *path, PlErr *err) {
    memset(b, 0, sizeof *b);
    snprintf(b->path, sizeof b->path, "%s", path);
    FILE *f = fopen(path, "r");
    if (!f) return errno == ENOENT ? PL_OK : pl_err_set(err, PL_EIO, "%s: cannot open: %s", path, strerror(errno));
    char line[512];
    int no = 0;
    PlStatus st = PL_OK;
    while (!st && fgets(line, sizeof line, f)) {
        no++;
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0] || line[0] == '#') continue;
        if (strncmp(line, "learner = ", 10) == 0) {
            if (pl_choices_salt_parse(line + 10, &b->salt))
                st = pl_err_set(err, PL_EINPUT, "%s:%d: expected 'learner = ' and 16 hex digits", path, no);
            continue;
        }
        PlDrillRecord *r = grow(b);
        if (!r) st = pl_err_set(err, PL_ENOMEM, "%s: out of memory", path);
        else if (strncmp(line, "item = ", 7) != 0 || parse_record(line + 7, r))
            st = pl_err_set(err, PL_EINPUT,
                            "%s:%d: expected 'item = DECK/ID box=B due=D reviews=N lapses=N right=N wrong=N last=D'",
                            path, no);
        else b->n++;
    }
    fclose(f);
    if (st) b->n = 0, b->salt = 0;
    return st;
}

PlStatus pl_drill_book_load(PlDrillBook *b, PlErr *err) {
    char dir[900], path[1024];
    memset(b, 0, sizeof *b);
    if (pl_dir_state(dir, sizeof dir, err)) return PL_EIO;
    snprintf(path, sizeof path, "%s/drill", dir);
    PlStatus st = pl_drill_book_load_from(b, path, err);
    if (!st && !b->salt) b->salt = pl_choices_new_salt(); /* kept from the first save on */
    return st;
}

static int write_book(FILE *f, void *ctx) {
    const PlDrillBook *b = ctx;
    fputs("# padlab drill: each item practised, its Leitner box and due day, and its answers\n", f);
    if (b->salt) fprintf(f, "learner = %016llx\n", (unsigned long long)b->salt);
    for (int i = 0; i < b->n; i++) {
        const PlDrillRecord *r = &b->r[i];
        fprintf(f, "item = %s box=%d due=%d reviews=%d lapses=%d right=%d wrong=%d last=%d\n", r->key, r->s.box,
                r->s.due, r->s.reviews, r->s.lapses, r->right, r->wrong, r->s.last);
    }
    return ferror(f) ? -1 : 0;
}

PlStatus pl_drill_book_save(const PlDrillBook *b, PlErr *err) {
    if (!b->path[0]) return pl_err_set(err, PL_EIO, "no drill progress file to save to");
    return pl_write_atomic(b->path, write_book, (void *)b, err);
}

void pl_drill_book_done(PlDrillBook *b) {
    free(b->r);
    b->r = NULL, b->n = b->cap = 0;
}

static int key_of(const char *deck, const char *id, char *key) {
    int n = snprintf(key, PL_DRILL_KEY_CAP, "%s/%s", deck, id);
    return n > 0 && n < PL_DRILL_KEY_CAP && valid_key(key) ? 0 : -1;
}

const PlDrillRecord *pl_drill_book_find(const PlDrillBook *b, const char *deck, const char *id) {
    char key[PL_DRILL_KEY_CAP];
    if (key_of(deck, id, key)) return NULL;
    for (int i = 0; i < b->n; i++)
        if (strcmp(b->r[i].key, key) == 0) return &b->r[i];
    return NULL;
}

PlDrillRecord *pl_drill_book_of(PlDrillBook *b, const char *deck, const char *id) {
    const PlDrillRecord *found = pl_drill_book_find(b, deck, id);
    if (found) return (PlDrillRecord *)found;
    char key[PL_DRILL_KEY_CAP];
    PlDrillRecord *r = key_of(deck, id, key) ? NULL : grow(b);
    if (!r) return NULL;
    memset(r, 0, sizeof *r);
    snprintf(r->key, sizeof r->key, "%s", key);
    b->n++;
    return r;
}

int pl_drill_book_forget(PlDrillBook *b, const char *deck) {
    size_t len = strlen(deck);
    int kept = 0, gone = 0;
    for (int i = 0; i < b->n; i++) {
        if (strncmp(b->r[i].key, deck, len) == 0 && b->r[i].key[len] == '/') gone++;
        else b->r[kept++] = b->r[i];
    }
    b->n = kept;
    return gone;
}
