/* The arrays of a kata's cases, and how they are written out.
 *
 * A case is named arrays: its inputs, which padlab writes (JSON, or one
 * NumPy .npy file per array), and its expected outputs, which the learner's
 * must match. An array holds its cells as doubles whatever its type (every
 * int32, float32, float16 and bool value is a double exactly), row-major:
 *
 *   shape (d0, d1, d2)   cell (i, j, k) at v[(i*d1 + j)*d2 + k]
 *   ragged               rows of their own lengths: rowlen[0..d0), cells
 *                        one row after the other (pad_sequences' input)
 *   text                 a word ("pre", "post"), ndim 0
 *
 * care (n), when not NULL, marks the cells whose value counts: 0 = any value
 * passes (a pad's position id, which no key ever reads). */
#ifndef PL_APP_KATA_KARRAY_H
#define PL_APP_KATA_KARRAY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/err.h"

typedef enum { PL_KT_INT, PL_KT_FLOAT, PL_KT_HALF, PL_KT_BOOL, PL_KT_TEXT } PlKType;

#define PL_KARRAY_MAX_DIM 3

typedef struct {
    const char *name; /* static: a row of the task's table */
    PlKType type;
    int ndim, shape[PL_KARRAY_MAX_DIM];
    int ragged;    /* shape[0] rows of rowlen[r] cells */
    int *rowlen;   /* (shape[0]) when ragged */
    size_t n;      /* cells */
    double *v;     /* (n) */
    uint8_t *care; /* (n) or NULL: every cell counts */
    char text[16]; /* PL_KT_TEXT */
} PlKArray;

#define PL_KCASE_MAX_ARRAYS 8

/* One case: its inputs and the outputs padlab's core computed from them. */
typedef struct {
    char what[64]; /* "left padding": what the case tries */
    int nin, nout;
    PlKArray in[PL_KCASE_MAX_ARRAYS], out[PL_KCASE_MAX_ARRAYS];
    int pad_id;    /* the case's pad id (for the reasons given) */
} PlKCase;

/* Gives a (zeroed, named) its cells for shape d[0..ndim) of type t: PL_OK or
 * PL_ENOMEM. */
PlStatus pl_karray_make(PlKArray *a, const char *name, PlKType t, int ndim, const int *d);
/* A ragged array of rows rows of lengths len[0..rows). */
PlStatus pl_karray_make_ragged(PlKArray *a, const char *name, PlKType t, int rows, const int *len);
/* A scalar (ndim 0) and a word. Can't fail past memory: PL_OK or PL_ENOMEM. */
PlStatus pl_karray_scalar(PlKArray *a, const char *name, PlKType t, double v);
void pl_karray_text(PlKArray *a, const char *name, const char *word);
void pl_karray_done(PlKArray *a);
void pl_kcase_done(PlKCase *c);

/* The name of a type as a candidate reads it: "int32", "float32", ... */
const char *pl_ktype_name(PlKType t);

/* Writes a as a JSON value (nested lists, numbers, true/false, a string;
 * -Infinity and Infinity as Python's json writes them). 0 or -1. */
int pl_karray_json(FILE *f, const PlKArray *a);
/* Writes one case as a JSON object {"case": N, "what": ..., "inputs": {...}}. */
int pl_kcase_json(FILE *f, const PlKCase *c, int number);

/* Writes a as a NumPy .npy file (format version 1.0: the magic, a header
 * dict padded to 64 bytes, the cells little-endian). A ragged array is two
 * files: NAME_values.npy (the cells, flat) and NAME_lengths.npy. Files go
 * through the core's atomic writer; dir must exist. PL_OK or PL_EIO/ENOMEM. */
PlStatus pl_karray_npy(const char *dir, const PlKArray *a, PlErr *err);

/* A float's float16 bits (round to nearest even; inf past 65504). */
uint16_t pl_half_bits(float x);

#endif
