/* The lesson progress book (see progress.h): its record's fields and how
 * two instances' records merge. */
#include "progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/dirs.h"
#include "choices.h"
#include "lesson.h"
#include "renamed.h"

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

/* The record of lesson now among out's n, made when missing (NULL when
 * there is no room). */
static PlLessonProgress *out_of(PlLessonProgress *out, int *n, int max, const char *now) {
    for (int i = 0; i < *n; i++)
        if (strcmp(out[i].name, now) == 0) return &out[i];
    if (*n == max) return NULL;
    PlLessonProgress *q = &out[(*n)++];
    memset(q, 0, sizeof *q);
    snprintf(q->name, sizeof q->name, "%s", now);
    return q;
}

/* The step reached in the main lesson: where the first step at or after
 * the old one that went there went (a learner past 09-batching's packing
 * steps resumes 08-batching after them). */
static int step_in(const char *old, int from, const char *now) {
    for (int s = from; s < PL_PROGRESS_ANSWERS; s++) {
        int t = s;
        const char *to = pl_lesson_renamed_step(old, &t);
        if (to && strcmp(to, now) == 0) return t;
    }
    return 0;
}

/* A record kept under an old lesson name (renamed.h) as the records of the
 * lessons its steps went to: each answer at its new step; the step
 * reached, the lesson finished and the times opened with the main lesson
 * (the row that runs to the old lesson's end). */
static int renamed(const void *rec, void *out, int max) {
    const PlLessonProgress *p = rec;
    int nrows, n = 0;
    const PlLessonRenamed *rows = pl_lesson_renames(&nrows);
    if (!pl_lesson_renamed_here(p->name)) return 0;
    for (int i = 0; i < nrows; i++) {
        const PlLessonRenamed *r = &rows[i];
        PlLessonProgress *q = strcmp(r->old, p->name) ? NULL : out_of(out, &n, max, r->now);
        if (!q) continue;
        for (int s = r->from; s < (r->to ? r->to : PL_PROGRESS_ANSWERS); s++)
            if (p->answer[s] && s + r->shift >= 0 && s + r->shift < PL_PROGRESS_ANSWERS)
                q->answer[s + r->shift] = p->answer[s];
        if (!r->to) q->done = p->done, q->opened = p->opened, q->step = step_in(p->name, p->step, r->now);
    }
    return n;
}

const PlBookKind pl_progress_kind = {
    .word = "lesson",
    .comment = "padlab: lessons played, the step reached and the first answer to each question (r right, w wrong)",
    .expect = "lesson = NAME step=N done=0|1 opened=N answers=2r,5w",
    .size = sizeof(PlLessonProgress),
    .field = field,
    .write = write_fields,
    .merge = merge,
    .renamed = renamed,
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
