/* The lesson progress book (see progress.h): its record's fields and how
 * two instances' records merge. */
#include "progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/dirs.h"
#include "choices.h"

/* "2r,5w" into answer[]. */
static int parse_answers(const char *v, signed char *answer) {
    for (const char *t = v; *t;) {
        char *end;
        long s = strtol(t, &end, 10);
        if (end == t || s < 0 || s >= PL_PROGRESS_ANSWERS || (*end != 'r' && *end != 'w')) return -1;
        answer[s] = *end == 'r' ? 1 : -1;
        t = end + 1;
        if (*t == ',' && t[1]) t++;
        else if (*t) return -1;
    }
    return 0;
}

static int field(void *rec, const char *key, const char *value) {
    PlLessonProgress *p = rec;
    char *end;
    if (strcmp(key, "answers") == 0) return parse_answers(value, p->answer);
    long n = strtol(value, &end, 10);
    if (end == value || *end || n < 0 || n > 100000) return -1;
    if (strcmp(key, "step") == 0) return p->step = (int)n, 0;
    if (strcmp(key, "done") == 0) return p->done = n != 0, 0;
    if (strcmp(key, "opened") == 0) return p->opened = (int)n, 0;
    return -1;
}

static void write_fields(FILE *f, const void *rec) {
    const PlLessonProgress *p = rec;
    fprintf(f, " step=%d done=%d opened=%d answers=", p->step, p->done, p->opened);
    int first = 1;
    for (int s = 0; s < PL_PROGRESS_ANSWERS; s++)
        if (p->answer[s]) fprintf(f, "%s%d%c", first ? "" : ",", s, p->answer[s] > 0 ? 'r' : 'w'), first = 0;
}

/* The step reached is the last one saved; a lesson finished anywhere stays
 * finished; openings add up; a question's first answer stays the first. */
static void merge(void *now, const void *base, const void *mine) {
    PlLessonProgress *d = now;
    const PlLessonProgress *b = base, *m = mine;
    if (m->step != b->step) d->step = m->step;
    d->done |= m->done;
    d->opened += m->opened - b->opened;
    if (d->opened < 0) d->opened = 0;
    for (int s = 0; s < PL_PROGRESS_ANSWERS; s++)
        if (!d->answer[s]) d->answer[s] = m->answer[s];
}

const PlBookKind pl_progress_kind = {
    .word = "lesson",
    .comment = "padlab: lessons played, the step reached and the first answer to each question (r right, w wrong)",
    .expect = "lesson = NAME step=N done=0|1 opened=N answers=2r,5w",
    .size = sizeof(PlLessonProgress),
    .field = field,
    .write = write_fields,
    .merge = merge,
};

PlStatus pl_progress_load(PlProgressBook *b, PlErr *err) {
    char dir[900], path[1024];
    memset(b, 0, sizeof *b);
    b->kind = &pl_progress_kind;
    if (pl_dir_state(dir, sizeof dir, err)) return PL_EIO;
    snprintf(path, sizeof path, "%s/progress", dir);
    PlStatus st = pl_book_load(b, &pl_progress_kind, path, err);
    if (!st && !b->salt) b->salt = pl_choices_new_salt(); /* kept from the first save on */
    return st;
}

PlStatus pl_progress_save(PlProgressBook *b, PlErr *err) { return pl_book_save(b, err); }

void pl_progress_done(PlProgressBook *b) { pl_book_done(b); }

PlLessonProgress *pl_progress_of(PlProgressBook *b, const char *name) { return pl_book_of(b, name); }

int pl_progress_forget(PlProgressBook *b, const char *name) { return pl_book_forget(b, name, 0); }

void pl_progress_forget_all(PlProgressBook *b) { b->n = 0; }
