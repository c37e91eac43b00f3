/* A plain driver for a libFuzzer harness, for compilers without libFuzzer:
 * feeds every file named (a folder: every file in it) to
 * LLVMFuzzerTestOneInput once. With no arguments it replays the harness's
 * seeds, $PADLAB_TESTS/fuzz/seeds/FUZZ_NAME. Exit 0 when every input ran; a
 * harness that finds a bug aborts. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef FUZZ_NAME
#error "FUZZ_NAME names the harness's seed folder"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REPLAY_MAX (4 << 20)

static int replay_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return fprintf(stderr, "%s: cannot open\n", path), -1;
    uint8_t *buf = malloc(REPLAY_MAX);
    size_t n = buf ? fread(buf, 1, REPLAY_MAX, f) : 0;
    fclose(f);
    if (!buf) return fprintf(stderr, "out of memory\n"), -1;
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* A file, or every file of a folder in name order; returns how many ran, or -1. */
static int replay(const char *path) {
    struct stat st;
    if (stat(path, &st)) return fprintf(stderr, "%s: not found\n", path), -1;
    if (!S_ISDIR(st.st_mode)) return replay_file(path) ? -1 : 1;
    DIR *d = opendir(path);
    if (!d) return fprintf(stderr, "%s: cannot open\n", path), -1;
    char *names[4096];
    int n = 0, ran = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 4096;)
        if (e->d_name[0] != '.') names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], cmp_names);
    for (int i = 0; i < n; i++) {
        char file[4096];
        snprintf(file, sizeof file, "%s/%s", path, names[i]);
        if (ran >= 0 && replay_file(file) == 0) ran++;
        else ran = -1;
        free(names[i]);
    }
    return ran;
}

int main(int argc, char **argv) {
    char seeds[4096];
    const char *tests = getenv("PADLAB_TESTS");
    snprintf(seeds, sizeof seeds, "%s/fuzz/seeds/%s", tests ? tests : "tests", FUZZ_NAME);
    char *fallback[] = {argv[0], seeds};
    if (argc < 2) argc = 2, argv = fallback;
    int total = 0;
    for (int i = 1; i < argc; i++) {
        int n = replay(argv[i]);
        if (n < 0) return 1;
        total += n;
    }
    printf("fuzz_%s: replayed %d inputs\n", FUZZ_NAME, total);
    return total > 0 ? 0 : 1;
}
