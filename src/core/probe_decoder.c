/* The decoder the generate and kvcache probes share (probe_decoder.h). */
#include "probe_decoder.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "corpus.h"
#include "nn/nn.h"
#include "tensor.h"

void pl_decoder_free(PlDecoder *d) {
    free(d->tok), free(d->pos), free(d->wq), free(d->wk), free(d->wv), free(d->wo), free(d->head);
}

static float *draw(PlRng *rng, size_t n, float limit) {
    float *w = malloc(n * sizeof *w + 1);
    if (w) pl_init_uniform(w, n, -limit, limit, rng);
    return w;
}

int pl_decoder_init(PlDecoder *d, int V, int P, PlSeed seed) {
    PlRng rng;
    pl_rng_seed(&rng, seed);
    int HD = PL_DEC_HEADS * PL_DEC_D;
    float g = sqrtf(6.0f / (PL_DEC_E + HD));
    d->V = V, d->P = P;
    d->tok = draw(&rng, (size_t)V * PL_DEC_E, 0.5f);
    d->pos = draw(&rng, (size_t)P * PL_DEC_E, 0.5f);
    d->wq = draw(&rng, (size_t)PL_DEC_E * HD, g), d->wk = draw(&rng, (size_t)PL_DEC_E * HD, g);
    d->wv = draw(&rng, (size_t)PL_DEC_E * HD, g), d->wo = draw(&rng, (size_t)HD * PL_DEC_E, g);
    d->head = draw(&rng, (size_t)PL_DEC_E * PL_DEC_C, sqrtf(6.0f / (PL_DEC_E + PL_DEC_C)));
    return d->tok && d->pos && d->wq && d->wk && d->wv && d->wo && d->head ? 0 : -1;
}

/* Causal attention at a column sees nothing after it, so only the columns
 * read are computed (pl_attend with a query mask). */
int pl_decoder_read(const PlDecoder *d, PlAttendBufs *u, const int32_t *ids, const uint8_t *mask, const int *pos,
                    const int *const *col, int ncol, int B, int T, float *const *logits) {
    size_t n = (size_t)T * B;
    uint8_t *query = calloc(n, 1);
    float *h = malloc((size_t)B * PL_DEC_E * sizeof *h);
    int ok = query && h && !pl_attend_bufs_reserve(u, T, B, PL_DEC_E, PL_DEC_HEADS, PL_DEC_D);
    if (ok) {
        for (int t = 0; t < T; t++)
            for (int b = 0; b < B; b++) {
                float *xr = u->x + ((size_t)t * B + b) * PL_DEC_E;
                const float *te = d->tok + (size_t)ids[(size_t)b * T + t] * PL_DEC_E,
                            *pe = d->pos + (size_t)pos[(size_t)b * T + t] * PL_DEC_E;
                for (int e = 0; e < PL_DEC_E; e++) xr[e] = te[e] + pe[e];
            }
        for (int k = 0; k < ncol; k++)
            for (int b = 0; b < B; b++)
                if (col[k][b] >= 0 && col[k][b] < T) query[(size_t)b * T + col[k][b]] = 1;
        /* Positions make every query different: nothing to share. */
        PlAttend a = {.T = T, .B = B, .NH = PL_DEC_HEADS, .D = PL_DEC_D, .causal = 1, .mask = mask, .query = query};
        pl_attend_layer(u, NULL, NULL, NULL, NULL, NULL, d->wq, d->wk, d->wv, d->wo, PL_DEC_E, &a);
        for (int k = 0; k < ncol; k++) {
            for (int b = 0; b < B; b++) {
                /* A prompt with no token has no column to read: zeros. */
                if (col[k][b] >= 0 && col[k][b] < T)
                    memcpy(h + (size_t)b * PL_DEC_E, u->y + ((size_t)col[k][b] * B + b) * PL_DEC_E,
                           PL_DEC_E * sizeof *h);
                else memset(h + (size_t)b * PL_DEC_E, 0, PL_DEC_E * sizeof *h);
            }
            pl_dense_forward(logits[k], h, d->head, NULL, B, PL_DEC_E, PL_DEC_C);
        }
    }
    free(query), free(h);
    return ok ? 0 : -1;
}

int32_t pl_decoder_token(const PlDecoder *d, int k) {
    int words = d->V > PL_FIRST_WORD_ID ? d->V - PL_FIRST_WORD_ID : 1;
    return PL_FIRST_WORD_ID + k % words;
}
