#include "infile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_of(mode_t m) {
    if (S_ISDIR(m)) return "a folder";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

PlStatus pl_infile_open(const char *path, uint64_t max, FILE **f, uint64_t *size, PlErr *err) {
    *f = NULL;
    /* O_NONBLOCK: opening a FIFO with no writer would otherwise wait for one. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return pl_err_set(err, PL_EIO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return pl_err_set(err, PL_EIO, "%s: cannot read: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return pl_err_set(err, PL_EIO, "%s: %s, not a regular file", path, kind_of(st.st_mode));
    }
    if (max && (uint64_t)st.st_size > max) {
        close(fd);
        return pl_err_set(err, PL_ERANGE, "%s: %lld bytes, more than the %llu this padlab reads", path,
                          (long long)st.st_size, (unsigned long long)max);
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    *f = fdopen(fd, "rb");
    if (!*f) {
        int e = errno;
        close(fd);
        if (e == ENOMEM) return pl_err_set(err, PL_ENOMEM, "%s: out of memory while opening it", path);
        return pl_err_set(err, PL_EIO, "%s: cannot open: %s", path, strerror(e));
    }
    if (size) *size = (uint64_t)st.st_size;
    return PL_OK;
}

int pl_infile_regular(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}
