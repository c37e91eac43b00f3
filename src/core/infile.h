/* Opening a file named from outside for reading: only a regular file, never
 * blocking on a FIFO or a device, and no larger than the caller allows, so
 * that a FIFO, /dev/zero or a folder cannot hang or exhaust a loader. */
#ifndef PL_INFILE_H
#define PL_INFILE_H

#include <stdint.h>
#include <stdio.h>

#include "err.h"

/* Opens path when it is a regular file of at most max bytes (0: any size).
 * Returns PL_OK with *f open for reading ("rb") and *size (when not NULL)
 * its size; else PL_EIO (cannot open, or not a regular file) or PL_ERANGE
 * (too large) with a message naming path, and *f NULL. */
PlStatus pl_infile_open(const char *path, uint64_t max, FILE **f, uint64_t *size, PlErr *err);

/* 1 when path names a regular file (following symlinks), else 0. */
int pl_infile_regular(const char *path);

#endif
