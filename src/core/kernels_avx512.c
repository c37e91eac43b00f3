/* The kernels for AVX-512 (F, with AVX2 and FMA): 64-byte vectors. */
#if defined(__x86_64__)
#pragma GCC target("avx512f,avx2,fma,bmi,bmi2,f16c,lzcnt,movbe,popcnt")
#define PL_K_BYTES 64
#define PL_K_TABLE pl_kernels_avx512
#define PL_K_NAME "avx512"
#include "kernels_impl.h"
#else
#include "kernels.h"
const PlKernels pl_kernels_avx512 = {0}; /* never chosen off x86-64 */
#endif
