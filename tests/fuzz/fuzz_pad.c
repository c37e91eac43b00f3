/* libFuzzer harness: `padlab pad`'s input parser (lines of integers, read
 * by cmd_pad.c's own read_seqs), checked against a reference parser written
 * here, and the rows it pads checked against a reference padder (Keras
 * pad_sequences written out the plain way). The first input byte picks the
 * options: bit 0 post padding, bit 1 post truncating; the second is maxlen
 * (0: the longest sequence); the rest is the text. */
#include <errno.h>
#include <limits.h>

#include "../../src/cli/cmd_pad.c"
#include "fuzz_util.h"

/* read_seqs reports a failed allocation through the command line's helper
 * (src/cli/common.c, not linked into the harness): the same status, no line. */
int cli_no_memory(const CliArgs *a, const char *what) {
    (void)a, (void)what;
    return 1;
}

enum { MAX_REF = 1 << 16 };

/* The reference parser: 0 and the sequences, or -1 for input pad refuses. */
static int ref_parse(const char *text, size_t n, int32_t *ids, int *lens, int *nseq, size_t *nids) {
    *nseq = 0, *nids = 0;
    size_t i = 0;
    while (i < n) {
        int len = 0;
        while (i < n && text[i] != '\n') {
            char c = text[i];
            if (c == '\0') return -1;
            if (c == ' ' || c == '\t' || c == '\r') {
                i++;
                continue;
            }
            char tok[4096];
            size_t k = 0;
            while (i < n && text[i] != '\n' && text[i] != ' ' && text[i] != '\t' && text[i] != '\r') {
                if (text[i] == '\0') return -1;
                if (k < sizeof tok - 1) tok[k] = text[i];
                k++, i++;
            }
            if (k >= sizeof tok - 1) return -2; /* too long to check here: skipped */
            tok[k] = '\0';
            char *end;
            errno = 0;
            long v = strtol(tok, &end, 10);
            if (*end || errno || v < INT32_MIN || v > INT32_MAX || end == tok) return -1;
            if (*nids == MAX_REF) return -2;
            ids[(*nids)++] = (int32_t)v;
            len++;
        }
        if (*nseq == MAX_REF) return -2;
        lens[(*nseq)++] = len;
        i++; /* the newline */
    }
    return 0;
}

/* pad_sequences for one sequence, the plain way. */
static void ref_pad(int32_t *row, uint8_t *mask, const int32_t *seq, int len, int T, const PlPadOpts *o) {
    int kept = len < T ? len : T;
    if (o->maxlen > 0 && kept > o->maxlen) kept = o->maxlen;
    int from = o->truncating == PL_PRE ? len - kept : 0, at = o->padding == PL_PRE ? T - kept : 0;
    for (int t = 0; t < T; t++) row[t] = o->value, mask[t] = 0;
    for (int k = 0; k < kept; k++) row[at + k] = seq[from + k], mask[at + k] = 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    PlPadOpts o = {data[1], data[0] & 1 ? PL_POST : PL_PRE, data[0] & 2 ? PL_POST : PL_PRE, -7};
    const char *text = (const char *)data + 2;
    size_t n = size - 2;
    static int32_t ref_ids[MAX_REF];
    static int ref_lens[MAX_REF];
    int ref_n;
    size_t ref_nids;
    int ref = ref_parse(text, n, ref_ids, ref_lens, &ref_n, &ref_nids);
    if (ref == -2) return 0;
    FILE *f = n ? fmemopen((void *)text, n, "r") : fopen("/dev/null", "r");
    FUZZ_CHECK(f != NULL);
    CliArgs a;
    memset(&a, 0, sizeof a);
    a.cmd = "padlab pad";
    Seqs s = {0};
    int rc = read_seqs(&a, f, "fuzz", &s);
    fclose(f);
    FUZZ_CHECK((rc == 0) == (ref == 0));
    if (rc == 0) {
        FUZZ_CHECK(s.n == ref_n && s.nids == ref_nids);
        FUZZ_CHECK(!ref_nids || memcmp(s.ids, ref_ids, ref_nids * sizeof *ref_ids) == 0);
        int T = o.maxlen;
        for (int i = 0; T == 0 && i < s.n; i++) T = s.len[i] > T ? s.len[i] : T;
        int32_t *row = malloc(((size_t)T + 1) * sizeof *row), *want = malloc(((size_t)T + 1) * sizeof *want);
        uint8_t *mask = malloc((size_t)T + 1), *want_mask = malloc((size_t)T + 1);
        FUZZ_CHECK(row && want && mask && want_mask);
        size_t at = 0;
        for (int i = 0; i < s.n; i++) {
            FUZZ_CHECK(s.len[i] == ref_lens[i]);
            pl_pad_row(row, mask, s.len[i] ? s.ids + at : NULL, s.len[i], T, &o);
            ref_pad(want, want_mask, ref_ids + at, s.len[i], T, &o);
            FUZZ_CHECK(memcmp(row, want, (size_t)T * sizeof *row) == 0 && memcmp(mask, want_mask, (size_t)T) == 0);
            at += (size_t)s.len[i];
        }
        free(row), free(want), free(mask), free(want_mask);
    }
    seqs_free(&s);
    return 0;
}
