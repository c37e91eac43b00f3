/* The loss result: per-position token losses and three normalisations. */
#include "report.h"

#include <math.h>
#include <string.h>

/* n / of, NaN when of is 0. */
static double share(long n, long of) { return of ? (double)n / (double)of : (double)NAN; }

PlStatus pl_report_loss_json(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                             const PlReportOpts *o) {
    const PlProbeLoss *r = result;
    JsonW w;
    json_begin(&w, f);
    w.ledger = o->ledger;
    json_obj(&w, "summary");
    json_fig(&w, "per_token", "loss.per_token", (double)r->per_token);
    json_fig(&w, "per_sequence", "loss.per_sequence", (double)r->per_sequence);
    json_fig(&w, "batch_t", "loss.batch_t", (double)r->batch_t);
    json_fig_int(&w, "fake_terms", "loss.fake_terms", r->fake_terms);
    json_fig_int(&w, "real_terms", "loss.real_terms", r->real_terms);
    json_fig(&w, "grad_per_token", "loss.grad_per_token", (double)r->grad_per_token);
    json_fig(&w, "grad_per_sequence", "loss.grad_per_sequence", (double)r->grad_per_sequence);
    json_fig(&w, "grad_batch_t", "loss.grad_batch_t", (double)r->grad_batch_t);
    json_fig_int(&w, "wide_T", "loss.wide_width", r->wide_T);
    json_fig(&w, "per_token_wide", "loss.per_token_wide", (double)r->per_token_wide);
    json_fig(&w, "batch_t_wide", "loss.batch_t_wide", (double)r->batch_t_wide);
    json_fig(&w, "loss_with_pads", "loss.with_pads", (double)r->loss_with_pads);
    json_fig(&w, "loss_pad_perfect", "loss.pad_perfect", (double)r->loss_pad_perfect);
    json_fig_int(&w, "completion_tokens", "loss.completion_tokens", r->completion_tokens);
    json_fig(&w, "completion_share", "loss.completion_share", share(r->completion_tokens, r->chat_real));
    json_fig(&w, "completion_cell_share", "loss.completion_cell_share",
             share(r->completion_tokens, (long)r->chat_B * r->chat_T));
    json_fig(&w, "completion_loss", "loss.completion_loss", (double)r->completion_loss);
    json_fig(&w, "prompt_included_loss", "loss.prompt_included_loss", (double)r->prompt_included_loss);
    json_fig(&w, "prompt_gap", "loss.prompt_gap", (double)r->prompt_included_loss - (double)r->completion_loss);
    json_fig_int(&w, "prompt_terms", "loss.prompt_terms", r->prompt_terms);
    json_close(&w, '}');
    json_fig_int(&w, "B", "loss.rows", r->B);
    json_fig_int(&w, "T", "loss.width", r->T);
    json_int(&w, "classes", r->C);
    json_arr(&w, "rows");
    for (int b = 0; b < r->B; b++) {
        json_obj(&w, NULL);
        json_arr(&w, "targets");
        for (int t = 0; t < r->T; t++) json_int(&w, NULL, r->targets[(size_t)b * r->T + t]);
        json_close(&w, ']');
        pl_report_json_floats(&w, "terms", r->terms + (size_t)b * r->T, r->T);
        json_close(&w, '}');
    }
    json_close(&w, ']');
    /* the chat batch: its ids and labels tell the answer tokens by counting */
    int veiled = pl_ledger_hides_name(w.ledger, PL_LOSS_CHAT_COUNTS);
    json_obj(&w, "chat");
    json_fig_int(&w, "B", "loss.chat_rows", r->chat_B);
    json_fig_int(&w, "T", "loss.chat_width", r->chat_T);
    json_fig_int(&w, "system_words", "loss.chat_system", r->chat_system);
    json_fig_int(&w, "real_tokens", "loss.chat_real", r->chat_real);
    json_fig_int(&w, "prompt_tokens", "loss.chat_prompt_tokens", r->chat_real - r->completion_tokens);
    json_arr(&w, "rows");
    for (int b = 0; b < r->chat_B; b++) {
        size_t at = (size_t)b * r->chat_T;
        json_obj(&w, NULL);
        if (veiled) json_fig(&w, "ids", PL_LOSS_CHAT_COUNTS, 0.0), json_fig(&w, "labels", PL_LOSS_CHAT_COUNTS, 0.0);
        else {
            json_arr(&w, "ids");
            for (int t = 0; t < r->chat_T; t++) json_int(&w, NULL, r->chat_ids[at + t]);
            json_close(&w, ']');
            json_arr(&w, "labels");
            for (int t = 0; t < r->chat_T; t++) json_int(&w, NULL, r->chat_labels[at + t]);
            json_close(&w, ']');
        }
        pl_report_json_floats(&w, "terms", r->chat_terms + at, r->chat_T);
        json_close(&w, '}');
    }
    json_close(&w, ']');
    json_close(&w, '}');
    return pl_report_json_end(&w, PL_R_LOSS, c, info, o);
}

/* The counted targets of row b. */
static long row_count(const PlProbeLoss *r, int b) {
    long n = 0;
    for (int t = 0; t < r->T; t++) n += r->targets[(size_t)b * r->T + t] != -100;
    return n;
}

/* What row b's count is: the fewest targets of a row, or the most, or neither; row 0's is the example's (its
 * tokens but the first), into buf. */
static const char *count_names(const PlProbeLoss *r, int b, char *buf, size_t cap) {
    long n = row_count(r, b), lo = n, hi = n;
    for (int i = 0; i < r->B; i++) lo = row_count(r, i) < lo ? row_count(r, i) : lo, hi = row_count(r, i) > hi ? row_count(r, i) : hi;
    snprintf(buf, cap, "%s%s%s",
             n == lo   ? "loss.shortest_targets"
             : n == hi ? "loss.longest_targets"
                       : "",
             b == 0 && (n == lo || n == hi) ? "," : "", b == 0 ? "loss.example_targets" : "");
    return buf;
}

/* Whether padding wider left the per-token loss as it was (to float rounding). */
int pl_report_loss_unchanged(const PlProbeLoss *r) {
    double a = (double)r->per_token, b = (double)r->per_token_wide;
    return fabs(a - b) <= 1e-6 * (1.0 + fabs(a));
}

/* Row b's chat layout: its prompt, answer and pad tokens. */
static void chat_row(const PlProbeLoss *r, int b, int *prompt, int *answer, int *pads) {
    size_t at = (size_t)b * r->chat_T;
    int real = 0;
    *answer = 0;
    for (int t = 0; t < r->chat_T; t++) {
        *answer += r->chat_labels[at + t] != PL_IGNORE_INDEX;
        real = r->chat_ids[at + t] != 0 ? t + 1 : real; /* pads follow the last real token (ids 0) */
    }
    *prompt = real - *answer, *pads = r->chat_T - real;
}

int pl_report_loss_reads_chats(const PlLab *lab) {
    return pl_lab_reads(lab, "loss.chat_") || pl_lab_reads(lab, "loss.completion") || pl_lab_reads(lab, "loss.prompt_");
}

const char *pl_report_loss_labels(char *buf, size_t cap, const PlProbeLoss *r, int b) {
    int prompt, answer, pads;
    chat_row(r, b, &prompt, &answer, &pads);
    const int32_t *lab = r->chat_labels + (size_t)b * r->chat_T + prompt;
    char ids[80] = "";
    size_t o = 0;
    for (int k = 0; k < answer && o < sizeof ids; k++) {
        if (answer > 4 && k == 3) o += (size_t)snprintf(ids + o, sizeof ids - o, " ..."), k = answer - 1;
        if (o < sizeof ids) o += (size_t)snprintf(ids + o, sizeof ids - o, "%s%d", k ? " " : "", lab[k]);
    }
    char plain[160];
    int n = snprintf(plain, sizeof plain, "-100 x%d | %s |", prompt, answer ? ids : "(none)");
    if (n > 0 && (size_t)n < sizeof plain)
        snprintf(plain + n, sizeof plain - (size_t)n, pads ? " -100 x%d" : " no pad", pads);
    return pl_fig(buf, cap, PL_LOSS_CHAT_COUNTS, "%s", plain);
}

/* The chat batch and its two losses, as padlab probe loss prints them. */
static void chat_text(FILE *f, const PlProbeLoss *r, const PlResultInfo *info, const PlLedger *l) {
    fputs("\ncompletion-only loss on the same rows as chats: <start> system <start> user <start> answer,\n"
          "the system prompt ",
          f);
    pl_fig_fprintf(f, l, "loss.chat_system", "%d", r->chat_system);
    fputs(" words of the first review, the user turn each review but its last quarter,\n"
          "the answer that quarter; labels -100 on every prompt token and pad\n",
          f);
    fputs("  ", f), pl_fig_fprintf(f, l, "loss.chat_rows", "%d", r->chat_B);
    fputs(" rows of width ", f), pl_fig_fprintf(f, l, "loss.chat_width", "%d", r->chat_T);
    fputs(", ", f), pl_fig_fprintf(f, l, "loss.chat_real", "%ld", r->chat_real);
    fputs(" real tokens\n", f);
    for (int b = 0; b < r->chat_B; b++) {
        char buf[256];
        fprintf(f, "  row %d (review %d) labels: ", b, b < info->nrows ? info->rows[b] : -1);
        pl_ledger_fputs(l, pl_report_loss_labels(buf, sizeof buf, r, b), PL_DRAW_TEXT, f);
        fputc('\n', f);
    }
    fputs("  trained on ", f), pl_fig_fprintf(f, l, "loss.completion_tokens", "%ld", r->completion_tokens);
    fputs(" answer tokens: ", f);
    pl_fig_fprintf(f, l, "loss.completion_share", "%.1f%%", 100.0 * share(r->completion_tokens, r->chat_real));
    fputs(" of the real tokens, ", f);
    pl_fig_fprintf(f, l, "loss.completion_cell_share", "%.1f%%",
                   100.0 * share(r->completion_tokens, (long)r->chat_B * r->chat_T));
    fputs(" of the cells\n  answer only, prompt at -100    ", f);
    pl_fig_fprintf(f, l, "loss.completion_loss", "%.5f", (double)r->completion_loss);
    fputs("\n  prompt counted too (", f), pl_fig_fprintf(f, l, "loss.prompt_terms", "%ld", r->prompt_terms);
    fputs(" terms) ", f);
    pl_fig_fprintf(f, l, "loss.prompt_included_loss", "%.5f", (double)r->prompt_included_loss);
    fputs(", ", f);
    pl_fig_fprintf(f, l, "loss.prompt_gap", "%+.5f", (double)r->prompt_included_loss - (double)r->completion_loss);
    fputs(" against the answer only\n", f);
}

PlStatus pl_report_loss_text(FILE *f, const PlCorpus *c, const void *result, const PlResultInfo *info,
                             const PlReportOpts *o) {
    const PlProbeLoss *r = result;
    const PlLedger *l = o->ledger;
    pl_report_header(f, PL_R_LOSS, c, info, o);
    fputs("next-token cross-entropy over a batch of ", f), pl_fig_fprintf(f, l, "loss.rows", "%d", r->B);
    fputs(" rows of width ", f), pl_fig_fprintf(f, l, "loss.width", "%d", r->T);
    fprintf(f, " (%d classes), pads at -100\n\n", r->C);
    for (int b = 0; b < r->B; b++) {
        long n = 0;
        double s = 0.0;
        for (int t = 0; t < r->T; t++) {
            size_t i = (size_t)b * r->T + t;
            if (r->targets[i] == -100) continue;
            n++;
            s += (double)r->terms[i];
        }
        fprintf(f, "  row %d (review %d): ", b, b < info->nrows ? info->rows[b] : -1);
        char names[96];
        pl_fig_fprintf(f, l, count_names(r, b, names, sizeof names), "%ld", n);
        /* sum over mean is the count, and the rows' sums over the per-token loss are the targets: a
         * hidden count hides its row's sum and mean */
        fputs(" positions count, their losses sum to ", f), pl_fig_fprintf(f, l, names, "%.4f", s);
        fputs(" (mean ", f), pl_fig_fprintf(f, l, names, "%.4f", n ? s / (double)n : 0.0), fputs(")\n", f);
    }
    fprintf(f, "\n  normalisation   loss     |gradient|\n");
    fputs("  per token      ", f), pl_fig_fprintf(f, l, "loss.per_token", "%.5f", (double)r->per_token);
    fputs("  ", f), pl_fig_fprintf(f, l, "loss.grad_per_token", "%.6f", (double)r->grad_per_token);
    fputs("\n  per sequence   ", f), pl_fig_fprintf(f, l, "loss.per_sequence", "%.5f", (double)r->per_sequence);
    fputs("  ", f), pl_fig_fprintf(f, l, "loss.grad_per_sequence", "%.6f", (double)r->grad_per_sequence);
    fputs("\n  batch x T      ", f), pl_fig_fprintf(f, l, "loss.batch_t", "%.5f", (double)r->batch_t);
    fputs("  ", f), pl_fig_fprintf(f, l, "loss.grad_batch_t", "%.6f", (double)r->grad_batch_t);
    fputs("\n\npadded to ", f), pl_fig_fprintf(f, l, "loss.wide_width", "%d", r->wide_T);
    fputs(" instead of ", f), pl_fig_fprintf(f, l, "loss.width", "%d", r->T), fputs(": per token ", f);
    pl_fig_fprintf(f, l, "loss.per_token_wide", "%.5f", (double)r->per_token_wide);
    pl_fig_fprintf(f, l, "loss.per_token_wide,loss.per_token", " (%s)",
                   pl_report_loss_unchanged(r) ? "unchanged" : "changed: the model reads the pads in front of the real tokens");
    fputs(", batch x T ", f), pl_fig_fprintf(f, l, "loss.batch_t_wide", "%.5f", (double)r->batch_t_wide);
    fputs("\nwithout ignore_index: ", f), pl_fig_fprintf(f, l, "loss.fake_terms", "%ld", r->fake_terms);
    fputs(" fake pad targets join the ", f), pl_fig_fprintf(f, l, "loss.real_terms", "%ld", r->real_terms);
    fputs(" real ones; the per-token loss reads ", f);
    pl_fig_fprintf(f, l, "loss.with_pads", "%.5f", (double)r->loss_with_pads);
    fputs(",\nand a model that learned to predict pad would read ", f);
    pl_fig_fprintf(f, l, "loss.pad_perfect", "%.5f", (double)r->loss_pad_perfect);
    fputs(" without being any better at the real ones\n", f);
    chat_text(f, r, info, l);
    return pl_report_status(f);
}
