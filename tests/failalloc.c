/* Allocation-failure injection for the test suite: padlab's own objects are
 * linked with -Wl,--wrap=malloc (and calloc, realloc, strdup, strndup), so every
 * allocation padlab's code asks for comes here, while the C library's, curses'
 * and OpenBLAS's own allocations do not.
 *
 *   PADLAB_FAIL_AT=N      the N-th allocation (1-based) returns NULL, once
 *   PADLAB_ALLOC_COUNT=F  at exit, the number of allocations is written to F
 *
 * tests/failalloc.sh counts a command's allocations, then runs it once per
 * allocation with that one failing. */
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t k, size_t n);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t max);
int __real_posix_memalign(void **p, size_t align, size_t n);
int __wrap_posix_memalign(void **p, size_t align, size_t n);

static atomic_long count;
static long fail_at = -1; /* read once, before the first allocation is counted */
static atomic_int ready;

static void report_count(void) {
    const char *path = getenv("PADLAB_ALLOC_COUNT");
    FILE *f = path ? fopen(path, "w") : NULL;
    if (!f) return;
    fprintf(f, "%ld\n", (long)atomic_load(&count));
    fclose(f);
}

static void setup(void) {
    int expected = 0;
    if (!atomic_compare_exchange_strong(&ready, &expected, 1)) return;
    const char *s = getenv("PADLAB_FAIL_AT");
    if (s) fail_at = strtol(s, NULL, 10);
    atexit(report_count);
}

/* 1 when this allocation is the one to fail. */
static int should_fail(void) {
    setup();
    long k = atomic_fetch_add(&count, 1) + 1;
    return k == fail_at;
}

void *__wrap_malloc(size_t n) { return should_fail() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t k, size_t n) { return should_fail() ? NULL : __real_calloc(k, n); }
void *__wrap_realloc(void *p, size_t n) { return should_fail() ? NULL : __real_realloc(p, n); }
int __wrap_posix_memalign(void **p, size_t align, size_t n) {
    return should_fail() ? ENOMEM : __real_posix_memalign(p, align, n);
}

char *__wrap_strdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = __wrap_malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

char *__wrap_strndup(const char *s, size_t max) {
    size_t n = strnlen(s, max);
    char *d = __wrap_malloc(n + 1);
    if (d) memcpy(d, s, n), d[n] = '\0';
    return d;
}
