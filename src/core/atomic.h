/* Writing a file so that a crash, a full disk or a killed process never
 * leaves half of it: the bytes go to a temporary file in the same folder,
 * which is flushed to disk and renamed over the target; the folder is then
 * flushed too. On any failure the temporary file is removed and the target
 * is left as it was. */
#ifndef PL_ATOMIC_H
#define PL_ATOMIC_H

#include <stdio.h>

#include "err.h"

/* Writes the contents; returns 0, or -1 after a failed write. */
typedef int (*PlWriteFn)(FILE *f, void *ctx);

/* Writes path through write(f, ctx). Returns PL_OK, or PL_EIO with a message
 * naming path and the reason. */
PlStatus pl_write_atomic(const char *path, PlWriteFn write, void *ctx, PlErr *err);

/* Writes path, which must not exist yet, as pl_write_atomic does, except
 * that the finished temporary file is hard-linked to path (which fails when
 * path exists, even when another process made it a moment ago) and then
 * removed: an existing file is never replaced and a half-written one never
 * appears under path. Returns PL_OK; or PL_EIO with *taken = 1 when path
 * exists (nothing was written), or *taken = 0 for any other failure. */
PlStatus pl_write_atomic_new(const char *path, PlWriteFn write, void *ctx, int *taken, PlErr *err);

#endif
