/* padlab pad: Keras pad_sequences on integer sequences read one per line. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "core/mask.h"
#include "core/pad.h"

typedef struct {
    int32_t *ids; /* all tokens back to back */
    int *len;     /* (n) */
    size_t nids, capids;
    int n, cap;
} Seqs;

static void seqs_free(Seqs *s) {
    free(s->ids);
    free(s->len);
}

static int push_int(Seqs *s, int32_t v) {
    if (s->nids == s->capids) {
        size_t cap = s->capids ? s->capids * 2 : 1024;
        int32_t *ids = realloc(s->ids, cap * sizeof *ids);
        if (!ids) return -1;
        s->ids = ids;
        s->capids = cap;
    }
    s->ids[s->nids++] = v;
    return 0;
}

static int push_len(Seqs *s, int len) {
    if (s->n == s->cap) {
        int cap = s->cap ? s->cap * 2 : 256;
        int *l = realloc(s->len, (size_t)cap * sizeof *l);
        if (!l) return -1;
        s->len = l;
        s->cap = cap;
    }
    s->len[s->n++] = len;
    return 0;
}

/* Parses one line of space-separated integers. Returns 0, 2 on bad input. */
static int parse_line(const CliArgs *a, Seqs *s, char *line, const char *name, long line_no) {
    int len = 0;
    char *save = NULL;
    for (char *tok = strtok_r(line, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
        char *end;
        errno = 0;
        long v = strtol(tok, &end, 10);
        if (*end != '\0' || errno || v < INT32_MIN || v > INT32_MAX)
            return cli_usage_error(a, "%s:%ld: expected integers separated by spaces, got '%.24s'", name, line_no, tok);
        if (push_int(s, (int32_t)v)) return cli_no_memory(a, "reading the sequences");
        len++;
    }
    if (push_len(s, len)) return cli_no_memory(a, "reading the sequences");
    return 0;
}

static int read_seqs(const CliArgs *a, FILE *f, const char *name, Seqs *s) {
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    long line_no = 0;
    int rc = 0;
    while (rc == 0 && (got = getline(&line, &cap, f)) >= 0) {
        line_no++;
        if (memchr(line, '\0', (size_t)got)) rc = cli_usage_error(a, "%s:%ld: contains a NUL byte", name, line_no);
        else rc = parse_line(a, s, line, name, line_no);
    }
    /* getline's end and its failure look alike: a folder, a read error, or
     * no memory for a longer line (which sets neither feof nor ferror). */
    int err = errno;
    if (rc == 0 && !ferror(f) && !feof(f))
        rc = err == ENOMEM ? cli_no_memory(a, "reading a line")
                           : cli_usage_error(a, "%s: cannot read: %s", name, strerror(err));
    else if (rc == 0 && ferror(f)) rc = cli_usage_error(a, "%s: cannot read: %s", name, strerror(err));
    free(line);
    return rc;
}

static void print_row(const int32_t *row, const uint8_t *mask, int T, int as_mask, PlMaskConv conv) {
    for (int t = 0; t < T; t++) {
        if (t) putchar(' ');
        if (!as_mask) printf("%d", row[t]);
        else if (conv == PL_MASK_ADDITIVE) fputs(mask[t] ? "0" : "-inf", stdout);
        else putchar('0' + mask[t]);
    }
    putchar('\n');
}

/* Prints the padded rows, then (with_mask) the mask rows. Returns 0, or 1 when
 * a row of width T cannot be allocated. */
static int print_rows(const Seqs *s, int T, const PlPadOpts *o, int with_mask, PlMaskConv conv) {
    int32_t *row = malloc(((size_t)T + 1) * sizeof *row);
    uint8_t *mask = malloc((size_t)T + 1), *shown = malloc((size_t)T + 1);
    if (!row || !mask || !shown) {
        free(row);
        free(mask);
        free(shown);
        fprintf(stderr, "padlab pad: out of memory for rows of width %d\n", T);
        return 1;
    }
    for (int pass = 0; pass <= with_mask; pass++) {
        if (pass) puts("mask");
        size_t at = 0;
        for (int i = 0; i < s->n; i++) {
            pl_pad_row(row, mask, s->len[i] ? s->ids + at : NULL, s->len[i], T, o);
            at += (size_t)s->len[i];
            pl_mask_bool(shown, mask, (size_t)T, conv);
            print_row(row, shown, T, pass, conv);
        }
    }
    free(row);
    free(mask);
    free(shown);
    return 0;
}

static int run(const CliArgs *a) {
    int maxlen, value, pad, trunc, conv = 0;
    if (cli_int(a, "maxlen", 0, 1, 100000000, &maxlen) || cli_int(a, "value", 0, INT32_MIN, INT32_MAX, &value) ||
        cli_choice(a, "padding", "pre", pl_side_names, &pad) ||
        cli_choice(a, "truncating", "pre", pl_side_names, &trunc) ||
        (cli_flag(a, "mask") && cli_choice(a, "mask", "keras", pl_mask_conv_names, &conv)))
        return 2;
    const char *name = a->npos ? a->pos[0] : "-";
    FILE *f = strcmp(name, "-") == 0 ? stdin : fopen(name, "r");
    if (!f) return cli_usage_error(a, "%s: cannot open: %s", name, strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        if (f != stdin) fclose(f);
        return cli_usage_error(a, "%s: a folder, not a file of sequences", name);
    }
    Seqs s = {0};
    int rc = read_seqs(a, f, strcmp(name, "-") == 0 ? "<stdin>" : name, &s);
    if (f != stdin) fclose(f);
    if (rc == 0) {
        int T = maxlen;
        if (T == 0)
            for (int i = 0; i < s.n; i++) T = s.len[i] > T ? s.len[i] : T;
        PlPadOpts o = {T, (PlSide)pad, (PlSide)trunc, value};
        rc = print_rows(&s, T, &o, cli_flag(a, "mask"), (PlMaskConv)conv);
    }
    seqs_free(&s);
    return rc;
}

static const CliOpt opts[] = {
    {"maxlen", "N", "row width (default: the longest sequence)"},
    {"padding", "pre|post", "where pads go (default pre, as Keras)"},
    {"truncating", "pre|post", "which end a long sequence loses (default pre, as Keras)"},
    {"value", "V", "the pad value (default 0)"},
    {"mask", "CONV", "also print the mask: keras|torch|hf (1/0) or additive (0/-inf)"},
    {NULL, NULL, NULL},
};

const CliCommand cli_cmd_pad = {
    .name = "pad",
    .summary = "pad and truncate integer sequences exactly as Keras pad_sequences",
    .usage = "[--maxlen N] [--padding pre|post] [--truncating pre|post] [--value V]\n"
             "                  [--mask keras|torch|hf|additive] [FILE|-]",
    .details = "Reads one sequence per line (space-separated integers; an empty line is an\n"
               "empty sequence) from FILE or standard input and prints one padded row per\n"
               "line. With --mask, a line `mask` follows, then one mask row per sequence:\n"
               "keras and hf print 1 for a real token, torch (key_padding_mask) 1 for a pad,\n"
               "additive 0 for a real token and -inf for a pad.",
    .opts = opts,
    .max_pos = 1,
    .run = run,
};
