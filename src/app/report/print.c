/* What every printer shares: the line that says where a result came from,
 * its JSON twin, and the JSON arrays of floats. */
#include <stdio.h>
#include <string.h>

#include "report.h"

PlStatus pl_report_status(FILE *f) { return ferror(f) ? PL_EIO : PL_OK; }

int pl_report_columns(const PlReportOpts *o) { return o->full ? 0 : o->columns; }

/* Whether a kind draws fresh weights from the seed (or reads a model). */
static int seeded(PlResultKind k) { return (pl_result_deps(k) & PL_S_BIT(PL_S_SEED)) != 0; }

int pl_report_trained(const PlResultInfo *info, const PlReportOpts *o) {
    return o->weights != NULL || info->weights_run > 0;
}

const char *pl_report_weights(const PlResultInfo *info, const PlReportOpts *o, char *buf, int cap) {
    const char *arch = pl_arch_name((PlArch)info->weights_arch);
    if (o->weights) snprintf(buf, (size_t)cap, "the weights in %s (%s)", o->weights, arch);
    else if (info->weights_run > 0)
        snprintf(buf, (size_t)cap, "the weights of run %d (%s, seed %d)", info->weights_run, arch, info->weights_seed);
    else if (info->unread_run > 0) /* a trained model is there: say why this result does not read it */
        snprintf(buf, (size_t)cap, "fresh %s from seed %d: run %d's %s %s", pl_result_fresh(info->kind),
                 info->settings.seed, info->unread_run, pl_arch_name((PlArch)info->unread_arch),
                 pl_result_lacks(info->kind));
    else snprintf(buf, (size_t)cap, "fresh weights from seed %d", info->settings.seed);
    return buf;
}

/* Appends to buf, never past cap. */
#define ADD(...)                                                \
    do {                                                        \
        n += snprintf(buf + n, (size_t)(cap - n), __VA_ARGS__); \
        if (n > cap - 1) n = cap - 1;                           \
    } while (0)

const char *pl_report_source(PlResultKind k, const PlCorpus *c, const PlResultInfo *in, const PlReportOpts *o,
                             char *buf, int cap) {
    const PlLabSettings *s = &in->settings;
    const char *strategy = pl_batching_name((PlBatching)s->batching);
    PlLook look = pl_result_look(k);
    int n = 0, why_first = seeded(k) && in->unread_run > 0; /* the reason leads, where a narrow line keeps it */
    char w[600];
    buf[0] = '\0';
    if (why_first) ADD("%s; ", pl_report_weights(in, o, w, sizeof w));
    if (look == PL_LOOK_CORPUS) {
        char cut[160];
        ADD("the whole corpus (%d reviews) in batches of %d, %s, %s", c->n, s->batch,
            pl_maxlen_cut_text(s->maxlen, in->longest, cut, sizeof cut), strategy);
        return buf;
    }
    if (o->rows_given && in->packed)
        ADD("the rows given, %d reviews packed in one row of %d tokens", in->batch_rows, in->width);
    else if (o->rows_given)
        ADD("the rows given as one batch: %d row%s x %d (%s)", in->batch_rows, in->batch_rows == 1 ? "" : "s", in->width,
            strategy);
    else if (in->packed)
        ADD("batch %d of %d: %d reviews packed in one row of %d tokens", in->batch_index + 1, in->batches,
            in->batch_rows, in->width);
    else
        ADD("batch %d of %d: %s x %s (%s)", in->batch_index + 1, in->batches,
            PL_FIG("batch.rows", "%d row%s", in->batch_rows, in->batch_rows == 1 ? "" : "s"),
            PL_FIG("batch.width", "%d", in->width), strategy);
    if (look == PL_LOOK_BATCH) ADD(", holding example %d", in->rows[0]);
    if (look == PL_LOOK_EXAMPLE || look == PL_LOOK_FOCUS) {
        if (in->packed)
            ADD("; close-up: example %d alone, its %s tokens (packed: no pads)", in->rows[0],
                PL_FIG("batch.close_up_width", "%d", in->focus_width));
        else if (look == PL_LOOK_FOCUS && in->nrows > 1) {
            ADD("; close-up: example %d and batch-mate%s", in->rows[0], in->nrows > 2 ? "s" : "");
            for (int i = 1; i < in->nrows; i++) ADD("%s %d", i > 1 ? "," : "", in->rows[i]);
            ADD(" at width %s", PL_FIG("batch.close_up_width", "%d", in->focus_width));
        } else ADD("; close-up: example %d at width %s", in->rows[0], PL_FIG("batch.close_up_width", "%d", in->focus_width));
    }
    if (seeded(k) && !why_first) ADD("; %s", pl_report_weights(in, o, w, sizeof w));
    return buf;
}

void pl_report_header(FILE *f, PlResultKind k, const PlCorpus *c, const PlResultInfo *info, const PlReportOpts *o) {
    char buf[1200];
    pl_ledger_fputs(o->ledger, pl_report_source(k, c, info, o, buf, sizeof buf), PL_DRAW_TEXT, f); /* its figures marked */
    fputc('\n', f);
    if (o->settings_line) {
        unsigned deps = pl_result_deps(k);
        fprintf(f, "settings:");
        for (int id = 0, first = 1; id < PL_S_COUNT; id++) {
            if (!(deps & PL_S_BIT(id))) continue;
            char v[600];
            if (id == PL_S_MAXLEN) pl_maxlen_text(info->settings.maxlen, info->longest, v, sizeof v);
            else pl_setting_format(&info->settings, (PlSettingId)id, v, sizeof v);
            fprintf(f, "%s %s %s", first ? "" : ",", pl_settings[id].name, v);
            first = 0;
        }
        fputc('\n', f);
    }
    fputc('\n', f);
}

static void json_weights(JsonW *w, const PlResultInfo *in, const PlReportOpts *o) {
    json_obj(w, "weights");
    if (o->weights) {
        json_str(w, "from", "file");
        json_str(w, "file", o->weights);
        json_str(w, "arch", pl_arch_name((PlArch)in->weights_arch));
    } else if (in->weights_run > 0) {
        json_str(w, "from", "run");
        json_int(w, "run", in->weights_run);
        json_int(w, "seed", in->weights_seed);
        json_str(w, "arch", pl_arch_name((PlArch)in->weights_arch));
    } else {
        json_str(w, "from", "seed");
        json_int(w, "seed", in->settings.seed);
        if (in->unread_run > 0) { /* the lab's trained model, which this result cannot read */
            json_obj(w, "not_read");
            json_int(w, "run", in->unread_run);
            json_int(w, "seed", in->unread_seed);
            json_str(w, "arch", pl_arch_name((PlArch)in->unread_arch));
            json_str(w, "why", pl_result_lacks(in->kind));
            json_close(w, '}');
        }
    }
    json_close(w, '}');
}

PlStatus pl_report_json_end(JsonW *w, PlResultKind k, const PlCorpus *c, const PlResultInfo *in,
                            const PlReportOpts *o) {
    unsigned deps = pl_result_deps(k);
    json_obj(w, "settings");
    for (int id = 0; id < PL_S_COUNT; id++) {
        if (!(deps & PL_S_BIT(id))) continue;
        char v[600];
        pl_setting_format(&in->settings, (PlSettingId)id, v, sizeof v);
        if (pl_setting_is_number(&in->settings, (PlSettingId)id))
            json_int(w, pl_settings[id].name, pl_setting_get(&in->settings, (PlSettingId)id));
        else json_str(w, pl_settings[id].name, v);
    }
    json_close(w, '}');
    json_obj(w, "source");
    if (in->settings.maxlen == PL_MAXLEN_NONE) json_int(w, "longest", in->longest); /* what none stood for */
    PlLook look = pl_result_look(k);
    if (look == PL_LOOK_CORPUS) {
        json_int(w, "reviews", c->n);
    } else {
        json_int(w, "batch_index", in->batch_index);
        json_int(w, "batches", in->batches);
        json_int(w, "batch_rows", in->batch_rows);
        json_int(w, "width", in->width);
        json_str(w, "strategy", pl_batching_name((PlBatching)in->settings.batching));
        json_bool(w, "packed", in->packed);
        json_bool(w, "rows_given", o->rows_given);
    }
    if (look == PL_LOOK_EXAMPLE || look == PL_LOOK_FOCUS) {
        int rows = look == PL_LOOK_EXAMPLE || in->packed ? 1 : in->nrows;
        json_arr(w, "close_up");
        for (int i = 0; i < rows; i++) json_int(w, NULL, in->rows[i]);
        json_close(w, ']');
        json_fig_int(w, "close_up_width", "batch.close_up_width", in->focus_width);
    }
    if (seeded(k)) json_weights(w, in, o);
    json_close(w, '}');
    json_end(w);
    return pl_report_status(w->f);
}

void pl_report_json_floats(JsonW *w, const char *key, const float *v, int n) { json_floats(w, key, v, n); }

void pl_report_json_matrix(JsonW *w, const char *key, const float *m, int rows, int cols) {
    json_arr(w, key);
    for (int i = 0; i < rows; i++) pl_report_json_floats(w, NULL, m + (size_t)i * cols, cols);
    json_close(w, ']');
}

void pl_report_json_ints(JsonW *w, const char *key, const int32_t *v, int n) {
    json_arr(w, key);
    for (int i = 0; i < n; i++) json_int(w, NULL, v[i]);
    json_close(w, ']');
}

void pl_report_json_int_matrix(JsonW *w, const char *key, const int32_t *m, int rows, int cols) {
    json_arr(w, key);
    for (int i = 0; i < rows; i++) pl_report_json_ints(w, NULL, m + (size_t)i * cols, cols);
    json_close(w, ']');
}

void pl_report_json_byte_matrix(JsonW *w, const char *key, const uint8_t *m, int rows, int cols) {
    json_arr(w, key);
    for (int i = 0; i < rows; i++) {
        json_arr(w, NULL);
        for (int t = 0; t < cols; t++) json_int(w, NULL, m[(size_t)i * cols + t]);
        json_close(w, ']');
    }
    json_close(w, ']');
}

int pl_report_int_row(FILE *f, const char *label, const int32_t *v, int n, const PlReportOpts *o) {
    OutRow row;
    out_row_init(&row);
    for (int t = 0; t < n; t++) out_row_cell(&row, "%4d", v[t]);
    int left_out = out_row_print(&row, f, label, pl_report_columns(o));
    out_row_done(&row);
    return left_out < 0 ? -1 : 0;
}

void pl_report_prompt_line(FILE *f, const PlCorpus *c, const PlResultInfo *info, const PlReportOpts *o,
                           const char *probe, int b, int len, int T) {
    char kept[64] = "", pads[64] = ""; /* the close-up rows come the example first: its figures, in this batch */
    if (b == 0)
        snprintf(kept, sizeof kept, "%s.example_kept", probe), snprintf(pads, sizeof pads, "%s.example_pads", probe);
    int review = b < info->nrows ? info->rows[b] : -1, whole = review >= 0 ? pl_corpus_len(c, review) : len;
    fprintf(f, "  prompt %d: review %d, ", b, review);
    pl_fig_fprintf(f, o->ledger, kept, "%d", len), fprintf(f, " token%s", len == 1 ? "" : "s");
    if (whole > len) /* the example's whole review */
        fputs(" (cut from ", f), pl_fig_fprintf(f, o->ledger, b == 0 ? "batch.example_tokens" : "", "%d", whole),
            fputc(')', f);
    fputs(", ", f), pl_fig_fprintf(f, o->ledger, pads, "%d", T - len);
    fprintf(f, " pad%s\n", T - len == 1 ? "" : "s");
}
