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
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include <time.h>

#include "app/class/follow.h"
#include "app/dirs.h"
#include "app/state.h"
#include "core/folder.h"
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
    int quitting;               /* q pressed once: a second q ends the class */
    char report[1100];          /* where the report goes (checked at the start: never over another's), or "" */
    char saved[1100];           /* where the class is kept (store.c), "" when it cannot be */
    PlClassMeta meta;           /* what is kept beside the class */
    unsigned saved_version;     /* the class's version last written */
    int64_t began_ms;           /* the votes' clock starts here (CLOCK_REALTIME ms) */
} Present;

/* The signal that ends the class (INT, TERM, HUP, QUIT), 0 while none has
 * come: the loop sees it, and the class ends as q ends it, its terminal
 * restored and its report written, with the status 128 + the signal. */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig) { stop_signal = sig; }

static void catch_stops(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) sigaction(sigs[i], &sa, NULL);
    signal(SIGPIPE, SIG_IGN); /* a presenter view's reader that goes away: its writes fail, the class goes on */
}

/* ---- the class kept on disk ---- */

static int64_t wall_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The votes' clock: milliseconds since the class began (resumed: since it
 * first began). */
static int64_t class_ms(void *ctx) {
    const Present *p = ctx;
    int64_t t = wall_ms() - p->began_ms;
    return t > 0 ? t : 0;
}

/* Where a class of this lesson is kept: STATE/classes/NAME.class (an exam
 * NAME-exam.class). 0, or -1 with why. */
static int saved_path(Present *p, int exam, char *why, int cap) {
    char dir[900];
    PlErr err;
    if (pl_dir_state(dir, sizeof dir - 16, &err)) return snprintf(why, (size_t)cap, "%s", err.msg), -1;
    strcat(dir, "/classes");
    if (pl_folder_make(dir, &err)) return snprintf(why, (size_t)cap, "%s", err.msg), -1;
    snprintf(p->saved, sizeof p->saved, "%.900s/%.90s%s.class", dir, p->l->name, exam ? "-exam" : "");
    return 0;
}

/* Writes the class when it changed (or always): a failure is said once on
 * the projector's note, and the class goes on. */
static void keep(Present *p, int always) {
    PlClassNow n;
    char why[300];
    if (!p->saved[0]) return;
    pl_class_now(p->c, &n);
    if (!always && n.version == p->saved_version && p->meta.step == p->step) return;
    p->meta.step = p->step;
    if (pl_class_save(p->c, &p->meta, p->saved, why, sizeof why)) {
        snprintf(p->f.note, sizeof p->f.note, "the class is not kept: %.170s", why);
        p->saved[0] = '\0';
        return;
    }
    p->saved_version = n.version;
}

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

/* A key: 1 to go on, 0 to end. q asks once more before it ends the class. */
static int on_key(Present *p, int key) {
    p->f.note[0] = '\0';
    if (key == EOF) return 0;
    if (key == 'q' && p->quitting) return 0;
    p->quitting = key == 'q';
    if (p->quitting)
        return snprintf(p->f.note, sizeof p->f.note, "q again ends the class for everyone; any other key goes on"), 1;
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
    while (!stop_signal) {
        PlClassNow n;
        pl_class_now(p->c, &n);
        if (n.version != shown || (p->tty && pl_class_students(p->c) != students))
            draw(p), shown = n.version, students = pl_class_students(p->c), keep(p, 0);
        else if (p->pres >= 0 && (long)(pl_app_clock() - p->t0) != p->pres_second) draw_presenter(p);
        fflush(stdout);
        struct pollfd fd = {.fd = STDIN_FILENO, .events = POLLIN};
        if (poll(&fd, 1, 25) <= 0) continue; /* a signal interrupts the wait: the loop's test sees it */
        unsigned char ch;
        ssize_t got = read(STDIN_FILENO, &ch, 1);
        if (got == 1 && (ch == '\n' || ch == '\r')) continue;
        if (!on_key(p, got == 1 ? ch : EOF)) return;
        keep(p, 0);
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

/* The class's end, however it comes (q, the lesson's end, a signal): the
 * terminal as it was, the report written. Returns the exit status. */
static int finish_class(Present *p, int rc, const struct termios *saved) {
    char why[300];
    if (p->tty) tcsetattr(STDIN_FILENO, TCSANOW, saved);
    if (p->report[0]) {
        pl_class_report_meta(p->c, &p->meta, (long long)time(NULL));
        if (pl_class_report_write(p->c, p->report, p->l->title, why, sizeof why))
            return fprintf(stderr, "padlab lesson: %s\n", why), 1;
        printf("class report: %s\n", p->report);
    }
    if (stop_signal) fprintf(stderr, "padlab lesson: the class ended on signal %d%s\n", (int)stop_signal,
                             p->report[0] ? ", its report written" : "");
    return stop_signal ? 128 + (int)stop_signal : rc;
}

/* The class to serve: the one saved of this lesson, resumed (same code,
 * students, votes and step), or a new one (--new, or none saved). 0, or -1
 * with the line printed. */
static int open_class(Present *p, const ClassPresentArgs *o, int *step, int *resumed) {
    char why[700];
    PlErr err;
    PlClassMeta m;
    pl_state_format(o->settings, p->meta.settings, sizeof p->meta.settings);
    snprintf(p->meta.lesson, sizeof p->meta.lesson, "%s", p->l->name);
    p->meta.exam = o->exam;
    int resume = 0;
    if (saved_path(p, o->exam, why, sizeof why)) fprintf(stderr, "padlab lesson: the class will not be kept: %s\n", why);
    else if (!o->fresh && !access(p->saved, F_OK)) {
        if (pl_class_meta_read(p->saved, &m, why, sizeof why))
            return fprintf(stderr, "padlab lesson: %s (--new starts a new class)\n", why), -1;
        if (strcmp(m.lesson, p->meta.lesson) || strcmp(m.settings, p->meta.settings))
            return fprintf(stderr, "padlab lesson: a class of %s on other settings is kept in %s: give its settings, or "
                                   "--new\n", m.lesson, p->saved), -1;
        resume = 1, p->meta = m;
    }
    if (!resume) pl_class_new_code(p->meta.code), p->meta.salt = pl_choices_new_salt(), p->meta.began = time(NULL);
    if (pl_class_follow_init(&p->f, p->l, p->meta.code, p->meta.salt, o->exam, &err))
        return fprintf(stderr, "padlab lesson: %s\n", err.msg), -1;
    p->c = p->f.c;
    if (resume && pl_class_restore(p->c, p->saved, why, sizeof why))
        return fprintf(stderr, "padlab lesson: %s (--new starts a new class)\n", why), -1;
    p->began_ms = (int64_t)p->meta.began * 1000;
    pl_class_set_clock(p->c, class_ms, p);
    *step = resume && p->meta.step < p->l->nsteps ? p->meta.step : 0;
    *resumed = resume;
    if (resume) printf("class: resumed, %d students, at step %d\n", pl_class_students(p->c), *step + 1);
    return 0;
}

/* Where the report goes: the resumed class's own (written again whole),
 * or a name no other report has, checked now so that no vote is lost to a
 * path that cannot be written. 0, or -1 with the line printed. */
static int report_path(Present *p, const ClassPresentArgs *o, int resumed) {
    char why[300];
    if (!o->report) return snprintf(p->report, sizeof p->report, "%s", resumed ? p->meta.report : ""), 0;
    int same = resumed && p->meta.report[0] && !strncmp(p->meta.report, o->report, strlen(o->report));
    if (pl_class_report_path(o->report, p->l->name, same, p->report, sizeof p->report, why, sizeof why))
        return fprintf(stderr, "padlab lesson: --report: %s\n", why), -1;
    if (same) snprintf(p->report, sizeof p->report, "%s", p->meta.report);
    snprintf(p->meta.report, sizeof p->meta.report, "%s", p->report);
    return 0;
}

static int serve(Present *p, const ClassPresentArgs *o) {
    char why[300];
    int step, resumed;
    if (open_class(p, o, &step, &resumed) || report_path(p, o, resumed)) return 2;
    PlClassServer *sv = pl_class_server_start(p->c, o->listen, o->port, why, sizeof why);
    if (!sv) return fprintf(stderr, "padlab lesson: --class: %s\n", why), 2;
    pl_class_join_url(p->url, sizeof p->url, o->listen, pl_class_server_port(sv));
    printf("class: serving %s code %s\n", p->url, p->meta.code);
    printf("class: plain HTTP on this network: students' answers are not encrypted; padlab keeps no more than them\n");
    fflush(stdout);
    catch_stops(); /* before the terminal is changed: a signal always finds it restorable */
    struct termios saved, raw;
    p->tty = isatty(STDIN_FILENO) && !tcgetattr(STDIN_FILENO, &saved);
    raw = saved;
    raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
    if (p->tty) tcsetattr(STDIN_FILENO, TCSANOW, &raw);
    p->step = -1;
    int rc = go_step(p, step) ? 1 : 0;
    if (!rc && resumed) pl_class_resume_now(p->c); /* the round and phase it was in */
    keep(p, 1);
    if (!rc) loop(p);
    if (!rc && p->f.exam && !stop_signal) exam_end(p);
    keep(p, 1);                /* as it was when it ended: the same command resumes it there */
    pl_class_end(p->c);        /* every page says so */
    if (!stop_signal) usleep(2500000); /* the pages poll each second: they see the end before the server stops */
    pl_class_server_stop(sv);
    return finish_class(p, rc, &saved);
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
