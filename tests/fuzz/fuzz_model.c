/* libFuzzer harness: the model loader. A file it accepts must give a model
 * whose parameter count is the file's (72 + 4n + 8 bytes) and that saves
 * back to the same bytes. A rejection allocates nothing large: every size
 * is checked against the file's before allocating. */
#include "core/model.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *path = fuzz_file("in.model", data, size);
    PlModel *m = NULL;
    PlErr err;
    if (pl_model_load(path, &m, &err) != PL_OK) {
        FUZZ_CHECK(m == NULL && err.msg[0] && !strchr(err.msg, '\n'));
        return 0;
    }
    FUZZ_CHECK(72 + 4 * pl_model_nparams(m) + 8 == size);
    char out[512];
    snprintf(out, sizeof out, "%s/out.model", fuzz_scratch());
    FUZZ_CHECK(pl_model_save(m, out, &err) == PL_OK);
    FILE *f = fopen(out, "rb");
    FUZZ_CHECK(f != NULL);
    uint8_t *back = malloc(size + 1);
    FUZZ_CHECK(back != NULL);
    size_t n = fread(back, 1, size + 1, f);
    fclose(f);
    FUZZ_CHECK(n == size && memcmp(back, data, size) == 0);
    free(back);
    pl_model_free(m);
    return 0;
}
