/* The lesson parser (doc/lesson-format.md is the format):
 *
 *   # Title
 *   level: beginner            the header, up to the first step
 *   minutes: 10
 *   about: one line
 *   setup: corpus=builtin seeds=1
 *
 *   ## A step's title
 *   Narration, with {quantity} filled in live.
 *   set: padding=post          directives: a known word, a colon, a value
 *   ask: How many pads?        a question, its answer, hints...
 *   answer: batch.pad_cells
 *
 * Every error names the file and the line. */
#include "lesson.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "choices.h"
#include "core/corpus_load.h"
#include "doc.h"
#include "app/lab/fill.h"

#define MAX_BYTES (1 << 20)
#define MAX_STEPS 200

typedef enum {
    D_SET,
    D_VIEW,
    D_INLINE,
    D_LOCK,
    D_UNLOCK,
    D_TRAIN,
    D_GRID,
    D_ASK,
    D_ANSWER,
    D_TOLERANCE,
    D_CHOOSE,
    D_EXERCISE,
    D_GOAL,
    D_SMALLEST,
    D_SOLVE,
    D_HINT,
    D_SOLUTION,
    D_REVEAL,
    D_SUMMARY,
    D_COUNT
} Directive;

static const char *const directive_names[D_COUNT] = {
    "set",    "view",     "inline", "lock",     "unlock", "train", "grid",     "ask",    "answer", "tolerance",
    "choose", "exercise", "goal",   "smallest", "solve",  "hint",  "solution", "reveal", "summary"};

static const char *const header_names[] = {"level", "minutes", "about", "setup", NULL};

typedef struct {
    const char *path;
    int line;
    PlErr last; /* the last problem found, at last_line */
    int last_line;
    PlProblems *probs; /* every problem is wanted (--check): the parse goes on past one; NULL: it stops */
    int fatal;         /* the last problem leaves nothing sensible to read on from */
    PlLesson *l;
    PlStep *step;
    int in_choices, in_summary;
} Parser;

static PlStatus fail(Parser *p, const char *fmt, const char *a, const char *b) {
    char msg[400];
    snprintf(msg, sizeof msg, fmt, a ? a : "", b ? b : "");
    p->last_line = p->line;
    return pl_err_set(&p->last, PL_EINPUT, "%s:%d: %s", p->path, p->line, msg);
}

/* A problem after which every later line would be one too (no title): the
 * parse stops there even when every problem is wanted. */
static PlStatus fatal(Parser *p, const char *fmt, const char *a, const char *b) {
    p->fatal = 1;
    return fail(p, fmt, a, b);
}

/* The status of a step that may have found a problem: kept, and the parse
 * goes on, when every problem is wanted; else returned, to stop it. */
static PlStatus found(Parser *p, PlStatus st) {
    if (st != PL_EINPUT || !p->probs || p->fatal) return st;
    pl_problems_add(p->probs, p->last_line, p->last.msg);
    return PL_OK;
}

static char *dupe(const char *s) { return strdup(s ? s : ""); }

/* Appends a line of narration to *text: lines of one paragraph join with a
 * space (a front end wraps them to its width), a blank line ends the
 * paragraph with a newline, and a "- " line is a bullet of its own. */
static int append(char **text, const char *line) {
    size_t a = *text ? strlen(*text) : 0, b = strlen(line);
    if (!b) {
        if (!a || (*text)[a - 1] == '\n') return 0;
        b = 0, line = "\n";
    }
    const char *sep = !a || (*text)[a - 1] == '\n' || line[0] == '\n' ? "" : strncmp(line, "- ", 2) == 0 ? "\n" : " ";
    size_t m = strlen(sep), n = strlen(line);
    char *t = realloc(*text, a + m + n + 1);
    if (!t) return -1;
    memcpy(t + a, sep, m);
    memcpy(t + a + m, line, n + 1);
    *text = t;
    return 0;
}

/* ---- checking values ---- */

/* Every {placeholder} of text names a quantity, every {? conditional} is
 * well formed (fill.h). */
static PlStatus check_placeholders(Parser *p, const char *text) {
    char why[200];
    return pl_fill_check(text, why, sizeof why) ? fail(p, "%s", why, NULL) : PL_OK;
}

/* "padding=post mask=on": each a registry setting with an allowed value. */
static PlStatus check_settings(Parser *p, const char *text) {
    char *copy = dupe(text), *save = NULL;
    PlLabSettings s = pl_settings_default();
    PlStatus st = PL_OK;
    int n = 0;
    for (char *tok = strtok_r(copy, " \t", &save); tok && !st; tok = strtok_r(NULL, " \t", &save), n++) {
        char *eq = strchr(tok, '='), want[200];
        if (!eq) {
            st = fail(p, "set takes name=value pairs, got '%.40s'", tok, NULL);
            break;
        }
        *eq = '\0';
        int id = pl_setting_find(tok);
        if (id < 0) st = fail(p, "'%.40s' is not a setting (padlab lab --help lists them)", tok, NULL);
        else if (pl_setting_parse(&s, (PlSettingId)id, eq + 1, want, sizeof want))
            st = fail(p, "%s must be %s", tok, want);
    }
    if (!st && !n) st = fail(p, "set needs at least one name=value", NULL, NULL);
    free(copy);
    return st;
}

static PlStatus setting_bits(Parser *p, const char *text, unsigned *bits) {
    char *copy = dupe(text), *save = NULL;
    PlStatus st = PL_OK;
    *bits = 0;
    for (char *tok = strtok_r(copy, " ,\t", &save); tok && !st; tok = strtok_r(NULL, " ,\t", &save)) {
        int id = pl_setting_find(tok);
        if (strcmp(tok, "all") == 0) *bits |= ((1u << PL_S_COUNT) - 1) & ~PL_S_BIT(PL_S_VIEW);
        else if (id < 0) st = fail(p, "'%.40s' is not a setting (or all)", tok, NULL);
        else *bits |= PL_S_BIT(id);
    }
    free(copy);
    if (!st && !*bits) st = fail(p, "name the settings, or all", NULL, NULL);
    return st;
}

/* "cost.kept_share >= 0.9 & maxlen <= 400": every condition must hold. */
static PlStatus parse_goal(Parser *p, PlQuestion *q, const char *text) {
    static const char *const ops[] = {"<=", ">=", "==", "!=", "<", ">"};
    static const PlCompare codes[] = {PL_OP_LE, PL_OP_GE, PL_OP_EQ, PL_OP_NE, PL_OP_LT, PL_OP_GT};
    char *copy = dupe(text), *save = NULL;
    PlStatus st = PL_OK;
    for (char *part = strtok_r(copy, "&", &save); part && !st; part = strtok_r(NULL, "&", &save)) {
        if (q->ngoal == PL_LESSON_MAX_GOAL) {
            st = fail(p, "a goal has at most 4 conditions", NULL, NULL);
            break;
        }
        PlCondition *c = &q->goal[q->ngoal];
        char name[96], value[96], why[200];
        int k = 0;
        while (k < 6 && !strstr(part, ops[k])) k++;
        if (k == 6) {
            st = fail(p, "a goal condition is QUANTITY OP VALUE (OP one of < <= > >= == !=), got '%.60s'", part, NULL);
            break;
        }
        const char *at = strstr(part, ops[k]);
        snprintf(name, sizeof name, "%.*s", (int)(at - part), part);
        snprintf(value, sizeof value, "%s", at + strlen(ops[k]));
        char *n = name, *v = value;
        while (isspace((unsigned char)*n)) n++;
        for (char *e = n + strlen(n); e > n && isspace((unsigned char)e[-1]);) *--e = '\0';
        while (isspace((unsigned char)*v)) v++;
        for (char *e = v + strlen(v); e > v && isspace((unsigned char)e[-1]);) *--e = '\0';
        if (pl_quantity_parse(n, &c->q, why, sizeof why)) {
            st = fail(p, "%s", why, NULL);
            break;
        }
        c->op = codes[k];
        char *end;
        if (pl_quantity_kind_of_format(&c->q) == PL_QF_SETTING) {
            PlLabSettings s = pl_settings_default();
            char want[200];
            PlSettingId id = (PlSettingId)pl_setting_find(n);
            if (pl_setting_parse(&s, id, v, want, sizeof want)) st = fail(p, "%s must be %s", n, want);
            c->value = pl_setting_get(&s, id);
        } else {
            c->value = strtod(v, &end);
            if (end == v || (*end && strcmp(end, "%") != 0)) st = fail(p, "'%.40s' is not a number", v, NULL);
            if (*end == '%' || (pl_quantity_kind_of_format(&c->q) == PL_QF_SHARE && c->value > 1.0)) c->value /= 100.0;
        }
        q->ngoal++;
    }
    free(copy);
    return st;
}

/* ---- directives ---- */

static PlStatus add_action(Parser *p, PlStepActionKind kind, const char *value) {
    PlStep *s = p->step;
    if (s->nactions == PL_LESSON_MAX_ACTIONS)
        return fail(p, "a step has at most 16 set, view, inline, lock and train lines", NULL, NULL);
    PlStepAction *a = &s->actions[s->nactions];
    a->kind = kind, a->line = p->line, a->text = dupe(value);
    s->nactions++;
    PlErr ignored;
    PlCorpus *c = NULL;
    PlView v;
    switch (kind) {
    case PL_STEP_SET: return check_settings(p, value);
    case PL_STEP_VIEW: return pl_view_parse(value, &v) ? fail(p, "'%.40s' is not a view", value, NULL) : PL_OK;
    case PL_STEP_LOCK:
    case PL_STEP_UNLOCK: return setting_bits(p, value, &a->bits);
    case PL_STEP_INLINE: {
        char spec[1200];
        snprintf(spec, sizeof spec, "inline:%s", value);
        PlStatus st = pl_corpus_load(spec, NULL, &c, &ignored);
        pl_corpus_free(c);
        return st ? fail(p, "inline takes rows of words or ids separated by |", NULL, NULL) : PL_OK;
    }
    default: return PL_OK;
    }
}

static PlStatus start_question(Parser *p, PlQuestionKind kind, const char *prompt) {
    PlQuestion *q = &p->step->q;
    if (q->kind != PL_Q_NONE) return fail(p, "a step asks one question; start a new step (##) for another", NULL, NULL);
    q->kind = kind, q->prompt = dupe(prompt), q->line = p->line, q->smallest = -1;
    p->in_choices = kind == PL_Q_CHOOSE;
    return check_placeholders(p, prompt);
}

static PlStatus question_part(Parser *p, Directive d, const char *v) {
    PlQuestion *q = &p->step->q;
    char why[200];
    int id;
    if (q->kind == PL_Q_NONE)
        return fail(p, "%s: belongs to a question (ask, choose or exercise) in the same step", directive_names[d],
                    NULL);
    switch (d) {
    case D_ANSWER:
        if (q->kind != PL_Q_ASK) return fail(p, "answer: belongs to an ask: question", NULL, NULL);
        q->has_answer = 1;
        return pl_quantity_parse(v, &q->answer, why, sizeof why) ? fail(p, "%s", why, NULL) : PL_OK;
    case D_TOLERANCE:
        if (q->kind != PL_Q_ASK) return fail(p, "tolerance: belongs to an ask: question", NULL, NULL);
        return pl_tolerance_parse(v, &q->tolerance)
                   ? fail(p, "a tolerance is a number, a percentage or N points, got '%.40s'", v, NULL)
                   : PL_OK;
    case D_GOAL:
        if (q->kind != PL_Q_EXERCISE) return fail(p, "goal: belongs to an exercise: question", NULL, NULL);
        return parse_goal(p, q, v);
    case D_SMALLEST:
        id = pl_setting_find(v);
        if (q->kind != PL_Q_EXERCISE || id < 0 || pl_settings[id].type != PL_ST_INT)
            return fail(p, "smallest: names a number setting of an exercise, got '%.40s'", v, NULL);
        q->smallest = id;
        return PL_OK;
    case D_SOLVE:
        if (q->kind != PL_Q_EXERCISE) return fail(p, "solve: belongs to an exercise: question", NULL, NULL);
        free(q->solve);
        q->solve = dupe(v);
        return check_settings(p, v);
    case D_HINT:
        if (q->nhints == PL_LESSON_MAX_HINTS) return fail(p, "a question has at most 8 hints", NULL, NULL);
        q->hints[q->nhints++] = dupe(v);
        return check_placeholders(p, v);
    case D_SOLUTION:
        free(q->solution);
        q->solution = dupe(v);
        return check_placeholders(p, v);
    default:
        free(q->reveal);
        q->reveal = dupe(v);
        return check_placeholders(p, v);
    }
}

/* "- text => why" or "* text => why" (the right ones starred). */
static PlStatus add_choice(Parser *p, const char *line) {
    PlQuestion *q = &p->step->q;
    if (q->nchoices == PL_LESSON_MAX_CHOICES) return fail(p, "a question has at most 8 choices", NULL, NULL);
    PlChoice *c = &q->choices[q->nchoices++];
    const char *text = line + 2, *arrow;
    while (*text == ' ') text++;
    c->pinned = pl_choices_pinned(text, &text);
    arrow = strstr(text, "=>");
    c->right = line[0] == '*';
    c->text = arrow ? strndup(text, (size_t)(arrow - text)) : dupe(text);
    c->explain = dupe(arrow ? arrow + 2 : "");
    for (char *e = c->text + strlen(c->text); e > c->text && e[-1] == ' ';) *--e = '\0';
    char *x = c->explain;
    while (*x == ' ') memmove(x, x + 1, strlen(x));
    if (!c->text[0]) return fail(p, "a choice needs its text", NULL, NULL);
    PlStatus st = check_placeholders(p, c->text);
    return st ? st : check_placeholders(p, c->explain);
}

static PlStatus directive(Parser *p, Directive d, const char *v) {
    p->in_summary = 0;
    if (d != D_HINT && d != D_SOLUTION && d != D_REVEAL) p->in_choices = 0;
    switch (d) {
    case D_SET: return add_action(p, PL_STEP_SET, v);
    case D_VIEW: return add_action(p, PL_STEP_VIEW, v);
    case D_INLINE: return add_action(p, PL_STEP_INLINE, v);
    case D_LOCK: return add_action(p, PL_STEP_LOCK, v);
    case D_UNLOCK: return add_action(p, PL_STEP_UNLOCK, v);
    case D_TRAIN: return add_action(p, PL_STEP_TRAIN, v);
    case D_GRID: return add_action(p, PL_STEP_GRID, v);
    case D_ASK: return start_question(p, PL_Q_ASK, v);
    case D_CHOOSE: return start_question(p, PL_Q_CHOOSE, v);
    case D_EXERCISE: return start_question(p, PL_Q_EXERCISE, v);
    case D_SUMMARY:
        p->in_summary = 1;
        if (*v && append(&p->step->summary, v)) return PL_ENOMEM;
        if (!p->step->summary) p->step->summary = dupe("");
        return check_placeholders(p, v);
    default: return question_part(p, d, v);
    }
}

/* The directive a line starts with ("word: value"), or -1. */
static int directive_of(const char *line, const char **value) {
    for (int d = 0; d < D_COUNT; d++) {
        size_t n = strlen(directive_names[d]);
        if (strncmp(line, directive_names[d], n) == 0 && line[n] == ':' && (line[n + 1] == ' ' || !line[n + 1])) {
            *value = line + n + 1 + (line[n + 1] == ' ');
            return d;
        }
    }
    return -1;
}

/* ---- the header and the steps ---- */

static PlStatus header_line(Parser *p, const char *line) {
    PlLesson *l = p->l;
    for (int i = 0; header_names[i]; i++) {
        size_t n = strlen(header_names[i]);
        if (strncmp(line, header_names[i], n) != 0 || line[n] != ':') continue;
        const char *v = line + n + 1;
        while (*v == ' ') v++;
        char *end;
        switch (i) {
        case 0: free(l->level), l->level = dupe(v); return PL_OK;
        case 1:
            l->minutes = (int)strtol(v, &end, 10);
            return end == v || *end || l->minutes < 1 || l->minutes > 600
                       ? fail(p, "minutes is a whole number from 1 to 600", NULL, NULL)
                       : PL_OK;
        case 2: free(l->about), l->about = dupe(v); return PL_OK;
        default: free(l->setup), l->setup = dupe(v); return check_settings(p, v);
        }
    }
    if (!*line) return PL_OK;
    return fail(p, "before the first step (##) come only level:, minutes:, about: and setup:, got '%.40s'", line, NULL);
}

static PlStatus new_step(Parser *p, const char *title) {
    PlLesson *l = p->l;
    if (l->nsteps == MAX_STEPS) return fatal(p, "a lesson has at most 200 steps", NULL, NULL);
    PlStep *steps = realloc(l->steps, sizeof *steps * (size_t)(l->nsteps + 1));
    if (!steps) return PL_ENOMEM;
    l->steps = steps;
    p->step = &steps[l->nsteps++];
    memset(p->step, 0, sizeof *p->step);
    p->step->title = dupe(title);
    p->step->line = p->line;
    p->in_choices = p->in_summary = 0;
    return *title ? PL_OK : fail(p, "a step (##) needs a title", NULL, NULL);
}

static PlStatus step_line(Parser *p, const char *line) {
    const char *v;
    int d = directive_of(line, &v);
    if (d >= 0) return directive(p, (Directive)d, v);
    if (p->in_choices && (strncmp(line, "- ", 2) == 0 || strncmp(line, "* ", 2) == 0)) return add_choice(p, line);
    p->in_choices = 0;
    PlStatus st = check_placeholders(p, line);
    if (st) return st;
    char **into = p->in_summary ? &p->step->summary : &p->step->text;
    return append(into, line) ? PL_ENOMEM : PL_OK;
}

static void trim_end(char *text) {
    for (char *e = text ? text + strlen(text) : NULL; e && e > text && e[-1] == '\n';) *--e = '\0';
}

/* What a question must have. */
static PlStatus check_question(Parser *p, const PlQuestion *q) {
    int right = 0;
    for (int c = 0; c < q->nchoices; c++) right += q->choices[c].right;
    p->line = q->line;
    if (q->kind == PL_Q_ASK && !q->has_answer) return fail(p, "an ask: needs its answer: line", NULL, NULL);
    if (q->kind == PL_Q_CHOOSE && (q->nchoices < 2 || !right))
        return fail(p,
                    "a choose: question needs two choices or more (- text => why), one of them right (* text => why)",
                    NULL, NULL);
    if (q->kind == PL_Q_EXERCISE && !q->ngoal) return fail(p, "an exercise: needs its goal: line", NULL, NULL);
    if (q->kind == PL_Q_EXERCISE && !q->solve && q->smallest < 0)
        return fail(p, "an exercise: needs solve: (settings that meet the goal) or smallest: (the setting to minimise)",
                    NULL, NULL);
    return PL_OK;
}

/* What every question and the lesson as a whole must have. */
static PlStatus check_complete(Parser *p) {
    PlLesson *l = p->l;
    int summary = 0;
    for (int i = 0; i < l->nsteps; i++) {
        trim_end(l->steps[i].text), trim_end(l->steps[i].summary); /* the blank lines before the next step */
        PlStatus st = found(p, check_question(p, &l->steps[i].q));
        if (st) return st;
        summary |= l->steps[i].summary != NULL;
    }
    p->line = 1;
    if (!l->title || !*l->title) return fatal(p, "a lesson starts with its title: # Title", NULL, NULL);
    if (!l->nsteps) return fatal(p, "a lesson has steps, each beginning with ## and a title", NULL, NULL);
    if (!summary) return found(p, fail(p, "a lesson ends with a summary: (in its last step)", NULL, NULL));
    return PL_OK;
}

/* Whether text shows the quantity q through a {placeholder}. */
static int shows(const char *text, const PlQuantity *q) {
    for (const char *s = text ? strchr(text, '{') : NULL; s; s = strchr(s + 1, '{')) {
        const char *e = strchr(s, '}');
        char name[96], why[8];
        PlQuantity t;
        if (!e || e - s - 1 >= (long)sizeof name) return 0;
        snprintf(name, sizeof name, "%.*s", (int)(e - s - 1), s + 1);
        if (!pl_quantity_parse(name, &t, why, sizeof why) && t.def == q->def && t.arg_index == q->arg_index) return 1;
    }
    return 0;
}

/* Predict, then reveal: a step never shows the figure its question asks
 * for before the learner answers, neither in its narration nor in the
 * question itself. */
static PlStatus check_unrevealed(Parser *p) {
    for (int i = 0; i < p->l->nsteps; i++) {
        const PlStep *s = &p->l->steps[i];
        char name[96];
        if (s->q.kind != PL_Q_ASK || !s->q.has_answer) continue;
        p->line = s->q.line;
        pl_quantity_name(&s->q.answer, name, sizeof name);
        if (shows(s->text, &s->q.answer) || shows(s->q.prompt, &s->q.answer)) {
            PlStatus st = found(p, fail(p, "the step shows {%s} before its question asks for it: show it in the "
                                           "reveal instead",
                                        name, NULL));
            if (st) return st;
        }
    }
    return PL_OK;
}

static PlStatus parse_line(Parser *p, char *line) {
    for (char *e = line + strlen(line); e > line && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r');) *--e = '\0';
    if (line[0] == ';') return PL_OK; /* a comment for the teacher */
    if (!p->l->title) {
        if (!*line) return PL_OK;
        if (strncmp(line, "# ", 2) != 0) return fatal(p, "a lesson starts with its title: # Title", NULL, NULL);
        p->l->title = dupe(line + 2);
        return PL_OK;
    }
    if (strncmp(line, "## ", 3) == 0 || strcmp(line, "##") == 0) return new_step(p, line[2] ? line + 3 : "");
    if (!p->step) return header_line(p, line);
    return step_line(p, line);
}

/* A line refused before the title (a NUL byte) leaves nothing to read on. */
static PlStatus lesson_line(void *ctx, int number, char *line, const char *refused) {
    Parser *p = ctx;
    p->line = number;
    if (refused) return found(p, p->l->title ? fail(p, "%s", refused, NULL) : fatal(p, "%s", refused, NULL));
    return found(p, parse_line(p, line));
}

/* The parse, stopping at the first problem (probs NULL: it goes in err) or
 * going on to find every one (into probs). */
static PlLesson *parse(const char *path, const char *text, size_t n, PlProblems *probs, PlErr *err) {
    PlLesson *l = calloc(1, sizeof *l);
    if (!l) return pl_err_set(err, PL_ENOMEM, "%s: out of memory", path), NULL;
    const char *base = strrchr(path, '/');
    snprintf(l->name, sizeof l->name, "%s", base ? base + 1 : path);
    char *dot = strstr(l->name, ".lesson");
    if (dot && !dot[7]) *dot = '\0';
    snprintf(l->path, sizeof l->path, "%s", path);
    Parser p = {.path = path, .probs = probs, .l = l};
    PlStatus st = pl_datafile_lines(text, n, "a lesson", lesson_line, &p);
    if (!st) st = check_complete(&p);
    if (!st) st = check_unrevealed(&p);
    if (st == PL_EINPUT && probs) pl_problems_add(probs, p.last_line, p.last.msg); /* the one that stopped it */
    if (st == PL_ENOMEM) pl_err_set(&p.last, st, "%s: out of memory", path);
    if (st == PL_ENOMEM && probs) pl_problems_add(probs, 0, p.last.msg);
    if (st || (probs && probs->n)) {
        pl_err_set(err, st ? st : PL_EINPUT, "%s", probs && probs->n ? probs->at[0].msg : p.last.msg);
        pl_lesson_free(l);
        return NULL;
    }
    return l;
}

PlLesson *pl_lesson_parse(const char *path, const char *text, size_t n, PlErr *err) {
    return parse(path, text, n, NULL, err);
}

PlLesson *pl_lesson_parse_all(const char *path, const char *text, size_t n, PlProblems *probs) {
    PlErr err;
    return parse(path, text, n, probs, &err);
}

static PlLesson *load(const char *path, PlProblems *probs, PlErr *err) {
    size_t n;
    char *buf = pl_datafile_read(path, "a lesson", &n, err);
    if (!buf) {
        if (probs) pl_problems_add(probs, 0, err->msg);
        return NULL;
    }
    PlLesson *l = parse(path, buf, n, probs, err);
    free(buf);
    return l;
}

PlLesson *pl_lesson_load(const char *path, PlErr *err) { return load(path, NULL, err); }

PlLesson *pl_lesson_check(const char *path, PlProblems *probs) {
    PlErr err;
    return load(path, probs, &err);
}

static void free_question(PlQuestion *q) {
    free(q->prompt), free(q->solution), free(q->reveal), free(q->solve);
    for (int i = 0; i < q->nchoices; i++) free(q->choices[i].text), free(q->choices[i].explain);
    for (int i = 0; i < q->nhints; i++) free(q->hints[i]);
}

void pl_lesson_free(PlLesson *l) {
    if (!l) return;
    for (int i = 0; i < l->nsteps; i++) {
        PlStep *s = &l->steps[i];
        free(s->title), free(s->text), free(s->summary);
        for (int a = 0; a < s->nactions; a++) free(s->actions[a].text);
        free_question(&s->q);
    }
    free(l->steps);
    free(l->title), free(l->level), free(l->about), free(l->setup);
    free(l);
}

/* ---- where lessons are ---- */

#ifndef PL_LESSONS_DIR
#define PL_LESSONS_DIR ""
#endif
#ifndef PL_SOURCE_LESSONS_DIR
#define PL_SOURCE_LESSONS_DIR ""
#endif

int pl_lesson_dirs(char dirs[][1024], int max) {
    return pl_datafile_dirs("PADLAB_LESSONS", "lessons", PL_LESSONS_DIR, PL_SOURCE_LESSONS_DIR, dirs, max);
}

static int has_suffix(const char *s, const char *suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* The name without its number: "01-rectangle" -> "rectangle". */
static const char *bare_name(const char *name) {
    const char *s = name;
    while (isdigit((unsigned char)*s)) s++;
    return s != name && *s == '-' ? s + 1 : name;
}

static int cmp_names(const void *a, const void *b) {
    const char *x = strrchr((const char *)a, '/'), *y = strrchr((const char *)b, '/');
    return strcmp(x ? x + 1 : (const char *)a, y ? y + 1 : (const char *)b);
}

int pl_lesson_list(char paths[][1024], int max) {
    char dirs[8][1024];
    int nd = pl_lesson_dirs(dirs, 8), n = 0;
    for (int d = 0; d < nd; d++) {
        DIR *dir = opendir(dirs[d]);
        if (!dir) continue;
        for (struct dirent *e; (e = readdir(dir)) && n < max;) {
            if (e->d_name[0] == '.' || !has_suffix(e->d_name, ".lesson")) continue;
            int dup = 0;
            for (int i = 0; i < n && !dup; i++) {
                const char *b = strrchr(paths[i], '/');
                dup = b && strcmp(b + 1, e->d_name) == 0;
            }
            if (!dup) snprintf(paths[n++], 1024, "%.700s/%.300s", dirs[d], e->d_name);
        }
        closedir(dir);
    }
    qsort(paths, (size_t)n, sizeof paths[0], cmp_names);
    return n;
}

int pl_lesson_find(const char *name, char *path, int cap) {
    struct stat sb;
    if ((strchr(name, '/') || has_suffix(name, ".lesson")) && stat(name, &sb) == 0 && S_ISREG(sb.st_mode))
        return snprintf(path, (size_t)cap, "%s", name), 0;
    char(*paths)[1024] = malloc(256 * sizeof *paths);
    int n = paths ? pl_lesson_list(paths, 256) : 0, found = -1;
    for (int pass = 0; pass < 2 && found < 0; pass++)
        for (int i = 0; i < n && found < 0; i++) {
            char base[1024];
            const char *b = strrchr(paths[i], '/');
            snprintf(base, sizeof base, "%.1000s", b ? b + 1 : paths[i]);
            base[strlen(base) - strlen(".lesson")] = '\0';
            if (strcmp(pass ? bare_name(base) : base, name) == 0) found = i;
        }
    if (found >= 0) snprintf(path, (size_t)cap, "%s", paths[found]);
    free(paths);
    return found >= 0 ? 0 : -1;
}

/* ---- placeholders ---- */

const char *pl_lesson_fill(PlLab *lab, const char *text, char *out, int cap) { return pl_fill(lab, text, out, cap); }

unsigned pl_lesson_text_kinds(const char *text) { return pl_fill_kinds(text); }
