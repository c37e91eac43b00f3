/* The settings registry: every row's values round-trip through their text,
 * the choice names are the core's names, keys are unique, steps walk both
 * ways. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "app/lab/lab.h"
#include "app/settings.h"
#include "app/state.h"
#include "core/mask.h"
#include "core/model.h"
#include "core/pad.h"
#include "core/plan.h"
#include "suites.h"

START_TEST(test_defaults_are_the_tutorial_settings) {
    PlLabSettings s = pl_settings_default();
    ck_assert_str_eq(s.corpus, "builtin");
    ck_assert(s.padding == PL_PRE && s.truncating == PL_PRE && s.maxlen == 200 && !s.mask);
    ck_assert(s.batching == PL_BATCH_STATIC && s.batch == 32 && s.model == PL_ARCH_RNN &&
              s.convention == PL_MASK_KERAS);
    ck_assert(s.seed == 0 && s.seeds == 3 && s.example == PL_EXAMPLE_AUTO && s.view == PL_VIEW_BATCH);
}
END_TEST

/* Every value a row allows (each choice; lo, hi and each ladder step of a number). */
static int values_of(PlSettingId id, int *out, int max) {
    const PlSettingDef *d = &pl_settings[id];
    int n = 0;
    if (d->type == PL_ST_CHOICE)
        for (int i = 0; d->names[i] && n < max; i++) out[n++] = d->values[i];
    if (d->type == PL_ST_INT) {
        out[n++] = d->lo, out[n++] = d->hi;
        for (int i = 0; i < d->nladder && n < max; i++) out[n++] = d->ladder[i];
    }
    return n;
}

START_TEST(test_every_value_of_every_row_round_trips_through_its_text) {
    for (int id = 0; id < PL_S_COUNT; id++) {
        int v[64], n = values_of((PlSettingId)id, v, 64);
        for (int i = 0; i < n; i++) {
            PlLabSettings a = pl_settings_default(), b = pl_settings_default();
            char text[600], want[160];
            ck_assert_int_eq(pl_setting_set(&a, (PlSettingId)id, v[i]), 0);
            pl_setting_format(&a, (PlSettingId)id, text, sizeof text);
            ck_assert_msg(pl_setting_parse(&b, (PlSettingId)id, text, want, sizeof want) == 0, "%s = %s: %s",
                          pl_settings[id].name, text, want);
            ck_assert_int_eq(pl_setting_get(&b, (PlSettingId)id), v[i]);
            ck_assert_uint_eq(pl_settings_diff(&a, &b), 0);
        }
    }
    PlLabSettings s = pl_settings_default();
    char want[160];
    ck_assert_int_eq(pl_setting_parse(&s, PL_S_CORPUS, "../shared/data/imdb5k.tsv", want, sizeof want), 0);
    ck_assert_str_eq(s.corpus, "../shared/data/imdb5k.tsv");
}
END_TEST

START_TEST(test_choice_names_are_the_cores_names) {
    const PlSettingDef *b = &pl_settings[PL_S_BATCHING], *m = &pl_settings[PL_S_MODEL],
                       *c = &pl_settings[PL_S_CONVENTION];
    for (int i = 0; b->names[i]; i++) ck_assert_str_eq(b->names[i], pl_batching_name((PlBatching)b->values[i]));
    for (int i = 0; m->names[i]; i++) ck_assert_str_eq(m->names[i], pl_arch_name((PlArch)m->values[i]));
    for (int i = 0; c->names[i]; i++) ck_assert_str_eq(c->names[i], pl_mask_conv_name((PlMaskConv)c->values[i]));
    for (int i = 0; pl_settings[PL_S_PADDING].names[i]; i++)
        ck_assert_str_eq(pl_settings[PL_S_PADDING].names[i], pl_side_name((PlSide)pl_settings[PL_S_PADDING].values[i]));
    for (int v = 0; v < PL_VIEW_COUNT; v++) {
        PlView back;
        ck_assert_int_eq(pl_view_parse(pl_view_name((PlView)v), &back), 0);
        ck_assert_int_eq(back, v);
    }
}
END_TEST

START_TEST(test_a_bad_value_says_what_was_expected) {
    PlLabSettings s = pl_settings_default(), before = s;
    char want[160];
    ck_assert_int_eq(pl_setting_parse(&s, PL_S_PADDING, "sideways", want, sizeof want), -1);
    ck_assert_str_eq(want, "one of pre,post");
    ck_assert_int_eq(pl_setting_parse(&s, PL_S_MAXLEN, "0", want, sizeof want), -1);
    ck_assert_str_eq(want, "a whole number from 1 to 2000 or none");
    ck_assert_int_eq(pl_setting_parse(&s, PL_S_BATCH, "none", want, sizeof want), -1); /* only maxlen has a none */
    ck_assert_str_eq(want, "a whole number from 1 to 1024");
    ck_assert_int_eq(pl_setting_parse(&s, PL_S_SEEDS, "3x", want, sizeof want), -1);
    ck_assert_int_eq(pl_setting_parse(&s, PL_S_EXAMPLE, "-1", want, sizeof want), -1);
    ck_assert_int_eq(pl_setting_parse(&s, PL_S_EXAMPLE, "auto", want, sizeof want), 0);
    ck_assert_int_eq(pl_setting_set(&s, PL_S_BATCHING, PL_BATCH_LONGEST), -1); /* not a lab strategy */
    ck_assert_uint_eq(pl_settings_diff(&s, &before), 0);
}
END_TEST

START_TEST(test_steps_go_both_ways) {
    PlLabSettings s = pl_settings_default();
    static const int up[] = {250, 300, 350, 400, 500};
    for (int i = 0; i < 5; i++) {
        pl_setting_set(&s, PL_S_MAXLEN, pl_setting_step(&s, PL_S_MAXLEN, 1));
        ck_assert_int_eq(s.maxlen, up[i]);
    }
    static const int down[] = {400, 350, 300, 250, 200, 150, 100, 90};
    for (int i = 0; i < 8; i++) {
        pl_setting_set(&s, PL_S_MAXLEN, pl_setting_step(&s, PL_S_MAXLEN, -1));
        ck_assert_int_eq(s.maxlen, down[i]);
    }
    s.maxlen = 10;
    ck_assert_int_eq(pl_setting_step(&s, PL_S_MAXLEN, -1), 10); /* the ladder's end */
    s.maxlen = 7;                                               /* a lesson may set any value */
    ck_assert_int_eq(pl_setting_step(&s, PL_S_MAXLEN, 1), 10);
    ck_assert_int_eq(pl_setting_step(&s, PL_S_BATCHING, 1), PL_BATCH_DYNAMIC);
    ck_assert_int_eq(pl_setting_step(&s, PL_S_BATCHING, -1), PL_BATCH_PACKED);
    ck_assert_int_eq(pl_setting_step(&s, PL_S_MODEL, -1), PL_ARCH_ATTENTION);
    ck_assert_int_eq(pl_setting_step(&s, PL_S_CONVENTION, -1), PL_MASK_ADDITIVE);
    ck_assert_int_eq(pl_setting_step(&s, PL_S_MASK, 1), 1);
    ck_assert_int_eq(pl_setting_step(&s, PL_S_MASK, -1), 1);
    ck_assert_int_eq(pl_setting_step(&s, PL_S_SEED, -1), 0);
    ck_assert_int_eq(pl_setting_step(&s, PL_S_SEED, 1), 1);
}
END_TEST

/* maxlen none: past the top of the ladder, above every number, resolved to
 * the corpus's longest review, and named so wherever maxlen is printed. */
START_TEST(test_maxlen_none_is_past_the_top_and_resolves_to_the_longest) {
    PlLabSettings s = pl_settings_default();
    char want[160], text[64];
    ck_assert_int_eq(pl_setting_parse(&s, PL_S_MAXLEN, "none", want, sizeof want), 0);
    ck_assert_int_eq(s.maxlen, PL_MAXLEN_NONE);
    ck_assert_str_eq(pl_setting_format(&s, PL_S_MAXLEN, text, sizeof text), "none");
    ck_assert_str_eq(pl_setting_values_text(PL_S_MAXLEN, text, sizeof text), "1..2000|none");
    ck_assert_int_eq(pl_setting_step(&s, PL_S_MAXLEN, 1), PL_MAXLEN_NONE); /* the top of the ladder */
    ck_assert_int_eq(pl_setting_step(&s, PL_S_MAXLEN, -1), 2000);
    s.maxlen = 2000;
    ck_assert_int_eq(pl_setting_step(&s, PL_S_MAXLEN, 1), PL_MAXLEN_NONE);
    ck_assert(!pl_setting_is_number(&(PlLabSettings){.maxlen = PL_MAXLEN_NONE}, PL_S_MAXLEN));
    ck_assert(pl_setting_is_number(&s, PL_S_MAXLEN));
    ck_assert_int_eq(pl_maxlen_of(PL_MAXLEN_NONE, 2474), 2474);
    ck_assert_int_eq(pl_maxlen_of(200, 2474), 200);
    ck_assert_str_eq(pl_maxlen_text(PL_MAXLEN_NONE, 2474, text, sizeof text), "none (longest: 2474)");
    ck_assert_str_eq(pl_maxlen_text(200, 2474, text, sizeof text), "200");
    char cut[160];
    ck_assert_str_eq(pl_maxlen_cut_text(PL_MAXLEN_NONE, 2474, cut, sizeof cut),
                     "rows kept whole (maxlen none: longest 2474)");
    ck_assert_str_eq(pl_maxlen_cut_text(200, 2474, cut, sizeof cut), "rows cut to 200 tokens");
    ck_assert_int_eq(pl_setting_set(&s, PL_S_BATCH, PL_SETTING_NONE), -1); /* batch has no none */
}
END_TEST

START_TEST(test_each_key_moves_one_setting_one_way) {
    int seen[512] = {0};
    for (int id = 0; id < PL_S_COUNT; id++) {
        const PlSettingDef *d = &pl_settings[id];
        int keys[3] = {d->key_next, d->key_prev, d->key_alt};
        for (int k = 0; k < 3; k++) {
            if (!keys[k]) continue;
            ck_assert_msg(!seen[keys[k]], "key %c is bound twice", keys[k]);
            seen[keys[k]] = 1;
            int dir, got = pl_setting_of_key(keys[k], &dir);
            ck_assert_int_eq(got, id);
            ck_assert_int_eq(dir, k == 1 ? -1 : 1);
        }
    }
    int dir;
    ck_assert_int_eq(pl_setting_of_key('q', &dir), -1);
    char buf[32];
    ck_assert_str_eq(pl_setting_keys_text(PL_S_BATCHING, buf, sizeof buf), "b/B");
    ck_assert_str_eq(pl_setting_keys_text(PL_S_MASK, buf, sizeof buf), "m/M");
    ck_assert_str_eq(pl_setting_keys_text(PL_S_MAXLEN, buf, sizeof buf), "+/- =");
}
END_TEST

/* The corpus is typed, not stepped, and the view has its tabs (1-9, 0, Tab):
 * every other setting has a pair of keys, a projector's only controls. */
static int keyed(int id) { return id != PL_S_CORPUS && id != PL_S_VIEW; }

START_TEST(test_every_setting_has_a_forward_and_a_back_key) {
    for (int id = 0; id < PL_S_COUNT; id++) {
        const PlSettingDef *d = &pl_settings[id];
        if (!keyed(id)) continue;
        ck_assert_msg(d->key_next && d->key_prev, "%s has no pair of keys", d->name);
        if (islower(d->key_next)) /* the README's promise: lower-case forward, its upper-case twin back */
            ck_assert_msg(d->key_prev == toupper(d->key_next), "%s: %c forward, %c back", d->name, d->key_next,
                          d->key_prev);
        ck_assert_msg(!isupper(d->key_next) && !islower(d->key_prev), "%s: %c forward, %c back", d->name, d->key_next,
                      d->key_prev);
    }
    int dir;
    ck_assert_int_eq(pl_setting_of_key('s', &dir), PL_S_SEED);
    ck_assert_int_eq(dir, 1);
    ck_assert_int_eq(pl_setting_of_key('S', &dir), PL_S_SEED);
    ck_assert_int_eq(dir, -1);
    ck_assert_int_eq(pl_setting_of_key('w', &dir), PL_S_CAUSAL);
    ck_assert_int_eq(pl_setting_of_key('z', &dir), PL_S_PAD_EMBEDDING);
    ck_assert_int_eq(pl_setting_of_key('M', &dir), PL_S_MASK);
}
END_TEST

/* The keys both front ends keep for their own use before a setting's key is
 * looked up (tui.c's view_key and on_key, gui.c's on_char): views, the
 * example, scrolling, export, SVG, projector, theme, palette, help, quit. */
static const char front_end_keys[] = "1234567890\t\nhljkevfdy?qQ ";

START_TEST(test_no_setting_key_is_a_command_or_a_front_end_key) {
    for (int i = 0; pl_command_keys[i].keys; i++) {
        int dir;
        ck_assert_msg(pl_setting_of_key(pl_command_keys[i].key, &dir) < 0, "%s runs a command and moves a setting",
                      pl_command_keys[i].keys);
    }
    for (int id = 0; id < PL_S_COUNT; id++) {
        const PlSettingDef *d = &pl_settings[id];
        int keys[3] = {d->key_next, d->key_prev, d->key_alt};
        for (int k = 0; k < 3; k++)
            ck_assert_msg(!keys[k] || !strchr(front_end_keys, keys[k]), "%s's key %c is a front end's own", d->name,
                          keys[k]);
    }
}
END_TEST

START_TEST(test_diff_names_what_changed) {
    PlLabSettings a = pl_settings_default(), b = a;
    b.padding = PL_POST;
    b.view = PL_VIEW_RNN;
    snprintf(b.corpus, sizeof b.corpus, "builtin:1:400");
    ck_assert_uint_eq(pl_settings_diff(&a, &b), PL_S_BIT(PL_S_PADDING) | PL_S_BIT(PL_S_VIEW) | PL_S_BIT(PL_S_CORPUS));
    unsigned cold = pl_settings_cold_mask();
    ck_assert(cold & PL_S_BIT(PL_S_PADDING) && cold & PL_S_BIT(PL_S_SEEDS) && cold & PL_S_BIT(PL_S_CORPUS));
    ck_assert(!(cold & PL_S_BIT(PL_S_VIEW)) && !(cold & PL_S_BIT(PL_S_EXAMPLE)) && !(cold & PL_S_BIT(PL_S_CONVENTION)));
    ck_assert_int_eq(pl_setting_find("maxlen"), PL_S_MAXLEN);
    ck_assert_int_eq(pl_setting_find("colour"), -1);
}
END_TEST

/* ---- patches ---- */

START_TEST(test_a_patch_holds_the_named_settings_the_last_pair_winning) {
    PlSettingsPatch p;
    char why[300];
    ck_assert_int_eq(pl_settings_patch_parse(" padding=post\tmaxlen=none  mask=on maxlen=64 corpus=inline:a b|c", &p,
                                             why, sizeof why),
                     -1); /* a corpus with a space is two tokens: "b|c" is no pair */
    ck_assert_str_eq(why, "settings are name=value pairs, got 'b|c'");
    ck_assert_int_eq(pl_settings_patch_parse(" padding=post\tmaxlen=none  mask=on maxlen=64 corpus=inline:a|b ", &p,
                                             why, sizeof why),
                     0);
    ck_assert_uint_eq(p.mask,
                      PL_S_BIT(PL_S_PADDING) | PL_S_BIT(PL_S_MAXLEN) | PL_S_BIT(PL_S_MASK) | PL_S_BIT(PL_S_CORPUS));
    ck_assert_int_eq(p.values.padding, PL_POST);
    ck_assert_int_eq(p.values.maxlen, 64);
    ck_assert_int_eq(p.values.mask, 1);
    ck_assert_str_eq(p.values.corpus, "inline:a|b");
}
END_TEST

START_TEST(test_a_bad_patch_names_the_setting_and_the_value) {
    PlSettingsPatch p;
    char why[300];
    ck_assert_int_eq(pl_settings_patch_parse("mask=on padding=sideways", &p, why, sizeof why), -1);
    ck_assert_str_eq(why, "padding must be one of pre,post, got 'sideways'");
    ck_assert_int_eq(pl_settings_patch_parse("maxlen=0", &p, why, sizeof why), -1);
    ck_assert_str_eq(why, "maxlen must be a whole number from 1 to 2000 or none, got '0'");
    ck_assert_int_eq(pl_settings_patch_parse("colour=red", &p, why, sizeof why), -1);
    ck_assert_str_eq(why, "'colour' is not a setting (padlab lab --help lists them)");
    ck_assert_int_eq(pl_settings_patch_parse("maxlen", &p, why, sizeof why), -1);
    ck_assert_str_eq(why, "settings are name=value pairs, got 'maxlen'");
    ck_assert_int_eq(pl_settings_patch_parse(" \t ", &p, why, sizeof why), -1);
    ck_assert_str_eq(why, "settings need at least one name=value");
}
END_TEST

START_TEST(test_applying_a_patch_changes_its_settings_and_no_other) {
    PlSettingsPatch p;
    char why[300];
    ck_assert_int_eq(pl_settings_patch_parse("seeds=1 corpus=builtin:5:40 view=cost", &p, why, sizeof why), 0);
    PlLabSettings s = pl_settings_default(), before;
    s.maxlen = 77, s.seed = 5, s.padding = PL_POST;
    before = s;
    pl_settings_patch_apply(&s, &p);
    ck_assert_uint_eq(pl_settings_diff(&before, &s),
                      PL_S_BIT(PL_S_SEEDS) | PL_S_BIT(PL_S_CORPUS) | PL_S_BIT(PL_S_VIEW));
    ck_assert(s.seeds == 1 && s.view == PL_VIEW_COST && s.maxlen == 77 && s.seed == 5 && s.padding == PL_POST);
    ck_assert_str_eq(s.corpus, "builtin:5:40");
    pl_settings_patch_apply(&s, NULL); /* no patch: nothing */
    ck_assert_uint_eq(pl_settings_diff(&before, &s),
                      PL_S_BIT(PL_S_SEEDS) | PL_S_BIT(PL_S_CORPUS) | PL_S_BIT(PL_S_VIEW));
}
END_TEST


/* ---- the state line ---- */

START_TEST(test_the_state_line_of_the_defaults_names_every_setting_in_the_registrys_order) {
    PlLabSettings s = pl_settings_default();
    char line[PL_STATE_CAP];
    ck_assert_str_eq(pl_state_format(&s, line, sizeof line),
                     "v1,corpus=builtin,padding=pre,truncating=pre,mask=off,maxlen=200,batching=static,batch=32,"
                     "model=rnn,seed=0,seeds=3,convention=keras,causal=off,pad_embedding=learned,example=auto,"
                     "view=batch");
}
END_TEST

/* Reads line back over settings that differ from it everywhere they can. */
static PlLabSettings read_back(const char *line) {
    PlSettingsPatch p;
    char why[400];
    ck_assert_msg(pl_state_parse(line, &p, why, sizeof why) == 0, "%s: %s", line, why);
    ck_assert_uint_eq(p.mask, (1u << PL_S_COUNT) - 1);
    PlLabSettings back = pl_settings_default();
    back.padding = PL_POST, back.seed = 99, back.example = 7, back.view = PL_VIEW_TRAIN;
    snprintf(back.corpus, sizeof back.corpus, "elsewhere");
    pl_settings_patch_apply(&back, &p);
    return back;
}

START_TEST(test_every_value_of_every_setting_round_trips_through_the_state_line) {
    for (int id = 0; id < PL_S_COUNT; id++) {
        int v[64], n = values_of((PlSettingId)id, v, 64);
        for (int i = 0; i < n; i++) {
            PlLabSettings a = pl_settings_default();
            char line[PL_STATE_CAP];
            ck_assert_int_eq(pl_setting_set(&a, (PlSettingId)id, v[i]), 0);
            PlLabSettings b = read_back(pl_state_format(&a, line, sizeof line));
            ck_assert_msg(pl_settings_diff(&a, &b) == 0, "%s", line);
        }
    }
}
END_TEST

START_TEST(test_a_corpus_path_with_spaces_commas_and_percents_is_escaped_and_read_back) {
    PlLabSettings a = pl_settings_default();
    char line[PL_STATE_CAP];
    snprintf(a.corpus, sizeof a.corpus, "%s", "my data/a b,c=d%e~f.tsv");
    a.maxlen = PL_MAXLEN_NONE, a.seed = 41, a.seeds = 9, a.example = 12, a.model = PL_ARCH_ATTENTION;
    pl_state_format(&a, line, sizeof line);
    ck_assert_ptr_nonnull(strstr(line, ",corpus=my%20data/a%20b%2Cc%3Dd%25e%7Ef.tsv,"));
    ck_assert_ptr_nonnull(strstr(line, ",maxlen=none,"));
    ck_assert_ptr_nonnull(strstr(line, ",seed=41,seeds=9,"));
    ck_assert_ptr_nonnull(strstr(line, ",example=12,"));
    for (const char *c = line; *c; c++) ck_assert_msg(isalnum((unsigned char)*c) || strchr("._/+:-,=%", *c), "%s", line);
    PlLabSettings b = read_back(line);
    ck_assert_uint_eq(pl_settings_diff(&a, &b), 0);
    ck_assert_str_eq(b.corpus, "my data/a b,c=d%e~f.tsv");
}
END_TEST

START_TEST(test_a_state_line_may_leave_settings_out_and_they_keep_their_values) {
    PlSettingsPatch p;
    char why[400];
    ck_assert_int_eq(pl_state_parse("v1,mask=on,maxlen=30", &p, why, sizeof why), 0);
    ck_assert_uint_eq(p.mask, PL_S_BIT(PL_S_MASK) | PL_S_BIT(PL_S_MAXLEN));
    PlLabSettings s = pl_settings_default();
    s.seed = 5;
    pl_settings_patch_apply(&s, &p);
    ck_assert(s.mask == 1 && s.maxlen == 30 && s.seed == 5);
}
END_TEST

START_TEST(test_a_bad_state_line_says_what_was_wrong_in_one_line) {
    static const struct {
        const char *line, *why;
    } bad[] = {
        {"", "a state line starts with 'v1,' (padlab lab --print-state makes one)"},
        {"v2,mask=on", "a state line starts with 'v1,' (padlab lab --print-state makes one)"},
        {"v1", "the state line names no setting"},
        {"v1,mask=maybe", "'mask' must be one of off,on, got 'maybe'"},
        {"v1,maxlen=0", "'maxlen' must be a whole number from 1 to 2000 or none, got '0'"},
        {"v1,mask=on,mask=off", "'mask' is given twice"},
        {"v1,colour=red", "'colour' is not a setting (padlab lab --help lists them)"},
        {"v1,corpus=a%2", "'corpus' has a bad escape: % must be followed by two hex digits"},
        {"v1,corpus=a%00b", "'corpus' has a bad escape: % must be followed by two hex digits"},
        {"v1,corpus=a%0Ab", "'corpus' must be a name or a path of at most 511 bytes, without control characters, got 'a?b'"},
        {"v1,corpus=a b", "'corpus' holds a byte 0x20 that a state line writes as %20"},
        {"v1,,mask=on", "an empty NAME=VALUE between two commas or at the end"},
        {"v1,mask=on,", "an empty NAME=VALUE between two commas or at the end"},
        {"v1,mask", "expected NAME=VALUE, got 'mask'"},
        {"v1,=on", "'' is not a setting"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        PlSettingsPatch p;
        char why[400];
        ck_assert_int_eq(pl_state_parse(bad[i].line, &p, why, sizeof why), -1);
        ck_assert_str_eq(why, bad[i].why);
    }
}
END_TEST

/* The corpus as a control names it: an inline corpus by its reviews (the
 * lesson's spec is the whole text, which ran past 80 columns mid-word), a
 * path by its file's name, anything else as written. */
START_TEST(test_a_corpus_is_labelled_by_its_file_or_its_inline_reviews) {
    char b[200];
    ck_assert_str_eq(pl_corpus_label("inline:the plot was | i did not expect it | this film | what i liked", b, 200),
                     "inline: 4 reviews");
    ck_assert_str_eq(pl_corpus_label("inline:x50|+ great film|- dull|fine", b, 200), "inline: 3 reviews x 50");
    ck_assert_str_eq(pl_corpus_label("inline:1/2 stars", b, 200), "inline: 1 review");
    ck_assert_str_eq(pl_corpus_label("inline:xylophone solo|bad", b, 200), "inline: 2 reviews");
    ck_assert_str_eq(pl_corpus_label("/work/shared/data/imdb5k.tsv", b, 200), "imdb5k.tsv");
    ck_assert_str_eq(pl_corpus_label("builtin:0:5000:70", b, 200), "builtin:0:5000:70");
    ck_assert_str_eq(pl_corpus_label("data/", b, 200), "data/");
}
END_TEST

Suite *settings_suite(void) {
    Suite *s = suite_create("settings");
    TCase *tc = tcase_create("registry");
    tcase_add_test(tc, test_defaults_are_the_tutorial_settings);
    tcase_add_test(tc, test_a_corpus_is_labelled_by_its_file_or_its_inline_reviews);
    tcase_add_test(tc, test_every_value_of_every_row_round_trips_through_its_text);
    tcase_add_test(tc, test_choice_names_are_the_cores_names);
    tcase_add_test(tc, test_a_bad_value_says_what_was_expected);
    tcase_add_test(tc, test_steps_go_both_ways);
    tcase_add_test(tc, test_maxlen_none_is_past_the_top_and_resolves_to_the_longest);
    tcase_add_test(tc, test_each_key_moves_one_setting_one_way);
    tcase_add_test(tc, test_every_setting_has_a_forward_and_a_back_key);
    tcase_add_test(tc, test_no_setting_key_is_a_command_or_a_front_end_key);
    tcase_add_test(tc, test_diff_names_what_changed);
    suite_add_tcase(s, tc);
    tc = tcase_create("patches");
    tcase_add_test(tc, test_a_patch_holds_the_named_settings_the_last_pair_winning);
    tcase_add_test(tc, test_a_bad_patch_names_the_setting_and_the_value);
    tcase_add_test(tc, test_applying_a_patch_changes_its_settings_and_no_other);
    suite_add_tcase(s, tc);
    tc = tcase_create("state line");
    tcase_add_test(tc, test_the_state_line_of_the_defaults_names_every_setting_in_the_registrys_order);
    tcase_add_test(tc, test_every_value_of_every_setting_round_trips_through_the_state_line);
    tcase_add_test(tc, test_a_corpus_path_with_spaces_commas_and_percents_is_escaped_and_read_back);
    tcase_add_test(tc, test_a_state_line_may_leave_settings_out_and_they_keep_their_values);
    tcase_add_test(tc, test_a_bad_state_line_says_what_was_wrong_in_one_line);
    suite_add_tcase(s, tc);
    return s;
}
