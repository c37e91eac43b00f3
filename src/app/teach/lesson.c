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
 * This file is the format: its header and directive tables, what each
 * directive means, and what a question and a lesson must have; reading the
 * lines and reporting a problem as "PATH:LINE: message" are the skeleton's
 * (doc.h), as for decks. */
#include "lesson.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/lab/fill.h"
#include "choices.h"
#include "core/corpus_load.h"
#include "doc.h"
#include "renamed.h"

#define MAX_STEPS PL_LESSON_MAX_STEPS

typedef struct {
    PlDoc doc; /* first: the handlers get it */
    PlLesson *l;
    PlStep *step;
    int in_choices, in_summary;
} Parser;

#define P(d) ((Parser *)(void *)(d))

/* A copy of s into *at, which it may replace. */
static PlStatus keep(char **at, const char *s) {
    free(*at);
    return (*at = pl_doc_dupe(s)) ? PL_OK : PL_ENOMEM;
}

/* ---- checking values ---- */

static PlStatus setting_bits(PlDoc *d, const char *text, unsigned *bits) {
    char *copy = pl_doc_dupe(text), *save = NULL;
    PlStatus st = PL_OK;
    *bits = 0;
    if (!copy) return PL_ENOMEM;
    for (char *tok = strtok_r(copy, " ,\t", &save); tok && !st; tok = strtok_r(NULL, " ,\t", &save)) {
        int id = pl_setting_find(tok);
        if (strcmp(tok, "all") == 0) *bits |= ((1u << PL_S_COUNT) - 1) & ~PL_S_BIT(PL_S_VIEW);
        else if (id < 0) st = pl_doc_fail(d, "'%.40s' is not a setting (or all)", tok);
        else *bits |= PL_S_BIT(id);
    }
    free(copy);
    if (!st && !*bits) st = pl_doc_fail(d, "name the settings, or all");
    return st;
}

/* The value of a goal's condition on c->q: a setting's value, or a number
 * ("90%" and a share above 1 are percentages). */
static PlStatus goal_value(PlDoc *d, PlCondition *c, const char *n, const char *v) {
    char why[200], *end;
    if (pl_quantity_kind_of_format(&c->q) == PL_QF_SETTING) {
        PlLabSettings s = pl_settings_default();
        PlSettingId id = (PlSettingId)pl_setting_find(n);
        PlStatus st = pl_setting_parse(&s, id, v, why, sizeof why)
                          ? pl_doc_fail(d, "%s must be %s, got '%.40s'", n, why, v)
                          : PL_OK;
        c->value = pl_setting_get(&s, id);
        return st;
    }
    c->value = strtod(v, &end);
    PlStatus st = end == v || (*end && strcmp(end, "%") != 0) || !isfinite(c->value)
                      ? pl_doc_fail(d, "'%.40s' is not a number", v)
                      : PL_OK;
    if (*end == '%' || (pl_quantity_kind_of_format(&c->q) == PL_QF_SHARE && c->value > 1.0)) c->value /= 100.0;
    return st;
}

/* "cost.kept_share >= 0.9 & maxlen <= 400": every condition must hold. */
static PlStatus parse_goal(PlDoc *d, PlQuestion *q, const char *text) {
    static const char *const ops[] = {"<=", ">=", "==", "!=", "<", ">"};
    static const PlCompare codes[] = {PL_OP_LE, PL_OP_GE, PL_OP_EQ, PL_OP_NE, PL_OP_LT, PL_OP_GT};
    char *copy = pl_doc_dupe(text), *save = NULL;
    PlStatus st = copy ? PL_OK : PL_ENOMEM;
    for (char *part = copy ? strtok_r(copy, "&", &save) : NULL; part && !st; part = strtok_r(NULL, "&", &save)) {
        if (q->ngoal == PL_LESSON_MAX_GOAL) {
            st = pl_doc_fail(d, "a goal has at most 4 conditions");
            break;
        }
        int k = 0;
        while (k < 6 && !strstr(part, ops[k])) k++;
        if (k == 6) {
            st = pl_doc_fail(d, "a goal condition is QUANTITY OP VALUE (OP one of < <= > >= == !=), got '%.60s'", part);
            break;
        }
        char name[96], value[96], why[200];
        const char *at = strstr(part, ops[k]);
        snprintf(name, sizeof name, "%.*s", (int)(at - part), part);
        snprintf(value, sizeof value, "%s", at + strlen(ops[k]));
        PlCondition *c = &q->goal[q->ngoal];
        const char *quantity = pl_doc_trim(name);
        if (pl_quantity_parse(quantity, &c->q, why, sizeof why)) {
            st = pl_doc_fail(d, "%s", why);
            break;
        }
        c->op = codes[k];
        st = goal_value(d, c, quantity, pl_doc_trim(value));
        q->ngoal++;
    }
    free(copy);
    return st;
}

/* ---- the header: level:, minutes:, about:, setup: ---- */

static PlStatus minutes(PlDoc *d, const PlDocField *f, const char *v) {
    char *end;
    (void)f;
    int m = (int)strtol(v, &end, 10);
    P(d)->l->minutes = m;
    return end == v || *end || m < 1 || m > 600 ? pl_doc_fail(d, "minutes is a whole number from 1 to 600") : PL_OK;
}

/* A set:, setup: or solve: line's settings into *patch, a builtin corpus
 * checked as its load would check it (builtin:0:2000000000 is refused
 * here, not when the step runs). */
static PlStatus settings(PlDoc *d, const char *v, PlSettingsPatch **patch) {
    PlErr err;
    PlStatus st = pl_doc_settings(d, v, patch);
    if (!st && ((*patch)->mask & PL_S_BIT(PL_S_CORPUS)) && pl_corpus_spec_check((*patch)->values.corpus, &err))
        st = pl_doc_fail(d, "%s", err.msg);
    return st;
}

static PlStatus setup(PlDoc *d, const PlDocField *f, const char *v) {
    PlLesson *l = P(d)->l;
    PlStatus st = pl_doc_header_text(d, f, v);
    return st ? st : settings(d, v, &l->setup_patch);
}

#define AT(m) .offset = offsetof(PlLesson, m)
static const PlDocField header[] = {
    {"level", pl_doc_header_text, AT(level)},
    {"minutes", minutes, .arg = 0},
    {"about", pl_doc_header_text, AT(about)},
    {"setup", setup, AT(setup)},
};
#undef AT

/* ---- a step's directives ---- */

/* set, view, inline, lock, unlock, train, grid (f->arg: the PlStepActionKind). */
static PlStatus action(PlDoc *d, const PlDocField *f, const char *value) {
    PlStep *s = P(d)->step;
    if (s->nactions == PL_LESSON_MAX_ACTIONS)
        return pl_doc_fail(d, "a step has at most 16 set, view, inline, lock and train lines");
    PlStepAction *a = &s->actions[s->nactions++];
    a->kind = (PlStepActionKind)f->arg, a->line = d->line;
    if (!(a->text = pl_doc_dupe(value))) return PL_ENOMEM;
    PlErr ignored;
    PlCorpus *c = NULL;
    PlView v;
    switch (a->kind) {
    case PL_STEP_SET: return settings(d, value, &a->set);
    case PL_STEP_VIEW: return pl_view_parse(value, &v) ? pl_doc_fail(d, "'%.40s' is not a view", value) : PL_OK;
    case PL_STEP_LOCK:
    case PL_STEP_UNLOCK: return setting_bits(d, value, &a->bits);
    case PL_STEP_INLINE: {
        char spec[1200];
        size_t most = sizeof(((PlLabSettings *)0)->corpus) - 1 - strlen("inline:");
        if (strlen(value) > most) /* the step sets it as the corpus, which holds no more */
            return pl_doc_fail(d, "an inline: line holds at most %zu bytes, this one %zu", most, strlen(value));
        snprintf(spec, sizeof spec, "inline:%s", value);
        PlStatus st = pl_corpus_load(spec, NULL, &c, &ignored);
        pl_corpus_free(c);
        if (st == PL_ENOMEM) return st;
        return st ? pl_doc_fail(d, "inline takes rows of words or ids separated by |") : PL_OK;
    }
    default: return PL_OK;
    }
}

/* ask, choose, exercise (f->arg: the PlQuestionKind). */
static PlStatus question(PlDoc *d, const PlDocField *f, const char *prompt) {
    PlQuestion *q = &P(d)->step->q;
    if (q->kind != PL_Q_NONE) return pl_doc_fail(d, "a step asks one question; start a new step (##) for another");
    q->kind = (PlQuestionKind)f->arg, q->line = d->line, q->smallest = -1;
    P(d)->in_choices = q->kind == PL_Q_CHOOSE;
    PlStatus st = keep(&q->prompt, prompt);
    return st ? st : pl_doc_placeholders(d, prompt);
}

/* A part of the step's question (f->arg: the kind it belongs to, or
 * PL_Q_NONE for any). */
static PlStatus part_of(PlDoc *d, const PlDocField *f) {
    PlQuestionKind kind = P(d)->step->q.kind;
    if (kind == PL_Q_NONE)
        return pl_doc_fail(d, "%s: belongs to a question (ask, choose or exercise) in the same step", f->name);
    if (f->arg != PL_Q_NONE && kind != (PlQuestionKind)f->arg)
        return pl_doc_fail(d, "%s: belongs to an %s: question", f->name, f->arg == PL_Q_ASK ? "ask" : "exercise");
    return PL_OK;
}

static PlStatus answer(PlDoc *d, const PlDocField *f, const char *v) {
    PlQuestion *q = &P(d)->step->q;
    char why[200];
    PlStatus st = part_of(d, f);
    if (st) return st;
    q->has_answer = 1;
    return pl_quantity_parse(v, &q->answer, why, sizeof why) ? pl_doc_fail(d, "%s", why) : PL_OK;
}

/* hides: QUANTITY ... (a choose question's evidence), names apart at
 * spaces outside an argument's parentheses ("grid.min(pre on)"). */
static PlStatus hides(PlDoc *d, const PlDocField *f, const char *v) {
    PlQuestion *q = &P(d)->step->q;
    PlStatus st = part_of(d, f);
    if (st) return st;
    if (q->kind != PL_Q_CHOOSE) return pl_doc_fail(d, "hides: belongs to a choose: question");
    while (*v) {
        size_t n = 0;
        for (int depth = 0; v[n] && (depth || v[n] != ' '); n++) depth += v[n] == '(' ? 1 : v[n] == ')' ? -1 : 0;
        char word[128], why[200];
        snprintf(word, sizeof word, "%.*s", (int)(n < sizeof word ? n : sizeof word - 1), v);
        if (q->nhides == PL_LESSON_MAX_HIDES) return pl_doc_fail(d, "hides: names at most 4 figures");
        if (pl_quantity_parse(word, &q->hides[q->nhides++], why, sizeof why)) return pl_doc_fail(d, "hides: %s", why);
        for (v += n; *v == ' ';) v++;
    }
    return q->nhides ? PL_OK : pl_doc_fail(d, "hides: names the figures a choose: question rests on");
}

static PlStatus tolerance(PlDoc *d, const PlDocField *f, const char *v) {
    PlStatus st = part_of(d, f);
    if (st) return st;
    PlTolerance *t = &P(d)->step->q.tolerance;
    return pl_tolerance_parse(v, t) || !isfinite(t->value) /* nan: no answer is ever right */
               ? pl_doc_fail(d, "a tolerance is a number, a percentage or N points, got '%.40s'", v)
               : PL_OK;
}

static PlStatus goal(PlDoc *d, const PlDocField *f, const char *v) {
    PlStatus st = part_of(d, f);
    return st ? st : parse_goal(d, &P(d)->step->q, v);
}

static PlStatus smallest(PlDoc *d, const PlDocField *f, const char *v) {
    PlQuestion *q = &P(d)->step->q;
    PlStatus st = part_of(d, f);
    if (st) return st;
    int id = pl_setting_find(v);
    if (q->kind != PL_Q_EXERCISE || id < 0 || pl_settings[id].type != PL_ST_INT)
        return pl_doc_fail(d, "smallest: names a number setting of an exercise, got '%.40s'", v);
    q->smallest = id;
    return PL_OK;
}

static PlStatus solve(PlDoc *d, const PlDocField *f, const char *v) {
    PlStatus st = part_of(d, f);
    return st ? st : settings(d, v, &P(d)->step->q.solve);
}

static PlStatus hint(PlDoc *d, const PlDocField *f, const char *v) {
    PlQuestion *q = &P(d)->step->q;
    PlStatus st = part_of(d, f);
    if (st) return st;
    if (q->nhints == PL_LESSON_MAX_HINTS) return pl_doc_fail(d, "a question has at most 8 hints");
    if (!(q->hints[q->nhints++] = pl_doc_dupe(v))) return PL_ENOMEM;
    return pl_doc_placeholders(d, v);
}

/* misconception: VALUE => WHAT IT COMES FROM (read once the answer is known). */
static PlStatus misconception(PlDoc *d, const PlDocField *f, const char *v) {
    PlQuestion *q = &P(d)->step->q;
    PlStatus st = part_of(d, f);
    if (st) return st;
    const char *arrow = strstr(v, "=>");
    if (!arrow) return pl_doc_fail(d, "a misconception is VALUE => what it comes from, got '%.40s'", v);
    if (q->nmiscon == PL_LESSON_MAX_MISCONCEPTIONS) return pl_doc_fail(d, "a question has at most 4 misconceptions");
    PlMisconception *m = &q->miscon[q->nmiscon++];
    char value[64];
    snprintf(value, sizeof value, "%.*s", (int)(arrow - v < 63 ? arrow - v : 63), v);
    for (char *e = value + strlen(value); e > value && e[-1] == ' ';) *--e = '\0';
    const char *text = arrow + 2;
    while (*text == ' ') text++;
    m->line = d->line;
    if (!(m->value = pl_doc_dupe(value)) || !(m->text = pl_doc_dupe(text))) return PL_ENOMEM;
    if (!*text) return pl_doc_fail(d, "a misconception says what it comes from after its =>");
    if (strlen(text) > PL_LESSON_MISCONCEPTION_TEXT)
        return pl_doc_fail(d, "a misconception says what it comes from in %d characters at most (a class's tally row)",
                           PL_LESSON_MISCONCEPTION_TEXT);
    size_t n = strlen(value);
    if (value[0] != '{') return PL_OK;
    char name[64], why[160]; /* a figure of the lab: "{kvcache.reads}" */
    snprintf(name, sizeof name, "%.*s", n > 2 && value[n - 1] == '}' ? (int)n - 2 : 0, value + 1);
    if (!*name) return pl_doc_fail(d, "a misconception's value is a number or one {quantity}, got '%.40s'", value);
    if (pl_quantity_parse(name, &m->quantity, why, sizeof why))
        return pl_doc_fail(d, "a misconception's {%s}: %s", name, why);
    m->measured = 1, m->number = NAN;
    return PL_OK;
}

/* solution:, reveal: (f->offset: the member of PlQuestion). */
static PlStatus question_text(PlDoc *d, const PlDocField *f, const char *v) {
    PlStatus st = part_of(d, f);
    if (!st) st = keep((char **)(void *)((char *)&P(d)->step->q + f->offset), v);
    return st ? st : pl_doc_placeholders(d, v);
}

static PlStatus summary(PlDoc *d, const PlDocField *f, const char *v) {
    PlStep *s = P(d)->step;
    (void)f;
    P(d)->in_summary = 1;
    if (*v && pl_doc_append(&s->summary, v)) return PL_ENOMEM;
    if (!s->summary && !(s->summary = pl_doc_dupe(""))) return PL_ENOMEM;
    return pl_doc_placeholders(d, v);
}

#define Q(m) .offset = offsetof(PlQuestion, m)
static const PlDocField directives[] = {
    {"set", action, .arg = PL_STEP_SET},
    {"view", action, .arg = PL_STEP_VIEW},
    {"inline", action, .arg = PL_STEP_INLINE},
    {"lock", action, .arg = PL_STEP_LOCK},
    {"unlock", action, .arg = PL_STEP_UNLOCK},
    {"train", action, .arg = PL_STEP_TRAIN},
    {"grid", action, .arg = PL_STEP_GRID},
    {"ask", question, .arg = PL_Q_ASK},
    {"answer", answer, .arg = PL_Q_ASK},
    {"tolerance", tolerance, .arg = PL_Q_ASK},
    {"misconception", misconception, .arg = PL_Q_ASK},
    {"choose", question, .arg = PL_Q_CHOOSE},
    {"hides", hides, .arg = PL_Q_NONE},
    {"exercise", question, .arg = PL_Q_EXERCISE},
    {"goal", goal, .arg = PL_Q_EXERCISE},
    {"smallest", smallest, .arg = PL_Q_NONE},
    {"solve", solve, .arg = PL_Q_EXERCISE},
    {"hint", hint, .arg = PL_Q_NONE},
    {"solution", question_text, .arg = PL_Q_NONE, Q(solution)},
    {"reveal", question_text, .arg = PL_Q_NONE, Q(reveal)},
    {"summary", summary, .arg = 0},
};
#undef Q

/* A directive ends the summary, and the choices unless it is a hint, a
 * solution or a reveal of the question. */
static PlStatus enter(PlDoc *d, const PlDocField *f) {
    P(d)->in_summary = 0;
    if (f->handle != hint && f->handle != question_text) P(d)->in_choices = 0;
    return PL_OK;
}

/* ---- a step's lines ---- */

/* "- text => why" or "* text => why" (the right ones starred). */
static PlStatus add_choice(PlDoc *d, const char *line) {
    PlQuestion *q = &P(d)->step->q;
    if (q->nchoices == PL_LESSON_MAX_CHOICES) return pl_doc_fail(d, "a question has at most 8 choices");
    PlChoice *c = &q->choices[q->nchoices++];
    const char *text = line + 2, *arrow;
    while (*text == ' ') text++;
    c->pinned = pl_choices_pinned(text, &text);
    arrow = strstr(text, "=>");
    c->right = line[0] == '*';
    c->text = arrow ? strndup(text, (size_t)(arrow - text)) : pl_doc_dupe(text);
    c->explain = pl_doc_dupe(arrow ? arrow + 2 : "");
    if (!c->text || !c->explain) return PL_ENOMEM;
    for (char *e = c->text + strlen(c->text); e > c->text && e[-1] == ' ';) *--e = '\0';
    char *x = c->explain;
    while (*x == ' ') memmove(x, x + 1, strlen(x));
    if (!c->text[0]) return pl_doc_fail(d, "a choice needs its text");
    PlStatus st = pl_doc_placeholders(d, c->text);
    return st ? st : pl_doc_placeholders(d, c->explain);
}

static PlStatus step_text(PlDoc *d, const char *line) {
    Parser *p = P(d);
    if (p->in_choices && (strncmp(line, "- ", 2) == 0 || strncmp(line, "* ", 2) == 0)) return add_choice(d, line);
    p->in_choices = 0;
    PlStatus st = pl_doc_placeholders(d, line);
    return st ? st : pl_doc_append(p->in_summary ? &p->step->summary : &p->step->text, line);
}

/* A ; line: the step's notes, or the lesson's before the first step. A
 * placeholder in a note is checked as the narration's are. */
static PlStatus note(PlDoc *d, const char *text) {
    Parser *p = P(d);
    PlStatus st = pl_doc_placeholders(d, text);
    return st ? st : pl_doc_append(p->step ? &p->step->notes : &p->l->notes, text);
}

static PlStatus new_step(PlDoc *d, char *title) {
    Parser *p = P(d);
    PlLesson *l = p->l;
    if (l->nsteps == MAX_STEPS) return pl_doc_fatal(d, "a lesson has at most 200 steps");
    PlStep *steps = realloc(l->steps, sizeof *steps * (size_t)(l->nsteps + 1));
    if (!steps) return PL_ENOMEM;
    l->steps = steps;
    p->step = &steps[l->nsteps++];
    memset(p->step, 0, sizeof *p->step);
    p->step->line = d->line;
    p->in_choices = p->in_summary = 0;
    if (!(p->step->title = pl_doc_dupe(title))) return PL_ENOMEM;
    return *title ? PL_OK : pl_doc_fail(d, "a step (##) needs a title");
}

/* ---- the lesson as a whole ---- */

static void trim_end(char *text) {
    for (char *e = text ? text + strlen(text) : NULL; e && e > text && e[-1] == '\n';) *--e = '\0';
}

/* What a question must have. */
static PlStatus check_question(PlDoc *d, PlQuestion *q) {
    int right = 0;
    for (int c = 0; c < q->nchoices; c++) right += q->choices[c].right;
    d->line = q->line;
    if (q->kind == PL_Q_ASK && !q->has_answer) return pl_doc_fail(d, "an ask: needs its answer: line");
    if (q->kind == PL_Q_CHOOSE && (q->nchoices < 2 || !right))
        return pl_doc_fail(
            d, "a choose: question needs two choices or more (- text => why), one of them right (* text => why)");
    if (q->kind == PL_Q_EXERCISE && !q->ngoal) return pl_doc_fail(d, "an exercise: needs its goal: line");
    for (int m = 0; q->has_answer && m < q->nmiscon; m++) { /* read in the answer's unit: "45%" of a share */
        PlMisconception *mc = &q->miscon[m];
        if (mc->measured && pl_quantity_kind_of_format(&mc->quantity) != pl_quantity_kind_of_format(&q->answer))
            return d->line = mc->line,
                   pl_doc_fail(d, "a misconception's %s is not the same kind of figure as the answer", mc->value);
        if (!mc->measured && pl_quantity_read(&q->answer, mc->value, &mc->number))
            return d->line = mc->line,
                   pl_doc_fail(d, "a misconception's value is a number the answer could be, got '%.40s'", mc->value);
    }
    if (q->kind == PL_Q_EXERCISE && !q->solve && q->smallest < 0)
        return pl_doc_fail(
            d, "an exercise: needs solve: (settings that meet the goal) or smallest: (the setting to minimise)");
    return PL_OK;
}

/* ---- settings and facts, step by step ---- */

void pl_lesson_settings_at(const PlLesson *l, const PlLabSettings *base, int k, PlLabSettings *s, unsigned *locks) {
    *s = *base;
    *locks = 0;
    pl_settings_patch_apply(s, l->setup_patch);
    for (int i = 0; i <= k && i < l->nsteps; i++)
        for (int a = 0; a < l->steps[i].nactions; a++) {
            const PlStepAction *act = &l->steps[i].actions[a];
            PlView v;
            switch (act->kind) {
            case PL_STEP_SET: pl_settings_patch_apply(s, act->set); break;
            case PL_STEP_VIEW:
                if (!pl_view_parse(act->text, &v)) s->view = v;
                break;
            case PL_STEP_INLINE:
                if (i == k) snprintf(s->corpus, sizeof s->corpus, "inline:%s", act->text);
                break;
            case PL_STEP_LOCK: *locks |= act->bits; break;
            case PL_STEP_UNLOCK: *locks &= ~act->bits; break;
            default: break;
            }
        }
}

int pl_lesson_same_fact(const PlQuantity *q, const PlLabSettings *a, const PlLabSettings *b) {
    unsigned kinds = pl_quantity_kinds(q), deps = 0, ignores = pl_quantity_ignores(q);
    /* a figure of training reads every run of its setting, whatever seeds
     * trained it: more seeds of the same setting share the asked runs (a
     * range over six seeds bounds the spread over three of them) */
    if (pl_quantity_reads_training(q)) return pl_lab_same_setting(a, b);
    if (kinds && ignores == PL_QUANTITY_ANY_SETTINGS) return 1;
    for (int k = 0; k < PL_R_COUNT; k++)
        if (kinds & (1u << k)) deps |= pl_result_deps((PlResultKind)k);
    deps &= ~ignores;
    for (int id = 0; id < PL_S_COUNT; id++) {
        if (!(deps & PL_S_BIT(id))) continue;
        /* auto stands for a row only a corpus tells: it may be the one the other names */
        if (id == PL_S_EXAMPLE && (a->example == PL_EXAMPLE_AUTO) != (b->example == PL_EXAMPLE_AUTO)) continue;
        if (pl_settings[id].type == PL_ST_TEXT
                ? strcmp(a->corpus, b->corpus) != 0
                : pl_setting_get(a, (PlSettingId)id) != pl_setting_get(b, (PlSettingId)id))
            return 0;
    }
    return deps != 0; /* a setting's value hides nothing: the learner sets it */
}

/* Whether step s trains or runs the grid. */
static int step_trains(const PlStep *s) {
    for (int a = 0; a < s->nactions; a++)
        if (s->actions[a].kind == PL_STEP_TRAIN || s->actions[a].kind == PL_STEP_GRID) return 1;
    return 0;
}

typedef struct {
    const char *name;
    int found;
} Named;

static void named_one(const char *name, void *ctx) {
    Named *n = ctx;
    n->found |= strcmp(n->name, name) == 0;
}

/* Whether the question (its prompt, ctx) names figure `name` to work from. */
static int handed_over(const char *name, void *ctx) {
    Named n = {name, 0};
    pl_lesson_text_quantities(ctx, named_one, &n);
    return n.found;
}

/* Hides quantity q of step s's question with what determines it, but what
 * its prompt hands over to work from. */
static void hide_asked(const PlStep *s, const PlQuantity *q, PlLedger *out) {
    char name[96];
    pl_quantity_hide_but(out, pl_quantity_name(q, name, sizeof name), handed_over, s->q.prompt);
}

void pl_lesson_question_hides(const PlStep *s, PlLedger *out) {
    if (s->q.kind == PL_Q_ASK && s->q.has_answer) hide_asked(s, &s->q.answer, out);
    for (int i = 0; s->q.kind == PL_Q_CHOOSE && i < s->q.nhides; i++) /* the evidence its choices rest on */
        hide_asked(s, &s->q.hides[i], out);
    if ((s->q.kind == PL_Q_ASK || s->q.kind == PL_Q_CHOOSE) &&
        (step_trains(s) || (s->q.kind == PL_Q_ASK && pl_quantity_reads_training(&s->q.answer))) &&
        out->training == 0) /* the views' "stay hidden" line: an empty family, which hides nothing more */
        out->runs[0][0] = '\0', out->training = 1;
}

void pl_lesson_question_hides_elsewhere(const PlStep *s, const PlLabSettings *there, const PlLabSettings *now,
                                        PlLedger *out) {
    if (s->q.kind == PL_Q_ASK && s->q.has_answer && pl_lesson_same_fact(&s->q.answer, there, now))
        pl_lesson_question_hides(s, out);
    for (int i = 0; s->q.kind == PL_Q_CHOOSE && i < s->q.nhides; i++)
        if (pl_lesson_same_fact(&s->q.hides[i], there, now)) hide_asked(s, &s->q.hides[i], out);
}

const char *pl_lesson_unfilled(const char *text, const char *as, char *out, size_t cap) {
    size_t n = 0, w = strlen(as);
    for (const char *s = text ? text : ""; *s && n + w + 1 < cap; s++) {
        const char *close = *s == '{' ? strchr(s, '}') : NULL;
        if (close) memcpy(out + n, as, w), n += w, s = close;
        else out[n++] = *s;
    }
    if (cap) out[n] = '\0';
    return out;
}

void pl_lesson_text_quantities(const char *text, void (*each)(const char *name, void *ctx), void *ctx) {
    for (const char *s = text ? strchr(text, '{') : NULL; s; s = strchr(s + 1, '{')) {
        const char *e = s + 1 + strcspn(s + 1, "|}");
        char body[256], name[96], why[8];
        if (!*e || e - s - 1 >= (long)sizeof body) continue;
        snprintf(body, sizeof body, "%.*s", (int)(e - s - 1), s + 1 + (s[1] == '?'));
        for (char *t = body; *t;) { /* words apart at operators, and at spaces outside an argument's parentheses */
            size_t n = 0;
            for (int depth = 0; t[n] && !strchr("&<>=!", t[n]) && (depth || t[n] != ' '); n++)
                depth += t[n] == '(' ? 1 : t[n] == ')' ? -1 : 0;
            char word[128];
            snprintf(word, sizeof word, "%.*s", (int)n, t);
            PlQuantity q;
            if (n && !pl_quantity_parse(word, &q, why, sizeof why)) each(pl_quantity_name(&q, name, sizeof name), ctx);
            t += n + (t[n] != '\0');
        }
    }
}

typedef struct {
    const PlLedger *hidden;
    char *name;
    int cap, found;
} Shows;

static void shows_one(const char *name, void *ctx) {
    Shows *s = ctx;
    if (!s->found && pl_ledger_hides_name(s->hidden, name)) s->found = 1, snprintf(s->name, (size_t)s->cap, "%s", name);
}

/* The first figure text shows that ledger hides: through a {placeholder},
 * or the condition of a {? conditional}, whose text tells the figure. 1
 * with its name, or 0. */
static int shows_hidden(const char *text, const PlLedger *hidden, char *name, int cap) {
    Shows s = {hidden, name, cap, 0};
    pl_lesson_text_quantities(text, shows_one, &s);
    return s.found;
}

/* A ledger hiding only the figure asked, not what determines it. */
static void hide_only(PlLedger *l, const char *asked) {
    pl_ledger_clear(l);
    pl_ledger_hide(l, asked);
    pl_ledger_runs_clear(l); /* a figure of training by its name, not its runs */
}

/* Predict, then reveal: before the learner answers, a step never shows the
 * figure its question asks for, nor, in its narration, a figure that gives
 * it away (its question may hand over what to work it out from, a hint may
 * lead to it); nor the figure a later question asks for where it is the
 * same fact. */
static PlStatus check_unrevealed(PlDoc *d, const PlLesson *l, int k) {
    const PlStep *s = &l->steps[k];
    PlLabSettings base = pl_settings_default(), here, there;
    unsigned locks;
    char name[96], asked[96];
    pl_lesson_settings_at(l, &base, k, &here, &locks);
    for (int j = k; j < l->nsteps; j++) {
        const PlStep *t = &l->steps[j];
        PlLedger all, only;
        if (t->q.kind != PL_Q_ASK || !t->q.has_answer) continue;
        pl_lesson_settings_at(l, &base, j, &there, &locks);
        if (j > k && !pl_lesson_same_fact(&t->q.answer, &there, &here)) continue;
        pl_quantity_name(&t->q.answer, asked, sizeof asked);
        pl_ledger_clear(&all);
        pl_quantity_hide(&all, asked);
        /* its narration may hand over figures of training, but not it or what determines it */
        pl_ledger_runs_clear(&all);
        hide_only(&only, asked);
        int found = shows_hidden(s->text, j == k ? &all : &only, name, sizeof name) ||
                    shows_hidden(s->q.prompt, &only, name, sizeof name);
        for (int c = 0; c < s->q.nchoices && !found; c++)
            found = shows_hidden(s->q.choices[c].text, &only, name, sizeof name);
        for (int h = 0; j == k && h < s->q.nhints && !found; h++)
            found = shows_hidden(s->q.hints[h], &only, name, sizeof name);
        if (!found) continue;
        d->line = s->q.line ? s->q.line : s->line;
        if (j == k && strcmp(name, asked) == 0)
            return pl_doc_fail(d, "the step shows {%s} before its question asks for it: show it in the reveal instead",
                               name);
        if (j == k)
            return pl_doc_fail(d,
                               "the step's narration shows {%s}, which gives away {%s} before its question asks for it",
                               name, asked);
        return pl_doc_fail(d, "the step shows {%s}, which step %d asks for (the same figure there): show it after",
                           name, j + 1);
    }
    return PL_OK;
}

/* What every question and the lesson as a whole must have. */
static PlStatus finish(PlDoc *d) {
    PlLesson *l = P(d)->l;
    int summary = 0;
    for (int i = 0; i < l->nsteps; i++) {
        trim_end(l->steps[i].text), trim_end(l->steps[i].summary); /* the blank lines before the next step */
        PlStatus st = pl_doc_found(d, check_question(d, &l->steps[i].q));
        if (st) return st;
        summary |= l->steps[i].summary != NULL;
    }
    d->line = 1;
    if (!l->nsteps) return pl_doc_fatal(d, "a lesson has steps, each beginning with ## and a title");
    PlStatus st = summary ? PL_OK : pl_doc_found(d, pl_doc_fail(d, "a lesson ends with a summary: (in its last step)"));
    for (int i = 0; i < l->nsteps && !st; i++) st = pl_doc_found(d, check_unrevealed(d, l, i));
    return st;
}

#ifndef PL_LESSONS_DIR
#define PL_LESSONS_DIR ""
#endif
#ifndef PL_SOURCE_LESSONS_DIR
#define PL_SOURCE_LESSONS_DIR ""
#endif

static void *parse(const char *path, const char *text, size_t n, PlProblems *probs, PlErr *err);

static const PlDocFormat format = {
    .what = "a lesson",
    .suffix = ".lesson",
    .section = "step",
    .env = "PADLAB_LESSONS",
    .sub = "lessons",
    .installed = PL_LESSONS_DIR,
    .source = PL_SOURCE_LESSONS_DIR,
    .renamed = pl_lesson_renamed,
    .header = header,
    .nheader = (int)(sizeof header / sizeof header[0]),
    .fields = directives,
    .nfields = (int)(sizeof directives / sizeof directives[0]),
    .enter = enter,
    .begin = new_step,
    .text = step_text,
    .note = note,
    .finish = finish,
    .parse = parse,
};

/* ---- parsing, loading, freeing ---- */

/* The parse, stopping at the first problem (probs NULL: it goes in err) or
 * going on to find every one (into probs). */
static void *parse(const char *path, const char *text, size_t n, PlProblems *probs, PlErr *err) {
    PlLesson *l = calloc(1, sizeof *l);
    if (!l) return pl_doc_no_memory(path, probs, err);
    pl_doc_name(&format, path, l->name, sizeof l->name);
    snprintf(l->path, sizeof l->path, "%s", path);
    Parser p = {.doc = {.format = &format, .path = path, .out = l, .title = &l->title, .probs = probs}, .l = l};
    if (pl_doc_parse(&p.doc, text, n, err)) {
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

PlLesson *pl_lesson_load(const char *path, PlErr *err) { return pl_doc_load(&format, path, NULL, err); }

PlLesson *pl_lesson_check(const char *path, PlProblems *probs) {
    PlErr err;
    return pl_doc_load(&format, path, probs, &err);
}

static void free_question(PlQuestion *q) {
    free(q->prompt), free(q->solution), free(q->reveal), free(q->solve);
    for (int i = 0; i < q->nchoices; i++) free(q->choices[i].text), free(q->choices[i].explain);
    for (int i = 0; i < q->nhints; i++) free(q->hints[i]);
    for (int i = 0; i < q->nmiscon; i++) free(q->miscon[i].value), free(q->miscon[i].text);
}

void pl_lesson_free(PlLesson *l) {
    if (!l) return;
    for (int i = 0; i < l->nsteps; i++) {
        PlStep *s = &l->steps[i];
        free(s->title), free(s->text), free(s->summary), free(s->notes);
        for (int a = 0; a < s->nactions; a++) free(s->actions[a].text), free(s->actions[a].set);
        free_question(&s->q);
    }
    free(l->steps);
    free(l->title), free(l->level), free(l->about), free(l->setup), free(l->setup_patch), free(l->notes);
    free(l);
}

/* ---- where lessons are ---- */

int pl_lesson_dirs(char dirs[][1024], int max) { return pl_doc_dirs(&format, dirs, max); }
int pl_lesson_list(char paths[][1024], int max) { return pl_doc_list(&format, paths, max); }

int pl_lesson_next(const char *name, char *next, int cap) {
    char(*paths)[1024] = malloc(256 * sizeof *paths);
    int n = paths ? pl_lesson_list(paths, 256) : -1, rc = 1;
    if (n < 0) return free(paths), -1;
    for (int i = 0; i + 1 < n && rc == 1; i++) {
        char base[300];
        pl_doc_name(&format, paths[i], base, sizeof base);
        if (strcmp(base, name) == 0) pl_doc_name(&format, paths[i + 1], next, cap), rc = 0;
    }
    free(paths);
    return rc;
}
int pl_lesson_find(const char *name, char *path, int cap) { return pl_doc_find(&format, name, path, cap); }

const char *pl_lesson_renamed_here(const char *old) {
    const char *now = pl_lesson_renamed(old);
    char path[1024], base[300];
    if (!now || pl_lesson_find(old, path, sizeof path)) return now;
    pl_doc_name(&format, path, base, sizeof base);
    return strcmp(base, old) == 0 ? NULL : now;
}

/* ---- placeholders ---- */

const char *pl_lesson_fill(PlLab *lab, const PlLedger *ledger, const char *text, char *out, int cap) {
    return pl_fill(lab, ledger, text, out, cap);
}

unsigned pl_lesson_text_kinds(const char *text) { return pl_fill_kinds(text); }
