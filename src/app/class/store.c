/* A class kept on disk (class.h: pl_class_save, pl_class_meta_read,
 * pl_class_restore), so that a quit, a crash or a signal loses nothing:
 * the projector writes it on every change and the same command resumes it.
 *
 * Layout, a line each, "key = value" but for the votes:
 *
 *   padlab class 1                       the format's first line
 *   lesson = NAME                        the meta (PlClassMeta)
 *   settings = STATE LINE                (pl_state_format: every setting)
 *   code = K7P2Q   salt = HEX16   exam = 0|1   began = UNIX SECONDS
 *   report = PATH                        (may be empty)
 *   step = N                             the lesson's step on the projector, from 0
 *   now = Q ROUND PHASE                  the question open (-1), its round, wait|open|shown|ended
 *   student = TOKEN                      one a student, in joining order
 *   question = Q ROUNDS REVEALED OPENED VALUE
 *   vote = Q ROUND STUDENT CHOICE NUM MS TEXT   CHOICE -1 for a number; TEXT to the line's end
 *   sure = Q ROUND STUDENT N             how sure the vote above is, 1 to 3 (none: not said)
 *
 * The questions themselves are the lesson's: a class is resumed on the
 * same lesson, which makes them again; the file says what became of them. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "class_internal.h"
#include "core/atomic.h"
#include "core/infile.h"

static const char *const phases[] = {"wait", "open", "shown", "ended"};

typedef struct {
    PlClass *c;
    const PlClassMeta *m;
} Saving;

static void put_meta(FILE *f, const PlClassMeta *m) {
    fprintf(f, "padlab class 1\nlesson = %s\nsettings = %s\ncode = %s\nsalt = %016" PRIx64 "\nexam = %d\n", m->lesson,
            m->settings, m->code, m->salt, m->exam);
    fprintf(f, "began = %lld\nreport = %s\nstep = %d\n", (long long)m->began, m->report, m->step);
}

static int write_class(FILE *f, void *ctx) {
    const Saving *s = ctx;
    PlClass *c = s->c;
    put_meta(f, s->m);
    fprintf(f, "now = %d %d %s\n", c->cur, c->round, phases[c->phase]);
    for (int i = 0; i < c->nstudents; i++) fprintf(f, "student = %s\n", c->tokens[i]);
    for (int qi = 0; qi < c->nq; qi++) {
        const ClassQuestion *q = &c->qs[qi];
        fprintf(f, "question = %d %d %d %d %.17g\n", qi, q->rounds, q->revealed, q->opened,
                q->revealed ? q->value : 0.0);
        for (int r = 0; r < 2; r++)
            for (int i = 0; i < c->nstudents; i++) {
                const ClassVote *v = &q->votes[r][i];
                if (!v->has) continue;
                fprintf(f, "vote = %d %d %d %d %.17g %lld %s\n", qi, r + 1, i,
                        q->kind == PL_CLASS_CHOICE ? v->choice : -1, q->kind == PL_CLASS_CHOICE ? 0.0 : v->num,
                        (long long)v->ms, q->kind == PL_CLASS_CHOICE ? "-" : v->text);
                if (v->sure) fprintf(f, "sure = %d %d %d %d\n", qi, r + 1, i, v->sure);
            }
        for (int m = 0; m < q->nmiscon; m++) /* what the lab measured where the question was asked */
            if (q->miscon[m].measured) fprintf(f, "miscon = %d %d %.17g\n", qi, m, q->miscon[m].value);
    }
    return ferror(f) ? -1 : 0;
}

int pl_class_save(PlClass *c, const PlClassMeta *m, const char *path, char *why, int cap) {
    Saving s = {c, m};
    PlErr err;
    pthread_mutex_lock(&c->mu);
    PlStatus st = pl_write_atomic(path, write_class, &s, &err);
    pthread_mutex_unlock(&c->mu);
    return st ? (snprintf(why, (size_t)cap, "%s", err.msg), -1) : 0;
}

/* ---- reading ---- */

/* The value after "key = " on line, or NULL. */
static const char *value_of(const char *line, const char *key) {
    size_t n = strlen(key);
    return strncmp(line, key, n) == 0 && strncmp(line + n, " = ", 3) == 0 ? line + n + 3 : NULL;
}

/* Copies v into out (cap bytes): -1 when it does not fit or holds a
 * control byte. */
static int text_into(const char *v, char *out, size_t cap) {
    if (strlen(v) >= cap) return -1;
    for (const char *p = v; *p; p++)
        if ((unsigned char)*p < 0x20) return -1;
    memcpy(out, v, strlen(v) + 1);
    return 0;
}

/* One meta line into m: 1 taken, 0 not a meta line, -1 malformed. */
static int meta_line(const char *line, PlClassMeta *m) {
    const char *v;
    char *end;
    long long n;
    if ((v = value_of(line, "lesson"))) return text_into(v, m->lesson, sizeof m->lesson) ? -1 : 1;
    if ((v = value_of(line, "settings"))) return text_into(v, m->settings, sizeof m->settings) ? -1 : 1;
    if ((v = value_of(line, "report"))) return text_into(v, m->report, sizeof m->report) ? -1 : 1;
    if ((v = value_of(line, "code")))
        return strlen(v) != PL_CLASS_CODE_LEN || text_into(v, m->code, sizeof m->code) ? -1 : 1;
    if ((v = value_of(line, "salt"))) {
        errno = 0, m->salt = strtoull(v, &end, 16);
        return end == v + 16 && !*end && !errno ? 1 : -1;
    }
    if ((v = value_of(line, "exam"))) return (m->exam = v[0] - '0', (v[0] == '0' || v[0] == '1') && !v[1]) ? 1 : -1;
    if ((v = value_of(line, "began"))) {
        errno = 0, n = strtoll(v, &end, 10);
        return end != v && !*end && !errno && n >= 0 ? (m->began = n, 1) : -1;
    }
    if ((v = value_of(line, "step"))) {
        errno = 0, n = strtoll(v, &end, 10);
        return end != v && !*end && n >= 0 && n < 100000 ? (m->step = (int)n, 1) : -1;
    }
    return 0;
}

/* Reads path line by line, each to fn(line, ctx) (its newline cut); the
 * first line must be the format's. 0, or -1 with why naming the line. */
static int read_lines(const char *path, int (*fn)(const char *line, void *ctx), void *ctx, char *why, int cap) {
    FILE *f;
    PlErr err;
    if (pl_infile_open(path, 0, &f, NULL, &err)) return snprintf(why, (size_t)cap, "%s", err.msg), -1;
    char line[1400];
    int no = 0, rc = 0;
    while (!rc && fgets(line, sizeof line, f)) {
        no++;
        size_t n = strlen(line);
        if (n && line[n - 1] == '\n') line[--n] = '\0';
        else if (!feof(f)) rc = -1;
        if (!rc && no == 1) rc = strcmp(line, "padlab class 1") ? -1 : 0;
        else if (!rc) rc = fn(line, ctx);
    }
    fclose(f);
    if (rc) snprintf(why, (size_t)cap, "%s:%d: not a line of a saved class", path, no);
    return rc;
}

static int meta_fn(const char *line, void *ctx) { return meta_line(line, ctx) < 0 ? -1 : 0; }

int pl_class_meta_read(const char *path, PlClassMeta *m, char *why, int cap) {
    memset(m, 0, sizeof *m);
    if (read_lines(path, meta_fn, m, why, cap)) return -1;
    if (!m->lesson[0] || !m->code[0])
        return snprintf(why, (size_t)cap, "%s: a saved class without its lesson or code", path), -1;
    return 0;
}

/* ---- restoring into a class of the same lesson ---- */

static int phase_of(const char *name) {
    for (int i = 0; i < 4; i++)
        if (!strcmp(name, phases[i])) return i;
    return -1;
}

static int restore_now(PlClass *c, const char *v) {
    int q, round;
    char phase[16];
    if (sscanf(v, "%d %d %15s", &q, &round, phase) != 3 || q < -1 || q >= c->nq || (round != 1 && round != 2))
        return -1;
    int p = phase_of(phase);
    if (p < 0 || (q < 0 && p != PL_CLASS_WAIT && p != PL_CLASS_ENDED)) return -1;
    c->cur = q, c->round = round,
    c->phase = p == PL_CLASS_ENDED ? PL_CLASS_WAIT : (PlClassPhase)p; /* resumed: going on */
    c->resume_cur = c->cur, c->resume_round = c->round, c->resume_phase = (int)c->phase, c->has_resume = 1;
    return 0;
}

static int restore_student(PlClass *c, const char *v) {
    if (strlen(v) != PL_CLASS_TOKEN_HEX || strspn(v, "0123456789abcdef") != PL_CLASS_TOKEN_HEX) return -1;
    if (c->nstudents >= PL_CLASS_MAX_STUDENTS) return -1;
    memcpy(c->tokens[c->nstudents++], v, PL_CLASS_TOKEN_HEX + 1);
    return 0;
}

static int restore_question(PlClass *c, const char *v) {
    int qi, rounds, revealed, opened;
    double value;
    if (sscanf(v, "%d %d %d %d %lf", &qi, &rounds, &revealed, &opened, &value) != 5 || qi < 0 || qi >= c->nq ||
        (rounds != 1 && rounds != 2) || (revealed & ~1) || (opened & ~1) || !isfinite(value))
        return -1;
    ClassQuestion *q = &c->qs[qi];
    q->rounds = rounds, q->revealed = revealed, q->opened = opened, q->value = value;
    return 0;
}

static int restore_vote(PlClass *c, const char *v) {
    int qi, round, s, choice, used = 0;
    double num;
    long long ms;
    if (sscanf(v, "%d %d %d %d %lf %lld %n", &qi, &round, &s, &choice, &num, &ms, &used) != 6 || !used) return -1;
    if (qi < 0 || qi >= c->nq || (round != 1 && round != 2) || s < 0 || s >= c->nstudents || !isfinite(num) || ms < 0)
        return -1;
    ClassQuestion *q = &c->qs[qi];
    ClassVote w = {.has = 1, .choice = choice, .num = num, .ms = ms};
    const char *text = v + used;
    if (q->kind == PL_CLASS_CHOICE
            ? choice < 0 || choice >= q->nchoices || strcmp(text, "-")
            : choice != -1 || text_into(text, w.text, sizeof w.text) || pl_quantity_read(&q->qty, w.text, &w.num))
        return -1; /* a number's value is read again from its text: the file cannot make it another */
    q->votes[round - 1][s] = w;
    return 0;
}

static int restore_sure(PlClass *c, const char *v) {
    int qi, round, s, sure;
    char end;
    if (sscanf(v, "%d %d %d %d %c", &qi, &round, &s, &sure, &end) != 4) return -1;
    if (qi < 0 || qi >= c->nq || (round != 1 && round != 2) || s < 0 || s >= c->nstudents || sure < 1 || sure > 3)
        return -1;
    ClassVote *w = &c->qs[qi].votes[round - 1][s];
    if (!w->has) return -1; /* a rating comes after its vote */
    w->sure = sure;
    return 0;
}

/* A misconception the lab measured: only one left for the lab (NAN), once. */
static int restore_miscon(PlClass *c, const char *v) {
    int qi, m;
    double value;
    char end;
    if (sscanf(v, "%d %d %lf %c", &qi, &m, &value, &end) != 3 || qi < 0 || qi >= c->nq || !isfinite(value)) return -1;
    ClassQuestion *q = &c->qs[qi];
    if (m < 0 || m >= q->nmiscon || q->miscon[m].measured || !isnan(q->miscon[m].value)) return -1;
    q->miscon[m].value = value, q->miscon[m].measured = 1;
    return 0;
}

static int restore_fn(const char *line, void *ctx) {
    PlClass *c = ctx;
    const char *v;
    PlClassMeta m;
    if ((v = value_of(line, "now"))) return restore_now(c, v);
    if ((v = value_of(line, "student"))) return restore_student(c, v);
    if ((v = value_of(line, "question"))) return restore_question(c, v);
    if ((v = value_of(line, "vote"))) return restore_vote(c, v);
    if ((v = value_of(line, "sure"))) return restore_sure(c, v);
    if ((v = value_of(line, "miscon"))) return restore_miscon(c, v);
    return meta_line(line, &m) == 1 ? 0 : -1;
}

void pl_class_resume_now(PlClass *c) {
    pthread_mutex_lock(&c->mu);
    if (c->has_resume && c->resume_cur < c->nq) {
        c->cur = c->resume_cur, c->round = c->resume_round, c->phase = (PlClassPhase)c->resume_phase;
        if (c->cur >= 0 && c->round == 2) c->qs[c->cur].rounds = 2;
        c->version++;
    }
    pthread_mutex_unlock(&c->mu);
}

int pl_class_restore(PlClass *c, const char *path, char *why, int cap) {
    pthread_mutex_lock(&c->mu);
    c->nstudents = 0;
    int rc = read_lines(path, restore_fn, c, why, cap);
    c->version++;
    pthread_mutex_unlock(&c->mu);
    return rc;
}
