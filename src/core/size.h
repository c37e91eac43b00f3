/* Size arithmetic on numbers that came from outside (a file's header, a
 * flag, a corpus): every product and sum that sizes an allocation or a read
 * goes through these, so an overflow is an error instead of a small buffer. */
#ifndef PL_SIZE_H
#define PL_SIZE_H

#include <stddef.h>

/* *out = a * b. Returns 0, or -1 (and *out = 0) when it does not fit a size_t. */
static inline int pl_size_mul(size_t a, size_t b, size_t *out) {
    if (__builtin_mul_overflow(a, b, out)) return *out = 0, -1;
    return 0;
}

/* *out = a + b. Returns 0, or -1 (and *out = 0) when it does not fit. */
static inline int pl_size_add(size_t a, size_t b, size_t *out) {
    if (__builtin_add_overflow(a, b, out)) return *out = 0, -1;
    return 0;
}

/* *out = a * b * c. Returns 0, or -1 when it does not fit. */
static inline int pl_size_mul3(size_t a, size_t b, size_t c, size_t *out) {
    return pl_size_mul(a, b, out) || pl_size_mul(*out, c, out) ? -1 : 0;
}

#endif
