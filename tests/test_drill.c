/* Drills: every deck parser error names its line; the Leitner scheduler
 * moves a card as sched.h documents; the drill state machines play every
 * kind headlessly with "today" and "now" passed in; the progress book
 * survives a reload; the shipped decks parse with the counts the issue asks
 * for; and every shipped bug case, run on the builtin corpus, shows its
 * symptom under the bug and under the fix, moved the way the case says. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/lab/fill.h"
#include "app/teach/bugcase.h"
#include "app/teach/cheatsheet.h"
#include "app/teach/choices.h"
#include "app/teach/drill.h"
#include "app/teach/drill_plan.h"
#include "app/teach/drill_play.h"
#include "app/teach/lesson.h"
#include "suites.h"

static PlDeck *parse(const char *text, PlErr *err) { return pl_deck_parse("t.deck", text, strlen(text), err); }

/* ---- the parser ---- */

typedef struct {
    const char *text;
    const char *want; /* "t.deck:LINE: fragment" */
} BadDeck;

#define CARD "topic: t\nanswer: a\nmore: m\nremember: r\ndont: d\n"
#define CASE                                                                                                 \
    "topic: t\nview: masks\nsymptom: masks.share_inverted\nchoose: why?\n- a => no\n* b => yes\n- c => no\n" \
    "after: done\n"
#define TRAINS                                                                                       \
    "topic: t\nview: train\nsymptom: train.median\nchoose: why?\n- a => no\n* b => yes\n- c => no\n" \
    "fix: mask=on\nexpect: higher\nafter: done\n"
static const BadDeck bad_decks[] = {
    {"no title\nkind: cards\n## c\n" CARD, "t.deck:1: a deck starts with its title"},
    {"", "t.deck:1: a deck starts with its title"},
    {"# T\n## c\n" CARD, "t.deck:2: a deck says its kind before its first item"},
    {"# T\nkind: recipes\n## c\n" CARD, "t.deck:2: kind: is cards, questions, bugs or minute, got 'recipes'"},
    {"# T\nkind: cards\nwhatever\n## c\n" CARD, "t.deck:3: before the first item (##) come only"},
    {"# T\nkind: cards\nsetup: mask=maybe\n## c\n" CARD, "t.deck:3: mask must be one of off,on, got 'maybe'"},
    {"# T\nkind: cards\nsetup: corpus=builtin\n## c\n" CARD,
     "t.deck:3: a deck reads no file: it cannot set the corpus"},
    {"# T\nkind: cards\nseconds: lots\n## c\n" CARD, "t.deck:3: seconds is a whole number from 5 to 600"},
    {"# T\nkind: cards\n", "t.deck:1: a deck has items"},
    {"# T\nkind: cards\n##\n" CARD, "t.deck:3: an item (##) needs its title"},
    {"# T\nkind: cards\n## c\ntopic: t\nanswer: a\nmore: m\nremember: r\n", "t.deck:3: this card needs its dont: line"},
    {"# T\nkind: cards\n## c\ntopic: t\nanswer: a\n", "t.deck:3: this card needs its more:, remember: and dont: lines"},
    {"# T\nkind: cards\n## c\n" CARD "topic: again\n", "t.deck:9: topic: is given twice in this item"},
    {"# T\nkind: cards\n## c\n" CARD "symptom: masks.share_right\n", "t.deck:9: symptom: has no place in a cards deck"},
    {"# T\nkind: cards\n## c\n" CARD "set: colour=red\n", "t.deck:9: 'colour' is not a setting"},
    {"# T\nkind: cards\n## c\n" CARD "set: maxlen\n", "t.deck:9: settings are name=value pairs, got 'maxlen'"},
    {"# T\nkind: cards\n## c\n" CARD "set: corpus=/etc/passwd\n", "t.deck:9: a deck reads no file"},
    {"# T\nkind: cards\n## c\n" CARD "set: maxlen=0\n", "t.deck:9: maxlen must be a whole number"},
    {"# T\nkind: cards\n## c\n" CARD "set:\n", "t.deck:9: settings need at least one name=value"},
    {"# T\nkind: cards\n## c\ntopic: t\nanswer: a {batch.pad_cells\nmore: m\nremember: r\ndont: d\n",
     "t.deck:5: a { that no } closes"},
    {"# T\nkind: cards\n## c\ntopic: t\nanswer: a {batch.nothing}\nmore: m\nremember: r\ndont: d\n",
     "t.deck:5: 'batch.nothing' names no quantity"},
    {"# T\nkind: cards\n## c {batch.nothing}\n" CARD, "t.deck:3: 'batch.nothing' names no quantity"},
    {"# T\nkind: cards\n## c\n" CARD "id: has space\n", "t.deck:9: an id is letters, digits, - and _"},
    {"# T\nkind: cards\n## c\n" CARD "id: x\n## d\n" CARD "id: x\n",
     "t.deck:10: the item at line 3 has the same id 'x'"},
    {"# T\nkind: cards\n## c\n" CARD "## c\n" CARD, "t.deck:9: the item at line 3 has the same id 'c'"},
    {"# T\nkind: cards\n## c\ntopic: t\nanswer: a\nid: x\nfree words\n", "t.deck:7: this line belongs to no field"},
    {"# T\nkind: questions\n## q\ntopic: t\n- one => no\n", "t.deck:3: a question needs two choices or more"},
    {"# T\nkind: questions\n## q\ntopic: t\n- one => no\n- two => no\n",
     "t.deck:3: a question needs two choices or more"},
    {"# T\nkind: questions\n## q\ntopic: t\n- one\n* two => yes\n", "t.deck:5: a choice is '- text => why'"},
    {"# T\nkind: questions\n## q\ntopic: t\n- one => no\n* => yes\n", "t.deck:6: a choice needs its text and its why"},
    {"# T\nkind: questions\n## q\ntopic: t\nseconds: 2\n- one => no\n* two => yes\n",
     "t.deck:5: seconds is a whole number from 5 to 600, got '2'"},
    {"# T\nkind: questions\n## q\ntopic: t\n- 1 => n\n- 2 => n\n- 3 => n\n- 4 => n\n- 5 => n\n- 6 => n\n* 7 => y\n",
     "t.deck:11: an item has at most 6 choices"},
    {"# T\nkind: minute\n## p\ntopic: t\nanswer: a\nlisten: l\n", "t.deck:3: this prompt needs its follow: line"},
    {"# T\nkind: minute\n## p\ntopic: t\nanswer: a\nfollow: 1\nfollow: 2\nfollow: 3\nfollow: 4\nfollow: 5\n"
     "follow: 6\nfollow: 7\n"
     "follow: 8\nfollow: 9\nlisten: l\n",
     "t.deck:14: follow: is given at most 8 times"},
    {"# T\nkind: bugs\n## b\nbug: convention=hf\n" CASE "expect: lower\n", "t.deck:3: a case says what fixes it"},
    {"# T\nkind: bugs\n## b\nbug: convention=hf\n" CASE "fix: convention=torch\nexpect: sideways\n",
     "t.deck:14: expect: is lower, higher or changed"},
    {"# T\nkind: bugs\n## b\nbug: convention=hf\ntopic: t\nview: masks\nsymptom: masks.share_inverted\n"
     "choose: why?\n- a => no\n* b => yes\nfix: convention=torch\nexpect: lower\nafter: done\n",
     "t.deck:3: choose: needs three causes or more"},
    {"# T\nkind: bugs\n## b\nbug: convention=hf\ntopic: t\nview: masks\n"
     "symptom: masks.share_inverted => {masks.share_right} of it\n",
     "t.deck:7: a measure's label is plain words after =>"},
    {"# T\nkind: bugs\n## b\nbug: convention=hf\ntopic: t\nview: masks\nsymptom: masks.nothing => a share\n",
     "t.deck:7: 'masks.nothing' names no quantity"},
    {"# T\nkind: bugs\n## b\nbug: convention=hf\ntopic: t\nview: spreadsheet\n",
     "t.deck:6: 'spreadsheet' is not a view"},
    {"# T\nkind: bugs\n## b\nbug: convention=hf\ntopic: t\nview: masks\nsymptom: masks.nothing\n",
     "t.deck:7: 'masks.nothing' names no quantity"},
    {"# T\nkind: bugs\n## b\nbug: model=avgpool seeds=3\n" TRAINS,
     "t.deck:3: a case that reads train.* trains: add train:"},
    {"# T\nkind: bugs\n## b\nbug: model=avgpool seeds=1\ntrain:\n" TRAINS,
     "t.deck:3: a case that trains runs 3 seeds or more"},
    {"# T\nkind: bugs\n## b\nbug: convention=hf\n" CASE "fix: convention=torch\nexpect: lower\n"
     "also: masks.blind_rows, masks.share_none, masks.share_right, masks.share_inverted\n",
     "t.deck:15: also: names at most 3 quantities"},
    {"# T\nkind: bugs\n## b\nbug: convention=hf\n" CASE "fix: convention=torch\nexpect: lower\n"
     "also: masks.blind_rows => rows\nalso: masks.share_none => none\nalso: masks.share_right => right\n"
     "also: masks.padded_rows => padded\n",
     "t.deck:18: also: names at most 3 quantities"},
    {"# T\nkind: bugs\n## b\ninline: a b c | d e\n" CASE "fix-inline: ||||\nexpect: lower\n",
     "t.deck:13: inline takes rows of words or ids"},
    {"# T\nkind: bugs\n## b\nbug: convention=hf\n" CASE "fix: convention=torch\nexpect: lower\ntrain: now\n",
     "t.deck:15: train: takes no value"},
    {"# T\nkind: bugs\n## b\nbug: corpus=/etc/passwd\n" CASE "fix: convention=torch\nexpect: lower\n",
     "t.deck:4: a deck reads no file"},
};

START_TEST(test_parser_errors) {
    PlErr err;
    PlDeck *d = parse(bad_decks[_i].text, &err);
    ck_assert_msg(d == NULL, "case %d parsed: %s", _i, bad_decks[_i].text);
    ck_assert_msg(strncmp(err.msg, bad_decks[_i].want, strlen(bad_decks[_i].want)) == 0,
                  "case %d: got '%s', want '%s...'", _i, err.msg, bad_decks[_i].want);
    ck_assert_msg(!strchr(err.msg, '\n'), "case %d: the error is more than one line: %s", _i, err.msg);
}
END_TEST

/* Binary bytes, NULs, endless lines and too many items: one error, no crash. */
START_TEST(test_parser_binary_and_long_lines) {
    PlErr err;
    char bytes[4096];
    unsigned x = 12345u;
    for (int round = 0; round < 200; round++) {
        for (size_t i = 0; i < sizeof bytes; i++) x = x * 1103515245u + 12345u, bytes[i] = (char)(x >> 16);
        if (round % 2) memcpy(bytes, "# T\nkind: cards\n## c\n", 22);
        PlDeck *d = pl_deck_parse("r.deck", bytes, sizeof bytes, &err);
        if (d) pl_deck_free(d);
        else ck_assert_msg(strncmp(err.msg, "r.deck:", 7) == 0, "%s", err.msg);
    }
    size_t n = 100000;
    char *big = malloc(n + 1);
    memcpy(big, "# T\nkind: cards\n## c\ntopic: ", 28);
    memset(big + 28, 'x', n - 28);
    big[n] = '\0';
    PlDeck *d = pl_deck_parse("big.deck", big, n, &err);
    ck_assert_msg(d == NULL && strncmp(err.msg, "big.deck:4: ", 12) == 0, "%s", d ? "parsed" : err.msg);
    free(big);
    char *many = malloc(600 * 64 + 64), *w = many;
    w += sprintf(w, "# T\nkind: cards\n");
    for (int i = 0; i < 600; i++) w += sprintf(w, "## c%d\n%s", i, CARD);
    d = pl_deck_parse("many.deck", many, strlen(many), &err);
    ck_assert_msg(d == NULL && strstr(err.msg, "at most 500 items"), "%s", d ? "parsed" : err.msg);
    free(many);
}
END_TEST

static const char full_deck[] = "# Full\n"
                                "kind: bugs\n"
                                "about: every field of a case\n"
                                "setup: maxlen=100\n"
                                "; a comment\n"
                                "\n"
                                "## Pads that count\n"
                                "id: pads-count\n"
                                "topic: loss masking\n"
                                "The story, on\n"
                                "two lines.\n"
                                "bug: padding=post\n"
                                "inline: a b c | d e\n"
                                "view: loss\n"
                                "symptom: loss.with_pads => the loss as they computed it\n"
                                "also: loss.fake_terms, loss.real_terms\n"
                                "also: loss.pad_perfect =>  once the pads are learnt \n"
                                "choose: Why?\n"
                                "- The rate => No.\n"
                                "* The pads => Yes: {loss.pad_perfect}.\n"
                                "- [pinned] None of these => No.\n"
                                "fix-inline: a b c | d e f\n"
                                "fixed: loss.per_token\n"
                                "expect: changed\n"
                                "after: Honest: {loss.per_token}.\n";

START_TEST(test_parser_reads_everything) {
    PlErr err;
    PlDeck *d = pl_deck_parse("decks/full.deck", full_deck, strlen(full_deck), &err);
    ck_assert_msg(d != NULL, "%s", err.msg);
    ck_assert_str_eq(d->name, "full");
    ck_assert_str_eq(d->title, "Full");
    ck_assert_int_eq(d->kind, PL_DECK_BUGS);
    ck_assert_str_eq(d->about, "every field of a case");
    ck_assert_str_eq(d->setup, "maxlen=100");
    ck_assert_uint_eq(d->setup_patch->mask, PL_S_BIT(PL_S_MAXLEN)); /* parsed once, when the deck is read */
    ck_assert_int_eq(d->setup_patch->values.maxlen, 100);
    ck_assert_int_eq(d->n, 1);
    const PlDeckItem *it = &d->items[0];
    ck_assert_str_eq(it->id, "pads-count");
    ck_assert_str_eq(it->title, "Pads that count");
    ck_assert_str_eq(it->text, "The story, on two lines.");
    ck_assert_str_eq(it->topic, "loss masking");
    ck_assert_str_eq(it->bug, "padding=post");
    ck_assert_uint_eq(it->bug_patch->mask, PL_S_BIT(PL_S_PADDING));
    ck_assert_int_eq(it->bug_patch->values.padding, PL_POST);
    ck_assert_ptr_null(it->fix_patch);
    ck_assert_str_eq(it->bug_inline, "a b c | d e");
    ck_assert_str_eq(it->fix_inline, "a b c | d e f");
    ck_assert_int_eq(it->nchoices, 3);
    ck_assert_int_eq(it->right, 1);
    ck_assert_int_eq(it->choices[1].right, 1);
    ck_assert_str_eq(it->choices[1].why, "Yes: {loss.pad_perfect}.");
    ck_assert_int_eq(it->choices[1].pinned, 0);
    ck_assert_int_eq(it->choices[2].pinned, 1); /* the mark is read and taken off the text */
    ck_assert_str_eq(it->choices[2].text, "None of these");
    ck_assert_str_eq(it->symptom_label, "the loss as they computed it");
    ck_assert_str_eq(pl_deck_measure_label(it, -1), "the loss as they computed it");
    ck_assert_int_eq(it->nalso, 3);
    ck_assert_ptr_null(it->also_label[0]); /* without a label, the quantity's help, never its name */
    ck_assert_str_eq(pl_deck_measure_label(it, 0), "pad targets that join the loss without ignore_index");
    ck_assert_str_eq(pl_deck_measure_label(it, 2), "once the pads are learnt");
    ck_assert_int_eq(it->expect, 0);
    ck_assert_int_eq(it->trains, 0);
    ck_assert_int_eq(it->line, 7);
    ck_assert_str_eq(it->after, "Honest: {loss.per_token}.");
    pl_deck_free(d);

    /* A card's title without id: gives a slug id. */
    d = parse("# T\nkind: cards\n## What is a Pad, really?\n" CARD, &err);
    ck_assert_msg(d != NULL, "%s", err.msg);
    ck_assert_str_eq(d->items[0].id, "what-is-a-pad-really");
    pl_deck_free(d);
}
END_TEST

/* ---- the scheduler ---- */

/* The figures below are ts-fsrs 5.4.2's (the reference implementation,
 * tests/fsrs/compare.mjs), for a card first seen at T0, 2026-01-05 09:00
 * UTC, with fuzz off. */
#define T0 1767603600LL

static PlFsrs no_fuzz(void) {
    PlFsrs p;
    pl_fsrs_default(&p);
    p.fuzz = 0;
    return p;
}

static PlSchedCard new_card(void) {
    PlSchedCard c;
    memset(&c, 0, sizeof c);
    return c;
}

START_TEST(test_sched_grades) {
    PlFsrs p = no_fuzz();
    PlSchedCard c = new_card();
    ck_assert(pl_sched_is_due(&c, 0));
    /* new, good: the second learning step, ten minutes; D and S of a first good */
    ck_assert_int_eq(pl_sched_grade(&p, &c, PL_GRADE_GOOD, T0, 0), 0);
    ck_assert_int_eq(c.state, PL_CARD_LEARNING);
    ck_assert_int_eq(c.step, 1);
    ck_assert_int_eq(c.due, T0 + 600);
    ck_assert_double_eq_tol(c.d, 2.11810397, 1e-8);
    ck_assert_double_eq_tol(c.s, 2.3065, 1e-8);
    /* good past the last step: review, round(S) = 2 days (at retention 0.9 the interval is S) */
    pl_sched_grade(&p, &c, PL_GRADE_GOOD, T0 + 600, 0);
    ck_assert_int_eq(c.state, PL_CARD_REVIEW);
    ck_assert_int_eq(c.scheduled, 2);
    ck_assert_double_eq_tol(c.d, 2.11121424, 1e-8);
    ck_assert_double_eq_tol(c.s, 2.3065, 1e-8); /* the same day: the short-term rule, no growth for good */
    ck_assert(!pl_sched_is_due(&c, (int)(T0 / PL_DAY) + 1));
    ck_assert(pl_sched_is_due(&c, (int)(T0 / PL_DAY) + 2));
    /* good when due: S grows to 10.97 days, 11 days */
    long long t = c.due;
    /* two days on, recall (1 + F 2 / 2.3065)^-w20 = 0.9095 (the interval was S rounded down) */
    ck_assert_double_eq_tol(pl_sched_recall(&p, &c, t), 0.90949, 1e-5);
    pl_sched_grade(&p, &c, PL_GRADE_GOOD, t, 0);
    ck_assert_double_eq_tol(c.s, 10.97104786, 1e-8);
    ck_assert_int_eq(c.scheduled, 11);
    ck_assert_int_eq(c.lapses, 0);
    /* again when due: a lapse, relearning for ten minutes */
    t = c.due;
    pl_sched_grade(&p, &c, PL_GRADE_AGAIN, t, 0);
    ck_assert_int_eq(c.state, PL_CARD_RELEARNING);
    ck_assert_int_eq(c.due, t + 600);
    ck_assert_int_eq(c.lapses, 1);
    ck_assert_double_eq_tol(c.d, 7.38997579, 1e-8);
    ck_assert_double_eq_tol(c.s, 1.5390125, 1e-8);
    /* good after the relearning step: review again, 2 days */
    t = c.due;
    pl_sched_grade(&p, &c, PL_GRADE_GOOD, t, 0);
    ck_assert_int_eq(c.state, PL_CARD_REVIEW);
    ck_assert_int_eq(c.scheduled, 2);
    ck_assert_double_eq_tol(c.s, 1.57184156, 1e-8);
    ck_assert_int_eq(c.reviews, 5);
    ck_assert_int_eq(c.last, t);
    /* out of range changes nothing */
    PlSchedCard before = c;
    ck_assert_int_eq(pl_sched_grade(&p, &c, (PlGrade)0, t, 0), -1);
    ck_assert_int_eq(pl_sched_grade(&p, &c, (PlGrade)5, t, 0), -1);
    ck_assert_int_eq(pl_sched_wait(&p, &c, (PlGrade)5, t, 0), -1);
    ck_assert_int_eq(memcmp(&before, &c, sizeof c), 0);
}
END_TEST

/* New or in review, again, hard, good and easy wait four different times. */
START_TEST(test_sched_grades_mean_different_waits) {
    PlFsrs p = no_fuzz();
    PlSchedCard c = new_card();
    static const long long fresh[5] = {0, 60, 360, 600, 8 * PL_DAY}; /* 1, 6, 10 minutes; easy: S 8.2956, 8 days */
    for (int g = PL_GRADE_AGAIN; g <= PL_GRADE_EASY; g++)
        ck_assert_int_eq(pl_sched_wait(&p, &c, (PlGrade)g, T0, 0), fresh[g]);
    pl_sched_grade(&p, &c, PL_GRADE_GOOD, T0, 0);
    pl_sched_grade(&p, &c, PL_GRADE_GOOD, T0 + 600, 0);
    static const long long review[5] = {0, 600, 8 * PL_DAY, 11 * PL_DAY, 19 * PL_DAY};
    for (int g = PL_GRADE_AGAIN; g <= PL_GRADE_EASY; g++)
        ck_assert_int_eq(pl_sched_wait(&p, &c, (PlGrade)g, c.due, 0), review[g]);
}
END_TEST

/* A lower desired retention means longer waits: at 0.8 the 2-day card waits 8. */
START_TEST(test_sched_retention_stretches_intervals) {
    PlFsrs p = no_fuzz();
    p.retention = 0.8;
    PlSchedCard c = new_card();
    pl_sched_grade(&p, &c, PL_GRADE_GOOD, T0, 0);
    pl_sched_grade(&p, &c, PL_GRADE_GOOD, T0 + 600, 0);
    ck_assert_int_eq(c.scheduled, 8);
    ck_assert_int_eq(pl_fsrs_retention_ok(0.9), 0);
    ck_assert_int_eq(pl_fsrs_retention_ok(1.2), -1);
    ck_assert_int_eq(pl_fsrs_retention_ok(0.5), -1);
}
END_TEST

/* Fuzz: the 11-day interval lands within the reference's range for it
 * (11 +- 2.075 rounded: 9 to 13 days), the same for the same card and
 * review on every run, and spread over the range across cards. */
START_TEST(test_sched_fuzz_is_seeded_by_the_card) {
    PlFsrs p;
    pl_fsrs_default(&p);
    int seen[40] = {0};
    for (uint64_t seed = 1; seed <= 200; seed++) {
        PlSchedCard c = new_card();
        pl_sched_grade(&p, &c, PL_GRADE_GOOD, T0, seed);
        pl_sched_grade(&p, &c, PL_GRADE_GOOD, T0 + 600, seed);
        pl_sched_grade(&p, &c, PL_GRADE_GOOD, c.due, seed);
        ck_assert_int_ge(c.scheduled, 9);
        ck_assert_int_le(c.scheduled, 13);
        seen[c.scheduled]++;
        PlSchedCard again = new_card();
        pl_sched_grade(&p, &again, PL_GRADE_GOOD, T0, seed);
        pl_sched_grade(&p, &again, PL_GRADE_GOOD, T0 + 600, seed);
        pl_sched_grade(&p, &again, PL_GRADE_GOOD, again.due, seed);
        ck_assert_int_eq(again.due, c.due);
    }
    for (int d = 9; d <= 13; d++) ck_assert_int_gt(seen[d], 10); /* each day of the range taken */
}
END_TEST

/* A Leitner card of the first book version: box 3 (4 days), due day 20460,
 * last seen day 20456, becomes a review card with S 4 days, due then. */
START_TEST(test_sched_from_box_keeps_the_interval) {
    PlFsrs p = no_fuzz();
    PlSchedCard c = new_card();
    c.reviews = 3, c.lapses = 1;
    pl_sched_from_box(&p, &c, 3, 20460, 20456);
    ck_assert_int_eq(c.state, PL_CARD_REVIEW);
    ck_assert_double_eq(c.s, 4.0);
    ck_assert_double_eq_tol(c.d, 2.11810397, 1e-8); /* a first grade good's */
    ck_assert_int_eq(c.due, 20460 * PL_DAY);
    ck_assert_int_eq(c.last, 20456 * PL_DAY);
    ck_assert_int_eq(c.reviews, 3);
    ck_assert_int_eq(c.lapses, 1);
    ck_assert_double_eq_tol(pl_sched_recall(&p, &c, c.due), 0.9, 1e-8); /* due at the retention */
}
END_TEST

/* ---- the drill, headless ---- */

static const char cards_deck[] = "# Cards\nkind: cards\n"
                                 "## One\n" CARD "## Two\n" CARD "## Three\n" CARD;

static PlDrillBook empty_book(void) {
    PlDrillBook b;
    pl_drill_book_init(&b, "/nonexistent/drill");
    return b;
}

START_TEST(test_drill_cards) {
    PlErr err;
    PlDeck *deck = pl_deck_parse("cards.deck", cards_deck, strlen(cards_deck), &err);
    ck_assert_msg(deck != NULL, "%s", err.msg);
    PlDrillBook book = empty_book();
    PlDrillOpts o = {.today = 1000};
    PlDrill *d = pl_drill_new(deck, &book, &o, 0.0);
    const PlDrillState *s = pl_drill_state(d);
    ck_assert_int_eq(s->total, 3);
    ck_assert_int_eq(s->phase, PL_DRILL_FRONT);
    ck_assert_str_eq(pl_drill_item(d)->title, "One");
    /* grading before the reveal, choosing, fixing: refused with a reason */
    ck_assert_int_eq(pl_drill_grade(d, 3, 1.0), -1);
    ck_assert(strstr(s->message, "reveal the answer first") != NULL);
    ck_assert_int_eq(pl_drill_choose(d, 0, 1.0), -1);
    ck_assert_int_eq(pl_drill_fix(d), -1);
    ck_assert_int_eq(pl_drill_reveal(d, 1.0), 0);
    ck_assert_int_eq(s->phase, PL_DRILL_BACK);
    ck_assert_int_eq(pl_drill_grade(d, 7, 1.0), -1);
    /* One: again, comes round later in the session */
    ck_assert_int_eq(pl_drill_grade(d, PL_GRADE_AGAIN, 2.0), 0);
    ck_assert_int_eq(s->total, 4);
    ck_assert_str_eq(pl_drill_item(d)->title, "Two");
    pl_drill_reveal(d, 3.0), pl_drill_grade(d, PL_GRADE_GOOD, 3.0);
    pl_drill_reveal(d, 4.0), pl_drill_grade(d, PL_GRADE_EASY, 4.0);
    ck_assert_str_eq(pl_drill_item(d)->title, "One");
    pl_drill_reveal(d, 5.0), pl_drill_grade(d, PL_GRADE_HARD, 5.0);
    ck_assert_int_eq(s->phase, PL_DRILL_END);
    ck_assert_int_eq(s->graded[1], 1);
    ck_assert_int_eq(s->graded[2], 1);
    ck_assert_int_eq(s->graded[3], 1);
    ck_assert_int_eq(s->graded[4], 1);
    ck_assert_int_eq(s->due_in, 0); /* One and Two are in their learning steps, minutes away */
    ck_assert_ptr_null(pl_drill_item(d));
    ck_assert_int_eq(pl_drill_reveal(d, 6.0), -1);
    ck_assert(strstr(s->message, "over") != NULL);
    pl_drill_free(d);
    /* the book holds each card's FSRS state and due time (ts-fsrs's waits:
     * a new card's again 1 min, hard 6 min, good 10 min, easy 8 days); the
     * session's clock is noon of its day plus the app's seconds */
    const long long noon = 1000 * PL_DAY + PL_DAY / 2;
    const PlDrillRecord *r = pl_drill_book_find(&book, "cards", "one");
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(r->s.state, PL_CARD_LEARNING); /* again, then hard: the first step again */
    ck_assert_int_eq(r->s.due, noon + 5 + 360);
    ck_assert_int_eq(r->s.reviews, 2);
    r = pl_drill_book_find(&book, "cards", "two"); /* new, good: the second step, 10 minutes */
    ck_assert_int_eq(r->s.state, PL_CARD_LEARNING);
    ck_assert_int_eq(r->s.step, 1);
    ck_assert_int_eq(r->s.due, noon + 3 + 600);
    r = pl_drill_book_find(&book, "cards", "three"); /* new, easy: review, 8 days fuzzed (6..10) */
    ck_assert_int_eq(r->s.state, PL_CARD_REVIEW);
    ck_assert_int_ge(r->s.scheduled, 6);
    ck_assert_int_le(r->s.scheduled, 10);
    ck_assert_int_eq(r->s.due, noon + 4 + r->s.scheduled * PL_DAY);
    /* every grade is in the log: One's two, Two's and Three's */
    int logs = 0;
    for (int i = 0; i < book.n; i++) logs += ((const PlDrillRecord *)pl_book_at(&book, i))->log.n > 0;
    ck_assert_int_eq(logs, 4);
    /* the same day One and Two are due again (their steps); on Three's day Three too */
    int three = (int)(r->s.due / PL_DAY);
    ck_assert_int_eq(pl_drill_due_count(deck, &book, 1000), 2);
    ck_assert_int_eq(pl_drill_due_count(deck, &book, three - 1), 2);
    ck_assert_int_eq(pl_drill_due_count(deck, &book, three), 3);
    o.today = three - 1;
    d = pl_drill_new(deck, &book, &o, 10.0);
    ck_assert_int_eq(pl_drill_state(d)->total, 2);
    pl_drill_free(d);
    o.today = 1000, o.all = 1;
    d = pl_drill_new(deck, &book, &o, 10.0);
    ck_assert_int_eq(pl_drill_state(d)->total, 3);
    pl_drill_free(d);
    pl_drill_book_done(&book);
    pl_deck_free(deck);
}
END_TEST

/* A week towards an interview on day 7 (2026-01-12), twelve cards in three
 * topics, a session each morning at 09:00 UTC in which every card shown is
 * graded: the learner misses a card (again) when a hash of the card, the
 * day and the times it was seen says so, about one in four, and else knows it (good; easy for a
 * card seen three times). The plan holds: at most two new cards a day
 * (twelve over six days), every card introduced before the day, no
 * interval ending after it, every card seen on or before it. Each morning
 * brings the reviews the evening's schedule (pl_drill_plan_days, --plan's
 * "reviews due") said it would. With PADLAB_WEEK=1 in the environment the
 * week is printed day by day. */
#define WEEK_CARD "answer: a\nmore: m\nremember: r\ndont: d\n"
static const char week_deck[] = "# Week\nkind: cards\n"
                                "## A1\ntopic: attention masks\n" WEEK_CARD "## A2\ntopic: attention masks\n" WEEK_CARD
                                "## A3\ntopic: attention masks\n" WEEK_CARD "## A4\ntopic: attention masks\n" WEEK_CARD
                                "## B1\ntopic: batching\n" WEEK_CARD "## B2\ntopic: batching\n" WEEK_CARD
                                "## B3\ntopic: batching\n" WEEK_CARD "## B4\ntopic: batching\n" WEEK_CARD
                                "## C1\ntopic: causal masks\n" WEEK_CARD "## C2\ntopic: causal masks\n" WEEK_CARD
                                "## C3\ntopic: causal masks\n" WEEK_CARD "## C4\ntopic: causal masks\n" WEEK_CARD;

static int week_grade(const char *id, int day, int seen) {
    unsigned h = 2166136261u;
    for (const char *c = id; *c; c++) h = (h ^ (unsigned char)*c) * 16777619u;
    h = (h ^ (unsigned)day) * 16777619u;
    h = (h ^ (unsigned)seen) * 16777619u;
    return h % 4 == 0 ? PL_GRADE_AGAIN : seen >= 3 ? PL_GRADE_EASY : PL_GRADE_GOOD;
}

/* The reviews due this morning: the due cards that are not new. */
static int week_reviews_due(const PlDeck *deck, const PlDrillBook *b, int day) {
    int unseen = 0;
    for (int i = 0; i < deck->n; i++) {
        const PlDrillRecord *r = pl_drill_book_find(b, deck->name, deck->items[i].id);
        unseen += !r || r->s.state == PL_CARD_NEW;
    }
    return pl_drill_due_count(deck, b, day) - unseen;
}

static void week_print_topics(const PlDeck *deck, const PlDrillBook *b, long long now, int until) {
    PlTopicRecall t[8];
    const PlDeck *decks[1] = {deck};
    int nt = pl_drill_plan_topics(decks, 1, b, now, until, t, 8);
    for (int i = 0; i < nt; i++)
        printf("    %-16s seen %d/%d  recall now %3.0f%%  on the day %3.0f%%\n", t[i].topic, t[i].seen, t[i].cards,
               100 * t[i].recall_now, 100 * t[i].recall_then);
}

START_TEST(test_drill_week_towards_an_interview) {
    PlErr err;
    PlDeck *deck = pl_deck_parse("week.deck", week_deck, strlen(week_deck), &err);
    ck_assert_msg(deck != NULL, "%s", err.msg);
    PlDrillBook book = empty_book();
    const int day0 = 20458, until = day0 + 7; /* 2026-01-05 .. 2026-01-12 */
    ck_assert_int_eq(pl_drill_book_set_until(&book, until), 0);
    int show = getenv("PADLAB_WEEK") != NULL, seen_n[12] = {0}, ahead[8] = {0};
    const PlDeck *decks[1] = {deck};
    for (int day = day0; day < until; day++) {
        /* as yesterday's schedule said: its tomorrow, and what it left due yesterday (a learning step's minutes) */
        ck_assert_int_eq(week_reviews_due(deck, &book, day), ahead[0] + ahead[1]);
        PlDrillOpts o = {.today = day, .clock = (long long)day * PL_DAY + 9 * 3600};
        char date[16];
        pl_sched_day_text(day, date, sizeof date);
        int allowance = pl_drill_new_allowance(deck, &book, day);
        ck_assert_int_le(allowance, 2);
        PlDrill *d = pl_drill_new(deck, &book, &o, 0.0);
        if (show) printf("%s: %d in the queue (new allowed: %d)\n", date, pl_drill_state(d)->total, allowance);
        double t = 0;
        while (pl_drill_state(d)->phase != PL_DRILL_END) {
            int i = pl_drill_state(d)->item;
            const PlDeckItem *it = pl_drill_item(d);
            int g = week_grade(it->id, day, seen_n[i]);
            pl_drill_reveal(d, t += 20);
            ck_assert_int_eq(pl_drill_grade(d, g, t), 0);
            seen_n[i]++;
            const PlDrillRecord *r = pl_drill_book_find(&book, deck->name, it->id);
            if (day <
                until - PL_SCHED_FINAL_DAYS) /* no interval given before the final days ends after the interview */
                ck_assert_int_le(r->s.due / PL_DAY, until);
            if (show) {
                char due[16];
                pl_sched_day_text((int)(r->s.due / PL_DAY), due, sizeof due);
                printf("  %s %-5s -> %-10s D %.2f S %7.3f  %s\n", it->title,
                       g == 1   ? "again"
                       : g == 3 ? "good"
                                : "easy",
                       pl_sched_state_name(r->s.state), r->s.d, r->s.s,
                       r->s.scheduled ? due : "(a learning step, minutes)");
            }
        }
        pl_drill_free(d);
        pl_drill_plan_days(decks, 1, &book, day, 8, ahead);
        if (show) {
            printf("  reviews due from this evening:");
            for (int k = 0; k < 8; k++) printf(" %d", ahead[k]);
            printf("\n");
            week_print_topics(deck, &book, o.clock + 3600, until);
        }
    }
    for (int i = 0; i < deck->n; i++) { /* each introduced, and reviewed again on or before the day */
        const PlDrillRecord *r = pl_drill_book_find(&book, deck->name, deck->items[i].id);
        ck_assert_ptr_nonnull(r);
        ck_assert_int_ne(r->s.state, PL_CARD_NEW);
        if (r->s.due / PL_DAY > until) ck_assert_int_ge(r->s.last / PL_DAY, until - PL_SCHED_FINAL_DAYS);
    }
    PlTopicRecall t[8];
    ck_assert_int_eq(pl_drill_plan_topics(decks, 1, &book, (long long)until * PL_DAY, until, t, 8), 3);
    ck_assert_str_eq(t[0].topic, "attention masks");
    ck_assert_int_eq(t[0].seen, 4);
    if (show) {
        printf("2026-01-12 (the interview), 09:00:\n");
        week_print_topics(deck, &book, (long long)until * PL_DAY + 9 * 3600, until);
    }
    pl_drill_book_done(&book);
    pl_deck_free(deck);
}
END_TEST

static const char questions_deck[] = "# Qs\nkind: questions\nseconds: 20\n"
                                     "## First?\ntopic: t\n- no => n1\n* yes => y1\n"
                                     "## Second?\ntopic: t\nseconds: 5\n* yes => y2\n- no => n2\n- maybe => m2\n";

START_TEST(test_drill_questions) {
    PlErr err;
    PlDeck *deck = pl_deck_parse("qs.deck", questions_deck, strlen(questions_deck), &err);
    ck_assert_msg(deck != NULL, "%s", err.msg);
    PlDrillBook book = empty_book();
    PlDrillOpts o = {.today = 50, .timed = 1, .seed = 3};
    PlDrill *d = pl_drill_new(deck, &book, &o, 100.0);
    const PlDrillState *s = pl_drill_state(d);
    ck_assert_int_eq(s->total, 2);
    ck_assert_int_eq(pl_drill_reveal(d, 100.0), -1);
    ck_assert_int_eq(pl_drill_next(d, 100.0), -1);
    int first = s->item;
    const PlDeckItem *it = pl_drill_item(d);
    double limit = it->seconds ? it->seconds : 20;
    ck_assert_double_eq(s->limit, limit);
    ck_assert_double_eq_tol(pl_drill_time_left(d, 101.0), limit - 1.0, 1e-9);
    ck_assert_int_eq(pl_drill_choose(d, 9, 101.0), -1);
    ck_assert(strstr(s->message, "pick one of a to") != NULL);
    ck_assert_int_eq(pl_drill_choose(d, s->right_at, 101.0), 0); /* by the letter it is shown at */
    ck_assert_int_eq(s->chosen, it->right);
    ck_assert_int_eq(s->phase, PL_DRILL_BACK);
    ck_assert_int_eq(s->right, 1);
    ck_assert_int_eq(pl_drill_choose(d, 0, 101.0), -1);
    ck_assert_int_eq(pl_drill_next(d, 102.0), 0);
    /* the second: the time runs out */
    ck_assert_int_ne(s->item, first);
    it = pl_drill_item(d);
    limit = it->seconds ? it->seconds : 20;
    ck_assert_int_eq(pl_drill_tick(d, 102.0 + limit - 0.5), 0);
    ck_assert_int_eq(pl_drill_tick(d, 102.0 + limit + 0.1), 1);
    ck_assert_int_eq(s->phase, PL_DRILL_BACK);
    ck_assert_int_eq(s->timed_out, 1);
    ck_assert_int_eq(s->wrong, 1);
    ck_assert_int_eq(s->chosen, -1);
    pl_drill_next(d, 130.0);
    ck_assert_int_eq(s->phase, PL_DRILL_END);
    pl_drill_free(d);
    const PlDrillRecord *r = pl_drill_book_find(&book, "qs", deck->items[first].id);
    ck_assert_int_eq(r->right, 1);
    ck_assert_int_eq(r->wrong, 0);
    /* the missed one comes first next time; untimed has no limit */
    o.timed = 0;
    d = pl_drill_new(deck, &book, &o, 0.0);
    ck_assert_int_ne(pl_drill_state(d)->item, first);
    ck_assert_double_eq(pl_drill_time_left(d, 1000.0), -1.0);
    ck_assert_int_eq(pl_drill_tick(d, 1e6), 0);
    pl_drill_free(d);
    pl_drill_book_done(&book);
    pl_deck_free(deck);
}
END_TEST

/* The heading's "before" counts the answers given before this one: once the
 * learner answers, the book holds the new answer, and the heading leaves it out. */
START_TEST(test_question_heading_counts_answers_before_this_one) {
    PlErr err;
    PlDeck *deck = pl_deck_parse("qs.deck", questions_deck, strlen(questions_deck), &err);
    ck_assert_msg(deck != NULL, "%s", err.msg);
    PlDrillBook book = empty_book();
    PlDrillRecord *r = pl_drill_book_of(&book, "qs", "first");
    r->right = 2, r->wrong = 1;
    r = pl_drill_book_of(&book, "qs", "second");
    r->right = 0, r->wrong = 4; /* missed more: it comes first */
    PlDrillOpts o = {.today = 50, .all = 1};
    PlLabSettings base = pl_settings_default();
    PlDrillPlay p;
    char why[300];
    static PlPage page;
    ck_assert_int_eq(pl_drill_play_start(&p, deck, &book, 0, &base, &o, 0.0, why, sizeof why), 0);
    p.keep = 0;
    ck_assert_str_eq(pl_drill_item(p.drill)->id, "second");
    pl_drill_play_page(&p, 0.0, &page);
    ck_assert_str_eq(pl_page_para(&page, 0), "question 1 of 2 - t - before: 0 right, 4 wrong");
    ck_assert_int_eq(pl_drill_choose(p.drill, pl_drill_state(p.drill)->right_at, 0.0), 0);
    pl_drill_play_page(&p, 0.0, &page);
    ck_assert_str_eq(pl_page_para(&page, 0), "question 1 of 2 - t - before: 0 right, 4 wrong");
    ck_assert_int_eq(pl_drill_book_find(&book, "qs", "second")->right, 1);
    pl_drill_play_close(&p);
    pl_drill_book_done(&book);
    pl_deck_free(deck);
}
END_TEST

static const char bugs_deck[] =
    "# Bugs\nkind: bugs\n"
    "## Polarity\ntopic: t\nbug: convention=hf\nview: masks\nsymptom: masks.share_inverted\n"
    "choose: Why?\n- shape => no\n* polarity => yes\n- causal => no\nfix: convention=torch\nfixed: masks.share_right\n"
    "expect: lower\nafter: fixed\n";

START_TEST(test_drill_bugs) {
    PlErr err;
    PlDeck *deck = pl_deck_parse("bugs.deck", bugs_deck, strlen(bugs_deck), &err);
    ck_assert_msg(deck != NULL, "%s", err.msg);
    PlDrillBook book = empty_book();
    PlDrillOpts o = {.today = 7};
    PlDrill *d = pl_drill_new(deck, &book, &o, 0.0);
    const PlDrillState *s = pl_drill_state(d);
    ck_assert_int_eq(s->total, 1);
    ck_assert_int_eq(pl_drill_fix(d), -1);
    ck_assert(strstr(s->message, "pick the cause first") != NULL);
    ck_assert_int_eq(pl_drill_choose(d, (s->right_at + 1) % 3, 1.0), 0); /* a wrong letter */
    ck_assert_int_eq(s->wrong, 1);
    ck_assert_int_eq(s->phase, PL_DRILL_BACK);
    ck_assert_int_eq(pl_drill_grade(d, 3, 1.0), -1);
    ck_assert_int_eq(pl_drill_fix(d), 0);
    ck_assert_int_eq(s->phase, PL_DRILL_FIXED);
    ck_assert_int_eq(pl_drill_fix(d), -1);
    ck_assert_int_eq(pl_drill_next(d, 2.0), 0);
    ck_assert_int_eq(s->phase, PL_DRILL_END);
    ck_assert_int_eq(s->due_in, -1);
    pl_drill_free(d);
    ck_assert_int_eq(pl_drill_book_find(&book, "bugs", "polarity")->wrong, 1);
    pl_drill_book_done(&book);
    pl_deck_free(deck);
}
END_TEST

static const char minute_deck[] = "# Minute\nkind: minute\nseconds: 60\n"
                                  "## Explain masks.\ntopic: t\nanswer: a\nfollow: f1\nfollow: f2\nlisten: l1\n";

START_TEST(test_drill_minute) {
    PlErr err;
    PlDeck *deck = pl_deck_parse("minute.deck", minute_deck, strlen(minute_deck), &err);
    ck_assert_msg(deck != NULL, "%s", err.msg);
    ck_assert_int_eq(deck->items[0].nfollow, 2);
    ck_assert_int_eq(deck->items[0].nlisten, 1);
    PlDrillBook book = empty_book();
    PlDrillOpts o = {.today = 7};
    PlDrill *d = pl_drill_new(deck, &book, &o, 10.0);
    const PlDrillState *s = pl_drill_state(d);
    ck_assert_double_eq(s->limit, 60.0);
    ck_assert_double_eq_tol(pl_drill_time_left(d, 40.0), 30.0, 1e-9);
    ck_assert_double_eq(pl_drill_time_left(d, 100.0), 0.0);
    /* the countdown is the speaker's: running out does not answer for them */
    ck_assert_int_eq(pl_drill_tick(d, 100.0), 0);
    ck_assert_int_eq(s->phase, PL_DRILL_FRONT);
    ck_assert_int_eq(pl_drill_choose(d, 0, 100.0), -1);
    ck_assert_int_eq(pl_drill_reveal(d, 100.0), 0);
    ck_assert_int_eq(pl_drill_grade(d, PL_GRADE_GOOD, 100.0), 0);
    ck_assert_int_eq(s->phase, PL_DRILL_END);
    pl_drill_free(d);
    const PlDrillRecord *r = pl_drill_book_find(&book, "minute", "explain-masks");
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(r->s.state, PL_CARD_LEARNING); /* new, good: the second learning step, 10 minutes */
    ck_assert_int_eq(r->s.step, 1);
    ck_assert_int_eq(r->s.due, 7 * PL_DAY + PL_DAY / 2 + 90 + 600); /* graded 90 s into the session */
    pl_drill_book_done(&book);
    pl_deck_free(deck);
}
END_TEST

START_TEST(test_book_round_trip) {
    char *dir = pl_test_tmpdir();
    setenv("XDG_STATE_HOME", dir, 1);
    PlDrillBook b;
    PlErr err;
    ck_assert_int_eq(pl_drill_book_load(&b, &err), PL_OK);
    ck_assert_int_eq(b.n, 0);
    ck_assert(b.salt != 0); /* a new learner gets a salt of their own */
    b.salt = 0x0123456789abcdefULL;
    ck_assert_int_eq(pl_drill_book_grade(&b, "cards-attention", "key-padding-mask", PL_GRADE_GOOD, T0), 0);
    ck_assert_int_eq(pl_drill_book_grade(&b, "cards-attention", "key-padding-mask", PL_GRADE_EASY, T0 + 600), 0);
    ck_assert_int_eq(pl_drill_book_set_retention(&b, 0.85), 0);
    ck_assert_int_eq(pl_drill_book_set_retention(&b, 1.5), -1);
    PlDrillRecord *r = pl_drill_book_of(&b, "quickfire", "what-is-t");
    r->right = 2, r->wrong = 1;
    ck_assert_int_eq(pl_drill_book_save(&b, &err), PL_OK);
    pl_drill_book_done(&b);
    ck_assert_int_eq(pl_drill_book_load(&b, &err), PL_OK);
    ck_assert_int_eq(b.n, 5); /* the card, its two log lines, the question, the settings */
    const PlDrillRecord *c = pl_drill_book_find(&b, "cards-attention", "key-padding-mask");
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(c->s.state, PL_CARD_REVIEW); /* good: a learning step; easy: review */
    ck_assert_double_eq_tol(c->s.d, 1.0, 1e-8);   /* ts-fsrs: D 1 (the floor), S 3.94605407 */
    ck_assert_double_eq_tol(c->s.s, 3.94605407, 1e-8);
    ck_assert_int_eq(c->s.reviews, 2);
    ck_assert_double_eq(pl_drill_book_retention(&b), 0.85);
    const PlDrillRecord *l = pl_book_find(&b, "cards-attention/key-padding-mask@1767604200.2");
    ck_assert_ptr_nonnull(l);
    ck_assert_int_eq(l->log.grade, PL_GRADE_EASY);
    ck_assert_int_eq(l->log.state0, PL_CARD_LEARNING);
    ck_assert_int_eq(l->log.state1, PL_CARD_REVIEW);
    ck_assert_double_eq_tol(l->log.s0, 2.3065, 1e-8);
    ck_assert_double_eq(l->log.s1, c->s.s);
    ck_assert_int_eq(l->log.due1, c->s.due);
    ck_assert_int_eq(l->log.elapsed, 0);
    ck_assert(b.salt == 0x0123456789abcdefULL);
    ck_assert_int_eq(pl_drill_book_find(&b, "quickfire", "what-is-t")->wrong, 1);
    ck_assert_ptr_null(pl_drill_book_find(&b, "quickfire", "nothing"));
    ck_assert_int_eq(pl_drill_book_forget(&b, "quickfire"), 1);
    ck_assert_int_eq(pl_drill_book_forget(&b, "quickfire"), 0);
    ck_assert_int_eq(pl_drill_book_forget(&b, "cards-attention"), 3); /* the card and its log */
    pl_drill_book_done(&b);
    char path[4200];
    snprintf(path, sizeof path, "%s/padlab/drill", dir);
    const char damaged[] = "item = a/b box=1 due=3 reviews=1 lapses=0 right=0 wrong=0 last=2\nitem = a/c box=x\n";
    pl_test_write_file(path, damaged, sizeof damaged - 1);
    ck_assert_int_eq(pl_drill_book_load(&b, &err), PL_OK); /* a/c left out and named (test_book.c) */
    ck_assert_int_eq(b.n, 1);
    ck_assert_msg(strstr(b.notice, "drill:2:") != NULL, "%s", b.notice);
    pl_drill_book_done(&b);
    const char bad_salt[] = "learner = 12345\n";
    pl_test_write_file(path, bad_salt, sizeof bad_salt - 1);
    ck_assert_int_eq(pl_drill_book_load(&b, &err), PL_OK);
    ck_assert_msg(strstr(b.notice, "drill:1: expected 'learner = ' and 16 hex digits") != NULL, "%s", b.notice);
    pl_drill_book_done(&b);
    unsetenv("XDG_STATE_HOME");
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

/* ---- the order of choices ---- */

/* Four choices, the last pinned: over 6000 seeds the pinned one never moves,
 * each order is a permutation, and each of the other three lands in each of
 * the first three places a third of the time; all 3! = 6 orders occur. */
START_TEST(test_choices_order_keeps_pins_and_spreads_the_rest) {
    const int pinned[4] = {0, 0, 0, 1};
    int at[3][3] = {{0}}, seen[6] = {0}, rounds = 6000;
    for (int r = 0; r < rounds; r++) {
        int order[4], used[4] = {0};
        pl_choices_order(pl_choices_seed(42, "deck", "item", r), pinned, 4, order);
        ck_assert_int_eq(order[3], 3);
        for (int k = 0; k < 4; k++) ck_assert_int_eq(used[order[k]]++, 0);
        for (int k = 0; k < 3; k++) at[order[k]][k]++;
        seen[order[0] * 2 + (order[1] > order[2])]++; /* the first and which of the two others comes next */
    }
    for (int c = 0; c < 3; c++)
        for (int k = 0; k < 3; k++)
            ck_assert_msg(fabs(at[c][k] / (double)rounds - 1.0 / 3.0) < 0.03, "choice %d at place %d: %d of %d", c, k,
                          at[c][k], rounds);
    for (int i = 0; i < 6; i++) ck_assert_msg(seen[i] > rounds / 12, "order %d came %d times", i, seen[i]);
    /* no pins: n = 1 is the one order; the place of a choice is found back */
    int one[1];
    pl_choices_order(7, NULL, 1, one);
    ck_assert_int_eq(one[0], 0);
    int order[4] = {2, 0, 3, 1};
    ck_assert_int_eq(pl_choices_place(order, 4, 3), 2);
    ck_assert_int_eq(pl_choices_place(order, 4, 5), -1);
    const char *rest;
    ck_assert(pl_choices_pinned("[pinned]  None of these", &rest));
    ck_assert_str_eq(rest, "None of these");
    ck_assert(!pl_choices_pinned("None [pinned]", &rest));
}
END_TEST

/* The learner's salt and the attempt both change the order: of a deck's
 * questions, another learner or the next attempt sees most in another order. */
START_TEST(test_choices_differ_by_learner_and_attempt) {
    int moved_learner = 0, moved_attempt = 0;
    for (int i = 0; i < 100; i++) {
        char id[16];
        int a[4], b[4], c[4];
        snprintf(id, sizeof id, "q%d", i);
        pl_choices_order(pl_choices_seed(1, "quickfire", id, 0), NULL, 4, a);
        pl_choices_order(pl_choices_seed(2, "quickfire", id, 0), NULL, 4, b);
        pl_choices_order(pl_choices_seed(1, "quickfire", id, 1), NULL, 4, c);
        moved_learner += memcmp(a, b, sizeof a) != 0;
        moved_attempt += memcmp(a, c, sizeof a) != 0;
    }
    /* 23 of the 24 orders differ from a given one: about 96 of 100 */
    ck_assert_int_ge(moved_learner, 85);
    ck_assert_int_ge(moved_attempt, 85);
}
END_TEST

/* ---- the quantities the drill added ---- */

static double quantity_at(PlLab *lab, const char *name) {
    PlQuantity q;
    char why[300];
    double v;
    ck_assert_msg(pl_quantity_parse(name, &q, why, sizeof why) == 0, "%s: %s", name, why);
    ck_assert_int_eq(pl_lab_wait(lab, pl_quantity_kinds(&q), 300), 0);
    ck_assert_msg(pl_quantity_value(lab, &q, &v, why, sizeof why) == 0, "%s: %s", name, why);
    return v;
}

/* |sum over T| is |masked mean| x L/T: the divide-by-T case's symptom and fix. */
START_TEST(test_pooling_norms) {
    PlLabSettings s = pl_settings_default();
    s.maxlen = 400;
    PlErr err;
    PlLab *lab = pl_lab_new(&s, &err);
    ck_assert_msg(lab != NULL, "%s", err.msg);
    pl_lab_autotrain(lab, 0);
    double masked = quantity_at(lab, "pooling.masked_norm"), div_t = quantity_at(lab, "pooling.div_t_norm");
    double L = quantity_at(lab, "pooling.real"), T = quantity_at(lab, "pooling.width");
    ck_assert(masked > 0.0);
    ck_assert(L < T);
    ck_assert_double_eq_tol(div_t, masked * L / T, 1e-4 * masked);
    pl_lab_free(lab);
}
END_TEST

/* ---- the shipped decks ---- */

#define MAX_SHIPPED 32
static char shipped[MAX_SHIPPED][1024];
static int nshipped;
static PlDeck *bug_deck;

static int cmp_paths(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }

static void find_shipped(void) {
    const char *tests = getenv("PADLAB_TESTS");
    char dir[900];
    snprintf(dir, sizeof dir, "%s/../decks", tests ? tests : "tests");
    DIR *d = opendir(dir);
    if (!d) return;
    for (struct dirent *e; (e = readdir(d)) && nshipped < MAX_SHIPPED;) {
        size_t n = strlen(e->d_name);
        if (n > 5 && strcmp(e->d_name + n - 5, ".deck") == 0)
            snprintf(shipped[nshipped++], 1024, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    qsort(shipped, (size_t)nshipped, sizeof shipped[0], cmp_paths);
    for (int i = 0; i < nshipped && !bug_deck; i++) {
        PlErr err;
        PlDeck *k = pl_deck_load(shipped[i], &err);
        if (k && k->kind == PL_DECK_BUGS) bug_deck = k;
        else pl_deck_free(k);
    }
}

START_TEST(test_shipped_counts) {
    int count[PL_DECK_KINDS] = {0};
    ck_assert_msg(nshipped >= 4, "no decks found in $PADLAB_TESTS/../decks");
    for (int i = 0; i < nshipped; i++) {
        PlErr err;
        PlDeck *d = pl_deck_load(shipped[i], &err);
        ck_assert_msg(d != NULL, "%s", err.msg);
        count[d->kind] += d->n;
        pl_deck_free(d);
    }
    ck_assert_int_ge(count[PL_DECK_CARDS], 60);
    ck_assert_int_ge(count[PL_DECK_QUESTIONS], 40);
    ck_assert_int_ge(count[PL_DECK_BUGS], 8);
    ck_assert_int_ge(count[PL_DECK_MINUTE], 10);
    ck_assert_ptr_nonnull(bug_deck);
}
END_TEST

static void unknown_condition(const char *cond, int holds, void *where) {
    ck_assert_msg(holds >= 0, "%s: the condition '%s' cannot be read from the lab's figures", (const char *)where,
                  cond);
}

/* Placeholders that filled: "..." appears only where the deck wrote it;
 * every conditional's figures are there. */
static void check_filled(PlLab *lab, const char *text, const char *where) {
    char buf[8192];
    if (!text) return;
    const char *out = pl_lesson_fill(lab, NULL, text, buf, sizeof buf);
    ck_assert_msg(!strstr(out, "...") || strstr(text, "..."), "%s: a figure did not fill: %s", where, out);
    pl_fill_conditions(lab, text, unknown_condition, (void *)where);
}

/* Every figure and conditional of every card, question and prompt of a
 * deck fills on each corpus, at the item's settings, as the drill screen
 * shows it. */
START_TEST(test_shipped_figures) {
    PlErr err;
    PlDeck *d = pl_deck_load(shipped[_i % nshipped], &err);
    ck_assert_msg(d != NULL, "%s", err.msg);
    PlLabSettings base = pl_settings_default();
    snprintf(base.corpus, sizeof base.corpus, "%s", pl_test_play_corpus(_i / nshipped));
    PlLab *lab = pl_lab_new(&base, &err);
    ck_assert_msg(lab != NULL, "%s", err.msg);
    pl_lab_autotrain(lab, 0);
    for (int i = 0; i < d->n && d->kind != PL_DECK_BUGS; i++) {
        const PlDeckItem *it = &d->items[i];
        unsigned kinds = pl_deck_item_kinds(it);
        if (!kinds) continue;
        char where[1800];
        snprintf(where, sizeof where, "%s:%d (%s) on %s", d->path, it->line, it->id, base.corpus);
        PlLabSettings s;
        pl_deck_item_settings(&base, d, it, &s);
        ck_assert_msg(pl_lab_apply(lab, &s, &err) >= 0, "%s: %s", where, err.msg);
        ck_assert_msg(pl_lab_wait(lab, kinds, 600) == 0, "%s: the lab did not compute its figures", where);
        const char *texts[] = {it->title, it->text, it->answer, it->more, it->remember, it->dont};
        for (size_t k = 0; k < sizeof texts / sizeof texts[0]; k++) check_filled(lab, texts[k], where);
        for (int c = 0; c < it->nchoices; c++)
            check_filled(lab, it->choices[c].why, where), check_filled(lab, it->choices[c].text, where);
        for (int c = 0; c < it->nfollow; c++) check_filled(lab, it->follow[c], where);
        for (int c = 0; c < it->nlisten; c++) check_filled(lab, it->listen[c], where);
    }
    pl_lab_free(lab);
    pl_deck_free(d);
}
END_TEST

/* The cheat sheet holds every card deck, each card's memory aid and what not to say. */
START_TEST(test_shipped_cheatsheet) {
    PlDeck *decks[MAX_SHIPPED];
    int n = 0, cards = 0;
    for (int i = 0; i < nshipped; i++) {
        PlErr err;
        decks[n] = pl_deck_load(shipped[i], &err);
        if (decks[n]) cards += decks[n]->kind == PL_DECK_CARDS ? decks[n]->n : 0, n++;
    }
    PlLabSettings s = pl_settings_default();
    PlErr err;
    PlLab *lab = pl_lab_new(&s, &err);
    ck_assert_msg(lab != NULL, "%s", err.msg);
    pl_lab_autotrain(lab, 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_msg(pl_cheatsheet_write(f, decks, n, lab, &s, PL_SHEET_MARKDOWN, 0, &err) == 0, "%s", err.msg);
    fclose(f);
    int donts = 0;
    for (const char *p = buf; (p = strstr(p, "*Don't say:*")); p++) donts++;
    ck_assert_int_eq(donts, cards);
    ck_assert_msg(strstr(buf, "...") == NULL, "a figure did not fill: %s", strstr(buf, "..."));
    ck_assert_msg(strstr(buf, "  \n") == NULL, "a line ends in blanks");
    free(buf);
    pl_lab_free(lab);
    for (int i = 0; i < n; i++) pl_deck_free(decks[i]);
}
END_TEST

/* Every figure of a case that reads a training is a spread over 3 seeds or
 * more, under the bug (fixed 0) or the fix (1). */
static void check_spreads(const PlDeckItem *it, const PlBugState *s, int fixed) {
    const PlQuantity *main = fixed ? &it->fixed : &it->symptom;
    const PlBugValue *v = fixed ? &s->fixed : &s->symptom;
    if (pl_deck_quantity_trains(main)) ck_assert_msg(v->seeds >= 3, "%s: trained over %d seeds", it->id, v->seeds);
    for (int i = 0; i < it->nalso; i++) {
        const PlBugValue *a = fixed ? &s->also_fix[i] : &s->also_bug[i];
        if (pl_deck_quantity_trains(&it->also[i]))
            ck_assert_msg(a->seeds >= 3, "%s: also %d trained over %d seeds", it->id, i, a->seeds);
    }
}

/* Every case: its symptom under the bug and under the fix, on the builtin
 * corpus, differ the way the case claims. */
START_TEST(test_shipped_bug_case) {
    ck_assert_ptr_nonnull(bug_deck);
    const PlDeckItem *it = &bug_deck->items[_i];
    PlLabSettings base = pl_settings_default();
    PlErr err;
    PlBugRun *r = pl_bug_run_new(bug_deck, it, &base, &err);
    ck_assert_msg(r != NULL, "%s: %s", it->id, err.msg);
    ck_assert_msg(pl_bug_run_wait(r, 1200) == 0, "%s: the symptom was not computed in time", it->id);
    const PlBugState *s = pl_bug_run_state(r);
    ck_assert_msg(s->phase == PL_BUG_SHOWN, "%s: %s", it->id, s->message);
    ck_assert_msg(s->symptom.have && !s->symptom.none && isfinite(s->symptom.value), "%s: no symptom", it->id);
    check_spreads(it, s, 0);
    ck_assert_msg(pl_bug_run_fix(r, &err) == 0, "%s: %s", it->id, err.msg);
    ck_assert_int_eq(pl_bug_run_fix(r, &err), -1);
    ck_assert_msg(pl_bug_run_wait(r, 1200) == 0, "%s: the fixed value was not computed in time", it->id);
    ck_assert_msg(s->phase == PL_BUG_FIXED, "%s: %s", it->id, s->message);
    check_spreads(it, s, 1);
    ck_assert_msg(s->holds, "%s: under the bug %g, with the fix %g: not %s", it->id, s->symptom.value, s->fixed.value,
                  it->expect < 0   ? "lower"
                  : it->expect > 0 ? "higher"
                                   : "changed");
    pl_bug_run_free(r);
}
END_TEST

/* A deck of multiple choice played blind many times over, one fixed learner
 * (salt), every item each session, always the letter `letter`: as the
 * answers are recorded each session is a new attempt and a new order. The
 * right answer's place is counted in places[] (by the item's number of
 * choices k, places[k][place]); returns the share answered right. */
static double play_blind(const PlDeck *deck, int letter, int sessions, int places[][PL_DECK_MAX_CHOICES + 1]) {
    PlDrillBook book = empty_book();
    book.salt = 0x5eedf00dcafe1234ULL;
    PlDrillOpts o = {.today = 300, .all = 1, .count = deck->n};
    int right = 0, total = 0;
    for (int round = 0; round < sessions; round++) {
        PlDrill *d = pl_drill_new(deck, &book, &o, 0.0);
        const PlDrillState *s = pl_drill_state(d);
        while (s->phase != PL_DRILL_END) {
            const PlDeckItem *it = pl_drill_item(d);
            places[it->nchoices][s->right_at]++;
            ck_assert_int_eq(pl_drill_choose(d, letter < it->nchoices ? letter : it->nchoices - 1, 0.0), 0);
            ck_assert_int_eq(pl_drill_next(d, 0.0), 0);
        }
        right += s->right, total += s->right + s->wrong;
        pl_drill_free(d);
    }
    pl_drill_book_done(&book);
    return right / (double)total;
}

/* Over every shipped deck of questions or cases, 200 sessions of one
 * learner: the right answer sits at each of the k places about 1/k of the
 * time, and answering a, or d, blind scores about 1/k. (Before shuffling,
 * the quick-fire deck had it first 13 times, second 30, never c or d, and
 * "b" blind scored 30 of 43.) */
START_TEST(test_shipped_right_answers_spread_evenly) {
    int decks = 0;
    for (int i = 0; i < nshipped; i++) {
        PlErr err;
        PlDeck *deck = pl_deck_load(shipped[i], &err);
        ck_assert_msg(deck != NULL, "%s", err.msg);
        if (deck->kind != PL_DECK_QUESTIONS && deck->kind != PL_DECK_BUGS) {
            pl_deck_free(deck);
            continue;
        }
        decks++;
        int places[PL_DECK_MAX_CHOICES + 1][PL_DECK_MAX_CHOICES + 1] = {{0}};
        double blind_a = play_blind(deck, 0, 200, places), blind_d = play_blind(deck, 3, 200, places);
        double k_mean = 0.0;
        for (int it = 0; it < deck->n; it++) k_mean += 1.0 / deck->items[it].nchoices / deck->n;
        for (int k = 3; k <= PL_DECK_MAX_CHOICES; k++) {
            int n = 0;
            for (int at = 0; at < k; at++) n += places[k][at];
            for (int at = 0; at < k && n; at++) /* 4000 or more draws a deck: 0.03 is over 3 standard errors */
                ck_assert_msg(fabs(places[k][at] / (double)n - 1.0 / k) < 0.03, "%s: %d choices, place %c: %d of %d",
                              deck->name, k, 'a' + at, places[k][at], n);
        }
        ck_assert_msg(fabs(blind_a - k_mean) < 0.03, "%s: a blind scores %.3f, chance %.3f", deck->name, blind_a,
                      k_mean);
        ck_assert_msg(fabs(blind_d - k_mean) < 0.03, "%s: d blind scores %.3f, chance %.3f", deck->name, blind_d,
                      k_mean);
        pl_deck_free(deck);
    }
    ck_assert_int_ge(decks, 2);
}
END_TEST

/* A case names no cause before the pick: its front shows no internal
 * quantity name, no setup line, and none of the bug: settings its fix
 * changes ("mask=off" where the fix is mask=on); once a cause is picked, the
 * setup is said. */
START_TEST(test_shipped_case_front_names_no_cause) {
    ck_assert_ptr_nonnull(bug_deck);
    const PlDeckItem *it = &bug_deck->items[_i];
    PlLabSettings base = pl_settings_default();
    PlDrillBook book = empty_book();
    PlDrillOpts o = {.today = 9, .all = 1, .only = _i + 1};
    PlDrillPlay p;
    char why[300];
    static PlPage page;
    ck_assert_int_eq(pl_drill_play_start(&p, bug_deck, &book, 0, &base, &o, 0.0, why, sizeof why), 0);
    p.keep = 0;
    pl_drill_play_page(&p, 0.0, &page);
    const PlQuantity *qs[2 + PL_DECK_MAX_ALSO] = {&it->symptom, &it->fixed};
    for (int a = 0; a < it->nalso; a++) qs[2 + a] = &it->also[a];
    for (int i = 0; i < page.n; i++) {
        const char *text = pl_page_para(&page, i);
        for (int q = 0; q < 2 + it->nalso; q++) {
            char name[96];
            pl_quantity_name(qs[q], name, sizeof name);
            ck_assert_msg(!strstr(text, name), "%s: the front shows '%s': %s", it->id, name, text);
        }
        ck_assert_msg(strncmp(text, "The setup: ", 11) != 0, "%s: the front says its setup: %s", it->id, text);
        char *copy = strdup(it->fix ? it->fix : ""), *save = NULL; /* what the fix changes is the bug */
        for (char *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
            char name[64], *bug = NULL;
            snprintf(name, sizeof name, "%.*s=", (int)strcspn(tok, "="), tok);
            if (it->bug && (bug = strstr(it->bug, name))) {
                char setting[96];
                snprintf(setting, sizeof setting, "%.*s", (int)strcspn(bug, " "), bug);
                ck_assert_msg(!strstr(text, setting), "%s: the front shows '%s': %s", it->id, setting, text);
            }
        }
        free(copy);
    }
    int said = 0;
    ck_assert_int_eq(pl_drill_choose(p.drill, 0, 0.0), 0);
    pl_drill_play_page(&p, 0.0, &page);
    for (int i = 0; i < page.n; i++) said |= strncmp(pl_page_para(&page, i), "The setup: ", 11) == 0;
    ck_assert_msg(said, "%s: the setup is not said after the pick", it->id);
    pl_drill_play_close(&p);
    pl_drill_book_done(&book);
}
END_TEST

/* --check finds every problem of a file, in line order, each FILE:LINE. */
START_TEST(test_check_reports_every_problem) {
    char *dir = pl_test_tmpdir(), path[4200];
    snprintf(path, sizeof path, "%s/three.deck", dir);
    const char text[] = "# Three problems\nkind: cards\n"
                        "## One\ntopic: t\nanswer: a {batch.nothing}\nmore: m\nremember: r\ndont: d\n"
                        "## Two\ntopic: t\nanswer: a\nset: padding=sideways\n"
                        "## Three\ntopic: t\nanswer: a\nmore: m\nremember: r\ndont: d\n";
    pl_test_write_file(path, text, sizeof text - 1);
    PlProblems *probs = calloc(1, sizeof *probs);
    ck_assert_ptr_null(pl_deck_check(path, probs));
    ck_assert_int_eq(probs->n, 3);
    const int lines[] = {5, 9, 12}; /* the figure; Two lacks more:, remember:, dont:; its setting */
    const char *says[] = {"'batch.nothing' names no quantity", "this card needs its more:, remember: and dont: lines",
                          "padding must be one of pre,post"};
    for (int i = 0; i < 3; i++) {
        char want[4400];
        snprintf(want, sizeof want, "%s:%d: %s", path, lines[i], says[i]);
        ck_assert_int_eq(probs->at[i].line, lines[i]);
        ck_assert_msg(strncmp(probs->at[i].msg, want, strlen(want)) == 0, "got %s, want %s", probs->at[i].msg, want);
    }
    PlErr err; /* the stopping parse names the first of them */
    ck_assert_ptr_null(pl_deck_load(path, &err));
    ck_assert(strstr(err.msg, ":5: ") != NULL);
    free(probs);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

static void free_bug_deck(void) { pl_deck_free(bug_deck); }

/* A fortnight towards an interview, as a candidate lives it: 60 cards in
 * five topics, a session each morning at 08:00 in which every card shown is
 * graded (again one time in four, by week_grade's hash; else good, easy
 * once seen three times), a daily limit of 20 reviews and the book's new
 * cards spread over the days. Asserted each evening: no day of the schedule
 * to come holds more reviews than the limit (the cards a session leaves in a
 * learning step, due minutes later, come the next morning on top of them:
 * the plan's count says so). At the end: every card seen; none due after
 * the day but those whose last review fell in the final days, their recall
 * on the day at the desired retention or above; the day itself within the
 * limit (the old rule cut every interval to end on it: all sixty there);
 * the mean predicted recall at noon of the day at least the desired
 * retention. PADLAB_WEEK=1 prints the days. */
#define FORTNIGHT_TOPIC(T)                                                                                            \
    "## " T "1\ntopic: " T "\n" WEEK_CARD "## " T "2\ntopic: " T "\n" WEEK_CARD "## " T "3\ntopic: " T "\n" WEEK_CARD \
    "## " T "4\ntopic: " T "\n" WEEK_CARD "## " T "5\ntopic: " T "\n" WEEK_CARD "## " T "6\ntopic: " T "\n" WEEK_CARD
static const char fortnight_deck[] = "# Fortnight\nkind: cards\n" FORTNIGHT_TOPIC("masks") FORTNIGHT_TOPIC("masksb")
    FORTNIGHT_TOPIC("pads") FORTNIGHT_TOPIC("padsb") FORTNIGHT_TOPIC("loss") FORTNIGHT_TOPIC("lossb")
        FORTNIGHT_TOPIC("cache") FORTNIGHT_TOPIC("cacheb") FORTNIGHT_TOPIC("pack") FORTNIGHT_TOPIC("packb");

START_TEST(test_drill_fortnight_spreads_the_load_to_the_day) {
    PlErr err;
    PlDeck *deck = pl_deck_parse("fortnight.deck", fortnight_deck, strlen(fortnight_deck), &err);
    ck_assert_msg(deck != NULL, "%s", err.msg);
    ck_assert_int_eq(deck->n, 60);
    PlDrillBook book = empty_book();
    const int day0 = 20545, until = day0 + 14, limit = 20; /* 2026-04-01 .. 2026-04-15 */
    ck_assert_int_eq(pl_drill_book_set_until(&book, until), 0);
    ck_assert_int_eq(pl_drill_book_set_limits(&book, limit, 0, -1), 0);
    const PlDeck *decks[1] = {deck};
    int show = getenv("PADLAB_WEEK") != NULL, *seen_n = calloc(60, sizeof(int)), ahead[15], graded = 0;
    for (int day = day0; day < until; day++) {
        PlDrillOpts o = {.today = day, .clock = (long long)day * PL_DAY + 8 * 3600};
        PlDrill *d = pl_drill_new(deck, &book, &o, 0.0);
        double t = 0;
        while (pl_drill_state(d)->phase != PL_DRILL_END) {
            int i = pl_drill_state(d)->item;
            pl_drill_reveal(d, t += 20);
            ck_assert_int_eq(pl_drill_grade(d, week_grade(pl_drill_item(d)->id, day, seen_n[i]), t), 0);
            seen_n[i]++, graded++;
        }
        pl_drill_free(d);
        pl_drill_plan_days(decks, 1, &book, day + 1, until - day, ahead);
        int placed[15] = {0}, learning = 0; /* review cards FSRS placed on each day to come; cards in a step */
        for (int i = 0; i < deck->n; i++) {
            const PlDrillRecord *r = pl_drill_book_find(&book, deck->name, deck->items[i].id);
            long long k = r ? r->s.due / PL_DAY - (day + 1) : -1;
            if (r && r->s.state == PL_CARD_REVIEW && k < until - day)
                placed[k < 0 ? 0 : k]++; /* (after the day: not counted) */
            learning += r && (r->s.state == PL_CARD_LEARNING || r->s.state == PL_CARD_RELEARNING);
        }
        if (show) {
            printf("%d (%d in a step):", day - day0, learning);
            for (int k = 0; k < until - day; k++) printf(" %d", ahead[k]);
            printf("\n");
        }
        ck_assert_int_eq(ahead[0], placed[0] + learning);
        for (int k = 0; k < until - day; k++) ck_assert_int_le(placed[k], limit);
    }
    int on_the_day = 0;
    double recall = 0;
    PlFsrs p;
    pl_drill_book_fsrs(&book, &p);
    for (int i = 0; i < deck->n; i++) {
        const PlDrillRecord *r = pl_drill_book_find(&book, deck->name, deck->items[i].id);
        ck_assert_ptr_nonnull(r);
        ck_assert_int_ne(r->s.state, PL_CARD_NEW);
        double on_day = pl_sched_recall(&p, &r->s, (long long)until * PL_DAY + PL_DAY / 2);
        if (r->s.due / PL_DAY > until) { /* only after its last review, in the final days, with recall kept */
            ck_assert_int_ge(r->s.last / PL_DAY, until - PL_SCHED_FINAL_DAYS);
            ck_assert_double_ge(on_day, 0.9);
        }
        on_the_day += r->s.due / PL_DAY == until;
        recall += on_day;
    }
    if (show) printf("graded %d, on the day %d, mean recall on the day %.3f\n", graded, on_the_day, recall / deck->n);
    ck_assert_int_le(on_the_day, limit);
    ck_assert_double_ge(recall / deck->n, 0.9);
    free(seen_n);
    pl_drill_book_done(&book);
    pl_deck_free(deck);
}
END_TEST

/* A date set late pulls the cards in: three cards graded easy on 04-01 are
 * due 04-07..04-11 (intervals of 6 to 10 days); set on 04-02 an interview
 * on 04-05 moves each onto a day before it, one a day (the load spread, the
 * later of equals first), and --until none leaves them where they are. */
START_TEST(test_drill_a_late_date_pulls_the_cards_in) {
    PlDrillBook book = empty_book();
    const int day0 = 20544; /* 2026-04-01 */
    static const char *const ids[] = {"a", "b", "c"};
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(
            pl_drill_book_grade(&book, "d", ids[i], PL_GRADE_EASY, (long long)day0 * PL_DAY + 9 * 3600 + i), 0);
    for (int i = 0; i < 3; i++) ck_assert_int_ge(pl_drill_book_find(&book, "d", ids[i])->s.due / PL_DAY, day0 + 6);
    ck_assert_int_eq(pl_drill_book_set_until(&book, day0 + 4), 0);
    ck_assert_int_eq(pl_drill_book_fit_until(&book, (long long)(day0 + 1) * PL_DAY + 12 * 3600), 3);
    int on[5] = {0};
    for (int i = 0; i < 3; i++) {
        long long day = pl_drill_book_find(&book, "d", ids[i])->s.due / PL_DAY - day0;
        ck_assert_int_ge(day, 1);
        ck_assert_int_le(day, 4);
        on[day]++;
    }
    ck_assert_int_eq(on[2] + on[3] + on[4], 3); /* the last three days, one each */
    ck_assert_int_eq(on[2] * on[3] * on[4], 1);
    ck_assert_int_eq(pl_drill_book_fit_until(&book, (long long)(day0 + 1) * PL_DAY), 0); /* nothing left to move */
    pl_drill_book_done(&book);
}
END_TEST

/* Days start at a local hour: three good grades of a new card at 23:20,
 * 00:40 and 02:00 UTC are one day's with the day starting at 4:00 (UTC): the
 * short-term rule each time, S 2.3065 then 2.3065 .. as ts-fsrs gives within
 * a day, a 3-day interval after the third; with days from midnight the
 * third grade is a day later: the recall rule, S 7.32 and 7 days. */
START_TEST(test_drill_a_day_starts_at_its_hour) {
    PlFsrs p;
    pl_fsrs_default(&p);
    p.fuzz = 0;
    const long long t0 = 20544LL * PL_DAY + 23 * 3600 + 20 * 60;
    for (int shift = 0; shift < 2; shift++) {
        pl_sched_set_day_shift(shift ? -4 * 3600 : 0);
        PlSchedCard c;
        memset(&c, 0, sizeof c);
        for (int k = 0; k < 3; k++) ck_assert_int_eq(pl_sched_grade(&p, &c, PL_GRADE_GOOD, t0 + k * 80 * 60, 1), 0);
        if (getenv("PADLAB_WEEK")) printf("shift %d: S %.4f, %d days\n", shift, c.s, c.scheduled);
        if (shift) {
            ck_assert_double_eq_tol(c.s, 2.3065, 0.0001);
            ck_assert_int_le(c.scheduled, 3);
        } else {
            ck_assert_double_eq_tol(c.s, 7.3153, 0.0001);
            ck_assert_int_ge(c.scheduled, 7);
        }
    }
    pl_sched_set_day_shift(0);
}
END_TEST

/* A book keeps only the settings given: no retention=0 when none was. */
START_TEST(test_drill_book_keeps_only_the_settings_given) {
    char path[] = "/tmp/padlab-book-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    PlDrillBook b;
    pl_drill_book_init(&b, path);
    ck_assert_int_eq(pl_drill_book_set_until(&b, 20560), 0);
    ck_assert_int_eq(pl_drill_book_set_limits(&b, 0, 30, 0), 0);
    PlErr err;
    ck_assert_int_eq(pl_drill_book_save(&b, &err), 0);
    pl_drill_book_done(&b);
    char text[4096] = "";
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    ck_assert_msg(strstr(text, "item = @settings until=20560 new_per_day=30 day_starts=24\n") != NULL, "%s", text);
    PlDrillBook r;
    ck_assert_int_eq(pl_drill_book_load_from(&r, path, &err), 0);
    ck_assert_int_eq(pl_drill_book_new_per_day(&r), 30);
    ck_assert_int_eq(pl_drill_book_reviews_per_day(&r), PL_DRILL_REVIEWS_PER_DAY);
    ck_assert_int_eq(pl_drill_book_day_starts(&r), 0);
    ck_assert_double_eq(pl_drill_book_retention(&r), 0.9);
    pl_drill_book_done(&r);
    unlink(path);
}
END_TEST

Suite *drill_suite(void) {
    Suite *s = suite_create("drill");
    TCase *tc = tcase_create("parser");
    tcase_add_loop_test(tc, test_parser_errors, 0, (int)(sizeof bad_decks / sizeof bad_decks[0]));
    tcase_add_test(tc, test_parser_binary_and_long_lines);
    tcase_add_test(tc, test_parser_reads_everything);
    tcase_add_test(tc, test_check_reports_every_problem);
    suite_add_tcase(s, tc);
    tc = tcase_create("choices");
    tcase_add_test(tc, test_choices_order_keeps_pins_and_spreads_the_rest);
    tcase_add_test(tc, test_choices_differ_by_learner_and_attempt);
    suite_add_tcase(s, tc);
    tc = tcase_create("sched");
    tcase_add_test(tc, test_sched_grades);
    tcase_add_test(tc, test_sched_grades_mean_different_waits);
    tcase_add_test(tc, test_sched_retention_stretches_intervals);
    tcase_add_test(tc, test_sched_fuzz_is_seeded_by_the_card);
    tcase_add_test(tc, test_sched_from_box_keeps_the_interval);
    tcase_add_test(tc, test_drill_week_towards_an_interview);
    tcase_add_test(tc, test_drill_fortnight_spreads_the_load_to_the_day);
    tcase_add_test(tc, test_drill_a_late_date_pulls_the_cards_in);
    tcase_add_test(tc, test_drill_a_day_starts_at_its_hour);
    tcase_add_test(tc, test_drill_book_keeps_only_the_settings_given);
    tcase_add_test(tc, test_drill_cards);
    tcase_add_test(tc, test_drill_questions);
    tcase_add_test(tc, test_question_heading_counts_answers_before_this_one);
    tcase_add_test(tc, test_drill_bugs);
    tcase_add_test(tc, test_drill_minute);
    tcase_add_test(tc, test_book_round_trip);
    suite_add_tcase(s, tc);
    tc = tcase_create("quantities");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_pooling_norms);
    suite_add_tcase(s, tc);
    find_shipped();
    atexit(free_bug_deck);
    tc = tcase_create("shipped");
    tcase_set_timeout(tc, 1800);
    tcase_add_test(tc, test_shipped_counts);
    tcase_add_test(tc, test_shipped_cheatsheet);
    tcase_add_loop_test(tc, test_shipped_bug_case, 0, bug_deck ? bug_deck->n : 0);
    suite_add_tcase(s, tc);
    /* Every deck's texts and conditionals on the three corpora (CK_RUN_CASE=figures runs them alone). */
    tc = tcase_create("figures");
    tcase_set_timeout(tc, 1800);
    tcase_add_loop_test(tc, test_shipped_figures, 0, nshipped * pl_test_play_corpora());
    suite_add_tcase(s, tc);
    tc = tcase_create("shipped_choices");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_shipped_right_answers_spread_evenly);
    tcase_add_loop_test(tc, test_shipped_case_front_names_no_cause, 0, bug_deck ? bug_deck->n : 0);
    suite_add_tcase(s, tc);
    return s;
}
