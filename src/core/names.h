/* Name <-> value tables: the one lookup every parser of a name uses.
 *
 * A name table is an array of names indexed by the value they stand for,
 * ended by NULL ({"pre", "post", NULL} for PlSide). A row table is an array
 * of structs whose first member is the row's name (the model kinds, the
 * settings, the probes). */
#ifndef PL_NAMES_H
#define PL_NAMES_H

#include <stddef.h>

/* The index of s in a NULL-terminated name table; -1 when it is not there. */
int pl_name_find(const char *const *names, const char *s);

/* names[v] when v is one of the table's indices, else "?". */
const char *pl_name_of(const char *const *names, int v);

/* The index of the row named s among n rows of stride bytes whose first
 * member is a const char * name (a NULL name ends the table early); -1 when
 * none is. PL_ROW_FIND takes the stride from the array. */
int pl_row_find(const void *rows, size_t stride, int n, const char *s);
#define PL_ROW_FIND(rows, n, s) pl_row_find((rows), sizeof(rows)[0], (n), (s))

#endif
