#include "digest.h"

#include <string.h>

#define K1 0x9E3779B185EBCA87u
#define K2 0xC2B2AE3D27D4EB4Fu
#define K3 0x165667B19E3779F9u

static uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static uint64_t load64(const unsigned char *p) {
    uint64_t x;
    memcpy(&x, p, 8);
    return x; /* little-endian x86-64: the digest is defined on that order */
}

static uint64_t round64(uint64_t lane, uint64_t word) { return rotl(lane + word * K2, 31) * K1; }

static void stripes(PlDigest *d, const unsigned char *p, size_t n) {
    uint64_t a = d->lane[0], b = d->lane[1], c = d->lane[2], e = d->lane[3];
    for (; n >= 32; p += 32, n -= 32) {
        a = round64(a, load64(p));
        b = round64(b, load64(p + 8));
        c = round64(c, load64(p + 16));
        e = round64(e, load64(p + 24));
    }
    d->lane[0] = a, d->lane[1] = b, d->lane[2] = c, d->lane[3] = e;
}

void pl_digest_init(PlDigest *d, uint64_t seed) {
    memset(d, 0, sizeof *d);
    d->lane[0] = seed + K1 + K2;
    d->lane[1] = seed + K2;
    d->lane[2] = seed;
    d->lane[3] = seed - K1;
}

void pl_digest_add(PlDigest *d, const void *data, size_t n) {
    const unsigned char *p = data;
    d->total += n;
    if (d->ntail) {
        size_t take = 32 - d->ntail < n ? 32 - d->ntail : n;
        memcpy(d->tail + d->ntail, p, take);
        d->ntail += take, p += take, n -= take;
        if (d->ntail < 32) return;
        stripes(d, d->tail, 32);
        d->ntail = 0;
    }
    size_t whole = n & ~(size_t)31;
    stripes(d, p, whole);
    memcpy(d->tail, p + whole, n - whole);
    d->ntail = n - whole;
}

static uint64_t avalanche(uint64_t h) {
    h ^= h >> 33;
    h *= K2;
    h ^= h >> 29;
    h *= K3;
    return h ^ (h >> 32);
}

uint64_t pl_digest_end(const PlDigest *d) {
    uint64_t h = rotl(d->lane[0], 1) + rotl(d->lane[1], 7) + rotl(d->lane[2], 12) + rotl(d->lane[3], 18);
    for (int i = 0; i < 4; i++) h = (h ^ round64(0, d->lane[i])) * K1 + K3;
    h += d->total;
    size_t i = 0;
    for (; i + 8 <= d->ntail; i += 8) h = rotl(h ^ round64(0, load64(d->tail + i)), 27) * K1 + K3;
    for (; i < d->ntail; i++) h = rotl(h ^ (d->tail[i] * K3), 11) * K1;
    return avalanche(h);
}

uint64_t pl_digest(uint64_t seed, const void *p, size_t n) {
    PlDigest d;
    pl_digest_init(&d, seed);
    pl_digest_add(&d, p, n);
    return pl_digest_end(&d);
}
