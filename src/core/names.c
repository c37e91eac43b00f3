#include "names.h"

#include <string.h>

int pl_name_find(const char *const *names, const char *s) {
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], s) == 0) return i;
    return -1;
}

const char *pl_name_of(const char *const *names, int v) {
    for (int i = 0; names[i]; i++)
        if (i == v) return names[i];
    return "?";
}

int pl_row_find(const void *rows, size_t stride, int n, const char *s) {
    for (int i = 0; i < n; i++) {
        /* A struct's address is its first member's: the row's name. */
        const char *name = *(const char *const *)(const void *)((const char *)rows + (size_t)i * stride);
        if (!name) break;
        if (strcmp(name, s) == 0) return i;
    }
    return -1;
}
