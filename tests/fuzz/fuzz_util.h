/* What the harnesses share: a private scratch folder (in memory under
 * /dev/shm when there is one) for the loaders that read files, and a file
 * written there from the input. Each harness includes this once. */
#ifndef PL_FUZZ_UTIL_H
#define PL_FUZZ_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What libFuzzer (or driver.c) calls once per input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The scratch folder, made on first use and removed at exit. */
static char fuzz_dir[256];

static void fuzz_rmdir(void) {
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fuzz_dir);
    if (fuzz_dir[0] && system(cmd) != 0) fuzz_dir[0] = '\0';
}

__attribute__((unused)) static const char *fuzz_scratch(void) {
    if (fuzz_dir[0]) return fuzz_dir;
    const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(fuzz_dir, sizeof fuzz_dir, "%s/padlab-fuzz-XXXXXX", base);
    if (!mkdtemp(fuzz_dir)) abort();
    atexit(fuzz_rmdir);
    return fuzz_dir;
}

/* Writes data to NAME in the scratch folder; returns its path (static). */
__attribute__((unused)) static const char *fuzz_file(const char *name, const uint8_t *data, size_t size) {
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", fuzz_scratch(), name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) abort();
    return path;
}

/* A failed check: the harness found a bug. */
#define FUZZ_CHECK(cond)                                                             \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            abort();                                                                 \
        }                                                                            \
    } while (0)

#endif
