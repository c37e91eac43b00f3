/* What the drill screen says for each kind of item in each phase, laid out
 * as lines (one function per kind, in a table); the numbers come from the
 * drill's state, the bug case's lab and the deck's lab, never from here. */
#include <stdio.h>
#include <string.h>

#include "app/lesson.h"
#include "drill_ui.h"

#define BUF 8192

const char *tui_drill_fill(TuiDrill *u, const char *text, char *buf, int cap) {
    PlLab *lab = u->bug ? pl_bug_run_lab(u->bug) : u->lab;
    if (!text) text = "";
    if (!lab) return snprintf(buf, (size_t)cap, "%s", text), buf;
    return pl_lesson_fill(lab, text, buf, cap);
}

/* label + text, wrapped, with its figures filled in. */
static void para(TuiDrill *u, const char *label, const char *text, int w, TuiColor c, int indent) {
    char filled[BUF], line[BUF];
    if (!text || !*text) return;
    tui_drill_fill(u, text, filled, sizeof filled);
    snprintf(line, sizeof line, "%s%s", label, filled);
    tui_lines_wrap(u->lines, line, w, c, indent);
}

static const char *mark(int right) {
    if (tui_screen_options()->ascii) return right ? "+" : "x";
    return right ? "\xe2\x9c\x93" : "\xe2\x9c\x97";
}

/* "card 3 of 12 · attention masks · box 2" */
static void heading(TuiDrill *u, const PlDeckItem *it, const char *what, int w) {
    const PlDrillState *s = pl_drill_state(u->drill);
    const PlDrillRecord *r = pl_drill_book_find(&u->book, u->deck->name, it->id);
    char extra[64] = "";
    if (u->deck->kind == PL_DECK_CARDS || u->deck->kind == PL_DECK_MINUTE)
        snprintf(extra, sizeof extra, r && r->s.box ? " - box %d" : " - new", r ? r->s.box : 0);
    else if (r && r->right + r->wrong) snprintf(extra, sizeof extra, " - before: %d right, %d wrong", r->right, r->wrong);
    char line[400];
    snprintf(line, sizeof line, "%s %d of %d - %s%s", what, s->at + 1, s->total, it->topic ? it->topic : "", extra);
    tui_lines_wrap(u->lines, line, w, TUI_DIM, 2);
}

static void front(TuiDrill *u, const PlDeckItem *it, int w) {
    para(u, "", it->title, w, TUI_GOOD, 0);
    if (it->text && *it->text) para(u, "", it->text, w, TUI_NORMAL, 0);
}

/* ---- cards ---- */

static void grades(TuiDrill *u, const PlDeckItem *it, int w) {
    const PlDrillRecord *r = pl_drill_book_find(&u->book, u->deck->name, it->id);
    int box = r ? r->s.box : 0, good = box + 1 > PL_SCHED_BOXES ? PL_SCHED_BOXES : box + 1;
    int easy = box + 2 > PL_SCHED_BOXES ? PL_SCHED_BOXES : box + 2;
    char line[300];
    snprintf(line, sizeof line, "How well did you know it?  1 again (later today)  2 hard (tomorrow)  3 good (in %d day%s)  4 easy (in %d days)",
             pl_sched_interval(good), pl_sched_interval(good) > 1 ? "s" : "", pl_sched_interval(easy));
    tui_lines_blank(u->lines);
    tui_lines_wrap(u->lines, line, w, TUI_KEY, 2);
}

static void lay_card(TuiDrill *u, const PlDeckItem *it, int w, double now) {
    (void)now;
    heading(u, it, "card", w);
    tui_lines_blank(u->lines);
    front(u, it, w);
    tui_lines_blank(u->lines);
    if (pl_drill_state(u->drill)->phase == PL_DRILL_FRONT) {
        tui_lines_wrap(u->lines, "Say the answer to yourself, then space shows it.", w, TUI_DIM, 0);
        return;
    }
    para(u, "Answer: ", it->answer, w, TUI_GOOD, 2);
    tui_lines_blank(u->lines);
    para(u, "", it->more, w, TUI_NORMAL, 0);
    tui_lines_blank(u->lines);
    para(u, "Remember: ", it->remember, w, TUI_REAL, 2);
    para(u, "Don't say: ", it->dont, w, TUI_WARN, 2);
    grades(u, it, w);
}

/* ---- questions ---- */

static void choices(TuiDrill *u, const PlDeckItem *it, int w, int answered) {
    const PlDrillState *s = pl_drill_state(u->drill);
    char label[16];
    for (int c = 0; c < it->nchoices; c++) {
        const PlDeckChoice *ch = &it->choices[c];
        TuiColor col = !answered ? TUI_NORMAL : ch->right ? TUI_GOOD : c == s->chosen ? TUI_WARN : TUI_NORMAL;
        snprintf(label, sizeof label, "%s%c) ", answered && (ch->right || c == s->chosen) ? mark(ch->right) : " ", 'a' + c);
        para(u, label, ch->text, w, col, 4);
        if (answered) para(u, "     ", ch->why, w, TUI_DIM, 5);
    }
}

static void verdict(TuiDrill *u, const PlDeckItem *it, int w) {
    const PlDrillState *s = pl_drill_state(u->drill);
    char line[200];
    if (s->timed_out) snprintf(line, sizeof line, "Time's up: the answer is %c.", 'a' + it->right);
    else if (it->choices[s->chosen].right) snprintf(line, sizeof line, "Right.");
    else snprintf(line, sizeof line, "Not this one: the answer is %c.", 'a' + it->right);
    tui_lines_blank(u->lines);
    tui_lines_wrap(u->lines, line, w, s->chosen >= 0 && it->choices[s->chosen].right ? TUI_GOOD : TUI_WARN, 0);
}

static void lay_question(TuiDrill *u, const PlDeckItem *it, int w, double now) {
    const PlDrillState *s = pl_drill_state(u->drill);
    heading(u, it, "question", w);
    double left = pl_drill_time_left(u->drill, now);
    if (left >= 0.0 && s->phase == PL_DRILL_FRONT) tui_lines_add(u->lines, left < 5.0 ? TUI_WARN : TUI_CHANGED, " %.0f s left ", left);
    tui_lines_blank(u->lines);
    front(u, it, w);
    tui_lines_blank(u->lines);
    choices(u, it, w, s->phase != PL_DRILL_FRONT);
    if (s->phase != PL_DRILL_FRONT) verdict(u, it, w);
}

/* ---- minute ---- */

static void countdown(TuiDrill *u, int w, double now) {
    double left = pl_drill_time_left(u->drill, now);
    int secs = (int)(left + 0.999);
    if (left < 0.0) return;
    char line[200];
    if (secs > 0) snprintf(line, sizeof line, " %d:%02d left: say it out loud, as to an interviewer ", secs / 60, secs % 60);
    else snprintf(line, sizeof line, " time: finish your sentence ");
    tui_lines_add(u->lines, secs <= 10 ? TUI_WARN : TUI_CHANGED, "%s", line);
    tui_lines_blank(u->lines);
    tui_lines_wrap(u->lines, "Space shows the model answer, the follow-ups an interviewer asks and what they listen for.", w, TUI_DIM, 0);
}

static void list(TuiDrill *u, const char *title, char *const *items, int n, int w) {
    tui_lines_blank(u->lines);
    tui_lines_wrap(u->lines, title, w, TUI_GOOD, 0);
    for (int i = 0; i < n; i++) para(u, "- ", items[i], w, TUI_NORMAL, 2);
}

static void lay_minute(TuiDrill *u, const PlDeckItem *it, int w, double now) {
    heading(u, it, "prompt", w);
    tui_lines_blank(u->lines);
    front(u, it, w);
    tui_lines_blank(u->lines);
    if (pl_drill_state(u->drill)->phase == PL_DRILL_FRONT) {
        countdown(u, w, now);
        return;
    }
    tui_lines_wrap(u->lines, "A model answer", w, TUI_GOOD, 0);
    para(u, "", it->answer, w, TUI_NORMAL, 0);
    list(u, "The follow-ups they ask", it->follow, it->nfollow, w);
    list(u, "What they listen for", it->listen, it->nlisten, w);
    grades(u, it, w);
}

/* ---- bugs ---- */

static const char *label_of(const PlQuantity *q, char *buf, int cap) {
    char name[96];
    pl_quantity_name(q, name, sizeof name);
    if (q->def < pl_quantity_count()) snprintf(buf, (size_t)cap, "%s [%s]", pl_quantity_help(q->def), name);
    else snprintf(buf, (size_t)cap, "%s", name);
    return buf;
}

static void measured(TuiDrill *u, const char *when, const PlQuantity *q, const PlBugValue *v, int w, TuiColor c) {
    char label[300], value[160], line[600];
    snprintf(line, sizeof line, "%s%s: %s", when, label_of(q, label, sizeof label), pl_bug_value_format(q, v, value, sizeof value));
    tui_lines_wrap(u->lines, line, w, v->have ? c : TUI_DIM, 4);
}

static void setup_line(TuiDrill *u, const PlDeckItem *it, int fixed, int w) {
    char line[1200];
    const char *s = fixed ? it->fix : it->bug, *rows = fixed ? it->fix_inline : it->bug_inline;
    if (fixed && !s && !rows) snprintf(line, sizeof line, "The fix: the right variant, computed on the same batch.");
    else snprintf(line, sizeof line, "%s%s%s%s%s", fixed ? "The fix: " : "The setup: ", s ? s : "", s && rows ? "; " : "",
                  rows ? "rows: " : "", rows ? rows : "");
    if (!fixed && !s && !rows) snprintf(line, sizeof line, "The setup: the lab as it is.");
    if (it->trains) snprintf(line + strlen(line), sizeof line - strlen(line), " (trained, %d seeds)",
                             pl_bug_run_settings(u->bug, fixed)->seeds);
    tui_lines_wrap(u->lines, line, w, TUI_DIM, 2);
}

static void symptoms(TuiDrill *u, const PlDeckItem *it, int w) {
    const PlBugState *b = pl_bug_run_state(u->bug);
    setup_line(u, it, 0, w);
    tui_lines_wrap(u->lines, "What the lab measures under it, right now:", w, TUI_NORMAL, 0);
    measured(u, "  ", &it->symptom, &b->symptom, w, TUI_WARN);
    for (int i = 0; i < it->nalso; i++) measured(u, "  ", &it->also[i], &b->also_bug[i], w, TUI_NORMAL);
    if (b->phase == PL_BUG_COMPUTING || b->phase == PL_BUG_FAILED) tui_lines_wrap(u->lines, b->message, w, b->phase == PL_BUG_FAILED ? TUI_WARN : TUI_DIM, 2);
}

static void fixed_lines(TuiDrill *u, const PlDeckItem *it, int w) {
    const PlBugState *b = pl_bug_run_state(u->bug);
    tui_lines_blank(u->lines);
    setup_line(u, it, 1, w);
    measured(u, "  under the bug: ", &it->symptom, &b->symptom, w, TUI_WARN);
    measured(u, "  with the fix:  ", &it->fixed, &b->fixed, w, TUI_GOOD);
    for (int i = 0; i < it->nalso; i++) {
        char label[300], x[160], y[160], line[700];
        snprintf(line, sizeof line, "  %s: %s -> %s", label_of(&it->also[i], label, sizeof label),
                 pl_bug_value_format(&it->also[i], &b->also_bug[i], x, sizeof x), pl_bug_value_format(&it->also[i], &b->also_fix[i], y, sizeof y));
        tui_lines_wrap(u->lines, line, w, TUI_NORMAL, 4);
    }
    if (b->phase != PL_BUG_FIXED) {
        tui_lines_wrap(u->lines, b->message, w, b->phase == PL_BUG_FAILED ? TUI_WARN : TUI_DIM, 2);
        return;
    }
    char line[320];
    snprintf(line, sizeof line, "%s %s", mark(b->holds), b->message);
    tui_lines_wrap(u->lines, line, w, b->holds ? TUI_GOOD : TUI_WARN, 2);
    tui_lines_blank(u->lines);
    para(u, "", it->after, w, TUI_NORMAL, 0);
}

static void lay_bug(TuiDrill *u, const PlDeckItem *it, int w, double now) {
    (void)now;
    const PlDrillState *s = pl_drill_state(u->drill);
    heading(u, it, "case", w);
    tui_lines_blank(u->lines);
    front(u, it, w);
    tui_lines_blank(u->lines);
    if (u->bug) symptoms(u, it, w);
    tui_lines_blank(u->lines);
    para(u, "", it->ask, w, TUI_GOOD, 0);
    if (s->phase == PL_DRILL_FIXED) { /* the explanations were filled under the bug: the lab now runs the fix */
        para(u, "The cause: ", it->choices[it->right].text, w, TUI_GOOD, 2);
        verdict(u, it, w);
        if (u->bug) fixed_lines(u, it, w);
        return;
    }
    choices(u, it, w, s->phase != PL_DRILL_FRONT);
    if (s->phase != PL_DRILL_FRONT) verdict(u, it, w);
    if (s->phase == PL_DRILL_BACK) tui_lines_wrap(u->lines, "f applies the fix in the lab and computes the same measure again.", w, TUI_KEY, 0);
}

/* ---- the end ---- */

static void lay_end(TuiDrill *u, int w) {
    const PlDrillState *s = pl_drill_state(u->drill);
    char line[400];
    tui_lines_wrap(u->lines, u->deck->title, w, TUI_GOOD, 0);
    tui_lines_blank(u->lines);
    switch (u->deck->kind) {
    case PL_DECK_CARDS:
    case PL_DECK_MINUTE:
        if (!s->total) snprintf(line, sizeof line, "Nothing is due today: every item waits for its day.");
        else snprintf(line, sizeof line, "Done for today: %d graded: %d again, %d hard, %d good, %d easy.", s->graded[1] + s->graded[2] + s->graded[3] + s->graded[4],
                      s->graded[1], s->graded[2], s->graded[3], s->graded[4]);
        tui_lines_wrap(u->lines, line, w, TUI_NORMAL, 0);
        if (s->due_in >= 0) {
            snprintf(line, sizeof line, s->due_in == 0 ? "Some are due again today." : "The next one is due in %d day%s.", s->due_in, s->due_in == 1 ? "" : "s");
            tui_lines_wrap(u->lines, line, w, TUI_NORMAL, 0);
        }
        tui_lines_wrap(u->lines, "padlab drill DECK --all drills every item, due or not.", w, TUI_DIM, 0);
        break;
    default:
        snprintf(line, sizeof line, "%d of %d right%s.", s->right, s->right + s->wrong, u->deck->kind == PL_DECK_BUGS ? " on the first pick" : "");
        tui_lines_wrap(u->lines, line, w, TUI_NORMAL, 0);
    }
    tui_lines_blank(u->lines);
    tui_lines_wrap(u->lines, "Your progress is saved. Enter picks another deck; q quits.", w, TUI_DIM, 0);
}

static void (*const lay[PL_DECK_KINDS])(TuiDrill *, const PlDeckItem *, int, double) = {
    [PL_DECK_CARDS] = lay_card, [PL_DECK_QUESTIONS] = lay_question, [PL_DECK_BUGS] = lay_bug, [PL_DECK_MINUTE] = lay_minute};

void tui_drill_lay_out(TuiDrill *u, int w, double now) {
    const PlDeckItem *it = pl_drill_item(u->drill);
    u->lines->n = 0;
    if (it) lay[u->deck->kind](u, it, w, now);
    else lay_end(u, w);
    if (u->note[0]) tui_lines_blank(u->lines), tui_lines_wrap(u->lines, u->note, w, TUI_DIM, 0);
}

/* ---- the key bar ---- */

static const char *const keys[PL_DECK_KINDS][3] = {
    [PL_DECK_CARDS] = {" space show the answer   up/down scroll   q quit (progress is kept) ",
                       " 1 again  2 hard  3 good  4 easy   up/down scroll   q quit ", ""},
    [PL_DECK_QUESTIONS] = {" a-f answer   up/down scroll   q quit (progress is kept) ", " space next question   up/down scroll   q quit ", ""},
    [PL_DECK_BUGS] = {" a-f the cause   1-0 views  j/k scroll view  z zoom   up/down scroll   q quit ",
                      " f apply the fix   space next case   1-0 views  z zoom   q quit ",
                      " space next case   1-0 views  j/k scroll view  z zoom   up/down scroll   q quit "},
    [PL_DECK_MINUTE] = {" space show the model answer   up/down scroll   q quit (progress is kept) ",
                        " 1 again  2 hard  3 good  4 easy   up/down scroll   q quit ", ""},
};

const char *tui_drill_keys(const TuiDrill *u) {
    if (!u->drill) return " up/down choose a deck   Enter open it   q quit ";
    const PlDrillState *s = pl_drill_state(u->drill);
    if (s->phase == PL_DRILL_END) return " Enter another deck   q quit ";
    return keys[u->deck->kind][s->phase == PL_DRILL_FRONT ? 0 : s->phase == PL_DRILL_BACK ? 1 : 2];
}
