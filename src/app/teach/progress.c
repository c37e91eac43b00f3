#include "progress.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/dirs.h"
#include "choices.h"
#include "core/atomic.h"

/* "2r,5w" into answer[]. */
static int parse_answers(char *v, signed char *answer) {
    char *save = NULL;
    for (char *t = strtok_r(v, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        char *end;
        long s = strtol(t, &end, 10);
        if (end == t || s < 0 || s >= PL_PROGRESS_ANSWERS || (*end != 'r' && *end != 'w') || end[1]) return -1;
        answer[s] = *end == 'r' ? 1 : -1;
    }
    return 0;
}

static int parse_entry(char *v, PlLessonProgress *p) {
    char *save = NULL;
    memset(p, 0, sizeof *p);
    char *name = strtok_r(v, " ", &save);
    if (!name || strlen(name) >= sizeof p->name) return -1;
    snprintf(p->name, sizeof p->name, "%s", name);
    for (char *t = strtok_r(NULL, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(t, '='), *end;
        if (!eq) return -1;
        *eq = '\0';
        long n = strtol(eq + 1, &end, 10);
        if (strcmp(t, "answers") == 0) {
            if (parse_answers(eq + 1, p->answer)) return -1;
        } else if (end == eq + 1 || *end || n < 0 || n > 100000) {
            return -1;
        } else if (strcmp(t, "step") == 0) {
            p->step = (int)n;
        } else if (strcmp(t, "done") == 0) {
            p->done = n != 0;
        } else if (strcmp(t, "opened") == 0) {
            p->opened = (int)n;
        } else {
            return -1;
        }
    }
    return 0;
}

PlStatus pl_progress_load(PlProgressBook *b, PlErr *err) {
    char dir[900];
    memset(b, 0, sizeof *b);
    if (pl_dir_state(dir, sizeof dir, err)) return PL_EIO;
    snprintf(b->path, sizeof b->path, "%s/progress", dir);
    FILE *f = fopen(b->path, "r");
    if (!f && errno == ENOENT) return b->salt = pl_choices_new_salt(), PL_OK; /* a new learner */
    if (!f) return pl_err_set(err, PL_EIO, "%s: cannot open: %s", b->path, strerror(errno));
    char line[2048];
    int no = 0;
    PlStatus st = PL_OK;
    while (!st && fgets(line, sizeof line, f)) {
        no++;
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0] || line[0] == '#') continue;
        if (strncmp(line, "learner = ", 10) == 0) {
            if (pl_choices_salt_parse(line + 10, &b->salt))
                st = pl_err_set(err, PL_EINPUT, "%s:%d: expected 'learner = ' and 16 hex digits", b->path, no);
        } else if (strncmp(line, "lesson = ", 9) != 0 || b->n == PL_PROGRESS_MAX ||
                   parse_entry(line + 9, &b->lessons[b->n]))
            st = pl_err_set(err, PL_EINPUT, "%s:%d: expected 'lesson = NAME step=N done=0|1 opened=N answers=2r,5w'",
                            b->path, no);
        else b->n++;
    }
    fclose(f);
    if (st) b->n = 0, b->salt = 0;
    else if (!b->salt) b->salt = pl_choices_new_salt(); /* kept from the first save on */
    return st;
}

static int write_book(FILE *f, void *ctx) {
    const PlProgressBook *b = ctx;
    fputs("# padlab: lessons played, the step reached and the first answer to each question (r right, w wrong)\n", f);
    if (b->salt) fprintf(f, "learner = %016llx\n", (unsigned long long)b->salt);
    for (int i = 0; i < b->n; i++) {
        const PlLessonProgress *p = &b->lessons[i];
        fprintf(f, "lesson = %s step=%d done=%d opened=%d answers=", p->name, p->step, p->done, p->opened);
        int first = 1;
        for (int s = 0; s < PL_PROGRESS_ANSWERS; s++)
            if (p->answer[s]) fprintf(f, "%s%d%c", first ? "" : ",", s, p->answer[s] > 0 ? 'r' : 'w'), first = 0;
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}

PlStatus pl_progress_save(const PlProgressBook *b, PlErr *err) {
    if (!b->path[0]) return pl_err_set(err, PL_EIO, "no progress file to save to");
    return pl_write_atomic(b->path, write_book, (void *)b, err);
}

PlLessonProgress *pl_progress_of(PlProgressBook *b, const char *name) {
    for (int i = 0; i < b->n; i++)
        if (strcmp(b->lessons[i].name, name) == 0) return &b->lessons[i];
    if (b->n == PL_PROGRESS_MAX || strlen(name) >= sizeof b->lessons[0].name || strchr(name, ' ')) return NULL;
    PlLessonProgress *p = &b->lessons[b->n++];
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    return p;
}

int pl_progress_forget(PlProgressBook *b, const char *name) {
    for (int i = 0; i < b->n; i++)
        if (strcmp(b->lessons[i].name, name) == 0) {
            memmove(&b->lessons[i], &b->lessons[i + 1], sizeof b->lessons[0] * (size_t)(b->n - i - 1));
            b->n--;
            return 1;
        }
    return 0;
}

void pl_progress_forget_all(PlProgressBook *b) { b->n = 0; }
