/* The rational fit of tanh that padlab's scalar (tensor.c) and vector
 * (kernels_impl.h) tanh share: an odd 13/6 rational function on
 * [-7.9, 7.9] (the minimax fit Eigen uses). Written once, as a macro over
 * the value's type, so that both do the same operations in the same order
 * and a vector lane equals the scalar bit for bit. */
#ifndef PL_TANH_FIT_H
#define PL_TANH_FIT_H

/* Beyond it tanh is +-1 in float. */
#define PL_TANH_LIMIT 7.90531110763549805f
/* Below it (in magnitude) tanh(x) = x in float. */
#define PL_TANH_LINEAR 0.0004f

/* out = the fit at x, of type T (float or a vector of floats), x already
 * clamped to the limit. */
#define PL_TANH_RATIO(T, x, out)                                     \
    do {                                                             \
        T x2_ = (x) * (x);                                           \
        T p_ = x2_ * -2.76076847742355e-16f + 2.00018790482477e-13f; \
        p_ = x2_ * p_ + -8.60467152213735e-11f;                      \
        p_ = x2_ * p_ + 5.12229709037114e-08f;                       \
        p_ = x2_ * p_ + 1.48572235717979e-05f;                       \
        p_ = x2_ * p_ + 6.37261928875436e-04f;                       \
        p_ = x2_ * p_ + 4.89352455891786e-03f;                       \
        p_ = (x)*p_;                                                 \
        T q_ = x2_ * 1.19825839466702e-06f + 1.18534705686654e-04f;  \
        q_ = x2_ * q_ + 2.26843463243900e-03f;                       \
        q_ = x2_ * q_ + 4.89352518554385e-03f;                       \
        (out) = p_ / q_;                                             \
    } while (0)

#endif
