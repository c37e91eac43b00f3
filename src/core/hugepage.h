/* Transparent huge pages for the large arrays a corpus is loaded into: its
 * token ids and its vocabulary's hash table. A page fault every 4 KiB of
 * them was a fifth of loading a large corpus. */
#ifndef PL_HUGEPAGE_H
#define PL_HUGEPAGE_H

#include <stddef.h>

/* Asks for transparent huge pages over the pages of p[0..bytes) when it is
 * large (a few MiB); small or refused, nothing changes. Can't fail. */
void pl_advise_huge(void *p, size_t bytes);

#endif
