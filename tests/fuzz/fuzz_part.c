/* libFuzzer harness: the experiment's part-file reader (app/report/part.c)
 * and the merge over what it reads. Any bytes give a part or one line saying
 * what is wrong; a part it accepts, written back and read again, writes the
 * same text (every float as %a, bit for bit); merging it alone gives the
 * whole experiment or one line, never a crash, a leak or a read out of
 * bounds. Replayed from tests/fuzz/seeds/part in `make check`. */
#include "app/report/part.h"
#include "fuzz_util.h"

/* p as a part file, in memory (*n bytes, freed by the caller). */
static char *written(const PlPart *p, size_t *n) {
    char *buf = NULL;
    FILE *f = open_memstream(&buf, n);
    if (!f) abort();
    FUZZ_CHECK(pl_part_write(f, p) == 0);
    if (fclose(f) != 0) abort();
    return buf;
}

static void merge_alone(const PlPart *p) {
    const char *names[1] = {"in.json"};
    PlPart whole;
    PlRun *runs;
    int n;
    PlErr err;
    PlStatus st = pl_part_merge(p, names, 1, p->padlab, &whole, &runs, &n, &err);
    if (st) FUZZ_CHECK(err.msg[0] && !strchr(err.msg, '\n'));
    else FUZZ_CHECK(p->shards == 1 && n == p->n && strcmp(whole.experiment, p->experiment) == 0);
    free(runs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    PlPart p, back;
    PlErr err;
    if (pl_part_read((const char *)data, size, &p, &err)) {
        FUZZ_CHECK(err.msg[0] && !strchr(err.msg, '\n'));
        pl_part_done(&p);
        return 0;
    }
    FUZZ_CHECK(p.shard >= 0 && p.shard < p.shards && p.n_seeds >= 1 && p.n_seeds <= PL_PART_MAX_SEEDS);
    size_t n1, n2;
    char *one = written(&p, &n1);
    if (pl_part_read(one, n1, &back, &err)) fprintf(stderr, "a written part does not read back: %s\n", err.msg);
    FUZZ_CHECK(back.n == p.n);
    char *two = written(&back, &n2);
    FUZZ_CHECK(n1 == n2 && memcmp(one, two, n1) == 0);
    merge_alone(&p);
    free(one), free(two);
    pl_part_done(&back);
    pl_part_done(&p);
    return 0;
}
