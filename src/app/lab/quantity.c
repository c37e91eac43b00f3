/* The table of named quantities (see quantity.h): each row reads one figure
 * of one result struct, of the settings, of the runs or of the grid. */
#include "quantity.h"

#include <ctype.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SRC_TRAIN = -2, SRC_GRID = -3, SRC_DRIFT = -4, SRC_CHANCE = -5, SRC_HALF = -6 };
typedef enum { A_NONE, A_STRATEGY, A_KEEP, A_SWEEP, A_LAYER, A_CONV, A_CELL, A_NUMBER, A_RULE } ArgKind;

typedef double (*GetFn)(const void *r, int arg);

typedef struct {
    const char *name;
    int src; /* a PlResultKind, SRC_TRAIN or SRC_GRID */
    PlQuantityFormat fmt;
    ArgKind arg;
    GetFn get;
    const char *help; /* what it is, in words that stand alone: a wrong answer's diagnosis says it */
} Def;

#define GET(fn, type, expr)                   \
    static double fn(const void *rv, int a) { \
        const type *r = rv;                   \
        (void)a;                              \
        return (double)(expr);                \
    }

/* ---- batch ---- */
static double batch_cells(const PlProbeBatch *r) {
    return r->pick.packed ? r->pick.width : (double)r->pick.B * r->pick.width;
}
static int example_kept(const PlProbeBatch *r) {
    return r->pick.cu_seqlens[r->pick.at + 1] - r->pick.cu_seqlens[r->pick.at];
}
GET(b_rows, PlProbeBatch, r->pick.B)
GET(b_width, PlProbeBatch, r->pick.width)
GET(b_cells, PlProbeBatch, batch_cells(r))
GET(b_real, PlProbeBatch, r->real_tokens)
GET(b_pads, PlProbeBatch, batch_cells(r) - (double)r->real_tokens)
GET(b_pad_share, PlProbeBatch, (batch_cells(r) - (double)r->real_tokens) / batch_cells(r))
GET(b_rows_cut, PlProbeBatch, r->rows_cut)
GET(b_tokens_cut, PlProbeBatch, r->tokens_cut)
GET(b_id0, PlProbeBatch, r->id0_real)
GET(b_ex_len, PlProbeBatch, r->example_length)
GET(b_ex_kept, PlProbeBatch, example_kept(r))
GET(b_ex_pads, PlProbeBatch, r->pick.packed ? 0 : r->pick.width - example_kept(r))
GET(b_mask_bytes, PlProbeBatch, (double)r->pick.B * r->pick.width * r->pick.width)
GET(b_index, PlProbeBatch, r->pick.index + 1)
GET(b_batches, PlProbeBatch, r->pick.count)

/* ---- cost ---- */
GET(c_pad, PlLabCost, r->padding_share)
GET(c_kept, PlLabCost, r->kept_share)
GET(c_trunc, PlLabCost, r->truncated_share)
GET(c_cut_share, PlLabCost, r->cost.total_tokens ? (double)r->tokens_cut / (double)r->cost.total_tokens : (double)NAN)
GET(c_cut, PlLabCost, r->tokens_cut)
GET(c_cells, PlLabCost, r->cost.slots)
GET(c_real, PlLabCost, r->cost.real_tokens)
GET(c_steps, PlLabCost, r->cost.rnn_steps)
GET(c_wasted, PlLabCost, r->cost.rnn_wasted)
GET(c_attn, PlLabCost, r->cost.attn_cells)
GET(c_attn_real, PlLabCost, r->cost.attn_real_cells)
GET(c_batches, PlLabCost, r->cost.batches)
GET(c_shapes, PlLabCost, r->cost.shapes)
GET(c_s_pad, PlLabCost, r->strategies[a].padding_share)
GET(c_s_cells, PlLabCost, r->strategies[a].cost.slots)
GET(c_s_saved, PlLabCost, r->strategies[a].cells_saved)
GET(c_s_attn, PlLabCost, r->strategies[a].cost.attn_cells)
GET(c_s_attn_saved, PlLabCost, r->strategies[a].attn_saved)
GET(c_s_cut, PlLabCost, r->strategies[a].tokens_cut)
GET(c_s_batches, PlLabCost, r->strategies[a].cost.batches)
GET(c_s_shapes, PlLabCost, r->strategies[a].cost.shapes)
GET(c_keep, PlLabCost, r->keep_maxlen[a])
GET(c_sweep_pad, PlLabCost, r->sweep_padding[a])
GET(c_sweep_kept, PlLabCost, r->sweep_kept[a])

/* Where the sweep's padding share (what static batches waste) meets the
 * share of tokens they cut (what they lose), as the cost result computes it
 * for every view; NaN when they never meet. */
static double sweep_crossing(const void *rv, int a) {
    const PlLabCost *r = rv;
    (void)a;
    return r->cross_maxlen >= 0.0 ? r->cross_maxlen : (double)NAN;
}
GET(k_n, PlLabCost, r->lengths.n)
GET(k_first_bucket, PlLabCost, r->lengths.n ? (double)r->len_first_bucket / (double)r->lengths.n : (double)NAN)
GET(k_min, PlLabCost, r->lengths.min)
GET(k_median, PlLabCost, r->lengths.median)
GET(k_mean, PlLabCost, r->lengths.mean)
GET(k_p95, PlLabCost, r->lengths.p95)
GET(k_max, PlLabCost, r->lengths.max)

/* ---- attention ---- */
GET(a_share, PlProbeAttention, r->pad_share)
GET(a_leak, PlProbeAttention, r->leak_total)
GET(a_max, PlProbeAttention, r->pad_weight_max)
GET(a_sum, PlProbeAttention, r->row_sum_error_max)
GET(a_empty, PlProbeAttention, r->empty_rows)
GET(a_nan, PlProbeAttention, r->nan_count)
GET(a_inv, PlProbeAttention, r->batch_invariance_max_diff)
GET(a_packed, PlProbeAttention, r->packed_vs_padded_max_diff)
GET(a_wrong, PlProbeAttention, r->wrong_fix_min_sum)
GET(a_width, PlProbeAttention, r->T)
GET(a_real, PlProbeAttention, r->L)
GET(a_padded, PlProbeAttention, r->padded_cells)
GET(a_packed_cells, PlProbeAttention, r->packed_cells)
GET(a_rows, PlProbeAttention, r->B)
GET(a_heads, PlProbeAttention, r->heads)
GET(a_mask_cells, PlProbeAttention, (double)r->B * r->T)
GET(a_key_share, PlProbeAttention, r->T ? (double)(r->T - r->L) / r->T : (double)NAN)
GET(a_uneven, PlProbeAttention, r->T ? fabs((double)r->pad_share - (double)(r->T - r->L) / r->T) : (double)NAN)
GET(a_score_cells, PlProbeAttention, (double)r->B * r->heads * r->T * r->T)

/* ---- rnn ---- */
GET(r_width, PlProbeRnn, r->T)
GET(r_real, PlProbeRnn, r->L)
GET(r_pads, PlProbeRnn, r->T - r->L)
GET(r_final, PlProbeRnn, r->final_distance_to_last_real)
GET(r_carry, PlProbeRnn, r->masked_carry_distance)
GET(r_survival, PlProbeRnn, r->last_real_survival)
GET(r_found, PlProbeRnn, r->fixed_found)
GET(r_fixed_norm, PlProbeRnn, r->fixed_norm)
GET(r_fixed_steps, PlProbeRnn, r->fixed_iters)
GET(r_shift, PlProbeRnn, r->start_shift)
GET(r_pre, PlProbeRnn, r->pre_pad_effect)
GET(r_last_pos, PlProbeRnn, r->last_pos_norm)
GET(r_last_real, PlProbeRnn, r->last_real_norm)
GET(r_carry_norm, PlProbeRnn, r->masked_carry_norm)
GET(r_pad_row, PlProbeRnn, r->pad_embedding_norm)

/* ---- pooling, loss ---- */
GET(p_mean, PlProbePooling, r->mean_real_weight)
GET(p_min, PlProbePooling, r->min_real_weight)
GET(p_ex, PlProbePooling, r->example_weight)
GET(p_unmasked, PlProbePooling, r->avg_unmasked_dist)
GET(p_div_t, PlProbePooling, r->avg_div_t_dist)
GET(p_max, PlProbePooling, r->max_unmasked_dist)
GET(p_real, PlProbePooling, r->L)
GET(p_width, PlProbePooling, r->T)
GET(l_token, PlProbeLoss, r->per_token)
GET(l_seq, PlProbeLoss, r->per_sequence)
GET(l_bt, PlProbeLoss, r->batch_t)
GET(l_token_wide, PlProbeLoss, r->per_token_wide)
GET(l_bt_wide, PlProbeLoss, r->batch_t_wide)
GET(l_wide, PlProbeLoss, r->wide_T)
GET(l_real, PlProbeLoss, r->real_terms)
GET(l_fake, PlProbeLoss, r->fake_terms)
GET(l_pads, PlProbeLoss, r->loss_with_pads)
GET(l_perfect, PlProbeLoss, r->loss_pad_perfect)
GET(l_g_token, PlProbeLoss, r->grad_per_token)
GET(l_g_seq, PlProbeLoss, r->grad_per_sequence)
GET(l_g_bt, PlProbeLoss, r->grad_batch_t)

/* The pad row e0 is not kept by the pooling probe, but its vectors give it
 * back: unmasked - real sum / T = (T - L) / T * e0. v's distance from it;
 * NaN when the example has no pad. */
static double from_pad_row(const PlProbePooling *r, const float *v) {
    if (r->L >= r->T) return NAN;
    double s = 0.0;
    for (int i = 0; i < r->E; i++) {
        double e0 = ((double)r->avg_unmasked[i] - (double)r->avg_div_t[i]) * r->T / (double)(r->T - r->L);
        s += ((double)v[i] - e0) * ((double)v[i] - e0);
    }
    return sqrt(s);
}
static double norm_of(const float *v, int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += (double)v[i] * (double)v[i];
    return sqrt(s);
}
GET(p_pad, PlProbePooling, from_pad_row(r, r->avg_unmasked))
GET(p_masked_pad, PlProbePooling, from_pad_row(r, r->avg_masked))
GET(p_masked_norm, PlProbePooling, norm_of(r->avg_masked, r->E))
GET(p_div_t_norm, PlProbePooling, norm_of(r->avg_div_t, r->E))

/* The counted targets of the row with the fewest (most = 0) or the most. */
static double row_targets(const PlProbeLoss *r, int most) {
    long best = -1;
    for (int b = 0; b < r->B; b++) {
        long n = 0;
        for (int t = 0; t < r->T; t++) n += r->targets[(size_t)b * r->T + t] != PL_IGNORE_INDEX;
        if (best < 0 || (most ? n > best : n < best)) best = n;
    }
    return (double)best;
}
GET(l_rows, PlProbeLoss, r->B)
GET(l_width, PlProbeLoss, r->T)
GET(l_short, PlProbeLoss, row_targets(r, 0))
GET(l_long, PlProbeLoss, row_targets(r, 1))
GET(l_short_share, PlProbeLoss, r->real_terms ? row_targets(r, 0) / (double)r->real_terms : (double)NAN)
GET(l_fake_share, PlProbeLoss,
    r->real_terms + r->fake_terms ? (double)r->fake_terms / (double)(r->real_terms + r->fake_terms) : (double)NAN)
GET(l_chat_rows, PlProbeLoss, r->chat_B)
GET(l_chat_width, PlProbeLoss, r->chat_T)
GET(l_chat_system, PlProbeLoss, r->chat_system)
GET(l_chat_real, PlProbeLoss, r->chat_real)
GET(l_chat_prompt, PlProbeLoss, r->chat_real - r->completion_tokens)
GET(l_done_tokens, PlProbeLoss, r->completion_tokens)
GET(l_done_share, PlProbeLoss, r->chat_real ? (double)r->completion_tokens / (double)r->chat_real : (double)NAN)
GET(l_done_cells, PlProbeLoss,
    r->chat_B > 0 && r->chat_T > 0 ? (double)r->completion_tokens / ((double)r->chat_B * r->chat_T) : (double)NAN)
GET(l_prompt_terms, PlProbeLoss, r->prompt_terms)
GET(l_done_loss, PlProbeLoss, r->completion_loss)
GET(l_prompt_loss, PlProbeLoss, r->prompt_included_loss)
GET(l_prompt_gap, PlProbeLoss, (double)r->prompt_included_loss - (double)r->completion_loss)

/* ---- layers, generate, masks, identity ---- */
static const struct {
    const char *name, *mask;
} layer_rows[] = {{"embedding", "none"}, {"rnn", "on"},       {"rnn", "off"},      {"gru", "on"},
                  {"gru", "off"},        {"lstm", "on"},      {"lstm", "off"},     {"avgpool", "on"},
                  {"avgpool", "off"},    {"maxpool", "on"},   {"maxpool", "off"},  {"dense", "none"},
                  {"conv1d", "none"},    {"flatten", "none"}, {"attention", "on"}, {"attention", "off"}};
#define N_LAYER_ROWS ((int)(sizeof layer_rows / sizeof layer_rows[0]))

static double layer_leak(const void *rv, int a) {
    const PlProbeLayers *r = rv;
    for (int i = 0; i < r->n; i++)
        if (strcmp(r->rows[i].name, layer_rows[a].name) == 0 && strcmp(r->rows[i].mask, layer_rows[a].mask) == 0)
            return (double)r->rows[i].leak;
    return NAN;
}
GET(y_pads, PlProbeLayers, r->pads)
GET(g_right, PlProbeGenerate, r->naive_last_column_pad_rows_right)
GET(g_left, PlProbeGenerate, r->naive_last_column_pad_rows_left)
GET(g_corrected, PlProbeGenerate, r->left_vs_single_max_diff)
GET(g_naive, PlProbeGenerate, r->left_naive_positions_max_diff)
GET(g_right_real, PlProbeGenerate, r->right_last_real_vs_single_max_diff)
GET(g_right_last, PlProbeGenerate, r->right_last_column_vs_single_max_diff)
GET(g_prompts, PlProbeGenerate, r->B)
GET(kv_prompts, PlProbeKvcache, r->B)
GET(kv_steps, PlProbeKvcache, r->S)
GET(kv_slots, PlProbeKvcache, (double)r->B * r->slots)
GET(kv_pad_slots, PlProbeKvcache, r->pad_slots)
GET(kv_pad_share, PlProbeKvcache,
    r->B > 0 && r->slots > 0 ? (double)r->pad_slots / ((double)r->B * r->slots) : (double)NAN)
GET(kv_pad_bytes, PlProbeKvcache, (double)r->pad_slots * r->bytes_per_slot)
GET(kv_slot_bytes, PlProbeKvcache, r->bytes_per_slot)
GET(kv_first_pad_share, PlProbeKvcache, r->cells[0] ? (double)r->pad_cells[0] / (double)r->cells[0] : (double)NAN)
GET(kv_last_pad_share, PlProbeKvcache,
    r->cells[r->S - 1] ? (double)r->pad_cells[r->S - 1] / (double)r->cells[r->S - 1] : (double)NAN)
GET(kv_static_len, PlProbeKvcache, r->static_len)
GET(kv_static_pad, PlProbeKvcache, r->static_pad_slots)
GET(kv_static_unreached, PlProbeKvcache, (double)r->B *(r->static_len - r->slots))
GET(kv_static_share, PlProbeKvcache, (double)r->static_pad_slots / ((double)r->B * r->static_len))
GET(kv_recompute, PlProbeKvcache, r->cache_vs_recompute_max_diff)
GET(kv_left, PlProbeKvcache, r->way[PL_KV_LEFT].max_diff)
GET(kv_left_tok, PlProbeKvcache, r->way[PL_KV_LEFT].tokens_differ)
GET(kv_slots_pos, PlProbeKvcache, r->way[PL_KV_LEFT_SLOTS].max_diff)
GET(kv_slots_pos_tok, PlProbeKvcache, r->way[PL_KV_LEFT_SLOTS].tokens_differ)
GET(kv_no_mask, PlProbeKvcache, r->way[PL_KV_LEFT_NO_MASK].max_diff)
GET(kv_no_mask_tok, PlProbeKvcache, r->way[PL_KV_LEFT_NO_MASK].tokens_differ)
GET(kv_right, PlProbeKvcache, r->way[PL_KV_RIGHT].max_diff)
GET(kv_right_tok, PlProbeKvcache, r->way[PL_KV_RIGHT].tokens_differ)
GET(kv_reads, PlProbeKvcache, (double)r->B * r->reads)

/* ---- packing ---- */
GET(k_docs, PlProbePacking, r->D)
GET(k_tokens, PlProbePacking, r->N)
GET(k_read, PlProbePacking, r->n_read)
GET(k_counted_read, PlProbePacking, r->counted_read)
GET(k_longest, PlProbePacking, r->longest)
GET(k_dyn, PlProbePacking, r->dynamic_cells)
GET(k_static, PlProbePacking, r->static_cells)
GET(k_dyn_saved, PlProbePacking, r->dynamic_saved)
GET(k_static_saved, PlProbePacking, r->static_saved)
GET(k_dyn_share, PlProbePacking, r->dynamic_saved_share)
GET(k_static_share, PlProbePacking, r->static_saved_share)
GET(k_aware, PlProbePacking, r->aware_max_diff)
GET(k_causal, PlProbePacking, r->causal_max_diff)
GET(k_cross, PlProbePacking, r->cross_row)
GET(k_counted, PlProbePacking, r->counted_max_diff)
GET(k_terms, PlProbePacking, r->loss_terms)
GET(k_unmasked, PlProbePacking, r->loss_terms_unmasked)
GET(k_boundary, PlProbePacking, r->boundary_terms)
GET(k_boundary_share, PlProbePacking, r->boundary_share)
GET(m_right, PlProbeMasks, r->share_right)
GET(m_none, PlProbeMasks, r->share_none)
GET(m_inverted, PlProbeMasks, r->share_inverted)
GET(m_blind, PlProbeMasks, r->blind_rows)
GET(m_padded, PlProbeMasks, r->padded_rows)
GET(m_keep, PlProbeMasks, r->keep[a])
GET(m_real, PlProbeMasks, r->real_tokens)
GET(i_masked, PlProbeIdentity, r->masked_max_diff)
GET(i_unmasked, PlProbeIdentity, r->unmasked_max_diff)
GET(i_effect, PlProbeIdentity, r->mask_effect_max_diff)
GET(i_width, PlProbeIdentity, r->T)
GET(i_pads, PlProbeIdentity, r->pads)
GET(i_real, PlProbeIdentity, r->B > 0 ? r->len[0] : 0)

/* ---- blocks: a rule's figures take the rule (a PlRuleId) as argument ---- */
GET(k_block, PlProbeBlocks, r->block)
GET(k_padded, PlProbeBlocks, r->Tp)
GET(k_side, PlProbeBlocks, r->nb)
GET(k_tiles, PlProbeBlocks, r->tiles)
GET(k_window, PlProbeBlocks, r->window)
GET(k_bool, PlProbeBlocks, r->dense_bool_bytes)
GET(k_float, PlProbeBlocks, r->dense_float_bytes)
GET(k_forward, PlProbeBlocks, r->block_mask_forward_bytes)
GET(k_all, PlProbeBlocks, r->block_mask_bytes)
GET(k_empty, PlProbeBlocks, r->rules[a].empty)
GET(k_partial, PlProbeBlocks, r->rules[a].partial)
GET(k_full, PlProbeBlocks, r->rules[a].full)
GET(k_ex_empty, PlProbeBlocks, r->rules[a].row[(size_t)r->map_row * 3])
GET(k_ex_partial, PlProbeBlocks, r->rules[a].row[(size_t)r->map_row * 3 + 1])
GET(k_ex_full, PlProbeBlocks, r->rules[a].row[(size_t)r->map_row * 3 + 2])
GET(k_kept, PlProbeBlocks, r->rules[a].kept_share)
GET(k_computed, PlProbeBlocks, r->rules[a].computed_share)

/* x rounded to the nearest float16 (ties to even), as a half-precision
 * tensor holds it: 11 significant bits, subnormals below 2^-14, and from
 * 65520 (half an ulp past the largest finite half, 65504) infinity. */
static double half_of(double x) {
    double a = fabs(x), step;
    int e;
    if (isnan(x)) return x;
    if (a >= 65520.0) return copysign((double)INFINITY, x);
    if (a < 0x1p-14) step = 0x1p-24;
    else (void)frexp(a, &e), step = ldexp(1.0, e - 11);
    return copysign(nearbyint(a / step) * step, x);
}

/* ---- training and the grid: read from the lab, not a result ---- */
enum { T_MEDIAN, T_MIN, T_MAX, T_SEEDS, T_MEMORISED, T_ACTIVE };
static double t_median(const void *g, int a) { return (void)a, (double)((const PlLabGroup *)g)->median; }
static double t_min(const void *g, int a) { return (void)a, (double)((const PlLabGroup *)g)->min; }
static double t_max(const void *g, int a) { return (void)a, (double)((const PlLabGroup *)g)->max; }
static double t_seeds(const void *g, int a) { return (void)a, ((const PlLabGroup *)g)->n; }
static double t_memorised(const void *g, int a) { return (void)a, ((const PlLabGroup *)g)->memorised; }
static double t_at_chance(const void *g, int a) { return (void)a, ((const PlLabGroup *)g)->at_chance; }
static double t_over_chance(const void *g, int a) {
    return (void)a, (double)(((const PlLabGroup *)g)->median - ((const PlLabGroup *)g)->chance);
}
GET(ch_share, PlChance, r->share)
GET(ch_noise, PlChance, r->noise)
GET(ch_n_val, PlChance, r->n_val)
static double t_spread(const void *g, int a) {
    return (void)a, (double)(((const PlLabGroup *)g)->max - ((const PlLabGroup *)g)->min);
}

/* The grid's pre+mask against post+mask on the same seed, the largest
 * over its seeds; NaN when no seed has both. */
static double grid_drift(const void *gv, int a) {
    const PlLabGrid *g = gv;
    double d = (double)NAN;
    (void)a;
    for (int i = 0; i < g->ndrift; i++)
        if (isnan(d) || (double)g->drift[i] > d) d = g->drift[i];
    return d;
}

#define R(name, src, fmt, arg, get, help) \
    { name, src, fmt, arg, get, help }
static const Def defs[] = {
    R("batch.rows", PL_R_BATCH, PL_QF_COUNT, A_NONE, b_rows, "rows of the batch that holds the example"),
    R("batch.width", PL_R_BATCH, PL_QF_COUNT, A_NONE, b_width,
      "the width of the example's batch (packed: the tokens of its one row)"),
    R("batch.cells", PL_R_BATCH, PL_QF_COUNT, A_NONE, b_cells, "the cells of the example's batch, rows x width"),
    R("batch.real_tokens", PL_R_BATCH, PL_QF_COUNT, A_NONE, b_real, "the real tokens of the example's batch"),
    R("batch.pad_cells", PL_R_BATCH, PL_QF_COUNT, A_NONE, b_pads, "the pad cells of the example's batch"),
    R("batch.pad_share", PL_R_BATCH, PL_QF_SHARE, A_NONE, b_pad_share,
      "the share of the example's batch's cells that are pads"),
    R("batch.rows_cut", PL_R_BATCH, PL_QF_COUNT, A_NONE, b_rows_cut,
      "the rows of the example's batch that truncation shortened"),
    R("batch.tokens_cut", PL_R_BATCH, PL_QF_COUNT, A_NONE, b_tokens_cut,
      "the tokens truncation threw away from the example's batch"),
    R("batch.id0_real", PL_R_BATCH, PL_QF_COUNT, A_NONE, b_id0,
      "real cells holding id 0 (Keras's mask_zero would hide them)"),
    R("batch.example_tokens", PL_R_BATCH, PL_QF_COUNT, A_NONE, b_ex_len, "the example's tokens before truncation"),
    R("batch.example_kept", PL_R_BATCH, PL_QF_COUNT, A_NONE, b_ex_kept, "the example's tokens in the batch"),
    R("batch.example_pads", PL_R_BATCH, PL_QF_COUNT, A_NONE, b_ex_pads, "the example's pad cells"),
    R("batch.mask_bytes", PL_R_BATCH, PL_QF_COUNT, A_NONE, b_mask_bytes,
      "bytes of an explicit (B, T, T) boolean mask for the example's batch"),
    R("batch.index", PL_R_BATCH, PL_QF_COUNT, A_NONE, b_index, "which batch of the plan it is, from 1"),
    R("batch.batches", PL_R_BATCH, PL_QF_COUNT, A_NONE, b_batches, "the batches of the plan"),
    R("cost.padding_share", PL_R_COST, PL_QF_SHARE, A_NONE, c_pad, "the corpus's padding share under the batching"),
    R("cost.kept_share", PL_R_COST, PL_QF_SHARE, A_NONE, c_kept, "the share of the corpus's tokens kept"),
    R("cost.truncated_share", PL_R_COST, PL_QF_SHARE, A_NONE, c_trunc, "the share of the corpus's reviews truncated"),
    R("cost.tokens_cut", PL_R_COST, PL_QF_COUNT, A_NONE, c_cut, "the corpus's tokens truncation throws away"),
    R("cost.cut_share", PL_R_COST, PL_QF_SHARE, A_NONE, c_cut_share,
      "the share of the corpus's tokens truncation throws away (1 - kept)"),
    R("cost.cells", PL_R_COST, PL_QF_COUNT, A_NONE, c_cells, "the cells of every batch of one epoch"),
    R("cost.real_tokens", PL_R_COST, PL_QF_COUNT, A_NONE, c_real, "the real tokens in every batch of one epoch"),
    R("cost.rnn_steps", PL_R_COST, PL_QF_COUNT, A_NONE, c_steps, "recurrent steps one epoch runs"),
    R("cost.rnn_wasted", PL_R_COST, PL_QF_COUNT, A_NONE, c_wasted, "the recurrent steps of one epoch that run on pads"),
    R("cost.attention_cells", PL_R_COST, PL_QF_COUNT, A_NONE, c_attn, "attention score cells of one epoch"),
    R("cost.attention_real_cells", PL_R_COST, PL_QF_COUNT, A_NONE, c_attn_real,
      "the attention score cells of one epoch between two real tokens"),
    R("cost.batches", PL_R_COST, PL_QF_COUNT, A_NONE, c_batches, "the batches of one epoch"),
    R("cost.shapes", PL_R_COST, PL_QF_COUNT, A_NONE, c_shapes,
      "the distinct batch shapes of one epoch, rows x width: what a compiler without dynamic shapes compiles once each"),
    R("cost.padding_share(STRATEGY)", PL_R_COST, PL_QF_SHARE, A_STRATEGY, c_s_pad, "another strategy's padding share"),
    R("cost.cells(STRATEGY)", PL_R_COST, PL_QF_COUNT, A_STRATEGY, c_s_cells, "another strategy's cells"),
    R("cost.cells_saved(STRATEGY)", PL_R_COST, PL_QF_SHARE, A_STRATEGY, c_s_saved,
      "the share of static's cells another strategy skips"),
    R("cost.attention_cells(STRATEGY)", PL_R_COST, PL_QF_COUNT, A_STRATEGY, c_s_attn,
      "another strategy's attention score cells"),
    R("cost.attention_saved(STRATEGY)", PL_R_COST, PL_QF_SHARE, A_STRATEGY, c_s_attn_saved,
      "the share of static's score cells another strategy skips"),
    R("cost.tokens_cut(STRATEGY)", PL_R_COST, PL_QF_COUNT, A_STRATEGY, c_s_cut,
      "the tokens another strategy throws away"),
    R("cost.batches(STRATEGY)", PL_R_COST, PL_QF_COUNT, A_STRATEGY, c_s_batches, "another strategy's batches"),
    R("cost.shapes(STRATEGY)", PL_R_COST, PL_QF_COUNT, A_STRATEGY, c_s_shapes,
      "another strategy's distinct batch shapes in an epoch: what a compiler without dynamic shapes compiles once each"),
    R("cost.maxlen_keeping(SHARE)", PL_R_COST, PL_QF_COUNT, A_KEEP, c_keep,
      "the smallest maxlen keeping that share of the tokens (0.05 .. 1)"),
    R("cost.static_padding_share(MAXLEN)", PL_R_COST, PL_QF_SHARE, A_SWEEP, c_sweep_pad,
      "static's padding share at a maxlen of 25, 50, ... 800"),
    R("cost.static_kept_share(MAXLEN)", PL_R_COST, PL_QF_SHARE, A_SWEEP, c_sweep_kept,
      "static's kept share at a maxlen of 25, 50, ... 800"),
    R("cost.crossing_maxlen", PL_R_COST, PL_QF_COUNT, A_NONE, sweep_crossing,
      "the maxlen where static's padding share meets its share of tokens cut (between sweep points)"),
    R("cost.first_bucket_share", PL_R_COST, PL_QF_SHARE, A_NONE, k_first_bucket,
      "the share of the reviews shorter than maxlen / 4: the first of the buckets at the quarters of maxlen"),
    R("corpus.reviews", PL_R_COST, PL_QF_COUNT, A_NONE, k_n, "the corpus's reviews"),
    R("corpus.majority", SRC_CHANCE, PL_QF_SHARE, A_NONE, ch_share,
      "chance: the validation split's majority share, what always answering that label scores"),
    R("corpus.chance_noise", SRC_CHANCE, PL_QF_SHARE, A_NONE, ch_noise,
      "how far from chance an accuracy may lie and still count as at chance"),
    R("corpus.validation", SRC_CHANCE, PL_QF_COUNT, A_NONE, ch_n_val, "the reviews of the validation split"),
    R("corpus.min", PL_R_COST, PL_QF_COUNT, A_NONE, k_min, "the shortest review's tokens"),
    R("corpus.median", PL_R_COST, PL_QF_VALUE, A_NONE, k_median, "the median review length"),
    R("corpus.mean", PL_R_COST, PL_QF_VALUE, A_NONE, k_mean, "the mean review length"),
    R("corpus.p95", PL_R_COST, PL_QF_COUNT, A_NONE, k_p95,
      "the 95th percentile of the lengths by nearest rank: a length that 95% of the reviews do not exceed"),
    R("corpus.max", PL_R_COST, PL_QF_COUNT, A_NONE, k_max, "the longest review's tokens"),
    R("attention.pad_share", PL_R_ATTENTION, PL_QF_SHARE, A_NONE, a_share,
      "the share of a real query's weight on pads"),
    R("attention.pad_key_share", PL_R_ATTENTION, PL_QF_SHARE, A_NONE, a_key_share,
      "the share of the example's keys that are pads: its weight on them under an even softmax"),
    R("attention.uneven", PL_R_ATTENTION, PL_QF_SHARE, A_NONE, a_uneven,
      "how far the weight on pads lies from the pads' share of the keys, either way"),
    R("attention.leak_total", PL_R_ATTENTION, PL_QF_VALUE, A_NONE, a_leak,
      "weight on pad keys over real queries and heads"),
    R("attention.pad_weight_max", PL_R_ATTENTION, PL_QF_VALUE, A_NONE, a_max, "the largest one weight on a pad key"),
    R("attention.row_sum_error", PL_R_ATTENTION, PL_QF_VALUE, A_NONE, a_sum,
      "the largest |row sum - 1| of a real query"),
    R("attention.empty_rows", PL_R_ATTENTION, PL_QF_COUNT, A_NONE, a_empty, "queries that see no key at all"),
    R("attention.nan", PL_R_ATTENTION, PL_QF_COUNT, A_NONE, a_nan, "NaN among the weights and outputs"),
    R("attention.invariance", PL_R_ATTENTION, PL_QF_VALUE, A_NONE, a_inv,
      "one review next to a short and then a long partner: the largest difference of its outputs"),
    R("attention.packed_vs_padded", PL_R_ATTENTION, PL_QF_VALUE, A_NONE, a_packed,
      "varlen attention against the masked padded batch"),
    R("attention.wrong_fix_sum", PL_R_ATTENTION, PL_QF_VALUE, A_NONE, a_wrong,
      "the smallest row sum after zeroing pads after the softmax"),
    R("attention.width", PL_R_ATTENTION, PL_QF_COUNT, A_NONE, a_width,
      "the keys each query of the example's batch scores"),
    R("attention.real", PL_R_ATTENTION, PL_QF_COUNT, A_NONE, a_real, "the example's real tokens"),
    R("attention.padded_cells", PL_R_ATTENTION, PL_QF_COUNT, A_NONE, a_padded,
      "attention score cells per head, padded"),
    R("attention.packed_cells", PL_R_ATTENTION, PL_QF_COUNT, A_NONE, a_packed_cells,
      "attention score cells per head, packed"),
    R("attention.rows", PL_R_ATTENTION, PL_QF_COUNT, A_NONE, a_rows, "rows of the batch attention runs over (B)"),
    R("attention.heads", PL_R_ATTENTION, PL_QF_COUNT, A_NONE, a_heads, "the attention model's heads (h)"),
    R("attention.mask_cells", PL_R_ATTENTION, PL_QF_COUNT, A_NONE, a_mask_cells,
      "entries of the attention's (B, 1, 1, T) padding mask"),
    R("attention.score_cells", PL_R_ATTENTION, PL_QF_COUNT, A_NONE, a_score_cells,
      "the attention's (B, h, T, T) scores, every head"),
    R("rnn.width", PL_R_RNN, PL_QF_COUNT, A_NONE, r_width, "the steps the recurrent cell runs over the example's row"),
    R("rnn.real", PL_R_RNN, PL_QF_COUNT, A_NONE, r_real, "the real steps of the example's row"),
    R("rnn.pads", PL_R_RNN, PL_QF_COUNT, A_NONE, r_pads, "the pad steps of the example's row"),
    R("rnn.final_distance", PL_R_RNN, PL_QF_VALUE, A_NONE, r_final, "the readout's distance from the last real state"),
    R("rnn.carry_distance", PL_R_RNN, PL_QF_VALUE, A_NONE, r_carry,
      "the readout's distance from the last real state, with the mask"),
    R("rnn.survival", PL_R_RNN, PL_QF_SHARE, A_NONE, r_survival,
      "the share of the last real state's distance from h* left at the end"),
    R("rnn.fixed_found", PL_R_RNN, PL_QF_COUNT, A_NONE, r_found, "1 when the pads settle on a fixed point h*"),
    R("rnn.fixed_norm", PL_R_RNN, PL_QF_VALUE, A_NONE, r_fixed_norm, "|h*|"),
    R("rnn.fixed_steps", PL_R_RNN, PL_QF_COUNT, A_NONE, r_fixed_steps, "pad steps to reach h*"),
    R("rnn.start_shift", PL_R_RNN, PL_QF_VALUE, A_NONE, r_shift, "how far leading pads move the starting state"),
    R("rnn.pre_pad_effect", PL_R_RNN, PL_QF_VALUE, A_NONE, r_pre,
      "how far leading pads leave the last real state from the tokens' own"),
    R("rnn.last_position_norm", PL_R_RNN, PL_QF_VALUE, A_NONE, r_last_pos, "|h| at the last position"),
    R("rnn.last_real_norm", PL_R_RNN, PL_QF_VALUE, A_NONE, r_last_real, "|h| after the last real token"),
    R("rnn.carry_norm", PL_R_RNN, PL_QF_VALUE, A_NONE, r_carry_norm, "|h| the mask carries to the end"),
    R("rnn.pad_embedding_norm", PL_R_RNN, PL_QF_VALUE, A_NONE, r_pad_row, "|the pad row of the embedding|"),
    R("pooling.mean_weight", PL_R_POOLING, PL_QF_SHARE, A_NONE, p_mean,
      "the real tokens' mean weight in an unmasked mean, over the corpus"),
    R("pooling.min_weight", PL_R_POOLING, PL_QF_SHARE, A_NONE, p_min,
      "the real tokens' smallest weight in an unmasked mean, over the corpus"),
    R("pooling.example_weight", PL_R_POOLING, PL_QF_SHARE, A_NONE, p_ex, "the example's real tokens' weight"),
    R("pooling.unmasked_distance", PL_R_POOLING, PL_QF_VALUE, A_NONE, p_unmasked,
      "the unmasked mean's distance from the masked one"),
    R("pooling.div_t_distance", PL_R_POOLING, PL_QF_VALUE, A_NONE, p_div_t,
      "the real sum over T's distance from the masked mean"),
    R("pooling.max_distance", PL_R_POOLING, PL_QF_VALUE, A_NONE, p_max, "unmasked max pooling's distance from masked"),
    R("pooling.real", PL_R_POOLING, PL_QF_COUNT, A_NONE, p_real, "the example's real tokens"),
    R("pooling.width", PL_R_POOLING, PL_QF_COUNT, A_NONE, p_width,
      "the width of the example's row in the pooling view"),
    R("pooling.pad_distance", PL_R_POOLING, PL_QF_VALUE, A_NONE, p_pad,
      "the unmasked mean's distance from the pad row, where short reviews collapse"),
    R("pooling.masked_pad_distance", PL_R_POOLING, PL_QF_VALUE, A_NONE, p_masked_pad,
      "the masked mean's distance from the pad row"),
    R("pooling.masked_norm", PL_R_POOLING, PL_QF_VALUE, A_NONE, p_masked_norm, "|the masked mean|"),
    R("pooling.div_t_norm", PL_R_POOLING, PL_QF_VALUE, A_NONE, p_div_t_norm,
      "|the real tokens' sum over T|: the masked mean's, shrunk by L/T"),
    R("loss.per_token", PL_R_LOSS, PL_QF_VALUE, A_NONE, l_token, "the loss per real target"),
    R("loss.per_sequence", PL_R_LOSS, PL_QF_VALUE, A_NONE, l_seq, "the mean of each sequence's mean"),
    R("loss.batch_t", PL_R_LOSS, PL_QF_VALUE, A_NONE, l_bt,
      "the loss summed over the targets and divided by the B x T cells"),
    R("loss.per_token_wide", PL_R_LOSS, PL_QF_VALUE, A_NONE, l_token_wide,
      "the loss per real target with the rows padded twice as wide"),
    R("loss.batch_t_wide", PL_R_LOSS, PL_QF_VALUE, A_NONE, l_bt_wide,
      "the loss over batch x T with the rows padded twice as wide"),
    R("loss.wide_width", PL_R_LOSS, PL_QF_COUNT, A_NONE, l_wide, "the width of the rows padded twice as wide"),
    R("loss.real_terms", PL_R_LOSS, PL_QF_COUNT, A_NONE, l_real, "targets that count with ignore_index"),
    R("loss.fake_terms", PL_R_LOSS, PL_QF_COUNT, A_NONE, l_fake, "pad targets that join the loss without ignore_index"),
    R("loss.with_pads", PL_R_LOSS, PL_QF_VALUE, A_NONE, l_pads, "the per-token loss with the pads in it"),
    R("loss.pad_perfect", PL_R_LOSS, PL_QF_VALUE, A_NONE, l_perfect,
      "the per-token loss with the pads in it, for a model that has learned a pad follows a pad (it still pays for the first pad after a review)"),
    R("loss.grad_per_token", PL_R_LOSS, PL_QF_VALUE, A_NONE, l_g_token, "|d loss / d logits| per token"),
    R("loss.grad_per_sequence", PL_R_LOSS, PL_QF_VALUE, A_NONE, l_g_seq, "|d loss / d logits| per sequence"),
    R("loss.grad_batch_t", PL_R_LOSS, PL_QF_VALUE, A_NONE, l_g_bt, "|d loss / d logits| over batch x T"),
    R("loss.rows", PL_R_LOSS, PL_QF_COUNT, A_NONE, l_rows, "the rows the loss reads"),
    R("loss.width", PL_R_LOSS, PL_QF_COUNT, A_NONE, l_width, "the width of the rows the loss reads"),
    R("loss.shortest_targets", PL_R_LOSS, PL_QF_COUNT, A_NONE, l_short, "the fewest targets one row has"),
    R("loss.longest_targets", PL_R_LOSS, PL_QF_COUNT, A_NONE, l_long, "the largest count of targets one row has"),
    R("loss.shortest_share", PL_R_LOSS, PL_QF_SHARE, A_NONE, l_short_share,
      "the share of a per-token loss's weight on the shortest row"),
    R("loss.pad_target_share", PL_R_LOSS, PL_QF_SHARE, A_NONE, l_fake_share,
      "the share of the targets that are pads without ignore_index"),
    R("loss.chat_rows", PL_R_LOSS, PL_QF_COUNT, A_NONE, l_chat_rows,
      "the chat batch's rows (the loss's rows as chats)"),
    R("loss.chat_width", PL_R_LOSS, PL_QF_COUNT, A_NONE, l_chat_width, "the chat batch's width: the longest chat"),
    R("loss.chat_system", PL_R_LOSS, PL_QF_COUNT, A_NONE, l_chat_system, "the system prompt's words"),
    R("loss.chat_real", PL_R_LOSS, PL_QF_COUNT, A_NONE, l_chat_real, "the chat batch's real tokens"),
    R("loss.chat_prompt_tokens", PL_R_LOSS, PL_QF_COUNT, A_NONE, l_chat_prompt,
      "the chat batch's prompt tokens: labels -100 under a completion-only loss"),
    R("loss.completion_tokens", PL_R_LOSS, PL_QF_COUNT, A_NONE, l_done_tokens,
      "the answer tokens: the labels a completion-only loss trains on"),
    R("loss.completion_share", PL_R_LOSS, PL_QF_SHARE, A_NONE, l_done_share,
      "the share of the chat batch's real tokens trained on"),
    R("loss.completion_cell_share", PL_R_LOSS, PL_QF_SHARE, A_NONE, l_done_cells,
      "the share of the chat batch's cells, pads included, trained on"),
    R("loss.prompt_terms", PL_R_LOSS, PL_QF_COUNT, A_NONE, l_prompt_terms,
      "the terms a plain LM collator counts: each real token but a row's first"),
    R("loss.completion_loss", PL_R_LOSS, PL_QF_VALUE, A_NONE, l_done_loss,
      "the per-token loss over the answer tokens, the prompt at -100"),
    R("loss.prompt_included_loss", PL_R_LOSS, PL_QF_VALUE, A_NONE, l_prompt_loss,
      "the per-token loss with the prompt's tokens counted too"),
    R("loss.prompt_gap", PL_R_LOSS, PL_QF_VALUE, A_NONE, l_prompt_gap,
      "the prompt-included loss minus the completion-only one"),
    R("layers.leak(LAYER)", PL_R_LAYERS, PL_QF_VALUE, A_LAYER, layer_leak,
      "how far a change at the pads reaches, e.g. (conv1d), (lstm off)"),
    R("layers.pads", PL_R_LAYERS, PL_QF_COUNT, A_NONE, y_pads, "the pad cells perturbed"),
    R("generate.right_last_column_pads", PL_R_GENERATE, PL_QF_COUNT, A_NONE, g_right,
      "prompts whose last column is a pad, right-padded"),
    R("generate.left_last_column_pads", PL_R_GENERATE, PL_QF_COUNT, A_NONE, g_left,
      "prompts whose last column is a pad, left-padded"),
    R("generate.left_corrected", PL_R_GENERATE, PL_QF_VALUE, A_NONE, g_corrected,
      "left padding with corrected positions against each prompt alone"),
    R("generate.left_naive", PL_R_GENERATE, PL_QF_VALUE, A_NONE, g_naive,
      "left padding with positions 0..T-1 against each prompt alone"),
    R("generate.right_last_real", PL_R_GENERATE, PL_QF_VALUE, A_NONE, g_right_real,
      "right padding read at the last real token"),
    R("generate.right_last_column", PL_R_GENERATE, PL_QF_VALUE, A_NONE, g_right_last,
      "right padding read at the last column"),
    R("generate.prompts", PL_R_GENERATE, PL_QF_COUNT, A_NONE, g_prompts, "the prompts"),
    R("packing.documents", PL_R_PACKING, PL_QF_COUNT, A_NONE, k_docs, "the documents packed in one row"),
    R("packing.tokens", PL_R_PACKING, PL_QF_COUNT, A_NONE, k_tokens, "the row's tokens: the cells packing takes"),
    R("packing.read_back", PL_R_PACKING, PL_QF_COUNT, A_NONE, k_read,
      "documents read back from the position ids (where they are 0)"),
    R("packing.counted_read_back", PL_R_PACKING, PL_QF_COUNT, A_NONE, k_counted_read,
      "documents read back from position ids counted along the row: one"),
    R("packing.longest", PL_R_PACKING, PL_QF_COUNT, A_NONE, k_longest, "the longest document's tokens"),
    R("packing.dynamic_cells", PL_R_PACKING, PL_QF_COUNT, A_NONE, k_dyn,
      "cells the packed documents take padded to the longest"),
    R("packing.static_cells", PL_R_PACKING, PL_QF_COUNT, A_NONE, k_static,
      "cells the packed documents take padded to maxlen"),
    R("packing.dynamic_saved", PL_R_PACKING, PL_QF_COUNT, A_NONE, k_dyn_saved,
      "pad cells packing saves against dynamic padding"),
    R("packing.static_saved", PL_R_PACKING, PL_QF_COUNT, A_NONE, k_static_saved,
      "pad cells packing saves against static padding"),
    R("packing.dynamic_saved_share", PL_R_PACKING, PL_QF_SHARE, A_NONE, k_dyn_share,
      "the pad cells packing saves, as a share of the dynamic batch's cells"),
    R("packing.static_saved_share", PL_R_PACKING, PL_QF_SHARE, A_NONE, k_static_share,
      "the pad cells packing saves, as a share of the static batch's cells"),
    R("packing.document_mask", PL_R_PACKING, PL_QF_VALUE, A_NONE, k_aware,
      "the packed row with the document mask against each document alone: rounding"),
    R("packing.causal_mask", PL_R_PACKING, PL_QF_VALUE, A_NONE, k_causal,
      "the packed row with a plain causal mask over the whole row against each document alone"),
    R("packing.cross_share", PL_R_PACKING, PL_QF_SHARE, A_NONE, k_cross,
      "under a plain causal mask, the share of the packed row's attention on earlier documents' keys"),
    R("packing.counted_positions", PL_R_PACKING, PL_QF_VALUE, A_NONE, k_counted,
      "the document mask with position ids counted along the row"),
    R("packing.loss_terms", PL_R_PACKING, PL_QF_COUNT, A_NONE, k_terms,
      "the row's loss terms with -100 at each document's first token"),
    R("packing.unmasked_terms", PL_R_PACKING, PL_QF_COUNT, A_NONE, k_unmasked,
      "the packed row's loss terms without the -100s"),
    R("packing.boundary_terms", PL_R_PACKING, PL_QF_COUNT, A_NONE, k_boundary,
      "loss terms that predict a document's first token from the previous document's last"),
    R("packing.boundary_share", PL_R_PACKING, PL_QF_SHARE, A_NONE, k_boundary_share,
      "those boundary terms' share of the packed row's terms without the -100s"),
    R("masks.share_right", PL_R_MASKS, PL_QF_SHARE, A_NONE, m_right,
      "attention on pads with the right key_padding_mask"),
    R("masks.share_none", PL_R_MASKS, PL_QF_SHARE, A_NONE, m_none, "attention on pads with no mask"),
    R("masks.share_inverted", PL_R_MASKS, PL_QF_SHARE, A_NONE, m_inverted,
      "attention on pads with the hf mask given as key_padding_mask"),
    R("masks.blind_rows", PL_R_MASKS, PL_QF_COUNT, A_NONE, m_blind, "rows the inverted mask leaves seeing no key"),
    R("masks.padded_rows", PL_R_MASKS, PL_QF_COUNT, A_NONE, m_padded, "rows with a pad"),
    R("masks.keep(CONV)", PL_R_MASKS, PL_QF_COUNT, A_CONV, m_keep, "cells a convention keeps, read its own way"),
    R("masks.real_tokens", PL_R_MASKS, PL_QF_COUNT, A_NONE, m_real, "the rows' real tokens"),
    R("kvcache.prompts", PL_R_KVCACHE, PL_QF_COUNT, A_NONE, kv_prompts, "the prompts decoded together"),
    R("kvcache.steps", PL_R_KVCACHE, PL_QF_COUNT, A_NONE, kv_steps, "the tokens decoded after each prompt"),
    R("kvcache.slots", PL_R_KVCACHE, PL_QF_COUNT, A_NONE, kv_slots, "the cache's slots over every row after the steps"),
    R("kvcache.pad_slots", PL_R_KVCACHE, PL_QF_COUNT, A_NONE, kv_pad_slots,
      "slots of the cache holding a pad's key and value"),
    R("kvcache.pad_share", PL_R_KVCACHE, PL_QF_SHARE, A_NONE, kv_pad_share,
      "the share of the cache's slots that hold pads"),
    R("kvcache.pad_bytes", PL_R_KVCACHE, PL_QF_COUNT, A_NONE, kv_pad_bytes, "bytes of the cache holding pads"),
    R("kvcache.slot_bytes", PL_R_KVCACHE, PL_QF_COUNT, A_NONE, kv_slot_bytes, "bytes of keys and values in one slot"),
    R("kvcache.first_step_pad_share", PL_R_KVCACHE, PL_QF_SHARE, A_NONE, kv_first_pad_share,
      "the share of the first step's attention scores spent on pad slots"),
    R("kvcache.last_step_pad_share", PL_R_KVCACHE, PL_QF_SHARE, A_NONE, kv_last_pad_share,
      "the share of the last step's attention scores spent on pad slots"),
    R("kvcache.static_len", PL_R_KVCACHE, PL_QF_COUNT, A_NONE, kv_static_len, "a static cache's slots per row"),
    R("kvcache.static_pad_slots", PL_R_KVCACHE, PL_QF_COUNT, A_NONE, kv_static_pad,
      "a static cache's slots holding no real token after the steps"),
    R("kvcache.static_unreached", PL_R_KVCACHE, PL_QF_COUNT, A_NONE, kv_static_unreached,
      "a static cache's slots not reached yet after the steps, over every row"),
    R("kvcache.static_pad_share", PL_R_KVCACHE, PL_QF_SHARE, A_NONE, kv_static_share,
      "the share of the static cache's slots holding no real token"),
    R("kvcache.recompute", PL_R_KVCACHE, PL_QF_VALUE, A_NONE, kv_recompute,
      "cached decoding against recomputing the whole sequence (largest difference)"),
    R("kvcache.reads", PL_R_KVCACHE, PL_QF_COUNT, A_NONE, kv_reads, "the tokens picked over every row"),
    R("kvcache.left", PL_R_KVCACHE, PL_QF_VALUE, A_NONE, kv_left,
      "left padding, mask, positions from the mask, against each prompt alone (largest difference)"),
    R("kvcache.left_tokens", PL_R_KVCACHE, PL_QF_COUNT, A_NONE, kv_left_tok,
      "tokens left padding with positions from the mask picks that differ from each prompt alone"),
    R("kvcache.slot_positions", PL_R_KVCACHE, PL_QF_VALUE, A_NONE, kv_slots_pos,
      "left padding, positions counted by slot, against each prompt alone"),
    R("kvcache.slot_positions_tokens", PL_R_KVCACHE, PL_QF_COUNT, A_NONE, kv_slots_pos_tok,
      "tokens left padding with positions counted by slot picks that differ from alone"),
    R("kvcache.no_mask", PL_R_KVCACHE, PL_QF_VALUE, A_NONE, kv_no_mask,
      "left padding with no mask, against each prompt alone"),
    R("kvcache.no_mask_tokens", PL_R_KVCACHE, PL_QF_COUNT, A_NONE, kv_no_mask_tok,
      "tokens left padding with no mask picks that differ from alone"),
    R("kvcache.right", PL_R_KVCACHE, PL_QF_VALUE, A_NONE, kv_right,
      "right padding, mask, positions from the mask, against each prompt alone"),
    R("kvcache.right_tokens", PL_R_KVCACHE, PL_QF_COUNT, A_NONE, kv_right_tok,
      "tokens right padding picks that differ from alone"),
    R("identity.masked", PL_R_IDENTITY, PL_QF_VALUE, A_NONE, i_masked,
      "pre vs post padding with the mask: the largest logit difference"),
    R("identity.unmasked", PL_R_IDENTITY, PL_QF_VALUE, A_NONE, i_unmasked,
      "pre vs post padding without the mask: the largest logit difference"),
    R("identity.mask_effect", PL_R_IDENTITY, PL_QF_VALUE, A_NONE, i_effect,
      "the masked run's logits against the unmasked run's: the largest difference"),
    R("identity.width", PL_R_IDENTITY, PL_QF_COUNT, A_NONE, i_width, "the width the identity's rows are padded to"),
    R("identity.pads", PL_R_IDENTITY, PL_QF_COUNT, A_NONE, i_pads, "the pad cells of the identity's batch"),
    R("identity.real", PL_R_IDENTITY, PL_QF_COUNT, A_NONE, i_real,
      "the example's real tokens in the identity's first row"),
    R("blocks.block", PL_R_BLOCKS, PL_QF_COUNT, A_NONE, k_block, "the side of a tile of the blocks probe"),
    R("blocks.padded_width", PL_R_BLOCKS, PL_QF_COUNT, A_NONE, k_padded,
      "the batch's width rounded up to a multiple of the block"),
    R("blocks.per_side", PL_R_BLOCKS, PL_QF_COUNT, A_NONE, k_side, "tiles per side of a row's T x T scores"),
    R("blocks.tiles", PL_R_BLOCKS, PL_QF_COUNT, A_NONE, k_tiles, "tiles of the batch: rows x per side squared"),
    R("blocks.window", PL_R_BLOCKS, PL_QF_COUNT, A_NONE, k_window, "the sliding window's width"),
    R("blocks.dense_bool_bytes", PL_R_BLOCKS, PL_QF_COUNT, A_NONE, k_bool, "bytes of a dense (B,1,T,T) bool mask"),
    R("blocks.dense_float_bytes", PL_R_BLOCKS, PL_QF_COUNT, A_NONE, k_float,
      "bytes of a dense (B,1,T,T) float32 additive bias"),
    R("blocks.block_mask_forward_bytes", PL_R_BLOCKS, PL_QF_COUNT, A_NONE, k_forward,
      "bytes of a BlockMask's kv_* and full_kv_* tensors, what the forward pass reads"),
    R("blocks.block_mask_bytes", PL_R_BLOCKS, PL_QF_COUNT, A_NONE, k_all,
      "bytes of all eight BlockMask tensors, with the q_* pairs for the backward pass"),
    R("blocks.empty(RULE)", PL_R_BLOCKS, PL_QF_COUNT, A_RULE, k_empty,
      "tiles of the batch a rule keeps no cell of: skipped whole, e.g. (causal+padding)"),
    R("blocks.partial(RULE)", PL_R_BLOCKS, PL_QF_COUNT, A_RULE, k_partial,
      "tiles a rule computes with the rule applied inside"),
    R("blocks.full(RULE)", PL_R_BLOCKS, PL_QF_COUNT, A_RULE, k_full, "tiles a rule computes whole, with no mask"),
    R("blocks.example_empty(RULE)", PL_R_BLOCKS, PL_QF_COUNT, A_RULE, k_ex_empty, "the example row's empty tiles"),
    R("blocks.example_partial(RULE)", PL_R_BLOCKS, PL_QF_COUNT, A_RULE, k_ex_partial,
      "the example row's partial tiles"),
    R("blocks.example_full(RULE)", PL_R_BLOCKS, PL_QF_COUNT, A_RULE, k_ex_full, "the example row's full tiles"),
    R("blocks.kept_share(RULE)", PL_R_BLOCKS, PL_QF_SHARE, A_RULE, k_kept,
      "the share of the dense B x T x T cells the rule keeps"),
    R("blocks.computed_share(RULE)", PL_R_BLOCKS, PL_QF_SHARE, A_RULE, k_computed,
      "the score cells a block-sparse kernel computes, as a share of B x T x T (over 1 when T is short of a tile)"),
    R("train.median", SRC_TRAIN, PL_QF_SHARE, A_NONE, t_median,
      "the median best accuracy over the seeds of the current settings"),
    R("train.min", SRC_TRAIN, PL_QF_SHARE, A_NONE, t_min, "the lowest best accuracy over the seeds"),
    R("train.max", SRC_TRAIN, PL_QF_SHARE, A_NONE, t_max, "the highest best accuracy over the seeds"),
    R("train.spread", SRC_TRAIN, PL_QF_SHARE, A_NONE, t_spread, "the highest seed's best accuracy minus the lowest's"),
    R("train.seeds", SRC_TRAIN, PL_QF_COUNT, A_NONE, t_seeds, "the seeds of the current settings that ran"),
    R("train.memorised", SRC_TRAIN, PL_QF_COUNT, A_NONE, t_memorised, "the seeds that memorised"),
    R("train.at_chance", SRC_TRAIN, PL_QF_COUNT, A_NONE, t_at_chance, "the seeds at (or under) chance"),
    R("train.over_chance", SRC_TRAIN, PL_QF_SHARE, A_NONE, t_over_chance,
      "the median best accuracy minus chance (corpus.majority)"),
    R("grid.median(CELL)", SRC_GRID, PL_QF_SHARE, A_CELL, t_median,
      "a grid cell's median: (pre off), (pre on), (post off), (post on)"),
    R("grid.min(CELL)", SRC_GRID, PL_QF_SHARE, A_CELL, t_min, "a grid cell's lowest seed"),
    R("grid.max(CELL)", SRC_GRID, PL_QF_SHARE, A_CELL, t_max, "a grid cell's highest seed"),
    R("grid.spread(CELL)", SRC_GRID, PL_QF_SHARE, A_CELL, t_spread, "a grid cell's highest seed minus its lowest"),
    R("grid.seeds(CELL)", SRC_GRID, PL_QF_COUNT, A_CELL, t_seeds, "a grid cell's seeds that ran"),
    R("grid.memorised(CELL)", SRC_GRID, PL_QF_COUNT, A_CELL, t_memorised, "a grid cell's memorised seeds"),
    R("grid.at_chance(CELL)", SRC_GRID, PL_QF_COUNT, A_CELL, t_at_chance, "a grid cell's seeds at (or under) chance"),
    R("grid.over_chance(CELL)", SRC_GRID, PL_QF_SHARE, A_CELL, t_over_chance, "a grid cell's median minus chance"),
    R("grid.drift", SRC_DRIFT, PL_QF_SHARE, A_NONE, grid_drift,
      "pre+mask against post+mask on one seed: the largest accuracy gap over the epochs and seeds"),
    R("half(VALUE)", SRC_HALF, PL_QF_COUNT, A_NUMBER, NULL,
      "VALUE rounded to float16, as a half-precision tensor would hold it: half(-1e9) is -inf"),
};
#define NDEFS ((int)(sizeof defs / sizeof defs[0]))
#define SETTING_DEF(id) (NDEFS + (id)) /* settings come after the table */

/* What gives a quantity away: the figures a surface shows that determine
 * it, beside what a question's own text states (its complement, the same
 * figure as a share or as a count, the sentence that follows it). An open
 * question hides these with its quantity (ledger.h); nothing else is hidden.
 * "NAME(*)" is NAME with any argument. */
/* Every tile count of rule r, over the batch and in the example's row. */
#define BLOCKS_RULE(r)                                                                           \
    "blocks.empty(" r ") blocks.partial(" r ") blocks.full(" r ") blocks.computed_share(" r ") " \
    "blocks.example_empty(" r ") blocks.example_partial(" r ") blocks.example_full(" r ")"

static const struct {
    const char *q, *by;
} determiners[] = {
    /* under the padding rule every query keeps the real keys of its row:
     * the masks view's kept share of the score cells is the real share */
    {"batch.pad_cells", "batch.real_tokens batch.pad_share blocks.kept_share(padding)"},
    {"batch.pad_share", "batch.pad_cells batch.real_tokens blocks.kept_share(padding)"},
    {"batch.real_tokens", "batch.pad_cells batch.pad_share blocks.kept_share(padding)"},
    /* the rnn and masks views pad the same review to the same width; every
     * close-up, the prompts' first, is the example: its real tokens too */
#define EXAMPLE_KEPT                                                                                      \
    "rnn.real attention.real pooling.real masks.example_kept generate.example_kept kvcache.example_kept " \
    "loss.example_targets identity.real"
#define EXAMPLE_PADS "rnn.pads masks.example_pads generate.example_pads kvcache.example_pads"
    {"batch.example_pads", "batch.example_kept " EXAMPLE_PADS " " EXAMPLE_KEPT},
    {"batch.example_kept", "batch.example_pads " EXAMPLE_KEPT},
    /* Over the corpus, the cells and the total tokens are on show, so the
     * real tokens, the pads (RNN steps on pads), the padding share, the
     * tokens kept and cut, and their shares each give every other by one
     * subtraction or product: one question hides the whole group. Packed
     * rows hold no pad (their cells are the real tokens); every strategy
     * keeps the same tokens, so any row's padding share and cells give them. */
/* ... and the pooling view's mean weight on real tokens is the corpus's kept
 * tokens over its reviews times maxlen, all on show */
#define COST_GROUP                                                                                        \
    "cost.rnn_wasted cost.real_tokens cost.padding_share cost.kept_share cost.cut_share cost.tokens_cut " \
    "cost.tokens_cut(*) cost.padding_share(*) cost.cells(packed) cost.cells_saved(packed) pooling.mean_weight"
    {"cost.rnn_wasted", COST_GROUP},
    {"cost.real_tokens", COST_GROUP},
    {"cost.padding_share", COST_GROUP},
    {"cost.kept_share", COST_GROUP},
    {"cost.cut_share", COST_GROUP},
    {"cost.tokens_cut", COST_GROUP},
    /* a real query's weight off the pads is what zeroing them leaves a row
     * (the wrong fix's sum), and the masks view measures the same share with
     * no mask; with the right mask it measures 0 on pads */
    /* ... and the largest weight on one pad key, times the pad keys, bounds it (untrained, nearly gives it) */
    {"attention.pad_share",
     "attention.leak_total attention.uneven attention.wrong_fix_sum masks.share_none attention.pad_weight_max"},
    {"attention.wrong_fix_sum", "attention.pad_share masks.share_none"},
    /* no weight at all on pads says the largest is 0 */
    {"attention.pad_weight_max", "attention.pad_share attention.leak_total masks.share_right"},
    {"attention.leak_total", "attention.pad_share attention.uneven"},
    /* with the mask the readout is the carried state, and a carried state
     * keeps its |h|: the readout's distance and the two norms give it */
    {"rnn.carry_distance", "rnn.final_distance rnn.carry_norm rnn.last_real_norm"},
    /* the unmasked mean lies on the segment from e0 to the masked mean: its
     * distance from the masked mean is the rest of that segment */
    {"pooling.pad_distance", "pooling.unmasked_distance"},
    /* the smallest weight over the corpus is the example's when the example
     * is the shortest review, and a bound on it always; fresh attention
     * weighs every key alike, so the share its real queries put on pads,
     * unmasked, is one less the example's real share (nearly: it gives it) */
    {"pooling.example_weight", "pooling.min_weight attention.pad_share masks.share_none attention.leak_total "
                               "attention.uneven attention.wrong_fix_sum attention.pad_weight_max"},
    {"rnn.pads", "batch.example_pads batch.example_kept " EXAMPLE_PADS " " EXAMPLE_KEPT},
    {"rnn.real", "rnn.pads"},
/* the loss's batch is the example and its mates, the rows the layers,
 * masks and cache views pad too: their pad cells (and the masks'
 * kept cells, the rest of them) are the fake targets' count */
#define LOSS_PAD_ROWS                                                                                               \
    "layers.pads kvcache.pad_slots kvcache.static_pad_slots masks.keep(*) masks.real_tokens attention.real_tokens " \
    "identity.pads kvcache.pad_share kvcache.static_pad_share kvcache.first_step_pad_share kvcache.last_step_pad_share"
    {"loss.pad_target_share", "loss.fake_terms " LOSS_PAD_ROWS},
    {"loss.fake_terms", "loss.pad_target_share " LOSS_PAD_ROWS},
    /* the answer tokens, their share of the real tokens and of the cells,
     * and the prompt's tokens each give the others with the chat batch's
     * real tokens and cells on show */
    {"loss.completion_tokens", "loss.completion_share loss.completion_cell_share loss.chat_prompt_tokens"},
    {"loss.completion_share", "loss.completion_tokens loss.completion_cell_share loss.chat_prompt_tokens"},
    {"loss.completion_cell_share", "loss.completion_tokens loss.completion_share loss.chat_prompt_tokens"},
    {"loss.chat_prompt_tokens", "loss.completion_tokens loss.completion_share loss.completion_cell_share"},
    /* the gap is one loss minus the other */
    {"loss.prompt_gap", "loss.completion_loss loss.prompt_included_loss"},
    {"loss.completion_loss", "loss.prompt_gap"},
    {"loss.prompt_included_loss", "loss.prompt_gap"},
    /* the cache's pad slots are the same count as a share, in bytes, and as
     * the pad scores of a step (one per pad slot, per head) */
    /* ... and the batch the cache is built from pads the same rows: its pad
     * cells in the layers and loss views, the corpus's RNN steps on pads
     * when the corpus is those prompts; and those rows' real tokens (the
     * loss's real targets are one fewer a row), with the cache's rows and
     * width on show; the loss over batch x T is the per-token loss times
     * the real targets over the B x T cells on show (its gradient, and the
     * rows padded wider, alike): the real targets by a division */
    {"kvcache.pad_slots",
     "kvcache.pad_share kvcache.pad_bytes kvcache.first_step_pad_share kvcache.last_step_pad_share layers.pads "
     "loss.fake_terms cost.rnn_wasted loss.real_terms masks.real_tokens attention.real_tokens identity.pads "
     "loss.batch_t loss.batch_t_wide loss.grad_batch_t"},
    {"kvcache.pad_share",
     "kvcache.pad_slots kvcache.pad_bytes kvcache.first_step_pad_share kvcache.last_step_pad_share"},
    {"kvcache.static_pad_slots", "kvcache.static_pad_share"},
    /* no logit differs exactly when no token can */
    {"kvcache.left_tokens", "kvcache.left"},
    {"kvcache.left", "kvcache.left_tokens"},
    {"kvcache.static_pad_share", "kvcache.static_pad_slots"},
    /* the packed row's loss terms: the shifted predictions less the
     * boundaries' -100s; the boundary terms are the same count as a share */
    {"packing.loss_terms", "packing.unmasked_terms packing.boundary_terms packing.boundary_share"},
    {"packing.boundary_terms", "packing.loss_terms packing.unmasked_terms packing.boundary_share"},
    {"packing.boundary_share", "packing.loss_terms packing.unmasked_terms packing.boundary_terms"},
    /* the pads packing saves against dynamic padding: that batch's cells less
     * the row's tokens, and the same count as a share of those cells */
    {"packing.dynamic_saved", "packing.dynamic_cells packing.dynamic_saved_share"},
    {"packing.dynamic_saved_share", "packing.dynamic_cells packing.dynamic_saved"},
    /* A rule's tiles are empty, partial or full, and the tiles are on show:
     * two of the three give the third, and the computed share is the partial
     * and full ones' cells. In a padded batch the causal rule gives every row
     * the example row's tiles, and a document is a row, so causal+document
     * is causal tile for tile. */
    {"blocks.empty(causal)", BLOCKS_RULE("causal") " " BLOCKS_RULE("causal+document")},
    {"blocks.empty(*)", "blocks.partial($) blocks.full($) blocks.computed_share($) blocks.example_empty($) "
                        "blocks.example_partial($) blocks.example_full($)"},
    {"blocks.partial(*)", "blocks.empty($) blocks.full($) blocks.computed_share($)"},
    {"blocks.full(*)", "blocks.empty($) blocks.partial($)"},
    {"blocks.computed_share(*)", "blocks.empty($) blocks.partial($) blocks.full($)"},
    /* the block mask's forward pairs are half of all eight tensors */
    {"blocks.block_mask_forward_bytes", "blocks.block_mask_bytes"},
    {"blocks.block_mask_bytes", "blocks.block_mask_forward_bytes"},
    /* what a strategy saves against static is one minus its cells over
     * static's: its own cells (or its padding share with the real tokens,
     * which every strategy keeps alike) give it; $ is the strategy asked */
    /* a spread is its highest seed minus its lowest */
    {"train.spread", "train.min train.max"},
    {"grid.spread(*)", "grid.min($) grid.max($)"},
    /* the largest gap between the masked cells' twin runs: their seeds' own accuracies */
    {"grid.drift", "grid.runs(pre on) grid.runs(post on)"},
    /* a strategy saves cells exactly when its batches are narrower than
     * static's: its attention cells (and their saving) and its count of
     * shapes say whether they are ("200M (same)", "shapes 2") */
    {"cost.cells_saved(*)",
     "cost.cells($) cost.padding_share($) cost.attention_cells($) cost.attention_saved($) cost.shapes($)"},
    {"cost.attention_saved(*)", "cost.attention_cells($)"},
    /* every head scores the same padded cells: the heads times one head's */
    {"attention.score_cells", "attention.padded_cells"},
    /* the gradient scales as the loss does: batch x T's over per token's is
     * the loss's ratio, per token's loss on show */
    {"loss.batch_t", "loss.grad_batch_t"},
    /* the dense mask of the masks view is the same (B,1,T,T), in bool and
     * float32: its cells (a bool each), which a padded batch's document rule
     * keeps every one of */
    {"batch.mask_bytes", "blocks.dense_bool_bytes blocks.dense_float_bytes blocks.kept_cells(document)"},
    /* the readout's |h| against the last real state's: equal where the readout is that state */
    {"rnn.final_distance", "rnn.last_position_norm rnn.last_real_norm"},
};

/* The row for name: its own, else NAME(*)'s, with *arg set to the
 * argument ("" when none). */
static const char *determiners_of(const char *name, char *arg, size_t cap) {
    arg[0] = '\0';
    for (size_t i = 0; i < sizeof determiners / sizeof determiners[0]; i++)
        if (strcmp(determiners[i].q, name) == 0) return determiners[i].by;
    const char *open = strchr(name, '('), *close = strrchr(name, ')');
    if (!open || !close || close < open) return NULL;
    snprintf(arg, cap, "%.*s", (int)(close - open - 1), open + 1);
    for (size_t i = 0; i < sizeof determiners / sizeof determiners[0]; i++) {
        const char *q = determiners[i].q;
        size_t n = strlen(q);
        if (n > 3 && strcmp(q + n - 3, "(*)") == 0 && strncmp(q, name, n - 2) == 0 && name[n - 3] == '(')
            return determiners[i].by;
    }
    return NULL;
}

const char *pl_quantity_determiners(const char *name, char *buf, size_t cap) {
    char arg[PL_FIG_NAME];
    const char *by = determiners_of(name, arg, sizeof arg);
    if (!by || cap == 0) return NULL;
    size_t o = 0;
    for (const char *s = by; *s && o + 1 < cap; s++) /* $ stands for the argument asked */
        if (*s == '$') o += (size_t)snprintf(buf + o, cap - o, "%s", arg), o = o < cap ? o : cap - 1;
        else buf[o++] = *s;
    buf[o] = '\0';
    return buf;
}

void pl_quantity_hide(PlLedger *l, const char *name) { pl_quantity_hide_but(l, name, NULL, NULL); }

void pl_quantity_hide_but(PlLedger *l, const char *name, int (*given)(const char *name, void *ctx), void *ctx) {
    char by[512];
    pl_ledger_hide(l, name);
    for (const char *s = pl_quantity_determiners(name, by, sizeof by); s && *s;) {
        char one[PL_FIG_NAME];
        size_t k = 0; /* a name ends at a space outside its argument's parentheses ("grid.min(pre on)") */
        for (int depth = 0; s[k] && (depth || s[k] != ' '); k++) depth += s[k] == '(' ? 1 : s[k] == ')' ? -1 : 0;
        snprintf(one, sizeof one, "%.*s", (int)k, s);
        if (!given || !given(one, ctx)) pl_ledger_hide(l, one);
        s += k;
        while (*s == ' ') s++;
    }
}

int pl_quantity_count(void) { return NDEFS; }
const char *pl_quantity_pattern(int i) { return defs[i].name; }
const char *pl_quantity_help(int i) { return defs[i].help; }

/* ---- parsing ---- */

static const char *const cells[] = {"pre off", "pre on", "post off", "post on"};

static int parse_arg(ArgKind k, const char *a, int *index) {
    char *end;
    double v;
    PlBatching b;
    PlMaskConv c;
    switch (k) {
    case A_STRATEGY: return pl_batching_parse(a, &b) ? -1 : (*index = (int)b, 0);
    case A_KEEP:
        v = strtod(a, &end);
        *index = (int)lround(v * 20.0) - 1;
        return end != a && !*end && *index >= 0 && *index < PL_LAB_KEEP_STEPS && fabs(v * 20.0 - (*index + 1)) < 1e-6
                   ? 0
                   : -1;
    case A_SWEEP:
        v = strtod(a, &end);
        *index = (int)v / 25 - 1;
        return end != a && !*end && v == 25.0 * (*index + 1) && *index >= 0 && *index < PL_LAB_SWEEP ? 0 : -1;
    case A_CONV: return pl_mask_conv_parse(a, &c) ? -1 : (*index = (int)c, 0);
    case A_LAYER:
        for (int i = 0; i < N_LAYER_ROWS; i++) {
            char one[48];
            snprintf(one, sizeof one, "%s %s", layer_rows[i].name, layer_rows[i].mask);
            if (strcmp(a, one) == 0 || (strcmp(layer_rows[i].mask, "none") == 0 && strcmp(a, layer_rows[i].name) == 0))
                return *index = i, 0;
        }
        return -1;
    case A_CELL:
        for (int i = 0; i < 4; i++)
            if (strcmp(a, cells[i]) == 0) return *index = i, 0;
        return -1;
    case A_RULE: return (*index = pl_mask_rule_find(a)) < 0 ? -1 : 0;
    case A_NUMBER:
        v = strtod(a, &end);
        (void)v;
        return end != a && !*end ? (*index = 0, 0) : -1;
    default: return -1;
    }
}

static const char *arg_want(ArgKind k) {
    switch (k) {
    case A_STRATEGY: return "a batching strategy (static, dynamic, tf_bucket, ...)";
    case A_KEEP: return "a share from 0.05 to 1 in steps of 0.05";
    case A_SWEEP: return "a maxlen of 25, 50, ... 800";
    case A_CONV: return "keras, torch, hf or additive";
    case A_LAYER: return "a layer and, for those that take one, its mask (lstm off, dense, conv1d)";
    case A_CELL: return "pre off, pre on, post off or post on";
    case A_NUMBER: return "a number (-1e9, -65524)";
    case A_RULE: return "a mask rule: padding, causal, causal+padding, document, causal+document or sliding_window";
    default: return "no argument";
    }
}

int pl_quantity_parse(const char *text, PlQuantity *q, char *why, int cap) {
    memset(q, 0, sizeof *q);
    int id = pl_setting_find(text);
    if (id >= 0 && pl_settings[id].type != PL_ST_TEXT) return q->def = SETTING_DEF(id), 0;
    const char *open = strchr(text, '(');
    size_t base = open ? (size_t)(open - text) : strlen(text);
    for (int i = 0; i < NDEFS; i++) {
        const char *paren = strchr(defs[i].name, '(');
        size_t n = paren ? (size_t)(paren - defs[i].name) : strlen(defs[i].name);
        if (n != base || strncmp(defs[i].name, text, n) != 0 || (!open) != (defs[i].arg == A_NONE)) continue;
        q->def = i;
        if (!open) return 0;
        const char *close = strchr(open, ')');
        if (!close || close[1] || (size_t)(close - open - 1) >= sizeof q->arg)
            return snprintf(why, (size_t)cap, "'%.60s': the argument ends with ) and nothing after it", text), -1;
        memcpy(q->arg, open + 1, (size_t)(close - open - 1));
        if (parse_arg(defs[i].arg, q->arg, &q->arg_index) == 0) return 0;
        return snprintf(why, (size_t)cap, "'%.60s': the argument must be %s", text, arg_want(defs[i].arg)), -1;
    }
    return snprintf(why, (size_t)cap, "'%.60s' names no quantity (padlab lesson --quantities lists them)", text), -1;
}

int pl_quantity_reads_training(const PlQuantity *q) {
    if (q->def >= NDEFS) return 0;
    int src = defs[q->def].src;
    return src == SRC_TRAIN || src == SRC_GRID || src == SRC_DRIFT;
}

/* Quantities that do not move with every setting their result reads: the
 * same fact on a step whose other settings differ. */
static const struct {
    const char *name;
    unsigned ignores;
} ignoring[] = {
    /* zeroing the pads after an unmasked softmax: the lab's mask plays no part */
    {"attention.wrong_fix_sum", PL_S_BIT(PL_S_MASK)},
    /* varlen against the masked padded batch: the probe masks that run itself */
    {"attention.packed_vs_padded", PL_S_BIT(PL_S_MASK)},
    /* the right mask leaves 0 on pads, the inverted one 100% on them: by construction */
    {"masks.share_right", PL_QUANTITY_ANY_SETTINGS},
    {"masks.share_inverted", PL_QUANTITY_ANY_SETTINGS},
    /* the crossing is read off the sweep of static batches over maxlen */
    {"cost.crossing_maxlen", PL_S_BIT(PL_S_BATCHING) | PL_S_BIT(PL_S_MAXLEN)},
};

/* What the views call the close-up's width and real tokens (batch.close_up_width where a view has no name of its own),
 * the attention's score cells per head (its square) and the losses over B x T cells (over the loss per real target:
 * the real targets' share of the cells, (T - 1) / T for one row), the cache's slots (its width and the steps) and the
 * loss's chat made of the example (its tokens, three starts and the system prompt's words) */
#define CLOSE_UP_OF_PACKED                                                                                       \
    "batch.close_up_width batch.example_tokens rnn.width attention.width attention.short_width pooling.width "   \
    "loss.width loss.wide_width loss.real_terms layers.width masks.width masks.real_tokens masks.blind_queries " \
    "masks.keep(*) generate.width kvcache.width attention.padded_cells attention.packed_cells loss.batch_t "     \
    "loss.batch_t_wide loss.grad_batch_t kvcache.slots kvcache.static_pad_slots kvcache.static_pad_share "       \
    "loss.chat_width loss.chat_real loss.chat_prompt_tokens loss.prompt_terms loss.completion_tokens "           \
    "identity.width identity.real"

/* The close-up's pad counts, and its real tokens with its cells on show, in the views that draw it */
#define CLOSE_UP_PADS                                                                                    \
    "layers.pads loss.fake_terms loss.pad_target_share loss.real_terms masks.keep(*) masks.real_tokens " \
    "attention.real_tokens identity.pads"
/* ... and the cache's, whose prompts are padded to the longest of them: a dynamic batch's width */
#define CACHE_PADS \
    "kvcache.pad_slots kvcache.pad_share kvcache.pad_bytes kvcache.first_step_pad_share kvcache.last_step_pad_share"

/* A batch's pads, where its rows are the close-up's (a batch of 4 rows or
 * fewer) or the corpus's (a corpus of one batch). */
static const char *batch_aliases(const char *name, const PlLabSettings *s, int reviews, char *buf, size_t cap) {
    /* the cache pads its prompts to the longest: a dynamic batch's pads, the same cells (its real tokens
     * with its rows and width on show give them) */
    int cache = strcmp(name, "kvcache.pad_slots") == 0 && s->batching == PL_BATCH_DYNAMIC;
    if (!cache && strcmp(name, "batch.pad_cells") && strcmp(name, "batch.pad_share") &&
        strcmp(name, "batch.real_tokens"))
        return NULL;
    int one = reviews > 0 && reviews <= s->batch, /* the corpus is one batch */
        whole = s->batching != PL_BATCH_PACKED &&
                (s->batch <= PL_PROBE_FOCUS_ROWS || (one && reviews <= PL_PROBE_FOCUS_ROWS)); /* and the close-up */
    snprintf(buf, cap, "%s%s%s%s%s%s", whole ? CLOSE_UP_PADS : "", whole && s->batching == PL_BATCH_DYNAMIC ? " " : "",
             whole && s->batching == PL_BATCH_DYNAMIC ? CACHE_PADS : "", one ? " " : "", one ? COST_GROUP : "",
             cache && whole ? " batch.pad_cells batch.pad_share batch.real_tokens" : "");
    return whole || one ? buf : NULL;
}

const char *pl_quantity_aliases(const PlQuantity *q, const PlLabSettings *s, int reviews, char *buf, size_t cap) {
    static const char *const corpus_padding[] = {"cost.rnn_wasted", "cost.real_tokens", "cost.padding_share",
                                                 "cost.kept_share", "cost.cut_share",   "cost.tokens_cut"};
    char name[96];
    pl_quantity_name(q, name, sizeof name);
    if (cap == 0) return NULL;
    if (batch_aliases(name, s, reviews, buf, cap)) return buf;
    if (s->batching == PL_BATCH_PACKED && strcmp(name, "batch.example_kept") == 0) {
        /* packed, the close-up is the example alone: every view's width and real tokens are its tokens */
        snprintf(buf, cap, "%s", CLOSE_UP_OF_PACKED);
        return buf;
    }
    if (s->batching != PL_BATCH_STATIC || s->maxlen == PL_MAXLEN_NONE) return NULL;
    for (size_t i = 0; i < sizeof corpus_padding / sizeof corpus_padding[0]; i++)
        if (strcmp(name, corpus_padding[i]) == 0) {
            snprintf(buf, cap, "cost.static_padding_share(%d) cost.static_kept_share(%d)", s->maxlen, s->maxlen);
            return buf;
        }
    return NULL;
}

unsigned pl_quantity_ignores(const PlQuantity *q) {
    char name[96];
    pl_quantity_name(q, name, sizeof name);
    for (size_t i = 0; i < sizeof ignoring / sizeof ignoring[0]; i++)
        if (strcmp(ignoring[i].name, name) == 0) return ignoring[i].ignores;
    /* a strategy named in the argument is computed whatever batching the lab
     * has selected; the sweep over maxlen is of static batches at each maxlen */
    if (q->def < NDEFS && defs[q->def].arg == A_STRATEGY) return PL_S_BIT(PL_S_BATCHING);
    /* the batch's counts are the same whichever convention prints its mask */
    if (q->def < NDEFS && defs[q->def].src == PL_R_BATCH) return PL_S_BIT(PL_S_CONVENTION);
    if (q->def < NDEFS && defs[q->def].arg == A_SWEEP) return PL_S_BIT(PL_S_BATCHING) | PL_S_BIT(PL_S_MAXLEN);
    return 0;
}

unsigned pl_quantity_kinds(const PlQuantity *q) {
    return q->def < NDEFS && defs[q->def].src >= 0 ? 1u << defs[q->def].src : 0;
}

/* ---- values ---- */

static int train_group(PlLab *lab, const PlQuantity *q, PlLabGroup *g, char *why, int cap) {
    const Def *d = &defs[q->def];
    if (d->src == SRC_TRAIN) {
        if (pl_lab_group_of(lab, pl_lab_settings(lab), g)) return 0;
        return snprintf(why, (size_t)cap, "no run of these settings has finished yet"), -1;
    }
    PlLabGrid grid = pl_lab_grid(lab);
    if (!grid.done) return snprintf(why, (size_t)cap, "no padding x mask grid has finished yet"), -1;
    PlLabSettings s = grid.base;
    s.padding = q->arg_index >= 2 ? 1 : 0, s.mask = q->arg_index % 2;
    if (pl_lab_group_of(lab, &s, g)) return 0;
    return snprintf(why, (size_t)cap, "the grid has no %s runs", cells[q->arg_index]), -1;
}

int pl_quantity_value(PlLab *lab, const PlQuantity *q, double *v, char *why, int cap) {
    if (q->def >= NDEFS) return *v = pl_setting_get(pl_lab_settings(lab), (PlSettingId)(q->def - NDEFS)), 0;
    const Def *d = &defs[q->def];
    if (d->src == SRC_HALF) return *v = half_of(strtod(q->arg, NULL)), 0;
    if (d->src == SRC_DRIFT) {
        PlLabGrid grid = pl_lab_grid(lab);
        if (!grid.done) return snprintf(why, (size_t)cap, "no padding x mask grid has finished yet"), -1;
        *v = d->get(&grid, 0);
        return isnan(*v) ? (snprintf(why, (size_t)cap, "the grid has no seed with both pre+mask and post+mask"), -1)
                         : 0;
    }
    if (d->src == SRC_CHANCE) return *v = d->get(pl_lab_chance(lab), 0), 0;
    if (d->src < 0) {
        PlLabGroup g;
        if (train_group(lab, q, &g, why, cap)) return -1;
        return *v = d->get(&g, 0), 0;
    }
    PlResultStatus st;
    const void *r = pl_lab_result(lab, (PlResultKind)d->src, &st);
    if (!r || st.stale)
        return (st.error ? snprintf(why, (size_t)cap, "the %s view could not be computed: %s",
                                    pl_result_name((PlResultKind)d->src), st.error)
                         : snprintf(why, (size_t)cap, "the %s view has not computed it yet",
                                    pl_result_name((PlResultKind)d->src))),
               -1;
    *v = d->get(r, q->arg_index);
    if (isnan(*v)) return snprintf(why, (size_t)cap, "%s has no value here", d->name), -1;
    return 0;
}

int pl_quantity_value_in(const PlQuantity *q, const void *result, const PlLabSettings *s, double *v) {
    if (q->def >= NDEFS) return *v = pl_setting_get(s, (PlSettingId)(q->def - NDEFS)), 0;
    if (defs[q->def].src == SRC_HALF) return *v = half_of(strtod(q->arg, NULL)), 0;
    if (defs[q->def].src < 0 || !result) return -1;
    *v = defs[q->def].get(result, q->arg_index);
    return isnan(*v) ? -1 : 0;
}

PlQuantityFormat pl_quantity_kind_of_format(const PlQuantity *q) {
    return q->def >= NDEFS ? PL_QF_SETTING : defs[q->def].fmt;
}

const char *pl_quantity_name(const PlQuantity *q, char *buf, int cap) {
    if (q->def >= NDEFS) return snprintf(buf, (size_t)cap, "%s", pl_settings[q->def - NDEFS].name), buf;
    const char *paren = strchr(defs[q->def].name, '(');
    int n = paren ? (int)(paren - defs[q->def].name) : (int)strlen(defs[q->def].name);
    if (q->arg[0]) snprintf(buf, (size_t)cap, "%.*s(%s)", n, defs[q->def].name, q->arg);
    else snprintf(buf, (size_t)cap, "%s", defs[q->def].name);
    return buf;
}

const char *pl_quantity_help_of(const PlQuantity *q) {
    return q->def >= NDEFS ? pl_settings[q->def - NDEFS].help : defs[q->def].help;
}

const char *pl_quantity_format(const PlQuantity *q, double v, char *buf, int cap) {
    switch (pl_quantity_kind_of_format(q)) {
    case PL_QF_COUNT:
        snprintf(buf, (size_t)cap, q->def < NDEFS && defs[q->def].src == SRC_HALF ? "%.8g" : "%.0f", v);
        break;
    case PL_QF_SHARE: snprintf(buf, (size_t)cap, "%.1f%%", 100.0 * v); break;
    case PL_QF_SETTING: {
        PlLabSettings s = pl_settings_default();
        pl_setting_set(&s, (PlSettingId)(q->def - NDEFS), (int)v);
        pl_setting_format(&s, (PlSettingId)(q->def - NDEFS), buf, cap);
        break;
    }
    default: snprintf(buf, (size_t)cap, fabs(v) >= 1e-3 || v == 0.0 ? "%.4g" : "%.2e", v);
    }
    return buf;
}

/* ---- answers ---- */

int pl_tolerance_parse(const char *text, PlTolerance *t) {
    char *end;
    double v = strtod(text, &end);
    if (end == text || v < 0.0) return -1;
    while (*end == ' ') end++;
    if (*end == '%' && !end[1]) return t->kind = PL_TOL_RELATIVE, t->value = v / 100.0, 0;
    if (!*end || strcmp(end, "points") == 0) return t->kind = PL_TOL_ABSOLUTE, t->value = v, 0;
    return -1;
}

/* A typed share: 19.6, 19.6% and 0.196 all mean 19.6%. */
static double share_of(double typed, int percent_sign) { return percent_sign || typed > 1.0 ? typed / 100.0 : typed; }

/* answer with its thousands separators taken out into buf, when it has
 * them in groups of three ("320,000", "1,330.5"): a comma anywhere else
 * ("1,5", a decimal comma) is left, and the answer is not read. Returns
 * what to read. */
static const char *without_separators(const char *answer, char *buf, size_t cap) {
    const char *s = answer;
    if (!strchr(answer, ',') || strlen(answer) >= cap) return answer;
    if (*s == '-' || *s == '+') s++;
    size_t lead = strspn(s, "0123456789");
    if (lead < 1 || lead > 3) return answer;
    for (s += lead; *s == ','; s += 4)
        if (strspn(s + 1, "0123456789") < 3 || isdigit((unsigned char)s[4])) return answer;
    if (strchr(s, ',')) return answer;
    size_t n = 0;
    for (const char *p = answer; *p; p++)
        if (*p != ',') buf[n++] = *p;
    buf[n] = '\0';
    return buf;
}

int pl_quantity_read(const PlQuantity *q, const char *answer, double *a) {
    char *end, plain[64];
    answer = without_separators(answer, plain, sizeof plain);
    *a = strtod(answer, &end);
    if (end == answer || !isfinite(*a)) return -1;
    while (*end == ' ') end++;
    int pct = *end == '%';
    if (*end && !(pct && !end[1])) return -1;
    if (pct && pl_quantity_kind_of_format(q) != PL_QF_SHARE) return -1; /* 646% is no count */
    if (pl_quantity_kind_of_format(q) == PL_QF_SHARE) *a = share_of(*a, pct);
    return 0;
}

/* How far from v an answer may be and still count right. */
static double tolerance_of(const PlQuantity *q, double v, const PlTolerance *t) {
    PlQuantityFormat f = pl_quantity_kind_of_format(q);
    double tol = f == PL_QF_COUNT   ? 0.0
                 : f == PL_QF_SHARE ? 0.02
                                    : fmax(0.1 * fabs(v), 1e-6); /* a value shown as 3e-08 is answered 0 */
    if (t && t->kind == PL_TOL_ABSOLUTE) tol = f == PL_QF_SHARE ? t->value / 100.0 : t->value;
    if (t && t->kind == PL_TOL_RELATIVE) tol = t->value * fabs(v);
    return tol + 1e-12 * fabs(v);
}

void pl_quantity_band(const PlQuantity *q, double v, const PlTolerance *t, double *lo, double *hi) {
    double tol = tolerance_of(q, v, t);
    *lo = v - tol, *hi = v + tol;
    /* a share nearer its complement than itself is the other part, however wide the tolerance: the band stops
     * halfway between them (where the two lie far enough apart to be told apart) */
    if (pl_quantity_kind_of_format(q) != PL_QF_SHARE || fabs(1.0 - 2.0 * v) < PL_COMPLEMENT_APART) return;
    if (v < 0.5) *hi = fmin(*hi, 0.5);
    else *lo = fmax(*lo, 0.5);
}

int pl_quantity_same_answer(const PlQuantity *q, const PlTolerance *t, double a, double b) {
    double lo, hi;
    pl_quantity_band(q, a, t, &lo, &hi);
    return b >= lo && b <= hi;
}

int pl_quantity_check(const PlQuantity *q, double v, const char *answer, const PlTolerance *t) {
    PlQuantityFormat f = pl_quantity_kind_of_format(q);
    if (f == PL_QF_SETTING) {
        PlLabSettings s = pl_settings_default();
        char want[160];
        PlSettingId id = (PlSettingId)(q->def - NDEFS);
        if (pl_setting_parse(&s, id, answer, want, sizeof want)) return -1;
        return pl_setting_get(&s, id) == (int)v;
    }
    double a;
    if (pl_quantity_read(q, answer, &a)) return -1;
    return pl_quantity_same_answer(q, t, v, a); /* the band a class's tally shows as counted right */
}
