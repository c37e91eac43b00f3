/* padlab lesson NAME --handout DIR: the lesson as a printable worksheet and
 * its answer key, from the lab's live figures on the corpus given.
 *
 *   DIR/NAME.md            the worksheet: each step's narration, its view as
 *                          a figure, its question with room for the answer;
 *                          the figure a question asks for blanked ('?') in
 *                          the text and in the figure, as on screen
 *   DIR/NAME-key.md        the answer key: each question with the lab's
 *                          answer, why, and the teacher's notes
 *   DIR/NAME-stepK.svg     step K's view as the worksheet shows it
 *   DIR/NAME-stepK-key.svg the same with the answer shown (question steps)
 *
 * The lesson is walked as padlab lesson --answers walks it; the choices of
 * a choose: come in an order of the worksheet's own (its corpus and seed),
 * the same letters in the key. Every file goes through the atomic writer. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/lab/fill.h"
#include "app/lab/quantity.h"
#include "app/teach/lesson_run.h"
#include "cli.h"
#include "core/atomic.h"
#include "core/folder.h"
#include "core/rng.h"
#include "core/text.h"
#include "gui/gui.h"
#include "lesson_handout.h"

#define FIG_W 1280
#define FIG_H 800

typedef struct {
    PlLab *lab;
    const PlLesson *l;
    PlLessonRun *r;
    const char *dir;   /* where the files are made: a staging folder inside shown */
    const char *shown; /* the folder asked for, where they all go once every one is made */
    FILE *ws, *key; /* the two documents, in memory until written */
    int nq;         /* questions so far */
    int figures;    /* 1: figures are drawn; 0: this padlab cannot (nofig says so) */
    char nofig[300];
    char why[300];   /* the first figure, or figure of the text, that could not be made */
    int missing;     /* how many */
    PlLedger ledger; /* the worksheet's at the step: its question, and every other one showing its fact */
} Handout;

/* text with its placeholders filled and, on the worksheet (ws), the
 * figures its ledger hides drawn as '?'s; the key shows every figure. */
static const char *filled(Handout *h, const char *text, int ws) {
    static char buf[8192];
    char why[320];
    if (pl_fill_all(h->lab, ws ? &h->ledger : NULL, text ? text : "", buf, sizeof buf, why, sizeof why) &&
        !h->missing++)
        snprintf(h->why, sizeof h->why, "a figure could not be computed: %.250s", why);
    return buf;
}

/* Text from the lesson file into a document: its control bytes shown, not sent. */
static void put(FILE *f, const char *text) { pl_text_put_printable_lines(f, text); }

/* Step k's view as SVG, veiled or with the answer shown; the file's name, or NULL. */
static const char *figure(Handout *h, int k, int answered, char *name, int cap) {
    char path[2048], why[300];
    if (!h->figures) return NULL;
    snprintf(name, (size_t)cap, "%s-step%d%s.svg", h->l->name, k + 1, answered ? "-key" : "");
    snprintf(path, sizeof path, "%s/%s", h->dir, name);
    /* the step's text and question are computed (walk waits for them); its view's results may not be yet */
    const PlLabSettings *s = pl_lab_settings(h->lab);
    if (pl_lab_wait(h->lab, pl_view_results((PlView)s->view, s), 600)) {
        if (!h->missing++)
            snprintf(h->why, sizeof h->why, "step %d's %s view did not finish computing in time", k + 1,
                     pl_view_name((PlView)s->view));
        return NULL;
    }
    pl_lab_set_ledger(h->lab, answered ? NULL : &h->ledger);
    GuiLook look = {0};
    int rc = gui_figure_svg(h->lab, &look, FIG_W, FIG_H, path, why, sizeof why);
    if (!rc) return name;
    if (rc == -2) h->figures = 0, snprintf(h->nofig, sizeof h->nofig, "%.290s", why); /* said at the end */
    else if (!h->missing++) snprintf(h->why, sizeof h->why, "step %d's figure: %.270s", k + 1, why);
    return NULL;
}

static void worksheet_question(Handout *h, const PlQuestion *q) {
    const PlLessonState *st = pl_lesson_run_state(h->r);
    fprintf(h->ws, "\n**Question %d.** ", h->nq);
    put(h->ws, filled(h, q->prompt, 1));
    if (q->kind == PL_Q_CHOOSE) {
        fputs("\n\n", h->ws);
        for (int i = 0; i < q->nchoices; i++) {
            fprintf(h->ws, "- %c) ", 'a' + i);
            put(h->ws, filled(h, q->choices[st->order[i]].text, 1));
            fputs("\n", h->ws);
        }
        fputs("\nYour answer: ______\n", h->ws);
    } else if (q->kind == PL_Q_ASK) fputs("\n\nYour prediction: ______________\n", h->ws);
    else fputs("\n\n(an exercise: done in the lab, padlab lesson NAME)\n", h->ws);
}

static void key_answer(Handout *h, const PlQuestion *q) {
    const PlLessonState *st = pl_lesson_run_state(h->r);
    char buf[160], name[96];
    double v;
    if (q->kind == PL_Q_ASK && pl_quantity_value(h->lab, &q->answer, &v, buf, sizeof buf) && !h->missing++)
        snprintf(h->why, sizeof h->why, "the answer could not be computed: %.250s", buf);
    else if (q->kind == PL_Q_ASK)
        fprintf(h->key, "\nAnswer: **%s** (%s)\n", pl_quantity_format(&q->answer, v, buf, sizeof buf),
                pl_quantity_name(&q->answer, name, sizeof name));
    for (int i = 0; q->kind == PL_Q_CHOOSE && i < q->nchoices; i++) {
        const PlChoice *c = &q->choices[st->order[i]];
        fprintf(h->key, "\n- %c) %s", 'a' + i, c->right ? "**right**: " : "");
        put(h->key, filled(h, c->text, 0));
        if (c->explain) fputs(": ", h->key), put(h->key, filled(h, c->explain, 0));
    }
    if (q->kind == PL_Q_CHOOSE) fputs("\n", h->key);
    if (q->solution) fputs("\nSolution: ", h->key), put(h->key, filled(h, q->solution, 0)), fputs("\n", h->key);
    if (q->reveal) fputs("\n", h->key), put(h->key, filled(h, q->reveal, 0)), fputs("\n", h->key);
}

static void step(Handout *h, int k) {
    const PlStep *s = pl_lesson_run_step(h->r);
    char name[256];
    int asks = s->q.kind != PL_Q_NONE;
    h->nq += asks;
    pl_lesson_run_worksheet_ledger(h->r, k, &h->ledger);
    fprintf(h->ws, "\n## Step %d: ", k + 1), put(h->ws, s->title), fputs("\n\n", h->ws);
    if (s->text) put(h->ws, filled(h, s->text, 1)), fputs("\n", h->ws);
    const char *fig = figure(h, k, 0, name, sizeof name);
    if (fig)
        fprintf(h->ws, "\n![step %d: the %s view](%s)\n", k + 1, pl_view_name((PlView)pl_lab_settings(h->lab)->view),
                fig);
    if (asks) worksheet_question(h, &s->q);
    if (s->summary) fputs("\n", h->ws), put(h->ws, filled(h, s->summary, 1)), fputs("\n", h->ws);
}

/* Step k's part of the key, from the lab as the learner leaves the step
 * (an exercise solved). */
static void key_step(Handout *h, int k) {
    const PlStep *s = pl_lesson_run_step(h->r);
    char name[256];
    const char *fig;
    int asks = s->q.kind != PL_Q_NONE;
    if (!asks && !s->notes) return;
    fprintf(h->key, "\n## Step %d: ", k + 1), put(h->key, s->title), fputs("\n", h->key);
    if (s->notes) fputs("\nNotes: ", h->key), put(h->key, filled(h, s->notes, 0)), fputs("\n", h->key);
    if (!asks) return;
    fprintf(h->key, "\n**Question %d.** ", h->nq), put(h->key, filled(h, s->q.prompt, 0)), fputs("\n", h->key);
    key_answer(h, &s->q);
    if ((fig = figure(h, k, 1, name, sizeof name))) fprintf(h->key, "\n![step %d, answered](%s)\n", k + 1, fig);
}

static void heads(Handout *h) {
    const PlLabSettings *s = pl_lab_settings(h->lab);
    fputs("# ", h->ws), put(h->ws, h->l->title), fputs(": worksheet\n\n", h->ws);
    if (h->l->about) put(h->ws, h->l->about), fputs("\n\n", h->ws);
    fputs("Figures from the corpus ", h->ws), put(h->ws, s->corpus);
    fputs(". Write down each prediction before the lab shows it: the figure a question asks for is "
          "blanked (?) wherever it would appear.\n",
          h->ws);
    fputs("# ", h->key), put(h->key, h->l->title), fputs(": answer key\n\nFigures from the corpus ", h->key);
    put(h->key, s->corpus);
    fprintf(h->key, ", seed %d, as the lab computed them; the letters are the worksheet's.\n", s->seed);
    if (h->l->notes) fputs("\nNotes: ", h->key), put(h->key, filled(h, h->l->notes, 0)), fputs("\n", h->key);
}

static int walk(Handout *h) {
    heads(h);
    for (int k = 0; k < h->l->nsteps; k++) {
        PlErr err;
        if (k && pl_lesson_run_goto(h->r, k, &err))
            return snprintf(h->why, sizeof h->why, "step %d: %.250s", k + 1, err.msg), -1;
        if (pl_lesson_run_wait(h->r))
            return snprintf(h->why, sizeof h->why, "step %d: the lab did not finish computing in time", k + 1), -1;
        step(h, k);
        if (pl_lesson_run_play_key(h->r, &err)) /* the key reads the lab the learner's play leaves */
            return snprintf(h->why, sizeof h->why, "step %d: %.250s", k + 1, err.msg), -1;
        key_step(h, k);
    }
    return h->missing ? -1 : 0;
}

typedef struct {
    const char *buf;
    size_t n;
} Doc;

static int put_doc(FILE *f, void *ctx) {
    const Doc *d = ctx;
    return fwrite(d->buf, 1, d->n, f) == d->n ? 0 : -1;
}

/* Writes the two documents; 0, or -1 with the line said. */
static int save(const CliArgs *a, Handout *h, const char *ws, size_t nws, const char *key, size_t nkey) {
    const char *names[2] = {"", "-key"};
    Doc docs[2] = {{ws, nws}, {key, nkey}};
    for (int i = 0; i < 2; i++) {
        char path[2048];
        PlErr err;
        snprintf(path, sizeof path, "%s/%s%s.md", h->dir, h->l->name, names[i]);
        if (pl_write_atomic(path, put_doc, &docs[i], &err)) return fprintf(stderr, "%s: %s\n", a->cmd, err.msg), -1;
    }
    return 0;
}

/* Moves every file made in the staging folder into the folder asked for
 * (a rename each, on one file system: no byte more is written), or, when
 * keep is 0, removes them; the staging folder goes either way. 0, or -1
 * with errno. */
static int unstage(const char *staging, const char *into, int keep) {
    DIR *d = opendir(staging);
    if (!d) return -1;
    int rc = 0;
    for (struct dirent *e; (e = readdir(d));) {
        char from[2100], to[2100];
        if (e->d_name[0] == '.') continue;
        snprintf(from, sizeof from, "%s/%s", staging, e->d_name);
        snprintf(to, sizeof to, "%s/%s", into, e->d_name);
        if (keep && rename(from, to)) rc = -1;
        else if (!keep) unlink(from);
    }
    closedir(d);
    int e = errno;
    rmdir(staging);
    errno = e;
    return rc;
}

static int make(const CliArgs *a, Handout *h) {
    char *ws = NULL, *key = NULL;
    size_t nws = 0, nkey = 0;
    h->ws = open_memstream(&ws, &nws), h->key = open_memstream(&key, &nkey);
    int rc = h->ws && h->key ? 0 : cli_no_memory(a, "making the handout");
    if (!rc && walk(h))
        rc = 1, fprintf(stderr, "%s: %s: %s; the worksheet and its key are not written\n", a->cmd, h->l->name, h->why);
    if (h->ws) fclose(h->ws);
    if (h->key) fclose(h->key);
    if (!rc && save(a, h, ws, nws, key, nkey)) rc = 1;
    /* all or nothing: every figure and both documents were made, or none is kept */
    if (unstage(h->dir, h->shown, !rc) && !rc)
        rc = 1, fprintf(stderr, "%s: %s: cannot move the handout into place: %s\n", a->cmd, h->shown, strerror(errno));
    for (int i = 0; !rc && i < 2; i++) printf("%s/%s%s.md\n", h->shown, h->l->name, i ? "-key" : "");
    if (!rc && !h->figures) fprintf(stderr, "%s: the handout has no figures: %s\n", a->cmd, h->nofig);
    free(ws), free(key);
    return rc;
}

int cli_lesson_handout(const CliArgs *a, const PlLabSettings *s, const char *name, const char *dir) {
    char path[1024];
    PlErr err;
    int found = pl_lesson_find(name, path, sizeof path);
    if (found == -2) return cli_no_memory(a, "looking for the lesson");
    if (found) return cli_usage_error(a, "no lesson '%s' (padlab lesson --list)", name);
    if (pl_folder_make(dir, &err)) return fprintf(stderr, "%s: --handout: %s\n", a->cmd, err.msg), 2;
    PlLesson *l = pl_lesson_load(path, &err);
    if (!l) return fprintf(stderr, "%s\n", err.msg), 2;
    char staging[1100];
    snprintf(staging, sizeof staging, "%.1000s/.padlab-handout-XXXXXX", dir);
    if (!mkdtemp(staging)) {
        pl_lesson_free(l);
        return fprintf(stderr, "%s: --handout: %s: cannot write there: %s\n", a->cmd, dir, strerror(errno)), 2;
    }
    Handout h = {.l = l, .dir = staging, .shown = dir, .figures = 1};
    h.lab = pl_lab_new(s, &err);
    h.r = h.lab ? pl_lesson_run_new(h.lab, l, 0, &err) : NULL;
    int rc = h.r ? 0 : (fprintf(stderr, "%s: %s\n", a->cmd, err.msg), 2);
    if (h.r) pl_lesson_run_learner(h.r, pl_fnv1a(s->corpus, strlen(s->corpus)) ^ (uint64_t)s->seed, 0);
    if (!rc) rc = make(a, &h);
    else unstage(staging, dir, 0);
    pl_lesson_run_free(h.r);
    pl_lab_free(h.lab);
    pl_lesson_free(l);
    return rc;
}
