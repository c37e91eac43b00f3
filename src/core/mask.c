#include "mask.h"

#include <math.h>
#include <string.h>

#include "names.h"

const char *const pl_mask_conv_names[PL_MASK_CONV_COUNT + 1] = {
    [PL_MASK_KERAS] = "keras", [PL_MASK_TORCH] = "torch", [PL_MASK_HF] = "hf", [PL_MASK_ADDITIVE] = "additive", NULL};

const char *pl_mask_conv_name(PlMaskConv c) { return pl_mask_conv_names[c]; }

/* Each line checked against its library's documented meaning: Keras masks
 * are True at kept steps; PyTorch's key_padding_mask is True where a key is
 * ignored; Hugging Face's attention_mask is 1 where a token is attended; a
 * float key_padding_mask is added to the scores. The additive line uses
 * torch.where on purpose: (mask).float() * -inf would put 0 * -inf = NaN at
 * every real token. */
static const char *const conv_code[PL_MASK_CONV_COUNT] = {
    "mask = tf.math.not_equal(input_ids, pad_id)",
    "key_padding_mask = input_ids == pad_id",
    "attention_mask = (input_ids != pad_id).long()",
    "bias = torch.where(input_ids == pad_id, float(\"-inf\"), 0.0)",
};

const char *pl_mask_conv_code(PlMaskConv c) { return conv_code[c]; }

int pl_mask_conv_parse(const char *s, PlMaskConv *out) {
    int i = pl_name_find(pl_mask_conv_names, s);
    if (i < 0) return -1;
    *out = (PlMaskConv)i;
    return 0;
}

void pl_mask_bool(uint8_t *out, const uint8_t *mask, size_t n, PlMaskConv c) {
    uint8_t flip = c == PL_MASK_TORCH;
    for (size_t i = 0; i < n; i++) out[i] = (uint8_t)((mask[i] != 0) ^ flip);
}

void pl_mask_additive(float *out, const uint8_t *mask, size_t n) {
    for (size_t i = 0; i < n; i++) out[i] = mask[i] ? 0.0f : -INFINITY;
}

void pl_mask_causal(uint8_t *out, int T) {
    for (int i = 0; i < T; i++)
        for (int j = 0; j < T; j++) out[(size_t)i * T + j] = j <= i;
}

void pl_mask_causal_padding(uint8_t *out, const uint8_t *mask, int B, int T) {
    for (int b = 0; b < B; b++)
        for (int i = 0; i < T; i++)
            for (int j = 0; j < T; j++) out[((size_t)b * T + i) * T + j] = j <= i && mask[(size_t)b * T + j];
}

void pl_mask_key_padding(uint8_t *out, const uint8_t *mask, int B, int T) {
    for (int b = 0; b < B; b++)
        for (int i = 0; i < T; i++) memcpy(out + ((size_t)b * T + i) * T, mask + (size_t)b * T, (size_t)T);
}

void pl_cu_seqlens(int *cu, const int *len, int B) {
    cu[0] = 0;
    for (int b = 0; b < B; b++) cu[b + 1] = cu[b] + len[b];
}

void pl_mask_block_diagonal(uint8_t *out, const int *cu, int B, int causal) {
    int N = cu[B];
    memset(out, 0, (size_t)N * (size_t)N);
    for (int b = 0; b < B; b++)
        for (int i = cu[b]; i < cu[b + 1]; i++)
            for (int j = cu[b]; j < cu[b + 1]; j++) out[(size_t)i * N + j] = !causal || j <= i;
}

void pl_labels_ignore(int32_t *labels, const int32_t *targets, const uint8_t *mask, size_t n) {
    for (size_t i = 0; i < n; i++) labels[i] = mask[i] ? targets[i] : PL_IGNORE_INDEX;
}

void pl_position_ids(int32_t *pos, const uint8_t *mask, int B, int T) {
    for (int b = 0; b < B; b++) {
        int32_t seen = 0;
        for (int t = 0; t < T; t++) {
            size_t at = (size_t)b * T + t;
            seen += mask[at] != 0;
            pos[at] = mask[at] ? seen - 1 : 1;
        }
    }
}

void pl_mask_fill(float *out, const float *scores, const uint8_t *mask, size_t n, float fill) {
    for (size_t i = 0; i < n; i++) out[i] = mask[i] ? scores[i] : fill;
}

void pl_labels_completion(int32_t *labels, const int32_t *ids, const uint8_t *mask, const int *prompt, int B, int T) {
    for (int b = 0; b < B; b++)
        for (int t = 0, k = 0; t < T; t++) {
            size_t at = (size_t)b * T + t;
            labels[at] = mask[at] && k++ >= prompt[b] ? ids[at] : PL_IGNORE_INDEX;
        }
}

void pl_packed_position_ids(int32_t *pos, const int *cu, int D) {
    for (int d = 0; d < D; d++)
        for (int i = cu[d]; i < cu[d + 1]; i++) pos[i] = i - cu[d];
}

void pl_mask_grow(uint8_t *out, const uint8_t *mask, int B, int T, int S) {
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T + S; t++) out[(size_t)b * (T + S) + t] = t < T ? mask[(size_t)b * T + t] != 0 : 1;
}
