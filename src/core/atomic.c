#include "atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The folder of path ("." for a bare name) into dir. */
static void folder_of(const char *path, char *dir, size_t cap) {
    const char *slash = strrchr(path, '/');
    if (!slash) snprintf(dir, cap, ".");
    else if (slash == path) snprintf(dir, cap, "/");
    else snprintf(dir, cap, "%.*s", (int)(slash - path), path);
}

static void sync_folder(const char *path) {
    char dir[4096];
    folder_of(path, dir, sizeof dir);
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd < 0) return;
    fsync(fd); /* best effort: some file systems refuse it on folders */
    close(fd);
}

/* Writes the temporary file beside path (named into *tmp, malloc'd) and
 * flushes it to disk. Returns 0, or an errno with the file removed. */
static int write_temp(const char *path, PlWriteFn write, void *ctx, char **tmp) {
    size_t n = strlen(path);
    *tmp = malloc(n + 16);
    if (!*tmp) return ENOMEM;
    snprintf(*tmp, n + 16, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(*tmp);
    if (fd < 0) {
        int e = errno;
        free(*tmp);
        *tmp = NULL;
        return e;
    }
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask); /* as fopen would have made it, not mkstemp's 0600 */
    FILE *f = fdopen(fd, "w");
    errno = 0;
    int ok = f && write(f, ctx) == 0 && fflush(f) == 0 && fsync(fileno(f)) == 0;
    int e = errno;
    if (f) {
        if (fclose(f) != 0 && ok) ok = 0, e = errno;
    } else {
        close(fd);
    }
    if (ok) return 0;
    unlink(*tmp);
    free(*tmp);
    *tmp = NULL;
    return e ? e : EIO;
}

static PlStatus write_failed(const char *path, int e, PlErr *err) {
    if (e == ENOMEM) return pl_err_set(err, PL_ENOMEM, "%s: out of memory", path);
    return pl_err_set(err, PL_EIO, "%s: cannot write: %s", path, strerror(e));
}

PlStatus pl_write_atomic(const char *path, PlWriteFn write, void *ctx, PlErr *err) {
    char *tmp;
    int e = write_temp(path, write, ctx, &tmp);
    if (e) return write_failed(path, e, err);
    if (rename(tmp, path) != 0) {
        e = errno;
        unlink(tmp);
        free(tmp);
        return write_failed(path, e, err);
    }
    free(tmp);
    sync_folder(path);
    return PL_OK;
}

PlStatus pl_write_atomic_new(const char *path, PlWriteFn write, void *ctx, int *taken, PlErr *err) {
    *taken = 0;
    if (access(path, F_OK) == 0) {
        *taken = 1;
        return pl_err_set(err, PL_EIO, "%s: already exists", path);
    }
    char *tmp;
    int e = write_temp(path, write, ctx, &tmp);
    if (e) return write_failed(path, e, err);
    if (link(tmp, path) != 0) e = errno;
    if (e == EPERM || e == ENOTSUP || e == EOPNOTSUPP) {
        /* A file system without hard links: claim the name with O_EXCL,
         * then rename the finished file over the empty claim. */
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0666);
        e = fd < 0 ? errno : 0;
        if (fd >= 0) close(fd);
        if (!e && rename(tmp, path) != 0) e = errno, unlink(path);
    }
    unlink(tmp);
    free(tmp);
    if (e == EEXIST) {
        *taken = 1;
        return pl_err_set(err, PL_EIO, "%s: already exists", path);
    }
    if (e) return write_failed(path, e, err);
    sync_folder(path);
    return PL_OK;
}
