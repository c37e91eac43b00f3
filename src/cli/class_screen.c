/* The projector's screen as text frames (class_screen.h). */
#include "class_screen.h"

#include <string.h>

#include "app/class/board.h"
#include "app/teach/page.h"
#include "class_qr.h"
#include "core/text.h"

#define WIDTH 80 /* a frame's lines wrap here: the frames go to a pipe or a file, not a terminal of known width */

static void line_out(void *ctx, const char *text, PlBoardKind kind) {
    (void)kind;
    pl_text_printf_lines(ctx, "%s\n", text);
}

void cli_class_tally(FILE *f, const PlClassTally *t, const PlClassNow *n) {
    pl_class_board_tally(t, n, 2 * (PL_BOARD_BAR + 7) + 27 + 30, line_out, f);
}

static double columns(void *ctx, const char *s, size_t n) {
    (void)ctx;
    double w = 0;
    for (size_t i = 0; i < n; i++) w += ((unsigned char)s[i] & 0xC0) != 0x80;
    return w;
}

static void wrapped_line(void *ctx, const char *s, size_t n, int kind, double in) {
    if (kind != 2) pl_text_printf_lines(ctx, "%*s%.*s", kind ? (int)in : 0, "", (int)n, s);
    fputc('\n', ctx);
}

void cli_wrap_text(FILE *f, const char *text, int width, int indent) {
    pl_page_wrap(text, width, indent, columns, wrapped_line, f);
}

void cli_class_screen(FILE *f, PlClass *c, const ClassScreen *s) {
    pl_text_printf_lines(f, "padlab class: %s, step %d of %d\n", s->title, s->step + 1, s->nsteps);
    fprintf(f, "join at %s with the code %s   (%d students)\n", s->url, s->code, pl_class_students(c));
    if (s->qr) cli_class_qr(f, s->url, 2);
    if (s->narration && *s->narration) {
        fputc('\n', f);
        cli_wrap_text(f, s->narration, WIDTH, 0);
    }
    fputc('\n', f);
    PlBoard b = {.qi = s->qi, .exam = s->exam, .after = s->after, .share = s->share, .eta = s->eta, .note = s->note};
    pl_class_board(c, &b, WIDTH, line_out, f);
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
