/* A class session following a lesson (follow.h). */
#include "follow.h"

#include <math.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "app/lab/quantity.h"
#include "app/teach/diagnose.h"
#include "lesson.h"

int pl_class_follow_init(PlClassFollow *f, const PlLesson *l, const char *code, uint64_t salt, int exam, PlErr *err) {
    memset(f, 0, sizeof *f);
    f->l = l, f->salt = salt, f->exam = exam, f->step = -1;
    f->c = pl_class_new(code);
    f->step_q = calloc((size_t)l->nsteps + 1, sizeof *f->step_q);
    if (!f->c || !f->step_q) return pl_class_follow_done(f), pl_err_set(err, PL_ENOMEM, "out of memory"), -1;
    if (pl_class_add_lesson(f->c, l, salt, f->step_q) < 0) {
        /* It fails for a full class or for memory (the lesson's own limits match the class's). */
        int full = pl_class_questions(f->c) >= PL_CLASS_MAX_QUESTIONS;
        pl_class_follow_done(f);
        if (!full) return pl_err_set(err, PL_ENOMEM, "%s: out of memory for the class's questions", l->name), -1;
        return pl_err_set(err, PL_ERANGE, "%s: too many questions for a class", l->name), -1;
    }
    return 0;
}

void pl_class_follow_done(PlClassFollow *f) {
    pl_class_free(f->c);
    free(f->step_q);
    memset(f, 0, sizeof *f);
}

int pl_class_follow_question(const PlClassFollow *f, int k) {
    return f->c && k >= 0 && k < f->l->nsteps ? f->step_q[k] : -1;
}

/* An exam keeps the number the lab computes as the question opens. */
static void keep_value(PlClassFollow *f, PlLab *lab, int qi, const PlQuestion *q) {
    char why[256];
    if (qi >= PL_CLASS_MAX_QUESTIONS) return;
    if (q->kind == PL_Q_ASK && pl_quantity_value(lab, &q->answer, &f->value[qi], why, sizeof why))
        snprintf(f->note, sizeof f->note, "question %d: the lab has no value to reveal: %.120s", qi + 1, why);
    else f->reached[qi] = 1;
}

/* Fills question qi's prompt and choices from the lab, for step k. */
static void fill_texts(PlClassFollow *f, PlLab *lab, int k, int qi) {
    const PlStep *s = &f->l->steps[k];
    static char prompt[8192], texts[PL_CHOICES_MAX][1024];
    const char *choices[PL_CHOICES_MAX];
    int order[PL_CHOICES_MAX];
    const PlLedger *l = f->ask_ledger ? f->ask_ledger : pl_lab_ledger(lab);
    pl_lesson_fill(lab, l, s->q.prompt, prompt, sizeof prompt);
    if (s->q.kind == PL_Q_CHOOSE) pl_class_lesson_order(f->l, k, f->salt, order);
    for (int i = 0; s->q.kind == PL_Q_CHOOSE && i < s->q.nchoices; i++)
        choices[i] = pl_lesson_fill(lab, l, s->q.choices[order[i]].text, texts[i], sizeof texts[i]);
    pl_class_set_text(f->c, qi, prompt, s->q.kind == PL_Q_CHOOSE ? choices : NULL);
    char name[96];
    for (int m = 0; m < s->q.nmiscon; m++) {         /* a wrong answer named by a figure of the lab: its value here */
        const PlMisconception *mc = &s->q.miscon[m]; /* unless the class may not see that figure yet */
        int hidden = mc->measured && pl_ledger_hides_name(l, pl_quantity_name(&mc->quantity, name, sizeof name));
        if (mc->measured)
            pl_class_set_misconception(f->c, qi, m, hidden ? (double)NAN : pl_misconception_value(lab, mc));
    }
}

int pl_class_follow_step(PlClassFollow *f, PlLab *lab, int k) {
    if (k < 0 || k >= f->l->nsteps) return -1;
    f->step = k;
    int qi = f->step_q[k];
    if (qi < 0) return pl_class_close(f->c);
    fill_texts(f, lab, k, qi);
    if (f->exam) keep_value(f, lab, qi, &f->l->steps[k].q);
    return pl_class_open(f->c, qi);
}

void pl_class_follow_refresh(PlClassFollow *f, PlLab *lab) {
    int qi = pl_class_follow_question(f, f->step);
    if (qi < 0) return;
    fill_texts(f, lab, f->step, qi);
    if (f->exam && qi < PL_CLASS_MAX_QUESTIONS && !f->reached[qi]) {
        f->note[0] = '\0';
        keep_value(f, lab, qi, &f->l->steps[f->step].q);
    }
}

static int refused(PlClassFollow *f) {
    snprintf(f->note, sizeof f->note, "an exam reveals nothing until the end: q ends it and reveals every question");
    return -1;
}

int pl_class_follow_reveal(PlClassFollow *f, PlLab *lab) {
    if (f->exam) return refused(f);
    int qi = pl_class_follow_question(f, f->step);
    if (qi < 0) return snprintf(f->note, sizeof f->note, "this step asks the class nothing"), -1;
    const PlQuestion *q = &f->l->steps[f->step].q;
    double v = 0;
    char why[256];
    if (q->kind == PL_Q_ASK && pl_quantity_value(lab, &q->answer, &v, why, sizeof why))
        return snprintf(f->note, sizeof f->note, "the lab has no value to reveal: %.150s", why), -1;
    f->note[0] = '\0';
    return pl_class_reveal(f->c, v);
}

int pl_class_follow_again(PlClassFollow *f) {
    if (f->exam) return refused(f);
    if (pl_class_again(f->c)) return snprintf(f->note, sizeof f->note, "a second round comes after the first"), -1;
    f->note[0] = '\0';
    return 0;
}

int pl_class_follow_end(PlClassFollow *f, void (*each)(int qi, void *ctx), void *ctx) {
    int n = 0;
    for (int qi = 0; f->exam && qi < pl_class_questions(f->c) && qi < PL_CLASS_MAX_QUESTIONS; qi++)
        if (f->reached[qi] && !pl_class_reveal_at(f->c, qi, f->value[qi])) {
            n++;
            if (each) each(qi, ctx);
        }
    return n;
}

void pl_class_new_code(char *code) {
    static const char alphabet[] = "ACDEFGHJKLMNPQRTUVWXY34679";
    unsigned char rnd[PL_CLASS_CODE_LEN];
    if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd) memset(rnd, 7, sizeof rnd);
    for (int i = 0; i < PL_CLASS_CODE_LEN; i++) code[i] = alphabet[rnd[i] % (sizeof alphabet - 1)];
    code[PL_CLASS_CODE_LEN] = 0;
}
