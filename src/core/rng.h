/* A seeded pseudo-random generator owned by its caller (xoshiro256**, seeded
 * through splitmix64). The core draws all its randomness from one of these, so
 * the same seed gives the same numbers on the same machine. */
#ifndef PL_RNG_H
#define PL_RNG_H

#include <stddef.h>
#include <stdint.h>

/* A seed: wherever randomness enters the core, one of these is passed in. */
typedef uint64_t PlSeed;

typedef struct {
    uint64_t s[4];
} PlRng;

void pl_rng_seed(PlRng *r, PlSeed seed);

/* The 64-bit FNV-1a hash of p[0..n): the vocabulary's word hash and the
 * model file's checksum. */
uint64_t pl_fnv1a(const void *p, size_t n);
uint64_t pl_rng_u64(PlRng *r);
/* Uniform in [0, 1) with 53 random bits. */
double pl_rng_uniform(PlRng *r);
/* Uniform integer in [0, n); n must be > 0. Unbiased (rejection). */
uint64_t pl_rng_below(PlRng *r, uint64_t n);
/* Standard normal (Box-Muller, one value per call). */
double pl_rng_normal(PlRng *r);
/* Fisher-Yates shuffle of n ints in place. */
void pl_rng_shuffle_int(PlRng *r, int *v, int n);

#endif
