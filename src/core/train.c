#include "train.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chance.h"
#include "loss.h"
#include "mask.h"
#include "rng.h"

PlTrainConfig pl_train_config_default(PlArch arch) {
    PlTrainConfig c;
    memset(&c, 0, sizeof c);
    c.model = pl_model_config_default(arch);
    c.maxlen = PL_DEFAULT_MAXLEN;
    c.padding = PL_PRE;
    c.truncating = PL_PRE;
    c.epochs = PL_DEFAULT_EPOCHS;
    c.batch_size = PL_DEFAULT_BATCH;
    c.val_split = PL_VAL_SPLIT;
    c.batching = PL_BATCH_STATIC;
    c.optim = PL_OPT_ADAM;
    return c;
}

/* The examples a run sees: slices of reviews, at most maxlen tokens each.
 * Without windows a review gives one slice, truncated at the configured end;
 * with windows a long review gives overlapping slices that cover it whole. */
typedef struct {
    int n, cap;
    int *review;
    int64_t *start; /* offset into the corpus's ids */
    int *len;
    uint8_t *label;
} Slices;

static void slices_free(Slices *s) {
    free(s->review);
    free(s->start);
    free(s->len);
    free(s->label);
    memset(s, 0, sizeof *s);
}

static int slices_add(Slices *s, int review, int64_t start, int len, uint8_t label) {
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 1024;
        int *r = realloc(s->review, (size_t)cap * sizeof *r);
        if (r) s->review = r;
        int64_t *st = realloc(s->start, (size_t)cap * sizeof *st);
        if (st) s->start = st;
        int *l = realloc(s->len, (size_t)cap * sizeof *l);
        if (l) s->len = l;
        uint8_t *lb = realloc(s->label, (size_t)cap);
        if (lb) s->label = lb;
        if (!r || !st || !l || !lb) return -1;
        s->cap = cap;
    }
    s->review[s->n] = review;
    s->start[s->n] = start;
    s->len[s->n] = len;
    s->label[s->n++] = label;
    return 0;
}

static int build_slices(Slices *s, const PlCorpus *c, int from, int to, const PlTrainConfig *cfg) {
    int W = cfg->maxlen;
    for (int r = from; r < to; r++) {
        int L = pl_corpus_len(c, r);
        int64_t off = c->offsets[r];
        if (cfg->window_stride > 0 && L > W) {
            for (int a = 0;; a += cfg->window_stride) {
                int start = a + W < L ? a : L - W;
                if (slices_add(s, r, off + start, W, c->labels[r])) return -1;
                if (start == L - W) break;
            }
            continue;
        }
        int keep = L < W ? L : W;
        if (slices_add(s, r, cfg->truncating == PL_PRE ? off + L - keep : off, keep, c->labels[r])) return -1;
    }
    return 0;
}

/* The buffers a batch is padded into, sized from the plans actually made:
 * a plan's batch can be wider than maxlen (multiple_of_8 rounds its width
 * up) and hold more rows than batch_size (bucket_longest makes one batch of
 * a bucket), so neither bound sizes them. They grow, never shrink.
 *
 * Layout: ids and mask are (B,W) for the batch being run, labels and dz
 * (B); the token task's targets are (B,W) and dlogits (W,B,classes). */
typedef struct {
    size_t rows, cells; /* capacity: rows per batch, and B*W cells */
    int classes;        /* token task: the head's classes; 0 = classifier */
    int32_t *ids;
    uint8_t *mask, *labels;
    float *dz;
    float *dlogits;   /* token task only */
    int32_t *targets; /* token task only */
} Batches;

static void batches_done(Batches *b) {
    free(b->ids);
    free(b->mask);
    free(b->labels);
    free(b->dz);
    free(b->dlogits);
    free(b->targets);
    memset(b, 0, sizeof *b);
}

/* Grows b to hold every batch of plan p: its most rows and its largest B*W.
 * Returns PL_ENOMEM (message in err) when it cannot; b then keeps buffers at
 * least as large as its capacities say. */
static PlStatus batches_reserve(Batches *b, const PlPlan *p, PlErr *err) {
    size_t rows = 1, cells = 1;
    for (int k = 0; k < p->n_batches; k++) {
        size_t B = (size_t)(p->start[k + 1] - p->start[k]), n = B * (size_t)p->width[k];
        rows = B > rows ? B : rows;
        cells = n > cells ? n : cells;
    }
    if (rows <= b->rows && cells <= b->cells) return PL_OK;
    rows = rows > b->rows ? rows : b->rows;
    cells = cells > b->cells ? cells : b->cells;
    size_t C = (size_t)b->classes;
    if (C && cells > SIZE_MAX / sizeof(float) / C)
        return pl_err_set(err, PL_ENOMEM, "a batch of %zu cells x %zu classes is too large", cells, C);
    int32_t *ids = realloc(b->ids, cells * sizeof *ids);
    if (ids) b->ids = ids;
    uint8_t *mask = realloc(b->mask, cells);
    if (mask) b->mask = mask;
    uint8_t *labels = realloc(b->labels, rows);
    if (labels) b->labels = labels;
    float *dz = realloc(b->dz, rows * sizeof *dz);
    if (dz) b->dz = dz;
    int ok = ids && mask && labels && dz;
    if (C) {
        float *dl = realloc(b->dlogits, cells * C * sizeof *dl);
        if (dl) b->dlogits = dl;
        int32_t *tg = realloc(b->targets, cells * sizeof *tg);
        if (tg) b->targets = tg;
        ok = ok && dl && tg;
    }
    if (!ok) return pl_err_set(err, PL_ENOMEM, "out of memory for batches of %zu rows and %zu cells", rows, cells);
    b->rows = rows;
    b->cells = cells;
    return PL_OK;
}

/* Everything a run holds besides the model. */
typedef struct {
    const PlCorpus *corpus;
    const PlTrainConfig *cfg;
    Slices train, val;
    int *order;  /* (train.n) this epoch's shuffled order */
    int *lens;   /* (train.n) scratch for planning */
    Batches buf; /* reserved for each plan before its batches are filled */
    float *prob; /* (val.n) */
    int batches; /* in the last epoch */
    PlRng rng;
    uint64_t digest; /* of every plan so far (pl_train_batches) */
} Run;

static void run_free(Run *r) {
    slices_free(&r->train);
    slices_free(&r->val);
    free(r->order);
    free(r->lens);
    batches_done(&r->buf);
    free(r->prob);
}

static int run_init(Run *r, const PlCorpus *c, const PlTrainConfig *cfg, int n_train) {
    memset(r, 0, sizeof *r);
    r->corpus = c;
    r->cfg = cfg;
    r->buf.classes = cfg->token_task ? cfg->model.classes : 0;
    if (build_slices(&r->train, c, 0, n_train, cfg) || build_slices(&r->val, c, n_train, c->n, cfg)) return -1;
    size_t n = (size_t)(r->train.n > r->val.n ? r->train.n : r->val.n) + 1;
    r->order = malloc(n * sizeof *r->order);
    r->lens = malloc(n * sizeof *r->lens);
    r->prob = malloc(((size_t)r->val.n + 1) * sizeof *r->prob);
    pl_rng_seed(&r->rng, cfg->seed ^ 0x5851f42d4c957f2dULL);
    r->digest = cfg->batching == PL_BATCH_PACKED; /* packed rows: another input, whatever the plan */
    return r->order && r->lens && r->prob ? 0 : -1;
}

/* Pads slices rows[0..B) of s into the run's batch buffers at width W; the
 * buffers were reserved for the plan the batch comes from. */
static void fill_batch(Run *r, const Slices *s, const int *rows, int B, int W) {
    Batches *b = &r->buf;
    assert((size_t)B <= b->rows && (size_t)B * (size_t)W <= b->cells);
    PlPadOpts o = {W, r->cfg->padding, PL_PRE, 0};
    for (int i = 0; i < B; i++) {
        int k = rows[i];
        pl_pad_row(b->ids + (size_t)i * W, b->mask + (size_t)i * W, r->corpus->ids + s->start[k], s->len[k], W, &o);
        b->labels[i] = s->label[k];
    }
}

static PlBatching plan_kind(PlBatching b) { return b == PL_BATCH_PACKED ? PL_BATCH_STATIC : b; }

static uint64_t mix64(uint64_t h, uint64_t x) {
    h = (h ^ x) * 0x9E3779B97F4A7C15u;
    return h ^ (h >> 29);
}

/* Folds plan p, as the model will see it, into the run's digest: each
 * batch's width, its size and its rows in order. */
static void digest_plan(Run *r, const PlPlan *p) {
    uint64_t h = mix64(r->digest, (uint64_t)p->n_batches);
    for (int b = 0; b < p->n_batches; b++) {
        h = mix64(h, (uint64_t)p->width[b] << 32 | (uint32_t)(p->start[b + 1] - p->start[b]));
        for (int i = p->start[b]; i < p->start[b + 1]; i++) h = mix64(h, (uint32_t)p->order[i]);
    }
    r->digest = h;
}

/* Plans batches over slices order[0..n) of s and reserves the batch buffers
 * for them; the plan's order is mapped back to slice indices. On failure *p
 * is NULL. */
static PlStatus plan_over(Run *r, const Slices *s, const int *order, int n, PlBatching kind, PlSeed seed, PlPlan **p,
                          PlErr *err) {
    const PlTrainConfig *cfg = r->cfg;
    int bounds[3];
    for (int i = 0; i < n; i++) r->lens[i] = s->len[order[i]];
    PlPlanOpts po = pl_plan_opts_standard(kind, cfg->maxlen, cfg->batch_size, bounds);
    po.seed = seed;
    PlStatus st = pl_plan_make(r->lens, n, &po, p, err);
    if (st) return st;
    if ((st = batches_reserve(&r->buf, *p, err))) {
        pl_plan_free(*p);
        *p = NULL;
        return st;
    }
    for (int i = 0; i < n; i++) (*p)->order[i] = order[(*p)->order[i]];
    digest_plan(r, *p);
    return PL_OK;
}

/* ---- the token task ---- */

/* Correct argmax predictions over the counted targets; *n gets their number. */
static int token_hits(const float *logits, const int32_t *targets, int B, int W, int C, int *n) {
    int hits = 0;
    *n = 0;
    for (int t = 0; t < W; t++)
        for (int b = 0; b < B; b++) {
            int32_t y = targets[(size_t)b * W + t];
            if (y == PL_IGNORE_INDEX) continue;
            const float *z = logits + ((size_t)t * B + b) * C;
            int best = 0;
            for (int c = 1; c < C; c++) best = z[c] > z[best] ? c : best;
            hits += best == y;
            ++*n;
        }
    return hits;
}

/* Runs a batch of the token task: loss, dlogits (when train) and hits. */
static PlStatus token_batch(Run *r, PlModel *m, int B, int W, int train, double *loss, int *hits, int *n, PlErr *err) {
    int C = r->cfg->model.classes;
    Batches *b = &r->buf;
    PlStatus st = pl_model_forward(m, b->ids, b->mask, B, W, err);
    if (st) return st;
    pl_next_token_targets(b->targets, b->ids, b->mask, B, W, C, train && r->cfg->pads_in_loss);
    PlLossNorm norm = train ? r->cfg->norm : PL_NORM_TOKEN;
    float l = pl_token_ce(train ? b->dlogits : NULL, NULL, pl_model_logits(m), b->targets, W, B, C, norm);
    *hits = token_hits(pl_model_logits(m), b->targets, B, W, C, n);
    *loss += train ? (double)l : (double)l * *n;
    if (train) {
        pl_model_zero_grad(m);
        pl_model_backward(m, b->dlogits);
        pl_model_update(m);
    }
    return PL_OK;
}

static PlStatus evaluate_tokens(Run *r, PlModel *m, PlTrainResult *res, int e, const PlPlan *p, PlErr *err) {
    double loss = 0.0;
    long hits = 0, count = 0;
    PlStatus st = PL_OK;
    for (int b = 0; b < p->n_batches && !st; b++) {
        int B = p->start[b + 1] - p->start[b], W = p->width[b], h, n;
        fill_batch(r, &r->val, p->order + p->start[b], B, W);
        st = token_batch(r, m, B, W, 0, &loss, &h, &n, err);
        hits += h;
        count += n;
    }
    res->val_loss[e] = count ? (float)(loss / count) : 0.0f;
    res->val_acc[e] = count ? (float)hits / (float)count : 0.0f;
    if (e == 0 || res->val_loss[e] < res->best_val_loss) res->best_val_loss = res->val_loss[e];
    if (e == 0 || res->val_acc[e] > res->best_val_acc) res->best_val_acc = res->val_acc[e], res->best_epoch = e + 1;
    return st;
}

/* Validation: every val slice in order; a review's prediction is the mean
 * probability of its slices. Fills the epoch's val figures and, when best,
 * the length buckets. */
/* The validation batches: every val slice in order, static or dynamic. */
static PlStatus val_plan(Run *r, PlPlan **p, PlErr *err) {
    const Slices *v = &r->val;
    for (int i = 0; i < v->n; i++) r->order[i] = i;
    PlBatching kind = plan_kind(r->cfg->batching) == PL_BATCH_STATIC ? PL_BATCH_STATIC : PL_BATCH_DYNAMIC;
    return plan_over(r, v, r->order, v->n, kind, 0, p, err);
}

static PlStatus evaluate(Run *r, PlModel *m, PlTrainResult *res, int e, PlErr *err) {
    const Slices *v = &r->val;
    PlPlan *p;
    PlStatus st = val_plan(r, &p, err);
    if (st) return st;
    if (r->cfg->token_task) {
        st = evaluate_tokens(r, m, res, e, p, err);
        pl_plan_free(p);
        return st;
    }
    double loss = 0.0;
    for (int b = 0; b < p->n_batches && !st; b++) {
        int B = p->start[b + 1] - p->start[b], W = p->width[b];
        const int *rows = p->order + p->start[b];
        fill_batch(r, v, rows, B, W);
        if ((st = pl_model_forward(m, r->buf.ids, r->buf.mask, B, W, err))) break;
        const float *z = pl_model_logits(m);
        loss += (double)pl_bce_logits(NULL, z, r->buf.labels, B) * B;
        for (int i = 0; i < B; i++) r->prob[rows[i]] = 1.0f / (1.0f + expf(-z[i]));
    }
    pl_plan_free(p);
    if (st) return st;
    int correct = 0, bc[PL_LEN_BUCKETS] = {0}, bn[PL_LEN_BUCKETS] = {0};
    for (int i = 0; i < v->n;) {
        int j = i;
        double sum = 0.0;
        for (; j < v->n && v->review[j] == v->review[i]; j++) sum += (double)r->prob[j];
        int ok = (sum / (j - i) > 0.5) == (v->label[i] == 1);
        int L = pl_corpus_len(r->corpus, v->review[i]), k = 0;
        while (k < PL_LEN_BUCKETS - 1 && L > res->bucket_hi[k]) k++;
        correct += ok;
        bc[k] += ok;
        bn[k]++;
        i = j;
    }
    res->val_loss[e] = v->n ? (float)(loss / v->n) : 0.0f;
    if (e == 0 || res->val_loss[e] < res->best_val_loss) res->best_val_loss = res->val_loss[e];
    res->val_acc[e] = res->n_val ? (float)correct / (float)res->n_val : 0.0f;
    if (e == 0 || res->val_acc[e] > res->best_val_acc) {
        res->best_val_acc = res->val_acc[e];
        res->best_epoch = e + 1;
        for (int k = 0; k < PL_LEN_BUCKETS; k++) {
            res->bucket_n[k] = bn[k];
            res->bucket_acc[k] = bn[k] ? (float)bc[k] / (float)bn[k] : 0.0f;
        }
    }
    return PL_OK;
}

static int64_t batch_steps(const Run *r, int B, int W) {
    if (r->cfg->batching != PL_BATCH_PACKED) return (int64_t)B * W;
    int64_t n = 0;
    for (size_t i = 0; i < (size_t)B * W; i++) n += r->buf.mask[i];
    return n;
}

/* An epoch's training batches: the slices in a fresh shuffled order. */
static PlStatus epoch_plan(Run *r, PlPlan **p, PlErr *err) {
    const Slices *s = &r->train;
    for (int i = 0; i < s->n; i++) r->order[i] = i;
    pl_rng_shuffle_int(&r->rng, r->order, s->n);
    return plan_over(r, s, r->order, s->n, plan_kind(r->cfg->batching), pl_rng_u64(&r->rng), p, err);
}

/* One pass over the training slices in a fresh shuffled order. */
static PlStatus train_epoch(Run *r, PlModel *m, PlTrainResult *res, int e, PlProgressFn progress, void *ctx,
                            PlErr *err) {
    const Slices *s = &r->train;
    PlPlan *p;
    PlStatus st = epoch_plan(r, &p, err);
    if (st) return st;
    double loss = 0.0;
    long seen = 0, correct = 0, tokens = 0; /* tokens: what the accuracy counts over */
    for (int b = 0; b < p->n_batches && !st; b++) {
        int B = p->start[b + 1] - p->start[b], W = p->width[b];
        fill_batch(r, s, p->order + p->start[b], B, W);
        if (r->cfg->token_task) {
            int hits, n;
            double l = 0.0;
            if ((st = token_batch(r, m, B, W, 1, &l, &hits, &n, err))) break;
            loss += l * B;
            correct += hits;
            seen += B;
            tokens += n;
        } else {
            if ((st = pl_model_forward(m, r->buf.ids, r->buf.mask, B, W, err))) break;
            const float *z = pl_model_logits(m);
            loss += (double)pl_bce_logits(r->buf.dz, z, r->buf.labels, B) * B;
            for (int i = 0; i < B; i++) correct += (z[i] > 0.0f) == (r->buf.labels[i] == 1);
            seen += B;
            tokens += B;
            pl_model_zero_grad(m);
            pl_model_backward(m, r->buf.dz);
            pl_model_update(m);
        }
        res->steps += batch_steps(r, B, W);
        for (size_t i = 0; i < (size_t)B * W; i++) res->real_tokens += r->buf.mask[i];
        PlProgress pr = {e + 1,        r->cfg->epochs,       b + 1,
                         p->n_batches, (float)(loss / seen), tokens ? (float)correct / (float)tokens : 0.0f,
                         -1.0f};
        if (progress && b + 1 < p->n_batches && progress(&pr, ctx))
            st = pl_err_set(err, PL_ECANCELED, "training canceled");
    }
    r->batches = p->n_batches;
    pl_plan_free(p);
    res->train_loss[e] = seen ? (float)(loss / seen) : 0.0f;
    res->train_acc[e] = tokens ? (float)correct / (float)tokens : 0.0f;
    return st;
}

static PlStatus check_train_config(const PlCorpus *c, const PlTrainConfig *cfg, int n_train, PlErr *err) {
    if (cfg->epochs < 1 || cfg->epochs > PL_MAX_EPOCHS)
        return pl_err_set(err, PL_ERANGE, "epochs must be 1 to %d, got %d", PL_MAX_EPOCHS, cfg->epochs);
    if (cfg->maxlen < 1 || cfg->batch_size < 1) return pl_err_set(err, PL_ERANGE, "maxlen and batch size must be >= 1");
    if (!(cfg->val_split > 0.0 && cfg->val_split < 1.0))
        return pl_err_set(err, PL_ERANGE, "validation split must be between 0 and 1");
    if (cfg->token_task && (cfg->model.classes < 2 || !pl_arch_recurrent(cfg->model.arch)))
        return pl_err_set(err, PL_ERANGE, "the token task needs a recurrent model with at least 2 classes");
    if (cfg->token_task && cfg->batching == PL_BATCH_PACKED)
        return pl_err_set(
            err, PL_ERANGE,
            "the token task predicts at every position of a padded batch, so it cannot use packed batching");
    if (!cfg->token_task && cfg->model.classes)
        return pl_err_set(err, PL_ERANGE, "a classifier has one output, not %d classes", cfg->model.classes);
    if (n_train < 1 || n_train >= c->n)
        return pl_err_set(err, PL_ERANGE, "%d example%s too few to split into training and validation", c->n,
                          c->n == 1 ? " is" : "s are");
    return PL_OK;
}

uint64_t pl_train_memory_estimate(const PlTrainConfig *cfg, int vocab) {
    PlModelConfig m = cfg->model;
    m.vocab = vocab;
    if (cfg->batching == PL_BATCH_PACKED && pl_arch_recurrent(m.arch)) m.mask = PL_SEQ_PACKED; /* as pl_train */
    size_t nparams = 0;
    PlErr ignored;
    if (pl_model_config_check(&m, &nparams, &ignored)) return 0; /* pl_train refuses it anyway */
    int T = cfg->maxlen > 0 ? cfg->maxlen : 1, B = cfg->batch_size > 0 ? cfg->batch_size : 1;
    uint64_t batch = (uint64_t)B * (uint64_t)T * (sizeof(int32_t) + 1); /* the padded batch: ids and mask */
    /* the weights, their gradients and Adam's two moments; the model's
     * activations for the widest batch, counted as the model carves them */
    return (uint64_t)nparams * 4 * sizeof(float) + pl_model_batch_bytes(&m, B, T) + batch;
}

PlStatus pl_train_memory_check(const PlTrainConfig *cfg, int vocab, int at_once, uint64_t available, PlErr *err) {
    if (!available) return PL_OK;
    uint64_t need = pl_train_memory_estimate(cfg, vocab) * (uint64_t)(at_once > 0 ? at_once : 1);
    if (need <= available) return PL_OK;
    return pl_err_set(err, PL_ENOMEM,
                      "%s at maxlen %d, batch %d needs about %.1f GB to train (%d at once); %.1f GB are available",
                      pl_arch_name(cfg->model.arch), cfg->maxlen, cfg->batch_size, (double)need / 1e9,
                      at_once > 0 ? at_once : 1, (double)available / 1e9);
}

PlStatus pl_train(const PlCorpus *c, const PlTrainConfig *cfg, PlProgressFn progress, void *ctx, PlClockFn clock,
                  PlTrainResult *res, PlModel **model_out, PlErr *err) {
    if (model_out) *model_out = NULL;
    memset(res, 0, sizeof *res);
    int n_train = pl_train_split(c->n, cfg->val_split);
    PlStatus st = check_train_config(c, cfg, n_train, err);
    if (st) return st;
    PlModelConfig mc = cfg->model;
    mc.vocab = c->num_words;
    if (cfg->batching == PL_BATCH_PACKED && pl_arch_recurrent(mc.arch)) mc.mask = PL_SEQ_PACKED;
    PlModel *m;
    if ((st = pl_model_new(&mc, cfg->seed, &m, err))) return st;
    pl_optim_init(pl_model_optim(m), cfg->optim);
    Run r;
    if (run_init(&r, c, cfg, n_train)) {
        run_free(&r);
        pl_model_free(m);
        return pl_err_set(err, PL_ENOMEM, "out of memory preparing the training data");
    }
    res->n_train = n_train;
    res->n_val = c->n - n_train;
    res->bucket_hi[0] = cfg->maxlen / 2;
    res->bucket_hi[1] = cfg->maxlen;
    res->bucket_hi[2] = INT32_MAX;
    double t0 = clock ? clock(ctx) : 0.0;
    for (int e = 0; e < cfg->epochs && !st; e++) {
        double te = clock ? clock(ctx) : 0.0;
        st = train_epoch(&r, m, res, e, progress, ctx, err);
        if (!st) st = evaluate(&r, m, res, e, err);
        if (st) break;
        res->epochs_done = e + 1;
        res->epoch_seconds[e] = clock ? clock(ctx) - te : 0.0;
        PlProgress pr = {e + 1,          cfg->epochs, r.batches, r.batches, res->train_loss[e], res->train_acc[e],
                         res->val_acc[e]};
        if (progress && progress(&pr, ctx)) st = pl_err_set(err, PL_ECANCELED, "training canceled");
    }
    res->seconds = clock ? clock(ctx) - t0 : 0.0;
    res->batches = r.digest;
    run_free(&r);
    if (model_out && (st == PL_OK || st == PL_ECANCELED)) *model_out = m;
    else pl_model_free(m);
    return st;
}

PlStatus pl_train_batches(const PlCorpus *c, const PlTrainConfig *cfg, uint64_t *digest, PlErr *err) {
    int n_train = pl_train_split(c->n, cfg->val_split);
    PlStatus st = check_train_config(c, cfg, n_train, err);
    if (st) return st;
    Run r;
    if (run_init(&r, c, cfg, n_train)) {
        run_free(&r);
        return pl_err_set(err, PL_ENOMEM, "out of memory preparing the training data");
    }
    PlPlan *p;
    for (int e = 0; e < cfg->epochs && !st; e++) { /* pl_train's plans, in its order */
        if (!(st = epoch_plan(&r, &p, err))) pl_plan_free(p);
        if (!st && !(st = val_plan(&r, &p, err))) pl_plan_free(p);
    }
    *digest = r.digest;
    run_free(&r);
    return st;
}
