/* libFuzzer harness: the session reader, with a save-and-reload round trip:
 * a session it accepts is written back as the lab writes it, read again,
 * and must come back the same (settings, sort, grid, runs), and its second
 * writing must be byte for byte its first. */
#include "app/lab/lab.h"
#include "fuzz_util.h"

static char *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) abort();
    char *buf = malloc(1 << 20);
    if (!buf) abort();
    *n = fread(buf, 1, 1 << 20, f);
    fclose(f);
    return buf;
}

static int same_runs(const PlSession *a, const PlSession *b) {
    if (a->nruns != b->nruns) return 0;
    for (int i = 0; i < a->nruns; i++) {
        const PlLabRun *x = &a->runs[i], *y = &b->runs[i];
        if (!pl_lab_same_setting(&x->settings, &y->settings) || x->id != y->id || x->grid != y->grid ||
            x->epochs != y->epochs)
            return 0;
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *path = fuzz_file("in.session", data, size);
    PlErr err;
    PlSession *s = pl_session_read(path, &err);
    if (!s) {
        FUZZ_CHECK(err.msg[0] && !strchr(err.msg, '\n'));
        return 0;
    }
    char out1[512], out2[512];
    snprintf(out1, sizeof out1, "%s/one.session", fuzz_scratch());
    snprintf(out2, sizeof out2, "%s/two.session", fuzz_scratch());
    FUZZ_CHECK(pl_session_save(s, out1, &err) == PL_OK);
    PlSession *back = pl_session_read(out1, &err);
    if (!back) fprintf(stderr, "the saved session does not read back: %s\n", err.msg);
    FUZZ_CHECK(back != NULL);
    FUZZ_CHECK(pl_lab_same_setting(&s->settings, &back->settings) && s->settings.seed == back->settings.seed);
    FUZZ_CHECK(s->sort == back->sort && s->has_grid == back->has_grid && same_runs(s, back));
    FUZZ_CHECK(pl_session_save(back, out2, &err) == PL_OK);
    size_t n1, n2;
    char *b1 = slurp(out1, &n1), *b2 = slurp(out2, &n2);
    FUZZ_CHECK(n1 == n2 && memcmp(b1, b2, n1) == 0);
    free(b1), free(b2);
    pl_session_free(back);
    pl_session_free(s);
    return 0;
}
