/* Transparent huge pages for the vocabulary's hash table, which a load
 * probes at random: a 4 KiB page each would miss the TLB. The token ids are
 * written in order and keep 4 KiB pages: on a virtual machine that hands
 * freed memory back to its host, a fresh huge page cost 2.5-4.6 s a GB to
 * touch first against 0.5-0.8 s for 4 KiB pages, and the ids of a million
 * reviews are 940 MB (bench/coldload). */
#ifndef PL_HUGEPAGE_H
#define PL_HUGEPAGE_H

#include <stddef.h>

/* Asks for transparent huge pages over the pages of p[0..bytes) when it is
 * large (a few MiB); small or refused, nothing changes. Can't fail. */
void pl_advise_huge(void *p, size_t bytes);

#endif
