/* The mask rules: one function each, combined by plain && as FlexAttention's
 * and_masks combines mask_mods. */
#include "mask_rules.h"

#include <string.h>

static int key_real(const PlRuleCtx *c, int b, int kv) { return c->real[(size_t)b * c->T + kv] != 0; }
static int same_doc(const PlRuleCtx *c, int b, int q, int kv) {
    return c->doc[(size_t)b * c->T + q] == c->doc[(size_t)b * c->T + kv];
}

static int rule_padding(const PlRuleCtx *c, int b, int h, int q, int kv) {
    (void)h, (void)q;
    return key_real(c, b, kv);
}

static int rule_causal(const PlRuleCtx *c, int b, int h, int q, int kv) {
    (void)c, (void)b, (void)h;
    return kv <= q;
}

static int rule_causal_padding(const PlRuleCtx *c, int b, int h, int q, int kv) {
    return rule_causal(c, b, h, q, kv) && rule_padding(c, b, h, q, kv);
}

static int rule_document(const PlRuleCtx *c, int b, int h, int q, int kv) {
    (void)h;
    return same_doc(c, b, q, kv);
}

static int rule_causal_document(const PlRuleCtx *c, int b, int h, int q, int kv) {
    return rule_causal(c, b, h, q, kv) && rule_document(c, b, h, q, kv);
}

static int rule_sliding(const PlRuleCtx *c, int b, int h, int q, int kv) {
    return q - kv < c->window && rule_causal_padding(c, b, h, q, kv);
}

const PlMaskRule pl_mask_rules[PL_RULE_COUNT] = {
    [PL_RULE_PADDING] = {"padding", rule_padding, "the key is a real token of its row"},
    [PL_RULE_CAUSAL] = {"causal", rule_causal, "the key is not after the query (kv <= q)"},
    [PL_RULE_CAUSAL_PADDING] = {"causal+padding", rule_causal_padding, "causal, and the key is real"},
    [PL_RULE_DOCUMENT] = {"document", rule_document,
                          "query and key are in the same document (a padded row is one, pads included)"},
    [PL_RULE_CAUSAL_DOCUMENT] = {"causal+document", rule_causal_document, "causal within each document"},
    [PL_RULE_SLIDING] = {"sliding_window", rule_sliding,
                         "causal+padding, and the key is fewer than W positions back (q - kv < W)"},
};

int pl_mask_rule_find(const char *name) {
    for (int i = 0; i < PL_RULE_COUNT; i++)
        if (strcmp(pl_mask_rules[i].name, name) == 0) return i;
    return -1;
}

PlTile pl_mask_rule_tile(PlMaskRuleFn keep, const PlRuleCtx *c, int b, int qb, int kb, int block, long *kept) {
    int q1 = (qb + 1) * block < c->T ? (qb + 1) * block : c->T;
    int k1 = (kb + 1) * block < c->T ? (kb + 1) * block : c->T;
    long n = 0;
    for (int q = qb * block; q < q1; q++)
        for (int kv = kb * block; kv < k1; kv++) n += keep(c, b, 0, q, kv) != 0;
    if (kept) *kept = n;
    return n == 0 ? PL_TILE_EMPTY : n == (long)block * block ? PL_TILE_FULL : PL_TILE_PARTIAL;
}
