/* A class session in the window (class_run.h). */
#include "class_run.h"
#include "core/stops.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig) { stop_signal = sig; }

static int64_t wall_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int gui_class_signal(void) { return stop_signal; }

/* INT, TERM, HUP and QUIT end the class through the window's loop (SDL
 * would turn the first two into a quiet quit, the others would kill it). */
static void catch_stops(void) { pl_stops_catch(on_stop, NULL); }

int gui_class_start(GuiClass *k, PlLessonPlay *lesson, PlLab *lab, const PlLabSettings *settings, const GuiClassArgs *a,
                    char *why, int cap) {
    memset(k, 0, sizeof *k);
    PlClassSessionArgs sa = {.l = lesson->lesson,
                             .settings = settings,
                             .exam = a->exam,
                             .fresh = a->fresh,
                             .report = a->report,
                             .wall_ms = wall_ms,
                             .unkept = a->unkept};
    if (pl_class_session_open(&k->s, &sa, why, cap)) return -1;
    if (why[0]) fprintf(stderr, "padlab gui: %s\n", why);
    if (!(k->server = pl_class_server_start(k->s.c, a->listen, a->port, why, cap))) return -1;
    pl_class_server_set_seats_per_address(k->server, a->seats);
    if (pl_class_server_url(k->server, a->listen, k->url, sizeof k->url))
        printf("class: this machine has no address on a network: only it reaches %s\n", k->url);
    k->box = (GuiClassBox){&k->s.f, k->url, -1, -1};
    k->picture = a->unkept;
    PlErr err;
    if (k->s.resumed && pl_lesson_run_goto(lesson->run, k->s.step, &err))
        fprintf(stderr, "padlab gui: the class was at step %d: %s\n", k->s.step + 1, err.msg);
    pl_class_session_say_resumed(&k->s, stdout);
    printf("class: serving %s code %s\n", k->url, k->s.meta.code);
    printf("class: plain HTTP on this network: students' answers are not encrypted; padlab keeps no more than them\n");
    fflush(stdout);
    catch_stops();
    k->s.f.step = -1;
    gui_class_tick(k, lesson, lab, 0);             /* its step open to the class */
    if (k->s.resumed) pl_class_resume_now(k->s.c); /* the round and phase it was in */
    return 0;
}

/* The step's question's words filled from the lab as the learner may see them. */
static void fill(GuiClass *k, PlLessonPlay *lesson, PlLab *lab, int open_step) {
    pl_lesson_run_sync_ledger(lesson->run);
    pl_lesson_run_question_ledger(lesson->run, &k->ask);
    k->s.f.ask_ledger = &k->ask;
    if (open_step >= 0) pl_class_follow_step(&k->s.f, lab, open_step);
    else pl_class_follow_refresh(&k->s.f, lab);
}

/* Whether step's question was revealed to the class (not in an exam). */
static int revealed(GuiClass *k, int step) {
    int qi = pl_class_follow_question(&k->s.f, step);
    PlClassTally t;
    return qi >= 0 && !k->s.f.exam && !pl_class_tally(k->s.c, qi, &t) && t.revealed;
}

int gui_class_tick(GuiClass *k, PlLessonPlay *lesson, PlLab *lab, double now) {
    if (!k->box.f || !lesson->run) return 0;
    const PlLessonState *st = pl_lesson_run_state(lesson->run);
    int changed = 0;
    if (st->step != k->s.f.step) { /* a new step: its question opens now, its numbers in or not */
        if (revealed(k, st->step)) pl_lesson_run_reveal(lesson->run);
        fill(k, lesson, lab, st->step);
        k->computing = 1, changed = 1;
    }
    double share = -1, eta = -1;
    int computing = pl_lesson_run_computing(lesson->run, &share, &eta);
    if (k->computing && !computing) fill(k, lesson, lab, -1), changed = 1;
    k->computing = computing;
    k->box.share = computing ? share : -1, k->box.eta = eta;
    pl_class_session_keep(&k->s, st->step, 0);
    PlClassNow n;
    pl_class_now(k->s.c, &n);
    int students = pl_class_students(k->s.c);
    changed |= n.version != k->seen || students != k->students;
    if ((n.countdown > 0 || computing) && (long)now != k->second) changed = 1;
    k->seen = n.version, k->students = students, k->second = (long)now;
    return changed;
}

/* r: the number the lab has now, and the figure shown on every surface. */
static void reveal(GuiClass *k, PlLessonPlay *lesson, PlLab *lab) {
    PlClassFollow *f = &k->s.f;
    if (k->computing && !f->exam) {
        if (k->box.eta >= 0)
            snprintf(f->note, sizeof f->note, "the lab is still computing this step: ready to reveal in about %.0f s",
                     k->box.eta < 1 ? 1 : k->box.eta);
        else snprintf(f->note, sizeof f->note, "the lab is still computing this step: r once it is done");
        return;
    }
    if (pl_class_follow_reveal(f, lab)) return;
    pl_lesson_run_reveal(lesson->run); /* the pane shows the lesson's explanation, the view the figure */
    pl_lesson_run_sync_ledger(lesson->run);
}

int gui_class_key(GuiClass *k, PlLessonPlay *lesson, PlLab *lab, int ch) {
    PlClassFollow *f = &k->s.f;
    if (!k->box.f || !lesson->run || lesson->explore) return 0;
    int quitting = k->quitting;
    k->quitting = 0;
    if (ch == 'q' && quitting) return 2;
    if (ch == 'q') {
        k->quitting = 1;
        snprintf(f->note, sizeof f->note, "q again ends the class for everyone; any other key goes on");
        return 1;
    }
    if (quitting) f->note[0] = '\0';
    if (ch == 'r') return reveal(k, lesson, lab), 1;
    if (ch == 'v') return f->note[0] = '\0', pl_class_follow_again(f), 1;
    if (ch != 't') return 0;
    PlClassNow n;
    pl_class_now(k->s.c, &n);
    if (pl_class_follow_question(f, f->step) < 0 || n.phase != PL_CLASS_OPEN)
        snprintf(f->note, sizeof f->note, "a countdown is for a question open to the class");
    else f->note[0] = '\0', pl_class_countdown(k->s.c, n.countdown > 0 ? 0 : 60);
    return 1;
}

int gui_class_end(GuiClass *k, const char *title) {
    char why[300], written[1100];
    if (!k->box.f) return 0;
    pl_class_follow_end(&k->s.f, NULL, NULL); /* an exam: every question reached revealed, on every page */
    int sig = stop_signal, rc = 0;
    int failed = pl_class_session_end(&k->s, k->s.f.step, title, written, sizeof written, why, sizeof why);
    if (written[0]) printf("class report: %s\n", written);
    if (failed) fprintf(stderr, "padlab gui: %s\n", why), rc = 1;
    if (!sig && !k->picture) usleep(2500000); /* the pages poll each second: they see the end before the server stops */
    pl_class_server_stop(k->server), k->server = NULL;
    if (sig)
        fprintf(stderr, "padlab gui: the class ended on signal %d%s\n", sig, written[0] ? ", its report written" : "");
    return sig ? 128 + sig : rc;
}

void gui_class_done(GuiClass *k) {
    pl_class_server_stop(k->server);
    pl_class_session_done(&k->s);
    memset(k, 0, sizeof *k);
}
