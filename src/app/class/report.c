/* The class report, as Markdown (for the teacher), CSV (one row per
 * response, for a spreadsheet) and JSON (everything): a header (the date,
 * the lesson, the corpus and seed, the steps reached, how long it ran),
 * then each question the class was asked, never one it was not: its tally
 * row by row and round by round, the switches between the rounds, the
 * most common wrong answer (a tie said as one), and every response with
 * its round, whether it counted right, its time and the student's token
 * hashed. A lesson's text is written as text: no control byte, no cell
 * that a spreadsheet would read as a formula. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app/report/out.h"
#include "class_internal.h"
#include "core/atomic.h"
#include "core/rng.h"

/* Markdown table cell: its pipes and markup escaped, a control byte a space. */
static void md_cell(FILE *f, const char *s) {
    fputs("| ", f);
    for (; *s; s++) {
        if (*s == '|' || *s == '\\' || *s == '<' || *s == '>' || *s == '`' || *s == '*' || *s == '_' || *s == '[')
            fputc('\\', f);
        fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, f);
    }
    fputc(' ', f);
}

/* Markdown text: control bytes as spaces. */
static void md_text(FILE *f, const char *s) {
    for (; *s; s++) fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, f);
}

/* A CSV cell of text: control bytes as spaces, and a cell a spreadsheet
 * would run as a formula (=, +, -, @ first) quoted with a leading '. */
static void csv_text(FILE *f, const char *s) {
    char buf[1400];
    size_t n = 0;
    if (*s == '=' || *s == '+' || *s == '-' || *s == '@') buf[n++] = '\'';
    for (; *s && n + 1 < sizeof buf; s++) buf[n++] = (unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s;
    buf[n] = '\0';
    out_csv_cell(f, buf);
}

static const char *kind_name(PlClassKind k) { return k == PL_CLASS_CHOICE ? "choose" : "ask"; }

/* A student's token as the report names them: a hash, never the token. */
static void student_id(const PlClass *c, int s, char *out, int cap) {
    snprintf(out, (size_t)cap, "%08" PRIx32, (uint32_t)pl_fnv1a(c->tokens[s], PL_CLASS_TOKEN_HEX));
}

/* A response as written: the letter and its text, or the number as typed. */
static void answer_text(const ClassQuestion *q, const ClassVote *v, char *out, int cap) {
    if (q->kind == PL_CLASS_CHOICE) snprintf(out, (size_t)cap, "%c. %s", 'a' + v->choice, q->choices[v->choice]);
    else snprintf(out, (size_t)cap, "%s", v->text);
}

/* Whether a response counted right, as the report says it: "yes", "no", or
 * "" for a number never revealed. */
static const char *right_text(const ClassQuestion *q, const ClassVote *v) {
    if (q->kind == PL_CLASS_NUMBER && !q->revealed) return "";
    int right = q->kind == PL_CLASS_CHOICE ? v->choice == q->right
                                           : pl_quantity_check(&q->qty, q->value, v->text, &q->tol) == 1;
    return right ? "yes" : "no";
}

/* How sure a response was, as the report says it: "1" to "3", or "" when
 * the student did not say. */
static const char *sure_text(const ClassVote *v) {
    static const char *const said[] = {"", "1", "2", "3"};
    return said[v->sure >= 0 && v->sure <= 3 ? v->sure : 0];
}

/* The mean rating of question q's responses that counted right (right 1) or
 * wrong (0) in any round, and how many were rated. */
static double sure_mean(const PlClass *c, const ClassQuestion *q, int right, int *rated) {
    double sum = 0;
    *rated = 0;
    for (int r = 0; r < q->rounds; r++)
        for (int s = 0; s < c->nstudents; s++) {
            const ClassVote *v = &q->votes[r][s];
            if (v->has && v->sure && !strcmp(right_text(q, v), right ? "yes" : "no")) sum += v->sure, ++*rated;
        }
    return *rated ? sum / *rated : 0;
}

/* ---- the header ---- */

typedef struct {
    char date[40], corpus[600], steps[80], length[40];
    int seed, first, last; /* the steps the class was asked on, from 1 */
} Head;

static void head_of(const PlClass *c, Head *h) {
    memset(h, 0, sizeof *h);
    h->first = h->last = 0;
    for (int i = 0; i < c->nq; i++)
        if (c->qs[i].opened) {
            if (!h->first) h->first = c->qs[i].step + 1;
            h->last = c->qs[i].step + 1;
        }
    const PlClassMeta *m = &c->meta;
    time_t began = (time_t)m->began;
    struct tm tm;
    if (c->has_meta && gmtime_r(&began, &tm)) strftime(h->date, sizeof h->date, "%Y-%m-%d %H:%M UTC", &tm);
    const char *cp = strstr(m->settings, "corpus="), *sp = strstr(m->settings, ",seed=");
    if (cp) snprintf(h->corpus, sizeof h->corpus, "%.*s", (int)strcspn(cp + 7, ","), cp + 7);
    h->seed = sp ? atoi(sp + 6) : 0;
    if (h->first) snprintf(h->steps, sizeof h->steps, "%d to %d", h->first, h->last);
    long long secs = c->ended > m->began ? c->ended - m->began : 0;
    snprintf(h->length, sizeof h->length, "%lld min %02lld s", secs / 60, secs % 60);
}

/* ---- Markdown ---- */

static void md_tally(FILE *f, const ClassQuestion *q, const PlClassTally *t) {
    fputs("| answer |", f);
    for (int r = 0; r < t->rounds; r++) fprintf(f, " round %d |", r + 1);
    fputs("\n|---|", f);
    for (int r = 0; r < t->rounds; r++) fputs("---|", f);
    fputc('\n', f);
    int most, rows = pl_class_tally_rows(t, &most);
    for (int i = 0; i < rows; i++) {
        char label[200], cell[600];
        int right = pl_class_tally_label(t, i, label, sizeof label);
        if (t->kind == PL_CLASS_CHOICE)
            snprintf(cell, sizeof cell, "%s %s%s", label, q->choices[i], right ? " (right)" : "");
        else snprintf(cell, sizeof cell, "%s", label);
        md_cell(f, cell);
        for (int r = 0; r < t->rounds; r++) fprintf(f, "| %d ", pl_class_tally_count(t, r, i));
        fputs("|\n", f);
    }
}

/* How sure the right and the wrong answers were, where students said. */
static void md_sure(const PlClass *c, FILE *f, const ClassQuestion *q) {
    int yes, no;
    double my = sure_mean(c, q, 1, &yes), mn = sure_mean(c, q, 0, &no);
    if (!yes && !no) return;
    fputs("\nHow sure (1 a guess, 3 sure), on average: ", f);
    if (yes) fprintf(f, "%.1f over %d right answer%s", my, yes, yes == 1 ? "" : "s");
    if (yes && no) fputs("; ", f);
    if (no) fprintf(f, "%.1f over %d wrong answer%s", mn, no, no == 1 ? "" : "s");
    fputs(".\n", f);
}

static void md_question(PlClass *c, FILE *f, int qi) {
    const ClassQuestion *q = &c->qs[qi];
    PlClassTally t;
    class_tally_locked(c, qi, &t);
    fprintf(f, "\n## Question %d (step %d, %s)\n\n", qi + 1, q->step + 1, kind_name(q->kind));
    md_text(f, q->prompt), fputs("\n\n", f);
    if (q->kind == PL_CLASS_NUMBER && q->revealed) fprintf(f, "The lab: %s.\n\n", t.value_text);
    else if (q->kind == PL_CLASS_NUMBER) fputs("Never revealed: no answer is counted right or wrong.\n\n", f);
    for (int r = 0; r < t.rounds; r++)
        fprintf(f, "Round %d: %d answered%s", r + 1, t.answered[r], r + 1 < t.rounds ? "; " : ".\n\n");
    md_tally(f, q, &t);
    if (t.rounds == 2 && (q->kind == PL_CLASS_CHOICE || q->revealed))
        fprintf(f,
                "\nBetween the rounds: %d went from wrong to right, %d from right to wrong; %d stayed right, %d "
                "stayed wrong.\n",
                t.to_right, t.to_wrong, t.stayed_right, t.stayed_wrong);
    if (t.wrong_count) {
        fputs("\nThe most common wrong answer of round 1: ", f), md_text(f, t.wrong);
        fprintf(f, " (%d)%s.\n", t.wrong_count, t.wrong_tied ? ", tied with another as often given" : "");
    }
    md_sure(c, f, q);
}

static void md_responses(PlClass *c, FILE *f) {
    fputs("\n## Every response\n\n| question | round | answer | counted right | how sure | seconds in | student |\n"
          "|---|---|---|---|---|---|---|\n",
          f);
    for (int qi = 0; qi < c->nq; qi++)
        for (int r = 0; c->qs[qi].opened && r < c->qs[qi].rounds; r++)
            for (int s = 0; s < c->nstudents; s++) {
                const ClassQuestion *q = &c->qs[qi];
                const ClassVote *v = &q->votes[r][s];
                char a[500], id[16];
                if (!v->has) continue;
                answer_text(q, v, a, sizeof a), student_id(c, s, id, sizeof id);
                fprintf(f, "| %d | %d ", qi + 1, r + 1);
                md_cell(f, a), md_cell(f, right_text(q, v)), md_cell(f, sure_text(v));
                fprintf(f, "| %.1f | %s |\n", (double)v->ms / 1000.0, id);
            }
}

static void print_md(PlClass *c, FILE *f, const char *title) {
    Head h;
    head_of(c, &h);
    fputs("# Class report: ", f), md_text(f, title), fputs("\n\n", f);
    if (c->has_meta) {
        fprintf(f, "%s; lesson %s on the corpus ", h.date, c->meta.lesson), md_text(f, h.corpus);
        fprintf(f, ", seed %d; %s.\n\n", h.seed, h.length);
    }
    fprintf(f, "%d student%s joined. ", c->nstudents, c->nstudents == 1 ? "" : "s");
    if (h.first) fprintf(f, "Questions were asked on steps %s.\n", h.steps);
    else fputs("No question was asked.\n", f);
    for (int qi = 0; qi < c->nq; qi++)
        if (c->qs[qi].opened) md_question(c, f, qi);
    md_responses(c, f);
}

/* ---- CSV: a row per response ---- */

static void print_csv(PlClass *c, FILE *f) {
    fputs("question,step,kind,prompt,round,answer,counted_right,sure,seconds,student\n", f);
    for (int qi = 0; qi < c->nq; qi++)
        for (int r = 0; c->qs[qi].opened && r < c->qs[qi].rounds; r++)
            for (int s = 0; s < c->nstudents; s++) {
                const ClassQuestion *q = &c->qs[qi];
                const ClassVote *v = &q->votes[r][s];
                char a[500], id[16];
                if (!v->has) continue;
                answer_text(q, v, a, sizeof a), student_id(c, s, id, sizeof id);
                fprintf(f, "%d,%d,%s,", qi + 1, q->step + 1, kind_name(q->kind));
                csv_text(f, q->prompt);
                fprintf(f, ",%d,", r + 1);
                csv_text(f, a);
                fprintf(f, ",%s,%s,%.1f,%s\n", right_text(q, v), sure_text(v), (double)v->ms / 1000.0, id);
            }
}

/* ---- JSON ---- */

static void json_tally(JsonW *j, const ClassQuestion *q, const PlClassTally *t) {
    json_arr(j, "rounds");
    for (int r = 0; r < t->rounds; r++) {
        json_obj(j, NULL);
        json_int(j, "round", r + 1);
        json_int(j, "answered", t->answered[r]);
        if (q->kind == PL_CLASS_CHOICE || q->revealed) json_int(j, "right", t->right[r]);
        json_close(j, '}');
    }
    json_close(j, ']');
    json_arr(j, "rows");
    int most, rows = pl_class_tally_rows(t, &most);
    for (int i = 0; i < rows; i++) {
        char label[200];
        int right = pl_class_tally_label(t, i, label, sizeof label);
        json_obj(j, NULL);
        json_str(j, "answer", label);
        if (t->kind == PL_CLASS_CHOICE) json_str(j, "text", q->choices[i]);
        json_bool(j, "right", right);
        json_arr(j, "counts");
        for (int r = 0; r < t->rounds; r++) json_int(j, NULL, pl_class_tally_count(t, r, i));
        json_close(j, ']');
        json_close(j, '}');
    }
    json_close(j, ']');
}

static void json_question(PlClass *c, JsonW *j, int qi) {
    const ClassQuestion *q = &c->qs[qi];
    PlClassTally t;
    class_tally_locked(c, qi, &t);
    json_obj(j, NULL);
    json_int(j, "question", qi + 1), json_int(j, "step", q->step + 1);
    json_str(j, "kind", kind_name(q->kind)), json_str(j, "prompt", q->prompt);
    if (q->kind == PL_CLASS_NUMBER && q->revealed) json_num(j, "lab_value", t.value);
    json_tally(j, q, &t);
    if (t.rounds == 2 && (q->kind == PL_CLASS_CHOICE || q->revealed)) {
        json_obj(j, "switches");
        json_int(j, "to_right", t.to_right), json_int(j, "to_wrong", t.to_wrong);
        json_int(j, "stayed_right", t.stayed_right), json_int(j, "stayed_wrong", t.stayed_wrong);
        json_close(j, '}');
    }
    if (t.wrong_count)
        json_str(j, "wrong", t.wrong), json_int(j, "wrong_count", t.wrong_count),
            json_bool(j, "wrong_tied", t.wrong_tied);
    json_arr(j, "responses");
    for (int r = 0; r < q->rounds; r++)
        for (int s = 0; s < c->nstudents; s++) {
            const ClassVote *v = &q->votes[r][s];
            char a[500], id[16];
            if (!v->has) continue;
            answer_text(q, v, a, sizeof a), student_id(c, s, id, sizeof id);
            json_obj(j, NULL);
            json_int(j, "round", r + 1), json_str(j, "answer", a), json_str(j, "counted_right", right_text(q, v));
            if (v->sure) json_int(j, "sure", v->sure);
            json_num(j, "seconds", (double)v->ms / 1000.0), json_str(j, "student", id);
            json_close(j, '}');
        }
    json_close(j, ']');
    json_close(j, '}');
}

static void print_json(PlClass *c, FILE *f, const char *title) {
    JsonW j;
    Head h;
    head_of(c, &h);
    json_begin(&j, f);
    json_str(&j, "lesson", title);
    if (c->has_meta) {
        json_str(&j, "name", c->meta.lesson), json_str(&j, "date", h.date), json_str(&j, "corpus", h.corpus);
        json_int(&j, "seed", h.seed), json_int(&j, "seconds", c->ended > c->meta.began ? c->ended - c->meta.began : 0);
    }
    json_int(&j, "students", c->nstudents);
    if (h.first) json_int(&j, "first_step", h.first), json_int(&j, "last_step", h.last);
    json_arr(&j, "questions");
    for (int i = 0; i < c->nq; i++)
        if (c->qs[i].opened) json_question(c, &j, i);
    json_close(&j, ']');
    json_end(&j);
}

void pl_class_report_print(PlClass *c, FILE *f, const char *fmt, const char *title) {
    pthread_mutex_lock(&c->mu);
    if (!strcmp(fmt, "csv")) print_csv(c, f);
    else if (!strcmp(fmt, "json")) print_json(c, f, title);
    else print_md(c, f, title);
    pthread_mutex_unlock(&c->mu);
}

void pl_class_report_meta(PlClass *c, const PlClassMeta *m, long long ended) {
    pthread_mutex_lock(&c->mu);
    c->meta = *m, c->has_meta = 1, c->ended = ended;
    pthread_mutex_unlock(&c->mu);
}

static int write_one(PlClass *c, const char *path, const char *fmt, const char *title, char *err, int cap) {
    PlAtomic a;
    PlErr e;
    if (pl_atomic_open(&a, path, 0, &e)) return snprintf(err, cap, "%s", e.msg), -1;
    pl_class_report_print(c, a.f, fmt, title);
    if (pl_atomic_commit(&a, &e)) return snprintf(err, cap, "%s", e.msg), -1;
    return 0;
}

static const char *ext_of(const char *path) {
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash)) return NULL;
    static const char *const fmts[] = {"md", "csv", "json"};
    for (int i = 0; i < 3; i++)
        if (!strcmp(dot + 1, fmts[i])) return fmts[i];
    return NULL;
}

/* Whether path names something: 1 a regular file, -1 anything else that is
 * not a plain file to replace (a FIFO, a device, a socket, a folder), 0
 * nothing. */
static int occupied(const char *path) {
    struct stat st;
    if (lstat(path, &st)) return 0;
    return S_ISREG(st.st_mode) ? 1 : -1;
}

/* The files a report of path writes (one with an extension, three without). */
static int targets(const char *path, char out[3][1100]) {
    if (ext_of(path)) return snprintf(out[0], 1100, "%s", path), 1;
    static const char *const fmts[] = {"md", "csv", "json"};
    for (int i = 0; i < 3; i++) snprintf(out[i], 1100, "%.1000s.%s", path, fmts[i]);
    return 3;
}

int pl_class_report_path(const char *asked, const char *name, int reuse, char *out, int cap, char *why, int whycap) {
    struct stat st;
    char base[1000], folder[1000];
    if (!stat(asked, &st) && S_ISDIR(st.st_mode))
        snprintf(base, sizeof base, "%.900s/%.90s", asked, name); /* into it */
    else snprintf(base, sizeof base, "%.990s", asked);
    const char *slash = strrchr(base, '/');
    snprintf(folder, sizeof folder, "%.*s", slash ? (int)(slash - base) : 1, slash ? base : ".");
    if (!folder[0]) snprintf(folder, sizeof folder, "/");
    if (stat(folder, &st) || !S_ISDIR(st.st_mode))
        return snprintf(why, (size_t)whycap, "%.300s: no such folder for the report", folder), -1;
    if (access(folder, W_OK | X_OK))
        return snprintf(why, (size_t)whycap, "%.300s: the report cannot be written there: %s", folder, strerror(errno)),
               -1;
    for (int k = 1; k < 1000; k++) { /* never over another report: base, base-2, base-3 ... */
        char cand[1100], files[3][1100];
        const char *ext = ext_of(base);
        if (k == 1) snprintf(cand, sizeof cand, "%s", base);
        else if (ext) snprintf(cand, sizeof cand, "%.*s-%d.%s", (int)(strlen(base) - strlen(ext) - 1), base, k, ext);
        else snprintf(cand, sizeof cand, "%s-%d", base, k);
        int n = targets(cand, files), taken = 0;
        for (int i = 0; i < n; i++) {
            int o = occupied(files[i]);
            if (o < 0) return snprintf(why, (size_t)whycap, "%.300s: not a file a report can replace", files[i]), -1;
            taken |= o > 0;
        }
        if (!taken || reuse) return snprintf(out, (size_t)cap, "%s", cand), 0;
    }
    return snprintf(why, (size_t)whycap, "%.300s: no free name for the report (up to -999 taken)", base), -1;
}

int pl_class_report_write(PlClass *c, const char *path, const char *title, char *err, int cap) {
    const char *fmt = ext_of(path);
    if (fmt) return write_one(c, path, fmt, title, err, cap);
    static const char *const fmts[] = {"md", "csv", "json"};
    for (int i = 0; i < 3; i++) {
        char p[1100];
        if (snprintf(p, sizeof p, "%s.%s", path, fmts[i]) >= (int)sizeof p)
            return snprintf(err, cap, "%.200s: the name is too long", path), -1;
        if (write_one(c, p, fmts[i], title, err, cap)) return -1;
    }
    return 0;
}
