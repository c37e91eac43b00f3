/* The kernels for any CPU: 16-byte vectors (SSE2 on x86-64, the compiler's
 * lowering elsewhere), no FMA. */
#define PL_K_BYTES 16
#define PL_K_TABLE pl_kernels_baseline
#define PL_K_NAME "baseline"
#include "kernels_impl.h"
