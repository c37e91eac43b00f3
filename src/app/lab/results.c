/* The results the lab's views draw, as a table of kinds: for each, the
 * settings it depends on, the trained models it reads, the function that
 * computes it and the one that frees it. pl_result_compute is the one way a
 * result is made, by the lab's worker and by the commands alike. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"
#include "lab.h"

/* What selects the batch: every close-up probe depends on these. */
#define BATCH_DEPS                                                                                        \
    (PL_S_BIT(PL_S_CORPUS) | PL_S_BIT(PL_S_PADDING) | PL_S_BIT(PL_S_TRUNCATING) | PL_S_BIT(PL_S_MAXLEN) | \
     PL_S_BIT(PL_S_BATCHING) | PL_S_BIT(PL_S_BATCH) | PL_S_BIT(PL_S_EXAMPLE))
#define SEEDED (BATCH_DEPS | PL_S_BIT(PL_S_SEED))

/* What a runner gets: the corpus (and its lengths), the settings, the
 * probe options they stand for (focused on the close-up rows, but for the
 * kinds that look at the whole batch or corpus), the knobs. */
typedef struct {
    const PlCorpus *c;
    const int *lens;
    const PlLabSettings *s;
    const PlResultParams *prm;
    const PlProbeOpts *o;
    const PlModel *m;
} Input;

typedef PlStatus (*RunFn)(const Input *in, void *out, PlErr *err);
typedef int (*FitFn)(const PlLabSettings *s, const PlModel *trained);

typedef struct {
    const char *name;
    PlLook look;   /* how much of the batch it looks at */
    unsigned deps; /* the settings it reads */
    FitFn fits;    /* which trained models it reads (NULL: none) */
    size_t size;   /* of its result */
    RunFn run;
    void (*free)(void *);
    const char *fresh, *lacks; /* its fresh weights, and what a model it does not read lacks */
} Kind;

/* ---- the runners ---- */

static PlStatus run_batch(const Input *in, void *out, PlErr *err) { return pl_probe_batch(in->c, in->o, out, err); }

static PlStatus run_attention(const Input *in, void *out, PlErr *err) {
    return pl_probe_attention(in->c, in->o, in->m, in->prm->heads, in->prm->dhead, in->s->causal, out, err);
}

static PlStatus run_rnn(const Input *in, void *out, PlErr *err) {
    PlArch cell = pl_arch_recurrent((PlArch)in->s->model) ? (PlArch)in->s->model : PL_ARCH_RNN;
    return pl_probe_rnn(in->c, in->o, in->m, cell, in->s->pad_embedding, out, err);
}

static PlStatus run_pooling(const Input *in, void *out, PlErr *err) {
    return pl_probe_pooling(in->c, in->o, in->m, out, err);
}

static PlStatus run_loss(const Input *in, void *out, PlErr *err) {
    return pl_probe_loss(in->c, in->o, in->m, out, err);
}

static PlStatus run_layers(const Input *in, void *out, PlErr *err) {
    return pl_probe_layers(in->c, in->o, in->m, out, err);
}

static PlStatus run_generate(const Input *in, void *out, PlErr *err) {
    return pl_probe_generate(in->c, in->o, out, err);
}

static PlStatus run_kvcache(const Input *in, void *out, PlErr *err) {
    return pl_probe_kvcache(in->c, in->o, in->prm->steps, in->prm->cache_len, out, err);
}

static PlStatus run_masks(const Input *in, void *out, PlErr *err) {
    return pl_probe_masks(in->c, in->o, in->m, out, err);
}

static PlStatus run_identity(const Input *in, void *out, PlErr *err) {
    return pl_probe_identity(in->c, in->o, (PlArch)in->s->model, in->m, out, err);
}

static PlStatus run_blocks(const Input *in, void *out, PlErr *err) {
    return pl_probe_blocks(in->c, in->o, in->prm->block, in->prm->window, out, err);
}
static PlStatus run_packing(const Input *in, void *out, PlErr *err) { return pl_probe_packing(in->c, in->o, out, err); }

/* The corpus's lengths, and for each share p = 5%, 10%, ... the smallest
 * maxlen whose rows keep at least p of the tokens. */
static PlStatus keep_table(const int *lens, int n, PlLabCost *k, PlErr *err) {
    PlStatus st = pl_length_summary(lens, n, &k->lengths, err);
    if (st) return st;
    int64_t total = 0, *at_least = calloc((size_t)k->lengths.max + 2, sizeof *at_least); /* rows of length >= M */
    if (!at_least) return pl_err_set(err, PL_ENOMEM, "out of memory for the cost view");
    for (int i = 0; i < n; i++) total += lens[i], at_least[lens[i]]++;
    for (int M = k->lengths.max - 1; M >= 1; M--) at_least[M] += at_least[M + 1];
    int64_t kept = 0; /* tokens kept by rows cut to M: sum of min(L, M) */
    for (int M = 1, step = 0; M <= k->lengths.max && step < PL_LAB_KEEP_STEPS; M++) {
        kept += at_least[M];
        while (step < PL_LAB_KEEP_STEPS && (double)kept >= 0.05 * (step + 1) * (double)total - 1e-9)
            k->keep_maxlen[step++] = M;
    }
    free(at_least);
    return PL_OK;
}

/* The smallest bin width of 1, 2, 5, 10, 20, 25, 50, 100, 200, 250, ... tokens that fits span in bins. */
static int nice_width(int span, int bins) {
    static const int steps[] = {10, 20, 25, 50};
    if (span <= 5 * bins) return span <= bins ? 1 : span <= 2 * bins ? 2 : 5;
    for (int64_t w = 1;; w *= 10)
        for (int i = 0; i < 4; i++)
            if (w * steps[i] * bins >= span) return (int)(w * steps[i]);
}

/* The lengths' histogram and the percentiles k->lengths lacks (sorted by
 * counting: lengths are small ints); k->lengths is already filled. */
static PlStatus length_figures(PlLabCost *k, const int *lens, int n, int maxlen, PlErr *err) {
    int *sorted = malloc((size_t)(n > 0 ? n : 1) * sizeof *sorted);
    if (!sorted) return pl_err_set(err, PL_ENOMEM, "out of memory for the cost view");
    int top = 0;
    for (int i = 0; i < n; i++) top = lens[i] > top ? lens[i] : top;
    int *count = calloc((size_t)top + 1, sizeof *count);
    if (!count) {
        free(sorted);
        return pl_err_set(err, PL_ENOMEM, "out of memory for the cost view");
    }
    for (int i = 0; i < n; i++) count[lens[i]]++;
    for (int v = 0, at = 0; v <= top; v++)
        for (int c = 0; c < count[v]; c++) sorted[at++] = v;
    free(count);
    k->len_p90 = n ? pl_percentile_sorted(sorted, n, 90.0) : 0.0;
    k->len_p99 = n ? pl_percentile_sorted(sorted, n, 99.0) : 0.0;
    free(sorted);
    int reach = (int)(k->len_p99 > maxlen ? k->len_p99 : maxlen) * 11 / 10 + 1;
    k->len_bin_width = nice_width(reach, PL_LAB_LEN_BINS);
    memset(k->len_hist, 0, sizeof k->len_hist);
    k->len_over_maxlen = 0;
    k->len_first_bucket = 0;
    int bounds[3];
    int first = pl_plan_quarter_bounds(maxlen, bounds) ? bounds[0] : 0;
    for (int i = 0; i < n; i++) {
        k->len_first_bucket += lens[i] < first;
        int b = lens[i] / k->len_bin_width;
        k->len_hist[b < PL_LAB_LEN_BINS ? b : PL_LAB_LEN_BINS - 1]++;
        k->len_over_maxlen += lens[i] > maxlen;
    }
    return PL_OK;
}

/* Where the sweep's padding share meets its share of tokens cut. */
static void crossing(PlLabCost *k) {
    k->cross_maxlen = -1.0, k->cross_share = -1.0;
    for (int i = 0; i + 1 < PL_LAB_SWEEP; i++) {
        double a = k->sweep_padding[i] - k->sweep_cut[i], b = k->sweep_padding[i + 1] - k->sweep_cut[i + 1];
        if (a > 0.0 || b < 0.0 || (a == 0.0 && b == 0.0)) continue;
        double f = a == b ? 0.0 : a / (a - b);
        k->cross_maxlen = k->sweep_maxlen[i] + f * (k->sweep_maxlen[i + 1] - k->sweep_maxlen[i]);
        k->cross_share = k->sweep_padding[i] + f * (k->sweep_padding[i + 1] - k->sweep_padding[i]);
        return;
    }
}

/* The cost view: the strategy table `padlab buckets` prints for these
 * settings, the selected strategy's row as the headline, and a sweep. */
static PlStatus run_cost(const Input *in, void *out, PlErr *err) {
    const PlLabSettings *s = in->s;
    PlLabCost *k = out;
    int n = in->c->n;
    PlCompareOpts co = {.batch_size = s->batch, .maxlen = s->maxlen};
    PlStatus st = pl_cost_compare(in->lens, n, &co, k->strategies, &k->nstrategies, err);
    if (st) return st;
    if ((st = keep_table(in->lens, n, k, err))) return st;
    const PlStrategyRow *row = &k->strategies[s->batching];
    k->cost = row->cost;
    k->padding_share = row->padding_share;
    k->kept_share = pl_cost_kept_share(&k->cost);
    k->truncated_share = pl_cost_truncated_share(&k->cost);
    k->tokens_cut = row->tokens_cut;
    k->sweep_at = 0;
    for (int i = 0; i < PL_LAB_SWEEP; i++) {
        PlMaxlenRow mr;
        k->sweep_maxlen[i] = 25 * (i + 1);
        pl_maxlen_row(in->lens, n, k->sweep_maxlen[i], &mr);
        k->sweep_padding[i] = mr.padding_share;
        k->sweep_kept[i] = mr.kept_share;
        k->sweep_cut[i] = 1.0 - mr.kept_share;
        if (abs(k->sweep_maxlen[i] - s->maxlen) < abs(k->sweep_maxlen[k->sweep_at] - s->maxlen)) k->sweep_at = i;
    }
    crossing(k);
    return length_figures(k, in->lens, n, s->maxlen, err);
}

static void free_cost(void *r) { (void)r; }
static void free_batch(void *r) { pl_probe_batch_free(r); }
static void free_attention(void *r) { pl_probe_attention_free(r); }
static void free_rnn(void *r) { pl_probe_rnn_free(r); }
static void free_pooling(void *r) { pl_probe_pooling_free(r); }
static void free_loss(void *r) { pl_probe_loss_free(r); }
static void free_layers(void *r) { pl_probe_layers_free(r); }
static void free_generate(void *r) { pl_probe_generate_free(r); }
static void free_kvcache(void *r) { pl_probe_kvcache_free(r); }
static void free_masks(void *r) { pl_probe_masks_free(r); }
static void free_identity(void *r) { pl_probe_identity_free(r); }
static void free_blocks(void *r) { pl_probe_blocks_free(r); }
static void free_packing(void *r) { pl_probe_packing_free(r); }

static int fits_any(const PlLabSettings *s, const PlModel *m) { return (void)s, (void)m, 1; }
static int fits_recurrent(const PlLabSettings *s, const PlModel *m) {
    return (void)s, pl_arch_recurrent(pl_model_config(m)->arch);
}
static int fits_attention(const PlLabSettings *s, const PlModel *m) {
    return (void)s, pl_model_config(m)->arch == PL_ARCH_ATTENTION;
}
static int fits_token(const PlLabSettings *s, const PlModel *m) { return (void)s, pl_model_config(m)->classes >= 2; }
static int fits_selected(const PlLabSettings *s, const PlModel *m) {
    return (int)pl_model_config(m)->arch == s->model && pl_model_config(m)->classes == 0;
}

static const Kind kinds[PL_R_COUNT] = {
    [PL_R_BATCH] = {"batch", PL_LOOK_BATCH, BATCH_DEPS | PL_S_BIT(PL_S_CONVENTION), NULL, sizeof(PlProbeBatch), run_batch, free_batch},
    [PL_R_COST] = {"cost", PL_LOOK_CORPUS,
                   PL_S_BIT(PL_S_CORPUS) | PL_S_BIT(PL_S_MAXLEN) | PL_S_BIT(PL_S_BATCHING) | PL_S_BIT(PL_S_BATCH), NULL,
                   sizeof(PlLabCost), run_cost, free_cost},
    /* Attention reads an attention model alone: another model's embedding
     * under fresh projections would be neither that model nor the seed's. */
    [PL_R_ATTENTION] = {"attention", PL_LOOK_FOCUS, SEEDED | PL_S_BIT(PL_S_MASK) | PL_S_BIT(PL_S_CAUSAL), fits_attention,
                        sizeof(PlProbeAttention), run_attention, free_attention, "attention weights",
                        "has no attention layer"},
    [PL_R_RNN] = {"rnn", PL_LOOK_EXAMPLE, SEEDED | PL_S_BIT(PL_S_MASK) | PL_S_BIT(PL_S_MODEL) | PL_S_BIT(PL_S_PAD_EMBEDDING),
                  fits_recurrent, sizeof(PlProbeRnn), run_rnn, free_rnn, "recurrent weights", "has no recurrent layer"},
    [PL_R_POOLING] = {"pooling", PL_LOOK_EXAMPLE, SEEDED, fits_any, sizeof(PlProbePooling), run_pooling, free_pooling, "weights", ""},
    [PL_R_LOSS] = {"loss", PL_LOOK_FOCUS, SEEDED, fits_token, sizeof(PlProbeLoss), run_loss, free_loss, "token-model weights",
                   "has no token head"},
    /* Layers perturb the pads under freshly seeded layers: a trained model's
     * embedding under them would be neither that model nor the seed's, so
     * the view always says it shows fresh weights. */
    [PL_R_LAYERS] = {"layers", PL_LOOK_FOCUS, SEEDED, NULL, sizeof(PlProbeLayers), run_layers, free_layers},
    /* A decoder's probes lay the prompts out left and right themselves: the
     * padding setting changes nothing they compute. */
    [PL_R_GENERATE] = {"generate", PL_LOOK_FOCUS, SEEDED & ~PL_S_BIT(PL_S_PADDING), NULL, sizeof(PlProbeGenerate),
                       run_generate, free_generate},
    [PL_R_KVCACHE] = {"kvcache", PL_LOOK_FOCUS, SEEDED & ~PL_S_BIT(PL_S_PADDING), NULL, sizeof(PlProbeKvcache),
                      run_kvcache, free_kvcache},
    [PL_R_MASKS] = {"masks", PL_LOOK_FOCUS, SEEDED, fits_attention, sizeof(PlProbeMasks), run_masks, free_masks, "attention weights",
                    "has no attention layer"},
    [PL_R_IDENTITY] = {"identity", PL_LOOK_FOCUS, SEEDED | PL_S_BIT(PL_S_MODEL), fits_selected, sizeof(PlProbeIdentity), run_identity,
                       free_identity, "weights", "is not the selected model"},
    /* Every rule is counted, so neither the mask nor causal matters; the
     * rules read the whole batch, not the close-up rows. */
    [PL_R_BLOCKS] = {"blocks", PL_LOOK_BATCH, BATCH_DEPS, NULL, sizeof(PlProbeBlocks), run_blocks, free_blocks},
    /* Packing takes its documents from the whole batch, each cut to maxlen
     * (truncating) with no pad, so the padding side is not among its
     * settings; its attention is always fresh from the seed. */
    [PL_R_PACKING] = {"packing", PL_LOOK_BATCH, SEEDED & ~PL_S_BIT(PL_S_PADDING), NULL, sizeof(PlProbePacking),
                      run_packing, free_packing},
};

const char *pl_result_name(PlResultKind k) { return k >= 0 && k < PL_R_COUNT ? kinds[k].name : "?"; }

PlLook pl_result_look(PlResultKind k) { return kinds[k].look; }

/* ---- what each view shows ---- */

#define ALL_PARTS ((1u << PL_VIEW_PART_COUNT) - 1)

static const PlViewShows views[PL_VIEW_COUNT] = {
    /* a packed batch, and the same documents as a flattening collator packs them */
    [PL_VIEW_BATCH] = {{PL_R_BATCH, PL_R_PACKING}, 2, 0, 1u << PL_R_PACKING},
    [PL_VIEW_COST] = {{PL_R_COST}, 1, 0},
    [PL_VIEW_ATTENTION] = {{PL_R_ATTENTION}, 1, 0},
    [PL_VIEW_RNN] = {{PL_R_RNN}, 1, 0},
    [PL_VIEW_POOLING] = {{PL_R_POOLING}, 1, 0},
    [PL_VIEW_LOSS] = {{PL_R_LOSS}, 1, 0},
    /* the runs, the chance line, the grid, and pre+mask = post+mask from the same weights */
    [PL_VIEW_TRAIN] = {{PL_R_IDENTITY}, 1, ALL_PARTS},
    [PL_VIEW_LAYERS] = {{PL_R_LAYERS}, 1, 0},
    [PL_VIEW_GENERATE] = {{PL_R_GENERATE, PL_R_KVCACHE}, 2, 0},
    /* the mask's conventions, then every rule of the batch counted per tile */
    [PL_VIEW_MASKS] = {{PL_R_MASKS, PL_R_BLOCKS}, 2, 0},
};

const PlViewShows *pl_view_shows(PlView v) { return &views[v]; }

unsigned pl_view_results(PlView v, const PlLabSettings *s) {
    unsigned bits = 0;
    for (int i = 0; v >= 0 && v < PL_VIEW_COUNT && i < views[v].nresults; i++) bits |= 1u << views[v].results[i];
    if (s && s->batching != PL_BATCH_PACKED && v >= 0 && v < PL_VIEW_COUNT) bits &= ~views[v].packed_only;
    return bits;
}

const char *pl_view_part_name(PlViewPart p) {
    static const char *const names[PL_VIEW_PART_COUNT] = {"runs", "chance", "grid"};
    return p >= 0 && p < PL_VIEW_PART_COUNT ? names[p] : "?";
}

PlProbeOpts pl_lab_probe_opts(const PlLabSettings *s) {
    PlProbeOpts o = pl_probe_opts_default();
    o.example = s->example;
    o.maxlen = s->maxlen;
    o.padding = (PlSide)s->padding;
    o.truncating = (PlSide)s->truncating;
    o.mask = s->mask;
    o.conv = (PlMaskConv)s->convention;
    o.seed = (PlSeed)s->seed;
    o.batching = (PlBatching)s->batching;
    o.batch_size = s->batch;
    return o;
}

/* ---- computing ---- */

static void free_result(PlResultKind k, void *data) {
    if (!data) return;
    kinds[k].free(data);
    free(data);
}

static void fill_info(PlResultInfo *info, const PlBatchPick *pick, const PlProbeOpts *focus) {
    info->batch_index = pick->index, info->batches = pick->count;
    info->batch_rows = pick->B, info->width = pick->width, info->packed = pick->packed;
    info->nrows = focus->nbatch;
    for (int i = 0; i < focus->nbatch && i < PL_PROBE_FOCUS_ROWS; i++) info->rows[i] = focus->batch[i];
    info->focus_width = focus->width;
}

PlResultParams pl_result_params_default(void) {
    PlResultParams p = {
        .heads = 2, .dhead = 16, .steps = 8, .block = PL_BLOCKS_DEFAULT_BLOCK, .window = PL_BLOCKS_DEFAULT_WINDOW};
    return p;
}

unsigned pl_result_deps(PlResultKind k) { return kinds[k].deps; }

int pl_result_reads(PlResultKind k, const PlLabSettings *s, const PlModel *m) {
    return m && kinds[k].fits && kinds[k].fits(s, m);
}

const char *pl_result_lacks(PlResultKind k) { return kinds[k].fits ? kinds[k].lacks : NULL; }
const char *pl_result_fresh(PlResultKind k) { return kinds[k].fits ? kinds[k].fresh : NULL; }

void pl_result_free(PlResultKind k, void *r) { free_result(k, r); }

PlStatus pl_result_compute(const PlCorpus *c, const int *lens, PlResultKind k, const PlLabSettings *given,
                           const PlResultParams *prm, const PlModel *weights, void **out, PlResultInfo *info,
                           PlErr *err) {
    double t0 = pl_app_clock();
    PlResultParams dflt = pl_result_params_default();
    if (!prm) prm = &dflt;
    *out = NULL;
    memset(info, 0, sizeof *info);
    info->settings = *given; /* what the views say: maxlen none stays none */
    info->kind = k;
    info->longest = pl_corpus_longest(c);
    PlLabSettings cut = *given, *s = &cut; /* what the core computes with: none is the longest review */
    cut.maxlen = pl_maxlen_of(given->maxlen, info->longest);
    void *r = calloc(1, kinds[k].size);
    if (!r) return pl_err_set(err, PL_ENOMEM, "out of memory for the %s view", kinds[k].name);
    PlProbeOpts o = pl_lab_probe_opts(s), f;
    o.batch = prm->rows, o.nbatch = prm->nrows;
    PlBatchPick pick;
    int rows[PL_PROBE_FOCUS_ROWS];
    PlStatus st = pl_probe_pick(c, &o, &pick, err);
    if (!st) {
        pl_probe_focus(&pick, &o, PL_PROBE_FOCUS_ROWS, rows, &f);
        fill_info(info, &pick, &f);
        Input in = {c,
                    lens,
                    s,
                    prm,
                    kinds[k].look == PL_LOOK_BATCH || kinds[k].look == PL_LOOK_CORPUS ? &o : &f,
                    pl_result_reads(k, s, weights) ? weights : NULL};
        st = kinds[k].run(&in, r, err);
    }
    pl_probe_pick_free(&pick);
    info->seconds = pl_app_clock() - t0;
    if (st) {
        free_result(k, r);
        return st;
    }
    *out = r;
    return PL_OK;
}
