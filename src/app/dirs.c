#include "dirs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/corpus_cache.h"
#include "core/folder.h"
#include "core/kernels.h"

/* Each kind: its variable, its default under $HOME, its name in messages. */
static const struct {
    const char *var, *under_home, *what;
} kinds[] = {
    [PL_DIR_DATA] = {"XDG_DATA_HOME", ".local/share", "data"},
    [PL_DIR_STATE] = {"XDG_STATE_HOME", ".local/state", "state"},
    [PL_DIR_CACHE] = {"XDG_CACHE_HOME", ".cache", "cache"},
};

PlStatus pl_dir_find(PlDirKind kind, char *buf, size_t cap, PlErr *err) {
    const char *xdg = getenv(kinds[kind].var), *home = getenv("HOME");
    int n;
    if (xdg && xdg[0] == '/') n = snprintf(buf, cap, "%s/padlab", xdg);
    else if (home && *home) n = snprintf(buf, cap, "%s/%s/padlab", home, kinds[kind].under_home);
    else
        return pl_err_set(err, PL_EIO, "no %s folder: neither %s (an absolute path) nor HOME is set",
                          kinds[kind].what, kinds[kind].var);
    if (n < 0 || (size_t)n >= cap) return pl_err_set(err, PL_EIO, "no %s folder: its name is too long", kinds[kind].what);
    return PL_OK;
}

PlStatus pl_dir_state(char *buf, size_t cap, PlErr *err) {
    PlStatus st = pl_dir_find(PL_DIR_STATE, buf, cap, err);
    return st ? st : pl_folder_make(buf, err);
}

PlCacheUse pl_dirs_cache(char *dir, size_t cap) {
    char base[3000];
    const char *mode = getenv("PADLAB_CACHE");
    if (pl_dir_find(PL_DIR_CACHE, base, sizeof base, NULL) || snprintf(dir, cap, "%s/corpus", base) >= (int)cap)
        dir[0] = '\0';
    if (mode && (strcmp(mode, "off") == 0 || strcmp(mode, "0") == 0)) return PL_CACHE_OFF;
    return mode && strcmp(mode, "all") == 0 ? PL_CACHE_ALL : PL_CACHE_LARGE;
}

void pl_dirs_setup_core(void) {
    char dir[3072];
    PlCacheUse use = pl_dirs_cache(dir, sizeof dir);
    pl_cache_configure(dir, use);
    pl_kernels_choose(getenv("PADLAB_SIMD"));
}
