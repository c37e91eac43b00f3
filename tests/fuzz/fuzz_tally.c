/* libFuzzer harness: a class's tally over many votes. The input is lines:
 * the first the lab's value, then one answer a line (a student each),
 * "--" starting round 2, "m VALUE" naming a misconception. Whatever comes,
 * every answer taken is a finite number the tally counts exactly once in
 * its round, the rows are at most PL_CLASS_ROWS, the band counted right is
 * a row no wrong answer shares, each row holds what its label says, and
 * the report prints in each format. */
#include <math.h>

#include "app/class/class.h"
#include "fuzz_util.h"

static void check_rows(const PlClassTally *t) {
    FUZZ_CHECK(t->nrows >= 0 && t->nrows <= PL_CLASS_ROWS);
    for (int r = 0; r < t->rounds; r++) {
        int sum = 0, right = 0;
        for (int i = 0; i < t->nrows; i++) {
            FUZZ_CHECK(t->rows[i].count[r] >= 0 && t->rows[i].label[0]);
            FUZZ_CHECK(isfinite(t->rows[i].lo) && isfinite(t->rows[i].hi) && t->rows[i].lo <= t->rows[i].hi);
            sum += t->rows[i].count[r];
            if (t->rows[i].kind == PL_ROW_RIGHT) right += t->rows[i].count[r];
        }
        FUZZ_CHECK(sum == t->answered[r]);
        FUZZ_CHECK(!t->revealed || right == t->right[r]);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1), why[200];
    if (!text) abort();
    memcpy(text, data, size), text[size] = '\0';
    PlClass *c = pl_class_new("K7P2Q");
    PlQuantity q;
    PlTolerance t = {PL_TOL_DEFAULT, 0};
    FUZZ_CHECK(c && pl_quantity_parse(size % 2 ? "batch.pad_share" : "batch.pad_cells", &q, why, sizeof why) == 0);
    int qi = pl_class_add_number(c, "how many?", &q, &t, 0), student = 0;
    pl_class_open(c, qi);
    char *save = NULL, *line = strtok_r(text, "\n", &save);
    double value = line ? strtod(line, NULL) : 0.0;
    for (line = strtok_r(NULL, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (!strcmp(line, "--")) {
            pl_class_again(c), student = 0;
            continue;
        }
        if (line[0] == 'm' && line[1] == ' ') {
            pl_class_add_misconception(c, qi, strtod(line + 2, NULL), "a slip");
            continue;
        }
        unsigned char rnd[16] = {(unsigned char)student, (unsigned char)(student >> 8), 7};
        char token[PL_CLASS_TOKEN_HEX + 1];
        if (student >= pl_class_students(c) && pl_class_join(c, rnd, token) < 0) break;
        int rc = pl_class_answer(c, student++, qi, line, why, sizeof why);
        FUZZ_CHECK(rc == 0 || (why[0] && !strchr(why, '\n')));
    }
    PlClassTally tl;
    FUZZ_CHECK(pl_class_tally(c, qi, &tl) == 0);
    check_rows(&tl);
    if (isfinite(value)) {
        pl_class_reveal(c, value);
        FUZZ_CHECK(pl_class_tally(c, qi, &tl) == 0);
        check_rows(&tl);
    }
    static const char *const fmts[] = {"md", "csv", "json"};
    for (int k = 0; k < 3; k++) {
        FILE *f = fopen("/dev/null", "w");
        if (!f) abort();
        pl_class_report_print(c, f, fmts[k], "fuzz");
        fclose(f);
    }
    pl_class_free(c);
    free(text);
    return 0;
}
