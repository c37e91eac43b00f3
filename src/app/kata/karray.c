/* A kata case's arrays and their JSON and .npy forms (karray.h). */
#include "karray.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app/report/out.h"
#include "core/atomic.h"

static const char *const type_names[] = {"int32", "float32", "float16", "bool", "str"};

const char *pl_ktype_name(PlKType t) { return type_names[t]; }

static PlStatus cells(PlKArray *a) {
    a->v = calloc(a->n ? a->n : 1, sizeof *a->v);
    return a->v ? PL_OK : PL_ENOMEM;
}

PlStatus pl_karray_make(PlKArray *a, const char *name, PlKType t, int ndim, const int *d) {
    memset(a, 0, sizeof *a);
    a->name = name, a->type = t, a->ndim = ndim, a->n = 1;
    for (int k = 0; k < ndim; k++) a->shape[k] = d[k], a->n *= (size_t)d[k];
    return cells(a);
}

PlStatus pl_karray_make_ragged(PlKArray *a, const char *name, PlKType t, int rows, const int *len) {
    memset(a, 0, sizeof *a);
    a->name = name, a->type = t, a->ndim = 2, a->ragged = 1, a->shape[0] = rows;
    if (!(a->rowlen = malloc(sizeof *a->rowlen * (size_t)(rows ? rows : 1)))) return PL_ENOMEM;
    for (int r = 0; r < rows; r++) a->rowlen[r] = len[r], a->n += (size_t)len[r];
    return cells(a);
}

PlStatus pl_karray_scalar(PlKArray *a, const char *name, PlKType t, double v) {
    PlStatus st = pl_karray_make(a, name, t, 0, NULL);
    if (!st) a->v[0] = v;
    return st;
}

void pl_karray_text(PlKArray *a, const char *name, const char *word) {
    memset(a, 0, sizeof *a);
    a->name = name, a->type = PL_KT_TEXT;
    snprintf(a->text, sizeof a->text, "%s", word);
}

void pl_karray_done(PlKArray *a) {
    free(a->v), free(a->care), free(a->rowlen);
    a->v = NULL, a->care = NULL, a->rowlen = NULL;
}

void pl_kcase_done(PlKCase *c) {
    for (int i = 0; i < c->nin; i++) pl_karray_done(&c->in[i]);
    for (int i = 0; i < c->nout; i++) pl_karray_done(&c->out[i]);
    c->nin = c->nout = 0;
}

/* ---- JSON ---- */

static void json_cell(FILE *f, PlKType t, double v) {
    if (t == PL_KT_BOOL) fputs(v != 0.0 ? "true" : "false", f);
    else if (t == PL_KT_INT) fprintf(f, "%.0f", v);
    else if (isinf(v)) fputs(v < 0 ? "-Infinity" : "Infinity", f);
    else if (isnan(v)) fputs("NaN", f);
    else fprintf(f, "%.9g", v);
}

/* The cells from at, over dimensions dim.. of a rectangular array. */
static size_t json_dims(FILE *f, const PlKArray *a, int dim, size_t at) {
    if (dim == a->ndim) return json_cell(f, a->type, a->v[at]), at + 1;
    fputc('[', f);
    for (int i = 0; i < a->shape[dim]; i++) {
        if (i) fputs(", ", f);
        at = json_dims(f, a, dim + 1, at);
    }
    fputc(']', f);
    return at;
}

int pl_karray_json(FILE *f, const PlKArray *a) {
    if (a->type == PL_KT_TEXT) out_json_string(f, a->text);
    else if (!a->ragged) json_dims(f, a, 0, 0);
    else {
        fputc('[', f);
        for (int r = 0, at = 0; r < a->shape[0]; r++) {
            fputs(r ? ", [" : "[", f);
            for (int k = 0; k < a->rowlen[r]; k++, at++) {
                if (k) fputs(", ", f);
                json_cell(f, a->type, a->v[at]);
            }
            fputc(']', f);
        }
        fputc(']', f);
    }
    return ferror(f) ? -1 : 0;
}

int pl_kcase_json(FILE *f, const PlKCase *c, int number) {
    fprintf(f, "{\"case\": %d, \"what\": ", number);
    out_json_string(f, c->what);
    fputs(", \"inputs\": {", f);
    for (int i = 0; i < c->nin; i++) {
        fprintf(f, "%s\"%s\": ", i ? ", " : "", c->in[i].name);
        pl_karray_json(f, &c->in[i]);
    }
    fputs("}}", f);
    return ferror(f) ? -1 : 0;
}

/* ---- .npy ---- */

uint16_t pl_half_bits(float x) {
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    float m = fabsf(x);
    if (isnan(x)) return (uint16_t)(sign | 0x7e00u);
    if (m >= 65520.0f) return (uint16_t)(sign | 0x7c00u); /* past the largest half, rounded */
    if (m < 6.103515625e-05f) {                           /* subnormal: steps of 2^-24 */
        return (uint16_t)(sign | (uint16_t)lrintf(m * 16777216.0f));
    }
    int e;
    float fr = frexpf(m, &e); /* m = fr * 2^e, fr in [0.5, 1) */
    long mant = lrintf((fr * 2.0f - 1.0f) * 1024.0f);
    int ex = e - 1 + 15;
    if (mant == 1024) mant = 0, ex++;
    if (ex >= 31) return (uint16_t)(sign | 0x7c00u);
    return (uint16_t)(sign | (uint16_t)(ex << 10) | (uint16_t)mant);
}

typedef struct {
    const PlKArray *a;
    int part; /* ragged: 0 the values, 1 the lengths */
} NpyJob;

static const char *descr(PlKType t) {
    switch (t) {
    case PL_KT_INT: return "<i4";
    case PL_KT_FLOAT: return "<f4";
    case PL_KT_HALF: return "<f2";
    case PL_KT_BOOL: return "|b1";
    default: return "<U16";
    }
}

static void put_le(FILE *f, uint32_t v, int bytes) {
    for (int b = 0; b < bytes; b++) fputc((int)((v >> (8 * b)) & 0xffu), f);
}

static void npy_cell(FILE *f, PlKType t, double v) {
    float x = (float)v;
    uint32_t u;
    switch (t) {
    case PL_KT_INT: put_le(f, (uint32_t)(int32_t)v, 4); break;
    case PL_KT_BOOL: fputc(v != 0.0, f); break;
    case PL_KT_HALF: put_le(f, pl_half_bits(x), 2); break;
    default: memcpy(&u, &x, sizeof u), put_le(f, u, 4); break;
    }
}

static int npy_write(FILE *f, void *ctx) {
    const NpyJob *j = ctx;
    const PlKArray *a = j->a;
    char shape[80] = "", head[200];
    PlKType t = a->ragged && j->part ? PL_KT_INT : a->type;
    if (a->ragged) snprintf(shape, sizeof shape, "%zu,", j->part ? (size_t)a->shape[0] : a->n);
    for (int k = 0; !a->ragged && k < a->ndim; k++)
        snprintf(shape + strlen(shape), sizeof shape - strlen(shape), "%d%s", a->shape[k],
                 a->ndim == 1 || k < a->ndim - 1 ? ", " : "");
    int len = snprintf(head, sizeof head, "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr(t), shape);
    int total = 10 + len + 1, pad = (64 - total % 64) % 64;
    fputs("\x93NUMPY", f);
    fputc(1, f), fputc(0, f);
    put_le(f, (uint32_t)(len + pad + 1), 2);
    fprintf(f, "%s%*s\n", head, pad, "");
    if (t == PL_KT_TEXT) {
        for (int k = 0; k < 16; k++) put_le(f, k < (int)strlen(a->text) ? (uint8_t)a->text[k] : 0, 4);
    } else if (a->ragged && j->part) {
        for (int r = 0; r < a->shape[0]; r++) put_le(f, (uint32_t)a->rowlen[r], 4);
    } else {
        for (size_t i = 0; i < a->n; i++) npy_cell(f, t, a->v[i]);
    }
    return ferror(f) ? -1 : 0;
}

PlStatus pl_karray_npy(const char *dir, const PlKArray *a, PlErr *err) {
    char path[1200];
    for (int part = 0; part < 1 + a->ragged; part++) {
        NpyJob j = {a, part};
        const char *tail = !a->ragged ? "" : part ? "_lengths" : "_values";
        snprintf(path, sizeof path, "%.1000s/%s%s.npy", dir, a->name, tail);
        PlStatus st = pl_write_atomic(path, npy_write, &j, err);
        if (st) return st;
    }
    return PL_OK;
}
