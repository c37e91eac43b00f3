/* The embedding fused with the first recurrent layer's input projection.
 *
 * A batch of 32 reviews of 200 tokens holds 6,400 cells but only about 2,000
 * distinct ids: projecting each distinct row once (and summing the gradients
 * per id before the weight products) does a third of the arithmetic of
 * projecting every cell, with the same result up to the order of float sums. */
#include <stdlib.h>
#include <string.h>

#include "../kernels.h"
#include "../tensor.h"
#include "nn.h"

int pl_idtable_init(PlIdTable *t, int V) {
    memset(t, 0, sizeof *t);
    t->V = V;
    t->slot = malloc((size_t)V * sizeof *t->slot);
    if (!t->slot) return -1;
    for (int i = 0; i < V; i++) t->slot[i] = -1;
    return 0;
}

void pl_idtable_done(PlIdTable *t) {
    free(t->slot);
    free(t->uniq);
    free(t->rows);
    free(t->acc);
    free(t->cell);
    memset(t, 0, sizeof *t);
}

static int grow(PlIdTable *t, int need, int E, int G) {
    if (need <= t->cap) return 0;
    int cap = need;
    int *u = realloc(t->uniq, (size_t)cap * sizeof *u);
    if (u) t->uniq = u;
    float *r = realloc(t->rows, (size_t)cap * E * sizeof *r);
    if (r) t->rows = r;
    float *a = realloc(t->acc, (size_t)cap * G * sizeof *a);
    if (a) t->acc = a;
    if (!u || !r || !a) return -1;
    t->cap = cap;
    return 0;
}

/* t->cell (T,B) = the slot of each cell's id. */
static int cell_slots(PlIdTable *t, const int32_t *ids, int B, int T) {
    size_t cells = (size_t)B * T;
    if (cells > t->cell_cap) {
        int *c = realloc(t->cell, cells * sizeof *c);
        if (!c) return -1;
        t->cell = c, t->cell_cap = cells;
    }
    for (int tt = 0; tt < T; tt++)
        for (int bb = 0; bb < B; bb++) t->cell[(size_t)tt * B + bb] = t->slot[ids[(size_t)bb * T + tt]];
    return 0;
}

int pl_embed_project_forward(float *out, PlIdTable *t, const int32_t *ids, const float *W, const float *Wx,
                             const float *b, int B, int T, int E, int G) {
    for (int i = 0; i < t->U; i++) t->slot[t->uniq[i]] = -1; /* forget the previous batch */
    t->U = 0;
    int cells = B * T;
    if (grow(t, cells < t->V ? cells : t->V, E, G)) return -1;
    for (int i = 0; i < cells; i++) {
        int32_t id = ids[i];
        if (id < 0 || id >= t->V) return -1;
        if (t->slot[id] >= 0) continue;
        t->slot[id] = t->U;
        memcpy(t->rows + (size_t)t->U * E, W + (size_t)id * E, (size_t)E * sizeof *t->rows);
        t->uniq[t->U++] = id;
    }
    pl_dense_forward(t->acc, t->rows, Wx, b, t->U, E, G);
    if (cell_slots(t, ids, B, T)) return -1;
    for (size_t c = 0; out && c < (size_t)cells; c++)
        memcpy(out + c * G, t->acc + (size_t)t->cell[c] * G, (size_t)G * sizeof *out);
    return 0;
}

void pl_embed_project_backward(float *dW, float *dWx, float *db, PlIdTable *t, const float *da, const float *Wx, int B,
                               int T, int E, int G, int skip_id0) {
    const PlKernels *k = pl_kernels();
    memset(t->acc, 0, (size_t)t->U * G * sizeof *t->acc);
    k->add_rows(t->acc, t->cell, da, (size_t)B * T, G, -1);
    for (int u = 0; u < t->U; u++) k->add(db, t->acc + (size_t)u * G, (size_t)G);
    pl_gemm(1, 0, E, G, t->U, 1.0f, t->rows, E, t->acc, G, 1.0f, dWx, G);
    /* dW[u] += S_u Wx^T, computed into rows (no longer needed) then added. */
    pl_gemm(0, 1, t->U, E, G, 1.0f, t->acc, G, Wx, G, 0.0f, t->rows, E);
    k->add_rows(dW, t->uniq, t->rows, (size_t)t->U, E, skip_id0 ? 0 : -1);
}
