/* padlab lesson NAME --class: the lesson on the projector with the class
 * voting on its questions. The teacher's lab computes every figure; the
 * server (src/app/class/server.h) only carries the students' votes. Keys:
 * space or n the next step, b the step before, r reveal, v discuss and vote
 * again, t a minute's countdown for the discussion, q twice the end (then
 * the class report, with --report FILE). In an exam
 * (--exam) r and v are refused: each number is kept as the lab computes it
 * when its step opens, and at the end every question reached is revealed,
 * one after the other, against it. With --presenter TTY the teacher's own
 * terminal shows the presenter view (class_presenter.h), redrawn with the
 * projector and once a second for its clocks.
 *
 * On a terminal the projector is drawn with curses (class_projector.c): the
 * narration beside the step's view, the class's lines at the foot, a step
 * that trains not waited for but its progress shown. With keys from a pipe
 * (the tests) each frame is printed as text as it changes, one after the
 * other, every step's numbers waited for. */
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
#include "app/class/server.h"
#include "app/class/session.h"
#include "app/dirs.h"
#include "app/lab/fill.h"
#include "app/lab/worker.h"
#include "app/state.h"
#include "app/teach/lesson_run.h"
#include "class_present.h"
#include "class_present_int.h"
#include "class_presenter.h"
#include "class_screen.h"
#include "cli.h"
#include "core/folder.h"
#include "core/stops.h"
#include "tui/screen.h"

/* The signal that ends the class (INT, TERM, HUP, QUIT), 0 while none has
 * come: the loop sees it, and the class ends as q ends it, its terminal
 * restored and its report written, with the status 128 + the signal. */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig) { stop_signal = sig; }

static void catch_stops(void) {
    pl_stops_catch(on_stop, NULL);
    signal(SIGPIPE, SIG_IGN); /* a presenter view's reader that goes away: its writes fail, the class goes on */
}

/* ---- the class kept on disk ---- */

static int64_t wall_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void cp_keep(Present *p, int always) { pl_class_session_keep(&p->s, p->step, always); }

int cp_stopped(void) { return stop_signal ? (int)stop_signal : tui_screen_quit_signal(); }

/* The step's texts filled from the lab as the learner may see it now. */
static void fill_texts(Present *p) {
    const PlStep *s = &p->l->steps[p->step];
    pl_lesson_run_sync_ledger(p->run); /* the projector and the pages show what the learner may see */
    pl_lesson_run_question_ledger(p->run, &p->ask);
    p->f->ask_ledger = &p->ask; /* the question's words may hand over figures to work from */
    char why[300];
    if (pl_fill_all(p->lab, pl_lab_ledger(p->lab), s->text ? s->text : "", p->narration, sizeof p->narration, why,
                    sizeof why) &&
        !p->computing && strstr(why, "out of memory"))
        snprintf(p->oom, sizeof p->oom, "step %d: %.250s", p->step + 1, why), /* not "..." passed off as a figure */
            snprintf(p->f->note, sizeof p->f->note, "%.150s: any key ends the class", why);
    char lesson_notes[2048] = ""; /* the lesson's own, before its first step's */
    if (p->step == 0 && p->l->notes) pl_lesson_fill(p->lab, NULL, p->l->notes, lesson_notes, sizeof lesson_notes);
    pl_lesson_fill(p->lab, NULL, s->notes ? s->notes : "", p->narration_notes, sizeof p->narration_notes);
    snprintf(p->notes, sizeof p->notes, "%s%s%s", lesson_notes, lesson_notes[0] && p->narration_notes[0] ? "\n" : "",
             p->narration_notes);
}

/* Whether the step's question was revealed to the class (a number or a
 * choice shown): its figure is then no secret on any surface. */
static int step_revealed(Present *p) {
    int qi = pl_class_follow_question(p->f, p->step);
    PlClassTally t;
    return qi >= 0 && !p->f->exam && !pl_class_tally(p->c, qi, &t) && t.revealed;
}

int cp_go_step(Present *p, int k, int wait) {
    PlErr err;
    if (k != p->step && pl_lesson_run_goto(p->run, k, &err))
        return fprintf(stderr, "step %d: %s\n", k + 1, err.msg), -1;
    p->step = k;
    if (wait) pl_lesson_run_wait(p->run); /* a figure still missing after it says so where it is shown */
    p->computing = !wait && pl_lesson_run_computing(p->run, &p->share, &p->eta);
    if (!p->computing) pl_lab_wait(p->lab, pl_lesson_run_kinds(p->run), 30); /* what the text reads: quick */
    if (step_revealed(p)) pl_lesson_run_reveal(p->run);
    fill_texts(p);
    p->step_t0 = pl_app_clock();
    return pl_class_follow_step(p->f, p->lab, k);
}

int cp_tick(Present *p) {
    if (!p->computing) return 0;
    double share = p->share, eta = p->eta;
    if (pl_lesson_run_computing(p->run, &p->share, &p->eta))
        return (int)(share * 100) != (int)(p->share * 100) || (long)eta != (long)p->eta;
    p->computing = 0;
    pl_lab_wait(p->lab, pl_lesson_run_kinds(p->run), 30);
    fill_texts(p);
    pl_class_follow_refresh(p->f, p->lab); /* its prompt's figures, an exam's number */
    return 1;
}

/* r: the number the lab has now, and the figure shown on every surface. */
static void reveal(Present *p) {
    if (p->computing && !p->f->exam) {
        if (p->eta >= 0)
            snprintf(p->f->note, sizeof p->f->note,
                     "the lab is still computing this step: ready to reveal in about %.0f s", p->eta < 1 ? 1 : p->eta);
        else snprintf(p->f->note, sizeof p->f->note, "the lab is still computing this step: r once it is done");
        return;
    }
    if (pl_class_follow_reveal(p->f, p->lab)) return;
    pl_lesson_run_reveal(p->run);
    fill_texts(p);
}

static void append(char *out, size_t cap, const char *text) {
    size_t n = strlen(out);
    if (text && *text) snprintf(out + n, cap - n, "%s%s", n ? "\n" : "", text);
}

const char *cp_after(Present *p) {
    int qi = pl_class_follow_question(p->f, p->step);
    PlClassNow n;
    pl_class_now(p->c, &n);
    if (qi < 0 || n.q != qi || n.phase != PL_CLASS_SHOWN) return NULL;
    const PlQuestion *q = &p->l->steps[p->step].q;
    const PlLedger *l = pl_lab_ledger(p->lab);
    char buf[2048];
    p->after[0] = '\0';
    if (q->reveal) append(p->after, sizeof p->after, pl_lesson_fill(p->lab, l, q->reveal, buf, sizeof buf));
    for (int i = 0; q->kind == PL_Q_CHOOSE && i < q->nchoices; i++)
        if (q->choices[i].right && q->choices[i].explain)
            append(p->after, sizeof p->after, pl_lesson_fill(p->lab, l, q->choices[i].explain, buf, sizeof buf));
    if (q->solution) append(p->after, sizeof p->after, pl_lesson_fill(p->lab, l, q->solution, buf, sizeof buf));
    return p->after[0] ? p->after : NULL;
}

void cp_draw_presenter(Present *p) {
    if (p->pres < 0) return;
    double now = pl_app_clock();
    ClassPresenter s = {.title = p->l->title,
                        .step = p->step,
                        .nsteps = p->l->nsteps,
                        .step_title = p->l->steps[p->step].title,
                        .next_title = p->step + 1 < p->l->nsteps ? p->l->steps[p->step + 1].title : NULL,
                        .notes = p->notes[0] ? p->notes : NULL,
                        .qi = pl_class_follow_question(p->f, p->step),
                        .on_step = now - p->step_t0,
                        .in_all = now - p->t0,
                        .exam = p->f->exam};
    cli_presenter_draw(p->pres, p->c, &s);
    p->pres_second = (long)(now - p->t0);
}

/* A text frame: printed whole, after "----" (keys from a pipe) or a
 * cleared screen (a terminal curses cannot drive). */
static void draw(Present *p) {
    cp_draw_presenter(p);
    ClassScreen s = {.title = p->l->title,
                     .step = p->step,
                     .nsteps = p->l->nsteps,
                     .url = p->url,
                     .code = pl_class_code(p->c),
                     .narration = p->narration,
                     .qi = pl_class_follow_question(p->f, p->step),
                     .qr = 1,
                     .exam = p->f->exam,
                     .note = p->f->note[0] ? p->f->note : NULL,
                     .after = cp_after(p),
                     .share = p->computing ? p->share : -1,
                     .eta = p->eta};
    if (p->tty) fputs("\033[H\033[2J", stdout);
    else puts("----");
    cli_class_screen(stdout, p->c, &s);
}

/* t: a minute's countdown for the discussion, or no countdown when one runs. */
static void countdown(Present *p) {
    PlClassNow n;
    pl_class_now(p->c, &n);
    if (pl_class_follow_question(p->f, p->step) < 0 || n.phase != PL_CLASS_OPEN)
        snprintf(p->f->note, sizeof p->f->note, "a countdown is for a question open to the class");
    else pl_class_countdown(p->c, n.countdown > 0 ? 0 : 60);
}

int cp_key(Present *p, int key) {
    p->f->note[0] = '\0';
    if (key == EOF || p->oom[0]) return 0;
    if (key == 'q' && p->quitting) return 0;
    p->quitting = key == 'q';
    if (p->quitting)
        return snprintf(p->f->note, sizeof p->f->note, "q again ends the class for everyone; any other key goes on"), 1;
    int next = key == ' ' || key == 'n';
    if (next && p->step + 1 < p->l->nsteps) return cp_go_step(p, p->step + 1, !p->curses), 1;
    if (next) return 0; /* past the last step: the end */
    if (key == 'b' && p->step > 0) cp_go_step(p, p->step - 1, !p->curses);
    if (key == 'r') reveal(p);
    if (key == 'v') pl_class_follow_again(p->f);
    if (key == 't') countdown(p);
    return 1;
}

static void loop(Present *p) {
    unsigned shown = ~0u;
    int students = -1;
    while (!stop_signal && !p->oom[0]) {
        PlClassNow n;
        pl_class_now(p->c, &n);
        if (cp_tick(p)) shown = ~0u;
        if (n.version != shown || (p->tty && pl_class_students(p->c) != students))
            draw(p), shown = n.version, students = pl_class_students(p->c), cp_keep(p, 0);
        else if (p->pres >= 0 && (long)(pl_app_clock() - p->t0) != p->pres_second) cp_draw_presenter(p);
        fflush(stdout);
        struct pollfd fd = {.fd = STDIN_FILENO, .events = POLLIN};
        if (poll(&fd, 1, 25) <= 0) continue; /* a signal interrupts the wait: the loop's test sees it */
        unsigned char ch;
        ssize_t got = read(STDIN_FILENO, &ch, 1);
        if (got == 1 && (ch == '\n' || ch == '\r')) continue;
        if (!cp_key(p, got == 1 ? ch : EOF)) return;
        cp_keep(p, 0);
        shown = ~0u;
    }
}

typedef struct {
    Present *p;
    int qs[PL_CLASS_MAX_QUESTIONS], n;
} Revealed;

/* Each question revealed at the exam's end: printed at once without a
 * terminal, kept for the pages with one. */
static void on_revealed(int qi, void *ctx) {
    Revealed *r = ctx;
    if (r->n < PL_CLASS_MAX_QUESTIONS) r->qs[r->n++] = qi;
    if (!r->p->tty) cli_class_exam_end(stdout, r->p->c, qi);
}

/* A key for the exam's pages: +1 the next, -1 the one before, 0 done, 2 none. */
static int page_key(void) {
    unsigned char k[3];
    struct pollfd fd = {.fd = STDIN_FILENO, .events = POLLIN};
    if (poll(&fd, 1, 100) <= 0) return 2;
    ssize_t got = read(STDIN_FILENO, k, sizeof k);
    if (got <= 0 || k[0] == 'q') return 0;
    if (got == 3 && k[0] == 27 && k[1] == '[') return k[2] == 'C' ? 1 : k[2] == 'D' ? -1 : 2; /* the arrows */
    return k[0] == ' ' || k[0] == 'n' || k[0] == 'l' ? 1 : k[0] == 'b' || k[0] == 'h' || k[0] == 'p' ? -1 : 2;
}

/* The exam's end: every question the class was asked revealed against the
 * lab's number; on a terminal, a page each (right and left arrows, q when
 * done), the students' pages following the one on the projector. */
static void exam_end(Present *p) {
    Revealed r = {p, {0}, 0};
    if (!p->curses) {
        if (p->tty) fputs("\033[H\033[2J", stdout);
        else puts("----");
        cli_print_shown("padlab class: %s: the exam's answers, every question against the lab's number\n", p->l->title);
    }
    pl_class_follow_end(p->f, on_revealed, &r);
    if (p->curses) return cp_projector_exam(p, r.qs, r.n);
    for (int i = 0, shown = -1; p->tty && r.n && !stop_signal;) {
        if (shown != i) {
            pl_class_reveal_at(p->c, r.qs[i], p->f->value[r.qs[i]]); /* current: the pages show it too */
            fputs("\033[H\033[2J", stdout);
            cli_print_shown("padlab class: %s: the exam's answers, question %d of %d (right and left arrows, q done)\n",
                            p->l->title, i + 1, r.n);
            cli_class_exam_end(stdout, p->c, r.qs[i]);
            fflush(stdout);
            shown = i;
        }
        int k = page_key();
        if (!k) break;
        if (k != 2) i = i + k < 0 ? 0 : i + k >= r.n ? r.n - 1 : i + k;
    }
    fflush(stdout);
}

/* The class's end, however it comes (q, the lesson's end, a signal): the
 * terminal as it was, the class kept, every page told, the report written.
 * Returns the exit status. */
static int finish_class(Present *p, int rc, const struct termios *saved) {
    char why[300], written[1100];
    int sig = cp_stopped();
    cp_projector_end(p);
    if (p->tty) tcsetattr(STDIN_FILENO, TCSANOW, saved);
    int failed = pl_class_session_end(&p->s, p->step, p->l->title, written, sizeof written, why, sizeof why);
    if (!sig) usleep(2500000); /* the pages poll each second: they see the end before the server stops */
    pl_class_server_stop(p->server), p->server = NULL;
    if (written[0]) printf("class report: %s\n", written);
    if (failed) return fprintf(stderr, "padlab lesson: %s\n", why), 1;
    if (p->oom[0] && !sig)
        return fprintf(stderr, "padlab lesson: %s: the class ended (the same command resumes it)\n", p->oom), 1;
    if (sig)
        fprintf(stderr, "padlab lesson: the class ended on signal %d%s\n", sig,
                written[0] ? ", its report written" : "");
    return sig ? 128 + sig : rc;
}

/* The class to serve (session.h): the one saved of this lesson, resumed,
 * or a new one; its server started. 0, or -1 with the line printed. */
static int open_class(Present *p, const ClassPresentArgs *o) {
    char why[800];
    PlClassSessionArgs sa = {.l = p->l,
                             .settings = o->settings,
                             .exam = o->exam,
                             .fresh = o->fresh,
                             .report = o->report,
                             .wall_ms = wall_ms};
    int rc = pl_class_session_open(&p->s, &sa, why, sizeof why);
    if (why[0]) fprintf(stderr, "padlab lesson: %s\n", why);
    if (rc) return -1;
    p->f = &p->s.f, p->c = p->s.c;
    pl_class_session_say_resumed(&p->s, stdout);
    p->server = pl_class_server_start(p->c, o->listen, o->port, why, sizeof why);
    if (!p->server) return fprintf(stderr, "padlab lesson: --class: %s\n", why), -1;
    pl_class_server_set_seats_per_address(p->server, o->seats);
    if (pl_class_server_url(p->server, o->listen, p->url, sizeof p->url))
        printf("class: this machine has no address on a network: only it reaches %s\n", p->url);
    printf("class: serving %s code %s\n", p->url, p->s.meta.code);
    printf("class: plain HTTP on this network: students' answers are not encrypted; padlab keeps no more than them\n");
    fflush(stdout);
    return 0;
}

static int serve(Present *p, const ClassPresentArgs *o) {
    if (open_class(p, o)) return 2;
    catch_stops(); /* before the terminal is changed: a signal always finds it restorable */
    struct termios saved, raw;
    p->tty = isatty(STDIN_FILENO) && !tcgetattr(STDIN_FILENO, &saved);
    raw = saved;
    raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
    if (p->tty) tcsetattr(STDIN_FILENO, TCSANOW, &raw);
    p->step = -1;
    p->curses = p->tty && isatty(STDOUT_FILENO);
    int rc = cp_go_step(p, p->s.step, !p->curses) ? 1 : 0;
    if (!rc && p->s.resumed) pl_class_resume_now(p->c); /* the round and phase it was in */
    cp_keep(p, 1);
    if (!rc && (!p->curses || cp_projector_run(p) < 0)) p->curses = 0, loop(p);
    if (!rc && p->f->exam && !cp_stopped()) exam_end(p);
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
    if (found == -2) return fprintf(stderr, "padlab lesson: out of memory while looking for the lesson\n"), 1;
    if (found) return fprintf(stderr, "padlab lesson: no lesson '%s' (padlab lesson --list)\n", o->lesson), 2;
    if (!(p.l = pl_lesson_load(path, &err))) return fprintf(stderr, "%s\n", err.msg), 2;
    p.lab = pl_lab_new(o->settings, &err);
    p.run = p.lab ? pl_lesson_run_new(p.lab, p.l, 0, &err) : NULL;
    int rc = p.run ? serve(&p, o) : (fprintf(stderr, "padlab lesson: %s\n", err.msg), 2);
    pl_class_server_stop(p.server);
    pl_class_session_done(&p.s);
    if (p.pres >= 0) close(p.pres);
    pl_lesson_run_free(p.run);
    pl_lab_free(p.lab);
    pl_lesson_free(p.l);
    return rc;
}
