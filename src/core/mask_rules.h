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

#endif
