/* The one writer of padlab's files (see atomic.h for what it promises).
 *
 * A PlAtomic goes through: open (follow the links to the real name; write
 * into it directly when it is not a regular file; else create the
 * temporary file beside it and sweep that name's leftovers), the caller's
 * writes to a->f, then commit (flush, fsync, rename or link, fsync the
 * folder) or abort (remove the temporary file). */
#include "atomic.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/vfs.h>
#define PROC_MAGIC 0x9fa0 /* PROC_SUPER_MAGIC */
#endif

#define TMP_MARK ".tmp."
#define TMP_RANDOM 6
#define MAX_LINKS 40

/* The folder of path ("." for a bare name), malloc'd; NULL when out of memory. */
static char *folder_of(const char *path) {
    const char *slash = strrchr(path, '/');
    if (!slash) return strdup(".");
    if (slash == path) return strdup("/");
    return strndup(path, (size_t)(slash - path));
}

/* dir/name, malloc'd; NULL when out of memory. */
static char *join(const char *dir, const char *name) {
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/%s", dir, name);
    return p;
}

/* Whether the link at path lives in /proc: /dev/stdout and /dev/fd/N lead
 * there, and those links name an open file, not a name padlab may replace. */
static int in_proc(const char *path) {
#ifdef __linux__
    char *dir = folder_of(path);
    struct statfs fs;
    int yes = dir && statfs(dir, &fs) == 0 && fs.f_type == PROC_MAGIC;
    free(dir);
    return yes;
#else
    return strncmp(path, "/proc/", 6) == 0 || strncmp(path, "/dev/fd/", 8) == 0;
#endif
}

/* The link at p read and made a path (relative links are read from the
 * link's folder), malloc'd; NULL with errno set on failure. */
static char *read_link(const char *p) {
    char buf[PATH_MAX];
    ssize_t n = readlink(p, buf, sizeof buf - 1);
    if (n < 0) return NULL;
    buf[n] = '\0';
    if (buf[0] == '/') return strdup(buf);
    char *dir = folder_of(p), *next = dir ? join(dir, buf) : NULL;
    free(dir);
    return next;
}

/* The name path finally leads to after its links, malloc'd; *proc = 1 when
 * a link on the way lives in /proc. NULL with an errno in *e on failure. */
static char *final_name(const char *path, int *proc, int *e) {
    char *p = strdup(path);
    for (int hops = 0; p && hops < MAX_LINKS; hops++) {
        struct stat st;
        if (lstat(p, &st) != 0 || !S_ISLNK(st.st_mode)) return p;
        if (in_proc(p)) {
            *proc = 1;
            return p;
        }
        char *next = read_link(p);
        if (!next) *e = errno;
        free(p);
        p = next;
    }
    if (p) *e = ELOOP;
    else if (!*e) *e = ENOMEM;
    free(p);
    return NULL;
}

static void random_name(char *out, int attempt) {
    static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    unsigned char r[TMP_RANDOM];
    if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
        /* No entropy to be had: still exclusive, only guessable. */
        uint64_t x = (uint64_t)getpid() * 0x9e3779b97f4a7c15u ^ (uint64_t)(uintptr_t)out ^ (uint64_t)attempt << 40;
        for (int i = 0; i < TMP_RANDOM; i++) r[i] = (unsigned char)(x >> (8 * i));
    }
    for (int i = 0; i < TMP_RANDOM; i++) out[i] = t[r[i] % (sizeof t - 1)];
    out[TMP_RANDOM] = '\0';
}

/* Whether name is base's temporary file: base.tmp.XXXXXX, letters and digits. */
static int is_temp_of(const char *name, const char *base) {
    size_t n = strlen(base), m = strlen(TMP_MARK);
    if (strncmp(name, base, n) != 0 || strncmp(name + n, TMP_MARK, m) != 0) return 0;
    const char *r = name + n + m;
    if (strlen(r) != TMP_RANDOM) return 0;
    for (; *r; r++)
        if (!((*r >= 'a' && *r <= 'z') || (*r >= 'A' && *r <= 'Z') || (*r >= '0' && *r <= '9'))) return 0;
    return 1;
}

/* Removes the leftovers of earlier writes of a->path: its temporary files
 * that are ours, regular, and a day older than the one just made (fd). */
static void sweep_leftovers(const PlAtomic *a, int fd) {
    struct stat mine;
    char *dir = folder_of(a->path);
    const char *slash = strrchr(a->path, '/'), *base = slash ? slash + 1 : a->path;
    DIR *d = dir && fstat(fd, &mine) == 0 ? opendir(dir) : NULL;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        struct stat st;
        char *p = is_temp_of(e->d_name, base) ? join(dir, e->d_name) : NULL;
        if (p && strcmp(p, a->tmp) != 0 && lstat(p, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
            mine.st_mtime - st.st_mtime > PL_ATOMIC_STALE_SECONDS)
            unlink(p);
        free(p);
    }
    if (d) closedir(d);
    free(dir);
}

/* Gives the new file fd the owner and mode of the file it replaces. */
static void keep_mode(int fd, const struct stat *old) {
    struct stat now;
    if (fstat(fd, &now) != 0) return;
    if ((now.st_uid != old->st_uid || now.st_gid != old->st_gid) && fchown(fd, old->st_uid, old->st_gid) != 0) {
        /* only root may give a file away: the writer's own file it stays */
    }
    fchmod(fd, old->st_mode & 07777);
}

/* Creates a->tmp exclusively beside a->path. Returns an open fd, or -1 with errno set. */
static int create_temp(PlAtomic *a) {
    size_t n = strlen(a->path) + strlen(TMP_MARK) + TMP_RANDOM + 1;
    a->tmp = malloc(n);
    if (!a->tmp) return errno = ENOMEM, -1;
    int fd = -1;
    for (int attempt = 0; fd < 0 && attempt < 100; attempt++) {
        int k = snprintf(a->tmp, n, "%s%s", a->path, TMP_MARK);
        random_name(a->tmp + k, attempt);
        fd = open(a->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666); /* 0666 less the umask */
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) {
        int e = errno;
        free(a->tmp);
        a->tmp = NULL;
        errno = e;
    }
    return fd;
}

static void release(PlAtomic *a) {
    free(a->shown);
    free(a->path);
    free(a->tmp);
    a->shown = a->path = a->tmp = NULL;
    a->f = NULL;
}

static PlStatus open_failed(PlAtomic *a, const char *path, int e, PlErr *err) {
    release(a);
    if (e == ENOMEM) return pl_err_set(err, PL_ENOMEM, "%s: out of memory", path);
    return pl_err_set(err, PL_EIO, "%s: cannot write: %s", path, strerror(e));
}

/* No temporary file could be made: the folder is named, since it is what refused. */
static PlStatus temp_failed(PlAtomic *a, const char *path, int e, PlErr *err) {
    char *dir = folder_of(a->path);
    PlStatus st = dir && e != ENOMEM
                      ? pl_err_set(err, PL_EIO, "%s: cannot write in its folder %s: %s", path, dir, strerror(e))
                      : open_failed(a, path, e, err);
    free(dir);
    release(a);
    return st;
}

/* Opens a->path itself, which is not a regular file (or an open file under /proc). */
static PlStatus open_in_place(PlAtomic *a, const char *path, int append, PlErr *err) {
    struct stat st;
    if (stat(a->path, &st) == 0 && S_ISDIR(st.st_mode)) {
        release(a);
        return pl_err_set(err, PL_EIO, "%s: cannot write: a folder, not a file", path);
    }
    int fd = open(a->path, O_WRONLY | O_NOCTTY | O_CLOEXEC | (append ? O_APPEND : 0));
    if (fd < 0) return open_failed(a, path, errno, err);
    a->f = fdopen(fd, "wb");
    if (!a->f) {
        int e = errno;
        close(fd);
        return open_failed(a, path, e, err);
    }
    return PL_OK;
}

/* Opens the temporary file for a->path. */
static PlStatus open_temp(PlAtomic *a, const char *path, PlErr *err) {
    struct stat old;
    int has_old = !(a->flags & PL_ATOMIC_NEW) && lstat(a->path, &old) == 0 && S_ISREG(old.st_mode);
    int fd = create_temp(a);
    if (fd < 0) return temp_failed(a, path, errno, err);
    if (has_old) keep_mode(fd, &old);
    sweep_leftovers(a, fd);
    a->f = fdopen(fd, "wb");
    if (!a->f) {
        int e = errno;
        close(fd);
        unlink(a->tmp);
        return open_failed(a, path, e, err);
    }
    return PL_OK;
}

PlStatus pl_atomic_open(PlAtomic *a, const char *path, int flags, PlErr *err) {
    *a = (PlAtomic){.flags = flags};
    /* A FIFO would block with no reader, a device swallows or refuses the
     * bytes, a socket cannot be opened: none is a file to write. */
    PlStatus st = pl_atomic_regular_only(path, err);
    if (st) return st;
    a->shown = strdup(path);
    if (!a->shown) return open_failed(a, path, ENOMEM, err);
    int proc = 0, e = 0;
    a->path = flags & PL_ATOMIC_NEW ? strdup(path) : final_name(path, &proc, &e);
    if (!a->path) return open_failed(a, path, e ? e : ENOMEM, err);
    if (proc) return open_in_place(a, path, 1, err);
    return open_temp(a, path, err);
}

void pl_atomic_abort(PlAtomic *a) {
    if (a->f) fclose(a->f);
    if (a->tmp) unlink(a->tmp);
    release(a);
}

static void sync_folder(const char *path) {
    char *dir = folder_of(path);
    int fd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    free(dir);
    if (fd < 0) return;
    fsync(fd); /* best effort: some file systems refuse it on folders */
    close(fd);
}

/* Flushes and closes a->f (to disk when it is the temporary file).
 * Returns 0 or the errno of the first failure, a write error before it included. */
static int finish_file(PlAtomic *a) {
    int e = ferror(a->f) ? (errno ? errno : EIO) : 0;
    errno = 0;
    if (fflush(a->f) != 0) e = errno ? errno : EIO;
    if (!e && a->tmp && fsync(fileno(a->f)) != 0) e = errno;
    if (fclose(a->f) != 0 && !e) e = errno ? errno : EIO;
    a->f = NULL;
    return e;
}

/* Puts the finished temporary file under a->path: renamed over it, or for
 * PL_ATOMIC_NEW linked to it (or, on a file system without hard links, the
 * name claimed with O_EXCL and renamed over). Returns 0 or an errno. */
static int put_in_place(const PlAtomic *a) {
    int claimed = 0;
    if (a->flags & PL_ATOMIC_NEW) {
        if (link(a->tmp, a->path) == 0) return unlink(a->tmp), 0;
        int e = errno;
        if (e != EPERM && e != ENOTSUP && e != EOPNOTSUPP) return e;
        int fd = open(a->path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0) return errno;
        close(fd);
        claimed = 1;
    }
    if (rename(a->tmp, a->path) == 0) return 0;
    int e = errno;
    if (claimed) unlink(a->path);
    return e;
}

PlStatus pl_atomic_commit(PlAtomic *a, PlErr *err) {
    a->taken = 0;
    if (!a->f) {
        release(a);
        return pl_err_set(err, PL_EIO, "a file that is not open cannot be written");
    }
    int e = finish_file(a);
    if (!e && a->tmp) {
        e = put_in_place(a);
        if (!e) sync_folder(a->path);
    }
    if (e && a->tmp) unlink(a->tmp);
    PlStatus st = PL_OK;
    if (e == EEXIST && (a->flags & PL_ATOMIC_NEW))
        a->taken = 1, st = pl_err_set(err, PL_EIO, "%s: already exists", a->shown);
    else if (e) st = pl_err_set(err, e == ENOMEM ? PL_ENOMEM : PL_EIO, "%s: cannot write: %s", a->shown, strerror(e));
    release(a);
    return st;
}

/* Opens path with flags, writes it through write(f, ctx), commits. */
static PlStatus write_through(const char *path, int flags, PlWriteFn write, void *ctx, int *taken, PlErr *err) {
    PlAtomic a;
    PlStatus st = pl_atomic_open(&a, path, flags, err);
    if (st) return st;
    errno = 0;
    if (write(a.f, ctx) != 0) {
        int e = errno ? errno : EIO;
        pl_atomic_abort(&a);
        return pl_err_set(err, e == ENOMEM ? PL_ENOMEM : PL_EIO, "%s: cannot write: %s", path, strerror(e));
    }
    st = pl_atomic_commit(&a, err);
    *taken = a.taken;
    return st;
}

PlStatus pl_write_atomic(const char *path, PlWriteFn write, void *ctx, PlErr *err) {
    int taken;
    return write_through(path, 0, write, ctx, &taken, err);
}

PlStatus pl_atomic_regular_only(const char *path, PlErr *err) {
    struct stat st;
    if (stat(path, &st) != 0 || S_ISREG(st.st_mode)) return PL_OK;
    const char *what = S_ISFIFO(st.st_mode)                         ? "a FIFO (a pipe with a name)"
                       : S_ISDIR(st.st_mode)                        ? "a folder"
                       : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                       : S_ISSOCK(st.st_mode)                       ? "a socket"
                                                                    : "not a regular file";
    return pl_err_set(err, PL_EINPUT, "%s: is %s: give the name of a file to write", path, what);
}

PlStatus pl_write_atomic_new(const char *path, PlWriteFn write, void *ctx, int *taken, PlErr *err) {
    *taken = 0;
    if (access(path, F_OK) == 0) {
        *taken = 1;
        return pl_err_set(err, PL_EIO, "%s: already exists", path);
    }
    return write_through(path, PL_ATOMIC_NEW, write, ctx, taken, err);
}

int pl_lock_beside(const char *path, PlErr *err) {
    char lock[PATH_MAX];
    if ((size_t)snprintf(lock, sizeof lock, "%s.lock", path) >= sizeof lock)
        return pl_err_set(err, PL_EIO, "%.200s: the name is too long for its lock file", path), -1;
    int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
    if (fd < 0) return pl_err_set(err, PL_EIO, "%s: cannot write its lock file: %s", path, strerror(errno)), -1;
    while (flock(fd, LOCK_EX) && errno == EINTR) continue;
    return fd;
}
