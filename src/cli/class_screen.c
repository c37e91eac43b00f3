/* The projector's screen (class_screen.h). */
#include "class_screen.h"

#include <string.h>

#include "class_qr.h"
#include "core/text.h"

#define BAR 24

/* A bar of n out of most, BAR cells wide at most, then its count. */
static void bar(FILE *f, int n, int most) {
    int cells = most ? (n * BAR + most - 1) / most : 0;
    for (int i = 0; i < BAR; i++) fputs(i < cells ? "\u2588" : " ", f);
    fprintf(f, " %3d   ", n);
}

void cli_class_tally(FILE *f, const PlClassTally *t, const PlClassNow *n) {
    int most, rows = pl_class_tally_rows(t, &most);
    fprintf(f, "  %-26s", "");
    for (int r = 0; r < t->rounds; r++)
        fprintf(f, "round %d: %3d answered, %3d right   ", r + 1, t->answered[r], t->right[r]);
    fputs("\n", f);
    for (int i = 0; i < rows; i++) {
        char label[64];
        int right = pl_class_tally_label(t, i, label, sizeof label);
        fprintf(f, "  %s %-22s ", right ? "\u2713" : " ", label);
        for (int r = 0; r < t->rounds; r++) bar(f, pl_class_tally_count(t, r, i), most);
        if (t->kind == PL_CLASS_NUMBER && i == t->value_row) fprintf(f, "\u25c0 the lab: %s", t->value_text);
        fputs("\n", f);
    }
    if (t->kind == PL_CLASS_CHOICE)
        pl_text_printf_lines(f, "  the right answer: %c. %s\n", 'a' + t->right_choice, n->choices[t->right_choice]);
    else
        fprintf(f, "  \u2713 the band counted right: %.4g%s to %.4g%s\n", t->band_lo * t->unit, t->unit > 1 ? "%" : "",
                t->band_hi * t->unit, t->unit > 1 ? "%" : "");
}

static void question(FILE *f, PlClass *c, const ClassScreen *s) {
    PlClassNow n;
    pl_class_now(c, &n);
    if (n.q != s->qi || n.phase == PL_CLASS_WAIT) return;
    pl_text_printf_lines(f, "\nQuestion %d, round %d\n%s\n", n.q + 1, n.round, n.prompt);
    for (int i = 0; i < n.nchoices; i++) pl_text_printf_lines(f, "  %c. %s\n", 'a' + i, n.choices[i]);
    if (n.phase == PL_CLASS_OPEN) {
        fprintf(f, "\n  answered: %d of %d students", pl_class_count(c, n.q, n.round), pl_class_students(c));
        if (n.round == 2) fprintf(f, " (round 1: %d)", pl_class_count(c, n.q, 1));
        fputs(s->exam ? "\n\n  exam: nothing is revealed until the end   space next step   q end and reveal\n"
                      : "\n\n  r reveal   v discuss and vote again   space next step   q end\n",
              f);
        return;
    }
    PlClassTally t;
    if (pl_class_tally(c, n.q, &t)) return;
    fputs("\n", f);
    cli_class_tally(f, &t, &n);
    fputs(n.round == 1 ? "\n  v discuss and vote again   space next step   q end\n" : "\n  space next step   q end\n",
          f);
}

void cli_class_screen(FILE *f, PlClass *c, const ClassScreen *s) {
    pl_text_printf_lines(f, "padlab class: %s, step %d of %d\n", s->title, s->step + 1, s->nsteps);
    fprintf(f, "join at %s with the code %s   (%d students)\n", s->url, s->code, pl_class_students(c));
    if (s->qr) cli_class_qr(f, s->url, 2);
    if (s->narration) {
        pl_text_printf_lines(f, "\n%s\n", s->narration);
    }
    if (s->qi >= 0) question(f, c, s);
    else fputs("\n  space next step   b back   q end\n", f);
    if (s->note) fprintf(f, "\n  %s\n", s->note);
    fflush(f);
}

void cli_class_exam_end(FILE *f, PlClass *c, int qi) {
    PlClassNow n;
    PlClassTally t;
    pl_class_now(c, &n);
    if (n.q != qi || pl_class_tally(c, qi, &t)) return;
    pl_text_printf_lines(f, "\nQuestion %d\n%s\n", qi + 1, n.prompt);
    for (int i = 0; i < n.nchoices; i++) pl_text_printf_lines(f, "  %c. %s\n", 'a' + i, n.choices[i]);
    cli_class_tally(f, &t, &n);
}
