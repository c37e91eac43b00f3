/* libFuzzer harness: what a student posts (app/class/class.h). Any body is
 * either refused with one line or read into a question's number, an answer
 * of printable ASCII that fits, and a token of 32 hex digits or none; an
 * answer read is then given to a class with a number question and a choice
 * question open in turn, which takes it or refuses it with one line, and
 * counts at most one vote per student. */
#include "app/class/class.h"
#include "fuzz_util.h"

static void vote(PlClass *c, int student, const PlClassPost *p, int qi) {
    char why[200] = "";
    pl_class_open(c, qi);
    int rc = pl_class_answer(c, student, qi, p->a, why, sizeof why);
    FUZZ_CHECK(rc == 0 || (why[0] && !strchr(why, '\n')));
    FUZZ_CHECK(pl_class_count(c, qi, 1) == (rc == 0));
    char mine[600];
    pl_class_mine(c, student, mine, sizeof mine);
    FUZZ_CHECK((rc == 0) == (mine[0] != 0));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    PlClassPost p;
    char why[200] = "";
    if (pl_class_parse_post((const char *)data, size, &p, why, sizeof why)) {
        FUZZ_CHECK(why[0] && !strchr(why, '\n'));
        return 0;
    }
    size_t n = strlen(p.a);
    FUZZ_CHECK(n > 0 && n < PL_CLASS_ANSWER_MAX);
    for (size_t i = 0; i < n; i++) FUZZ_CHECK(p.a[i] >= 0x20 && p.a[i] <= 0x7e);
    FUZZ_CHECK(!p.token[0] || strspn(p.token, "0123456789abcdef") == PL_CLASS_TOKEN_HEX);
    PlClass *c = pl_class_new("K7P2Q");
    FUZZ_CHECK(c != NULL);
    PlQuantity q;
    PlTolerance t = {PL_TOL_DEFAULT, 0};
    FUZZ_CHECK(pl_quantity_parse("batch.pad_share", &q, why, sizeof why) == 0);
    const char *texts[] = {"post", "pre"};
    int qn = pl_class_add_number(c, "share?", &q, &t, 0), qc = pl_class_add_choice(c, "which?", texts, 2, 0, 1);
    unsigned char rnd[16] = {1};
    char token[PL_CLASS_TOKEN_HEX + 1];
    int s = pl_class_join(c, rnd, token);
    vote(c, s, &p, qn);
    vote(c, s, &p, qc);
    pl_class_reveal(c, 0.25);
    PlClassTally tl;
    FUZZ_CHECK(pl_class_tally(c, qc, &tl) == 0 && tl.answered[0] <= 1);
    pl_class_free(c);
    return 0;
}
