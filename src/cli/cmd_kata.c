/* padlab kata: coding katas checked on real batches. List them, show one,
 * emit its cases, check an attempt (a file of outputs, or the candidate's
 * own program run on each case), and check kata files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/kata/attempt.h"
#include "app/kata/run.h"
#include "app/teach/drill_book.h"
#include "cli.h"

#define MAX_KATAS 256

static const char *const formats[] = {"json", "npy", NULL};

/* ---- attempts kept: a kata is a card of the drill book (deck "katas") ---- */

/* "due today", "due 2026-04-07", or "not tried yet", of kata name in b. */
static void kata_due(const PlDrillBook *b, const char *name, int today, char *out, size_t cap) {
    const PlDrillRecord *r = pl_drill_book_find(b, "katas", name);
    char day[16];
    if (!r || r->s.state == PL_CARD_NEW) snprintf(out, cap, "not tried yet");
    else if (pl_sched_is_due(&r->s, today)) snprintf(out, cap, "due today");
    else pl_sched_day_text((int)pl_sched_day(r->s.due), day, sizeof day), snprintf(out, cap, "due %s", day);
}

/* The attempt graded in the drill book: right comes back days later (easy), wrong
 * again today (again). Says when it is due; a book that cannot be kept is
 * said on stderr and changes no status. */
static void keep_attempt(const PlKata *k, int right) {
    PlDrillBook b;
    PlErr err;
    char due[40];
    if (pl_drill_book_load(&b, &err) ||
        pl_drill_book_grade(&b, "katas", k->name, right ? PL_GRADE_EASY : PL_GRADE_AGAIN, pl_sched_now()) ||
        pl_drill_book_save(&b, &err)) {
        fprintf(stderr, "padlab kata: the attempt is not kept in the drill book: %s\n", err.msg);
    } else {
        kata_due(&b, k->name, pl_sched_today(), due, sizeof due);
        printf("kept in your drill book: %s %s\n", k->name, due);
    }
    pl_drill_book_done(&b);
}

/* ---- --list ---- */

static int list_katas(const CliArgs *a) {
    char(*paths)[1024] = malloc(MAX_KATAS * sizeof *paths);
    int n = paths ? pl_kata_list(paths, MAX_KATAS) : -1, rc = 0, today = pl_sched_today();
    if (n < 0) return free(paths), cli_no_memory(a, "listing the katas");
    PlDrillBook b;
    PlErr berr;
    if (pl_drill_book_load(&b, &berr)) pl_drill_book_done(&b), pl_drill_book_init(&b, ""); /* read only: none kept */
    for (int i = 0; i < n; i++) {
        PlErr err;
        PlKata *k = pl_kata_load(paths[i], &err);
        if (!k) {
            fprintf(stderr, "%s: %s\n", a->cmd, err.msg);
            rc = 1;
            continue;
        }
        char due[40];
        kata_due(&b, k->name, today, due, sizeof due);
        cli_print_shown("%-20s %d cases  %-16s %s\n", k->name, k->task->ncases, due, k->about ? k->about : k->title);
        pl_kata_free(k);
    }
    free(paths);
    pl_drill_book_done(&b);
    return rc;
}

/* ---- --check FILE... ---- */

static int check_files(const CliArgs *a) {
    int bad = 0;
    if (a->npos < 1) return cli_usage_error(a, "--check takes kata files (padlab kata --check katas/*.kata)");
    PlProblems *probs = malloc(sizeof *probs);
    if (!probs) return cli_no_memory(a, "checking the katas");
    for (int i = 0; i < a->npos; i++) {
        memset(probs, 0, sizeof *probs);
        PlKata *k = pl_kata_check(a->pos[i], probs);
        if (k) printf("%s: ok, %s, %d cases\n", a->pos[i], k->task->name, k->task->ncases);
        for (int p = 0; p < probs->n; p++) fprintf(stderr, "%s\n", probs->at[p].msg);
        if (probs->more) fprintf(stderr, "%s: %d more problems\n", a->pos[i], probs->more);
        bad |= !k;
        pl_kata_free(k);
    }
    free(probs);
    return bad ? 2 : 0;
}

/* ---- finding a kata and its cases ---- */

static PlKata *find(const CliArgs *a, const char *name) {
    char path[1024];
    int f = pl_kata_find(name, path, sizeof path);
    if (f == -2) return cli_no_memory(a, "looking for the kata"), NULL;
    if (f) return cli_usage_error(a, "no kata named '%s' (padlab kata --list shows them)", name), NULL;
    PlErr err;
    PlKata *k = pl_kata_load(path, &err);
    if (!k) fprintf(stderr, "%s: %s\n", a->cmd, err.msg);
    return k;
}

/* The kata's cases from --corpus: 0, or the exit status. */
static int cases_of(const CliArgs *a, const PlKata *k, PlKCase **cases) {
    PlCorpus *c;
    int rc = cli_load_corpus(a, &c);
    if (rc) return rc;
    *cases = calloc((size_t)k->task->ncases, sizeof **cases);
    PlStatus st = *cases ? pl_ktask_cases(k->task, c, *cases) : PL_ENOMEM;
    pl_corpus_free(c);
    if (st) return free(*cases), *cases = NULL, cli_no_memory(a, "computing the cases");
    return 0;
}

static void free_cases(const PlKata *k, PlKCase *cases) {
    for (int i = 0; cases && i < k->task->ncases; i++) pl_kcase_done(&cases[i]);
    free(cases);
}

/* ---- show ---- */

static void show_args(const char *label, const PlKArg *args, int n) {
    printf("%s\n", label);
    for (int i = 0; i < n; i++)
        printf("  %-18s %-8s %s\n", args[i].name, pl_ktype_name(args[i].type),
               args[i].dims[0] ? args[i].dims : "scalar");
}

/* text's paragraphs (one a line, as doc.c joins them) wrapped to 78
 * columns, a blank line between them. */
static void print_wrapped(const char *text) {
    enum { WIDTH = 78 };
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, "\n");
        const char *end = p + len;
        while (p < end) {
            size_t take = (size_t)(end - p);
            if (take > WIDTH) {
                take = WIDTH;
                while (take > 0 && p[take] != ' ') take--;
                if (!take) take = WIDTH;
            }
            cli_print_shown("%.*s\n", (int)take, p);
            p += take;
            while (p < end && *p == ' ') p++;
        }
        p = *end ? end + 1 : end;
        if (*p && strncmp(p, "- ", 2) != 0) cli_print_shown("\n"); /* paragraphs apart, a list's items together */
    }
}

static int show(const CliArgs *a, const PlKata *k) {
    (void)a;
    cli_print_shown("%s\n", k->title);
    for (int i = 0; i < k->nsec; i++) {
        cli_print_shown("\n%s\n", k->sec[i].title);
        print_wrapped(k->sec[i].text);
    }
    printf("\n");
    show_args("Inputs", k->task->in, k->task->nin);
    show_args("Outputs", k->task->out, k->task->nout);
    printf("\npadlab kata emit %s          the %d cases, as JSON\n", k->name, k->task->ncases);
    printf("padlab kata check %s --run 'python3 your.py'   your program on each case\n", k->name);
    return 0;
}

/* ---- emit ---- */

static int emit(const CliArgs *a, const PlKata *k) {
    int fmt;
    if (cli_choice(a, "format", "json", formats, &fmt)) return 2;
    const char *out = cli_str(a, "out", NULL);
    if (fmt == 1 && !out) return cli_usage_error(a, "--format npy writes files: give the folder with --out DIR");
    PlKCase *cases;
    int rc = cases_of(a, k, &cases);
    if (rc) return rc;
    PlErr err;
    if (!out) rc = pl_kata_emit_json(stdout, k, cases) ? 1 : 0;
    else if (pl_kata_emit_dir(out, k, cases, fmt == 1, &err)) rc = 1, fprintf(stderr, "%s: %s\n", a->cmd, err.msg);
    else
        printf("%s: %d cases in %s (%s)\n", k->name, k->task->ncases, out,
               fmt ? "case1/NAME.npy, ..." : "case1.json, ...");
    free_cases(k, cases);
    return rc;
}

/* ---- check ---- */

static int verdict(const CliArgs *a, const PlKata *k, int v, int passed, const char *msg) {
    int sig = pl_krun_stopped();
    if (sig)
        return fprintf(stderr,
                       "padlab kata: stopped by signal %d: the program's processes and its cases' folder are gone\n",
                       sig),
               128 + sig;
    if (v < 0) return fprintf(stderr, "padlab kata: %s\n", msg), 2;
    if (v == PL_KCHECK_WRONG) {
        printf("%s: wrong, %d of %d cases pass\n%s\n", k->name, passed, k->task->ncases, msg);
        if (!cli_flag(a, "no-book")) keep_attempt(k, 0);
        return 1;
    }
    printf("%s: all %d cases pass\n", k->name, k->task->ncases);
    if (!cli_flag(a, "no-book")) keep_attempt(k, 1);
    return 0;
}

static int check_file(const CliArgs *a, const PlKata *k, const PlKCase *cases, const char *file) {
    size_t n;
    PlErr err;
    char *text = pl_kata_read_answers(file, &n, &err);
    if (!text) return fprintf(stderr, "%s: %s\n", a->cmd, err.msg), 2;
    PlJson *j = pl_json_parse(text, n, &err);
    free(text);
    if (!j) return fprintf(stderr, "%s: %s: %s\n", a->cmd, file, err.msg), 2;
    char msg[4000];
    int passed, v = pl_kata_check_answers(k, cases, j, &passed, msg, sizeof msg);
    pl_json_free(j);
    if (v < 0) return fprintf(stderr, "%s: %s: %s\n", a->cmd, file, msg), 2;
    return verdict(a, k, v, passed, msg);
}

static int check(const CliArgs *a, const PlKata *k) {
    const char *command = cli_str(a, "run", NULL);
    int seconds;
    if (cli_int(a, "timeout", 30, 1, 3600, &seconds)) return 2;
    if (!command == (a->npos < 3))
        return cli_usage_error(a, "check takes a file of outputs or --run 'COMMAND', one of them");
    if (command && !*command) return cli_usage_error(a, "--run takes the command that runs your program");
    PlKCase *cases;
    int rc = cases_of(a, k, &cases);
    if (rc) return rc;
    if (command) {
        char msg[4000];
        int passed, v = pl_kata_check_run(k, cases, command, seconds, &passed, msg, sizeof msg);
        rc = verdict(a, k, v, passed, msg);
    } else {
        rc = check_file(a, k, cases, a->pos[2]);
    }
    free_cases(k, cases);
    return rc;
}

static int run(const CliArgs *a) {
    pl_drill_book_use_days(); /* today as the learner's days count it */
    if (cli_flag(a, "list")) return a->npos ? cli_usage_error(a, "--list takes no argument") : list_katas(a);
    if (cli_flag(a, "check")) return check_files(a);
    const char *verb = a->npos ? a->pos[0] : "";
    int show_v = !strcmp(verb, "show"), emit_v = !strcmp(verb, "emit"), check_v = !strcmp(verb, "check");
    if (!show_v && !emit_v && !check_v)
        return cli_usage_error(a, "expected --list, --check FILE, show NAME, emit NAME or check NAME FILE%s%s",
                               *verb ? ", got " : "", verb);
    if (a->npos < 2) return cli_usage_error(a, "%s takes the kata's name (padlab kata --list shows them)", verb);
    if (a->npos > (check_v ? 3 : 2))
        return cli_usage_error(a, "%s takes %s, got '%s' too", verb, check_v ? "a kata and a file" : "one kata",
                               a->pos[check_v ? 3 : 2]);
    PlKata *k = find(a, a->pos[1]);
    if (!k) return 2;
    int rc = show_v ? show(a, k) : emit_v ? emit(a, k) : check(a, k);
    pl_kata_free(k);
    return rc;
}

/* clang-format off */
static const CliOpt opts[] = {
    {"list", NULL, "the katas, one a line, with when each is due again"},
    {"no-book", NULL, "check: keep no record of the attempt (by default it goes into the drill book)"},
    {"check", NULL, "check kata files: every problem as FILE:LINE: message"},
    {"format", "FMT", "emit: json (default) or npy (one .npy file per array; needs --out)"},
    {"out", "DIR", "emit: write each case into DIR (case1.json, or case1/NAME.npy)"},
    {"run", "COMMAND", "check: run COMMAND (by /bin/sh -c) on each case: the case's JSON on its stdin,\n"
                       "its path in $PADLAB_KATA_CASE; it prints its outputs as one JSON object"},
    {"timeout", "SECONDS",
     "check --run: stop the program (its whole process tree) after this long on a case (default 30: room for "
     "import torch, under a second here idle and 3-5 s on a loaded 2-core machine)"},
    CLI_OPT_CORPUS,
    {NULL, NULL, NULL},
};
/* clang-format on */

const CliCommand cli_cmd_kata = {
    .name = "kata",
    .summary = "coding katas: write the masking code yourself, checked on cases from your corpus",
    .usage = "--list | show NAME | emit NAME [--format json|npy] [--out DIR] |\n"
             "                    check NAME FILE | check NAME --run 'COMMAND' [--timeout S] | --check FILE...",
    .details = "A kata is a task from an ML interview's coding round (pad_sequences, masks in each\n"
               "convention, masked softmax and pooling, the loss over -100 labels, position ids,\n"
               "cu_seqlens, buckets). emit writes its cases, computed by padlab from --corpus, with\n"
               "the edge cases toy checkers miss; check names the first wrong cell, what it should\n"
               "be and why. Exit status: 0 every case passes, 1 a wrong answer, 2 bad input. Katas\n"
               "are read from $PADLAB_KATAS, $XDG_DATA_HOME/padlab/katas and the installed ones;\n"
               "doc/katas.md tells how to write one.",
    .opts = opts,
    .settings = CLI_CORPUS,
    .max_pos = 64, /* --check takes many files */
    .run = run,
    .interactive = 1, /* a wrong attempt's message is the output, with status 1: never held back */
};
