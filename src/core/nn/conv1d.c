/* Conv1D, Keras 'valid' padding, no mask: a window that straddles the edge of
 * the real tokens reads pad embeddings as if they were words. With the
 * time-major layout each tap is one large product over every step and row. */
#include <string.h>

#include "../tensor.h"
#include "nn.h"

void pl_conv1d_forward(float *out, const float *x, const float *W, const float *b, int T, int B, int I, int O, int K) {
    int To = T - K + 1;
    if (To <= 0) return;
    for (size_t r = 0; r < (size_t)To * B; r++) memcpy(out + r * O, b, (size_t)O * sizeof *out);
    for (int k = 0; k < K; k++)
        pl_gemm(0, 0, To * B, O, I, 1.0f, x + (size_t)k * B * I, I, W + (size_t)k * I * O, O, 1.0f, out, O);
}

void pl_conv1d_backward(float *dx, float *dW, float *db, const float *dout, const float *x, const float *W, int T,
                        int B, int I, int O, int K) {
    int To = T - K + 1;
    if (dx) memset(dx, 0, (size_t)T * B * I * sizeof *dx);
    if (To <= 0) return;
    for (size_t r = 0; r < (size_t)To * B; r++)
        for (int o = 0; o < O; o++) db[o] += dout[r * O + o];
    for (int k = 0; k < K; k++) {
        pl_gemm(1, 0, I, O, To * B, 1.0f, x + (size_t)k * B * I, I, dout, O, 1.0f, dW + (size_t)k * I * O, O);
        if (dx) pl_gemm(0, 1, To * B, I, O, 1.0f, dout, O, W + (size_t)k * I * O, O, 1.0f, dx + (size_t)k * B * I, I);
    }
}
