/* Masks in every convention, all derived from one padding mask (1 = real).
 *
 *   keras     boolean, True = real token (mask_zero, compute_mask)
 *   torch     boolean key_padding_mask, True = pad (position is ignored)
 *   hf        integer attention_mask, 1 = real token, 0 = pad
 *   additive  float bias added to attention scores: 0 = real, -inf = pad
 *
 * Plus the causal mask, its combination with key padding, the packed
 * (block-diagonal) mask implied by cu_seqlens, and -100 label masking. */
#ifndef PL_MASK_H
#define PL_MASK_H

#include <stddef.h>
#include <stdint.h>

typedef enum { PL_MASK_KERAS, PL_MASK_TORCH, PL_MASK_HF, PL_MASK_ADDITIVE, PL_MASK_CONV_COUNT } PlMaskConv;

/* "keras", "torch", "hf", "additive", NULL: indexed by PlMaskConv. */
extern const char *const pl_mask_conv_names[];

#define PL_IGNORE_INDEX (-100)

const char *pl_mask_conv_name(PlMaskConv c);
/* Parses keras|torch|hf|additive; returns 0 on success, -1 otherwise. */
int pl_mask_conv_parse(const char *s, PlMaskConv *out);
/* One line of real library code that builds convention c's mask from a
 * (B,T) tensor input_ids and the pad id pad_id: TensorFlow for keras (what
 * Embedding(mask_zero=True) computes when pad_id is 0), PyTorch for torch
 * and additive, PyTorch on Hugging Face inputs for hf. Under 70 characters,
 * static; can't fail. */
const char *pl_mask_conv_code(PlMaskConv c);

/* out (n) = mask (n) in convention c as 0/1 (keras, hf: 1 = real; torch:
 * 1 = pad). For additive use pl_mask_additive. */
void pl_mask_bool(uint8_t *out, const uint8_t *mask, size_t n, PlMaskConv c);

/* out (n) = 0.0f where mask is 1, -INFINITY where it is 0. */
void pl_mask_additive(float *out, const uint8_t *mask, size_t n);

/* out (T,T): out[i*T+j] = 1 when query i may attend key j, that is j <= i. */
void pl_mask_causal(uint8_t *out, int T);

/* out (B,T,T): 1 when j <= i and key j of row b is real (mask (B,T), 1 = real).
 * Under left padding the first query rows of a short row see no key at all. */
void pl_mask_causal_padding(uint8_t *out, const uint8_t *mask, int B, int T);

/* out (B,T,T): 1 when keys j of row b is real (padding mask for every query). */
void pl_mask_key_padding(uint8_t *out, const uint8_t *mask, int B, int T);

/* cu (B+1) = cumulative sequence lengths: cu[0] = 0, cu[b+1] = cu[b] + len[b]. */
void pl_cu_seqlens(int *cu, const int *len, int B);

/* out (N,N), N = cu[B]: 1 when tokens i and j belong to the same sequence (and,
 * with causal, j <= i). This is the attention pattern of a packed batch. */
void pl_mask_block_diagonal(uint8_t *out, const int *cu, int B, int causal);

/* labels (n) = targets where mask is 1, PL_IGNORE_INDEX (-100) where it is 0. */
void pl_labels_ignore(int32_t *labels, const int32_t *targets, const uint8_t *mask, size_t n);

/* pos (B,T): each real cell's index among its row's real cells, counted
 * from its first real token (attention_mask.cumsum(-1) - 1), so that a left
 * padded row's first token is at position 0 as in an unpadded one; pad cells
 * get 1, as Hugging Face's generate fills them (no key sees them). */
void pl_position_ids(int32_t *pos, const uint8_t *mask, int B, int T);

/* labels (B,T) for a completion-only loss: a row's real tokens are its
 * prompt (the first prompt[b] real ones, counted from the row's first real
 * token whichever side the pads are on) then its completion; labels are the
 * ids of the completion and PL_IGNORE_INDEX at the prompt and at the pads. */
void pl_labels_completion(int32_t *labels, const int32_t *ids, const uint8_t *mask, const int *prompt, int B, int T);

/* pos (N), N = cu[D]: each packed token's place in its own document,
 * restarting at 0 where each document starts (D documents, cu (D+1)). */
void pl_packed_position_ids(int32_t *pos, const int *cu, int D);

/* out (B, T+S): the attention mask (B,T) after S generated tokens, one
 * column of 1 appended per step (a new token is real whatever came before). */
void pl_mask_grow(uint8_t *out, const uint8_t *mask, int B, int T, int S);

/* out (n) = scores where mask is 1, fill where it is 0: the masked scores
 * filled in, never added to (a finite minimum added to a score can
 * overflow). out may be scores. */
void pl_mask_fill(float *out, const float *scores, const uint8_t *mask, size_t n, float fill);

#endif
