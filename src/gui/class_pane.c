/* The class's box in the window (class_pane.h).
 *
 * Layout, top to bottom:
 *   a rule, "join at", the URL
 *   the QR code of URL | beside it: the code, how many joined, the question's state
 *                        (open: how many answered; revealed: how many were right)
 *   the tally, after the reveal (a row of bars a choice, as wide as the box;
 *     where the pane has no room for them, round 1's most given wrong answer)
 *   why the last key did nothing
 * The code's side is (n + 2 QUIET) modules of `module` whole pixels, from a
 * whole pixel: n x n modules (app/class/qr.h) inside a light quiet zone. */
#include "class_pane.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app/class/board.h"
#include "app/class/qr.h"

#define QUIET 4      /* the quiet zone round the code, in modules: the standard's */
#define MODULE_MIN 3 /* pixels a module at the least: fewer, and a phone across the room reads nothing */
#define SIDE_MIN 0.2 /* of the window's height: the code's side a roomy box keeps (in whole modules) */

typedef struct {
    unsigned char dark[PL_QR_MAX * PL_QR_MAX];
    int n; /* modules a side; 0: no code (padlab built without libqrencode) */
} Code;

typedef struct {
    GuiList *dl;
    GuiRect r;
    int size, draw;
    double y; /* where the next line goes */
} Box;

/* A wrapped paragraph: its height counted, drawn when the box draws. */
static void para(Box *b, GuiColor c, const char *text) {
    double h = gui_wrap_lines(b->dl, b->size, 0, text, b->r.w) * gui_text_h(b->dl, b->size);
    if (b->draw) gui_text_wrap(b->dl, b->r.x, b->y, b->r.w, b->size, c, GUI_LEFT, "%s", text);
    b->y += h;
}

/* One row of the tally at (x, y), w wide: its label wrapped in label_w, a
 * bar per round, each bar's count; returns its height. */
static double tally_row(Box *b, const PlClassTally *t, int i, int most, double x, double w, double label_w, double y) {
    char label[220], mark[200], count[16];
    double u = b->dl->st->unit, th = gui_text_h(b->dl, b->size), gap = 6 * u;
    int right = pl_class_tally_label(t, i, mark, sizeof mark);
    snprintf(label, sizeof label, "%s %s", right ? "\u2713" : " ", mark);
    double count_w = gui_text_w(b->dl, b->size, 0, "000") + gap;
    double bar_w = (w - label_w - gap - t->rounds * (count_w + gap)) / t->rounds;
    if (b->draw) {
        gui_text_wrap(b->dl, x, y, label_w, b->size, right ? GUI_C_GOOD : GUI_C_FG, GUI_LEFT, "%s", label);
        for (int r = 0; r < t->rounds; r++) {
            int n = pl_class_tally_count(t, r, i);
            double bx = x + label_w + gap + r * (bar_w + count_w + gap);
            if (n && bar_w > 0) gui_rect(b->dl, (GuiRect){bx, y + th * 0.15, bar_w * n / most, th * 0.7}, GUI_C_S1 + r);
            snprintf(count, sizeof count, "%d", n);
            gui_text(b->dl, bx + fmax(bar_w, 0) + gap, y, b->size, GUI_C_FG, GUI_LEFT, "%s", count);
        }
    }
    return gui_wrap_lines(b->dl, b->size, 0, label, label_w) * th;
}

/* The tally, after the reveal: a row a choice or answer (labels at most
 * half the width, wrapped), then the right answer. Where they find no room
 * (rows_too 0) round 1's most given wrong answer stands for the rows, and
 * at the last (-1) the right answer alone: beside the code, each round's
 * count right says the rest. */
static void tally(Box *b, const PlClassTally *t, const PlClassNow *n, int rows_too) {
    char line[600], label[200];
    int most, rows = pl_class_tally_rows(t, &most);
    double label_w = 0;
    for (int i = 0; i < rows; i++) {
        pl_class_tally_label(t, i, label, sizeof label);
        snprintf(line, sizeof line, "\u2713 %s", label);
        label_w = fmax(label_w, gui_text_w(b->dl, b->size, 0, line));
    }
    label_w = fmin(label_w, b->r.w * 0.5);
    for (int i = 0; rows_too > 0 && i < rows; i++) b->y += tally_row(b, t, i, most, b->r.x, b->r.w, label_w, b->y);
    if (rows_too == 0 && t->wrong[0]) {
        snprintf(line, sizeof line, "most given wrong: %s (%d)", t->wrong, t->wrong_count);
        para(b, GUI_C_WARN, line);
    }
    if (t->kind == PL_CLASS_NUMBER) snprintf(line, sizeof line, "the lab: %s", t->value_text);
    else snprintf(line, sizeof line, "the right answer: %c. %s", 'a' + t->right_choice, n->choices[t->right_choice]);
    para(b, GUI_C_GOOD, line);
    if (*pl_class_board_switches(t, line, sizeof line)) para(b, GUI_C_FG, line + 2); /* peer instruction's measure */
}

/* The question open on the step followed, or -1 (none, or not yet open). */
static int open_question(PlClassFollow *f, PlClassNow *n) {
    pl_class_now(f->c, n);
    int qi = pl_class_follow_question(f, f->step);
    return qi < 0 || n->q != qi || n->phase == PL_CLASS_WAIT ? -1 : qi;
}

/* Beside the code: the code typed by hand, how many joined, and how many
 * answered (never what) while the question is open; once it is revealed,
 * how many answered and were right, round by round. */
static void status(Box *b, const GuiClassBox *k) {
    char line[300];
    PlClassFollow *f = k->f;
    PlClassNow n;
    PlClassTally t;
    int qi = open_question(f, &n), students = pl_class_students(f->c);
    snprintf(line, sizeof line, "code %s", pl_class_code(f->c));
    para(b, GUI_C_SEL, line);
    snprintf(line, sizeof line, "%d student%s", students, students == 1 ? "" : "s");
    para(b, GUI_C_FG, line);
    if (qi < 0) return para(b, GUI_C_DIM, "no question on this step");
    if (n.phase != PL_CLASS_OPEN) {
        for (int r = 0, none = pl_class_tally(f->c, qi, &t); !none && r < t.rounds; r++) {
            snprintf(line, sizeof line, "round %d: %d of %d right", r + 1, t.right[r], t.answered[r]);
            para(b, GUI_C_S1 + r, line);
        }
        return;
    }
    snprintf(line, sizeof line, "question %d, round %d", qi + 1, n.round);
    para(b, GUI_C_FG, line);
    snprintf(line, sizeof line, "%d of %d answered", pl_class_count(f->c, qi, n.round), students);
    para(b, GUI_C_FG, line);
    if (n.countdown > 0) snprintf(line, sizeof line, "discuss: %d:%02d left", n.countdown / 60, n.countdown % 60);
    if (n.countdown >= 0) para(b, GUI_C_WARN, n.countdown > 0 ? line : "discuss: the time is up");
    if (k->share >= 0 && k->eta >= 0)
        snprintf(line, sizeof line, "computing %.0f%%: ready to reveal in about %.0f s", 100 * k->share,
                 k->eta < 1 ? 1 : k->eta);
    else if (k->share >= 0)
        snprintf(line, sizeof line, "computing %.0f%%: ready to reveal once an epoch is timed", 100 * k->share);
    if (k->share >= 0) para(b, GUI_C_WARN, line);
    para(b, GUI_C_DIM, f->exam ? "an exam: revealed at the end" : "r reveal   v vote again   t countdown");
}

/* The code at (x, y), whole pixels: the light square of code and quiet zone
 * (tagged "class-qr"), then each row's runs of dark modules as one
 * rectangle each. Dark on light whatever the theme: a phone reads no other. */
static void qr(GuiList *dl, const Code *c, double x, double y, int module) {
    int side = (c->n + 2 * QUIET) * module;
    GuiColor light = dl->st->dark ? GUI_C_FG : GUI_C_BG, ink = dl->st->dark ? GUI_C_BG : GUI_C_FG;
    gui_rect(dl, (GuiRect){x, y, side, side}, light);
    gui_tag(dl, "class-qr");
    for (int row = 0; row < c->n; row++)
        for (int col = 0, end; col < c->n; col = end) {
            for (end = col + 1; end < c->n && c->dark[row * c->n + end] == c->dark[row * c->n + col];) end++;
            if (c->dark[row * c->n + col])
                gui_rect(
                    dl, (GuiRect){x + (QUIET + col) * module, y + (QUIET + row) * module, (end - col) * module, module},
                    ink);
        }
}

/* The box in text size `size` with a code of `module` pixels a module, the
 * tally as `rows` says (see tally): its height, drawn when draw is set. */
static double lay_out(GuiList *dl, const GuiClassBox *k, const Code *c, GuiRect r, int size, int module, int rows,
                      int draw) {
    char line[300];
    double u = dl->st->unit;
    Box b = {dl, r, size, draw, r.y};
    if (draw) gui_line(dl, r.x, r.y, r.x + r.w, r.y, GUI_C_GRID, u, 0);
    b.y += 6 * u;
    snprintf(line, sizeof line, "join at %s", k->url); /* the address whole on a line, under "join at" if need be */
    if (gui_text_w(dl, size, 0, line) > r.w) para(&b, GUI_C_SEL, "join at"), para(&b, GUI_C_SEL, k->url);
    else para(&b, GUI_C_SEL, line);
    if (c->n) { /* the code, its status beside it when there is the room, else under it */
        int side = (c->n + 2 * QUIET) * module;
        double x = round(r.x), y = round(b.y + 4 * u), gap = 10 * u, beside = r.x + r.w - (x + side + gap);
        if (draw) qr(dl, c, x, y, module);
        Box s = b;
        if (beside >= gui_text_w(dl, size, 0, "question 00, round 0")) {
            s.r = (GuiRect){x + side + gap, y, beside, 0}, s.y = y;
            status(&s, k);
            b.y = fmax(y + side, s.y) + 6 * u;
        } else {
            b.y = y + side + 6 * u;
            status(&b, k);
        }
    } else status(&b, k);
    PlClassNow n;
    PlClassTally t;
    int qi = open_question(k->f, &n);
    if (qi >= 0 && n.phase != PL_CLASS_OPEN && !pl_class_tally(k->f->c, qi, &t)) tally(&b, &t, &n, rows);
    if (k->f->note[0]) para(&b, GUI_C_WARN, k->f->note);
    return b.y - r.y;
}

/* The code of the join address, once a frame (one box is laid out at a
 * time; too big for the stack). */
static const Code *code(const GuiClassBox *k) {
    static Code c;
    if (pl_class_qr(k->url, c.dark, (int)sizeof c.dark, &c.n)) c.n = 0;
    return &c;
}

/* The least module the window's height asks for (MODULE_MIN at the least). */
static int least_module(const GuiList *dl, const Code *c) {
    return (int)fmax(MODULE_MIN, floor(SIDE_MIN * dl->H / (c->n + 2 * QUIET)));
}

double gui_class_box(GuiList *dl, const GuiClassBox *k, GuiRect r, int size, double max_h, int draw) {
    const Code *c = code(k);
    r.x = floor(r.x), r.y = floor(r.y); /* the code on whole pixels, and the box as high wherever it stands */
    /* a type that keeps the address on one line (it is read off the screen and typed), a module that leaves
       half the box's width beside the code; then a smaller type, then a smaller module; then the same with less
       of the tally: the code is never left out */
    int top = size, first = (int)fmax(least_module(dl, c), floor(r.w * 0.5 / (c->n + 2 * QUIET)));
    while (top > GUI_SMALL && gui_text_w(dl, top, 0, k->url) > r.w) top--;
    int s = top, m = first, rows = 1;
    while (lay_out(dl, k, c, r, s, m, rows, 0) > max_h && (s > GUI_SMALL || m > MODULE_MIN || rows > -1)) {
        if (s > GUI_SMALL) s--;
        else if (m > MODULE_MIN) s = top, m--;
        else s = top, m = first, rows--;
    }
    return lay_out(dl, k, c, r, s, m, rows, draw);
}

double gui_class_box_least(GuiList *dl, const GuiClassBox *k, GuiRect r) {
    const Code *c = code(k);
    r.x = floor(r.x), r.y = floor(r.y);
    return lay_out(dl, k, c, r, GUI_SMALL, least_module(dl, c), 1, 0);
}
