/* Naive twins of the layers, in double precision, written as plainly as the
 * maths: the fast float kernels are checked against these, and their
 * gradients against finite differences of these. Same layouts as nn.h:
 * sequences time-major (T,B,C), masks batch-major (B,T) unless noted. */
#ifndef PL_REF_NN_H
#define PL_REF_NN_H

#include <stdint.h>

double ref_sigmoid(double x);
/* out (N,O) = x (N,I) W (I,O) + b */
void ref_dense(double *out, const double *x, const double *W, const double *b, int N, int I, int O);
/* Keras-masked SimpleRNN; mask_tm (T,B) or NULL. */
void ref_rnn(double *h, const double *x, const uint8_t *mask_tm, const double *Wx, const double *Wh, const double *b,
             int T, int B, int E, int H);
void ref_gru(double *h, const double *x, const uint8_t *mask_tm, const double *Wx, const double *U, const double *b,
             int T, int B, int E, int H);
void ref_lstm(double *h, const double *x, const uint8_t *mask_tm, const double *Wx, const double *U, const double *b,
              int T, int B, int E, int H);
/* mode: 0 unmasked, 1 masked, 2 divide by T */
void ref_avgpool(double *out, const double *x, const uint8_t *mask, int mode, int T, int B, int C);
void ref_maxpool(double *out, const double *x, const uint8_t *mask, int mode, int T, int B, int C);
void ref_conv1d(double *out, const double *x, const double *W, const double *b, int T, int B, int I, int O, int K);
void ref_attention(double *out, const double *x, const double *Wq, const double *Wk, const double *Wv, const double *Wo,
                   const uint8_t *mask, int causal, int T, int B, int E, int NH, int D);
double ref_bce(const double *z, const uint8_t *y, int n);
/* norm: 0 per token, 1 per sequence, 2 batch x T; logits (T,B,C), targets (B,T). */
double ref_token_ce(const double *logits, const int32_t *targets, int T, int B, int C, int norm);

#endif
