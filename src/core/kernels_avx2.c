/* The kernels for AVX2 with FMA (x86-64-v3): 32-byte vectors. The target is
 * set here, not by a -m flag, so the rest of the core stays baseline and the
 * build needs no per-file flags. */
#if defined(__x86_64__)
#ifdef __clang__
/* clang ignores GCC's target pragma: it gives every function defined below
 * the target instead. The headers come first, so that their own functions
 * keep theirs. */
#include <immintrin.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "kernels.h"
#include "tanh_fit.h"
#pragma clang attribute push(__attribute__((target("avx2,fma,bmi,bmi2,f16c,lzcnt,movbe,popcnt"))), apply_to = function)
#endif
#pragma GCC target("avx2,fma,bmi,bmi2,f16c,lzcnt,movbe,popcnt")
#define PL_K_BYTES 32
#define PL_K_TABLE pl_kernels_avx2
#define PL_K_NAME "avx2"
#include "kernels_impl.h"
#ifdef __clang__
#pragma clang attribute pop
#endif
#else
#include "kernels.h"
const PlKernels pl_kernels_avx2 = {0}; /* never chosen off x86-64 */
#endif
