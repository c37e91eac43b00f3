/* Dense: out = x W + b, Keras kernel layout (in, out). */
#include <string.h>

#include "../tensor.h"
#include "nn.h"

void pl_dense_forward(float *out, const float *x, const float *W, const float *b, int N, int I, int O) {
    if (b) {
        for (int n = 0; n < N; n++) memcpy(out + (size_t)n * O, b, (size_t)O * sizeof *out);
    }
    pl_gemm(0, 0, N, O, I, 1.0f, x, I, W, O, b ? 1.0f : 0.0f, out, O);
}

void pl_dense_backward(float *dx, float *dW, float *db, const float *dout, const float *x, const float *W, int N, int I,
                       int O) {
    if (dx) pl_gemm(0, 1, N, I, O, 1.0f, dout, O, W, O, 0.0f, dx, I);
    pl_gemm(1, 0, I, O, N, 1.0f, x, I, dout, O, 1.0f, dW, O);
    if (db)
        for (int n = 0; n < N; n++)
            for (int o = 0; o < O; o++) db[o] += dout[(size_t)n * O + o];
}
