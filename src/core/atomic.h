/* Writing a file so that a crash, a full disk or a killed process never
 * leaves half of it. Every file padlab writes goes through here.
 *
 * A regular file (or a name not there yet) is written to a temporary file
 * beside it, FILE.tmp.XXXXXX: created exclusively (O_EXCL, never through a
 * planted link) under a random name, with the mode of the file it replaces
 * (or 0666 less the umask for a new one). On commit the temporary file is
 * flushed to disk and renamed over the target, and the folder is flushed
 * too; on any failure it is removed and the target is left as it was.
 *
 * A symlink is written through: the temporary file goes beside the link's
 * final target, which is replaced; the link stays a link. A name that is
 * there and not a regular file, after its links, is refused before anything
 * is written, in one line naming it and what it is: a FIFO (it would block
 * with no reader), a device such as /dev/null or a terminal, a socket, a
 * folder. /dev/stdout and the other open-file links under /proc that lead
 * to a regular file are appended to directly: there is nothing to replace.
 *
 * Temporary files of the same target left behind by a killed process are
 * removed when the target is next written, once they are more than a day
 * old. "Now" is the modification time of the temporary file just created,
 * so the file system's own clock judges the age and the core reads no
 * clock of its own. Only regular files of ours named exactly
 * FILE.tmp.XXXXXX are removed. */
#ifndef PL_ATOMIC_H
#define PL_ATOMIC_H

#include <stdio.h>

#include "err.h"

/* A temporary file older than this (seconds) is taken for a leftover. */
#define PL_ATOMIC_STALE_SECONDS (24 * 60 * 60)

enum {
    /* The target must not exist: commit hard-links the finished file to it,
     * which fails when it exists, even when another process made it a
     * moment ago. Links at the target are not followed. */
    PL_ATOMIC_NEW = 1
};

/* A file being written. f is where the bytes go, from pl_atomic_open to
 * pl_atomic_commit or pl_atomic_abort. */
typedef struct {
    FILE *f;
    char *shown; /* the name the caller gave, for messages */
    char *path;  /* the name that is finally written, after the links */
    char *tmp;   /* the temporary file; NULL when writing into path directly */
    int flags;
    int taken; /* after a failed commit with PL_ATOMIC_NEW: the name exists */
} PlAtomic;

/* Opens path for writing (flags: 0 or PL_ATOMIC_NEW). Returns PL_OK with
 * a->f ready; or PL_EINPUT when path is not a regular file (see above),
 * PL_EIO / PL_ENOMEM, with a message naming path and the reason, and a
 * closed (nothing to abort). */
PlStatus pl_atomic_open(PlAtomic *a, const char *path, int flags, PlErr *err);

/* Flushes a->f to disk and puts it in place. Returns PL_OK, or PL_EIO with a
 * message naming the file and the reason (a write error such as a full disk
 * is reported here). Either way a is closed and its temporary file gone. */
PlStatus pl_atomic_commit(PlAtomic *a, PlErr *err);

/* Closes a without touching the target: the temporary file is removed.
 * Harmless on a closed or zeroed PlAtomic. */
void pl_atomic_abort(PlAtomic *a);

/* Writes the contents; returns 0, or -1 after a failed write. */
typedef int (*PlWriteFn)(FILE *f, void *ctx);

/* Writes path through write(f, ctx) between pl_atomic_open and commit.
 * Returns PL_OK, or PL_EIO with a message naming path and the reason. */
PlStatus pl_write_atomic(const char *path, PlWriteFn write, void *ctx, PlErr *err);
/* PL_EINPUT with err when path names something there that is not a
 * regular file (a FIFO, which would block with no reader, a device, a
 * socket, a folder; a link is followed); else PL_OK. pl_atomic_open checks
 * it; a command that writes several files checks each first, so that none
 * is written when one would be refused. */
PlStatus pl_atomic_regular_only(const char *path, PlErr *err);

/* The same with PL_ATOMIC_NEW: an existing file is never replaced and a
 * half-written one never appears under path. Returns PL_OK; or PL_EIO with
 * *taken = 1 when path exists (nothing was written), or *taken = 0 for any
 * other failure. */
PlStatus pl_write_atomic_new(const char *path, PlWriteFn write, void *ctx, int *taken, PlErr *err);

/* Two processes that read, merge and rewrite one file take turns through a
 * lock file beside it, PATH.lock (flock, exclusive; never followed through
 * a link). Returns the descriptor that holds the lock until it is closed,
 * or -1 with err naming path and why. The lock file stays: removing it
 * while another process waits on it would let a third lock a new one. */
int pl_lock_beside(const char *path, PlErr *err);

#endif
