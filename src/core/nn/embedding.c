/* Embedding: a lookup table. Id 0 (the pad) is an ordinary row, as in Keras,
 * unless the caller freezes it. */
#include <string.h>

#include "nn.h"

void pl_embedding_forward(float *out, const int32_t *ids, const float *W, int B, int T, int E) {
    for (int t = 0; t < T; t++)
        for (int b = 0; b < B; b++)
            memcpy(out + ((size_t)t * B + b) * E, W + (size_t)ids[(size_t)b * T + t] * E, (size_t)E * sizeof *out);
}

void pl_embedding_backward(float *dW, const float *dout, const int32_t *ids, int B, int T, int E, int skip_id0) {
    for (int t = 0; t < T; t++)
        for (int b = 0; b < B; b++) {
            int32_t id = ids[(size_t)b * T + t];
            if (skip_id0 && id == 0) continue;
            float *row = dW + (size_t)id * E;
            const float *g = dout + ((size_t)t * B + b) * E;
            for (int e = 0; e < E; e++) row[e] += g[e];
        }
}
