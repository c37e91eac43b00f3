/* The kernels for AVX-512 (F, with AVX2 and FMA): 64-byte vectors. */
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
#pragma clang attribute push(__attribute__((target("avx512f,avx2,fma,bmi,bmi2,f16c,lzcnt,movbe,popcnt"))), \
                             apply_to = function)
#endif
#pragma GCC target("avx512f,avx2,fma,bmi,bmi2,f16c,lzcnt,movbe,popcnt")
#define PL_K_BYTES 64
#define PL_K_TABLE pl_kernels_avx512
#define PL_K_NAME "avx512"
#include "kernels_impl.h"
#ifdef __clang__
#pragma clang attribute pop
#endif
#else
#include "kernels.h"
const PlKernels pl_kernels_avx512 = {0}; /* never chosen off x86-64 */
#endif
