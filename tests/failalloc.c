/* Allocation-failure injection for the test suite: padlab's own objects are
 * linked with -Wl,--wrap=malloc (and calloc, realloc, strdup, strndup), so every
 * allocation padlab's code asks for comes here, while the C library's, curses'
 * and OpenBLAS's own allocations do not.
 *
 *   PADLAB_FAIL_AT=N      the N-th allocation (1-based) returns NULL, once
 *   PADLAB_ALLOC_COUNT=F  at exit, the number of allocations is written to F
 *
 * The C library's own allocations on padlab's behalf (getline's line, the
 * memory stream that holds a command's output, fopen's buffers) are counted
 * apart: this file also defines malloc, calloc and realloc themselves, which
 * the C library calls too, and hands them to glibc's __libc_ ones. They count
 * from the start of main's program (a constructor of the executable, which
 * runs after the libraries' own), and only when asked for:
 *
 *   PADLAB_LIBC_FAIL_AT=N      the N-th such allocation returns NULL, once
 *   PADLAB_LIBC_COUNT=F        at exit, the number of them is written to F
 *
 * They include what OpenBLAS and fontconfig allocate, which padlab cannot
 * make safe: tests/failalloc.sh sweeps them only over commands that call
 * neither.
 *
 * tests/failalloc.sh counts a command's allocations, then runs it once per
 * allocation with that one failing. */
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t k, size_t n);
void *__libc_realloc(void *p, size_t n);
void *malloc(size_t n);
void *calloc(size_t k, size_t n);
void *realloc(void *p, size_t n);
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
static atomic_long libc_count;
static long libc_fail_at = -1;
static atomic_int libc_armed; /* 1 from the executable's constructor on, when PADLAB_LIBC_* is set */

static void report_count(void) {
    const char *path = getenv("PADLAB_ALLOC_COUNT");
    FILE *f = path ? fopen(path, "w") : NULL;
    if (!f) return;
    fprintf(f, "%ld\n", (long)atomic_load(&count));
    fclose(f);
}

static void report_libc_count(void) {
    const char *path = getenv("PADLAB_LIBC_COUNT");
    long n = (long)atomic_load(&libc_count);
    atomic_store(&libc_armed, 0); /* fopen's own allocations below are not counted */
    FILE *f = path ? fopen(path, "w") : NULL;
    if (!f) return;
    fprintf(f, "%ld\n", n);
    fclose(f);
}

__attribute__((constructor)) static void arm_libc(void) {
    const char *s = getenv("PADLAB_LIBC_FAIL_AT");
    if (s) libc_fail_at = strtol(s, NULL, 10);
    if (!s && !getenv("PADLAB_LIBC_COUNT")) return;
    atexit(report_libc_count);
    atomic_store(&libc_armed, 1);
}

/* 1 when this allocation of the C library's is the one to fail. */
static int libc_should_fail(void) {
    if (!atomic_load(&libc_armed)) return 0;
    long k = atomic_fetch_add(&libc_count, 1) + 1;
    return k == libc_fail_at;
}

/* NULL with errno ENOMEM, as a real failure leaves it. */
static void *failed(void) {
    errno = ENOMEM;
    return NULL;
}

void *malloc(size_t n) { return libc_should_fail() ? failed() : __libc_malloc(n); }
void *calloc(size_t k, size_t n) { return libc_should_fail() ? failed() : __libc_calloc(k, n); }
void *realloc(void *p, size_t n) { return libc_should_fail() ? failed() : __libc_realloc(p, n); }

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

/* padlab's own: straight to glibc, past the C library's count above. */
void *__wrap_malloc(size_t n) { return should_fail() ? failed() : __libc_malloc(n); }
void *__wrap_calloc(size_t k, size_t n) { return should_fail() ? failed() : __libc_calloc(k, n); }
void *__wrap_realloc(void *p, size_t n) { return should_fail() ? failed() : __libc_realloc(p, n); }
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
