/* What a drill's item says in each phase, as paragraphs by meaning (see
 * drill_play.h): one function per kind of deck, in a table. The numbers
 * come from the drill's state, the case's lab and the deck's lab. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "drill_play.h"
#include "lesson.h"

#define BUF 8192

typedef struct {
    PlDrillPlay *p;
    PlPage *page;
} Out;

static void add(Out *o, PlRole role, PlPart part, int indent, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void add(Out *o, PlRole role, PlPart part, int indent, const char *fmt, ...) {
    static char text[PL_PAGE_TEXT]; /* one page is made at a time */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    pl_page_add(o->page, role, part, indent, text);
}

/* An empty line, unless the last one is empty already (or there is none). */
static void gap(Out *o) { pl_page_gap(o->page); }

/* label + text with its {figures} from the lab that serves the item. */
static void para(Out *o, const char *label, const char *text, PlRole role, PlPart part, int indent) {
    static char filled[BUF]; /* one page is made at a time */
    if (!text || !*text) return;
    PlLab *lab = o->p->bug ? pl_bug_run_lab(o->p->bug) : o->p->lab;
    if (lab) pl_lesson_fill(lab, pl_lab_ledger(lab), text, filled, sizeof filled);
    else snprintf(filled, sizeof filled, "%s", text);
    add(o, role, part, indent, "%s%s", label, filled);
}

static const char *mark(const Out *o, int right) {
    if (o->p->ascii) return right ? "+" : "x";
    return right ? "\xe2\x9c\x93" : "\xe2\x9c\x97";
}

static const PlDrillState *state(const Out *o) { return pl_drill_state(o->p->drill); }

/* "card 3 of 12 - attention masks - box 2" */
static void heading(Out *o, const PlDeckItem *it, const char *what) {
    const PlDeck *d = o->p->deck;
    const PlDrillRecord *r = pl_drill_book_find(o->p->book, d->name, it->id);
    char extra[64] = "";
    if (d->kind == PL_DECK_CARDS || d->kind == PL_DECK_MINUTE)
        snprintf(extra, sizeof extra, r && r->s.state ? " - %s, stability %.1f days" : " - new",
                 pl_sched_state_name(r ? r->s.state : 0), r ? r->s.s : 0.0);
    else if (r) {
        /* once answered, the book holds this answer too: "before" leaves it out */
        const PlDrillState *s = state(o);
        int now_right = s->chosen >= 0 && it->choices[s->chosen].right, answered = s->phase != PL_DRILL_FRONT;
        int right = r->right - (answered && now_right), wrong = r->wrong - (answered && !now_right);
        if (right + wrong) snprintf(extra, sizeof extra, " - before: %d right, %d wrong", right, wrong);
    }
    add(o, PL_ROLE_HEAD, PL_PART_NONE, 2, "%s %d of %d - %s%s", what, state(o)->at + 1, state(o)->total,
        it->topic ? it->topic : "", extra);
}

static void front(Out *o, const PlDeckItem *it) {
    para(o, "", it->title, PL_ROLE_TITLE, PL_PART_FRONT, 0);
    para(o, "", it->text, PL_ROLE_TEXT, PL_PART_FRONT, 0);
    gap(o);
}

/* ---- cards ---- */

/* "10 min", "3 days": a wait in words. */
static void wait_words(long long secs, char *out, size_t cap) {
    if (secs < PL_DAY) snprintf(out, cap, "%lld min", secs / 60);
    else snprintf(out, cap, "%lld day%s", secs / PL_DAY, secs / PL_DAY > 1 ? "s" : "");
}

/* The grade keys with the wait each would give this card (sched.h), as the
 * grade will give it: the same clock and the same fuzz. */
static void grades(Out *o, const PlDeckItem *it, double now) {
    const PlDrillRecord *r = pl_drill_book_find(o->p->book, o->p->deck->name, it->id);
    PlSchedCard fresh;
    memset(&fresh, 0, sizeof fresh);
    const PlSchedCard *c = r ? &r->s : &fresh;
    PlFsrs p;
    pl_drill_book_fsrs(o->p->book, &p);
    long long t = pl_drill_clock(o->p->drill, now);
    uint64_t seed = pl_drill_card_seed(o->p->deck->name, it->id);
    char w[4][24];
    for (int g = PL_GRADE_AGAIN; g <= PL_GRADE_EASY; g++)
        wait_words(pl_sched_wait(&p, c, (PlGrade)g, t, seed), w[g - 1], sizeof w[0]);
    gap(o);
    add(o, PL_ROLE_KEYS, PL_PART_NONE, 2, "How well did you know it?  1 again (%s)  2 hard (%s)  3 good (%s)  4 easy (%s)",
        w[0], w[1], w[2], w[3]);
}

static void lay_card(Out *o, const PlDeckItem *it, double now) {
    heading(o, it, "card");
    gap(o);
    front(o, it);
    if (state(o)->phase == PL_DRILL_FRONT) {
        add(o, PL_ROLE_ASIDE, PL_PART_NONE, 0, "Say the answer to yourself, then space shows it.");
        return;
    }
    para(o, "Answer: ", it->answer, PL_ROLE_RIGHT, PL_PART_ANSWER, 2);
    gap(o);
    para(o, "", it->more, PL_ROLE_TEXT, PL_PART_ANSWER, 0);
    gap(o);
    para(o, "Remember: ", it->remember, PL_ROLE_REAL, PL_PART_ANSWER, 2);
    para(o, "Don't say: ", it->dont, PL_ROLE_WRONG, PL_PART_ANSWER, 2);
    grades(o, it, now);
}

/* ---- questions ---- */

/* The choices in the order the session drew for this attempt, lettered by place. */
static void choices(Out *o, const PlDeckItem *it, int answered) {
    char label[16];
    for (int k = 0; k < it->nchoices; k++) {
        int c = state(o)->order[k];
        const PlDeckChoice *ch = &it->choices[c];
        PlRole role = !answered               ? PL_ROLE_TEXT
                           : ch->right             ? PL_ROLE_RIGHT
                           : c == state(o)->chosen ? PL_ROLE_WRONG
                                                   : PL_ROLE_TEXT;
        snprintf(label, sizeof label, "%s%c) ",
                 answered && (ch->right || c == state(o)->chosen) ? mark(o, ch->right) : " ", 'a' + k);
        para(o, label, ch->text, role, PL_PART_NONE, 4);
        if (answered) para(o, "     ", ch->why, PL_ROLE_ASIDE, PL_PART_WHY, 5);
    }
}

static void verdict(Out *o, const PlDeckItem *it) {
    const PlDrillState *s = state(o);
    int right = s->chosen >= 0 && it->choices[s->chosen].right;
    gap(o);
    if (s->timed_out) add(o, PL_ROLE_WRONG, PL_PART_VERDICT, 0, "Time's up: the answer is %c.", 'a' + s->right_at);
    else if (right) add(o, PL_ROLE_RIGHT, PL_PART_VERDICT, 0, "Right.");
    else add(o, PL_ROLE_WRONG, PL_PART_VERDICT, 0, "Not this one: the answer is %c.", 'a' + s->right_at);
}

static void lay_question(Out *o, const PlDeckItem *it, double now) {
    const PlDrillState *s = state(o);
    heading(o, it, "question");
    double left = pl_drill_time_left(o->p->drill, now);
    if (left >= 0.0 && s->phase == PL_DRILL_FRONT)
        add(o, left < 5.0 ? PL_ROLE_WRONG : PL_ROLE_CLOCK, PL_PART_CLOCK, 0, "%.0f s left", left);
    gap(o);
    front(o, it);
    choices(o, it, s->phase != PL_DRILL_FRONT);
    if (s->phase != PL_DRILL_FRONT) verdict(o, it);
}

/* ---- minute ---- */

static void countdown(Out *o, double now) {
    double left = pl_drill_time_left(o->p->drill, now);
    int secs = (int)(left + 0.999);
    if (left < 0.0) return;
    if (secs > 0)
        add(o, secs <= 10 ? PL_ROLE_WRONG : PL_ROLE_CLOCK, PL_PART_CLOCK, 0,
            "%d:%02d left: say it out loud, as to an interviewer", secs / 60, secs % 60);
    else add(o, PL_ROLE_WRONG, PL_PART_CLOCK, 0, "time: finish your sentence");
    gap(o);
    add(o, PL_ROLE_ASIDE, PL_PART_NONE, 0,
        "Space shows the model answer, the follow-ups an interviewer asks and what they listen for.");
}

static void list(Out *o, const char *title, char *const *items, int n) {
    gap(o);
    add(o, PL_ROLE_TITLE, PL_PART_ANSWER, 0, "%s", title);
    for (int i = 0; i < n; i++) para(o, "- ", items[i], PL_ROLE_TEXT, PL_PART_ANSWER, 2);
}

static void lay_minute(Out *o, const PlDeckItem *it, double now) {
    heading(o, it, "prompt");
    gap(o);
    front(o, it);
    if (state(o)->phase == PL_DRILL_FRONT) {
        countdown(o, now);
        return;
    }
    add(o, PL_ROLE_TITLE, PL_PART_ANSWER, 0, "A model answer");
    para(o, "", it->answer, PL_ROLE_TEXT, PL_PART_ANSWER, 0);
    list(o, "The follow-ups they ask", it->follow, it->nfollow);
    list(o, "What they listen for", it->listen, it->nlisten);
    grades(o, it, now);
}

/* ---- bugs ---- */

/* One measure: what the deck tells the learner it is (never the lab's
 * internal name, which would name the bug), and its value. */
static void measured(Out *o, const char *when, const char *label, const PlQuantity *q, const PlBugValue *v,
                     PlRole role, PlPart part) {
    char value[160];
    add(o, v->have ? role : PL_ROLE_ASIDE, part, 4, "%s%s%s%s", when, label, *label ? ": " : "",
        pl_bug_value_format(q, v, value, sizeof value));
}

/* The settings of the buggy setup, or of the fix: said only once a cause is
 * picked, since the settings name the bug. */
static void setup_line(Out *o, const PlDeckItem *it, int fixed) {
    char line[1200];
    const char *s = fixed ? it->fix : it->bug, *rows = fixed ? it->fix_inline : it->bug_inline;
    if (fixed && !s && !rows) snprintf(line, sizeof line, "The fix: the right variant, computed on the same batch.");
    else
        snprintf(line, sizeof line, "%s%s%s%s%s", fixed ? "The fix: " : "The setup: ", s ? s : "",
                 s && rows ? "; " : "", rows ? "rows: " : "", rows ? rows : "");
    if (!fixed && !s && !rows) snprintf(line, sizeof line, "The setup: the lab as it is.");
    if (it->trains)
        snprintf(line + strlen(line), sizeof line - strlen(line), " (trained, %d seeds)",
                 pl_bug_run_settings(o->p->bug, fixed)->seeds);
    add(o, PL_ROLE_ASIDE, PL_PART_NONE, 2, "%s", line);
}

static void symptoms(Out *o, const PlDeckItem *it) {
    const PlBugState *b = pl_bug_run_state(o->p->bug);
    if (state(o)->phase != PL_DRILL_FRONT) setup_line(o, it, 0);
    add(o, PL_ROLE_TEXT, PL_PART_NONE, 0, "What the lab measures on their setup, right now:");
    measured(o, "  ", pl_deck_measure_label(it, -1), &it->symptom, &b->symptom, PL_ROLE_WRONG, PL_PART_SYMPTOM);
    for (int i = 0; i < it->nalso; i++)
        measured(o, "  ", pl_deck_measure_label(it, i), &it->also[i], &b->also_bug[i], PL_ROLE_TEXT, PL_PART_NONE);
    if (b->phase == PL_BUG_COMPUTING || b->phase == PL_BUG_FAILED)
        add(o, b->phase == PL_BUG_FAILED ? PL_ROLE_WRONG : PL_ROLE_ASIDE, PL_PART_NONE, 2, "%s", b->message);
}

/* An also: measure under the bug and the fix, or once when the fix left it
 * as it was (a case whose fix is a variant of the same probe). */
static void also_line(Out *o, const PlDeckItem *it, int i, const PlBugState *b) {
    char x[160], y[160];
    pl_bug_value_format(&it->also[i], &b->also_bug[i], x, sizeof x);
    pl_bug_value_format(&it->also[i], &b->also_fix[i], y, sizeof y);
    if (strcmp(x, y) == 0) add(o, PL_ROLE_TEXT, PL_PART_NONE, 4, "  %s: %s", pl_deck_measure_label(it, i), x);
    else add(o, PL_ROLE_TEXT, PL_PART_NONE, 4, "  %s: %s -> %s", pl_deck_measure_label(it, i), x, y);
}

static void fixed_lines(Out *o, const PlDeckItem *it) {
    const PlBugState *b = pl_bug_run_state(o->p->bug);
    gap(o);
    setup_line(o, it, 1);
    add(o, PL_ROLE_TEXT, PL_PART_NONE, 2, "%s:", pl_deck_measure_label(it, -1));
    measured(o, "  under the bug: ", "", &it->symptom, &b->symptom, PL_ROLE_WRONG, PL_PART_SYMPTOM);
    measured(o, "  with the fix:  ", "", &it->fixed, &b->fixed, PL_ROLE_RIGHT, PL_PART_FIXED);
    for (int i = 0; i < it->nalso; i++) also_line(o, it, i, b);
    if (b->phase != PL_BUG_FIXED) {
        add(o, b->phase == PL_BUG_FAILED ? PL_ROLE_WRONG : PL_ROLE_ASIDE, PL_PART_NONE, 2, "%s", b->message);
        return;
    }
    add(o, b->holds ? PL_ROLE_RIGHT : PL_ROLE_WRONG, PL_PART_NONE, 2, "%s %s", mark(o, b->holds), b->message);
    gap(o);
    para(o, "", it->after, PL_ROLE_TEXT, PL_PART_NONE, 0);
}

static void lay_bug(Out *o, const PlDeckItem *it, double now) {
    (void)now;
    const PlDrillState *s = state(o);
    heading(o, it, "case");
    gap(o);
    front(o, it);
    if (o->p->bug) symptoms(o, it), gap(o);
    para(o, "", it->ask, PL_ROLE_TITLE, PL_PART_NONE, 0);
    if (s->phase == PL_DRILL_FIXED) { /* the explanations were filled under the bug: the lab now runs the fix */
        para(o, "The cause: ", it->choices[it->right].text, PL_ROLE_RIGHT, PL_PART_NONE, 2);
        verdict(o, it);
        if (o->p->bug) fixed_lines(o, it);
        return;
    }
    choices(o, it, s->phase != PL_DRILL_FRONT);
    if (s->phase != PL_DRILL_FRONT) verdict(o, it);
    if (s->phase == PL_DRILL_BACK)
        add(o, PL_ROLE_KEYS, PL_PART_NONE, 0, "f applies the fix in the lab and computes the same measure again.");
}

/* ---- the end ---- */

static void lay_end(Out *o) {
    const PlDrillState *s = state(o);
    const PlDeck *d = o->p->deck;
    add(o, PL_ROLE_TITLE, PL_PART_NONE, 0, "%s", d->title);
    gap(o);
    if (d->kind == PL_DECK_CARDS || d->kind == PL_DECK_MINUTE) {
        int n = s->graded[1] + s->graded[2] + s->graded[3] + s->graded[4];
        if (!s->total) add(o, PL_ROLE_TEXT, PL_PART_NONE, 0, "Nothing is due today: every item waits for its day.");
        else
            add(o, PL_ROLE_TEXT, PL_PART_NONE, 0, "Done for today: %d graded: %d again, %d hard, %d good, %d easy.", n,
                s->graded[1], s->graded[2], s->graded[3], s->graded[4]);
        if (s->due_in == 0) add(o, PL_ROLE_TEXT, PL_PART_NONE, 0, "Some are due again today.");
        else if (s->due_in > 0)
            add(o, PL_ROLE_TEXT, PL_PART_NONE, 0, "The next one is due in %d day%s.", s->due_in, s->due_in == 1 ? "" : "s");
        add(o, PL_ROLE_ASIDE, PL_PART_NONE, 0, "padlab drill DECK --all drills every item, due or not.");
    } else
        add(o, PL_ROLE_TEXT, PL_PART_NONE, 0, "%d of %d right%s.", s->right, s->right + s->wrong,
            d->kind == PL_DECK_BUGS ? " on the first pick" : "");
    gap(o);
    int lost = o->p->unsaved[0] != '\0';
    const char *how = o->p->picker ? (lost ? "Your progress could NOT be saved. Enter picks another deck; q quits."
                                           : "Your progress is saved. Enter picks another deck; q quits.")
                      : o->p->keep ? (lost ? "Your progress could NOT be saved. q quits." : "Your progress is saved. q quits.")
                                   : "q quits.";
    add(o, PL_ROLE_ASIDE, PL_PART_NONE, 0, "%s", how);
}

static void (*const lay[PL_DECK_KINDS])(Out *, const PlDeckItem *, double) = {[PL_DECK_CARDS] = lay_card,
                                                                              [PL_DECK_QUESTIONS] = lay_question,
                                                                              [PL_DECK_BUGS] = lay_bug,
                                                                              [PL_DECK_MINUTE] = lay_minute};

void pl_drill_play_page(PlDrillPlay *p, double now, PlPage *page) {
    Out o = {p, page};
    pl_page_clear(page);
    const PlDeckItem *it = pl_drill_item(p->drill);
    if (it) lay[p->deck->kind](&o, it, now);
    else lay_end(&o);
    if (p->note[0]) gap(&o), add(&o, PL_ROLE_NOTE, PL_PART_NONE, 0, "%s", p->note);
}
