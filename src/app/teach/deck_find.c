/* Where decks are: the folders looked in, in order (deck.h), and finding one
 * by its name. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "doc.h"
#include "deck.h"

#ifndef PL_DECKS_DIR
#define PL_DECKS_DIR ""
#endif
#ifndef PL_SOURCE_DECKS_DIR
#define PL_SOURCE_DECKS_DIR ""
#endif

#define MAX_DIRS 8

int pl_deck_dirs(char dirs[][1024], int max) {
    return pl_datafile_dirs("PADLAB_DECKS", "decks", PL_DECKS_DIR, PL_SOURCE_DECKS_DIR, dirs, max);
}

static int has_suffix(const char *s, const char *suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static const char *base_of(const char *path) {
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

static int cmp_names(const void *a, const void *b) { return strcmp(base_of(a), base_of(b)); }

static int listed(char paths[][1024], int n, const char *file) {
    for (int i = 0; i < n; i++)
        if (strcmp(base_of(paths[i]), file) == 0) return 1;
    return 0;
}

int pl_deck_list(char paths[][1024], int max) {
    char dirs[MAX_DIRS][1024];
    int nd = pl_deck_dirs(dirs, MAX_DIRS), n = 0;
    for (int d = 0; d < nd; d++) {
        DIR *dir = opendir(dirs[d]);
        if (!dir) continue;
        for (struct dirent *e; (e = readdir(dir)) && n < max;)
            if (e->d_name[0] != '.' && has_suffix(e->d_name, ".deck") && !listed(paths, n, e->d_name))
                snprintf(paths[n++], 1024, "%.700s/%.300s", dirs[d], e->d_name);
        closedir(dir);
    }
    qsort(paths, (size_t)n, sizeof paths[0], cmp_names);
    return n;
}

int pl_deck_find(const char *name, char *path, int cap) {
    struct stat sb;
    if ((strchr(name, '/') || has_suffix(name, ".deck")) && stat(name, &sb) == 0 && S_ISREG(sb.st_mode))
        return snprintf(path, (size_t)cap, "%s", name), 0;
    char want[300];
    snprintf(want, sizeof want, "%.290s%s", name, has_suffix(name, ".deck") ? "" : ".deck");
    char(*paths)[1024] = malloc(256 * sizeof *paths);
    int n = paths ? pl_deck_list(paths, 256) : 0, found = -1;
    for (int i = 0; i < n && found < 0; i++)
        if (strcmp(base_of(paths[i]), want) == 0) found = i;
    if (found >= 0) snprintf(path, (size_t)cap, "%s", paths[found]);
    free(paths);
    return found >= 0 ? 0 : -1;
}
