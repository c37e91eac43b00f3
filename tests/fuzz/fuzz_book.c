/* libFuzzer harness: the book reader (app/teach/book.h), as a lesson
 * progress book and as a drill book, with a round trip: a book it accepts
 * is written back, read again, and must come back the same (salt, records
 * byte for byte, names included), and its second writing must be byte for
 * byte its first, with no record left out. A refused book, and a record
 * left out, is one line. */
#include "app/teach/drill_book.h"
#include "app/teach/progress.h"
#include "fuzz_util.h"

/* The book written to memory; the caller frees it. */
static char *written(const PlBook *b, size_t *n) {
    char *text = NULL;
    FILE *f = open_memstream(&text, n);
    FUZZ_CHECK(f != NULL);
    FUZZ_CHECK(pl_book_write(b, f) == 0);
    FUZZ_CHECK(fclose(f) == 0);
    return text;
}

static void round_trip(const PlBookKind *kind, const uint8_t *data, size_t size) {
    PlBook b, back;
    PlErr err;
    if (pl_book_parse(&b, kind, (const char *)data, size, "in.book", &err)) {
        FUZZ_CHECK(err.msg[0] && !strchr(err.msg, '\n'));
        pl_book_done(&b);
        return;
    }
    /* a damaged record is left out, named in one line */
    FUZZ_CHECK(!b.skipped || (b.skipped_first[0] && !strchr(b.skipped_first, '\n')));
    size_t n1, n2;
    char *t1 = written(&b, &n1);
    if (pl_book_parse(&back, kind, t1, n1, "one.book", &err))
        fprintf(stderr, "the written book does not read back: %s\n", err.msg);
    FUZZ_CHECK(back.n == b.n && back.salt == b.salt && back.skipped == 0);
    FUZZ_CHECK(b.n == 0 || memcmp(back.rec, b.rec, kind->size * (size_t)b.n) == 0);
    char *t2 = written(&back, &n2);
    FUZZ_CHECK(n1 == n2 && memcmp(t1, t2, n1) == 0);
    free(t1), free(t2);
    pl_book_done(&back);
    pl_book_done(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    round_trip(&pl_progress_kind, data, size);
    round_trip(&pl_drill_kind, data, size);
    return 0;
}
