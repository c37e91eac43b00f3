#include "folder.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* One level: made, or already a folder. */
static PlStatus make_one(const char *dir, PlErr *err) {
    struct stat st;
    if (mkdir(dir, 0700) == 0) return PL_OK;
    int e = errno;
    if (e == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) return PL_OK;
    if (e == EEXIST) return pl_err_set(err, PL_EIO, "%s: cannot make the folder: a file is in the way", dir);
    return pl_err_set(err, PL_EIO, "%s: cannot make the folder: %s", dir, strerror(e));
}

PlStatus pl_folder_make(const char *path, PlErr *err) {
    char buf[4096];
    if (!path || !*path) return pl_err_set(err, PL_EIO, "cannot make a folder without a name");
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
        return pl_err_set(err, PL_EIO, "%.64s...: cannot make the folder: the name is too long", path);
    for (char *s = buf + 1; *s; s++) {
        if (*s != '/' || s[-1] == '/') continue;
        *s = '\0';
        PlStatus st = make_one(buf, err);
        *s = '/';
        if (st) return st;
    }
    return make_one(buf, err);
}
