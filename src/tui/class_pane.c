/* A class's projector in the terminal (class_pane.h). */
#include "class_pane.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/class/qr.h"
#include "lines.h"
#include "loop.h"
#include "screen.h"
#include "views.h"

#define WIDE 120   /* from here the narration and the view stand side by side */
#define QUIET 4    /* light modules around a QR code: what a reader needs to find it */
#define MIN_VIEW 6 /* rows a view needs to say anything; fewer, and it is left out */

static TuiLines narration_lines, board_lines; /* too big for the stack; one projector */

/* ---- lines ---- */

static TuiColor color_of(PlBoardKind k) {
    static const TuiColor colors[] = {
        [PL_BOARD_TEXT] = TUI_NORMAL, [PL_BOARD_QUESTION] = TUI_REAL, [PL_BOARD_RIGHT] = TUI_GOOD,
        [PL_BOARD_AFTER] = TUI_GOOD,  [PL_BOARD_CLOCK] = TUI_WARN,    [PL_BOARD_KEYS] = TUI_DIM,
        [PL_BOARD_NOTE] = TUI_WARN,   [PL_BOARD_GAP] = TUI_NORMAL,
    };
    return colors[k];
}

static void board_line(void *ctx, const char *text, PlBoardKind kind) {
    TuiLines *L = ctx;
    if (kind == PL_BOARD_GAP) tui_lines_blank(L);
    else tui_lines_add(L, color_of(kind), "%s", text);
}

/* Lines scroll.. of L in box b; when they do not all fit, the last row says
 * so (a row of its own: the mark never covers a line). */
static void draw_lines(const TuiLines *L, TuiBox b, int *scroll) {
    if (b.h <= 0) return;
    int more_below, room = b.h;
    if (*scroll > L->n - room) *scroll = L->n - room > 0 ? L->n - room : 0;
    more_below = L->n - *scroll > room;
    if (more_below) room--;
    for (int i = 0; i < room && *scroll + i < L->n; i++) {
        tui_color(L->color[*scroll + i]);
        tui_put(b.y + i, b.x, b.w, "%s", L->text[*scroll + i]);
        tui_color_off(L->color[*scroll + i]);
    }
    if (more_below || *scroll > 0) {
        tui_color(TUI_KEY);
        tui_put(b.y + b.h - 1, b.x + b.w - 26 > b.x ? b.x + b.w - 26 : b.x, 26, " %s ",
                more_below ? "(more: down arrow)" : "(more above: up arrow)");
        tui_color_off(TUI_KEY);
    }
}

/* ---- the QR code ---- */

static unsigned char modules[PL_QR_MAX * PL_QR_MAX];

/* The code's side with its quiet zone, in modules, or 0 without one. */
static int qr_side(const char *url, int *n) {
    return pl_class_qr(url, modules, (int)sizeof modules, n) ? 0 : *n + 2 * QUIET;
}

static int dark(int n, int x, int y) {
    x -= QUIET, y -= QUIET;
    return x >= 0 && y >= 0 && x < n && y < n && modules[y * n + x];
}

/* The code at (y, x), two modules a character cell: a full block for two
 * modules alike, a half block for two that differ, black on white. No cell
 * is a blank: a terminal then draws every light module in white, quiet zone
 * and all, whatever its own background. */
static void draw_qr(int y, int x, int n) {
    int side = n + 2 * QUIET;
    for (int r = 0; r < side; r += 2)
        for (int col = 0; col < side; col++) {
            int top = dark(n, col, r), bottom = dark(n, col, r + 1);
            TuiColor c = !top && !bottom ? TUI_QR_LIGHT : TUI_QR;
            tui_color(c);
            tui_put(y + r / 2, x + col, 1, "%s", top == bottom ? "\u2588" : top ? "\u2580" : "\u2584");
            tui_color_off(c);
        }
}

/* ---- the screen ---- */

static void head(PlClass *c, const TuiClassScreen *s) {
    char right[64];
    snprintf(right, sizeof right, "%d student%s ", pl_class_students(c), pl_class_students(c) == 1 ? "" : "s");
    tui_color(TUI_TITLE);
    mvhline(0, 0, ' ', COLS);
    int w = COLS - tui_width(right) - 1;
    tui_put(0, 0, w, " padlab class: %s, step %d of %d", s->title, s->step + 1, s->nsteps);
    tui_put(0, COLS - tui_width(right), tui_width(right), "%s", right);
    tui_color_off(TUI_TITLE);
    tui_color(TUI_REAL);
    tui_put(1, 1, COLS - 2, "join at %s with the code %s", s->url, s->code);
    tui_color_off(TUI_REAL);
}

/* What the keys change on the projector itself. */
static struct {
    int join;   /* the join screen is up */
    int scroll; /* the narration's */
    TuiPane view;
} here;

static void join_screen(const TuiClassScreen *s) {
    int n, side = qr_side(s->url, &n), rows = (side + 1) / 2;
    int top = 3;
    tui_put(top, 2, COLS - 4, "open %s on a phone or a laptop,", s->url);
    tui_put(top + 1, 2, COLS - 4, "or scan the code, then type the class code %s", s->code);
    if (side && side <= COLS - 4 && rows <= LINES - top - 4) draw_qr(top + 3, (COLS - side) / 2, n);
    else if (side) tui_put(top + 3, 2, COLS - 4, "(the QR code needs %d x %d: a larger terminal shows it)", side, rows);
    tui_color(TUI_DIM);
    tui_put(LINES - 1, 1, COLS - 2, "j or any key: back to the lesson");
    tui_color_off(TUI_DIM);
}

static void draw_view(PlLab *lab, TuiPane *view, TuiBox b) {
    if (b.h < MIN_VIEW || b.w < 20) return;
    view->box = b;
    tui_ledger(pl_lab_ledger(lab));
    tui_view_draw(lab, (PlView)pl_lab_settings(lab)->view, view);
    tui_ledger(NULL);
}

/* The narration in box b, and the QR code under it where both fit. */
static void draw_narration(const TuiClassScreen *s, TuiBox b) {
    int n, side = qr_side(s->url, &n), rows = (side + 1) / 2;
    if (side && side <= b.w && narration_lines.n + 1 + rows <= b.h) {
        draw_qr(b.y + b.h - rows, b.x + (b.w - side) / 2, n);
        b.h -= rows + 1;
    }
    draw_lines(&narration_lines, b, &here.scroll);
}

static void draw_screen(PlLab *lab, PlClass *c, const TuiClassScreen *s) {
    TuiPane *view = &here.view;
    erase();
    if (s->new_step) here.scroll = 0, view->scroll = 0, view->hscroll = 0;
    head(c, s);
    if (here.join) {
        join_screen(s);
        refresh();
        return;
    }
    int wide = COLS >= WIDE, left = wide ? COLS * 2 / 5 : COLS, body = LINES - 3;
    narration_lines.n = board_lines.n = 0;
    tui_lines_wrap(&narration_lines, s->narration, left - 2, TUI_NORMAL, 0);
    pl_class_board(c, &s->board, left - 2, board_line, &board_lines);
    int board = board_lines.n < body - 3 ? board_lines.n : body - 3, zero = 0;
    int above = body - board - 1; /* rows over the class's lines, a blank row between */
    if (wide) {
        draw_narration(s, (TuiBox){3, 1, above, left - 2});
        draw_view(lab, view, (TuiBox){2, left + 1, LINES - 2, COLS - left - 2});
    } else if (!narration_lines.n && above - 1 < MIN_VIEW) {
        above = 0; /* nothing to show over the class's lines: they come up under the heading */
    } else {
        int text = narration_lines.n < above ? narration_lines.n : above;
        if (above - text - 1 < MIN_VIEW) text = above - MIN_VIEW - 1 >= 3 ? above - MIN_VIEW - 1 : above;
        draw_lines(&narration_lines, (TuiBox){3, 1, text, COLS - 2}, &here.scroll);
        draw_view(lab, view, (TuiBox){3 + text + 1, 1, above - text - 1, COLS - 2});
    }
    draw_lines(&board_lines, (TuiBox){wide || above ? LINES - board : 3, 1, board, left - 2}, &zero);
    refresh();
}

static void exam_page(PlClass *c, int qi, int page, int pages) {
    PlClassNow n;
    PlClassTally t;
    erase();
    pl_class_now(c, &n);
    if (n.q != qi || pl_class_tally(c, qi, &t)) return;
    board_lines.n = 0;
    char head_text[64];
    snprintf(head_text, sizeof head_text, "Question %d", qi + 1);
    tui_lines_add(&board_lines, TUI_REAL, "%s", head_text);
    tui_lines_wrap(&board_lines, n.prompt, COLS - 2, TUI_REAL, 0);
    for (int i = 0; i < n.nchoices; i++) {
        char choice[500];
        snprintf(choice, sizeof choice, "  %c. %s", 'a' + i, n.choices[i]);
        tui_lines_wrap(&board_lines, choice, COLS - 2, TUI_REAL, 5);
    }
    tui_lines_blank(&board_lines);
    pl_class_board_tally(&t, &n, COLS - 2, board_line, &board_lines);
    tui_color(TUI_TITLE);
    mvhline(0, 0, ' ', COLS);
    tui_put(0, 0, COLS, " the exam's results: question %d of %d", page + 1, pages);
    tui_color_off(TUI_TITLE);
    int zero = 0;
    draw_lines(&board_lines, (TuiBox){2, 1, LINES - 4, COLS - 2}, &zero);
    tui_color(TUI_DIM);
    tui_put(LINES - 1, 1, COLS - 2, "right arrow or space: the next   left arrow or b: the one before   q: done");
    tui_color_off(TUI_DIM);
    refresh();
}

/* ---- the loop ---- */

typedef struct {
    const TuiClassLoop *l;
    long second; /* of the last frame */
} Run;

static void loop_draw(void *self, double now) {
    Run *r = self;
    TuiClassScreen s;
    memset(&s, 0, sizeof s);
    r->l->screen(r->l->self, &s);
    draw_screen(r->l->lab, r->l->c, &s);
    r->second = (long)now;
}

static int loop_tick(void *self, double now) {
    Run *r = self;
    (void)now;
    return r->l->tick(r->l->self);
}

static int loop_due(void *self, double now, double last_draw) {
    Run *r = self;
    (void)last_draw;
    return r->l->moving(r->l->self) && (long)now != r->second;
}

static int loop_key(void *self, int ch, double now) {
    Run *r = self;
    (void)now;
    if (here.join) return here.join = 0, 0; /* any key closes the join screen */
    if (ch == 'j') return here.join = 1, 0;
    if (ch == KEY_UP) return here.scroll -= here.scroll > 0, 0;
    if (ch == KEY_DOWN) return here.scroll++, 0;
    int k = ch == KEY_NPAGE || ch == KEY_RIGHT ? 'n' : ch == KEY_PPAGE || ch == KEY_LEFT ? 'b' : ch;
    if (k == '\n' || k == '\r' || k < 0 || k > 255) return 0;
    return r->l->key(r->l->self, k);
}

int tui_class_run(const TuiClassLoop *l, char *why, int cap) {
    TuiOptions o = {0};
    if (tui_screen_start(&o, why, cap)) return -1;
    memset(&here, 0, sizeof here);
    Run r = {l, -1};
    TuiLoop loop = {.self = &r, .tick = loop_tick, .due = loop_due, .draw = loop_draw, .key = loop_key};
    tui_loop_run(&loop);
    return 0;
}

void tui_class_exam(const TuiClassLoop *l, const int *qs, int n) {
    int i = 0, shown = -1;
    while (n && !tui_screen_should_quit()) {
        if (shown != i) {
            l->page(l->self, i);
            exam_page(l->c, qs[i], i, n);
            shown = i;
        }
        int ch = getch();
        if (ch == ERR) {
            tui_screen_check_input();
            continue;
        }
        if (ch == KEY_RESIZE) shown = -1;
        if (ch == 'q') break;
        int step = ch == KEY_RIGHT || ch == ' ' || ch == 'n' || ch == KEY_NPAGE ? 1
                   : ch == KEY_LEFT || ch == 'b' || ch == KEY_PPAGE             ? -1
                                                                                : 0;
        i = i + step < 0 ? 0 : i + step >= n ? n - 1 : i + step;
    }
}
