/* The second tier of checks: internal invariants, for the code's authors.
 *
 * padlab checks two kinds of things. What comes from outside (a file, a
 * flag, a setting, a row index) is checked where it enters and a failure
 * is a status with a one-line message (err.h): never an assertion, in any
 * build. What the code itself builds (a plan, a batch, the lab's result
 * cache) is checked with pl_assert, against a `*_is_consistent` function
 * that says what a well-made one looks like. pl_assert aborts with the file,
 * the line and the condition in builds with -DPL_DEBUG (the test programs
 * and the sanitizer build) and compiles to nothing otherwise: the condition
 * is not evaluated, so it may be slow. */
#ifndef PL_ASSERT_H
#define PL_ASSERT_H

#ifdef PL_DEBUG
#include <stdio.h>
#include <stdlib.h>

static inline void pl_assert_fail(const char *cond, const char *file, int line) {
    fprintf(stderr, "%s:%d: internal check failed: %s\n", file, line, cond);
    abort();
}

#define pl_assert(cond) ((cond) ? (void)0 : pl_assert_fail(#cond, __FILE__, __LINE__))
#else
#define pl_assert(cond) ((void)sizeof(!(cond)))
#endif

#endif
