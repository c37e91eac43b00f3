/* padlab lesson: list, check, play and rehearse lessons; forget progress. */
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/class/limit.h"
#include "app/teach/drill_book.h"
#include "app/teach/lesson_run.h"
#include "app/teach/renamed.h"
#include "class_present.h"
#include "cli.h"
#include "lesson_handout.h"
#include "lines.h"
#include "tui/tui.h"

#define ALL_SETTINGS ((1u << PL_S_COUNT) - 1)
#define MAX_LESSONS 256

/* ---- --list ---- */

static int list_lessons(const CliArgs *a, OutFormat fmt) {
    char(*paths)[1024] = malloc(MAX_LESSONS * sizeof *paths);
    PlProgressBook *book = calloc(1, sizeof *book);
    PlErr err;
    int n = book && paths ? pl_lesson_list(paths, MAX_LESSONS) : -1, rc = 0;
    if (n < 0) return free(paths), free(book), cli_no_memory(a, "listing the lessons");
    PlStatus st = pl_progress_load(book, &err);
    if (st == PL_ENOMEM) return free(paths), free(book), cli_no_memory(a, "reading the progress book");
    if (st) book->n = 0; /* the list still shows; progress is extra (not when memory ran out: it would lie) */
    if (book->notice[0]) fprintf(stderr, "%s: %s\n", a->cmd, book->notice);
    JsonW w;
    if (fmt == OUT_JSON) json_begin_array(&w, stdout);
    for (int i = 0; i < n; i++) {
        PlLesson *l = pl_lesson_load(paths[i], &err);
        if (!l) {
            fprintf(stderr, "%s: %s\n", a->cmd, err.msg);
            rc = 1;
            continue;
        }
        const PlLessonProgress *p = pl_progress_of(book, l->name);
        if (fmt == OUT_JSON) {
            json_obj(&w, NULL);
            json_str(&w, "name", l->name);
            json_str(&w, "title", l->title);
            json_int(&w, "steps", l->nsteps);
            json_int(&w, "minutes", l->minutes);
            json_str(&w, "level", l->level ? l->level : "");
            json_close(&w, '}');
        } else {
            char where[48] = "";
            if (p && p->done) snprintf(where, sizeof where, "done");
            else if (p && p->step) snprintf(where, sizeof where, "at step %d", p->step + 1);
            cli_print_shown("%-26s %-12s %3d steps %4d min  %-10s %s\n", l->name, l->level ? l->level : "", l->nsteps,
                            l->minutes, where, l->title);
        }
        pl_lesson_free(l);
    }
    if (fmt == OUT_JSON) json_end_array(&w);
    pl_progress_done(book);
    free(book);
    free(paths);
    return rc;
}

/* ---- --check ---- */

/* Every problem of every file, each FILE:LINE: message, so that a teacher
 * fixes a lesson in one pass. */
static int check_files(const CliArgs *a) {
    int bad = 0;
    if (!a->npos) return cli_usage_error(a, "--check takes lesson files (padlab lesson --check lessons/*.lesson)");
    PlProblems *probs = malloc(sizeof *probs);
    if (!probs) return fprintf(stderr, "%s: out of memory\n", a->cmd), 2;
    for (int i = 0; i < a->npos; i++) {
        memset(probs, 0, sizeof *probs);
        PlLesson *l = pl_lesson_check(a->pos[i], probs);
        if (l) printf("%s: ok, %d steps\n", a->pos[i], l->nsteps);
        for (int k = 0; k < probs->n; k++) fprintf(stderr, "%s\n", probs->at[k].msg);
        if (probs->more) fprintf(stderr, "%s: %d more problems\n", a->pos[i], probs->more);
        bad |= !l;
        pl_lesson_free(l);
    }
    free(probs);
    return bad;
}

/* ---- --reset ---- */

static int confirm(const CliArgs *a, const char *what) {
    if (cli_flag(a, "yes")) return 1;
    if (!isatty(STDIN_FILENO)) {
        cli_usage_error(a, "forgetting %s needs --yes when nobody can be asked", what);
        return -1;
    }
    printf("forget %s? [y/N] ", what);
    fflush(stdout);
    char line[16];
    return fgets(line, sizeof line, stdin) && (line[0] == 'y' || line[0] == 'Y');
}

static int reset(const CliArgs *a, const char *name) {
    PlProgressBook *book = calloc(1, sizeof *book);
    PlErr err;
    if (!book) return fprintf(stderr, "%s: out of memory\n", a->cmd), 1;
    int rc = 0;
    char what[200];
    if (name && pl_lesson_renamed(name)) name = pl_lesson_renamed(name); /* the book reads it under its new name */
    snprintf(what, sizeof what, name ? "your progress in %.100s" : "your progress in every lesson", name);
    if (pl_progress_load(book, &err)) fprintf(stderr, "%s: %s\n", a->cmd, err.msg), rc = 1;
    else if (book->notice[0]) fprintf(stderr, "%s: %s\n", a->cmd, book->notice);
    int ok = rc ? 0 : confirm(a, what);
    if (ok < 0) rc = 2;
    else if (ok && name && !pl_progress_forget(book, name)) printf("no progress kept for %s\n", name);
    else if (ok) {
        if (!name) pl_progress_forget_all(book);
        if (pl_progress_save(book, &err)) fprintf(stderr, "%s: %s\n", a->cmd, err.msg), rc = 1;
        else printf("forgot %s\n", what + 5);
    }
    pl_progress_done(book);
    free(book);
    return rc;
}

/* ---- --answers: every question with the lab's number, no terminal ---- */

static int rehearse_step(PlLab *lab, PlLessonRun *r, int k) {
    const PlStep *s = pl_lesson_run_step(r);
    const PlQuestion *q = &s->q;
    char buf[2000], name[96];
    PlErr err;
    if (pl_lesson_run_play_key(r, &err)) return printf("  step %d: %s\n", k + 1, err.msg), 1;
    if (q->kind == PL_Q_NONE && !s->notes) return 0;
    cli_print_shown("step %d, %s\n", k + 1, s->title);
    int rc = cli_print_filled(lab, "notes: ", s->notes);
    if (q->kind == PL_Q_NONE) return rc;
    rc |= cli_print_filled(lab, "", q->prompt);
    if (q->kind == PL_Q_ASK) {
        double v;
        if (pl_quantity_value(lab, &q->answer, &v, buf, sizeof buf))
            return printf("  cannot compute the answer: %s\n", buf), 1;
        printf("  answer: %s = %s\n", pl_quantity_name(&q->answer, name, sizeof name),
               pl_quantity_format(&q->answer, v, buf, sizeof buf));
    } else if (q->kind == PL_Q_CHOOSE) {
        for (int c = 0; c < q->nchoices; c++) /* no letter: each learner sees the choices in an order of their own */
            if (q->choices[c].right) rc |= cli_print_filled(lab, "answer: ", q->choices[c].text);
    } else {
        printf("  goal: %d condition%s%s\n", q->ngoal, q->ngoal > 1 ? "s" : "",
               q->smallest >= 0 ? ", the smallest value" : "");
        rc |= cli_print_filled(lab, "solution: ", q->solution); /* filled in the solved lab */
        rc |= cli_print_filled(lab, "reveal: ", q->reveal);
    }
    return rc;
}

static int rehearse(const CliArgs *a, const PlLabSettings *s, const char *name) {
    char path[1024];
    PlErr err;
    int found = pl_lesson_find(name, path, sizeof path);
    if (found == -2) return cli_no_memory(a, "looking for the lesson");
    if (found) return cli_usage_error(a, "no lesson '%s' (padlab lesson --list)", name);
    PlLesson *l = pl_lesson_load(path, &err);
    if (!l) return fprintf(stderr, "%s\n", err.msg), 2;
    PlLab *lab = pl_lab_new(s, &err);
    PlLessonRun *r = lab ? pl_lesson_run_new(lab, l, 0, &err) : NULL;
    int rc = 0;
    if (!r) fprintf(stderr, "%s: %s\n", a->cmd, err.msg), rc = 2;
    else cli_print_shown("%s: %s, %d steps, on %s\n\n", l->name, l->title, l->nsteps, pl_lab_settings(lab)->corpus);
    if (r && l->notes) rc |= cli_print_filled(lab, "notes: ", l->notes), putchar('\n');
    for (int k = 0; r && k < l->nsteps; k++) {
        if (k && pl_lesson_run_goto(r, k, &err)) {
            fprintf(stderr, "%s: step %d: %s\n", a->cmd, k + 1, err.msg);
            rc = 2;
            break;
        }
        rc |= rehearse_step(lab, r, k);
    }
    pl_lesson_run_free(r);
    pl_lab_free(lab);
    pl_lesson_free(l);
    return rc;
}

/* ---- --quantities ---- */

static int list_quantities(void) {
    for (int i = 0; i < pl_quantity_count(); i++) printf("  %-34s %s\n", pl_quantity_pattern(i), pl_quantity_help(i));
    printf("  %-34s %s\n", "SETTING",
           "any setting by its name (maxlen, padding, ...), compared with a value or a name");
    return 0;
}

/* ---- --class ---- */

static int class_session(const CliArgs *a, const PlLabSettings *s) {
    static const char *const outputs[] = {"report", NULL};
    const char *report = cli_str(a, "report", NULL);
    struct stat st; /* a folder takes the report's files (pl_class_report_path); anything else must be a file */
    int folder = report && !stat(report, &st) && S_ISDIR(st.st_mode);
    if (!folder && cli_outputs_regular(a, outputs)) return 2; /* not after the class: before it */
    ClassPresentArgs o = {.lesson = a->pos[0],
                          .settings = s,
                          .listen = cli_str(a, "listen", "127.0.0.1"),
                          .report = report,
                          .exam = cli_flag(a, "exam"),
                          .presenter = cli_str(a, "presenter", NULL),
                          .fresh = cli_flag(a, "new")};
    if (cli_int(a, "port", 8765, 0, 65535, &o.port)) return 2;
    if (cli_int(a, "seats-per-address", PL_CLASS_SEATS_PER_ADDRESS, 0, PL_CLASS_MAX_STUDENTS, &o.seats)) return 2;
    return cli_class_present(&o);
}

static int run(const CliArgs *a) {
    pl_drill_book_use_days(); /* today as the learner's days count it */
    OutFormat fmt;
    if (cli_format(a, &fmt)) return 2;
    PlLabSettings s = pl_settings_default();
    unsigned given;
    if (cli_read_settings(a, ALL_SETTINGS, &s, &given)) return 2;
    if (cli_flag(a, "list")) return list_lessons(a, fmt);
    if (cli_flag(a, "check")) return check_files(a);
    if (cli_flag(a, "quantities")) return list_quantities();
    if (cli_flag(a, "reset-all")) return reset(a, NULL);
    if (cli_flag(a, "reset"))
        return a->npos == 1 ? reset(a, a->pos[0]) : cli_usage_error(a, "--reset takes one lesson's name");
    int review = cli_flag(a, "review");
    if (review && a->npos) return cli_usage_error(a, "--review asks the questions due from every lesson: no name");
    if (!review && a->npos != 1)
        return cli_usage_error(a, "expected a lesson's name (padlab lesson --list shows them)");
    if (cli_flag(a, "answers")) return rehearse(a, &s, a->pos[0]);
    if (cli_str(a, "handout", NULL)) return cli_lesson_handout(a, &s, a->pos[0], cli_str(a, "handout", NULL));
    if (cli_flag(a, "class")) return class_session(a, &s);
    static const char *const of_class[] = {"exam", "presenter", "listen", "port", "report", "new", "seats-per-address"};
    for (size_t i = 0; i < sizeof of_class / sizeof *of_class; i++)
        if (cli_flag(a, of_class[i]))
            return cli_usage_error(a, "--%s is a class session's: give --class too", of_class[i]);
    if (cli_flag(a, "lines")) {
        if (review) return cli_usage_error(a, "--lines plays one lesson: give its name");
        return cli_lesson_lines(a, &s, a->pos[0]);
    }
    TuiArgs t;
    memset(&t, 0, sizeof t);
    t.settings = s, t.given = given;
    t.screen.mono = cli_flag(a, "mono");
    t.screen.ascii = cli_flag(a, "ascii");
    t.lesson = review ? NULL : a->pos[0];
    t.review = review;
    t.present = cli_flag(a, "present");
    char why[256];
    int rc = tui_run(&t, why, sizeof why);
    if (rc >= 0) return rc;
    if (review)
        fprintf(stderr, "%s: %s: a review plays in a terminal (padlab drill --list counts what is due)\n", a->cmd, why);
    else
        fprintf(stderr, "%s: %s: a lesson plays in a terminal (padlab lesson --answers %s prints its questions)\n",
                a->cmd, why, a->pos[0]);
    return 2;
}

static const CliOpt opts[] = {
    {"list", NULL, "the lessons there are: name, level, steps, minutes, your progress, title"},
    {"check", NULL, "validate the lesson files given; every error as FILE:LINE: message"},
    {"answers", NULL,
     "play the lesson without a terminal and print each question with the lab's answer and the teacher's notes"},
    {"review", NULL, "the questions you answered in lessons that are due again today, each at its step"},
    {"present", NULL, "classroom mode: the narration large beside one view, no key bar"},
    {"lines", NULL,
     "line by line for a screen reader: every step, question, answer and view's figures as plain sentences; "
     "answers read a line at a time"},
    {"class", NULL, "a class session: students vote on each question from a browser or padlab join"},
    CLI_OPTS_CLASS,
    {"handout", "DIR",
     "a printable worksheet (NAME.md, the asked figures blanked) and its answer key (NAME-key.md), figures as SVG"},
    CLI_OPT_EXAM,
    {"presenter", "TTY",
     "with --class: the presenter view (notes, clocks, answers) on the terminal TTY (run tty there)"},
    {"reset", NULL, "forget your progress in the lesson given (asks first)"},
    {"reset-all", NULL, "forget your progress in every lesson (asks first)"},
    {"yes", NULL, "with --reset or --reset-all: do not ask"},
    {"quantities", NULL, "the quantities a lesson's answers and {placeholders} may name"},
    {"mono", NULL, "no colours"},
    {"ascii", NULL, "no Unicode block characters"},
    CLI_OPT_FORMAT,
    {NULL, NULL, NULL},
};

const CliCommand cli_cmd_lesson = {
    .name = "lesson",
    .summary = "lessons that set the lab up, ask you to predict, and reveal the lab's numbers",
    .usage =
        "NAME [--present] [--lines] [--mono] [--ascii] [--class [--listen ADDR] [--port N] [--report FILE] [--exam]\n"
        "                     [--presenter TTY]]\n"
        "                     [--SETTING VALUE ...] | --review | --list [--format json] | --check FILE... | --answers NAME |\n"
        "                     --reset NAME [--yes] | --reset-all [--yes] | --quantities",
    .details = "Plays a lesson in the terminal lab: each step sets the lab up, points at a view,\n"
               "and asks a question whose answer is the number the lab computes right then.\n"
               "Space or Page Down goes on, Page Up goes back; a question takes a number (ask),\n"
               "a letter (choose) or Enter to check the lab (exercise); h gives a hint, s the\n"
               "solution after a try; Esc lets you work the lab, Esc again comes back.\n"
               "Each question's first answer in an opening is kept for review in the drill book\n"
               "(a miss comes back the next day, a right answer two days on, then at growing\n"
               "intervals): --review asks the due ones again, each at its step, and padlab\n"
               "drill --list and --plan count them.\n"
               "Lessons are read from $PADLAB_LESSONS, $XDG_DATA_HOME/padlab/lessons and the\n"
               "installed ones; progress is kept in $XDG_STATE_HOME/padlab/progress.\n"
               "doc/lesson-format.md tells how to write one.",
    .opts = opts,
    .settings = ALL_SETTINGS,
    .max_pos = 64,
    .run = run,
    .interactive = 1,
};
