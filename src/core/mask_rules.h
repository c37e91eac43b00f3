/* Masks as rules: each a small function of (batch row, head, query, key) that
 * says whether the query may attend the key, the form FlexAttention's
 * mask_mod takes (torch.nn.attention.flex_attention, PyTorch 2.5 onwards).
 * A rule is never stored as a tensor; a kernel asks it per cell or, as
 * create_block_mask does, per block once and keeps only the block's verdict.
 *
 * Layout: what a rule reads is the batch as padlab pads it. real (B,T) is
 * the padding mask, 1 = a real token, batch-major (cell (b,t) at b*T + t),
 * pads on the side the settings put them; doc (B,T) is the document each
 * position belongs to: in a packed row the sequence that holds it (from
 * cu_seqlens), in a padded batch 0 everywhere, since each row is one
 * document (its pads included: the padding rule is what hides them). */
#ifndef PL_MASK_RULES_H
#define PL_MASK_RULES_H

#include <stdint.h>

typedef struct {
    int T;               /* cells per row */
    const uint8_t *real; /* (B,T) 1 = a real token */
    const int *doc;      /* (B,T) the document of each position */
    int window;          /* the sliding window's width: q - kv < window */
} PlRuleCtx;

/* 1 when query q of row b, head h may attend key kv; 0 otherwise. q and kv
 * are in [0, T). No rule here depends on the head. */
typedef int (*PlMaskRuleFn)(const PlRuleCtx *c, int b, int h, int q, int kv);

typedef enum {
    PL_RULE_PADDING,
    PL_RULE_CAUSAL,
    PL_RULE_CAUSAL_PADDING,
    PL_RULE_DOCUMENT,
    PL_RULE_CAUSAL_DOCUMENT,
    PL_RULE_SLIDING,
    PL_RULE_COUNT
} PlRuleId;

typedef struct {
    const char *name;    /* "causal+padding": what a quantity's argument names */
    PlMaskRuleFn keep;   /* the rule itself */
    const char *meaning; /* one line */
} PlMaskRule;

/* The rules, indexed by PlRuleId. */
extern const PlMaskRule pl_mask_rules[PL_RULE_COUNT];

/* The rule named name, or -1. */
int pl_mask_rule_find(const char *name);

/* What a block-sparse kernel does with one tile of block x block cells. */
typedef enum { PL_TILE_EMPTY, PL_TILE_PARTIAL, PL_TILE_FULL } PlTile;

/* The verdict on tile (qb, kb) of row b (queries qb*block .. +block, keys
 * kb*block .. +block): empty when the rule keeps none of its cells (skipped
 * whole), full when it keeps all block^2 of them (computed with no mask),
 * partial otherwise. Cells past c->T are never kept, as FlexAttention pads
 * the mask with False up to a multiple of the block, so a tile that reaches
 * past T is at most partial. *kept (when not NULL) gets the cells kept. The
 * one place the blocks probe and the block_mask kata judge a tile. */
PlTile pl_mask_rule_tile(PlMaskRuleFn keep, const PlRuleCtx *c, int b, int qb, int kb, int block, long *kept);

#endif
