/* A 64-bit digest of a stream of bytes, for telling files apart (the corpus
 * cache's key), not for security.
 *
 * Four 64-bit lanes each take every fourth 8-byte word of a 32-byte stripe
 * (lane = rotl(lane + word * K2, 31) * K1), so the multiplies of one stripe
 * run side by side; the lanes, the length and the last < 32 bytes are then
 * folded and mixed. The value depends only on the bytes, never on how they
 * were split into pl_digest_add calls. */
#ifndef PL_DIGEST_H
#define PL_DIGEST_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t lane[4];
    unsigned char tail[32]; /* bytes not yet a whole stripe */
    size_t ntail;
    uint64_t total; /* bytes taken */
} PlDigest;

void pl_digest_init(PlDigest *d, uint64_t seed);
void pl_digest_add(PlDigest *d, const void *p, size_t n);
uint64_t pl_digest_end(const PlDigest *d);

/* The digest of p[0..n) in one call. */
uint64_t pl_digest(uint64_t seed, const void *p, size_t n);

#endif
