/* The ledger (app/lab/ledger.h): figures travel as marks naming their
 * quantity, and only the hidden ones are drawn as '?'s. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "app/lab/lab.h"
#include "app/lab/ledger.h"
#include "app/lab/quantity.h"
#include "suites.h"

static const char *drawn(const PlLedger *l, const char *text) {
    static char out[512];
    return pl_ledger_draw(l, text, out, sizeof out);
}

/* Two equal numbers, one a marked figure: only the marked one is hidden. */
START_TEST(test_only_the_marked_figure_is_hidden_not_its_equal_digits) {
    PlLedger l;
    pl_ledger_clear(&l);
    pl_quantity_hide(&l, "cost.rnn_wasted");
    char text[256];
    snprintf(text, sizeof text, "1000000 run (%s on pads), seed 238197, head 0",
             PL_FIG("cost.rnn_wasted", "%d", 238197));
    ck_assert_str_eq(drawn(&l, text), "1000000 run (????? on pads), seed 238197, head 0");
    ck_assert_str_eq(drawn(NULL, text), "1000000 run (238197 on pads), seed 238197, head 0");
    pl_ledger_clear(&l);
    ck_assert_str_eq(drawn(&l, text), "1000000 run (238197 on pads), seed 238197, head 0");
}
END_TEST

/* A hidden figure keeps no shape of its value: not its width, its spaces or
 * its words ("0" and "0.67", "75.0%" and "100.0%" once hid as ?s of their
 * own lengths), nor whether it was empty. */
START_TEST(test_a_hidden_figure_keeps_no_shape_of_its_value) {
    PlLedger l;
    pl_ledger_clear(&l);
    pl_quantity_hide(&l, "attention.pad_share");
    char text[256];
    snprintf(text, sizeof text, "[%s]", PL_FIG("attention.pad_share", "%6.1f%% \u2192 x", 54.5));
    ck_assert_str_eq(drawn(&l, text), "[?????]");
    const char *values[] = {"0", "0.67", "75.0%", "100.0%", "1.04M (48.2% fewer)", "(same)", " C", ""};
    for (int i = 0; i < (int)(sizeof values / sizeof *values); i++) {
        snprintf(text, sizeof text, "a %s b", PL_FIG("attention.pad_share", "%s", values[i]));
        ck_assert_str_eq(drawn(&l, text), "a ????? b");
    }
}
END_TEST

/* An open question hides the quantities declared to determine its own
 * (pl_quantity_hide; pl_ledger_hide hides a name alone): the real tokens,
 * the padding share, the tokens kept and cut (with the total on their line)
 * and any strategy's padding share (with its cells) give away the steps run
 * on pads; the steps run and the attention cells do not. */
START_TEST(test_a_question_hides_what_determines_its_figure) {
    PlLedger l;
    pl_ledger_clear(&l);
    pl_quantity_hide(&l, "cost.rnn_wasted");
    ck_assert(pl_ledger_hides_name(&l, "cost.rnn_wasted"));
    ck_assert(pl_ledger_hides_name(&l, "cost.real_tokens"));
    ck_assert(pl_ledger_hides_name(&l, "cost.padding_share"));
    ck_assert(pl_ledger_hides_name(&l, "cost.kept_share"));
    ck_assert(pl_ledger_hides_name(&l, "cost.tokens_cut(dynamic)"));
    ck_assert(pl_ledger_hides_name(&l, "cost.padding_share(length_grouped)"));
    ck_assert(!pl_ledger_hides_name(&l, "cost.rnn_steps"));
    ck_assert(!pl_ledger_hides_name(&l, "cost.attention_cells(length_grouped)"));
    ck_assert(!pl_ledger_hides_name(&l, "cost.cells_saved(length_grouped)"));
    /* A figure that is two facts at once is hidden when either is. */
    ck_assert(pl_ledger_hides_name(&l, "cost.padding_share(static),cost.padding_share"));
    /* NAME(*) stands for every argument. */
    pl_ledger_clear(&l);
    pl_ledger_hide(&l, "cost.static_padding_share(*)");
    ck_assert(pl_ledger_hides_name(&l, "cost.static_padding_share(200)"));
    ck_assert(pl_ledger_hides_name(&l, "cost.static_padding_share"));
    ck_assert(!pl_ledger_hides_name(&l, "cost.static_padding_shares(200)"));
    ck_assert(!pl_ledger_hides_name(&l, "cost.padding_share"));
}
END_TEST

/* A row declared for NAME(*) serves every argument, $ standing for the
 * one asked: a strategy's saving is given away by its own cells, not by
 * another strategy's. */
START_TEST(test_a_strategys_saving_hides_its_own_cells) {
    char buf[512];
    ck_assert_str_eq(pl_quantity_determiners("cost.attention_saved(length_grouped)", buf, sizeof buf),
                     "cost.attention_cells(length_grouped)");
    ck_assert_str_eq(pl_quantity_determiners("cost.cells_saved(dynamic)", buf, sizeof buf),
                     "cost.cells(dynamic) cost.padding_share(dynamic) cost.attention_cells(dynamic) "
                     "cost.attention_saved(dynamic) cost.shapes(dynamic)");
    ck_assert_ptr_null(pl_quantity_determiners("cost.rnn_steps", buf, sizeof buf));
    ck_assert_ptr_null(pl_quantity_determiners("cost.cells_saved", buf, sizeof buf));
    PlLedger l;
    pl_ledger_clear(&l);
    pl_quantity_hide(&l, "cost.attention_saved(length_grouped)");
    ck_assert(pl_ledger_hides_name(&l, "cost.attention_cells(length_grouped)"));
    ck_assert(!pl_ledger_hides_name(&l, "cost.attention_cells(bucket_longest)"));
    ck_assert(!pl_ledger_hides_name(&l, "cost.attention_saved(bucket_longest)"));
}
END_TEST

/* A hidden verdict is drawn in one shape: "at chance" as ?s of its own
 * would be two letters shorter than the others. */
START_TEST(test_a_hidden_verdict_keeps_no_shape_of_its_own) {
    PlLedger l;
    pl_ledger_clear(&l);
    char a[128], b[128];
    snprintf(a, sizeof a, "%s", PL_FIG("train.at_chance", "%s", pl_chance_verdict_name(PL_AT_CHANCE)));
    snprintf(b, sizeof b, "%s", PL_FIG("train.at_chance", "%s", pl_chance_verdict_name(PL_ABOVE_CHANCE)));
    ck_assert_str_eq(drawn(&l, a), "at chance");
    ck_assert_str_eq(drawn(NULL, b), "above chance");
    pl_ledger_hide(&l, "train.at_chance");
    ck_assert_str_eq(drawn(&l, a), "?????"); /* at chance, drawn as above chance is */
    ck_assert_str_eq(drawn(&l, b), "?????");
    /* a verdict written into a mark before anyone knew the ledger (the status line) takes that shape too */
    snprintf(a, sizeof a, ", %s (always positive)", PL_FIG("train.median", "%s", "at chance"));
    snprintf(b, sizeof b, ", %s (always positive)", PL_FIG("train.median", "%s", "below chance"));
    pl_ledger_hide(&l, "train.median");
    ck_assert_str_eq(drawn(&l, a), ", ????? (always positive)");
    ck_assert_str_eq(drawn(&l, b), ", ????? (always positive)");
    pl_ledger_clear(&l);
    ck_assert_str_eq(drawn(&l, a), ", at chance (always positive)");
}
END_TEST

/* A figure of training hides the runs it is read from, every figure of
 * them, and no other setting's: a median lies between the lowest and the
 * highest seed, and each seed's own accuracy gives all three. */
START_TEST(test_a_training_question_hides_the_runs_it_asks_about) {
    PlLedger l;
    pl_ledger_clear(&l);
    pl_quantity_hide(&l, "grid.median(post off)");
    ck_assert_int_eq(l.training, 1);
    ck_assert_str_eq(l.runs[0], "grid(post off)");
    ck_assert(pl_ledger_hides_name(&l, "grid.median(post off)"));
    ck_assert(pl_ledger_hides_name(&l, "grid.min(post off)"));
    ck_assert(pl_ledger_hides_name(&l, "grid.over_chance(post off)"));
    ck_assert(pl_ledger_hides_name(&l, "grid.runs(post off)"));
    /* the lab's own setting is that cell: its figures carry both names */
    ck_assert(pl_ledger_hides_name(&l, "train.median,grid.median(post off),runs.0badcafe"));
    /* the other cells, the lab's setting when it is another, and the drift are other runs */
    ck_assert(!pl_ledger_hides_name(&l, "grid.median(post on)"));
    ck_assert(!pl_ledger_hides_name(&l, "grid.min(pre off)"));
    ck_assert(!pl_ledger_hides_name(&l, "train.median,runs.0badcafe"));
    ck_assert(!pl_ledger_hides_name(&l, "grid.drift"));
    ck_assert(!pl_ledger_hides_name(&l, "corpus.majority"));
    /* how many seeds ran is the learner's setting, not what they scored */
    ck_assert(!pl_ledger_hides_name(&l, "grid.seeds(post off)"));
    /* a narration's show lifts the runs' other figures, never the name asked */
    pl_ledger_show(&l, "grid.max(post off)");
    pl_ledger_show(&l, "grid.median(post off)");
    ck_assert(!pl_ledger_hides_name(&l, "grid.max(post off)"));
    ck_assert(pl_ledger_hides_name(&l, "grid.median(post off)"));
    ck_assert(pl_ledger_hides_name(&l, "grid.min(post off)"));

    /* the lab's own runs: every train.* figure but the seeds, no grid cell */
    pl_ledger_clear(&l);
    pl_quantity_hide(&l, "train.median");
    ck_assert(pl_ledger_hides_name(&l, "train.min"));
    ck_assert(pl_ledger_hides_name(&l, "train.runs"));
    ck_assert(!pl_ledger_hides_name(&l, "train.seeds"));
    ck_assert(!pl_ledger_hides_name(&l, "grid.median(pre on)"));

    /* the drift is read from the masked cells' seeds, one by one: their medians and ranges stay */
    pl_ledger_clear(&l);
    pl_quantity_hide(&l, "grid.drift");
    ck_assert_int_eq(l.training, 0);
    ck_assert(pl_ledger_hides_name(&l, "grid.drift"));
    ck_assert(pl_ledger_hides_name(&l, "grid.runs(pre on)"));
    ck_assert(pl_ledger_hides_name(&l, "grid.runs(post on)"));
    ck_assert(!pl_ledger_hides_name(&l, "grid.runs(pre off)"));
    ck_assert(!pl_ledger_hides_name(&l, "grid.median(pre on)"));
    ck_assert(!pl_ledger_hides_name(&l, "grid.max(post on)"));

    /* a spread is its highest minus its lowest: hidden with it, whole names though their argument has a space */
    pl_ledger_clear(&l);
    pl_quantity_hide(&l, "grid.spread(pre on)");
    ck_assert_int_eq(l.n, 3);
    ck_assert_str_eq(l.name[1], "grid.min(pre on)");
    ck_assert_str_eq(l.name[2], "grid.max(pre on)");
    pl_ledger_show(&l, "grid.min(pre on)"); /* hidden by its name: a show does not lift it */
    ck_assert(pl_ledger_hides_name(&l, "grid.min(pre on)"));
    pl_ledger_show(&l, "grid.min(post on)");
    ck_assert(!pl_ledger_hides_name(&l, "grid.min(post on)"));
    ck_assert(pl_ledger_hides(&l, "grid.median(post on),grid.median(pre on)", 40));

    /* more run families than the ledger holds: every run is hidden, never too few */
    pl_ledger_clear(&l);
    static const char *const cells[] = {"pre off", "pre on", "post off", "post on"};
    char name[64];
    for (int i = 0; i < PL_LEDGER_RUNS + 1; i++) {
        snprintf(name, sizeof name, "grid.median(%s%.*s)", cells[i % 4], i / 4, "xxxx");
        pl_ledger_hide_runs(&l, name);
    }
    ck_assert_int_eq(l.training, 1);
    ck_assert_str_eq(l.runs[0], "*");
    ck_assert(pl_ledger_hides_name(&l, "grid.max(anything)"));
    ck_assert(pl_ledger_hides_name(&l, "train.median"));
    ck_assert(!pl_ledger_hides_name(&l, "train.seeds"));
    pl_ledger_runs_clear(&l);
    ck_assert(pl_ledger_empty(&l));
}
END_TEST

/* A sentence whose wording follows a figure is marked with it, and hidden
 * whole; a figure inside it goes with it. JSON writes a hidden figure as null. */
START_TEST(test_a_sentence_is_hidden_with_the_figure_it_tells) {
    PlLedger l;
    pl_ledger_clear(&l);
    pl_quantity_hide(&l, "masks.share_inverted");
    char inner[128], text[256];
    pl_fig(inner, sizeof inner, "masks.share_inverted", "%s", "100%");
    snprintf(text, sizeof text, "x %s y", PL_FIG("masks.share_inverted", "only pads (%s)", inner));
    ck_assert_str_eq(drawn(&l, text), "x ????? y");
    ck_assert_str_eq(drawn(NULL, text), "x only pads (100%) y");
    char *json = pl_ledger_draw_new(&l, text, PL_DRAW_JSON);
    ck_assert_str_eq(json, "x null y");
    free(json);
}
END_TEST

/* Bytes that make no mark never reach a screen; a mark with no name is
 * dropped whole (its figure cannot be asked about, so it is not shown); a
 * mark cut by its buffer is still closed. */
START_TEST(test_stray_mark_bytes_are_dropped_and_cut_marks_closed) {
    ck_assert_str_eq(drawn(NULL, "a\x03"
                                 "b\x02"
                                 "c"),
                     "abc");
    ck_assert_str_eq(drawn(NULL, "a\x01"
                                 "b\x03"
                                 "c\x02"
                                 "d"),
                     "acd");
    ck_assert_str_eq(drawn(NULL, "a\x01"
                                 "open"),
                     "a"); /* no name: dropped */
    PlLedger h;
    pl_ledger_clear(&h);
    pl_quantity_hide(&h, "cost.rnn_wasted");
    /* a mark cut before its end by someone's small buffer still hides to the end */
    ck_assert_str_eq(drawn(&h, "x \x01"
                               "cost.rnn_wasted\x02"
                               "238197 on"),
                     "x ?????");
    ck_assert_str_eq(drawn(NULL, "x \x01"
                                 "cost.rnn_wasted\x02"
                                 "238197 on"),
                     "x 238197 on");
    char small[24];
    pl_fig(small, sizeof small, "cost.rnn_wasted", "%s", "123456789");
    ck_assert_int_eq(small[strlen(small) - 1], PL_FIG_END);
    PlLedger l;
    pl_ledger_clear(&l);
    pl_quantity_hide(&l, "cost.rnn_wasted");
    const char *d = drawn(&l, small);
    ck_assert_msg(strspn(d, "?") == strlen(d) && *d, "'%s'", d);
    char out[4];
    ck_assert_str_eq(pl_ledger_draw(NULL, "a\u2192b", out, sizeof out), "a"); /* never half a character */
}
END_TEST

/* Past its room the ledger hides everything rather than too little. */
START_TEST(test_a_full_ledger_hides_everything) {
    PlLedger l;
    pl_ledger_clear(&l);
    char name[32];
    for (int i = 0; i <= PL_LEDGER_MAX; i++) snprintf(name, sizeof name, "q.n%d", i), pl_ledger_hide(&l, name);
    ck_assert(pl_ledger_hides_name(&l, "batch.width"));
}
END_TEST

/* A setting's runs carry its key, the same exactly when two settings train
 * the same thing (seeds apart); the current settings' runs are train.*, a
 * grid cell's grid.*(CELL). A question of training hides train.* and grid.*
 * and its own setting's key: another setting's runs stay. */
START_TEST(test_a_settings_runs_are_named_by_its_key) {
    PlLabSettings a = pl_settings_default(), b = a;
    char ka[32], kb[32], names[200];
    b.seed = a.seed + 3, b.seeds = a.seeds + 2;
    ck_assert_str_eq(pl_lab_setting_key(&a, ka, sizeof ka), pl_lab_setting_key(&b, kb, sizeof kb));
    ck_assert_int_eq((int)strlen(ka), 13); /* runs.XXXXXXXX */
    b.mask = !a.mask;
    ck_assert_str_ne(pl_lab_setting_key(&a, ka, sizeof ka), pl_lab_setting_key(&b, kb, sizeof kb));
    b = a;
    snprintf(b.corpus, sizeof b.corpus, "inline:+ film | - film");
    ck_assert_str_ne(pl_lab_setting_key(&a, ka, sizeof ka), pl_lab_setting_key(&b, kb, sizeof kb));
    PlRunNames w = {.now = a, .ncells = 4};
    for (int i = 0; i < 4; i++) w.cell[i] = a, w.cell[i].padding = i >= 2 ? PL_POST : PL_PRE, w.cell[i].mask = i % 2;
    PlLabSettings cell = a;
    cell.padding = PL_POST, cell.mask = 1;
    pl_lab_setting_key(&cell, kb, sizeof kb);
    char want[200];
    snprintf(want, sizeof want, "grid.median(post on),%s", kb);
    ck_assert_str_eq(pl_run_names(&w, &cell, "median", names, sizeof names), want);
    w.now = cell;
    snprintf(want, sizeof want, "train.median,grid.median(post on),%s", kb);
    ck_assert_str_eq(pl_run_names(&w, &cell, "median", names, sizeof names), want);
    /* a question of training: train.* hidden; the runs of another setting by their key only */
    PlLedger l;
    pl_ledger_clear(&l);
    pl_quantity_hide(&l, "train.median");
    w.ncells = 0;
    ck_assert(pl_ledger_hides_name(&l, pl_run_names(&w, &cell, "median", names, sizeof names)));
    ck_assert(!pl_ledger_hides_name(&l, pl_run_names(&w, &b, "median", names, sizeof names)));
    pl_ledger_hide(&l, pl_lab_setting_key(&b, kb, sizeof kb));
    ck_assert(pl_ledger_hides_name(&l, pl_run_names(&w, &b, "max", names, sizeof names)));
}
END_TEST

Suite *ledger_suite(void) {
    Suite *s = suite_create("ledger");
    TCase *tc = tcase_create("marks");
    tcase_add_test(tc, test_only_the_marked_figure_is_hidden_not_its_equal_digits);
    tcase_add_test(tc, test_a_hidden_figure_keeps_no_shape_of_its_value);
    tcase_add_test(tc, test_a_sentence_is_hidden_with_the_figure_it_tells);
    tcase_add_test(tc, test_stray_mark_bytes_are_dropped_and_cut_marks_closed);
    suite_add_tcase(s, tc);
    tc = tcase_create("hiding");
    tcase_add_test(tc, test_a_question_hides_what_determines_its_figure);
    tcase_add_test(tc, test_a_strategys_saving_hides_its_own_cells);
    tcase_add_test(tc, test_a_hidden_verdict_keeps_no_shape_of_its_own);
    tcase_add_test(tc, test_a_training_question_hides_the_runs_it_asks_about);
    tcase_add_test(tc, test_a_full_ledger_hides_everything);
    tcase_add_test(tc, test_a_settings_runs_are_named_by_its_key);
    suite_add_tcase(s, tc);
    return s;
}
