/* The class's box in the window (class_pane.h). */
#include "class_pane.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app/class/qr.h"

typedef struct {
    GuiList *dl;
    GuiRect r;
    int size, draw;
    double qr; /* the QR code's side against its largest; 0: none */
    double y;  /* where the next line goes */
} Box;

/* A wrapped paragraph: its height counted, drawn when the box draws. */
static void para(Box *b, GuiColor c, const char *text) {
    double h = gui_wrap_lines(b->dl, b->size, 0, text, b->r.w) * gui_text_h(b->dl, b->size);
    if (b->draw) gui_text_wrap(b->dl, b->r.x, b->y, b->r.w, b->size, c, GUI_LEFT, "%s", text);
    b->y += h;
}

/* One row of the tally: its label, a bar per round, each bar's count. */
static void tally_row(Box *b, const PlClassTally *t, int i, int most, double label_w) {
    char label[64], count[16];
    double u = b->dl->st->unit, th = gui_text_h(b->dl, b->size), gap = 6 * u;
    int right = pl_class_tally_label(t, i, label, sizeof label);
    double count_w = gui_text_w(b->dl, b->size, 0, "000") + gap;
    double bar_w = (b->r.w - label_w - gap - t->rounds * (count_w + gap)) / t->rounds;
    if (b->draw) {
        gui_text(b->dl, b->r.x, b->y, b->size, right ? GUI_C_GOOD : GUI_C_FG, GUI_LEFT, "%s %s", right ? "\u2713" : " ",
                 label);
        for (int r = 0; r < t->rounds; r++) {
            int n = pl_class_tally_count(t, r, i);
            double x = b->r.x + label_w + gap + r * (bar_w + count_w + gap);
            if (n && bar_w > 0)
                gui_rect(b->dl, (GuiRect){x, b->y + th * 0.15, bar_w * n / most, th * 0.7}, GUI_C_S1 + r);
            snprintf(count, sizeof count, "%d", n);
            gui_text(b->dl, x + fmax(bar_w, 0) + gap, b->y, b->size, GUI_C_FG, GUI_LEFT, "%s", count);
        }
    }
    b->y += th;
}

/* The tally, after the reveal. */
static void tally(Box *b, const PlClassTally *t, const PlClassNow *n) {
    char line[600];
    int most, rows = pl_class_tally_rows(t, &most);
    double label_w = 0;
    for (int i = 0; i < rows; i++) {
        char label[64];
        pl_class_tally_label(t, i, label, sizeof label);
        snprintf(line, sizeof line, "\u2713 %s", label);
        label_w = fmax(label_w, gui_text_w(b->dl, b->size, 0, line));
    }
    for (int r = 0; r < t->rounds; r++) {
        snprintf(line, sizeof line, "round %d: %d answered, %d right", r + 1, t->answered[r], t->right[r]);
        para(b, GUI_C_S1 + r, line);
    }
    for (int i = 0; i < rows; i++) tally_row(b, t, i, most, label_w);
    if (t->kind == PL_CLASS_NUMBER) snprintf(line, sizeof line, "the lab: %s", t->value_text);
    else snprintf(line, sizeof line, "the right answer: %c. %s", 'a' + t->right_choice, n->choices[t->right_choice]);
    para(b, GUI_C_GOOD, line);
}

static void question(Box *b, PlClassFollow *f) {
    char line[300];
    PlClassNow n;
    pl_class_now(f->c, &n);
    int qi = pl_class_follow_question(f, f->step);
    if (qi < 0 || n.q != qi || n.phase == PL_CLASS_WAIT)
        return para(b, GUI_C_DIM, "no question for the class on this step");
    if (n.phase == PL_CLASS_OPEN) {
        snprintf(line, sizeof line, "question %d, round %d: %d of %d answered", qi + 1, n.round,
                 pl_class_count(f->c, qi, n.round), pl_class_students(f->c));
        para(b, GUI_C_FG, line);
        return para(b, GUI_C_DIM, f->exam ? "an exam: revealed at the end" : "r reveal   v discuss and vote again");
    }
    PlClassTally t;
    if (!pl_class_tally(f->c, qi, &t)) tally(b, &t, &n);
}

/* The join address as a QR code, dark modules on light whatever the theme
 * (a phone reads no other), with its quiet zone. */
static void qr(Box *b, const char *url) {
    static unsigned char m[PL_QR_MAX * PL_QR_MAX];
    int n;
    if (b->qr <= 0 || pl_class_qr(url, m, (int)sizeof m, &n)) return;
    double u = b->dl->st->unit, side = b->qr * fmin(b->r.w * 0.5, 90 * u * (b->size + 1)), cell = side / (n + 4);
    GuiColor light = b->dl->st->dark ? GUI_C_FG : GUI_C_BG, ink = b->dl->st->dark ? GUI_C_BG : GUI_C_FG;
    if (b->draw) {
        gui_rect(b->dl, (GuiRect){b->r.x, b->y + 4 * u, side, side}, light);
        gui_tag(b->dl, "class-qr");
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++)
                if (m[y * n + x])
                    gui_rect(b->dl, (GuiRect){b->r.x + (x + 2) * cell, b->y + 4 * u + (y + 2) * cell, cell, cell}, ink);
    }
    b->y += side + 8 * u;
}

static double lay_out(GuiList *dl, const GuiClassBox *k, GuiRect r, int size, double qr_scale, int draw) {
    char line[300];
    Box b = {dl, r, size, draw, qr_scale, r.y};
    if (draw) gui_line(dl, r.x, r.y, r.x + r.w, r.y, GUI_C_GRID, dl->st->unit, 0);
    b.y += 6 * dl->st->unit;
    snprintf(line, sizeof line, "join at %s with the code %s (%d students)", k->url, pl_class_code(k->f->c),
             pl_class_students(k->f->c));
    para(&b, GUI_C_SEL, line);
    qr(&b, k->url);
    question(&b, k->f);
    if (k->f->note[0]) para(&b, GUI_C_WARN, k->f->note);
    return b.y - r.y;
}

double gui_class_box(GuiList *dl, const GuiClassBox *k, GuiRect r, int size, double max_h, int draw) {
    static const double qr[] = {1.0, 0.6, 0.0}; /* a smaller code, then none, before a smaller type */
    int s = size, q = 0;
    for (; lay_out(dl, k, r, s, qr[q], 0) > max_h; q++) { /* never a cut: smaller, then the smallest */
        if (q == 2 && s == GUI_SMALL) break;
        if (q == 2) q = -1, s--;
    }
    double h = lay_out(dl, k, r, s, qr[q], 0);
    if (draw) lay_out(dl, k, r, s, qr[q], 1);
    return h;
}
