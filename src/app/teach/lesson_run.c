/* A lesson played on a lab (see lesson_run.h). Going to a step folds the
 * lesson's settings up to it over the ones the lab had when the lesson began,
 * so a step looks the same however the learner got there. */
#include "lesson_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/lab/fill.h"
#include "choices.h"
#include "diagnose.h"

struct PlLessonRun {
    PlLab *lab;
    const PlLesson *l;
    uint64_t salt; /* the learner's, and their attempt: the order of choices */
    int attempt;
    PlLabSettings base; /* the lab's settings when the lesson began */
    PlLessonState st;
    signed char answers[PL_PROGRESS_ANSWERS]; /* each step's first answer: 1 right, -1 wrong */
    unsigned char seen[PL_LESSON_MAX_STEPS];  /* each step's figure shown: answered right or solved */
    int furthest;
};

const PlLesson *pl_lesson_run_lesson(const PlLessonRun *r) { return r->l; }
const PlLessonState *pl_lesson_run_state(const PlLessonRun *r) { return &r->st; }
const PlStep *pl_lesson_run_step(const PlLessonRun *r) { return &r->l->steps[r->st.step]; }

/* The settings and the locks of step k, over the lab's when the lesson began. */
static void fold(const PlLessonRun *r, int k, PlLabSettings *s, unsigned *locks) {
    pl_lesson_settings_at(r->l, &r->base, k, s, locks);
}

/* Step k's settings as the lab holds them once applied: example=auto is
 * the row it resolves to, so that a step left at auto and one naming that
 * row show the same fact (the worksheet showed a later question's pad
 * cells on a step at auto). */
static void fold_resolved(const PlLessonRun *r, int k, PlLabSettings *s) {
    unsigned locks;
    fold(r, k, s, &locks);
    s->example = pl_lab_example_of(r->lab, s);
}

enum { WORK_TRAIN = 1, WORK_GRID = 2 };

/* What step k trains itself: WORK_TRAIN, WORK_GRID or both, or 0. */
static unsigned step_work(const PlLesson *l, int k) {
    unsigned w = 0;
    for (int a = 0; a < l->steps[k].nactions; a++) {
        PlStepActionKind kind = l->steps[k].actions[a].kind;
        w |= kind == PL_STEP_TRAIN ? WORK_TRAIN : kind == PL_STEP_GRID ? WORK_GRID : 0u;
    }
    return w;
}

/* Whether step s's text or question reads a figure of training. */
static int step_reads_training(const PlStep *s) {
    const PlQuestion *q = &s->q;
    int t = pl_fill_reads_training(s->text) || pl_fill_reads_training(s->summary) ||
            pl_fill_reads_training(q->prompt) || pl_fill_reads_training(q->reveal) ||
            pl_fill_reads_training(q->solution) || (q->kind == PL_Q_ASK && pl_quantity_reads_training(&q->answer));
    for (int i = 0; i < q->nhints && !t; i++) t = pl_fill_reads_training(q->hints[i]);
    for (int i = 0; i < q->nchoices && !t; i++)
        t = pl_fill_reads_training(q->choices[i].explain) || pl_fill_reads_training(q->choices[i].text);
    return t;
}

/* The training or grid the step needs: its own, else, when it reads the
 * figures of an earlier step's training, that step's work (a step jumped
 * to shows figures, not "..."), unless the lab already has those runs. */
static unsigned needed_work(PlLessonRun *r, int k) {
    unsigned own = step_work(r->l, k);
    if (own || !step_reads_training(&r->l->steps[k])) return own;
    int j = k - 1;
    while (j >= 0 && !step_work(r->l, j)) j--;
    if (j < 0) return 0;
    unsigned w = step_work(r->l, j);
    const PlLabSettings *s = pl_lab_settings(r->lab);
    PlLabGroup g;
    if ((w & WORK_TRAIN) && pl_lab_group_of(r->lab, s, &g) && g.n >= (s->seeds < 1 ? 1 : s->seeds)) w &= ~WORK_TRAIN;
    return w;
}

/* The training or grid work asks for, started unless it already runs (or
 * the grid is already done for these settings). */
static void start_work(PlLessonRun *r, unsigned work) {
    if (work & WORK_TRAIN) {
        if (!pl_lab_training(r->lab)->active) pl_lab_command(r->lab, PL_CMD_RUN);
        r->st.waiting = 1;
    }
    if (work & WORK_GRID) {
        /* a grid already done for these settings and seeds is not trained again */
        PlLabGrid g = pl_lab_grid(r->lab);
        PlLabSettings s = *pl_lab_settings(r->lab);
        s.padding = g.base.padding, s.mask = g.base.mask; /* the grid trains every padding and mask */
        int done = g.done && pl_lab_same_setting(&g.base, &s) && g.base.seed == s.seed &&
                   g.seeds == (s.seeds < 1 ? 1 : s.seeds);
        pl_lab_retrain_cancel(r->lab, "not retrained: the grid trains every padding x mask of these settings");
        if (!g.active && !done) pl_lab_command(r->lab, PL_CMD_GRID);
        r->st.waiting = 1;
    }
}

/* The order the step's choices are shown in, for this learner and attempt. */
static void shuffle(PlLessonRun *r) {
    const PlQuestion *q = &pl_lesson_run_step(r)->q;
    int pinned[PL_LESSON_MAX_CHOICES];
    char which[32];
    for (int c = 0; c < q->nchoices; c++) pinned[c] = q->choices[c].pinned;
    snprintf(which, sizeof which, "step-%d", r->st.step + 1);
    pl_choices_order(pl_choices_seed(r->salt, r->l->name, which, r->attempt), pinned, q->nchoices, r->st.order);
}

void pl_lesson_run_learner(PlLessonRun *r, uint64_t salt, int attempt) {
    r->salt = salt, r->attempt = attempt;
    shuffle(r);
}

int pl_lesson_run_goto(PlLessonRun *r, int k, PlErr *err) {
    if (k < 0 || k >= r->l->nsteps) return pl_err_set(err, PL_ERANGE, "the lesson has steps 1 to %d", r->l->nsteps), -1;
    PlLabSettings s;
    unsigned locks;
    fold(r, k, &s, &locks);
    if (pl_lab_apply(r->lab, &s, err) < 0) return -1;
    pl_lab_lock(r->lab, locks);
    memset(&r->st, 0, sizeof r->st);
    r->st.step = k;
    r->st.chosen = -1;
    shuffle(r);
    if (k > r->furthest) r->furthest = k;
    start_work(r, needed_work(r, k));
    return 0;
}

PlLessonRun *pl_lesson_run_new(PlLab *lab, const PlLesson *l, int step, PlErr *err) {
    PlLessonRun *r = calloc(1, sizeof *r);
    if (!r) return pl_err_set(err, PL_ENOMEM, "out of memory for a lesson"), NULL;
    r->lab = lab, r->l = l, r->base = *pl_lab_settings(lab);
    step = step < 0 ? 0 : step >= l->nsteps ? l->nsteps - 1 : step;
    if (pl_lesson_run_goto(r, step, err)) {
        pl_lesson_run_free(r);
        return NULL;
    }
    return r;
}

void pl_lesson_run_free(PlLessonRun *r) {
    if (!r) return;
    pl_lab_lock(r->lab, 0);
    pl_lab_set_ledger(r->lab, NULL);
    pl_lab_clear_reading(r->lab);
    free(r);
}

/* ---- answers ---- */

/* Whether quantity q reads a figure a retrain now running will change: a
 * figure of training, or a result that reads the trained model. */
static int retrain_changes(PlLessonRun *r, const PlQuantity *q) {
    if (!pl_lab_training(r->lab)->active && !pl_lab_grid(r->lab).active) return 0;
    if (pl_quantity_reads_training(q)) return 1;
    unsigned kinds = pl_quantity_kinds(q);
    for (int k = 0; k < PL_R_COUNT; k++)
        if ((kinds & (1u << k)) && pl_result_lacks((PlResultKind)k)) return 1; /* it reads a model when one fits */
    return 0;
}

static void record(PlLessonRun *r, int right) {
    r->st.attempts++;
    r->st.answer = right ? PL_ANS_RIGHT : PL_ANS_WRONG;
    if (right) r->seen[r->st.step] = 1;
    if (r->st.step < PL_PROGRESS_ANSWERS && !r->answers[r->st.step]) r->answers[r->st.step] = right ? 1 : -1;
}

static int answer_ask(PlLessonRun *r, const PlQuestion *q, const char *typed) {
    double v;
    r->st.not_ready = pl_quantity_value(r->lab, &q->answer, &v, r->st.message, sizeof r->st.message) != 0;
    if (!r->st.not_ready &&
        retrain_changes(r, &q->answer)) /* the number it would be checked against is about to change */
        r->st.not_ready = 1, snprintf(r->st.message, sizeof r->st.message, "the lab is retraining");
    if (r->st.not_ready) return -1; /* not computed yet: the front end asks again */
    int ok = pl_quantity_check(&q->answer, v, typed, &q->tolerance);
    if (ok < 0 && strchr(typed, '%') && pl_quantity_kind_of_format(&q->answer) != PL_QF_SHARE)
        return snprintf(r->st.message, sizeof r->st.message,
                        "'%.40s' is a share; the question asks for %s: type it without %%", typed,
                        pl_quantity_help_of(&q->answer)),
               -1;
    if (ok < 0)
        return snprintf(r->st.message, sizeof r->st.message, "'%.40s' is not an answer: type a number", typed), -1;
    snprintf(r->st.typed, sizeof r->st.typed, "%.60s", typed);
    r->st.value = v;
    record(r, ok);
    if (!ok) {
        PlLedger others; /* a figure another question not answered yet asks is not named */
        pl_lesson_run_unnamed(r, &others);
        pl_diagnose(r->lab, q, &others, v, r->st.typed, r->st.message, sizeof r->st.message);
    }
    return ok ? PL_ANS_RIGHT : PL_ANS_WRONG;
}

int pl_lesson_run_ready(PlLessonRun *r) {
    const PlQuestion *q = &pl_lesson_run_step(r)->q;
    double v;
    char why[160];
    if (q->kind != PL_Q_ASK) return 1;
    return !retrain_changes(r, &q->answer) && pl_quantity_value(r->lab, &q->answer, &v, why, sizeof why) == 0;
}

static int answer_choose(PlLessonRun *r, const PlQuestion *q, const char *typed) {
    int place = -1;
    if (typed[0] >= 'a' && typed[0] < 'a' + q->nchoices && !typed[1]) place = typed[0] - 'a';
    else if (typed[0] >= 'A' && typed[0] < 'A' + q->nchoices && !typed[1]) place = typed[0] - 'A';
    else if (atoi(typed) >= 1 && atoi(typed) <= q->nchoices) place = atoi(typed) - 1;
    if (place < 0)
        return snprintf(r->st.message, sizeof r->st.message, "pick one of a to %c", 'a' + q->nchoices - 1), -1;
    int i = r->st.order[place];
    r->st.chosen = i;
    record(r, q->choices[i].right);
    return q->choices[i].right ? PL_ANS_RIGHT : PL_ANS_WRONG;
}

static int holds(PlCompare op, double a, double b) {
    double eps = 1e-9 * (fabs(a) + fabs(b) + 1.0);
    switch (op) {
    case PL_OP_LT: return a < b - eps;
    case PL_OP_LE: return a <= b + eps;
    case PL_OP_GT: return a > b + eps;
    case PL_OP_GE: return a >= b - eps;
    case PL_OP_EQ: return fabs(a - b) <= eps;
    default: return fabs(a - b) > eps;
    }
}

/* Whether the goal holds at settings s, computing what it reads right here
 * (an exercise checks its neighbour setting this way). -1 when it cannot. */
static int goal_at(PlLessonRun *r, const PlQuestion *q, const PlLabSettings *s) {
    const PlCorpus *c = pl_lab_corpus(r->lab);
    int *lens = malloc(((size_t)c->n + 1) * sizeof *lens), ok = 1;
    if (!lens) return -1;
    pl_corpus_lengths(c, lens);
    for (int g = 0; g < q->ngoal && ok == 1; g++) {
        unsigned kinds = pl_quantity_kinds(&q->goal[g].q);
        void *res = NULL;
        PlResultInfo info;
        PlErr err;
        int k = 0;
        while (kinds && !(kinds & (1u << k))) k++;
        double v;
        if (kinds && pl_result_compute(c, lens, (PlResultKind)k, s, NULL, NULL, &res, &info, &err)) ok = -1;
        else if (pl_quantity_value_in(&q->goal[g].q, res, s, &v)) ok = -1;
        else ok = holds(q->goal[g].op, v, q->goal[g].value);
        if (kinds) pl_result_free((PlResultKind)k, res);
    }
    free(lens);
    return ok;
}

static int answer_exercise(PlLessonRun *r, const PlQuestion *q) {
    char name[96], now[64], want[64], why[200];
    for (int g = 0; g < q->ngoal; g++) {
        double v;
        const PlCondition *c = &q->goal[g];
        if (pl_quantity_value(r->lab, &c->q, &v, why, sizeof why))
            return snprintf(r->st.message, sizeof r->st.message, "%s", why), -1;
        if (holds(c->op, v, c->value)) continue;
        static const char *const ops[] = {"<", "<=", ">", ">=", "==", "!="};
        snprintf(r->st.message, sizeof r->st.message, "not yet: %s is %s, the goal wants %s %s",
                 pl_quantity_name(&c->q, name, sizeof name), pl_quantity_format(&c->q, v, now, sizeof now), ops[c->op],
                 pl_quantity_format(&c->q, c->value, want, sizeof want));
        record(r, 0);
        return PL_ANS_WRONG;
    }
    if (q->smallest >= 0) {
        PlLabSettings below = *pl_lab_settings(r->lab);
        int v = pl_setting_get(&below, (PlSettingId)q->smallest),
            down = pl_setting_step(&below, (PlSettingId)q->smallest, -1);
        pl_setting_set(&below, (PlSettingId)q->smallest, down);
        if (down != v && goal_at(r, q, &below) == 1) {
            snprintf(r->st.message, sizeof r->st.message, "it holds, but a smaller %s holds too: find the smallest",
                     pl_settings[q->smallest].name);
            record(r, 0);
            return PL_ANS_WRONG;
        }
    }
    r->st.message[0] = '\0';
    record(r, 1);
    return PL_ANS_RIGHT;
}

int pl_lesson_run_answer(PlLessonRun *r, const char *typed) {
    const PlQuestion *q = &pl_lesson_run_step(r)->q;
    r->st.message[0] = '\0';
    switch (q->kind) {
    case PL_Q_ASK: return answer_ask(r, q, typed);
    case PL_Q_CHOOSE: return answer_choose(r, q, typed);
    case PL_Q_EXERCISE: return answer_exercise(r, q);
    default: return snprintf(r->st.message, sizeof r->st.message, "this step asks nothing"), -1;
    }
}

int pl_lesson_run_hint(PlLessonRun *r) {
    if (r->st.hints >= pl_lesson_run_step(r)->q.nhints) return 0;
    r->st.hints++;
    return 1;
}

/* The lowest value of an int setting's range that meets the goal, stepping
 * up from the bottom; s keeps the rest. 0, or -1 when none does. */
static int smallest_meeting(PlLessonRun *r, const PlQuestion *q, PlLabSettings *s) {
    PlSettingId id = (PlSettingId)q->smallest;
    for (int v = pl_setting_get(s, id), down; (down = pl_setting_step(s, id, -1)) != v; v = down)
        pl_setting_set(s, id, down);
    for (int v = pl_setting_get(s, id), up;; v = up) {
        int ok = goal_at(r, q, s);
        if (ok == 1) return 0;
        if ((up = pl_setting_step(s, id, 1)) == v || ok < 0) return -1;
        pl_setting_set(s, id, up);
    }
}

int pl_lesson_run_solve(PlLessonRun *r, PlErr *err) {
    const PlQuestion *q = &pl_lesson_run_step(r)->q;
    if (q->kind != PL_Q_EXERCISE) return pl_err_set(err, PL_ERANGE, "this step sets no exercise"), -1;
    PlLabSettings s = *pl_lab_settings(r->lab);
    pl_settings_patch_apply(&s, q->solve);
    if (q->smallest >= 0 && smallest_meeting(r, q, &s))
        return pl_err_set(err, PL_ERANGE, "no %s meets the goal here", pl_settings[q->smallest].name), -1;
    return pl_lab_apply(r->lab, &s, err) < 0 ? -1 : 0;
}

int pl_lesson_run_solution(PlLessonRun *r) {
    const PlQuestion *q = &pl_lesson_run_step(r)->q;
    PlErr err;
    if (!r->st.attempts || (!q->solution && q->kind == PL_Q_EXERCISE)) return 0; /* an ask shows its number */
    r->st.solution = 1;
    r->seen[r->st.step] = 1;
    if (q->kind == PL_Q_EXERCISE && pl_lesson_run_solve(r, &err))
        snprintf(r->st.message, sizeof r->st.message, "%.290s", err.msg);
    return 1;
}

/* ---- what a step reads, and its work ---- */

unsigned pl_lesson_run_kinds(const PlLessonRun *r) {
    const PlStep *s = pl_lesson_run_step(r);
    const PlQuestion *q = &s->q;
    unsigned k = pl_lesson_text_kinds(s->text) | pl_lesson_text_kinds(s->notes) | pl_lesson_text_kinds(s->summary) |
                 pl_lesson_text_kinds(q->prompt) | pl_lesson_text_kinds(q->reveal) | pl_lesson_text_kinds(q->solution);
    for (int i = 0; i < q->nhints; i++) k |= pl_lesson_text_kinds(q->hints[i]);
    for (int i = 0; i < q->nchoices; i++)
        k |= pl_lesson_text_kinds(q->choices[i].explain) | pl_lesson_text_kinds(q->choices[i].text);
    if (q->kind == PL_Q_ASK) k |= pl_quantity_kinds(&q->answer);
    for (int g = 0; g < q->ngoal; g++) k |= pl_quantity_kinds(&q->goal[g].q);
    return k;
}

int pl_lesson_run_tick(PlLessonRun *r) {
    if (!r->st.waiting) return 0;
    if (pl_lab_training(r->lab)->active || pl_lab_grid(r->lab).active) return 0;
    r->st.waiting = 0;
    return 1;
}

void pl_lesson_run_record(const PlLessonRun *r, PlLessonProgress *p) {
    p->step = r->st.step;
    if (r->furthest == r->l->nsteps - 1) p->done = 1;
    for (int i = 0; i < PL_PROGRESS_ANSWERS; i++)
        if (r->answers[i]) p->answer[i] = r->answers[i];
}

/* Whether step k's question is open now: asked on screen and neither
 * answered right nor solved. */
static int open_here(const PlLessonRun *r) {
    const PlQuestion *q = &pl_lesson_run_step(r)->q;
    return (q->kind == PL_Q_ASK || q->kind == PL_Q_CHOOSE) && r->st.answer != PL_ANS_RIGHT && !r->st.solution &&
           !r->seen[r->st.step]; /* a step answered before and come back to keeps its figures in sight */
}

/* Where step j's open question shows at other settings: the runs of its
 * setting, hidden by their key (pl_run_names) when that setting is not the
 * one `here` (whose runs the question hides as train.*, which a revealed
 * step's text may show again), the runs of every setting that trains the
 * same batches (pl_lab_batches_key: lesson 08's dynamic padding at a maxlen
 * where every batch is cut is static's runs again), and its figure's other names
 * (pl_quantity_aliases: the cost view's sweep point at its maxlen). */
static void hide_elsewhere(const PlLessonRun *r, int j, const PlLabSettings *here, PlLedger *out) {
    const PlStep *s = &r->l->steps[j];
    PlLedger q;
    pl_ledger_clear(&q);
    pl_lesson_question_hides(s, &q);
    PlLabSettings there;
    unsigned locks;
    char key[32], here_key[32], also[1024];
    fold(r, j, &there, &locks);
    pl_lab_setting_key(&there, key, sizeof key);
    if (q.training && strcmp(key, pl_lab_setting_key(here, here_key, sizeof here_key)) != 0) pl_ledger_hide(out, key);
    char same[40]; /* and the runs of any setting that sees the same batches, here or not */
    if (q.training && pl_lab_batches_key(r->lab, &there, same, sizeof same)) pl_ledger_hide(out, same);
    const PlLabSettings *lab = pl_lab_settings(r->lab); /* the corpus's size, where the step reads the lab's corpus */
    int reviews = strcmp(there.corpus, lab->corpus) == 0 ? pl_lab_corpus(r->lab)->n : 0;
    if (s->q.kind != PL_Q_ASK || !s->q.has_answer ||
        !pl_quantity_aliases(&s->q.answer, &there, reviews, also, sizeof also))
        return;
    /* An alias at settings of its own (a sweep point at a maxlen) is the asked figure wherever the lab stands; the
     * others (the close-up's widths, its pads) only where the views draw what the question's step draws. */
    int same_fact = pl_lesson_same_fact(&s->q.answer, &there, here);
    for (char *save = NULL, *a = strtok_r(also, " ", &save); a; a = strtok_r(NULL, " ", &save))
        if (same_fact || (strchr(a, '(') && !strstr(a, "(*)"))) pl_ledger_hide(out, a);
}

/* What every question but step `but`'s hides now. A figure the learner has
 * answered stays in sight where it is the same fact, though a question not
 * answered yet names it among what determines its own (lesson 07 asks the
 * fake targets, then their share: its reveal showed '?????'). */
static void ledger_but(PlLessonRun *r, int but, PlLedger *out) {
    pl_ledger_clear(out);
    const PlLabSettings *now = pl_lab_settings(r->lab);
    for (int j = 0; j < r->l->nsteps; j++) { /* a question not answered yet: its fact on the other steps */
        const PlQuestion *q = &r->l->steps[j].q;
        if (j == but || r->seen[j]) continue;
        hide_elsewhere(r, j, now, out);
        if (q->kind != PL_Q_ASK && q->kind != PL_Q_CHOOSE) continue;
        PlLabSettings there;
        fold_resolved(r, j, &there);
        pl_lesson_question_hides_elsewhere(&r->l->steps[j], &there, now, out);
    }
    for (int j = 0; j < r->l->nsteps; j++) {
        const PlQuestion *q = &r->l->steps[j].q;
        PlLabSettings there;
        char name[96];
        if (!r->seen[j] || q->kind != PL_Q_ASK || !q->has_answer || pl_quantity_reads_training(&q->answer)) continue;
        fold_resolved(r, j, &there);
        if (pl_lesson_same_fact(&q->answer, &there, now))
            pl_ledger_unhide(out, pl_quantity_name(&q->answer, name, sizeof name));
    }
}

static void show_one(const char *name, void *ctx) { pl_ledger_show(ctx, name); }

/* Hides a quantity a text names (a setting it names, "{maxlen}", is the learner's to set: never). */
static void hide_figure(const char *name, void *ctx) {
    if (strchr(name, '.')) pl_ledger_hide(ctx, name);
}

/* Where a question hides every figure of training, the step's own words
 * still show the figures they name: its narration hands them over (the
 * lesson's check keeps the asked one and what determines it out of it),
 * and once answered, its reveal and solution show theirs with the answer. A
 * figure another question hides by its name stays hidden. */
static void show_texts(PlLessonRun *r, PlLedger *out) {
    const PlStep *s = pl_lesson_run_step(r);
    const PlQuestion *q = &s->q;
    pl_lesson_text_quantities(s->text, show_one, out);
    if (open_here(r)) return;
    char name[96];
    if (q->kind == PL_Q_ASK && q->has_answer) pl_ledger_show(out, pl_quantity_name(&q->answer, name, sizeof name));
    pl_lesson_text_quantities(q->reveal, show_one, out);
    pl_lesson_text_quantities(q->solution, show_one, out);
}

void pl_lesson_run_ledger(PlLessonRun *r, PlLedger *out) {
    ledger_but(r, r->st.step, out);
    if (open_here(r)) {
        pl_lesson_question_hides(pl_lesson_run_step(r), out);
        hide_elsewhere(r, r->st.step, pl_lab_settings(r->lab), out); /* the learner may have set another setting */
    }
    show_texts(r, out);
}

void pl_lesson_run_question_ledger(PlLessonRun *r, PlLedger *out) {
    pl_lesson_run_ledger(r, out);
    if (!open_here(r)) return;
    PlLedger others; /* what the other questions hide, and this one's own figure alone */
    const PlQuestion *q = &pl_lesson_run_step(r)->q;
    char name[96];
    ledger_but(r, r->st.step, &others);
    if (q->kind == PL_Q_ASK) pl_ledger_hide(&others, pl_quantity_name(&q->answer, name, sizeof name));
    pl_ledger_runs_merge(&others, out);
    *out = others;
}

/* Whether a question not answered yet, other than the one on screen, asks figure `name`. */
static int asked_elsewhere(const PlLessonRun *r, const char *name) {
    char asked[96];
    for (int j = 0; j < r->l->nsteps; j++) {
        const PlQuestion *q = &r->l->steps[j].q;
        if (j != r->st.step && !r->seen[j] && q->kind == PL_Q_ASK && q->has_answer &&
            strcmp(pl_quantity_name(&q->answer, asked, sizeof asked), name) == 0)
            return 1;
    }
    return 0;
}

void pl_lesson_run_unnamed(PlLessonRun *r, PlLedger *out) {
    PlLedger own;
    pl_ledger_clear(&own);
    pl_lesson_question_hides(pl_lesson_run_step(r), &own);
    ledger_but(r, r->st.step, out);
    for (int i = 0; i < own.n && i < PL_LEDGER_MAX; i++)
        if (!asked_elsewhere(r, own.name[i])) pl_ledger_unhide(out, own.name[i]);
}

void pl_lesson_run_worksheet_ledger(PlLessonRun *r, int k, PlLedger *out) {
    pl_ledger_clear(out);
    PlLabSettings here, resolved;
    unsigned locks;
    fold(r, k, &here, &locks);
    fold_resolved(r, k, &resolved);
    for (int j = 0; j < r->l->nsteps; j++) {
        const PlQuestion *q = &r->l->steps[j].q;
        hide_elsewhere(r, j, &here, out); /* a worksheet answers nothing: every question's runs, on every step */
        if (j == k) pl_lesson_question_hides(&r->l->steps[j], out);
        else if (q->kind == PL_Q_ASK || q->kind == PL_Q_CHOOSE) {
            PlLabSettings there;
            fold_resolved(r, j, &there);
            pl_lesson_question_hides_elsewhere(&r->l->steps[j], &there, &resolved, out);
        }
    }
    /* as on screen, the step's narration hands over the figures it names; a figure hidden by its name stays */
    pl_lesson_text_quantities(r->l->steps[k].text, show_one, out);
    /* an exercise's solution is its answer: the figures it names stay off the paper, the summary's too */
    for (int j = 0; j < r->l->nsteps; j++)
        if (r->l->steps[j].q.kind == PL_Q_EXERCISE)
            pl_lesson_text_quantities(r->l->steps[j].q.solution, hide_figure, out);
}

static void add_reading(const char *name, void *lab) { pl_lab_add_reading(lab, name); }

void pl_lesson_run_sync_ledger(PlLessonRun *r) {
    PlLedger l;
    pl_lesson_run_ledger(r, &l);
    pl_lab_set_ledger(r->lab, &l);
    const PlStep *s = pl_lesson_run_step(r);
    char name[96];
    pl_lab_clear_reading(r->lab);
    pl_lesson_text_quantities(s->text, add_reading, r->lab);
    if (s->q.kind == PL_Q_ASK && s->q.has_answer)
        pl_lab_add_reading(r->lab, pl_quantity_name(&s->q.answer, name, sizeof name));
    for (int m = 0; m < s->q.nmiscon; m++) /* a wrong answer the lesson names by a figure of the lab */
        if (s->q.miscon[m].measured)
            pl_lab_add_reading(r->lab, pl_quantity_name(&s->q.miscon[m].quantity, name, sizeof name));
}

void pl_lesson_run_seen(PlLessonRun *r, int step) {
    if (step >= 0 && step < r->l->nsteps) r->seen[step] = 1;
}

/* Whether the lab is still at work on the step: its own training or grid,
 * or a retrain that a cold setting of the step started (whose model the
 * step's figures then read). */
static int busy(PlLessonRun *r) {
    pl_lab_tick(r->lab);
    pl_lesson_run_tick(r);
    return r->st.waiting || pl_lab_training(r->lab)->active || pl_lab_grid(r->lab).active;
}

int pl_lesson_run_computing(PlLessonRun *r, double *share, double *eta) {
    busy(r);                                                /* ticks the lab and the step */
    if (!r->st.waiting && pl_lesson_run_ready(r)) return 0; /* a retrain of the lab's own is not the step's */
    const PlLabTraining *t = pl_lab_training(r->lab);
    PlLabGrid g = pl_lab_grid(r->lab);
    *share = 0, *eta = -1;
    if (t->active) *share = t->job.fraction, *eta = t->job.fraction > 0 ? t->eta : -1;
    else if (g.active && g.total > 0) *share = (double)g.finished / g.total, *eta = g.finished > 0 ? g.eta : -1;
    return 1;
}

void pl_lesson_run_reveal(PlLessonRun *r) {
    r->st.solution = 1;
    r->seen[r->st.step] = 1;
}

int pl_lesson_run_wait(PlLessonRun *r) {
    double t0 = pl_app_clock(), limit = 600.0;
    while (busy(r) && pl_app_clock() - t0 < limit) usleep(10000);
    double left = limit - (pl_app_clock() - t0);
    return busy(r) ? -1 : pl_lab_wait(r->lab, pl_lesson_run_kinds(r), left > 1 ? left : 1);
}

int pl_lesson_run_play_key(PlLessonRun *r, PlErr *err) {
    if (pl_lesson_run_wait(r)) return pl_err_set(err, PL_EIO, "the lab did not finish computing in time"), -1;
    if (pl_lesson_run_step(r)->q.kind != PL_Q_EXERCISE) return 0;
    if (pl_lesson_run_solve(r, err)) return -1;
    r->st.answer = PL_ANS_RIGHT, r->st.solution = 1; /* solved, as a learner who pressed s sees it */
    if (pl_lesson_run_wait(r))
        return pl_err_set(err, PL_EIO, "the lab did not finish computing the solved exercise in time"), -1;
    return 0;
}
