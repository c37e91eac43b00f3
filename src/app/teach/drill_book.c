/* The drill progress book (see drill_book.h): its record's fields and how
 * two drills' records merge. */
#include "drill_book.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/dirs.h"
#include "choices.h"

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

static int *int_at(void *r, int k) { return (int *)(void *)((char *)r + keys[k].offset); }
static int int_of(const void *r, int k) { return *(const int *)(const void *)((const char *)r + keys[k].offset); }

static int field(void *rec, const char *key, const char *value) {
    char *end;
    long v = strtol(value, &end, 10);
    if (end == value || *end || v < -1 || v > 100000000) return -1;
    for (int k = 0; k < NKEYS; k++)
        if (strcmp(key, keys[k].name) == 0) return *int_at(rec, k) = (int)v, 0;
    return -1;
}

static int check(const void *rec) {
    const PlDrillRecord *r = rec;
    return r->s.box >= 0 && r->s.box <= PL_SCHED_BOXES ? 0 : -1;
}

static void write_fields(FILE *f, const void *rec) {
    for (int k = 0; k < NKEYS; k++) fprintf(f, " %s=%d", keys[k].name, int_of(rec, k));
}

/* Counts add up (grades given here and there are all kept); the schedule
 * is the one of the last grade saved. */
static void merge(void *now, const void *base, const void *mine) {
    PlDrillRecord *d = now;
    const PlDrillRecord *b = base, *m = mine;
    d->s.reviews += m->s.reviews - b->s.reviews;
    d->s.lapses += m->s.lapses - b->s.lapses;
    d->right += m->right - b->right;
    d->wrong += m->wrong - b->wrong;
    if (m->s.box != b->s.box || m->s.due != b->s.due || m->s.last != b->s.last)
        d->s.box = m->s.box, d->s.due = m->s.due, d->s.last = m->s.last;
}

const PlBookKind pl_drill_kind = {
    .word = "item",
    .comment = "padlab drill: each item practised, its Leitner box and due day, and its answers",
    .expect = "item = DECK/ID box=B due=D reviews=N lapses=N right=N wrong=N last=D",
    .size = sizeof(PlDrillRecord),
    .field = field,
    .check = check,
    .write = write_fields,
    .merge = merge,
};

void pl_drill_book_init(PlDrillBook *b, const char *path) {
    memset(b, 0, sizeof *b);
    b->kind = &pl_drill_kind;
    snprintf(b->path, sizeof b->path, "%s", path);
}

PlStatus pl_drill_book_load_from(PlDrillBook *b, const char *path, PlErr *err) {
    PlStatus st = pl_book_load(b, &pl_drill_kind, path, err);
    b->kind = &pl_drill_kind;
    return st;
}

PlStatus pl_drill_book_load(PlDrillBook *b, PlErr *err) {
    char dir[900], path[1024];
    pl_drill_book_init(b, "");
    if (pl_dir_state(dir, sizeof dir, err)) return PL_EIO;
    snprintf(path, sizeof path, "%s/drill", dir);
    PlStatus st = pl_drill_book_load_from(b, path, err);
    if (!st && !b->salt) b->salt = pl_choices_new_salt(); /* kept from the first save on */
    return st;
}

PlStatus pl_drill_book_save(PlDrillBook *b, PlErr *err) { return pl_book_save(b, err); }

void pl_drill_book_done(PlDrillBook *b) { pl_book_done(b); }

static int key_of(const char *deck, const char *id, char *key) {
    int n = snprintf(key, PL_BOOK_NAME_CAP, "%s/%s", deck, id);
    return n > 0 && n < PL_BOOK_NAME_CAP && deck[0] && id[0] ? 0 : -1;
}

const PlDrillRecord *pl_drill_book_find(const PlDrillBook *b, const char *deck, const char *id) {
    char key[PL_BOOK_NAME_CAP];
    return key_of(deck, id, key) ? NULL : pl_book_find(b, key);
}

PlDrillRecord *pl_drill_book_of(PlDrillBook *b, const char *deck, const char *id) {
    char key[PL_BOOK_NAME_CAP];
    return key_of(deck, id, key) ? NULL : pl_book_of(b, key);
}

int pl_drill_book_forget(PlDrillBook *b, const char *deck) {
    char prefix[PL_BOOK_NAME_CAP];
    snprintf(prefix, sizeof prefix, "%s/", deck);
    return pl_book_forget(b, prefix, 1);
}
