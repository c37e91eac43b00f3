/* padlab lesson NAME --lines and padlab drill DECK --lines: a lesson or a
 * drill for a screen reader, or anyone who would rather read than look.
 * Every step, question, piece of feedback and the figures a view would
 * draw come as plain sentences on standard output, one paragraph a line,
 * with no cursor addressing; the learner's answers and commands are read
 * a line at a time from standard input. The play (lesson_play.h,
 * drill_play.h) is the one the terminal and the window play, so the
 * answers, the hidden figures and the progress kept are theirs.
 *
 * A lesson takes: a number or a letter (an answer), hint, solution (after
 * a try), view (the view's figures again), step (the step again), set
 * NAME=VALUE (work the lab, for an exercise), check (the exercise), Enter or
 * next (go on), back, quit; each word may be its first letter where that
 * letter is not one of the question's choices. End of input quits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/lab/lab.h"
#include "app/lab/ledger.h"
#include "app/teach/drill_play.h"
#include "app/teach/lesson_play.h"
#include "app/teach/sched.h"
#include "cli.h"
#include "core/text.h"
#include "lines.h"

#define VIEW_PATIENCE 600 /* seconds a view may take to compute before it is said as it stands (a retrain) */

/* A page's paragraphs as printed last, to print only what changed. */
typedef struct {
    char *text[PL_PAGE_PARAS];
    int n;
} Said;

static void said_clear(Said *s) {
    for (int i = 0; i < s->n; i++) free(s->text[i]);
    s->n = 0;
}

/* Whether the page printed last said t. */
static int said_before(const Said *s, const char *t) {
    for (int i = 0; i < s->n; i++)
        if (s->text[i] && strcmp(s->text[i], t) == 0) return 1;
    return 0;
}

/* Prints the paragraphs of g that the last page did not say (all of them
 * with all), each on a line of its own, and remembers them. */
static void say_page(const PlPage *g, Said *s, int all) {
    for (int i = 0; i < g->n; i++) {
        const char *t = pl_page_para(g, i);
        int same = !all && said_before(s, t);
        if (!same && g->para[i].role != PL_ROLE_GAP && g->para[i].role != PL_ROLE_INPUT && *t)
            pl_text_printf_lines(stdout, "%s\n", t);
    }
    said_clear(s);
    for (int i = 0; i < g->n; i++) s->text[i] = strdup(pl_page_para(g, i));
    s->n = g->n;
    fflush(stdout);
}

/* The figures the step's view would draw, drawn through the ledger, once
 * the lab has computed them (it is not ticked while a line is awaited). */
static void say_view(PlLab *lab) {
    char *text = NULL;
    size_t n = 0;
    PlErr err;
    PlView v = (PlView)pl_lab_settings(lab)->view;
    pl_lab_wait(lab, pl_view_results(v, pl_lab_settings(lab)), VIEW_PATIENCE);
    FILE *m = open_memstream(&text, &n);
    if (!m) return;
    PlStatus st = pl_lab_write_view(lab, v, 0, m, &err);
    fclose(m);
    printf("The %s view:\n", pl_view_name(v));
    if (st) printf("(%s)\n", err.msg);
    else pl_text_printf_lines(stdout, "%s", text);
    printf("(end of the %s view)\n", pl_view_name(v));
    free(text);
    fflush(stdout);
}

/* A line from standard input without its newline; NULL at its end. */
static char *read_line(char *buf, int cap) {
    fputs("> ", stdout);
    fflush(stdout);
    if (!fgets(buf, cap, stdin)) return NULL;
    buf[strcspn(buf, "\r\n")] = '\0';
    return buf;
}

/* The step on screen set up, computed and said whole: its head, the page,
 * the view's figures. */
static void say_step(PlLessonPlay *p, PlLab *lab, Said *said) {
    char title[300], step[300];
    static PlPage page;
    pl_lesson_run_wait(p->run);
    pl_lesson_run_sync_ledger(p->run);
    pl_lesson_play_head(p, title, sizeof title, step, sizeof step);
    pl_text_printf_lines(stdout, "\n%s: %s\n", title, step);
    pl_lesson_page(p, lab, &page);
    say_page(&page, said, 1);
    say_view(lab);
}

/* Whether line is the command word, or its first letter where that letter
 * is not a choice of the question on screen. */
static int is(const PlLessonPlay *p, const char *line, const char *word) {
    const PlQuestion *q = &pl_lesson_run_step(p->run)->q;
    if (strcmp(line, word) == 0) return 1;
    int choice = q->kind == PL_Q_CHOOSE && line[0] >= 'a' && line[0] < 'a' + q->nchoices;
    return line[0] == word[0] && !line[1] && !choice;
}

/* An answer or a command typed while a lesson plays; 1 when the lesson ends. */
static int lesson_line(PlLessonPlay *p, PlLab *lab, const char *line, int *moved) {
    int step = pl_lesson_run_state(p->run)->step;
    if (is(p, line, "quit")) return 1;
    if (is(p, line, "view")) return say_view(lab), 0;
    if (strcmp(line, "step") == 0) return *moved = 1, 0;
    if (strncmp(line, "set ", 4) == 0) {
        PlSettingsPatch patch;
        char why[300];
        PlLabSettings s = *pl_lab_settings(lab);
        PlErr err;
        if (pl_settings_patch_parse(line + 4, &patch, why, sizeof why)) return printf("not set: %s\n", why), 0;
        for (int id = 0; id < PL_S_COUNT; id++)
            if (patch.mask & pl_lab_locked(lab) & PL_S_BIT(id))
                return printf("not set: %s is locked by the lesson at this step\n", pl_settings[id].name), 0;
        pl_settings_patch_apply(&s, &patch);
        if (pl_lab_apply(lab, &s, &err) < 0) return printf("not set: %s\n", err.msg), 0;
        pl_lesson_run_wait(p->run);
        return say_view(lab), 0;
    }
    if (is(p, line, "check")) pl_lesson_play_key(p, PL_LK_ENTER, 0);
    else if (!*line || is(p, line, "next")) pl_lesson_play_key(p, PL_LK_NEXT, 0);
    else if (is(p, line, "back")) pl_lesson_play_key(p, PL_LK_BACK, 0);
    else if (is(p, line, "hint") || is(p, line, "solution")) pl_lesson_play_key(p, PL_LK_CHAR, line[0]);
    else {
        p->input[0] = '\0';
        for (const char *c = line; *c; c++) pl_lesson_play_key(p, PL_LK_CHAR, (unsigned char)*c);
        if (line[1] || pl_lesson_run_step(p->run)->q.kind == PL_Q_ASK) pl_lesson_play_key(p, PL_LK_ENTER, 0);
    }
    while (p->pending && p->input[0]) { /* checked once the lab has its number */
        pl_lab_tick(lab);
        pl_lesson_play_tick(p, lab);
    }
    *moved = pl_lesson_run_state(p->run)->step != step;
    return 0;
}

int cli_lesson_lines(const CliArgs *a, const PlLabSettings *s, const char *name) {
    PlErr err;
    PlLab *lab = pl_lab_new(s, &err);
    if (!lab) return fprintf(stderr, "%s: %s\n", a->cmd, err.msg), 2;
    PlLessonPlay p;
    char why[512], line[512];
    if (pl_lesson_play_open(&p, lab, name, -1, 0, why, sizeof why)) {
        fprintf(stderr, "%s: %s\n", a->cmd, why);
        pl_lab_free(lab);
        return 2;
    }
    printf("padlab lesson %s, line by line. Type a number or a letter to answer; hint, solution (after a try), "
           "view (the view again), step (the step again), set NAME=VALUE to work the lab, check (an exercise), "
           "Enter to go on, back, quit; each word may be its first letter where that is not a choice.\n",
           p.lesson->name);
    Said said = {{0}, 0};
    static PlPage page;
    int moved = 1;
    for (;;) {
        if (moved) say_step(&p, lab, &said), moved = 0;
        if (!read_line(line, sizeof line) || lesson_line(&p, lab, line, &moved)) break;
        if (!moved) {
            pl_lesson_run_sync_ledger(p.run);
            pl_lesson_page(&p, lab, &page);
            say_page(&page, &said, 0);
        }
    }
    int rc = p.unsaved[0] ? 1 : 0;
    if (rc) fprintf(stderr, "%s: %s\n", a->cmd, p.unsaved);
    said_clear(&said);
    pl_lesson_play_close(&p);
    pl_lab_free(lab);
    return rc;
}

/* ---- drills ---- */

/* A drill's key for a line: a digit grades or picks, a letter chooses, an
 * empty line goes on. */
static int drill_line(PlDrillPlay *p, const char *line) {
    double now = pl_app_clock();
    if (strcmp(line, "q") == 0) return 1;
    if (!*line) return pl_drill_play_key(p, PL_DK_ENTER, 0, now) == PL_DRILL_QUIT;
    for (const char *c = line; *c; c++)
        if (pl_drill_play_key(p, PL_DK_CHAR, (unsigned char)*c, now) == PL_DRILL_QUIT) return 1;
    return 0;
}

int cli_drill_lines(const CliArgs *a, const PlLabSettings *s, const char *deck, const PlDrillOpts *o) {
    PlDrillPlay p;
    char why[512], line[512], left[300], right[100];
    if (pl_drill_play_open(&p, deck, s, o, -1, pl_app_clock(), why, sizeof why))
        return fprintf(stderr, "%s: %s\n", a->cmd, why), 2;
    printf("padlab drill %s, line by line. Enter shows the answer and goes on; 1 to 4 grade a card (again, hard, "
           "good, easy); a letter chooses; q quits.\n",
           deck);
    Said said = {{0}, 0};
    static PlPage page;
    int shown = -2;
    for (;;) {
        pl_drill_play_wait(&p, 600.0);
        pl_drill_play_head(&p, left, sizeof left, right, sizeof right);
        pl_drill_play_page(&p, pl_app_clock(), &page);
        int item = p.drill ? pl_drill_state(p.drill)->item : -1;
        if (item != shown) pl_text_printf_lines(stdout, "\n%s%s%s\n", left, right[0] ? ", " : "", right);
        say_page(&page, &said, item != shown);
        shown = item;
        if (!read_line(line, sizeof line) || drill_line(&p, line)) break;
    }
    int rc = p.unsaved[0] ? 1 : 0;
    if (rc) fprintf(stderr, "%s: %s\n", a->cmd, p.unsaved);
    said_clear(&said);
    pl_drill_play_close(&p);
    return rc;
}
