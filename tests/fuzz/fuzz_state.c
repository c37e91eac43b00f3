/* libFuzzer harness: the state line's parser (app/state.c). A line it
 * refuses says why in one line; a line it takes, applied to the defaults
 * and written again, reads back to the same settings, and the second line
 * written is byte for byte the first. */
#include "app/state.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *line = malloc(size + 1);
    if (!line) abort();
    memcpy(line, data, size), line[size] = '\0';
    PlSettingsPatch p, q;
    char why[400], one[PL_STATE_CAP], two[PL_STATE_CAP];
    if (pl_state_parse(line, &p, why, sizeof why)) {
        FUZZ_CHECK(why[0] && !strchr(why, '\n'));
        free(line);
        return 0;
    }
    PlLabSettings a = pl_settings_default(), b = pl_settings_default();
    pl_settings_patch_apply(&a, &p);
    pl_state_format(&a, one, sizeof one);
    FUZZ_CHECK(strlen(one) < sizeof one - 1 && !strchr(one, ' ') && !strchr(one, '\n'));
    if (pl_state_parse(one, &q, why, sizeof why)) fprintf(stderr, "the line written does not read back: %s\n", why);
    FUZZ_CHECK(pl_state_parse(one, &q, why, sizeof why) == 0);
    pl_settings_patch_apply(&b, &q);
    FUZZ_CHECK(pl_settings_diff(&a, &b) == 0);
    FUZZ_CHECK(strcmp(pl_state_format(&b, two, sizeof two), one) == 0);
    free(line);
    return 0;
}
