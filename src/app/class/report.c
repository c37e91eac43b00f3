/* The class report: one row per question (answered and right in each round,
 * the most common wrong answer of round 1), as Markdown, CSV or JSON. */
#include <stdlib.h>
#include <string.h>

#include "app/report/out.h"
#include "class_internal.h"
#include "core/atomic.h"

/* Markdown table cell: its pipes escaped, its line breaks made spaces. */
static void md_cell(FILE *f, const char *s) {
    fputs("| ", f);
    for (; *s; s++) {
        if (*s == '|' || *s == '\\' || *s == '<' || *s == '>' || *s == '`' || *s == '*' || *s == '_' || *s == '[')
            fputc('\\', f);
        fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
    }
    fputc(' ', f);
}

/* A round's figures as text, "" for a round that was not held or a right
 * count not known yet (a number not revealed). */
static void figure(char *buf, int cap, const PlClassTally *t, int r, int right) {
    buf[0] = 0;
    if (r >= t->rounds) return;
    if (!right) snprintf(buf, cap, "%d", t->answered[r]);
    else if (t->kind == PL_CLASS_CHOICE || t->revealed) snprintf(buf, cap, "%d", t->right[r]);
}

typedef struct {
    const ClassQuestion *q;
    PlClassTally t;
    char a1[16], r1[16], a2[16], r2[16];
} Row;

static void row_of(PlClass *c, int i, Row *w) {
    w->q = &c->qs[i];
    class_tally_locked(c, i, &w->t);
    figure(w->a1, sizeof w->a1, &w->t, 0, 0), figure(w->r1, sizeof w->r1, &w->t, 0, 1);
    figure(w->a2, sizeof w->a2, &w->t, 1, 0), figure(w->r2, sizeof w->r2, &w->t, 1, 1);
}

static const char *kind_name(PlClassKind k) { return k == PL_CLASS_CHOICE ? "choose" : "ask"; }

static void print_md(PlClass *c, FILE *f, const char *title) {
    fprintf(f,
            "# Class report: %s\n\n%d students joined. Right answers of a number count once the lab's value "
            "was revealed.\n\n",
            title, c->nstudents);
    fputs("| # | step | question | answered (1) | right (1) | answered (2) | right (2) | lab | most common wrong "
          "answer (1) |\n|---|---|---|---|---|---|---|---|---|\n",
          f);
    for (int i = 0; i < c->nq; i++) {
        Row w;
        row_of(c, i, &w);
        char lab[64], wrong[440];
        snprintf(lab, sizeof lab, "%s", w.t.kind == PL_CLASS_CHOICE ? kind_name(w.t.kind) : w.t.value_text);
        snprintf(wrong, sizeof wrong, w.t.wrong_count ? "%s (%d)" : "%s", w.t.wrong, w.t.wrong_count);
        fprintf(f, "| %d | %d ", i + 1, w.q->step + 1);
        md_cell(f, w.q->prompt);
        md_cell(f, w.a1), md_cell(f, w.r1), md_cell(f, w.a2), md_cell(f, w.r2), md_cell(f, lab), md_cell(f, wrong);
        fputs("|\n", f);
    }
}

static void print_csv(PlClass *c, FILE *f) {
    fputs("question,step,kind,prompt,answered_1,right_1,answered_2,right_2,lab_value,wrong,wrong_count\n", f);
    for (int i = 0; i < c->nq; i++) {
        Row w;
        row_of(c, i, &w);
        fprintf(f, "%d,%d,%s,", i + 1, w.q->step + 1, kind_name(w.t.kind));
        out_csv_cell(f, w.q->prompt);
        fprintf(f, ",%s,%s,%s,%s,", w.a1, w.r1, w.a2, w.r2);
        out_csv_cell(f, w.t.value_text);
        fputc(',', f);
        out_csv_cell(f, w.t.wrong);
        fprintf(f, ",%d\n", w.t.wrong_count);
    }
}

static void json_round(JsonW *j, const PlClassTally *t, int r) {
    if (r >= t->rounds) return;
    json_obj(j, NULL);
    json_int(j, "round", r + 1);
    json_int(j, "answered", t->answered[r]);
    if (t->kind == PL_CLASS_CHOICE || t->revealed) json_int(j, "right", t->right[r]);
    json_close(j, '}');
}

static void print_json(PlClass *c, FILE *f, const char *title) {
    JsonW j;
    json_begin(&j, f);
    json_str(&j, "lesson", title);
    json_int(&j, "students", c->nstudents);
    json_arr(&j, "questions");
    for (int i = 0; i < c->nq; i++) {
        Row w;
        row_of(c, i, &w);
        json_obj(&j, NULL);
        json_int(&j, "question", i + 1), json_int(&j, "step", w.q->step + 1);
        json_str(&j, "kind", kind_name(w.t.kind)), json_str(&j, "prompt", w.q->prompt);
        if (w.t.kind == PL_CLASS_NUMBER && w.t.revealed) json_num(&j, "lab_value", w.t.value);
        json_arr(&j, "rounds");
        json_round(&j, &w.t, 0), json_round(&j, &w.t, 1);
        json_close(&j, ']');
        if (w.t.wrong_count) json_str(&j, "wrong", w.t.wrong), json_int(&j, "wrong_count", w.t.wrong_count);
        json_close(&j, '}');
    }
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
