/* padlab stats: length statistics of a corpus and what each maxlen costs. */
#include <stdio.h>
#include <stdlib.h>

#include "app/report/report.h"
#include "cli.h"
#include "core/chance.h"
#include "core/stats.h"
#include "core/train.h"

static int count_positive(const PlCorpus *c) {
    int pos = 0;
    for (int i = 0; i < c->n; i++) pos += c->labels[i];
    return pos;
}

static void print_json(const PlCorpus *c, const PlLengthSummary *s, const PlMaxlenRow *rows, const int *maxlens,
                       int nmax) {
    JsonW w;
    json_begin(&w, stdout);
    json_str(&w, "corpus", c->source);
    json_int(&w, "sequences", c->n);
    json_int(&w, "positive", count_positive(c));
    json_int(&w, "vocabulary", c->vocab_size - PL_FIRST_WORD_ID);
    PlChance ch = pl_chance_of(c, PL_VAL_SPLIT);
    pl_report_json_chance(&w, &ch);
    json_obj(&w, "lengths");
    json_int(&w, "min", s->min);
    json_num(&w, "median", s->median);
    json_num(&w, "mean", s->mean);
    json_num(&w, "p95", s->p95);
    json_int(&w, "max", s->max);
    json_close(&w, '}');
    json_arr(&w, "maxlen");
    for (int i = 0; i < nmax; i++) {
        json_obj(&w, NULL);
        json_int(&w, "maxlen", rows[i].maxlen);
        if (maxlens[i] == PL_MAXLEN_NONE) json_bool(&w, "none", 1); /* the longest review's width: nothing cut */
        json_num(&w, "padding_share", rows[i].padding_share);
        json_num(&w, "kept_share", rows[i].kept_share);
        json_num(&w, "rows_truncated", rows[i].rows_truncated);
        json_close(&w, '}');
    }
    json_close(&w, ']');
    json_end(&w);
}

static void print_summary(const PlCorpus *c, const PlLengthSummary *s) {
    int pos = count_positive(c);
    printf("corpus     %s\n", c->source);
    printf("sequences  %d (%d positive, %d negative)\n", c->n, pos, c->n - pos);
    PlChance ch = pl_chance_of(c, PL_VAL_SPLIT);
    printf("chance     %.3f: the last %d reviews validate, %d of them %s (every accuracy is read against it)\n",
           ch.share, ch.n_val, ch.count, pl_label_name(ch.label));
    printf("vocabulary %d words, ids kept below %d\n", c->vocab_size - PL_FIRST_WORD_ID, c->num_words);
    printf("lengths    min %d, median %g, mean %.1f, p95 %g, max %d (start token included)\n", s->min, s->median,
           s->mean, s->p95, s->max);
}

static const char *const stats_head[] = {"maxlen", "padding_share", "kept_share", "rows_truncated"};

/* maxlens may hold PL_MAXLEN_NONE: the corpus's longest review, nothing cut. */
int cli_print_stats(const PlCorpus *c, const int *maxlens, int nmax, OutFormat fmt) {
    int *len = cli_lengths(c);
    PlMaxlenRow *rows = malloc((size_t)nmax * sizeof *rows);
    PlLengthSummary s;
    PlErr err;
    if (!len || !rows || pl_length_summary(len, c->n, &s, &err)) {
        free(len);
        free(rows);
        fprintf(stderr, "padlab stats: out of memory while summarising the lengths\n");
        return 1;
    }
    for (int i = 0; i < nmax; i++) pl_maxlen_row(len, c->n, pl_maxlen_of(maxlens[i], pl_corpus_longest(c)), &rows[i]);
    if (fmt == OUT_JSON) {
        print_json(c, &s, rows, maxlens, nmax);
    } else {
        OutTable t;
        out_table_init(&t, 4, stats_head);
        for (int i = 0; i < nmax; i++) {
            if (maxlens[i] == PL_MAXLEN_NONE && fmt == OUT_TABLE) out_table_cell(&t, "none (%d)", rows[i].maxlen);
            else out_table_cell(&t, "%d", rows[i].maxlen);
            out_table_cell(&t, "%.4f", rows[i].padding_share);
            out_table_cell(&t, "%.4f", rows[i].kept_share);
            out_table_cell(&t, "%.4f", rows[i].rows_truncated);
        }
        if (fmt == OUT_TABLE) {
            print_summary(c, &s);
            printf("\nevery sequence padded or truncated to maxlen:\n");
        }
        int bad = out_table_print(&t, stdout, fmt, fmt == OUT_TABLE ? 2 : 0);
        out_table_done(&t);
        if (bad) {
            free(len);
            free(rows);
            fprintf(stderr, "padlab stats: out of memory while building the table\n");
            return 1;
        }
    }
    free(len);
    free(rows);
    return 0;
}

static int run(const CliArgs *a) {
    int maxlens[32], nmax;
    OutFormat fmt;
    if (cli_maxlen_list(a, "50,100,200,400,800", 1, 10000000, NULL, maxlens, 32, &nmax) || cli_format(a, &fmt))
        return 2;
    PlCorpus *c;
    int rc = cli_load_corpus(a, &c);
    if (rc) return rc;
    rc = cli_print_stats(c, maxlens, nmax, fmt);
    pl_corpus_free(c);
    return rc;
}

static const CliOpt opts[] = {
    CLI_OPT_CORPUS,
    {"maxlen", "N,N,...", "maxlens to cost, none for the longest review (default 50,100,200,400,800)"},
    CLI_OPT_FORMAT,
    {NULL, NULL, NULL},
};

const CliCommand cli_cmd_stats = {
    .name = "stats",
    .summary = "length statistics and the cost of each maxlen",
    .usage = "[--corpus SRC] [--maxlen 50,100,200,400,800] [--format table|csv|json]",
    .details = "Prints the corpus's length distribution (start token included; percentiles\n"
               "interpolate linearly) and, for each maxlen, the share of padded cells, the\n"
               "share of tokens kept and the share of rows truncated.",
    .opts = opts,
    .settings = CLI_CORPUS,
    .max_pos = 0,
    .run = run,
};
