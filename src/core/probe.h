/* The teaching probes: each a pure function from a corpus, the lab's
 * settings and a model's weights to a small result that a front end draws
 * and a command prints. Every probe result is freed with its _free function
 * (NULL is harmless); every probe returns a status and fills err. */
#ifndef PL_PROBE_H
#define PL_PROBE_H

#include <stdint.h>

#include "corpus.h"
#include "err.h"
#include "mask.h"
#include "mask_rules.h"
#include "model.h"
#include "pad.h"
#include "plan.h"

/* The settings every probe shares. */
typedef struct {
    int example; /* the corpus row the probe looks at */
    /* Rows of the batch (the example among them); NULL: the batch of the plan
     * that holds the example. */
    const int *batch;
    int nbatch;
    int maxlen; /* rows keep at most this many tokens */
    PlSide padding, truncating;
    int mask;            /* 1: the mask is on */
    PlMaskConv conv;     /* the convention the batch probe shows */
    PlSeed seed;         /* fresh weights come from this seed */
    PlBatching batching; /* how the batch is chosen and how wide it is padded */
    int batch_size;      /* rows per batch of the plan */
    int width;           /* > 0: the rows are exactly this wide (set by pl_probe_focus) */
} PlProbeOpts;

/* Static batches of 32 at maxlen 200, pre/pre, mask off, the Keras
 * convention, seed 0, example 0. */
PlProbeOpts pl_probe_opts_default(void);

/* The review the lab and the probes open on: the first one shorter than half
 * of maxlen, so its pads are there to see (0 when there is none). */
int pl_probe_auto_example(const PlCorpus *c, int maxlen);

/* The batch a probe looks at. Without opts batch rows: the batch that holds
 * the example in the plan of the whole corpus, in corpus order (the plan
 * pl_plan_opts_standard gives for the batching, maxlen and batch size). With
 * them: those rows as one batch, as wide as the batching says (static:
 * maxlen; dynamic and the bucketed ones: the longest kept row; multiple_of_8:
 * that rounded up to a multiple of 8; packed: every kept token in one row). */
typedef struct {
    PlBatching batching;
    int index, count; /* batch index of count in the plan (0 of 1 for given rows) */
    int B;            /* rows of the batch */
    int *rows;        /* (B) corpus rows, in the batch's order */
    int at;           /* the example's position among them */
    int width;        /* cells per padded row; packed: the kept tokens of all rows */
    int packed;       /* one row of concatenated sequences, no pads */
    int *cu_seqlens;  /* (B+1) packed: where each sequence starts in the row */
} PlBatchPick;

PlStatus pl_probe_pick(const PlCorpus *c, const PlProbeOpts *o, PlBatchPick *pick, PlErr *err);
void pl_probe_pick_free(PlBatchPick *p);

/* The rows a close-up probe (attention, rnn, pooling, loss, layers, generate,
 * masks) runs on: the example and up to n - 1 rows after it in its batch
 * (wrapping around within the batch), all at the batch's width; under
 * packing, the example alone at its own length, since a packed sequence sees
 * no pads. rows must hold n entries and outlive *out. */
void pl_probe_focus(const PlBatchPick *pick, const PlProbeOpts *o, int n, int *rows, PlProbeOpts *out);

/* How many rows the close-up probes that take a batch look at. */
#define PL_PROBE_FOCUS_ROWS 4

/* Pads the probe's batch: opts width > 0 gives the rows (opts batch, or the
 * example alone) at that width; otherwise the batch pl_probe_pick chooses,
 * one concatenated row when packed. Rows keep at most maxlen tokens. *out
 * owns a new batch. */
PlStatus pl_probe_batch_make(const PlCorpus *c, const PlProbeOpts *o, PlBatch **out, PlErr *err);

/* The close-up batch: opts as they are when their width is set (the lab and
 * the commands focus once and pass that on), else pl_probe_focus of the
 * picked batch with n rows. *out owns a new batch. */
PlStatus pl_probe_focus_batch(const PlCorpus *c, const PlProbeOpts *o, int n, PlBatch **out, PlErr *err);

/* ---- batch: one complete batch and the check that its counts agree ---- */
typedef struct {
    PlBatchPick pick;   /* which batch of the plan this is */
    PlBatch *batch;     /* ids (B,T), mask (B,T) 1 = real; packed: B = 1 */
    uint8_t *conv_mask; /* (B,T) the mask in the chosen convention (bool conventions) */
    float *additive;    /* (B,T) 0 / -inf */
    int32_t *labels;    /* (B,T) the ids, -100 where the mask says pad (labels for a token loss) */
    PlMaskConv conv;
    long real_tokens;      /* tokens of the rows that survived truncation */
    long mask_real;        /* positions the mask marks as real, read in its own convention */
    long mask_ones;        /* positions holding 1 (or 0.0 for additive) */
    long label_positions;  /* labels other than -100 */
    int agree;             /* the three counts agree */
    const char *disagrees; /* which count disagrees, or NULL */
    int rows_cut;          /* rows of the batch that truncation shortened */
    long tokens_cut;       /* tokens it threw away from them */
    long id0_real; /* real cells holding id 0: what Keras's mask_zero (ids != 0) would hide although they are real */
    int example_length; /* the example's tokens before truncation */
} PlProbeBatch;

PlStatus pl_probe_batch(const PlCorpus *c, const PlProbeOpts *o, PlProbeBatch *r, PlErr *err);
void pl_probe_batch_free(PlProbeBatch *r);

/* ---- attention: scores, the additive mask, softmax weights ----
 * Self-attention over the embedded batch, with the model's attention weights
 * or fresh Keras-initialised ones. Weights and scores are the example row's,
 * per head. */
typedef struct {
    int T, B, heads, dhead, causal, mask;
    int row;                         /* the example's row in the batch */
    int L;                           /* its real tokens */
    uint8_t *real;                   /* (T) the example's mask, 1 = real */
    float *scores;                   /* (heads,T,T) scaled dot products, before any mask */
    float *bias;                     /* (T,T) the additive mask: 0 or -inf */
    float *weights;                  /* (heads,T,T) softmax weights */
    float *leak;                     /* (heads,T) weight on pad keys, per query row: its pad share */
    int *visible;                    /* (T) the keys query i sees (0 bias): its uniform weight is 1/visible */
    float *head_pad_share;           /* (heads) pad_share of each head alone: the mean leak of its real queries */
    float *row_sum;                  /* (heads,T) */
    float *wrong_fix_sum;            /* (heads,T) row sums after masking the unmasked weights, not renormalised */
    float pad_weight_max;            /* the largest weight on a pad key (real query rows) */
    float row_sum_error_max;         /* the largest |row sum - 1| over real query rows */
    float leak_total;                /* weight on pad keys summed over real query rows and heads */
    float pad_share;                 /* the mean share of a real query's weight that lands on pad keys, over heads */
    int nan_count;                   /* NaN among weights and outputs */
    int empty_rows;                  /* query rows (of any row of the batch) that see no key: zero weights */
    float wrong_fix_min_sum;         /* the smallest row sum of the wrong fix */
    float batch_invariance_max_diff; /* the example next to a short vs a long partner */
    int short_partner, long_partner, short_width, long_width;
    float packed_vs_padded_max_diff;    /* varlen per-sequence attention vs the masked padded batch */
    int64_t padded_cells, packed_cells; /* B*T*T vs the sum of L*L (per head) */
    int *cu_seqlens;                    /* (B+1) */
} PlProbeAttention;

/* model may be NULL (fresh weights from o->seed, width E = 32, heads x dhead
 * from the arguments); an attention model's own weights are used when given. */
PlStatus pl_probe_attention(const PlCorpus *c, const PlProbeOpts *o, const PlModel *model, int heads, int dhead,
                            int causal, PlProbeAttention *r, PlErr *err);
void pl_probe_attention_free(PlProbeAttention *r);

/* ---- rnn: the hidden state of a recurrent layer over one padded example ----
 * The example alone, padded to maxlen; distances are Euclidean. */
typedef struct {
    PlArch cell;
    int T, H, L; /* width, units, real tokens */
    int mask;    /* the run shown had the mask on */
    PlSide padding;
    int first_real, last_real; /* positions of the real run in the row */
    float *norm;               /* (T) |h_t| */
    float *dist_last;          /* (T) |h_t - h after the last real token| */
    float *step;               /* (T) |h_t - h_(t-1)| (h_(-1) = 0) */
    float *dist_fixed;         /* (T) |h_t - h*|, h* the fixed point of the pad-input map */
    float *states;             /* (T,H) h_t itself, unit by unit: the run shown */
    float *h_fixed;            /* (H) h* */
    float fixed_norm;          /* |h*| */
    int fixed_iters;           /* pad steps iterated to find h* */
    float fixed_residual;      /* |h* - map(h*)| when the iteration stopped */
    int fixed_found;           /* the pads settle on h*; 0 when the state keeps moving (a cycle) */
    /* Readouts side by side (norms) and how far each is from the last real state. */
    float last_pos_norm, last_real_norm, masked_carry_norm;
    float final_distance_to_last_real; /* the last array position's state vs the last real state */
    float masked_carry_distance;       /* the mask-on run's last state vs the last real state */
    float last_real_survival;          /* of the run shown: |h_T - h*| / |h_last_real - h*|, 1 = intact,
                                          0 = forgotten; NaN when the pads have no fixed point */
    float pad_embedding_norm;          /* |embedding row 0| */
    /* Pads in front of the tokens (pre padding) move the state the real
     * tokens start from: how far (|h| just before the first real token), and
     * how far that leaves the last real state from the one the tokens reach
     * alone, with no pads at all. Both 0 under post padding or with the mask. */
    float start_shift, pre_pad_effect;
    int zero_pad_embedding;
} PlProbeRnn;

/* model may be NULL: a fresh Keras-initialised cell (embedding 32, 32 units)
 * from o->seed. zero_pad sets the embedding's pad row to zero first. */
PlStatus pl_probe_rnn(const PlCorpus *c, const PlProbeOpts *o, const PlModel *model, PlArch cell, int zero_pad,
                      PlProbeRnn *r, PlErr *err);
void pl_probe_rnn_free(PlProbeRnn *r);

/* ---- pooling: how much of a pooled vector is padding ---- */
#define PL_POOL_HIST_BINS 10

typedef struct {
    int maxlen, E, L, T;
    /* Over the corpus: the weight real tokens get, min(L, maxlen) / maxlen. */
    double mean_real_weight, min_real_weight;
    int hist[PL_POOL_HIST_BINS]; /* reviews per tenth of weight, [0,0.1) .. [0.9,1.0] */
    /* The example alone, padded to maxlen: pooled vectors (E each). */
    float *avg_masked, *avg_unmasked, *avg_div_t, *max_masked, *max_unmasked;
    float avg_unmasked_dist, avg_div_t_dist, max_unmasked_dist; /* from the masked vector */
    float example_weight;                                       /* min(L, maxlen) / maxlen of the example */
} PlProbePooling;

PlStatus pl_probe_pooling(const PlCorpus *c, const PlProbeOpts *o, const PlModel *model, PlProbePooling *r, PlErr *err);
void pl_probe_pooling_free(PlProbePooling *r);

/* ---- loss: per-position token losses and their normalisations ----
 * Next-token prediction (C classes) by a recurrent token model over the
 * batch, pads ignored through -100. */
typedef struct {
    int B, T, C;
    int32_t *targets;                                      /* (B,T) -100 where a position does not count */
    float *terms;                                          /* (B,T) each position's cross-entropy, 0 where ignored */
    float per_token, per_sequence, batch_t;                /* the batch loss three ways */
    float grad_per_token, grad_per_sequence, grad_batch_t; /* |d loss / d logits| of each */
    int wide_T;                                            /* the same rows padded to twice the width */
    float per_token_wide, batch_t_wide;
    long real_terms;        /* targets that count with ignore_index */
    long fake_terms;        /* the extra pad targets without it */
    float loss_with_pads;   /* per-token loss when pads count */
    float loss_pad_perfect; /* the same for a model that predicts a pad after every pad exactly (the
                               first pad after a review, which no model can foresee, keeps its term) */
    /* The same rows as a chat batch, for a completion-only loss: each row is
     * <start> SYSTEM <start> USER <start> ANSWER, padded right to the longest
     * row. SYSTEM is the same on every row (the first PL_CHAT_SYSTEM_WORDS
     * words of the corpus's first review); USER is the row's kept words but
     * the last quarter, ANSWER that last quarter (at least one word of a row
     * that has any). The corpus's tokenizer has no role tokens, so <start>
     * opens each turn, as <|im_start|> does in ChatML, and the role is the
     * turn's place in the template; there is no end-of-turn token. Labels are
     * as a Hugging Face model takes them (unshifted: position t is predicted
     * at t - 1): the id on answer tokens, -100 on every prompt token (the
     * three <start> included) and on pads. Both losses come from one forward
     * of the same model over the chat batch. */
    int chat_B, chat_T;
    int chat_system;            /* SYSTEM's words */
    int32_t *chat_ids;          /* (chat_B,chat_T) */
    int32_t *chat_labels;       /* (chat_B,chat_T) the id on answer tokens, -100 elsewhere */
    float *chat_terms;          /* (chat_B,chat_T) at t: the cross-entropy of predicting token t from position t - 1,
                                   beside its label; 0 at a row's first token and at pads */
    long chat_real;             /* real tokens of the chat batch */
    long completion_tokens;     /* labels other than -100: the terms a completion-only loss counts */
    long prompt_terms;          /* the terms a plain LM collator counts: each real token but a row's first */
    float completion_loss;      /* per-token loss over the answer tokens alone */
    float prompt_included_loss; /* per-token loss over every real next token, the prompt's too */
} PlProbeLoss;

/* Words of the chat batch's system prompt (fewer when the first review is shorter). */
#define PL_CHAT_SYSTEM_WORDS 6

/* model may be NULL (a fresh token model from o->seed: SimpleRNN(32), 64
 * classes) or a recurrent model saved with a token head. */
PlStatus pl_probe_loss(const PlCorpus *c, const PlProbeOpts *o, const PlModel *model, PlProbeLoss *r, PlErr *err);
void pl_probe_loss_free(PlProbeLoss *r);

/* ---- layers: which layers respect a mask, measured ----
 * Only the pad positions of the input are perturbed; the leak is the largest
 * change that reaches a real position or the pooled output. */
#define PL_LAYERS_MAX 16

typedef struct {
    const char *name;
    const char *mask; /* "on", "off", or "none" for layers that take no mask */
    float leak;
} PlLayerLeak;

typedef struct {
    int B, T, E, n;
    long pads; /* pad cells perturbed; with none, nothing can leak */
    PlLayerLeak rows[PL_LAYERS_MAX];
} PlProbeLayers;

PlStatus pl_probe_layers(const PlCorpus *c, const PlProbeOpts *o, const PlModel *model, PlProbeLayers *r, PlErr *err);
/* The result owns nothing today; freeing it still resets it, as for every probe. */
void pl_probe_layers_free(PlProbeLayers *r);

/* ---- generate: decoder-only batches, left vs right padding ----
 * The batch's rows are the prompts. A small seeded causal model (token and
 * position embeddings, one causal self-attention layer with a key padding
 * mask, a dense head of C classes) reads each prompt's next token. */
typedef struct {
    int B, T, C;
    int *len;                      /* (B) prompt lengths */
    int32_t *ids_left, *ids_right; /* (B,T) */
    int *pos_naive, *pos_left; /* (B,T) 0..T-1 for every row; left padding corrected: cumsum(mask)-1, pads 1 (as HF) */
    int naive_last_column_pad_rows_left, naive_last_column_pad_rows_right;
    float left_vs_single_max_diff;              /* left padding with corrected positions vs each prompt alone */
    float left_naive_positions_max_diff;        /* left padding with 0..T-1 positions vs alone */
    float right_last_real_vs_single_max_diff;   /* right padding, read at the last real token */
    float right_last_column_vs_single_max_diff; /* right padding, read at the last column */
} PlProbeGenerate;

PlStatus pl_probe_generate(const PlCorpus *c, const PlProbeOpts *o, PlProbeGenerate *r, PlErr *err);
void pl_probe_generate_free(PlProbeGenerate *r);

/* ---- kvcache: decoding with a key/value cache ----
 * The prompts (the close-up rows) decoded greedily for S steps by the
 * generate probe's decoder (probe_decoder.h), a token per row per step, with
 * a cache that keeps each slot's key and value: the prompt's T slots filled
 * at once, then one slot per step, with one column of 1 appended to the
 * attention mask. Four ways of doing it are each compared with every
 * prompt decoded alone (no pads, positions 0, 1, 2, ...):
 *   left/mask/positions from the mask (as Hugging Face's generate does),
 *   left/mask/positions counted by slot (cache_position used as position),
 *   left/no mask, positions from the mask,
 *   right/mask/positions from the mask (the first token read at the last
 *   column, a pad for every shorter prompt).
 * The cache, the mask and the ids kept are the first way's. */
typedef enum {
    PL_KV_LEFT,         /* left padding, mask, positions from the mask */
    PL_KV_LEFT_SLOTS,   /* left padding, mask, positions counted by slot */
    PL_KV_LEFT_NO_MASK, /* left padding, no mask */
    PL_KV_RIGHT,        /* right padding, mask, positions from the mask */
    PL_KV_WAYS
} PlKvWay;

typedef struct {
    float max_diff;    /* the largest |logit - the prompt alone's| over rows, steps and classes */
    int tokens_differ; /* tokens picked that differ from the prompt decoded alone */
    int first_step;    /* the first step at which a row picks another token, or -1 */
} PlKvWayResult;

enum { PL_KV_PAD = 0, PL_KV_PROMPT = 1, PL_KV_NEW = 2 }; /* a slot's kind */

typedef struct {
    int B, T, S, C;             /* prompts, prompt width, steps, classes */
    int slots;                  /* T + S: a row's slots in the cache after the S steps */
    int reads;                  /* S + 1: the prompt's read, then one per step */
    int *len;                   /* (B) prompt lengths */
    int32_t *ids;               /* (B,slots) left-padded prompts, then the tokens picked */
    uint8_t *mask;              /* (B,slots) the attention mask at the end, 1 = real */
    int32_t *position_ids;      /* (B,slots) from the mask: a real slot's index among its row's real slots, pads 1 */
    int32_t *cache_position;    /* (slots) the slot's index, what the cache counts */
    uint8_t *kind;              /* (B,slots) PL_KV_PAD, _PROMPT or _NEW */
    int32_t *alone;             /* (B,reads) the tokens each prompt picks decoded alone (the last not yet cached) */
    int64_t pad_slots;          /* slots of the cache holding a pad's key and value, at the end */
    int64_t real_slots;         /* and a real token's */
    int layers, heads, dhead;   /* the decoder's: what a slot holds, a key and a value of heads x dhead per layer */
    int bytes_per_slot;         /* a slot's keys and values over every layer and head, float32 */
    int64_t *cells, *pad_cells; /* (S) scores a dense kernel computes at step 1..S (per head), and those on pad slots */
    int static_len;             /* a static cache's slots per row */
    int64_t static_pad_slots;   /* its slots holding no real token at the end (pads and slots not reached) */
    float cache_vs_recompute_max_diff; /* the cached decoding against recomputing the whole sequence at each step */
    PlKvWayResult way[PL_KV_WAYS];
} PlProbeKvcache;

/* steps: 1..PL_KV_MAX_STEPS; static_len: a static cache's slots per row,
 * at least T + steps (0: maxlen + steps, a cache sized for the longest
 * prompt the settings keep, or T + steps when the batch is wider, as
 * multiple_of_8 may make it). */
#define PL_KV_MAX_STEPS 64
PlStatus pl_probe_kvcache(const PlCorpus *c, const PlProbeOpts *o, int steps, int static_len, PlProbeKvcache *r,
                          PlErr *err);
void pl_probe_kvcache_free(PlProbeKvcache *r);
/* ---- packing: padding-free packing as a flattening collator lays it out ----
 * The documents are the example and up to PL_PACKING_DOCS - 1 rows after it
 * in its batch (wrapping around within the batch), each cut to maxlen as
 * truncating says, concatenated in one row with no pad. The row is what
 * Hugging Face transformers' DataCollatorWithFlattening builds (as read in
 * src/transformers/data/data_collator.py of the 4.5x releases, which have
 * return_seq_idx and return_flash_attn_kwargs, defaults
 * return_position_ids=True, separator_id=-100, those two off; the
 * position_ids_start main added in 2026 is taken at its 0; TRL's
 * padding_free=True lays out the same row):
 * input_ids concatenated, position_ids restarting at 0 in each document,
 * labels the ids with -100 at each document's first token, seq_idx the
 * document of each token and, with the flash-attention kwargs on,
 * cu_seq_lens_q = cu_seq_lens_k = the boundaries. A small seeded causal
 * model (token and position embeddings, one causal self-attention layer of
 * PL_PACKING_HEADS heads of PL_PACKING_DHEAD) then reads the row with and
 * without each part, against each document run alone. */
#define PL_PACKING_DOCS 4
#define PL_PACKING_WIDTH 32 /* the model's embedding width */
#define PL_PACKING_HEADS 2
#define PL_PACKING_DHEAD 16

typedef struct {
    int D, N;              /* documents, tokens of the row */
    int maxlen;            /* each document keeps at most this many tokens */
    int *example;          /* (D) corpus row of each document */
    int *len;              /* (D) its tokens in the row (after the cut) */
    int32_t *ids;          /* (N) input_ids: the documents one after another */
    int32_t *position_ids; /* (N) each token's place in its own document: 0 where a document starts */
    int32_t *seq_idx;      /* (N) the document each token belongs to */
    int32_t *labels;       /* (N) the ids, -100 at each document's first token (separator_id) */
    int *cu_seqlens;       /* (D+1) the true boundaries: cu_seq_lens_q and _k */
    int *cu_read;          /* (n_read+1) read back from position_ids: each index where they are 0, then N */
    int n_read;            /* documents read back */
    int cu_match;          /* cu_read equals cu_seqlens */
    int counted_read;      /* documents read back from position ids counted along the row (0..N-1): 1 */
    int longest;           /* the longest document's tokens */
    /* Cells a batch of these documents takes: packed (N), dynamic padding
     * (D x longest) and static padding (D x maxlen); the pads each pays for
     * that packing saves, and their share of its cells. */
    long packed_cells, dynamic_cells, static_cells;
    long dynamic_saved, static_saved;
    double dynamic_saved_share, static_saved_share;
    /* Attention outputs (every token, the layer's output) against each
     * document run alone, the largest absolute difference: */
    float aware_max_diff;   /* (a) the document mask (block-diagonal causal), positions restarting: rounding */
    float causal_max_diff;  /* (b) a plain causal mask over the row, positions restarting */
    float counted_max_diff; /* (c) the document mask, positions counted 0..N-1 along the row */
    /* Under (b): the share of a query's weight that lands on keys of earlier
     * documents, averaged over heads and over a document's queries (cross,
     * (D); the first document's is 0) or over the row's (cross_row). */
    float *cross;
    float cross_row;
    /* The loss terms of a causal LM, which reads labels shifted by one: the
     * label at i is predicted from token i - 1. */
    long loss_terms;          /* labels 1..N-1 that count: N - D */
    long loss_terms_unmasked; /* the same without -100 at the boundaries: N - 1 */
    long boundary_terms;      /* of those, a document's first token predicted from the previous one's last: D - 1 */
    double boundary_share;    /* boundary_terms / loss_terms_unmasked (0 when there is none) */
} PlProbePacking;

/* o as for the batch probe (the batch pl_probe_pick chooses: not focused;
 * given rows are the batch). Weights are fresh from o->seed, drawn in this
 * order, each uniform: token embedding (V,E) and position embedding (N,E) in
 * [-0.5, 0.5], then Wq, Wk, Wv (E,H*D) and Wo (H*D,E) in +-sqrt(6 / (E +
 * H*D)). Documents with no token are left out. PL_ERANGE for an example out
 * of range or no document with a token; PL_ENOMEM; r is then empty. */
PlStatus pl_probe_packing(const PlCorpus *c, const PlProbeOpts *o, PlProbePacking *r, PlErr *err);
void pl_probe_packing_free(PlProbePacking *r);

/* ---- masks: the batch's mask in every convention, and the polarity bug ----
 * keras (1 = keep), torch key_padding_mask (1 = ignore), hf attention_mask
 * (1 = keep) and the additive bias (0 / -inf), all from the one padding mask;
 * then self-attention over the batch with the right mask, with no mask, and
 * with Hugging Face's mask passed where PyTorch wants key_padding_mask.
 * A share is the weight a real query puts on pad keys over all the weight it
 * has, averaged over the real query positions (and heads) of the rows that
 * have a pad and a real token. */
typedef struct {
    int B, T;             /* rows and width of the batch */
    int row;              /* the example's row in the batch */
    int *example;         /* (B) corpus row of each batch row */
    int *len;             /* (B) real tokens of each row */
    int *pads;            /* (B) pad cells of each row: the rows with 0 are the ones the inverted mask blinds */
    int32_t *ids;         /* (B,T) the batch's token ids, the input_ids the conventions' code reads */
    uint8_t *keras;       /* (B,T) Keras mask: 1 = keep (a real token) */
    uint8_t *torch;       /* (B,T) PyTorch key_padding_mask: 1 = ignore (a pad) */
    uint8_t *hf;          /* (B,T) Hugging Face attention_mask: 1 = keep */
    float *additive;      /* (B,T) bias added to the scores: 0 = keep, -inf = pad */
    long keep[4];         /* cells each convention says to keep, read in its own convention (index: PlMaskConv) */
    long real_tokens;     /* real tokens of the batch: every keep[] equals it */
    long real_pad_ids;    /* real cells whose id is the pad's (an end token written as the pad): the masks here
                             come from the lengths, and a mask built from the ids (ids != pad_id) hides these too */
    int agree;            /* they all do */
    int heads, dhead;     /* the attention the shares are measured with */
    float share_right;    /* with key_padding_mask = the torch mask: exactly 0 */
    float share_none;     /* with no mask: what the pads take */
    float share_inverted; /* with key_padding_mask = the hf mask (pads seen, real keys hidden): exactly 1 */
    float *row_share;     /* (B,3) each row's shares: right, none, inverted; NaN where the row has no real
                             token, or (inverted) no pad, so that its queries see no key */
    int padded_rows;      /* rows with a pad and a real token: the rows the shares average over */
    long padded_queries;  /* their real query positions */
    int blind_rows;       /* rows with no pad: the inverted mask hides every key of every query. PyTorch's
                             MultiheadAttention takes a softmax over nothing but -inf there and gives NaN;
                             padlab's attention gives zero weights and a zero output (no NaN) */
    long blind_queries;   /* the query positions of the blind rows */
    int nan_count;        /* NaN in padlab's weights and outputs over the three runs (0) */
} PlProbeMasks;

/* Weights: an attention model's own; otherwise fresh Keras-initialised
 * attention weights from o->seed (2 heads of 16), with the embedding of
 * model when one is given. o->mask and o->conv do not matter: every mask is
 * computed. PL_ERANGE for an example out of range or a model whose
 * vocabulary is smaller than the corpus's, PL_ENOMEM; r is then empty. */
PlStatus pl_probe_masks(const PlCorpus *c, const PlProbeOpts *o, const PlModel *model, PlProbeMasks *r, PlErr *err);
void pl_probe_masks_free(PlProbeMasks *r);

/* ---- identity: the same reviews padded pre and post through one masked model ----
 * The probe's batch padded pre and padded post (same rows, same width), each
 * through the same weights with the Keras mask (recurrent: masked steps carry
 * the state; pooling: PL_POOL_MASKED; attention: pad keys hidden and a
 * masked mean) and without it. Every logit array is (B), one per row. */
typedef struct {
    PlArch arch;
    int B, T;
    int *example;                        /* (B) corpus row of each batch row */
    int *len;                            /* (B) real tokens of each row (the same both ways) */
    long pads;                           /* pad cells of the batch: with none, the two paddings are one batch */
    float *pre_masked, *post_masked;     /* (B) logits with the mask, padded pre / post */
    float *pre_unmasked, *post_unmasked; /* (B) logits without it */
    float masked_max_diff;               /* max |pre - post| with the mask: float rounding only (~1e-7) */
    float unmasked_max_diff;             /* the same without the mask: large for the recurrent models */
    float mask_effect_max_diff;          /* max |masked - unmasked| over both sides: what the pads do unmasked */
    int order_blind;                     /* the model does not see token order (pooling; attention, which has no
                                            positions): without the mask pre and post still agree, yet the pads
                                            still change the answer (mask_effect_max_diff) */
} PlProbeIdentity;

/* model may be NULL: a fresh model of arch (pl_model_config_default, vocab =
 * the corpus's num_words) from o->seed; otherwise model's weights and arch
 * (arch is ignored), copied under the masked and the unmasked mode. Every
 * arch is accepted: attention without positions is padding-side invariant
 * under its mask. PL_ERANGE for a model with a token head or too small a
 * vocabulary. */
PlStatus pl_probe_identity(const PlCorpus *c, const PlProbeOpts *o, PlArch arch, const PlModel *model,
                           PlProbeIdentity *r, PlErr *err);
void pl_probe_identity_free(PlProbeIdentity *r);

/* ---- blocks: masks as rules, evaluated per block as block-sparse kernels do ----
 * Each rule of mask_rules.h is asked for every cell of the probe's batch
 * (packed: its one row, documents from cu_seqlens), and the (B, T, T) cells
 * are cut into (query block, key block) tiles of block x block, as
 * FlexAttention's create_block_mask does (read in PyTorch 2.6's
 * torch/nn/attention/flex_attention.py, _convert_mask_to_block_mask): T is
 * padded up to a multiple of the block with cells the rule never keeps, and
 * a tile is empty (no cell kept: the kernel skips it whole), full (every
 * cell kept: computed with no mask) or partial (computed, the rule applied
 * inside). One head: no rule here reads it.
 *
 * The BlockMask create_block_mask returns holds, per (B, H), int32 tensors:
 * kv_num_blocks (B,H,Qb) and kv_indices (B,H,Qb,KVb) for the partial tiles,
 * the same pair full_kv_* for the full ones (what the forward pass reads),
 * and q_num_blocks / q_indices and full_q_* transposed from them for the
 * backward pass: eight tensors, Qb = KVb = Tp / block. */
#define PL_BLOCKS_MAP_MAX 64 /* blocks per side up to which the map row's tiles are kept */

typedef struct {
    long empty, partial, full; /* tiles of the batch */
    int *row;                  /* (B,3) each row's empty, partial and full tiles */
    int64_t kept_cells;        /* cells of the dense (B,T,T) mask the rule keeps */
    int64_t computed_cells;    /* (partial + full) x block^2: the score cells a block-sparse kernel computes */
    double kept_share;         /* kept_cells / (B T^2) */
    double computed_share;     /* computed_cells / (B T^2): can pass 1 when T is short of a block */
    uint8_t *map;              /* (nb,nb) the map row's tiles: 0 empty, 1 partial, 2 full; NULL past
                                  PL_BLOCKS_MAP_MAX blocks per side */
} PlBlockCount;

typedef struct {
    int B, T;                          /* the batch (packed: 1 row of T tokens) */
    int block;                         /* tile side */
    int Tp;                            /* T rounded up to a multiple of block */
    int nb;                            /* Tp / block: tiles per side */
    int window;                        /* the sliding window's W */
    int packed;                        /* one row of concatenated documents */
    int ndocs;                         /* documents of the batch: packed, the sequences of its row; else one a row */
    int map_row;                       /* the row the maps show: the example's */
    int *len;                          /* (ndocs) real tokens of each row (packed: of each document) */
    int64_t tiles;                     /* B x nb x nb */
    int64_t dense_cells;               /* B x T x T */
    int64_t dense_bool_bytes;          /* a (B,1,T,T) bool mask */
    int64_t dense_float_bytes;         /* the same as a float32 additive bias */
    int64_t block_mask_forward_bytes;  /* kv_num_blocks, kv_indices and the full_ pair, int32, H = 1 */
    int64_t block_mask_bytes;          /* with the transposed q_ pairs for the backward pass: all eight */
    PlBlockCount rules[PL_RULE_COUNT]; /* indexed by PlRuleId */
} PlProbeBlocks;

#define PL_BLOCKS_DEFAULT_BLOCK 128 /* FlexAttention's _DEFAULT_SPARSE_BLOCK_SIZE */
#define PL_BLOCKS_DEFAULT_WINDOW 64
#define PL_BLOCKS_MIN_BLOCK 8
#define PL_BLOCKS_MAX_BLOCK 1024
#define PL_BLOCKS_MAX_WINDOW 1000000

/* Whether block is a power of two from PL_BLOCKS_MIN_BLOCK to PL_BLOCKS_MAX_BLOCK. */
int pl_blocks_block_ok(int block);

/* The probe's batch as pl_probe_batch_make gives it, every rule of
 * pl_mask_rules counted per tile of block x block. PL_ERANGE for a block
 * that pl_blocks_block_ok refuses or a window outside 1 ..
 * PL_BLOCKS_MAX_WINDOW, or an example out of range; PL_ENOMEM. r is empty
 * on failure. */
PlStatus pl_probe_blocks(const PlCorpus *c, const PlProbeOpts *o, int block, int window, PlProbeBlocks *r, PlErr *err);
void pl_probe_blocks_free(PlProbeBlocks *r);

#endif
