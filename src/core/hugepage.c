#include "hugepage.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

/* Smaller arrays keep their 4 KiB pages: a huge page is worth its zeroing
 * only when most of it is used. */
#define HUGE_FROM ((size_t)2 << 20)

void pl_advise_huge(void *p, size_t bytes) {
#ifdef MADV_HUGEPAGE
    long page = sysconf(_SC_PAGESIZE);
    if (bytes < HUGE_FROM || page <= 0) return;
    /* The pages p's bytes touch, not the whole ones inside: advice on part
     * of a mapping splits it, and realloc can no longer move it whole
     * (mremap) but copies it. */
    uintptr_t mask = (uintptr_t)page - 1, from = (uintptr_t)p & ~mask, to = ((uintptr_t)p + bytes + mask) & ~mask;
    madvise((void *)from, to - from, MADV_HUGEPAGE); /* advice: refused, it changes nothing */
#else
    (void)p, (void)bytes;
#endif
}
