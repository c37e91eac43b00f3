#include "rng.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void pl_rng_seed(PlRng *r, PlSeed seed) {
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t pl_rng_u64(PlRng *r) {
    uint64_t *s = r->s;
    uint64_t out = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

double pl_rng_uniform(PlRng *r) { return (double)(pl_rng_u64(r) >> 11) * (1.0 / 9007199254740992.0); }

uint64_t pl_rng_below(PlRng *r, uint64_t n) {
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do x = pl_rng_u64(r);
    while (x >= limit);
    return x % n;
}

double pl_rng_normal(PlRng *r) {
    /* 1 - u lies in (0, 1], so the logarithm is finite. */
    double u1 = 1.0 - pl_rng_uniform(r);
    double u2 = pl_rng_uniform(r);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

void pl_rng_shuffle_int(PlRng *r, int *v, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)pl_rng_below(r, (uint64_t)i + 1);
        int t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

uint64_t pl_fnv1a(const void *p, size_t n) {
    const unsigned char *b = p;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ULL;
    return h;
}
