/* A revealed question's lines for a projector (board.h). */
#include "board.h"

#include <stdio.h>
#include <string.h>

#include "app/teach/page.h"

/* Columns of a UTF-8 text (one a character). */
static int columns(const char *s) {
    int n = 0;
    for (; *s; s++) n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* A bar of n out of most over cells cells, then its count, appended to out. */
static void bar(char *out, size_t cap, int n, int most, int cells) {
    int dark = most ? (n * cells + most - 1) / most : 0;
    size_t len = strlen(out);
    for (int i = 0; i < cells && len + 4 < cap; i++) {
        const char *c = i < dark ? "\u2588" : " ";
        memcpy(out + len, c, strlen(c) + 1);
        len += strlen(c);
    }
    snprintf(out + len, cap - len, " %3d   ", n);
}

/* How a tally is laid out in width columns: on a wide board a row is its
 * label, then a bar and a count per round, then the lab's marker; on a
 * narrow one the rounds' heads, a long label and the marker each take a
 * line of their own, so that no row is ever wider than the board. */
typedef struct {
    int label;  /* the label column, 0: each label on a line of its own */
    int marker; /* the marker's columns on its row, 0: on the next line */
    int cells;  /* each bar's cells */
    int head;   /* the rounds' heads on one line */
} Layout;

#define LABEL_COLUMNS 22
#define COUNT_COLUMNS 7 /* " %3d   " after each bar */
#define LEAST_BAR 4

static int bar_cells(int room, int rounds) {
    int cells = room / (rounds ? rounds : 1) - COUNT_COLUMNS;
    return cells > PL_BOARD_BAR ? PL_BOARD_BAR : cells;
}

static Layout layout(const PlClassTally *t, int width) {
    Layout l = {LABEL_COLUMNS, 0, 0, 0};
    int rows = pl_class_tally_rows(t, &(int){0}), rounds = t->rounds ? t->rounds : 1;
    for (int i = 0; i < rows; i++) {
        char label[200];
        pl_class_tally_label(t, i, label, sizeof label);
        if (columns(label) > l.label) l.label = columns(label);
    }
    if (4 + l.label + 1 + rounds * (LEAST_BAR + COUNT_COLUMNS) > width) l.label = 0;
    l.head = l.label && 2 + l.label + 4 + rounds * 35 - 3 <= width;
    int room = width - (l.label ? 4 + l.label + 1 : 4);
    int marker = t->kind == PL_CLASS_NUMBER && t->value_row >= 0 ? 12 + columns(t->value_text) : 0;
    if (marker && bar_cells(room - marker, rounds) >= LEAST_BAR) l.marker = marker, room -= marker;
    l.cells = bar_cells(room, rounds);
    if (l.cells < 1) l.cells = 1;
    return l;
}

static void heads(const PlClassTally *t, const Layout *l, PlBoardLine line, void *ctx) {
    char buf[1024];
    buf[0] = '\0';
    if (l->head) snprintf(buf, sizeof buf, "  %*s", l->label + 4, "");
    for (int r = 0; r < t->rounds; r++) {
        size_t len = strlen(buf);
        snprintf(buf + len, sizeof buf - len, "%sround %d: %3d answered, %3d right%s", l->head ? "" : "  ", r + 1,
                 t->answered[r], t->right[r], l->head && r + 1 < t->rounds ? "   " : "");
        if (!l->head) line(ctx, buf, PL_BOARD_TEXT), buf[0] = '\0';
    }
    if (l->head) line(ctx, buf, PL_BOARD_TEXT);
}

static void row(const PlClassTally *t, const Layout *l, int i, int most, PlBoardLine line, void *ctx) {
    char buf[1024], label[200];
    int right = pl_class_tally_label(t, i, label, sizeof label);
    PlBoardKind kind = right ? PL_BOARD_RIGHT : PL_BOARD_TEXT;
    const char *tick = right ? "\u2713" : " ";
    if (l->label) snprintf(buf, sizeof buf, "  %s %-*s ", tick, l->label, label);
    else snprintf(buf, sizeof buf, "  %s %s", tick, label), line(ctx, buf, kind), snprintf(buf, sizeof buf, "    ");
    for (int r = 0; r < t->rounds; r++) bar(buf, sizeof buf, pl_class_tally_count(t, r, i), most, l->cells);
    int marked = t->kind == PL_CLASS_NUMBER && i == t->value_row;
    if (marked && !l->marker) line(ctx, buf, kind), snprintf(buf, sizeof buf, "    ");
    if (marked) {
        size_t len = strlen(buf);
        snprintf(buf + len, sizeof buf - len, "\u25c0 the lab: %s", t->value_text);
    }
    line(ctx, buf, kind);
}

static void say(PlBoardLine line, void *ctx, PlBoardKind kind, int width, int indent, const char *text);

void pl_class_board_tally(const PlClassTally *t, const PlClassNow *n, int width, PlBoardLine line, void *ctx) {
    char buf[1024];
    int most, rows = pl_class_tally_rows(t, &most);
    Layout l = layout(t, width);
    heads(t, &l, line, ctx);
    for (int i = 0; i < rows; i++) row(t, &l, i, most, line, ctx);
    if (t->kind == PL_CLASS_CHOICE)
        snprintf(buf, sizeof buf, "  the right answer: %c. %s", 'a' + t->right_choice, n->choices[t->right_choice]);
    else
        snprintf(buf, sizeof buf, "  \u2713 the band counted right: %.4g%s to %.4g%s", t->band_lo * t->unit,
                 t->unit > 1 ? "%" : "", t->band_hi * t->unit, t->unit > 1 ? "%" : "");
    say(line, ctx, PL_BOARD_RIGHT, width, 4, buf);
    char sw[300];
    if (*pl_class_board_switches(t, sw, sizeof sw)) say(line, ctx, PL_BOARD_TEXT, width, 4, sw);
}

const char *pl_class_board_switches(const PlClassTally *t, char *out, int cap) {
    out[0] = '\0';
    if (t->rounds == 2 && (t->kind == PL_CLASS_CHOICE || t->revealed))
        snprintf(out, (size_t)cap,
                 "  between the rounds: %d wrong \u2192 right, %d right \u2192 wrong; %d stayed right, %d stayed wrong",
                 t->to_right, t->to_wrong, t->stayed_right, t->stayed_wrong);
    return out;
}

/* ---- the whole block ---- */

typedef struct {
    PlBoardLine line;
    void *ctx;
    PlBoardKind kind;
} Wrap;

static double measure(void *ctx, const char *s, size_t n) {
    (void)ctx;
    double w = 0;
    for (size_t i = 0; i < n; i++) w += ((unsigned char)s[i] & 0xC0) != 0x80;
    return w;
}

static void wrapped(void *ctx, const char *s, size_t n, int kind, double in) {
    const Wrap *w = ctx;
    char buf[1024];
    if (kind == 2) return w->line(w->ctx, "", PL_BOARD_GAP);
    snprintf(buf, sizeof buf, "%*s%.*s", kind ? (int)in : 0, "", (int)n, s);
    w->line(w->ctx, buf, w->kind);
}

/* text wrapped at width, its wrapped lines indent columns in */
static void say(PlBoardLine line, void *ctx, PlBoardKind kind, int width, int indent, const char *text) {
    Wrap w = {line, ctx, kind};
    pl_page_wrap(text, width, indent, measure, wrapped, &w);
}

static void clock_lines(PlClass *c, const PlClassNow *n, const PlBoard *b, int width, PlBoardLine line, void *ctx) {
    char buf[400];
    if (n->countdown > 0)
        snprintf(buf, sizeof buf, "  discuss: %d:%02d left", n->countdown / 60, n->countdown % 60),
            say(line, ctx, PL_BOARD_CLOCK, width, 4, buf);
    else if (n->countdown == 0) say(line, ctx, PL_BOARD_CLOCK, width, 4, "  discuss: the time is up");
    if (b->share < 0) return;
    char bar[3 * 20 + 1] = "";
    int cells = (int)(b->share * 20 + 0.5);
    for (int i = 0; i < 20; i++) strcat(bar, i < cells ? "\u2588" : "\u2591");
    if (b->eta >= 0)
        snprintf(buf, sizeof buf,
                 "  the lab is computing this step's numbers: %s %.0f%%, ready to reveal in about %.0f s", bar,
                 100 * b->share, b->eta < 1 ? 1 : b->eta);
    else
        snprintf(buf, sizeof buf,
                 "  the lab is computing this step's numbers: %s %.0f%%, ready to reveal once an epoch is timed", bar,
                 100 * b->share);
    say(line, ctx, PL_BOARD_CLOCK, width, 4, buf);
    (void)c;
}

static void open_lines(PlClass *c, const PlClassNow *n, const PlBoard *b, int width, PlBoardLine line, void *ctx) {
    char buf[200];
    int k = snprintf(buf, sizeof buf, "  answered: %d of %d students", pl_class_count(c, n->q, n->round),
                     pl_class_students(c));
    if (n->round == 2) snprintf(buf + k, sizeof buf - (size_t)k, " (round 1: %d)", pl_class_count(c, n->q, 1));
    line(ctx, "", PL_BOARD_GAP);
    say(line, ctx, PL_BOARD_TEXT, width, 4, buf);
    clock_lines(c, n, b, width, line, ctx);
    line(ctx, "", PL_BOARD_GAP);
    say(line, ctx, PL_BOARD_KEYS, width, 2,
        b->exam ? "  exam: nothing is revealed until the end   t countdown   space next step   q end and reveal"
                : "  r reveal   v discuss and vote again   t countdown   space next step   q end");
}

static void shown_lines(PlClass *c, const PlClassNow *n, const PlBoard *b, int width, PlBoardLine line, void *ctx) {
    PlClassTally t;
    if (pl_class_tally(c, n->q, &t)) return;
    line(ctx, "", PL_BOARD_GAP);
    pl_class_board_tally(&t, n, width, line, ctx);
    if (b->after && *b->after) line(ctx, "", PL_BOARD_GAP), say(line, ctx, PL_BOARD_AFTER, width, 0, b->after);
    line(ctx, "", PL_BOARD_GAP);
    say(line, ctx, PL_BOARD_KEYS, width, 2,
        n->round == 1 ? "  v discuss and vote again   space next step   q end" : "  space next step   q end");
}

void pl_class_board(PlClass *c, const PlBoard *b, int width, PlBoardLine line, void *ctx) {
    PlClassNow n;
    pl_class_now(c, &n);
    if (b->qi < 0) say(line, ctx, PL_BOARD_KEYS, width, 2, "  space next step   b back   q end");
    else if (n.q == b->qi && n.phase != PL_CLASS_WAIT) {
        char head[64];
        snprintf(head, sizeof head, "Question %d, round %d", n.q + 1, n.round);
        say(line, ctx, PL_BOARD_QUESTION, width, 0, head);
        say(line, ctx, PL_BOARD_QUESTION, width, 0, n.prompt);
        for (int i = 0; i < n.nchoices; i++) {
            char choice[500];
            snprintf(choice, sizeof choice, "  %c. %s", 'a' + i, n.choices[i]);
            say(line, ctx, PL_BOARD_QUESTION, width, 5, choice);
        }
        if (n.phase == PL_CLASS_OPEN) open_lines(c, &n, b, width, line, ctx);
        else shown_lines(c, &n, b, width, line, ctx);
    }
    if (b->note && *b->note) line(ctx, "", PL_BOARD_GAP), say(line, ctx, PL_BOARD_NOTE, width, 4, b->note);
}
