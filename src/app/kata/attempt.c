/* Emitting a kata's cases and checking an attempt (attempt.h). */
#include "attempt.h"

#include "bugs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/report/out.h"
#include "core/atomic.h"
#include "core/infile.h"
#include "run.h"

int pl_kata_emit_json(FILE *f, const PlKata *k, const PlKCase *cases) {
    fputs("{\"kata\": ", f);
    out_json_string(f, k->name);
    fputs(", \"cases\": [\n", f);
    for (int i = 0; i < k->task->ncases; i++) {
        pl_kcase_json(f, &cases[i], i + 1);
        fputs(i + 1 < k->task->ncases ? ",\n" : "\n", f);
    }
    fputs("]}\n", f);
    return ferror(f) ? -1 : 0;
}

static PlStatus make_dir(const char *dir, PlErr *err) {
    if (mkdir(dir, 0777) == 0 || errno == EEXIST) {
        struct stat sb;
        if (stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode)) return PL_OK;
        return pl_err_set(err, PL_EIO, "%s: not a folder", dir);
    }
    return pl_err_set(err, PL_EIO, "%s: cannot make the folder: %s", dir, strerror(errno));
}

typedef struct {
    const PlKCase *c;
    int number;
} CaseJob;

static int write_case(FILE *f, void *ctx) {
    const CaseJob *j = ctx;
    pl_kcase_json(f, j->c, j->number);
    fputc('\n', f);
    return ferror(f) ? -1 : 0;
}

PlStatus pl_kata_emit_dir(const char *dir, const PlKata *k, const PlKCase *cases, int npy, PlErr *err) {
    PlStatus st = make_dir(dir, err);
    char path[1200];
    for (int i = 0; !st && i < k->task->ncases; i++) {
        CaseJob j = {&cases[i], i + 1};
        snprintf(path, sizeof path, npy ? "%.1000s/case%d" : "%.1000s/case%d.json", dir, i + 1);
        if (!npy) {
            st = pl_write_atomic(path, write_case, &j, err);
            continue;
        }
        st = make_dir(path, err);
        for (int a = 0; !st && a < cases[i].nin; a++) st = pl_karray_npy(path, &cases[i].in[a], err);
    }
    return st;
}

char *pl_kata_read_answers(const char *path, size_t *n, PlErr *err) {
    FILE *f;
    uint64_t size;
    PlStatus st = pl_infile_open(path, PL_JSON_MAX_BYTES, &f, &size, err);
    if (st == PL_ERANGE) return pl_err_set(err, PL_EINPUT, "%s: answers are at most 64 MB", path), NULL;
    if (st) return NULL;
    char *buf = malloc((size_t)size + 1);
    *n = buf ? fread(buf, 1, (size_t)size, f) : 0;
    int bad = ferror(f);
    fclose(f);
    if (!buf) return pl_err_set(err, PL_ENOMEM, "%s: out of memory", path), NULL;
    if (bad) return free(buf), pl_err_set(err, PL_EIO, "%s: cannot read", path), NULL;
    return buf;
}

/* One case's outputs against the expected, and when they are exactly a
 * known bug's (bugs.h), that bug named before the cell. */
static int judge(const PlKata *k, const PlKCase *c, int number, const PlJson *got, char *msg, size_t cap) {
    int v = pl_kcheck_case(k->task, c, number, got, msg, cap);
    const PlKBug *b[4];
    int nb = v ? pl_kbug_match(k->task, c, got, b, 4) : 0;
    if (nb) {
        char cell[2000], also[400] = "";
        snprintf(cell, sizeof cell, "%s", msg);
        for (int i = 1; i < nb; i++)
            snprintf(also + strlen(also), sizeof also - strlen(also), "%s%s", i == 1 ? " (or " : ", or ", b[i]->name);
        if (nb > 1) snprintf(also + strlen(also), sizeof also - strlen(also), ": the same outputs here)");
        snprintf(msg, cap, "case %d (%s): your output is what %s gives%s: %s.\n  the first wrong cell: %s", number,
                 c->what, b[0]->name, also, b[0]->says, cell);
    }
    return v;
}

int pl_kata_check_answers(const PlKata *k, const PlKCase *cases, const PlJson *answers, int *passed, char *msg,
                          size_t cap) {
    int n = k->task->ncases;
    *passed = 0;
    if (answers->t != PL_J_ARR || answers->n != n) {
        snprintf(msg, cap, "the answers are a list of %d objects, one per case in emit's order; got %s%s", n,
                 answers->t == PL_J_ARR ? "a list of " : pl_json_kind(answers->t),
                 answers->t == PL_J_ARR ? (answers->n == 1 ? "1 item" : "several items") : "");
        if (answers->t == PL_J_ARR) snprintf(msg + strlen(msg), cap - strlen(msg), " (%d)", answers->n);
        return -1;
    }
    int verdict = PL_KCHECK_PASS;
    char other[600];
    for (int i = 0; i < n; i++) { /* every case counted; the first wrong one named */
        int v = judge(k, &cases[i], i + 1, &answers->items[i], verdict ? other : msg, verdict ? sizeof other : cap);
        *passed += v == PL_KCHECK_PASS;
        if (v) verdict = PL_KCHECK_WRONG;
    }
    return verdict;
}

/* The verdict on what the program did on case i: PASS, or WRONG with msg. */
static int judge_run(const PlKata *k, const PlKCase *c, int number, const PlKRun *r, int seconds, char *msg,
                     size_t cap) {
    if (r->timed_out)
        return snprintf(msg, cap, "case %d (%s): the program was still running after %d s: it was stopped", number,
                        c->what, seconds),
               1;
    if (r->too_long) return snprintf(msg, cap, "case %d (%s): the program printed more than 64 MB", number, c->what), 1;
    if (!r->exited || r->status)
        return snprintf(msg, cap, "case %d (%s): the program %s %d (its messages are above)", number, c->what,
                        r->exited ? "exited with status" : "was killed by signal", r->status),
               1;
    return pl_kata_judge_output(k, c, number, r->out, r->n, msg, cap);
}

int pl_kata_judge_output(const PlKata *k, const PlKCase *c, int number, const char *out, size_t n, char *msg,
                         size_t cap) {
    PlErr err;
    PlJson *j;
    PlStatus st = pl_json_parse_status(out, n, &j, &err);
    /* No memory to read the output says nothing of the program's answer. */
    if (st == PL_ENOMEM) return snprintf(msg, cap, "out of memory reading the program's output on case %d", number), -1;
    if (st)
        return snprintf(msg, cap, "case %d (%s): the program's output is not JSON: %s", number, c->what, err.msg), 1;
    int v = judge(k, c, number, j, msg, cap);
    pl_json_free(j);
    return v;
}

int pl_kata_check_run(const PlKata *k, const PlKCase *cases, const char *command, int seconds, int *passed, char *msg,
                      size_t cap) {
    const char *tmp = getenv("TMPDIR");
    char dir[900], path[1000];
    snprintf(dir, sizeof dir, "%.800s/padlab-kata-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    *passed = 0;
    if (!mkdtemp(dir))
        return snprintf(msg, cap, "cannot make a folder for the cases in %s: %s", tmp && *tmp ? tmp : "/tmp",
                        strerror(errno)),
               -1;
    int verdict = PL_KCHECK_PASS;
    char other[2000];
    for (int i = 0; verdict >= 0 && i < k->task->ncases; i++) { /* every case counted; the first wrong one named */
        PlErr err;
        CaseJob job = {&cases[i], i + 1};
        PlKRun r;
        char *into = verdict ? other : msg;
        size_t room = verdict ? sizeof other : cap;
        snprintf(path, sizeof path, "%s/case%d.json", dir, i + 1);
        if (pl_write_atomic(path, write_case, &job, &err) || pl_krun(command, path, seconds, &r, &err)) {
            snprintf(msg, cap, "%s", err.msg);
            verdict = -1;
        } else {
            int v = judge_run(k, &cases[i], i + 1, &r, seconds, into, room);
            free(r.out);
            *passed += v == PL_KCHECK_PASS;
            if (v < 0) {
                if (into != msg) snprintf(msg, cap, "%s", into);
                verdict = -1;
            } else if (v) verdict = PL_KCHECK_WRONG;
        }
        unlink(path);
        if (pl_krun_stopped())
            verdict = -1, snprintf(msg, cap, "stopped by a signal: the program and its folder are gone");
    }
    rmdir(dir);
    return verdict;
}
