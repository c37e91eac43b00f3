/* The lab's export: a view's full data as padlab-VIEW-N.txt and .json, the
 * first N that names neither, written whole or not at all, never over an
 * existing file; a folder that cannot be written is a clean error. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app/lab/fill.h"
#include "app/lab/lab.h"
#include "app/report/out.h"
#include "app/report/report.h"
#include "app/teach/lesson_run.h"
#include "patience.h"
#include "suites.h"

static PlLab *small_lab(void) {
    PlLabSettings s = pl_settings_default();
    snprintf(s.corpus, sizeof s.corpus, "builtin:1:200");
    s.maxlen = 60;
    PlErr err;
    PlLab *lab = pl_lab_new(&s, &err);
    ck_assert_msg(lab != NULL, "%s", err.msg);
    return lab;
}

/* The file's bytes, NUL-terminated (NULL when it cannot be read). */
static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0;) {
        n += got;
        if (n + 1 == cap) buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    if (buf) buf[n] = '\0';
    return buf;
}

static int exists(const char *path) { return access(path, F_OK) == 0; }

/* JSON-ish: braces and brackets balance outside strings, never go negative,
 * and the text is one object. */
static int balanced(const char *s) {
    int depth = 0, in_str = 0;
    const char *p = s;
    while (*p == ' ' || *p == '\n') p++;
    if (*p != '{') return 0;
    for (; *p; p++) {
        if (in_str) {
            if (*p == '\\' && p[1]) p++;
            else if (*p == '"') in_str = 0;
        } else if (*p == '"') {
            in_str = 1;
        } else if (*p == '{' || *p == '[') {
            depth++;
        } else if (*p == '}' || *p == ']') {
            if (--depth < 0) return 0;
        }
    }
    return depth == 0 && !in_str;
}

static void assert_has(const char *text, const char *what, const char *path) {
    ck_assert_msg(text && strstr(text, what), "%s lacks %s", path, what);
}

START_TEST(test_exporting_twice_writes_the_first_and_second_files) {
    PlLab *lab = small_lab();
    char *dir = pl_test_tmpdir(), path[4200], written[4200];
    PlErr err;
    ck_assert_int_eq(pl_lab_wait(lab, 1u << PL_R_BATCH, 60), 0);
    for (int k = 1; k <= 2; k++) {
        ck_assert_msg(pl_lab_export(lab, PL_VIEW_BATCH, dir, written, sizeof written, &err) == PL_OK, "%s", err.msg);
        snprintf(path, sizeof path, "%s/padlab-batch-%d.txt", dir, k);
        ck_assert_str_eq(written, path);
        char *txt = slurp(path);
        assert_has(txt, "the three counts agree", path);
        /* the source line names the batch */
        assert_has(txt, "batch 2 of 7: 32 rows x 60 (static), holding example 48", path);
        assert_has(txt, "settings: corpus builtin:1:200", path);
        ck_assert_msg(!strstr(txt, "--full prints all"), "an export elides nothing");
        free(txt);
        snprintf(path, sizeof path, "%s/padlab-batch-%d.json", dir, k);
        char *json = slurp(path);
        ck_assert_msg(json && balanced(json), "%s is not one balanced object", path);
        assert_has(json, "\"summary\": {", path);
        assert_has(json, "\"real_tokens\": ", path);
        assert_has(json, "\"agree\": true", path);
        assert_has(json, "\"rows\": [", path);
        assert_has(json, "\"source\": {", path);
        free(json);
    }
    snprintf(path, sizeof path, "%s/padlab-batch-3.txt", dir);
    ck_assert(!exists(path));
    pl_lab_free(lab);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(test_an_export_never_overwrites_a_file) {
    PlLab *lab = small_lab();
    char *dir = pl_test_tmpdir(), path[4200], written[4200];
    PlErr err;
    ck_assert_int_eq(pl_lab_wait(lab, 1u << PL_R_COST, 60), 0);
    /* Only the .json of N = 1 exists: N = 1 is taken, and the file stays as it was. */
    snprintf(path, sizeof path, "%s/padlab-cost-1.json", dir);
    pl_test_write_file(path, "mine", 4);
    ck_assert_msg(pl_lab_export(lab, PL_VIEW_COST, dir, written, sizeof written, &err) == PL_OK, "%s", err.msg);
    char *mine = slurp(path);
    ck_assert_str_eq(mine, "mine");
    free(mine);
    snprintf(path, sizeof path, "%s/padlab-cost-1.txt", dir);
    ck_assert(!exists(path));
    snprintf(path, sizeof path, "%s/padlab-cost-2.txt", dir);
    ck_assert_str_eq(written, path);
    char *txt = slurp(path);
    assert_has(txt, "the whole corpus (200 reviews)", path);
    assert_has(txt, "bucket_longest", path);
    free(txt);
    snprintf(path, sizeof path, "%s/padlab-cost-2.json", dir);
    char *json = slurp(path);
    ck_assert_msg(json && balanced(json), "%s is not one balanced object", path);
    assert_has(json, "\"strategies\": [", path);
    assert_has(json, "\"sweep\": [", path);
    assert_has(json, "\"padding_share\": ", path);
    free(json);
    pl_lab_free(lab);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(test_a_view_without_a_result_says_so) {
    PlLab *lab = small_lab();
    char *dir = pl_test_tmpdir(), path[4200], written[4200] = "";
    PlErr err;
    /* Nothing has asked for the attention result yet, so none exists. */
    ck_assert_int_ne(pl_lab_export(lab, PL_VIEW_ATTENTION, dir, written, sizeof written, &err), PL_OK);
    ck_assert_str_eq(err.msg, "the attention view has not computed a result yet");
    snprintf(path, sizeof path, "%s/padlab-attention-1.txt", dir);
    ck_assert(!exists(path));
    ck_assert_str_eq(written, "");
    pl_lab_free(lab);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(test_the_train_view_exports_its_runs_table) {
    PlLab *lab = small_lab();
    char *dir = pl_test_tmpdir(), path[4200], written[4200];
    PlErr err;
    ck_assert_msg(pl_lab_export(lab, PL_VIEW_TRAIN, dir, written, sizeof written, &err) == PL_OK, "%s", err.msg);
    snprintf(path, sizeof path, "%s/padlab-train-1.txt", dir);
    ck_assert_str_eq(written, path);
    char *txt = slurp(path);
    assert_has(txt, "the runs table: 0 settings, 0 finished runs", path);
    free(txt);
    snprintf(path, sizeof path, "%s/padlab-train-1.json", dir);
    char *json = slurp(path);
    ck_assert_msg(json && balanced(json), "%s is not one balanced object", path);
    assert_has(json, "\"runs\": []", path);
    assert_has(json, "\"groups\": []", path);
    free(json);
    pl_lab_free(lab);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(test_a_read_only_folder_is_a_clean_error) {
    PlLab *lab = small_lab();
    char *dir = pl_test_tmpdir(), ro[2048], path[4200], written[4200] = "";
    PlErr err;
    ck_assert_int_eq(pl_lab_wait(lab, 1u << PL_R_BATCH, 60), 0);
    snprintf(ro, sizeof ro, "%s/ro", dir);
    ck_assert_int_eq(mkdir(ro, 0555), 0);
    ck_assert_int_eq(chmod(dir, 0755), 0);
    /* root writes anywhere: drop to nobody for the export (this test runs in
     * its own process; the saved uid brings root back for the cleanup). */
    int dropped = geteuid() == 0 && seteuid(65534) == 0;
    if (geteuid() == 0) {
        printf("skip: a read-only folder: running as root and cannot drop privileges\n");
    } else {
        PlStatus st = pl_lab_export(lab, PL_VIEW_BATCH, ro, written, sizeof written, &err);
        ck_assert_int_eq(st, PL_EIO);
        ck_assert_msg(strstr(err.msg, ro) && strstr(err.msg, "cannot write"), "the message names the file: %s",
                      err.msg);
        ck_assert_msg(!strchr(err.msg, '\n'), "one line: %s", err.msg);
        ck_assert_str_eq(written, "");
    }
    if (dropped) ck_assert_int_eq(seteuid(0), 0);
    snprintf(path, sizeof path, "%s/padlab-batch-1.txt", ro);
    ck_assert(!exists(path));
    pl_lab_free(lab);
    chmod(ro, 0755);
    pl_test_rmtree(dir);
    free(dir);
}
END_TEST

/* What a printer writes for a result, as the export calls it. */
static char *printed(PlLab *lab, PlResultKind k, int json) {
    PlResultStatus st;
    const void *r = pl_lab_result(lab, k, &st);
    ck_assert_ptr_nonnull(r);
    PlReportOpts o = {.full = 1, .settings_line = 1};
    char *buf = NULL;
    size_t n;
    FILE *f = open_memstream(&buf, &n);
    ck_assert_int_eq(pl_report_print(f, k, json, pl_lab_corpus(lab), r, st.info, &o), PL_OK);
    fclose(f);
    return buf;
}

static char *exported(PlLab *lab, PlView v, int json) {
    char *buf = NULL;
    size_t n;
    PlErr err;
    FILE *f = open_memstream(&buf, &n);
    ck_assert_msg(pl_lab_write_view(lab, v, json, f, &err) == PL_OK, "%s", err.msg);
    fclose(f);
    return buf;
}

/* A document nested under key one level down, as the export writes it. */
static char *nested(const char *key, const char *doc) {
    size_t n = strlen(doc), at = 0;
    char *out = malloc(2 * n + strlen(key) + 8);
    at += (size_t)sprintf(out, "\"%s\": ", key);
    for (size_t i = 0; i + 1 < n; i++) { /* its last newline is the export's to write */
        out[at++] = doc[i];
        if (doc[i] == '\n') out[at++] = ' ', out[at++] = ' ';
    }
    out[at] = '\0';
    return out;
}

/* The train view draws the runs and the pre+mask = post+mask figure: its
 * export holds both; the generate view's holds the kvcache result after its
 * own; every other view's export is its one result, printed as the probe
 * command prints it. The window's suite checks the other half:
 * each figure reads exactly the results its view's row names. */
START_TEST(test_every_result_a_view_shows_is_in_its_export) {
    PlLab *lab = small_lab();
    for (int v = 0; v < PL_VIEW_COUNT; v++) {
        const PlViewShows *shows = pl_view_shows((PlView)v);
        ck_assert_int_eq(pl_lab_wait(lab, pl_view_results((PlView)v, pl_lab_settings(lab)), 120), 0);
        char *txt = exported(lab, (PlView)v, 0), *json = exported(lab, (PlView)v, 1);
        ck_assert_msg(balanced(json), "the %s export is not one balanced object", pl_view_name((PlView)v));
        if (shows->parts) assert_has(txt, "the runs table: ", pl_view_name((PlView)v));
        if (shows->parts) assert_has(json, "\"groups\": [", pl_view_name((PlView)v));
        unsigned drawn = pl_view_results((PlView)v, pl_lab_settings(lab));
        for (int i = 0; i < shows->nresults; i++) {
            PlResultKind k = shows->results[i];
            if (!(drawn >> k & 1u)) { /* drawn under other settings only: neither drawn nor exported now */
                char rule[64];
                snprintf(rule, sizeof rule, "---- %s ----", pl_result_name(k));
                ck_assert_msg(strstr(txt, rule) == NULL, "the %s export holds the %s result its view does not draw now",
                              pl_view_name((PlView)v), pl_result_name(k));
                continue;
            }
            char *want = printed(lab, k, 0), *doc = printed(lab, k, 1);
            ck_assert_msg(strstr(txt, want) != NULL, "the %s export's text lacks the %s result",
                          pl_view_name((PlView)v), pl_result_name(k));
            if (i == 0 && !shows->parts && __builtin_popcount(drawn) == 1) ck_assert_str_eq(json, doc);
            else if (i == 0 && !shows->parts) { /* the main document, reopened for the others */
                size_t n = (size_t)(strrchr(doc, '}') - doc);
                while (n > 0 && (doc[n - 1] == '\n' || doc[n - 1] == ' ')) n--;
                ck_assert_msg(strncmp(json, doc, n) == 0, "the %s export's JSON does not open with its %s result",
                              pl_view_name((PlView)v), pl_result_name(k));
            } else {
                char *in = nested(pl_result_name(k), doc);
                ck_assert_msg(strstr(json, in) != NULL, "the %s export's JSON lacks the %s result",
                              pl_view_name((PlView)v), pl_result_name(k));
                free(in);
            }
            free(want), free(doc);
        }
        free(txt), free(json);
    }
    ck_assert(pl_view_results(PL_VIEW_TRAIN, NULL) & (1u << PL_R_IDENTITY)); /* the figure the issue found missing */
    pl_lab_free(lab);
}
END_TEST

/* Under packed batching the batch view draws the packing probe beside the
 * packed row, and its export holds it after the batch; under static
 * batching it draws and exports the batch alone. */
START_TEST(test_the_packed_batch_view_exports_its_packing) {
    PlLab *lab = small_lab();
    PlErr err;
    ck_assert_int_eq(pl_view_results(PL_VIEW_BATCH, pl_lab_settings(lab)), 1u << PL_R_BATCH);
    ck_assert_msg(pl_lab_set(lab, PL_S_BATCHING, "packed", &err) >= 0, "%s", err.msg);
    unsigned both = (1u << PL_R_BATCH) | (1u << PL_R_PACKING);
    ck_assert_int_eq(pl_view_results(PL_VIEW_BATCH, pl_lab_settings(lab)), both);
    ck_assert_int_eq(pl_lab_wait(lab, both, 120), 0);
    char *txt = exported(lab, PL_VIEW_BATCH, 0), *json = exported(lab, PL_VIEW_BATCH, 1);
    char *want = printed(lab, PL_R_PACKING, 0), *doc = printed(lab, PL_R_PACKING, 1), *in = nested("packing", doc);
    assert_has(txt, "\n---- packing ----\n", "the packed batch export");
    assert_has(txt, want, "the packed batch export");
    assert_has(json, in, "the packed batch export's JSON");
    assert_has(json, "\"position_ids\": [", "the packed batch export's JSON");
    assert_has(json, "\"cross_doc_share\"", "the packed batch export's JSON");
    free(txt), free(json), free(want), free(doc), free(in);
    pl_lab_free(lab);
}
END_TEST

/* The part of text from the first `from` on, up to the next `to` (or its end), in a new string. */
static char *section(const char *text, const char *from, const char *to) {
    const char *a = strstr(text, from);
    ck_assert_msg(a != NULL, "no %s", from);
    const char *z = strstr(a + strlen(from), to);
    size_t n = z ? (size_t)(z - a) : strlen(a);
    char *out = malloc(n + 1);
    memcpy(out, a, n);
    out[n] = '\0';
    return out;
}

/* A tile count asked for hides, in the masks view's export, what adds up to
 * it: its rule's rows and map, the rules that give the same tiles, and the
 * sentence that says which rules skip tiles; another rule's stay. */
START_TEST(test_an_asked_tile_count_hides_its_rows_and_map) {
    PlLab *lab = small_lab();
    PlLedger l;
    pl_ledger_clear(&l);
    pl_quantity_hide(&l, "blocks.empty(causal)");
    pl_lab_set_ledger(lab, &l);
    ck_assert_int_eq(pl_lab_wait(lab, pl_view_results(PL_VIEW_MASKS, pl_lab_settings(lab)), 120), 0);
    char *txt = exported(lab, PL_VIEW_MASKS, 0), *json = exported(lab, PL_VIEW_MASKS, 1);
    assert_has(txt, "which rules let a fused kernel skip whole tiles: hidden until you answer", "the masks export");
    ck_assert_msg(!strstr(txt, "skips whole tiles for:"), "the masks export says which rules skip tiles");
    char *causal = section(json, "\"name\": \"causal\"", "\"name\""),
         *doc = section(json, "\"name\": \"causal+document\"", "\"name\""),
         *padding = section(json, "\"name\": \"padding\"", "\"name\"");
    for (char *r = causal; r; r = r == causal ? doc : NULL) {
        assert_has(r, "\"map\": null", "an asked rule");
        assert_has(r, "\"computed_cells\": null", "an asked rule");
        ck_assert_msg(!strstr(r, "          0,\n"), "an asked rule's rows show: %s", r);
    }
    ck_assert_msg(!strstr(padding, "\"map\": null") && !strstr(padding, "null"), "another rule is hidden: %s", padding);
    /* one tile a row here: the map's line has the padding rule's glyph, then causal's as ? */
    ck_assert_msg(strstr(txt, "\n  +        ?       +") != NULL, "the causal map is drawn in the text:\n%s", txt);
    free(causal), free(doc), free(padding), free(txt), free(json);
    pl_lab_free(lab);
}
END_TEST

/* A grid stopped before it finished is still drawn (the terminal's grid
 * table, the window's status line), so the train view's export writes it
 * too, marked stopped: it used to write a grid only while it ran or once
 * it was done. */
START_TEST(test_a_stopped_grid_is_in_the_train_export) {
    PlLab *lab = small_lab();
    ck_assert_int_eq(pl_lab_command(lab, PL_CMD_GRID), PL_LAB_HOT); /* g starts the grid */
    ck_assert_int_eq(pl_lab_command(lab, PL_CMD_GRID), PL_LAB_HOT); /* and g again stops it */
    PlLabGrid g = pl_lab_grid(lab);
    ck_assert(!g.active && !g.done && g.total == 4 * pl_lab_settings(lab)->seeds);
    char *txt = exported(lab, PL_VIEW_TRAIN, 0), *json = exported(lab, PL_VIEW_TRAIN, 1);
    char want[160];
    snprintf(want, sizeof want, "\nthe padding x mask grid of %s over %d seeds: stopped, 0 of %d runs finished\n",
             pl_arch_name((PlArch)g.base.model), g.seeds, g.total);
    assert_has(txt, want, "the train export");
    ck_assert_msg(balanced(json), "the train export's JSON is not one balanced object");
    assert_has(json, "\"grid\": true", "the train export's summary");
    snprintf(want, sizeof want, "\"grid\": {\n    \"done\": false,\n    \"finished\": 0,\n    \"total\": %d,", g.total);
    assert_has(json, want, "the train export's JSON");
    free(txt), free(json);
    pl_lab_free(lab);
}
END_TEST

/* The window draws each run's training loss per epoch beside its accuracy:
 * the text export has both curves in its table of runs (the JSON had them;
 * the text had the accuracy alone). */
START_TEST(test_the_train_export_has_each_runs_loss_curve_in_text) {
    PlLabSettings s = pl_settings_default();
    snprintf(s.corpus, sizeof s.corpus, "builtin:1:200");
    s.maxlen = 60, s.seeds = 1;
    PlErr err;
    PlLab *lab = pl_lab_new(&s, &err);
    ck_assert_msg(lab != NULL, "%s", err.msg);
    pl_lab_command(lab, PL_CMD_RUN);
    struct timespec ts = {0, 10000000};
    for (int i = 0; i < PL_TEST_POLLS && (pl_lab_tick(lab), pl_lab_training(lab)->active); i++) nanosleep(&ts, NULL);
    int n;
    const PlLabRun *r = pl_lab_runs(lab, &n);
    ck_assert_int_eq(n, 1);
    ck_assert_int_ge(r->epochs, 2);
    char want[PL_MAX_EPOCHS * 12 + 1] = "";
    for (int e = 0; e < r->epochs; e++)
        snprintf(want + strlen(want), sizeof want - strlen(want), "%s%.3f", e ? " " : "", (double)r->train_loss[e]);
    ck_assert_int_eq(pl_lab_wait(lab, pl_view_results(PL_VIEW_TRAIN, pl_lab_settings(lab)), PL_TEST_PATIENCE), 0);
    char *txt = exported(lab, PL_VIEW_TRAIN, 0);
    assert_has(txt, "train_loss by epoch", "the train export's table of runs");
    assert_has(txt, want, "the train export's table of runs");
    free(txt);
    pl_lab_free(lab);
}
END_TEST

/* A table's words against static come from the savings: lengths 5 3 8 2 7
 * in batches of 2 cut to 4 (static: 5 rows of 4 = 20 cells, 80 score
 * cells); longest pads all five to 8 (40 cells, 320 score cells),
 * bucket_longest takes 18 cells, packed the 17 kept tokens (61 score cells). */
START_TEST(test_a_strategy_that_computes_more_is_never_called_a_saving) {
    const int lens[] = {5, 3, 8, 2, 7}, bounds[] = {4, 7}, sizes[] = {2, 2, 2};
    PlCompareOpts o = {2, 4, bounds, 2, sizes, 0};
    PlStrategyRow rows[PL_BATCH_COUNT];
    int n;
    ck_assert_int_eq(pl_cost_compare(lens, 5, &o, rows, &n, NULL), PL_OK);
    char a[64];
    ck_assert_str_eq(pl_report_vs_static(rows[PL_BATCH_LONGEST].cells_saved, 0, a, sizeof a), "2.0x as many");
    ck_assert_str_eq(pl_report_vs_static(rows[PL_BATCH_LONGEST].attn_saved, 1, a, sizeof a), "4.0x as many as static");
    ck_assert_str_eq(pl_report_vs_static(rows[PL_BATCH_STATIC].cells_saved, 0, a, sizeof a), "same");
    ck_assert_str_eq(pl_report_vs_static(rows[PL_BATCH_BUCKET_LONGEST].cells_saved, 1, a, sizeof a),
                     "10.0% fewer than static");
    ck_assert_str_eq(pl_report_vs_static(rows[PL_BATCH_PACKED].cells_saved, 0, a, sizeof a), "15.0% fewer");
    ck_assert_str_eq(pl_report_vs_static(-0.5, 1, a, sizeof a), "50.0% more than static"); /* 1.5 x static's */
    char *text = NULL, *csv = NULL;
    size_t nt, nc;
    FILE *f = open_memstream(&text, &nt);
    ck_assert_int_eq(pl_report_strategies_table(f, rows, n, OUT_TABLE, -1, NULL), 0);
    fclose(f);
    f = open_memstream(&csv, &nc);
    ck_assert_int_eq(pl_report_strategies_table(f, rows, n, OUT_CSV, -1, NULL), 0);
    fclose(f);
    ck_assert_msg(!strstr(text, "saved"), "the table names no saving: %s", text);
    ck_assert_msg(strstr(text, " 320  2.0x as many     4.0x as many\n") != NULL, "%s", text);
    /* CSV: the saving (negative: more) and the ratio to static's, for longest -1 and 2, -3 and 4 */
    /* longest's shapes: 2 x 8 twice, then 1 x 8 */
    ck_assert_msg(strstr(csv, "longest,3,2,0.3750,40,25,0,320,-1.0000,-3.0000,2.0000,4.0000\n") != NULL, "%s", csv);
    free(text), free(csv);
    /* Through a ledger that hides what the longest strategy saves: that cell as ?s, nothing else. */
    PlLedger l;
    pl_ledger_clear(&l);
    pl_ledger_hide(&l, "cost.cells_saved(longest)");
    f = open_memstream(&text, &nt);
    ck_assert_int_eq(pl_report_strategies_table(f, rows, n, OUT_TABLE, -1, &l), 0);
    fclose(f);
    ck_assert_msg(strstr(text, " 320  ?????") != NULL && strstr(text, "?????            4.0x as many\n") != NULL,
                  "%.600s", text);
    free(text);
}
END_TEST

/* An export is a surface like the screen: at lesson 1's step 5, which asks
 * how many RNN steps run on pads, the cost view's files hide that count and
 * the figures that give it away (the real steps, the padding share), as ?s
 * in text and null in JSON, and show the steps run. */
START_TEST(test_an_export_hides_the_open_questions_figure) {
    char path[1200], why[200];
    const char *tests = getenv("PADLAB_TESTS");
    snprintf(path, sizeof path, "%s/../lessons/01-rectangle.lesson", tests ? tests : "tests");
    PlErr err;
    PlLesson *l = pl_lesson_load(path, &err);
    ck_assert_msg(l != NULL, "%s", err.msg);
    PlLabSettings s = pl_settings_default();
    PlLab *lab = pl_lab_new(&s, &err);
    ck_assert_msg(lab != NULL, "%s", err.msg);
    PlLessonRun *r = pl_lesson_run_new(lab, l, 4, &err);
    ck_assert_msg(r != NULL, "%s", err.msg);
    ck_assert_int_eq(pl_lesson_run_wait(r), 0);
    ck_assert_str_eq(pl_lesson_run_step(r)->title, "What padding costs");
    pl_lesson_run_sync_ledger(r);
    double wasted, steps;
    PlQuantity q;
    ck_assert_int_eq(pl_quantity_parse("cost.rnn_steps", &q, why, sizeof why), 0);
    ck_assert_int_eq(pl_quantity_value(lab, &q, &steps, why, sizeof why), 0);
    ck_assert_int_eq(pl_quantity_value(lab, &pl_lesson_run_step(r)->q.answer, &wasted, why, sizeof why), 0);
    char *text = NULL, *json = NULL, want[200];
    size_t n;
    FILE *f = open_memstream(&text, &n);
    ck_assert_int_eq(pl_lab_write_view(lab, PL_VIEW_COST, 0, f, &err), PL_OK);
    fclose(f);
    f = open_memstream(&json, &n);
    ck_assert_int_eq(pl_lab_write_view(lab, PL_VIEW_COST, 1, f, &err), PL_OK);
    fclose(f);
    char w[32], real[32];
    snprintf(w, sizeof w, "%.0f", wasted), snprintf(real, sizeof real, "%.0f", steps - wasted);
    snprintf(want, sizeof want, "RNN steps        ????? real of %.0f run (????? on pads)\n", steps);
    if (!strstr(text, want) || strstr(text, w) || strstr(text, real)) fputs(text, stderr); /* what went wrong, whole */
    ck_assert_msg(strstr(text, want), "no '%s' in the text", want);
    ck_assert_msg(!strstr(text, w) && !strstr(text, real), "%s or %s shows in the text", w, real);
    ck_assert_msg(strstr(text, "padding share    ?????"), "the padding share shows");
    ck_assert_msg(strstr(json, "\"rnn_wasted\": null") && strstr(json, "\"real_tokens\": null") &&
                      strstr(json, "\"padding_share\": null"),
                  "a hidden figure shows in the JSON");
    snprintf(want, sizeof want, "\"rnn_steps\": %.0f", steps);
    char *strategies = strstr(json, "\"strategies\"");
    ck_assert_ptr_nonnull(strategies);
    *strategies = '\0'; /* the summary, the sweep, the lengths: another strategy's share is another figure */
    if (!strstr(json, want) || strstr(json, w)) fputs(json, stderr);
    ck_assert_msg(strstr(json, want) && !strstr(json, w), "the JSON lacks %s or shows %s", want, w);
    free(text), free(json);
    pl_lesson_run_free(r);
    pl_lab_free(lab);
    pl_lesson_free(l);
}
END_TEST

/* Lesson `name` played on the builtin corpus to step k (from 0), its
 * ledger synced: the lab a learner has there. */
static PlLab *played(const char *name, int k, PlLessonRun **run, PlLesson **lesson) {
    char path[1200];
    const char *tests = getenv("PADLAB_TESTS");
    snprintf(path, sizeof path, "%s/../lessons/%s.lesson", tests ? tests : "tests", name);
    PlErr err;
    PlLesson *l = *lesson = pl_lesson_load(path, &err);
    ck_assert_msg(l != NULL, "%s", err.msg);
    PlLabSettings s = pl_settings_default();
    PlLab *lab = pl_lab_new(&s, &err);
    ck_assert_msg(lab != NULL, "%s", err.msg);
    *run = pl_lesson_run_new(lab, l, k, &err);
    ck_assert_msg(*run != NULL, "%s", err.msg);
    ck_assert_int_eq(pl_lesson_run_wait(*run), 0);
    pl_lesson_run_sync_ledger(*run);
    return lab;
}

/* View v's export (JSON or text) at step k of lesson `name`, played to it. */
static char *exported_at(const char *name, int k, PlView v, int json) {
    PlLessonRun *run;
    PlLesson *l;
    PlLab *lab = played(name, k, &run, &l);
    ck_assert_int_eq(pl_lab_wait(lab, pl_view_results(v, pl_lab_settings(lab)), PL_TEST_PATIENCE), 0);
    char *text = exported(lab, v, json);
    pl_lesson_run_free(run);
    pl_lab_free(lab);
    pl_lesson_free(l);
    return text;
}

/* Whether a line of s at `at` is a row of the rnn's steps ("  150  pad  ..."),
 * whose first number is the step's index. */
static int step_row(const char *s, const char *at) {
    const char *line = at;
    while (line > s && line[-1] != '\n') line--;
    while (*line == ' ') line++;
    const char *p = line;
    while (*p >= '0' && *p <= '9') p++;
    while (*p == ' ') p++;
    return p > line && (strncmp(p, "token", 5) == 0 || strncmp(p, "pad", 3) == 0 || strncmp(p, "real", 4) == 0) &&
           at < p;
}

/* Whether s holds word as a whole number (not inside a longer one, nor a
 * step's index). */
/* Where s holds word as a number of its own (not inside another, not on a
 * step's row): the start of its line, or NULL. */
static const char *number_at(const char *s, const char *word) {
    size_t n = strlen(word);
    for (const char *at = strstr(s, word); at; at = strstr(at + 1, word)) {
        char before = at == s ? ' ' : at[-1], after = at[n];
        if (!strchr("0123456789.", before) && !strchr("0123456789.", after) && !step_row(s, at)) {
            while (at > s && at[-1] != '\n') at--;
            return at;
        }
    }
    return NULL;
}

static int holds_number(const char *s, const char *word) { return number_at(s, word) != NULL; }

/* text with the lines that list a row's tokens or positions (more than a
 * dozen numbers, or a JSON array's bare element) blanked, in place: a token's
 * id is no figure. */
static char *without_rows(char *text) {
    for (char *line = text; *line;) {
        char *end = line + strcspn(line, "\n");
        int numbers = 0, bare = 1;
        for (char *c = line; c < end; c++) {
            numbers += (*c >= '0' && *c <= '9') && (c == line || !strchr("0123456789.", c[-1]));
            bare &= strchr(" 0123456789.,-e+", *c) != NULL;
        }
        if (numbers > 12 || (bare && numbers)) memset(line, ' ', (size_t)(end - line));
        line = *end ? end + 1 : end;
    }
    return text;
}

/* An open question's figure, said by another view in its own words, is
 * hidden there too, in the text and JSON exports alike: lesson 01 step 3's
 * padding share as the masks view's kept share of the padding rule (its
 * complement), lesson 03 step 1's pads of the example in the rnn and masks
 * views, lesson 07 step 1's fake pad targets as the layers view's pad cells
 * and the cache's pad slots, lesson 09 step 7's bytes of the dense mask as
 * its cells; lesson 01 step 3's batch of 4 rows as the layers, loss and
 * cache views' pads, step 5's pads of the corpus as the pooled mean's weight;
 * lesson 07 step 3's pad targets as the close-up's real tokens. */
START_TEST(test_another_views_words_for_the_asked_figure_are_hidden) {
    static const struct {
        const char *lesson;
        int step;
        const char *asked, *complement_of; /* the figure, or 1 - it as a percentage */
        PlView views[3];
    } cases[] = {
        {"01-rectangle", 2, NULL, "{batch.pad_share}", {PL_VIEW_MASKS, PL_VIEW_MASKS, PL_VIEW_MASKS}},
        {"03-mask", 0, "{batch.example_pads}", NULL, {PL_VIEW_RNN, PL_VIEW_MASKS, PL_VIEW_RNN}},
        {"07-loss", 0, "{loss.fake_terms}", NULL, {PL_VIEW_LAYERS, PL_VIEW_GENERATE, PL_VIEW_LAYERS}},
        {"10-generation", 6, "{kvcache.pad_slots}", NULL, {PL_VIEW_LAYERS, PL_VIEW_COST, PL_VIEW_LAYERS}},
        /* the masks view's dense cells, a bool each, and the document rule's kept cells (every one, padded) */
        {"09-causal", 6, "{batch.mask_bytes}", NULL, {PL_VIEW_MASKS, PL_VIEW_MASKS, PL_VIEW_MASKS}},
        /* a batch of 4 rows is the close-up: its pads are the layers', loss's and cache's */
        {"01-rectangle", 2, "{batch.pad_cells}", NULL, {PL_VIEW_LAYERS, PL_VIEW_LOSS, PL_VIEW_GENERATE}},
        /* the pooled mean weight on real tokens is the corpus's kept share of static's cells */
        {"01-rectangle", 4, "{pooling.mean_weight}", NULL, {PL_VIEW_POOLING, PL_VIEW_POOLING, PL_VIEW_POOLING}},
        /* the close-up's real tokens, with its cells, are the loss's fake targets */
        {"07-loss", 2, "{masks.real_tokens}", NULL, {PL_VIEW_MASKS, PL_VIEW_ATTENTION, PL_VIEW_MASKS}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        PlLessonRun *run;
        PlLesson *l;
        PlLab *lab = played(cases[i].lesson, cases[i].step, &run, &l);
        char fig[64], why[200], word[64];
        for (int v = 0; v < 3; v++) /* the figure may be a view's own */
            ck_assert_int_eq(
                pl_lab_wait(lab, pl_view_results(cases[i].views[v], pl_lab_settings(lab)), PL_TEST_PATIENCE), 0);
        ck_assert_int_eq(pl_fill_all(lab, NULL, cases[i].asked ? cases[i].asked : cases[i].complement_of, fig,
                                     sizeof fig, why, sizeof why),
                         0);
        if (cases[i].asked) snprintf(word, sizeof word, "%s", fig);
        else snprintf(word, sizeof word, "%.1f", 100.0 - strtod(fig, NULL));
        for (int v = 0; v < 3; v++)
            for (int json = 0; json < 2; json++) {
                PlView view = cases[i].views[v];
                ck_assert_int_eq(pl_lab_wait(lab, pl_view_results(view, pl_lab_settings(lab)), PL_TEST_PATIENCE), 0);
                char *text = without_rows(exported(lab, view, json));
                ck_assert_msg(!holds_number(text, word), "%s step %d: the %s view's %s export shows %s:\n%.3000s",
                              cases[i].lesson, cases[i].step + 1, pl_view_name(cases[i].views[v]),
                              json ? "JSON" : "text", word, text);
                free(text);
            }
        pl_lesson_run_free(run);
        pl_lab_free(lab);
        pl_lesson_free(l);
    }
    /* lesson 03 step 5 asks a batch's pad cells on a corpus of that one batch (0: too small a number to look
     * for): the corpus's real tokens and padding in the cost view are the batch's */
    char *text = exported_at("03-mask", 4, PL_VIEW_COST, 1);
    ck_assert_msg(strstr(text, "\"real_tokens\": null") && strstr(text, "\"padding_share\": null"), "%.3000s", text);
    free(text);
    /* lesson 10 step 5 asks the example's pads (6, too small a number to look for): the prompt the generate
     * view lists first is the example, and its pads are hidden there */
    text = exported_at("10-generation", 4, PL_VIEW_GENERATE, 0);
    const char *first = strstr(text, "prompt 0: review ");
    ck_assert_msg(first && strstr(first, ", ????? pads\n") && strstr(first, ", ????? pads\n") < strchr(first, '\n') + 1,
                  "%.1500s", text);
    free(text);
    /* lesson 10 step 7 asks the cache's pad slots: the loss's real targets on the same rows, one fewer than each
     * row's real tokens, give them with the rows and the width on show; the example's targets hidden, its
     * mean loss and its sum go with them (its sum over its mean is their count, and the rows' sums over the
     * per-token loss are the targets); so does the loss over batch x T (over the per-token loss: the targets'
     * share of the 4 x 9 cells), at either width, and its gradient. The per-token loss stays in sight */
    text = exported_at("10-generation", 6, PL_VIEW_LOSS, 0);
    ck_assert_msg(strstr(text, "join the ????? real ones") && strstr(text, "sum to ????? (mean ????\?)") &&
                      strstr(text, "  batch x T      ?????  ?????\n") && strstr(text, ", batch x T ?????\n") &&
                      strstr(text, "  per token      4.14532  0.247986\n"),
                  "%.1500s", text);
    free(text);
    /* ... and the four prompts are the corpus's one batch, padded to the longest as the cache is: its real
     * tokens with its 4 x 9 cells on show are the pad slots' complement */
    text = exported_at("10-generation", 6, PL_VIEW_BATCH, 0);
    ck_assert_msg(strstr(text, "real tokens ?????; positions the mask marks real ?????"), "%.3000s", text);
    free(text);
    /* lesson 07 step 1 asks the loss's fake pad targets: the static cache's empty slots are the same cells (its
     * rows are the loss's, 8 steps wider), and their share of its slots, on show, gives them; so does the train
     * view's identity batch, the same rows at the same width */
    text = exported_at("07-loss", 0, PL_VIEW_GENERATE, 1);
    const char *stat = strstr(text, "\"static_cache\"");
    ck_assert_msg(stat && strstr(stat, "\"pad_share\": null"), "%.3000s", text);
    free(text);
    text = exported_at("07-loss", 0, PL_VIEW_TRAIN, 1);
    ck_assert_msg(strstr(text, "\"pads\": null"), "%.2000s", text);
    free(text);
}
END_TEST

/* Every close-up is the example (the prompts' first too), so each view
 * that draws its real tokens, or packed, its width, gives its length or its
 * pads: lesson 08 step 8 asks the packed example's tokens (the close-up is
 * the example alone, every view's width), lesson 04 step 1 the rnn's pads
 * (the masks and generate views' row of the same review). */
START_TEST(test_every_close_up_hides_the_examples_length_when_asked) {
    static const struct {
        const char *lesson, *asked;
        int step, last; /* last: its last index too (the rnn's last real step, the loss's targets, a mask's run) */
    } cases[] = {{"08-batching", "{batch.example_kept}", 7, 1}, {"04-rnn", "{rnn.pads}", 0, 0}};
    static const PlView views[] = {PL_VIEW_ATTENTION, PL_VIEW_RNN,      PL_VIEW_POOLING, PL_VIEW_LOSS,
                                   PL_VIEW_LAYERS,    PL_VIEW_GENERATE, PL_VIEW_MASKS,   PL_VIEW_TRAIN};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        PlLessonRun *run;
        PlLesson *l;
        PlLab *lab = played(cases[i].lesson, cases[i].step, &run, &l);
        char fig[64], why[200];
        ck_assert_int_eq(pl_fill_all(lab, NULL, cases[i].asked, fig, sizeof fig, why, sizeof why), 0);
        ck_assert_int_ge(atoi(fig), 10); /* a number to look for: not a digit any row may hold */
        char kv[32];
        ck_assert_int_eq(pl_lab_wait(lab, pl_view_results(PL_VIEW_GENERATE, pl_lab_settings(lab)), PL_TEST_PATIENCE),
                         0);
        ck_assert_int_eq(pl_fill_all(lab, NULL, "{kvcache.steps}", kv, sizeof kv, why, sizeof why), 0);
        int steps = atoi(kv);
        for (size_t v = 0; v < sizeof views / sizeof views[0]; v++)
            for (int json = 0; json < 2; json++) {
                ck_assert_int_eq(pl_lab_wait(lab, pl_view_results(views[v], pl_lab_settings(lab)), PL_TEST_PATIENCE), 0);
                char *text = exported(lab, views[v], json);
                char last[16], square[24], slots[16]; /* packed, one row: its score cells and its cache's slots too */
                snprintf(last, sizeof last, "%d", atoi(fig) - 1);
                snprintf(square, sizeof square, "%d", atoi(fig) * atoi(fig));
                snprintf(slots, sizeof slots, "%d", atoi(fig) + steps);
                without_rows(text);
                const char *shown = number_at(text, fig);
                for (const char *also[] = {last, square, slots, NULL}, **a = also; cases[i].last && !shown && *a; a++)
                    shown = number_at(text, *a);
                ck_assert_msg(!shown, "%s step %d: the %s view's %s export shows %s (or %s, %s, %s): %.200s",
                              cases[i].lesson, cases[i].step + 1, pl_view_name(views[v]), json ? "JSON" : "text", fig,
                              last, square, slots, shown);
                free(text);
            }
        pl_lesson_run_free(run);
        pl_lab_free(lab);
        pl_lesson_free(l);
    }
}
END_TEST

/* Lesson 08 step 8 asks the packed example's tokens, and packed, every
 * view's width says them; on the steps before it the lab is not packed and
 * the widths are the batch's, another fact: they stay in sight there. */
START_TEST(test_the_close_ups_widths_hide_only_where_they_are_the_asked_length) {
    static const char *const widths[] = {"rnn.width",    "attention.width", "attention.padded_cells",
                                         "loss.batch_t", "kvcache.slots",   "loss.chat_width"};
    for (int at = 0; at < 2; at++) {
        PlLessonRun *run;
        PlLesson *l;
        PlLab *lab = played("08-batching", at ? 7 : 0, &run, &l);
        ck_assert_int_eq(pl_lab_settings(lab)->batching, at ? PL_BATCH_PACKED : PL_BATCH_DYNAMIC);
        for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++)
            ck_assert_msg(pl_ledger_hides_name(pl_lab_ledger(lab), widths[i]) == at, "step %d: %s %s", at ? 8 : 1,
                          widths[i], at ? "shown" : "hidden");
        pl_lesson_run_free(run);
        pl_lab_free(lab);
        pl_lesson_free(l);
    }
}
END_TEST

/* The cost view's headline is the selected strategy's row: lesson 08 step
 * 1 asks what dynamic padding saves (with dynamic selected), and the
 * headline's cells, shapes, RNN steps and attention cells, dynamic's own,
 * hide with the question in the text and JSON exports. */
START_TEST(test_the_cost_headline_hides_with_its_strategys_row) {
    PlLessonRun *run;
    PlLesson *l;
    PlLab *lab = played("08-batching", 0, &run, &l);
    ck_assert_int_eq(pl_lab_settings(lab)->batching, PL_BATCH_DYNAMIC);
    ck_assert_int_eq(pl_lab_wait(lab, pl_view_results(PL_VIEW_COST, pl_lab_settings(lab)), PL_TEST_PATIENCE), 0);
    char *text = exported(lab, PL_VIEW_COST, 0), *json = exported(lab, PL_VIEW_COST, 1);
    ck_assert_msg(strstr(text, "padding share    ????? of the ????? cells") && strstr(text, "batch shapes     ?????") &&
                      strstr(text, " real of ????? run"),
                  "%.1500s", text);
    ck_assert_msg(strstr(json, "\"shapes\": null") && strstr(json, "\"slots\": null") &&
                      strstr(json, "\"attention_cells\": null"),
                  "%.1500s", json);
    free(text), free(json);
    pl_lesson_run_free(run);
    pl_lab_free(lab);
    pl_lesson_free(l);
}
END_TEST

/* Lesson 5's step 5 asks how far the masked readout is from the state
 * after the last word (0: the state is carried). Its rnn export hides, on
 * every pad step, what walks to that answer: the distance, a step's change
 * (0 under the mask) and |h| (the same on every pad), and the carried |h|
 * beside the last real one; the hidden distance keeps the shape of any
 * other ("0" would be one ? where 0.5 is eight). */
START_TEST(test_an_rnn_export_hides_the_carry_on_every_pad_step) {
    char path[1200];
    const char *tests = getenv("PADLAB_TESTS");
    snprintf(path, sizeof path, "%s/../lessons/04-rnn.lesson", tests ? tests : "tests");
    PlErr err;
    PlLesson *l = pl_lesson_load(path, &err);
    ck_assert_msg(l != NULL, "%s", err.msg);
    PlLabSettings s = pl_settings_default();
    PlLab *lab = pl_lab_new(&s, &err);
    ck_assert_msg(lab != NULL, "%s", err.msg);
    PlLessonRun *r = pl_lesson_run_new(lab, l, 4, &err);
    ck_assert_msg(r != NULL, "%s", err.msg);
    ck_assert_int_eq(pl_lesson_run_wait(r), 0);
    ck_assert_str_eq(pl_lesson_run_step(r)->title, "The mask carries the state");
    pl_lesson_run_sync_ledger(r);
    char *text = NULL, *json = NULL;
    size_t n;
    FILE *f = open_memstream(&text, &n);
    ck_assert_int_eq(pl_lab_write_view(lab, PL_VIEW_RNN, 0, f, &err), PL_OK);
    fclose(f);
    f = open_memstream(&json, &n);
    ck_assert_int_eq(pl_lab_write_view(lab, PL_VIEW_RNN, 1, f, &err), PL_OK);
    fclose(f);
    int pads = 0;
    for (const char *line = strstr(text, "  pad  "); line; line = strstr(line + 1, "  pad  ")) {
        const char *end = strchr(line, '\n');
        ck_assert_msg(!memchr(line, '.', (size_t)(end - line)), "a pad step's figure shows: %.*s", (int)(end - line),
                      line);
        pads++;
    }
    ck_assert_int_gt(pads, 3);
    ck_assert_msg(strstr(text, "the state read out is ????? away") &&
                      strstr(text, "the carried state is ????? away") && strstr(text, "masked carry |h| ?????"),
                  "%.2000s", text);
    ck_assert_msg(strstr(json, "\"masked_carry_distance\": null") && strstr(json, "\"masked_carry_norm\": null"), "%s",
                  json);
    const char *change = strstr(json, "\"step_change\"");
    ck_assert_ptr_nonnull(change);
    int nulls = 0;
    for (const char *c = strstr(change, "null"); c && c < strchr(change, ']'); c = strstr(c + 4, "null")) nulls++;
    const char *tk = strstr(json, "\"T\": "), *lr = strstr(json, "\"last_real\": ");
    ck_assert(tk && lr);
    int T = atoi(tk + 5), last_real = atoi(lr + 13);
    ck_assert_msg(T > last_real + 1 && nulls == T - 1 - last_real, "%d of the %d pad steps' changes hidden", nulls,
                  T - 1 - last_real);
    free(text), free(json);
    pl_lesson_run_free(r);
    pl_lab_free(lab);
    pl_lesson_free(l);
}
END_TEST

/* Lesson 6's step 10 asks the median of the masked runs: the train export
 * hides them, and shows the unmasked runs whose median step 9 revealed
 * (another setting, another fact: a blanket over every run of training
 * blanked an answer already given). */
START_TEST(test_a_revealed_setting_s_runs_stay_while_another_is_asked) {
    char path[1200];
    const char *tests = getenv("PADLAB_TESTS");
    snprintf(path, sizeof path, "%s/../lessons/05-pooling.lesson", tests ? tests : "tests");
    PlErr err;
    PlLesson *l = pl_lesson_load(path, &err);
    ck_assert_msg(l != NULL, "%s", err.msg);
    PlLabSettings s = pl_settings_default();
    PlLab *lab = pl_lab_new(&s, &err);
    ck_assert_msg(lab != NULL, "%s", err.msg);
    PlLessonRun *r = pl_lesson_run_new(lab, l, 8, &err);
    ck_assert_msg(r != NULL, "%s", err.msg);
    ck_assert_int_eq(pl_lesson_run_wait(r), 0);
    ck_assert_str_eq(pl_lesson_run_step(r)->title, "Trained without the mask");
    PlLabGroup off;
    ck_assert(pl_lab_group_of(lab, pl_lab_settings(lab), &off));
    pl_lesson_run_reveal(r);
    ck_assert_int_ge(pl_lesson_run_goto(r, 9, &err), 0);
    ck_assert_int_eq(pl_lesson_run_wait(r), 0);
    ck_assert_str_eq(pl_lesson_run_step(r)->title, "Trained with the mask");
    PlLabGroup on;
    ck_assert(pl_lab_group_of(lab, pl_lab_settings(lab), &on));
    pl_lesson_run_sync_ledger(r);
    char *text = NULL, shown[64], hidden[64];
    size_t n;
    FILE *f = open_memstream(&text, &n);
    ck_assert_int_eq(pl_lab_write_view(lab, PL_VIEW_TRAIN, 0, f, &err), PL_OK);
    fclose(f);
    /* the groups table: runs, memorised, median, min, max */
    snprintf(shown, sizeof shown, "  %.4f  %.4f  %.4f", (double)off.median, (double)off.min, (double)off.max);
    snprintf(hidden, sizeof hidden, "  %.4f  %.4f  %.4f", (double)on.median, (double)on.min, (double)on.max);
    ck_assert_msg(strstr(text, shown) && (strcmp(shown, hidden) == 0 || !strstr(text, hidden)),
                  "mask off's runs '%s' shown, mask on's '%s' hidden:\n%s", shown, hidden, text);
    free(text);
    pl_lesson_run_free(r);
    pl_lab_free(lab);
    pl_lesson_free(l);
}
END_TEST

/* The train view's runs table row of group g: runs, memorised, median, min,
 * max (print_train.c's columns), as the text export prints them. */
static void group_row(const PlLabGroup *g, char *buf, size_t cap) {
    snprintf(buf, cap, "  %.4f  %.4f  %.4f", (double)g->median, (double)g->min, (double)g->max);
}

/* Lesson 08 step 10 asks the spread of static padding's runs at maxlen
 * 200; the dynamic runs trained at step 1 saw the same batches there (every
 * batch holds a review cut to 200 on builtin), so they are the same runs,
 * and their row hides with the question; answered, both show. */
START_TEST(test_runs_of_the_same_batches_hide_with_the_asked_runs) {
    PlLessonRun *run;
    PlLesson *l;
    PlErr err;
    PlLab *lab = played("08-batching", 0, &run, &l);
    PlLabSettings dynamic = *pl_lab_settings(lab);
    ck_assert_int_eq(dynamic.batching, PL_BATCH_DYNAMIC);
    ck_assert_int_ge(pl_lesson_run_goto(run, 9, &err), 0);
    ck_assert_int_eq(pl_lesson_run_wait(run), 0);
    ck_assert_int_eq(pl_lab_settings(lab)->batching, PL_BATCH_STATIC);
    PlLabGroup st, dy;
    ck_assert(pl_lab_group_of(lab, pl_lab_settings(lab), &st));
    ck_assert(pl_lab_group_of(lab, &dynamic, &dy));
    ck_assert_int_eq(st.n, 3);
    ck_assert_int_eq(dy.n, 3);
    ck_assert(st.min == dy.min && st.max == dy.max && st.median == dy.median); /* the same runs */
    char key[40], other[40], row[64];
    ck_assert_ptr_nonnull(pl_lab_batches_key(lab, pl_lab_settings(lab), key, sizeof key));
    ck_assert_ptr_nonnull(pl_lab_batches_key(lab, &dynamic, other, sizeof other));
    ck_assert_str_eq(key, other);
    group_row(&dy, row, sizeof row);
    for (int answered = 0; answered < 2; answered++) {
        if (answered) pl_lesson_run_reveal(run);
        pl_lesson_run_sync_ledger(run);
        char *text = exported(lab, PL_VIEW_TRAIN, 0);
        ck_assert_msg(!strstr(text, row) == !answered, "%s: dynamic's runs '%s' %s:\n%s",
                      answered ? "answered" : "asked", row, answered ? "hidden" : "shown", text);
        const char *at = strstr(text, "200  dynamic");
        int runs = 0; /* how many seeds ran is a setting: it stays */
        ck_assert_msg(at && sscanf(at, "%*d %*s %*d %*s %d", &runs) == 1 && runs == 3, "dynamic's runs:\n%s", text);
        free(text);
    }
    pl_lesson_run_free(run);
    pl_lab_free(lab);
    pl_lesson_free(l);
}
END_TEST

/* Dynamic batches as wide as static ones are the same cells: their padding
 * share is the lab's own figure and hides with it; a strategy with other
 * cells is another fact and stays. */
START_TEST(test_a_strategy_with_the_selected_ones_cells_is_hidden_with_it) {
    PlStrategyRow rows[3] = {{.kind = PL_BATCH_STATIC}, {.kind = PL_BATCH_DYNAMIC}, {.kind = PL_BATCH_GROUPED}};
    rows[0].cost.batches = rows[1].cost.batches = rows[2].cost.batches = 157;
    rows[0].cost.slots = rows[1].cost.slots = 1000000, rows[2].cost.slots = 772312;
    rows[0].tokens_cut = rows[1].tokens_cut = rows[2].tokens_cut = 388973;
    char q[160];
    ck_assert_str_eq(pl_report_row_names(q, sizeof q, "padding_share", rows, 3, 0, PL_BATCH_STATIC),
                     "cost.padding_share(static),cost.padding_share");
    ck_assert_str_eq(pl_report_row_names(q, sizeof q, "padding_share", rows, 3, 1, PL_BATCH_STATIC),
                     "cost.padding_share(dynamic),cost.padding_share");
    ck_assert_str_eq(pl_report_row_names(q, sizeof q, "padding_share", rows, 3, 2, PL_BATCH_STATIC),
                     "cost.padding_share(length_grouped)");
    ck_assert_str_eq(pl_report_row_names(q, sizeof q, "cells_saved", rows, 3, 1, -1), "cost.cells_saved(dynamic)");
    rows[1].tokens_cut = 1; /* the same cells, other tokens: not the same share */
    ck_assert_str_eq(pl_report_row_names(q, sizeof q, "padding_share", rows, 3, 1, PL_BATCH_STATIC),
                     "cost.padding_share(dynamic)");
    PlLedger l;
    pl_ledger_clear(&l);
    pl_ledger_hide(&l, "cost.padding_share");
    rows[1].tokens_cut = 388973;
    const char *names = pl_report_row_names(q, sizeof q, "padding_share", rows, 3, 1, PL_BATCH_STATIC);
    ck_assert(pl_ledger_hides(&l, names, strlen(names)));
    names = pl_report_row_names(q, sizeof q, "padding_share", rows, 3, 2, PL_BATCH_STATIC);
    ck_assert(!pl_ledger_hides(&l, names, strlen(names)));
    /* the same cells in other shapes (widths 10 and 20 against 15 and 15): its cells are the lab's, its shapes not */
    rows[0].cost.shapes = 2, rows[1].cost.shapes = 3;
    ck_assert_str_eq(pl_report_row_names(q, sizeof q, "cells", rows, 3, 1, PL_BATCH_STATIC),
                     "cost.cells(dynamic),cost.cells");
    ck_assert_str_eq(pl_report_row_names(q, sizeof q, "shapes", rows, 3, 1, PL_BATCH_STATIC), "cost.shapes(dynamic)");
    rows[1].cost.shapes = 2;
    ck_assert_str_eq(pl_report_row_names(q, sizeof q, "shapes", rows, 3, 1, PL_BATCH_STATIC),
                     "cost.shapes(dynamic),cost.shapes");
}
END_TEST

/* An array of floats is one line, each float in the fewest digits that read
 * back as itself: 0.1f as 0.1 (6 digits suffice), -0.000993448542f needs 9
 * (%.6g reads back as another float), the smallest subnormal 1.4013e-45 is
 * 6, FLT_MAX 3.40282347e+38 needs 9 (3.40282e+38 lies 3.5e32 off, past half
 * its float spacing of 2^104); NaN and infinity are null. Worked out by hand. */
START_TEST(test_a_float_array_is_one_line_in_the_fewest_exact_digits) {
    const float v[] = {0.1f, -0.000993448542f, 1.40129846e-45f, NAN, INFINITY, 3.40282347e38f, 0.0f, -0.0f, 0.5f};
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    ck_assert_ptr_nonnull(f);
    JsonW w;
    json_begin(&w, f);
    json_floats(&w, "v", v, (int)(sizeof v / sizeof v[0]));
    json_end(&w);
    fclose(f);
    ck_assert_str_eq(buf,
                     "{\n  \"v\": [0.1, -0.000993448542, 1.4013e-45, null, null, 3.40282347e+38, 0, -0, 0.5]\n}\n");
    free(buf);
}
END_TEST

Suite *export_suite(void) {
    Suite *s = suite_create("export");
    TCase *tc = tcase_create("files");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_exporting_twice_writes_the_first_and_second_files);
    tcase_add_test(tc, test_a_float_array_is_one_line_in_the_fewest_exact_digits);
    tcase_add_test(tc, test_an_export_never_overwrites_a_file);
    tcase_add_test(tc, test_a_view_without_a_result_says_so);
    tcase_add_test(tc, test_the_train_view_exports_its_runs_table);
    tcase_add_test(tc, test_a_read_only_folder_is_a_clean_error);
    tcase_add_test(tc, test_a_strategy_that_computes_more_is_never_called_a_saving);
    tcase_add_test(tc, test_every_result_a_view_shows_is_in_its_export);
    tcase_add_test(tc, test_the_packed_batch_view_exports_its_packing);
    tcase_add_test(tc, test_an_asked_tile_count_hides_its_rows_and_map);
    tcase_add_test(tc, test_a_stopped_grid_is_in_the_train_export);
    tcase_add_test(tc, test_the_train_export_has_each_runs_loss_curve_in_text);
    tcase_add_test(tc, test_an_export_hides_the_open_questions_figure);
    tcase_add_test(tc, test_an_rnn_export_hides_the_carry_on_every_pad_step);
    tcase_add_test(tc, test_another_views_words_for_the_asked_figure_are_hidden);
    tcase_add_test(tc, test_every_close_up_hides_the_examples_length_when_asked);
    tcase_add_test(tc, test_the_cost_headline_hides_with_its_strategys_row);
    tcase_add_test(tc, test_a_revealed_setting_s_runs_stay_while_another_is_asked);
    tcase_add_test(tc, test_runs_of_the_same_batches_hide_with_the_asked_runs);
    tcase_add_test(tc, test_the_close_ups_widths_hide_only_where_they_are_the_asked_length);
    tcase_add_test(tc, test_a_strategy_with_the_selected_ones_cells_is_hidden_with_it);
    suite_add_tcase(s, tc);
    return s;
}
