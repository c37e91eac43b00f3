/* padlab drill: list, check and play decks; print the cheat sheet and the
 * answers; forget progress. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/lab/fill.h"
#include "app/teach/anki.h"
#include "app/teach/bugcase.h"
#include "app/teach/cheatsheet.h"
#include "app/teach/cloze.h"
#include "app/teach/drill.h"
#include "app/teach/drill_book.h"
#include "app/teach/lesson.h"
#include "app/teach/lesson_review.h"
#include "cli.h"
#include "core/atomic.h"
#include "drill_plan_cli.h"
#include "lines.h"
#include "tui/drill_screen.h"
#include "tui/tui.h"

#define ALL_SETTINGS ((1u << PL_S_COUNT) - 1)
#define MAX_DECKS 64
#define CASE_TIMEOUT 900.0

typedef enum { FMT_TABLE, FMT_JSON, FMT_MARKDOWN } Format;

/* --format: table (or text), json, markdown; which a mode takes is its own. */
static int read_format(const CliArgs *a, Format *f, unsigned allowed, const char *want) {
    static const char *const names[] = {"table", "json", "markdown", "text", NULL};
    int i;
    if (cli_choice(a, "format", "table", names, &i)) return 2;
    *f = i == 3 ? FMT_TABLE : (Format)i;
    if (!(allowed & (1u << *f))) return cli_usage_error(a, "--format here is %s", want);
    return 0;
}

/* Loads the decks named (all of them when none is), each by name or path. */
static int load_decks(const CliArgs *a, int from, PlDeck **decks, int *n) {
    *n = 0; /* the caller frees what is loaded, none when this fails */
    char(*paths)[1024] = malloc(MAX_DECKS * sizeof *paths);
    int np = 0, rc = 0;
    if (!paths) return cli_no_memory(a, "listing the decks");
    if (a->npos <= from && (np = pl_deck_list(paths, MAX_DECKS)) < 0)
        return free(paths), cli_no_memory(a, "listing the decks");
    for (int i = from; i < a->npos && np < MAX_DECKS; i++) {
        int found = pl_deck_find(a->pos[i], paths[np], 1024);
        if (found == -2) return free(paths), cli_no_memory(a, "looking for the deck");
        if (found == 0) np++;
        else rc = cli_usage_error(a, "no deck '%s' (padlab drill --list)", a->pos[i]);
    }
    for (int i = 0; i < np && !rc; i++) {
        PlErr err;
        if ((decks[*n] = pl_deck_load(paths[i], &err))) (*n)++;
        else fprintf(stderr, "%s\n", err.msg), rc = 2;
    }
    free(paths);
    return rc;
}

static void free_decks(PlDeck **decks, int n) {
    for (int i = 0; i < n; i++) pl_deck_free(decks[i]);
}

/* With no deck named, the lesson questions in review (lesson_review.h) as
 * one more deck, when book holds any: 0, or the status after its line. */
static int add_lesson_deck(const CliArgs *a, const PlDrillBook *book, PlDeck **decks, int *n) {
    PlErr err;
    if (a->npos || *n >= MAX_DECKS) return 0;
    PlDeck *d = pl_lesson_deck(book, pl_sched_today(), NULL, NULL, &err);
    if (!d) return cli_no_memory(a, "gathering the lesson questions in review");
    if (d->n) decks[(*n)++] = d;
    else pl_deck_free(d);
    return 0;
}

/* The same, reading the learner's drill book for it. */
static int with_lesson_deck(const CliArgs *a, PlDeck **decks, int *n) {
    PlDrillBook book;
    PlErr err;
    int rc = pl_drill_book_load(&book, &err) ? (fprintf(stderr, "%s: %s\n", a->cmd, err.msg), 1)
                                             : add_lesson_deck(a, &book, decks, n);
    pl_drill_book_done(&book);
    return rc;
}

/* ---- --list ---- */

static int list_decks(const CliArgs *a) {
    Format f;
    if (read_format(a, &f, (1u << FMT_TABLE) | (1u << FMT_JSON), "table or json")) return 2;
    PlDeck *decks[MAX_DECKS];
    int n, rc = load_decks(a, 0, decks, &n);
    PlDrillBook book;
    PlErr err;
    PlStatus st = pl_drill_book_load(&book, &err);
    if (st == PL_ENOMEM) { /* the due column would lie */
        pl_drill_book_done(&book);
        free_decks(decks, n);
        return rc ? rc : cli_no_memory(a, "reading the drill book");
    }
    if (st) book.n = 0; /* the list still shows; progress is extra */
    if (book.notice[0]) fprintf(stderr, "%s: %s\n", a->cmd, book.notice);
    if (!rc) rc = add_lesson_deck(a, &book, decks, &n);
    JsonW w;
    if (f == FMT_JSON) json_begin_array(&w, stdout);
    else printf("%-22s %-10s %5s %5s  %s\n", "deck", "kind", "count", "due", "title");
    for (int i = 0; i < n; i++) {
        if (f == FMT_JSON) {
            json_obj(&w, NULL);
            json_str(&w, "deck", decks[i]->name);
            json_str(&w, "kind", pl_deck_kind_name(decks[i]->kind));
            json_int(&w, "count", decks[i]->n);
            json_close(&w, '}');
        } else {
            cli_print_shown("%-22s %-10s %5d %5d  %s\n", decks[i]->name, pl_deck_kind_name(decks[i]->kind), decks[i]->n,
                            pl_drill_due_count(decks[i], &book, pl_sched_today()), decks[i]->title);
        }
    }
    if (f == FMT_JSON) json_end_array(&w);
    else if (!n && !rc) {
        char dirs[8][1024];
        int nd = pl_deck_dirs(dirs, 8);
        printf("no decks: looked in $PADLAB_DECKS, $XDG_DATA_HOME/padlab/decks and the installed decks%s\n",
               nd ? "" : " (none exists)");
    }
    pl_drill_book_done(&book);
    free_decks(decks, n);
    return rc;
}

/* ---- --check ---- */

/* Every problem of every file, each FILE:LINE: message, so that a teacher
 * fixes a deck in one pass. */
static int check_files(const CliArgs *a) {
    int bad = 0;
    if (!a->npos) return cli_usage_error(a, "--check takes deck files (padlab drill --check decks/*.deck)");
    PlProblems *probs = malloc(sizeof *probs);
    if (!probs) return fprintf(stderr, "%s: out of memory\n", a->cmd), 2;
    for (int i = 0; i < a->npos; i++) {
        memset(probs, 0, sizeof *probs);
        PlDeck *d = pl_deck_check(a->pos[i], probs);
        const char *noun = d ? pl_deck_item_noun(d->kind) : "";
        if (d)
            printf("%s: ok, %d %.*s\n", a->pos[i], d->n, (int)strlen(noun) - (d->n == 1), noun); /* 1 card, 2 cards */
        for (int k = 0; k < probs->n; k++) fprintf(stderr, "%s\n", probs->at[k].msg);
        if (probs->more) fprintf(stderr, "%s: %d more problems\n", a->pos[i], probs->more);
        bad |= !d;
        pl_deck_free(d);
    }
    free(probs);
    return bad;
}

/* ---- --cheatsheet ---- */

static int cheatsheet(const CliArgs *a, const PlLabSettings *s) {
    if (cli_flag(a, "one-page"))
        return a->npos ? cli_usage_error(a, "--cheatsheet --one-page takes no deck: it is one page for all")
               : pl_cheatsheet_one_page(stdout) ? 1
                                                : 0;
    Format f;
    int width;
    if (read_format(a, &f, (1u << FMT_TABLE) | (1u << FMT_MARKDOWN), "text or markdown")) return 2;
    if (cli_int(a, "width", 78, 40, 400, &width)) return 2;
    PlDeck *decks[MAX_DECKS];
    int n, rc = load_decks(a, 0, decks, &n);
    PlErr err;
    PlLab *lab = NULL;
    if (!rc && pl_cheatsheet_needs_lab(decks, n) && !(lab = pl_lab_new(s, &err)))
        fprintf(stderr, "%s: %s\n", a->cmd, err.msg), rc = 2;
    if (lab) pl_lab_autotrain(lab, 0);
    if (!rc && pl_cheatsheet_write(stdout, decks, n, lab, s, f == FMT_MARKDOWN ? PL_SHEET_MARKDOWN : PL_SHEET_TEXT,
                                   width, &err))
        fprintf(stderr, "%s: %s\n", a->cmd, err.msg), rc = 1;
    pl_lab_free(lab);
    free_decks(decks, n);
    return rc;
}

/* ---- --answers: every item's answer; every case measured, no terminal ---- */

static int case_answer(const PlDeck *d, const PlDeckItem *it, const PlLabSettings *s) {
    PlErr err;
    char name[96], x[160], y[160];
    PlBugRun *r = pl_bug_run_new(d, it, s, &err);
    if (!r) return printf("  cannot set the case up: %s\n", err.msg), 1;
    int rc = 0;
    if (pl_bug_run_wait(r, CASE_TIMEOUT) || pl_bug_run_state(r)->phase == PL_BUG_FAILED) rc = 1;
    else if (pl_bug_run_fix(r, &err) || pl_bug_run_wait(r, CASE_TIMEOUT) || pl_bug_run_state(r)->phase != PL_BUG_FIXED)
        rc = 1;
    const PlBugState *b = pl_bug_run_state(r);
    cli_print_shown("  the measure    %s\n", pl_deck_measure_label(it, -1));
    printf("  under the bug  %s = %s\n", pl_quantity_name(&it->symptom, name, sizeof name),
           pl_bug_value_format(&it->symptom, &b->symptom, x, sizeof x));
    printf("  with the fix   %s = %s\n", pl_quantity_name(&it->fixed, name, sizeof name),
           pl_bug_value_format(&it->fixed, &b->fixed, y, sizeof y));
    for (int i = 0; i < it->nalso; i++)
        printf("  also           %s: %s -> %s\n", pl_quantity_name(&it->also[i], name, sizeof name),
               pl_bug_value_format(&it->also[i], &b->also_bug[i], x, sizeof x),
               pl_bug_value_format(&it->also[i], &b->also_fix[i], y, sizeof y));
    if (rc) printf("  the case did not finish: %s\n", b->message);
    else
        printf("  %s (the case expects it %s)\n",
               b->holds ? "the fix moved it the way the case says" : "THE FIX DID NOT MOVE IT THE WAY THE CASE SAYS",
               it->expect < 0   ? "lower"
               : it->expect > 0 ? "higher"
                                : "changed");
    pl_bug_run_free(r);
    return rc || !b->holds;
}

/* The lab set to an item's settings with its figures computed, as the drill
 * screen fills them; 0, or 1 when they could not be (the figures print as
 * "..."). */
/* The lab set up for one item and its figures computed: 0, or 1 with why
 * filled (it could not be set up, or did not finish in time). */
static int item_setup(PlLab **lab, const PlDeck *d, const PlDeckItem *it, const PlLabSettings *s, char *why,
                      size_t cap) {
    PlLabSettings at;
    PlErr err;
    pl_deck_item_settings(s, d, it, &at);
    if (!*lab && (*lab = pl_lab_new(&at, &err))) pl_lab_autotrain(*lab, 0);
    else if (*lab && pl_lab_apply(*lab, &at, &err) < 0)
        return snprintf(why, cap, "cannot set the lab up: %.300s", err.msg), 1;
    if (!*lab) return snprintf(why, cap, "cannot set the lab up: %.300s", err.msg), 1;
    if (pl_lab_wait(*lab, pl_deck_item_kinds(it), CASE_TIMEOUT))
        return snprintf(why, cap, "the lab did not finish computing in time"), 1;
    return 0;
}

/* The same, saying why on a line of its own. */
static int item_lab(PlLab **lab, const PlDeck *d, const PlDeckItem *it, const PlLabSettings *s) {
    char why[400];
    int rc = item_setup(lab, d, it, s, why, sizeof why);
    if (rc) printf("  %s\n", why);
    return rc;
}

/* "  label text" with the text's figures filled; nothing for no text. 1
 * when a figure could not be computed (a line says why). */
static int filled(PlLab *lab, const char *label, const char *text) {
    if (lab) return cli_print_filled(lab, label, text);
    if (text && *text) cli_print_shown("  %s%s\n", label, text);
    return 0;
}

/* One card, question or prompt: its answer with every figure the lab's. A
 * question's right choice has no letter here: each learner sees its own order. */
static int item_answer(PlLab **lab, const PlDeck *d, const PlDeckItem *it, const PlLabSettings *s, int i) {
    static char title[4096];
    int rc = item_lab(lab, d, it, s);
    cli_print_shown("%d. %s\n", i + 1, *lab ? pl_lesson_fill(*lab, NULL, it->title, title, sizeof title) : it->title);
    rc |= filled(*lab, "", it->text);
    rc |= filled(*lab, "answer: ", it->answer);
    rc |= filled(*lab, "more: ", it->more);
    if (it->nchoices) {
        rc |= filled(*lab, "the answer: ", it->choices[it->right].text);
        rc |= filled(*lab, "why: ", it->choices[it->right].why);
    }
    return rc;
}

static int answers(const CliArgs *a, const PlLabSettings *s) {
    if (a->npos != 1) return cli_usage_error(a, "--answers takes one deck's name");
    PlDeck *decks[1];
    int n, rc = load_decks(a, 0, decks, &n);
    if (rc) return rc;
    const PlDeck *d = decks[0];
    PlLab *lab = NULL;
    cli_print_shown("%s: %s, %d %s, on %s\n\n", d->name, d->title, d->n, pl_deck_item_noun(d->kind), s->corpus);
    for (int i = 0; i < d->n; i++) {
        const PlDeckItem *it = &d->items[i];
        if (d->kind != PL_DECK_BUGS) rc |= item_answer(&lab, d, it, s, i);
        else {
            cli_print_shown("%d. %s\n  the cause: %s\n", i + 1, it->title, it->choices[it->right].text);
            rc |= case_answer(d, it, s);
        }
        fflush(stdout);
    }
    pl_lab_free(lab);
    free_decks(decks, n);
    return rc;
}

/* ---- --export anki DECK FILE ---- */

typedef struct {
    const PlDeck *deck;
    const PlLabSettings *s;
    PlLab *lab;
    int item;      /* the item whose figures could not be computed, when why is said */
    char why[400]; /* why: then nothing is written */
} AnkiCtx;

/* A tag: padlab::DECK::TOPIC, spaces as underscores (Anki splits tags on spaces). */
static void anki_tag(FILE *f, const char *deck, const char *topic) {
    fprintf(f, "padlab::%s", deck);
    if (topic && *topic) fputs("::", f);
    for (const char *c = topic ? topic : ""; *c; c++)
        fputc(*c == ' ' || *c == '\t' || *c == '\n' || *c == '"' ? '_' : *c, f);
}

/* A text with its figures filled into buf: 0, or -1 with x->why said. */
static int anki_fill(AnkiCtx *x, const char *text, char *buf, size_t cap) {
    return pl_fill_all(x->lab, NULL, text ? text : "", buf, cap, x->why, sizeof x->why) ? -1 : 0;
}

/* A field of a list of texts, filled: one "- " line each. */
static int anki_list(AnkiCtx *x, char *const *items, int n, char *buf, size_t cap) {
    static char one[4096];
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (anki_fill(x, items[i], one, sizeof one)) return -1;
        snprintf(buf + strlen(buf), cap - strlen(buf), "- %s\n", one);
    }
    return 0;
}

/* The choices of a question, the right one marked. */
static int anki_choices(AnkiCtx *x, const PlDeckItem *it, char *buf, size_t cap) {
    static char one[4096];
    buf[0] = '\0';
    for (int i = 0; i < it->nchoices; i++) {
        if (anki_fill(x, it->choices[i].text, one, sizeof one)) return -1;
        snprintf(buf + strlen(buf), cap - strlen(buf), "- %c. %s%s\n", 'a' + i, one, i == it->right ? " (right)" : "");
    }
    return 0;
}

enum { F_FRONT, F_BACK, F_REMEMBER, F_DONT, F_FOLLOW, F_LISTEN, F_CHOICES, ANKI_FIELDS };

/* One note: its guid, the padlab note type's fields, its tags. -1 with
 * x->why said when a figure could not be computed. */
static int anki_note(FILE *f, AnkiCtx *x, const PlDeckItem *it) {
    static char buf[ANKI_FIELDS][8192], more[8192], front[8192];
    const char *answer = it->nchoices ? it->choices[it->right].text : it->answer;
    const char *why = it->nchoices ? it->choices[it->right].why : it->more;
    if (item_setup(&x->lab, x->deck, it, x->s, x->why, sizeof x->why) ||
        anki_fill(x, it->title, buf[F_FRONT], sizeof buf[F_FRONT]) || anki_fill(x, it->text, front, sizeof front) ||
        anki_fill(x, answer, buf[F_BACK], sizeof buf[F_BACK]) || anki_fill(x, why, more, sizeof more) ||
        anki_fill(x, it->remember, buf[F_REMEMBER], sizeof buf[F_REMEMBER]) ||
        anki_fill(x, it->dont, buf[F_DONT], sizeof buf[F_DONT]) ||
        anki_list(x, it->follow, it->nfollow, buf[F_FOLLOW], sizeof buf[F_FOLLOW]) ||
        anki_list(x, it->listen, it->nlisten, buf[F_LISTEN], sizeof buf[F_LISTEN]) ||
        anki_choices(x, it, buf[F_CHOICES], sizeof buf[F_CHOICES]))
        return -1;
    if (front[0])
        snprintf(buf[F_FRONT] + strlen(buf[F_FRONT]), sizeof buf[F_FRONT] - strlen(buf[F_FRONT]), "\n\n%s", front);
    if (more[0]) snprintf(buf[F_BACK] + strlen(buf[F_BACK]), sizeof buf[F_BACK] - strlen(buf[F_BACK]), "\n\n%s", more);
    pl_anki_guid(f, x->deck->name, it->id);
    for (int i = 0; i < ANKI_FIELDS; i++) fputc('\t', f), pl_anki_html(f, buf[i]);
    fputc('\t', f);
    anki_tag(f, x->deck->name, it->topic);
    fputc('\n', f);
    return 0;
}

/* The file; a note whose figures could not all be computed writes nothing.
 * Anki's file headers (Anki 2.1.55 and later): tab-separated HTML fields, the
 * padlab note type (its fields named in #columns), the deck padlab::DECK, a
 * guid column so that a second import updates the notes, and the tags. */
static int anki_write(FILE *f, void *ctx) {
    AnkiCtx *x = ctx;
    fprintf(f, "#separator:tab\n#html:true\n#notetype:padlab\n#deck:padlab::%s\n", x->deck->name);
    fprintf(f, "#columns:GUID\tFront\tBack\tRemember\tDon't say\tFollow-ups\tListen for\tChoices\tTags\n");
    fprintf(f, "#guid column:1\n#tags column:9\n");
    for (x->item = 0; x->item < x->deck->n; x->item++)
        if (anki_note(f, x, &x->deck->items[x->item])) return -1;
    return ferror(f) ? -1 : 0;
}

static int cloze_write(FILE *f, void *ctx) {
    (void)ctx;
    return pl_cloze_anki(f);
}

/* --export anki polarity FILE: the polarity facts as cloze notes. */
static int export_cloze(const CliArgs *a) {
    PlErr err;
    if (pl_atomic_regular_only(a->pos[1], &err) || pl_write_atomic(a->pos[1], cloze_write, NULL, &err))
        return fprintf(stderr, "%s: --export anki: %s\n", a->cmd, err.msg), 2;
    printf("%s: %d cloze notes for Anki (File > Import; the note type Cloze), the mask polarities and fill values\n",
           a->pos[1], pl_cloze_count());
    return 0;
}

static int export_anki(const CliArgs *a, const PlLabSettings *s) {
    const char *fmt = cli_str(a, "export", "");
    if (strcmp(fmt, "anki") != 0) return cli_usage_error(a, "--export: the one format is anki, got '%s'", fmt);
    if (a->npos != 2)
        return cli_usage_error(a, "--export anki takes a deck's name and a file (--export anki DECK FILE)");
    char path[1024];
    PlErr err;
    if (!strcmp(a->pos[0], "polarity")) return export_cloze(a);
    PlDeck *decks[1];
    int n = 0, rc = 0, found = pl_deck_find(a->pos[0], path, sizeof path);
    if (found == -2) return cli_no_memory(a, "looking for the deck");
    if (found) return cli_usage_error(a, "no deck '%s' (padlab drill --list)", a->pos[0]);
    if (!(decks[0] = pl_deck_load(path, &err))) return fprintf(stderr, "%s\n", err.msg), 2;
    n = 1;
    AnkiCtx x = {.deck = decks[0], .s = s};
    if (decks[0]->kind == PL_DECK_BUGS)
        rc = cli_usage_error(a, "--export anki: %s is a deck of cases, which run in the lab", decks[0]->name);
    else if (pl_atomic_regular_only(a->pos[1], &err))
        rc = 2, fprintf(stderr, "%s: --export anki: %s\n", a->cmd, err.msg);
    else if (!pl_write_atomic(a->pos[1], anki_write, &x, &err))
        printf(
            "%s: %d notes for Anki (File > Import; the note type padlab, fields as #columns says), figures from %s\n",
            a->pos[1], decks[0]->n, s->corpus);
    else if (x.why[0])
        cli_error_shown("%s: %s: item %d (%s): %s; nothing written to %s\n", a->cmd, decks[0]->name, x.item + 1,
                        decks[0]->items[x.item].id, x.why, a->pos[1]),
            rc = 1;
    else fprintf(stderr, "%s: %s\n", a->cmd, err.msg), rc = 1;
    pl_lab_free(x.lab);
    free_decks(decks, n);
    return rc;
}

/* ---- --reset ---- */

static int reset(const CliArgs *a) {
    if (a->npos != 1) return cli_usage_error(a, "--reset takes one deck's name");
    if (!cli_flag(a, "yes") && !isatty(STDIN_FILENO))
        return cli_usage_error(a, "forgetting progress needs --yes when nobody can be asked");
    if (!cli_flag(a, "yes")) {
        char line[16];
        printf("forget your progress in %s? [y/N] ", a->pos[0]);
        fflush(stdout);
        if (!fgets(line, sizeof line, stdin) || (line[0] != 'y' && line[0] != 'Y')) return 0;
    }
    PlDrillBook book;
    PlErr err;
    int rc = 0;
    if (pl_drill_book_load(&book, &err)) fprintf(stderr, "%s: %s\n", a->cmd, err.msg), rc = 1;
    else if (book.notice[0]) fprintf(stderr, "%s: %s\n", a->cmd, book.notice);
    int gone = rc ? 0 : pl_drill_book_forget(&book, a->pos[0]);
    if (!rc && pl_drill_book_save(&book, &err)) fprintf(stderr, "%s: %s\n", a->cmd, err.msg), rc = 1;
    if (!rc) printf("forgot %d item%s of %s\n", gone, gone == 1 ? "" : "s", a->pos[0]);
    pl_drill_book_done(&book);
    return rc;
}

/* ---- playing ---- */

/* The lesson questions due today, in the lab (as padlab lesson --review). */
static int review_lessons(const CliArgs *a, const PlLabSettings *s) {
    TuiArgs t;
    memset(&t, 0, sizeof t);
    t.settings = *s, t.review = 1;
    t.screen.mono = cli_flag(a, "mono");
    t.screen.ascii = cli_flag(a, "ascii");
    char why[256];
    int rc = tui_run(&t, why, sizeof why);
    if (rc >= 0) return rc;
    fprintf(stderr, "%s: %s: a review plays in a terminal (padlab drill --list counts what is due)\n", a->cmd, why);
    return 2;
}

/* "lessons" names the lesson questions in review, unless a deck has that name. */
static int names_the_lesson_questions(const char *name) {
    char path[1024];
    return name && strcmp(name, PL_LESSON_DECK) == 0 && pl_deck_find(name, path, sizeof path) == -1;
}

static int play(const CliArgs *a, const PlLabSettings *s) {
    TuiDrillArgs t;
    int review = 0;
    memset(&t, 0, sizeof t);
    t.review = &review;
    t.settings = *s;
    t.deck = a->npos ? a->pos[0] : NULL;
    t.all = cli_flag(a, "all");
    t.timed = cli_flag(a, "timed");
    t.screen.mono = cli_flag(a, "mono");
    t.screen.ascii = cli_flag(a, "ascii");
    if (a->npos > 1) return cli_usage_error(a, "expected one deck's name (padlab drill --list shows them)");
    if (cli_int(a, "count", 0, 0, 10000, &t.count)) return 2;
    if (names_the_lesson_questions(t.deck)) return review_lessons(a, s);
    if (cli_flag(a, "lines")) {
        PlDrillOpts o = {.today = pl_sched_today(),
                         .all = t.all,
                         .count = t.count,
                         .timed = t.timed,
                         .seed = (unsigned)pl_sched_today()};
        return t.deck ? cli_drill_lines(a, s, t.deck, &o)
                      : cli_usage_error(a, "--lines plays one deck: give its name (padlab drill --list shows them)");
    }
    char why[256];
    int rc = tui_drill_run(&t, why, sizeof why);
    if (rc == 0 && review) return review_lessons(a, s); /* picked in the picker */
    if (rc >= 0) return rc;
    fprintf(stderr,
            "%s: %s: a drill plays in a terminal "
            "(padlab drill --answers DECK prints the answers, --cheatsheet the cards)\n",
            a->cmd, why);
    return 2;
}

/* ---- --plan ---- */

static int plan(const CliArgs *a) {
    PlDeck *decks[MAX_DECKS];
    int n, rc = load_decks(a, 0, decks, &n);
    if (!rc) rc = with_lesson_deck(a, decks, &n);
    if (!rc) rc = cli_drill_plan_print(a, decks, n);
    free_decks(decks, n);
    return rc;
}

static int run(const CliArgs *a) {
    pl_drill_book_use_days(); /* today as the learner's days count it */
    PlLabSettings s = pl_settings_default();
    if (cli_read_settings(a, ALL_SETTINGS, &s, NULL)) return 2;
    if (cli_flag(a, "list")) return list_decks(a);
    if (cli_flag(a, "check")) return check_files(a);
    if (cli_flag(a, "cheatsheet")) return cheatsheet(a, &s);
    if (cli_flag(a, "answers")) return answers(a, &s);
    if (cli_flag(a, "reset")) return reset(a);
    if (cli_str(a, "export", NULL)) return export_anki(a, &s);
    if (cli_drill_plan_settings(a)) return 2;
    if (cli_flag(a, "plan")) return plan(a);
    return play(a, &s);
}

static const CliOpt opts[] = {
    {"list", NULL, "the decks there are: name, kind, items, due today, title (--format json: deck, kind, count)"},
    {"check", NULL, "validate the deck files given; every error as FILE:LINE: message (exit 1 when any is invalid)"},
    {"cheatsheet", NULL,
     "print every card and minute prompt (of the decks given, or all) by topic: answer, memory aid, what not to say, "
     "follow-ups"},
    {"width", "N", "the cheat sheet's text width (default 78)"},
    {"one-page", NULL, "with --cheatsheet: one page: the mask conventions, the fill values, the losses and the fixes"},
    {"answers", NULL, "print each item's answer without a terminal; a bug deck's cases are run and measured"},
    {"all", NULL, "drill every item, due or not"},
    {"count", "N", "at most N items this session (default: every due card, 10 questions, every case)"},
    {"timed", NULL, "questions against the clock (each question's seconds:, else the deck's)"},
    {"reset", NULL, "forget your progress in the deck given (asks first)"},
    {"retention", "R", "the recall FSRS schedules reviews for, 0.7 to 0.99 (default 0.9); kept"},
    {"until", "DATE",
     "the interview's date, YYYY-MM-DD: new cards spread before it, every review moved onto a day before it, the "
     "last ones spread over the last days; none clears it; kept"},
    {"reviews-per-day", "N", "the daily limit the plan keeps each day under where the cards fit (default 100); kept"},
    {"new-per-day", "N", "new cards a day at most, over every deck (default 20); kept"},
    {"day-starts", "H", "the local hour (0-23, TZ) a new day starts at (default 4); kept"},
    {"export", "anki",
     "--export anki DECK FILE: the deck as a file Anki imports (the note type padlab), its figures from the corpus; "
     "--export anki polarity FILE: the mask polarities as cloze notes"},
    {"plan", NULL, "print today's reviews and new cards and the predicted recall by topic, today and on the date"},
    {"yes", NULL, "with --reset: do not ask"},
    {"mono", NULL, "no colours"},
    {"ascii", NULL, "no Unicode characters"},
    {"lines", NULL, "DECK line by line for a screen reader: every item and answer as plain sentences"},
    {"format", "FMT", "--list: table (default) or json; --cheatsheet: text (default) or markdown"},
    {NULL, NULL, NULL},
};

const CliCommand cli_cmd_drill = {
    .name = "drill",
    .summary = "interview drills: flashcards, quick-fire questions, spot the bug, one-minute answers",
    .usage =
        "[DECK] [--all] [--count N] [--timed] [--lines] [--SETTING VALUE ...] | --list [--format json] |\n"
        "                     --check FILE... | --cheatsheet [DECK...] [--format text|markdown] | --cheatsheet --one-page |\n"
        "                     --answers DECK | --reset DECK [--yes] |\n"
        "                     [--retention R] [--until YYYY-MM-DD|none] [--reviews-per-day N] [--new-per-day N]\n"
        "                     [--day-starts H] [--plan [DECK...]] |\n"
        "                     --export anki DECK FILE",
    .details = "Plays a deck in the terminal; without one, opens a picker. Flashcards are spaced\n"
               "by FSRS-6: space shows the answer, 1-4 grade it (again, hard, good, easy), and\n"
               "each grade gives the interval at which recall falls to --retention. --until\n"
               "plans towards an interview; --plan shows the plan to it, day by day.\n"
               "PADLAB_NOW=YYYY-MM-DD (its noon) or YYYY-MM-DDTHH:MM (UTC) sets the clock (for tests).\n"
               "Quick-fire questions take a letter and explain every answer. Spot the bug runs a\n"
               "mis-configured lab, shows the symptom it really produces beside one of its views,\n"
               "takes your pick of the cause, and f applies the fix and measures again.\n"
               "One-minute prompts count down while you speak, then show a model answer, the\n"
               "follow-ups and what the interviewer listens for. q quits; progress is kept in\n"
               "$XDG_STATE_HOME/padlab/drill. Decks are read from $PADLAB_DECKS,\n"
               "$XDG_DATA_HOME/padlab/decks and the installed ones; doc/deck-format.md tells how\n"
               "to write one. The settings flags set the lab the figures and the cases run on.",
    .opts = opts,
    .settings = ALL_SETTINGS,
    .max_pos = 64,
    .run = run,
    .interactive = 1,
};
