/* Which kernel table runs: the widest this CPU supports, unless the run's
 * start named a narrower one (pl_kernels_choose; padlab's main passes
 * PADLAB_SIMD). The choice is made once, at start-up or else on first use,
 * so every thread sees the same table and the same numbers for the whole
 * run. */
#include "kernels.h"

#include <stdatomic.h>
#include <string.h>
#if defined(__x86_64__) || defined(__SSE__)
#include <xmmintrin.h>
#define FLUSH_BITS 0x8040u /* FTZ (bit 15) and DAZ (bit 6) */
#endif

static const char *const level_names[PL_SIMD_COUNT] = {"baseline", "avx2", "avx512"};

const char *pl_simd_name(PlSimdLevel l) { return l >= 0 && l < PL_SIMD_COUNT ? level_names[l] : "unknown"; }

int pl_simd_supported(PlSimdLevel l) {
    switch (l) {
    case PL_SIMD_BASELINE: return 1;
#if defined(__x86_64__)
    case PL_SIMD_AVX2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case PL_SIMD_AVX512:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
    default: return 0;
    }
}

static PlSimdLevel best_level(void) {
    PlSimdLevel l = PL_SIMD_COUNT;
    while (l-- > PL_SIMD_BASELINE)
        if (pl_simd_supported(l)) return l;
    return PL_SIMD_BASELINE;
}

PlSimdLevel pl_simd_pick(const char *forced, PlSimdLevel best, int *used_forced) {
    if (used_forced) *used_forced = 0;
    if (!forced || !*forced) return best;
    for (int l = 0; l < PL_SIMD_COUNT; l++)
        if (strcmp(forced, level_names[l]) == 0) {
            if (used_forced) *used_forced = l <= (int)best;
            return l <= (int)best ? (PlSimdLevel)l : best;
        }
    return best;
}

static const PlKernels *const tables[PL_SIMD_COUNT] = {&pl_kernels_baseline, &pl_kernels_avx2, &pl_kernels_avx512};

const PlKernels *pl_kernels_at(PlSimdLevel l) {
    return l >= 0 && l < PL_SIMD_COUNT && pl_simd_supported(l) ? tables[l] : NULL;
}

/* The level chosen, + 1 (0: not chosen yet), and whether a name chose it. */
static atomic_int chosen, chosen_forced;

void pl_kernels_choose(const char *level) {
    int forced;
    PlSimdLevel l = pl_simd_pick(level, best_level(), &forced);
    atomic_store_explicit(&chosen_forced, forced, memory_order_relaxed);
    atomic_store_explicit(&chosen, (int)l + 1, memory_order_release);
}

static PlSimdLevel choose(void) {
    int c = atomic_load_explicit(&chosen, memory_order_acquire);
    if (c) return (PlSimdLevel)(c - 1);
    PlSimdLevel l = best_level();
    atomic_store_explicit(&chosen, (int)l + 1, memory_order_release); /* racing threads store the same */
    return l;
}

const PlKernels *pl_kernels(void) { return tables[choose()]; }

PlSimdLevel pl_simd_level(int *forced) {
    PlSimdLevel l = choose();
    if (forced) *forced = atomic_load_explicit(&chosen_forced, memory_order_relaxed);
    return l;
}

unsigned pl_fp_flush_begin(void) {
#ifdef FLUSH_BITS
    unsigned saved = _mm_getcsr();
    if ((saved & FLUSH_BITS) != FLUSH_BITS) _mm_setcsr(saved | FLUSH_BITS);
    return saved;
#else
    return 0;
#endif
}

void pl_fp_flush_end(unsigned saved) {
#ifdef FLUSH_BITS
    if ((saved & FLUSH_BITS) != FLUSH_BITS) _mm_setcsr(saved);
#else
    (void)saved;
#endif
}
