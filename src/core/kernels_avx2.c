/* The kernels for AVX2 with FMA (x86-64-v3): 32-byte vectors. The target is
 * set here, not by a -m flag, so the rest of the core stays baseline and the
 * build needs no per-file flags. */
#if defined(__x86_64__)
#pragma GCC target("avx2,fma,bmi,bmi2,f16c,lzcnt,movbe,popcnt")
#define PL_K_BYTES 32
#define PL_K_TABLE pl_kernels_avx2
#define PL_K_NAME "avx2"
#include "kernels_impl.h"
#else
#include "kernels.h"
const PlKernels pl_kernels_avx2 = {0}; /* never chosen off x86-64 */
#endif
