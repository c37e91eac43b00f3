/* A class session's questions from a lesson (lesson.h). */
#include "lesson.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void pl_class_lesson_order(const PlLesson *l, int step, uint64_t salt, int *order) {
    const PlQuestion *q = &l->steps[step].q;
    int pinned[PL_CHOICES_MAX];
    char which[16];
    for (int i = 0; i < q->nchoices; i++) pinned[i] = q->choices[i].pinned;
    snprintf(which, sizeof which, "%d", step);
    pl_choices_order(pl_choices_seed(salt, l->name, which, 0), pinned, q->nchoices, order);
}

/* A question's words before its step fills them from the lab: each
 * {placeholder} as "..." (UTF-8 ellipsis), so that the report of a question
 * never reached says no raw placeholder. */
static const char *unfilled(const char *text, char *out, size_t cap) {
    return pl_lesson_unfilled(text, "\xe2\x80\xa6", out, cap);
}

static int add_choose(PlClass *c, const PlLesson *l, int step, uint64_t salt) {
    const PlQuestion *q = &l->steps[step].q;
    int order[PL_CHOICES_MAX], right = 0;
    const char *texts[PL_CHOICES_MAX];
    static char bufs[PL_CHOICES_MAX][1024], prompt[4096];
    pl_class_lesson_order(l, step, salt, order);
    for (int k = 0; k < q->nchoices; k++) {
        texts[k] = unfilled(q->choices[order[k]].text, bufs[k], sizeof bufs[k]);
        if (q->choices[order[k]].right) right = k;
    }
    return pl_class_add_choice(c, unfilled(q->prompt, prompt, sizeof prompt), texts, q->nchoices, right, step);
}

int pl_class_add_lesson(PlClass *c, const PlLesson *l, uint64_t salt, int *step_q) {
    int n = 0;
    for (int s = 0; s < l->nsteps; s++) {
        const PlQuestion *q = &l->steps[s].q;
        step_q[s] = -1;
        char prompt[4096];
        if (q->kind == PL_Q_ASK && q->has_answer && pl_quantity_kind_of_format(&q->answer) != PL_QF_SETTING) {
            step_q[s] =
                pl_class_add_number(c, unfilled(q->prompt, prompt, sizeof prompt), &q->answer, &q->tolerance, s);
            for (int m = 0; step_q[s] >= 0 && m < q->nmiscon; m++) /* the wrong answers the lesson expects: rows of their own */
                if (pl_class_add_misconception(c, step_q[s], q->miscon[m].measured ? (double)NAN : q->miscon[m].number,
                                               q->miscon[m].text))
                    return -1;
        }
        else if (q->kind == PL_Q_CHOOSE) step_q[s] = add_choose(c, l, s, salt);
        else continue;
        if (step_q[s] < 0) return -1;
        n++;
    }
    return n;
}
