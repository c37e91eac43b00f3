/* libFuzzer harness: a saved class (app/class/store.c), read as the
 * projector reads it when the same command resumes a class. Any file is
 * refused with one line naming it, or read: its meta then holds a lesson,
 * a five-character code and printable text, and a class of the same two
 * questions (the number's misconception the lab's to measure) takes it
 * whole or refuses it with one line; one it takes is written back and read again, and must give the same tallies, and
 * its second writing must be byte for byte its first. */
#include <math.h>

#include "app/class/class.h"
#include "fuzz_util.h"

static PlClass *two_questions(void) {
    PlClass *c = pl_class_new("K7P2Q");
    PlQuantity q;
    PlTolerance t = {PL_TOL_DEFAULT, 0};
    char why[200];
    const char *texts[] = {"post", "pre", "none"};
    FUZZ_CHECK(c && pl_quantity_parse("batch.pad_share", &q, why, sizeof why) == 0);
    FUZZ_CHECK(pl_class_add_choice(c, "which?", texts, 3, 1, 1) == 0 && pl_class_add_number(c, "share?", &q, &t, 2) == 1);
    FUZZ_CHECK(pl_class_add_misconception(c, 1, (double)NAN, "the lab's to measure") == 0);
    return c;
}

static char *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    char *buf = f ? malloc(1 << 20) : NULL;
    if (!buf) abort();
    *n = fread(buf, 1, 1 << 20, f);
    fclose(f);
    return buf;
}

static void same_tallies(PlClass *a, PlClass *b) {
    for (int qi = 0; qi < 2; qi++) {
        PlClassTally x, y;
        FUZZ_CHECK(pl_class_tally(a, qi, &x) == 0 && pl_class_tally(b, qi, &y) == 0);
        FUZZ_CHECK(x.rounds == y.rounds && x.answered[0] == y.answered[0] && x.answered[1] == y.answered[1]);
        FUZZ_CHECK(x.right[0] == y.right[0] && x.right[1] == y.right[1] && x.nrows == y.nrows);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *path = fuzz_file("in.class", data, size);
    char why[600] = "", one[512], two[512];
    PlClassMeta m;
    if (pl_class_meta_read(path, &m, why, sizeof why)) {
        FUZZ_CHECK(why[0] && !strchr(why, '\n'));
        return 0;
    }
    FUZZ_CHECK(m.lesson[0] && strlen(m.code) == PL_CLASS_CODE_LEN);
    PlClass *c = two_questions();
    if (pl_class_restore(c, path, why, sizeof why)) {
        FUZZ_CHECK(why[0] && !strchr(why, '\n'));
        pl_class_free(c);
        return 0;
    }
    FUZZ_CHECK(pl_class_students(c) <= PL_CLASS_MAX_STUDENTS);
    snprintf(one, sizeof one, "%s/one.class", fuzz_scratch());
    snprintf(two, sizeof two, "%s/two.class", fuzz_scratch());
    FUZZ_CHECK(pl_class_save(c, &m, one, why, sizeof why) == 0);
    PlClass *d = two_questions();
    FUZZ_CHECK(pl_class_restore(d, one, why, sizeof why) == 0);
    same_tallies(c, d);
    FUZZ_CHECK(pl_class_save(d, &m, two, why, sizeof why) == 0);
    size_t n1, n2;
    char *a = slurp(one, &n1), *b = slurp(two, &n2);
    FUZZ_CHECK(n1 == n2 && memcmp(a, b, n1) == 0);
    free(a), free(b);
    pl_class_free(c), pl_class_free(d);
    return 0;
}
