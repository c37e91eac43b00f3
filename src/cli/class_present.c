/* padlab lesson NAME --class: the lesson on the projector with the class
 * voting on its questions. The teacher's lab computes every figure; the
 * server (src/app/class/server.h) only carries the students' votes. Keys:
 * space or n the next step, b the step before, r reveal, v discuss and vote
 * again, q the end (then the class report, with --report FILE). In an exam
 * (--exam) r and v are refused: each number is kept as the lab computes it
 * when its step opens, and at the end every question reached is revealed,
 * one after the other, against it. With --presenter TTY the teacher's own
 * terminal shows the presenter view (class_presenter.h), redrawn with the
 * projector and once a second for its clocks.
 *
 * On a terminal the screen is redrawn whenever the session changes (checked
 * every 25 ms); with keys from a pipe (the tests) each frame is printed as
 * it changes, one after the other. */
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "app/class/follow.h"
#include "app/class/server.h"
#include "app/lab/worker.h"
#include "app/teach/lesson_run.h"
#include "class_present.h"
#include "class_presenter.h"
#include "class_screen.h"
#include "cli.h"

typedef struct {
    PlLab *lab;
    PlLesson *l;
    PlLessonRun *run;
    PlClassFollow f; /* the class, following the lesson (app/class/follow.h) */
    PlClass *c;      /* f.c */
    int step;
    int tty;
    char url[128];
    char narration[8192];
    int pres;                   /* the presenter view's terminal, or -1 */
    double t0, step_t0;         /* when the session and the step began (pl_app_clock) */
    long pres_second;           /* the second the presenter view last showed */
    char notes[4096];           /* the step's teacher notes, filled (at the first, the lesson's too) */
    char narration_notes[2048]; /* the step's own, filled */
} Present;

/* Goes to step k: the lab set up and computed, the question's texts filled
 * and opened to the class. 0, or -1 with the message printed. */
static int go_step(Present *p, int k) {
    PlErr err;
    if (k != p->step && pl_lesson_run_goto(p->run, k, &err))
        return fprintf(stderr, "step %d: %s\n", k + 1, err.msg), -1;
    p->step = k;
    pl_lesson_run_wait(p->run); /* a figure still missing after it says so where it is shown */
    pl_lesson_run_sync_ledger(p->run); /* the projector and the pages show what the learner may see */
    const PlStep *s = &p->l->steps[k];
    pl_lesson_fill(p->lab, pl_lab_ledger(p->lab), s->text ? s->text : "", p->narration, sizeof p->narration);
    char lesson_notes[2048] = ""; /* the lesson's own, before its first step's */
    if (k == 0 && p->l->notes) pl_lesson_fill(p->lab, NULL, p->l->notes, lesson_notes, sizeof lesson_notes);
    pl_lesson_fill(p->lab, NULL, s->notes ? s->notes : "", p->narration_notes, sizeof p->narration_notes);
    snprintf(p->notes, sizeof p->notes, "%s%s%s", lesson_notes, lesson_notes[0] && p->narration_notes[0] ? "\n" : "",
             p->narration_notes);
    p->step_t0 = pl_app_clock();
    return pl_class_follow_step(&p->f, p->lab, k);
}

static void draw_presenter(Present *p) {
    if (p->pres < 0) return;
    double now = pl_app_clock();
    ClassPresenter s = {.title = p->l->title,
                        .step = p->step,
                        .nsteps = p->l->nsteps,
                        .step_title = p->l->steps[p->step].title,
                        .next_title = p->step + 1 < p->l->nsteps ? p->l->steps[p->step + 1].title : NULL,
                        .notes = p->notes[0] ? p->notes : NULL,
                        .qi = pl_class_follow_question(&p->f, p->step),
                        .on_step = now - p->step_t0,
                        .in_all = now - p->t0,
                        .exam = p->f.exam};
    cli_presenter_draw(p->pres, p->c, &s);
    p->pres_second = (long)(now - p->t0);
}

static void draw(Present *p) {
    draw_presenter(p);
    ClassScreen s = {.title = p->l->title,
                     .step = p->step,
                     .nsteps = p->l->nsteps,
                     .url = p->url,
                     .code = pl_class_code(p->c),
                     .narration = p->narration,
                     .qi = pl_class_follow_question(&p->f, p->step),
                     .qr = 1,
                     .exam = p->f.exam,
                     .note = p->f.note[0] ? p->f.note : NULL};
    if (p->tty) fputs("\033[H\033[2J", stdout);
    else puts("----");
    cli_class_screen(stdout, p->c, &s);
}

/* A key: 1 to go on, 0 to end. */
static int on_key(Present *p, int key) {
    p->f.note[0] = '\0';
    if (key == 'q' || key == EOF) return 0;
    if ((key == ' ' || key == 'n') && p->step + 1 < p->l->nsteps) return go_step(p, p->step + 1), 1;
    if ((key == ' ' || key == 'n')) return 0; /* past the last step: the end */
    if (key == 'b' && p->step > 0) go_step(p, p->step - 1);
    if (key == 'r') pl_class_follow_reveal(&p->f, p->lab);
    if (key == 'v') pl_class_follow_again(&p->f);
    return 1;
}

static void loop(Present *p) {
    unsigned shown = ~0u;
    int students = -1;
    for (;;) {
        PlClassNow n;
        pl_class_now(p->c, &n);
        if (n.version != shown || (p->tty && pl_class_students(p->c) != students))
            draw(p), shown = n.version, students = pl_class_students(p->c);
        else if (p->pres >= 0 && (long)(pl_app_clock() - p->t0) != p->pres_second) draw_presenter(p);
        fflush(stdout);
        struct pollfd fd = {.fd = STDIN_FILENO, .events = POLLIN};
        if (poll(&fd, 1, 25) <= 0) continue;
        unsigned char ch;
        ssize_t got = read(STDIN_FILENO, &ch, 1);
        if (got == 1 && (ch == '\n' || ch == '\r')) continue;
        if (!on_key(p, got == 1 ? ch : EOF)) return;
        shown = ~0u;
    }
}

static void draw_revealed(int qi, void *ctx) { cli_class_exam_end(stdout, ((Present *)ctx)->c, qi); }

/* The exam's end: every question the class was asked, revealed in turn. */
static void exam_end(Present *p) {
    if (p->tty) fputs("\033[H\033[2J", stdout);
    else puts("----");
    cli_print_shown("padlab class: %s: the exam's answers, every question against the lab's number\n", p->l->title);
    pl_class_follow_end(&p->f, draw_revealed, p);
    fflush(stdout);
}

static int serve(Present *p, const ClassPresentArgs *o) {
    char code[PL_CLASS_CODE_LEN + 1], why[300];
    PlErr err;
    pl_class_new_code(code);
    if (pl_class_follow_init(&p->f, p->l, code, pl_choices_new_salt(), o->exam, &err))
        return fprintf(stderr, "padlab lesson: %s\n", err.msg), 1;
    p->c = p->f.c;
    PlClassServer *sv = pl_class_server_start(p->c, o->listen, o->port, why, sizeof why);
    if (!sv) return fprintf(stderr, "padlab lesson: --class: %s\n", why), 2;
    pl_class_join_url(p->url, sizeof p->url, o->listen, pl_class_server_port(sv));
    printf("class: serving %s code %s\n", p->url, code);
    fflush(stdout);
    struct termios saved, raw;
    p->tty = isatty(STDIN_FILENO) && !tcgetattr(STDIN_FILENO, &saved);
    raw = saved;
    raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
    if (p->tty) tcsetattr(STDIN_FILENO, TCSANOW, &raw);
    int rc = go_step(p, 0) ? 1 : 0;
    if (!rc) loop(p);
    if (!rc && p->f.exam) exam_end(p);
    if (p->tty) tcsetattr(STDIN_FILENO, TCSANOW, &saved);
    pl_class_server_stop(sv);
    if (o->report) {
        if (pl_class_report_write(p->c, o->report, p->l->title, why, sizeof why))
            return fprintf(stderr, "padlab lesson: %s\n", why), 1;
        printf("class report: %s\n", o->report);
    }
    return rc;
}

int cli_class_present(const ClassPresentArgs *o) {
    Present p;
    PlErr err;
    char path[1024];
    memset(&p, 0, sizeof p);
    p.pres = -1, p.t0 = pl_app_clock();
    char why[300];
    if (o->presenter && (p.pres = cli_presenter_open(o->presenter, why, sizeof why)) < 0)
        return fprintf(stderr, "padlab lesson: --presenter: %s\n", why), 2;
    int found = pl_lesson_find(o->lesson, path, sizeof path);
    if (found) return fprintf(stderr, "padlab lesson: no lesson '%s' (padlab lesson --list)\n", o->lesson), 2;
    if (!(p.l = pl_lesson_load(path, &err))) return fprintf(stderr, "%s\n", err.msg), 2;
    p.lab = pl_lab_new(o->settings, &err);
    p.run = p.lab ? pl_lesson_run_new(p.lab, p.l, 0, &err) : NULL;
    int rc = p.run ? serve(&p, o) : (fprintf(stderr, "padlab lesson: %s\n", err.msg), 2);
    pl_class_follow_done(&p.f);
    if (p.pres >= 0) close(p.pres);
    pl_lesson_run_free(p.run);
    pl_lab_free(p.lab);
    pl_lesson_free(p.l);
    return rc;
}
