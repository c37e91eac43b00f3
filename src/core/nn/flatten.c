/* Flatten: each row's steps laid end to end, as Keras flattens (B,T,C). */
#include <string.h>

#include "nn.h"

void pl_flatten_forward(float *out, const float *x, int T, int B, int C) {
    for (int t = 0; t < T; t++)
        for (int b = 0; b < B; b++)
            memcpy(out + ((size_t)b * T + t) * C, x + ((size_t)t * B + b) * C, (size_t)C * sizeof *out);
}

void pl_flatten_backward(float *dx, const float *dout, int T, int B, int C) {
    for (int t = 0; t < T; t++)
        for (int b = 0; b < B; b++)
            memcpy(dx + ((size_t)t * B + b) * C, dout + ((size_t)b * T + t) * C, (size_t)C * sizeof *dx);
}
