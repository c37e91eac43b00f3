/* Packing a padded batch the way PyTorch's pack_padded_sequence does: rows
 * sorted by real length, longest first, each row's real tokens moved to the
 * front, so step k runs only on the rows still going (a prefix). */
#include <stdlib.h>
#include <string.h>

#include "nn.h"

void pl_pack_done(PlPack *p) {
    free(p->perm);
    free(p->len);
    free(p->pos);
    free(p->nact);
    memset(p, 0, sizeof *p);
}

int pl_pack_init(PlPack *p, const uint8_t *mask, int B, int T) {
    memset(p, 0, sizeof *p);
    p->B = B;
    p->T = T;
    p->perm = malloc((size_t)B * sizeof *p->perm);
    p->len = malloc((size_t)B * sizeof *p->len);
    p->pos = malloc(((size_t)B * T + 1) * sizeof *p->pos);
    p->nact = calloc((size_t)T + 1, sizeof *p->nact);
    if (!p->perm || !p->len || !p->pos || !p->nact) {
        pl_pack_done(p);
        return -1;
    }
    /* Insertion by descending length keeps equal lengths in batch order. */
    for (int b = 0; b < B; b++) {
        int L = 0;
        for (int t = 0; t < T; t++) L += mask[(size_t)b * T + t] != 0;
        int i = b;
        while (i > 0 && p->len[i - 1] < L) {
            p->len[i] = p->len[i - 1];
            p->perm[i] = p->perm[i - 1];
            i--;
        }
        p->len[i] = L;
        p->perm[i] = b;
    }
    for (int i = 0; i < B; i++) {
        int k = 0, b = p->perm[i];
        for (int t = 0; t < T; t++)
            if (mask[(size_t)b * T + t]) p->pos[(size_t)i * T + k++] = t;
        for (int s = 0; s < p->len[i]; s++) p->nact[s]++;
    }
    p->K = B ? p->len[0] : 0;
    return 0;
}

void pl_pack_gather(float *xp, const float *x, const PlPack *p, int C) {
    memset(xp, 0, (size_t)p->K * p->B * C * sizeof *xp);
    for (int i = 0; i < p->B; i++)
        for (int k = 0; k < p->len[i]; k++) {
            int t = p->pos[(size_t)i * p->T + k];
            memcpy(xp + ((size_t)k * p->B + i) * C, x + ((size_t)t * p->B + p->perm[i]) * C, (size_t)C * sizeof *xp);
        }
}

void pl_pack_scatter(float *x, const float *xp, const PlPack *p, int C) {
    memset(x, 0, (size_t)p->T * p->B * C * sizeof *x);
    for (int i = 0; i < p->B; i++)
        for (int k = 0; k < p->len[i]; k++) {
            int t = p->pos[(size_t)i * p->T + k];
            memcpy(x + ((size_t)t * p->B + p->perm[i]) * C, xp + ((size_t)k * p->B + i) * C, (size_t)C * sizeof *x);
        }
}
