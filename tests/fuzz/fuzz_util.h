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

/* A strict JSON checker (RFC 8259: no NaN, no Infinity, no control byte
 * in a string, nothing after the value), to hold what padlab writes to a
 * reader that shares none of its code. */
typedef struct {
    const char *p, *end;
    int depth;
} FuzzJson;

__attribute__((unused)) static void fuzz_json_space(FuzzJson *j) {
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r')) j->p++;
}

__attribute__((unused)) static int fuzz_json_lit(FuzzJson *j, const char *word) {
    size_t n = strlen(word);
    if ((size_t)(j->end - j->p) < n || memcmp(j->p, word, n)) return 0;
    j->p += n;
    return 1;
}

__attribute__((unused)) static int fuzz_json_string(FuzzJson *j) {
    if (j->p >= j->end || *j->p++ != '"') return 0;
    while (j->p < j->end && *j->p != '"') {
        unsigned char ch = (unsigned char)*j->p++;
        if (ch < 0x20) return 0;
        if (ch != '\\') continue;
        if (j->p >= j->end) return 0;
        ch = (unsigned char)*j->p++;
        if (ch == 'u') {
            for (int i = 0; i < 4; i++, j->p++)
                if (j->p >= j->end || !strchr("0123456789abcdefABCDEF", *j->p) || !*j->p) return 0;
        } else if (!strchr("\"\\/bfnrt", ch) || !ch) return 0;
    }
    return j->p < j->end && *j->p++ == '"';
}

__attribute__((unused)) static int fuzz_json_number(FuzzJson *j) {
    const char *s = j->p;
    if (j->p < j->end && *j->p == '-') j->p++;
    if (j->p >= j->end || *j->p < '0' || *j->p > '9') return 0;
    if (*j->p == '0') j->p++;
    else
        while (j->p < j->end && *j->p >= '0' && *j->p <= '9') j->p++;
    if (j->p < j->end && *j->p == '.') {
        if (++j->p >= j->end || *j->p < '0' || *j->p > '9') return 0;
        while (j->p < j->end && *j->p >= '0' && *j->p <= '9') j->p++;
    }
    if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
        j->p++;
        if (j->p < j->end && (*j->p == '+' || *j->p == '-')) j->p++;
        if (j->p >= j->end || *j->p < '0' || *j->p > '9') return 0;
        while (j->p < j->end && *j->p >= '0' && *j->p <= '9') j->p++;
    }
    return j->p > s;
}

__attribute__((unused)) static int fuzz_json_value(FuzzJson *j) {
    fuzz_json_space(j);
    if (j->p >= j->end || ++j->depth > 64) return 0;
    char open = *j->p;
    int ok = 1;
    if (open == '{' || open == '[') {
        char close = open == '{' ? '}' : ']';
        j->p++, fuzz_json_space(j);
        if (j->p < j->end && *j->p == close) j->p++;
        else
            for (;;) {
                if (open == '{') {
                    fuzz_json_space(j);
                    if (!fuzz_json_string(j)) return 0;
                    fuzz_json_space(j);
                    if (j->p >= j->end || *j->p++ != ':') return 0;
                }
                if (!fuzz_json_value(j)) return 0;
                fuzz_json_space(j);
                if (j->p < j->end && *j->p == ',') {
                    j->p++;
                    continue;
                }
                if (j->p >= j->end || *j->p++ != close) return 0;
                break;
            }
    } else if (open == '"') ok = fuzz_json_string(j);
    else if (open == 't' || open == 'f' || open == 'n')
        ok = fuzz_json_lit(j, "true") || fuzz_json_lit(j, "false") || fuzz_json_lit(j, "null");
    else ok = fuzz_json_number(j);
    j->depth--;
    return ok;
}

/* Whether text[0..n) is one JSON value and nothing else but white space. */
__attribute__((unused)) static int fuzz_json_valid(const char *text, size_t n) {
    FuzzJson j = {text, text + n, 0};
    if (!fuzz_json_value(&j)) return 0;
    fuzz_json_space(&j);
    return j.p == j.end;
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
