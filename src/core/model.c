#include "model.h"

#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "tensor.h"

#define MAX_BLOCKS 12

typedef struct {
    const char *name;
    size_t off, n;
} Block;

/* Activations of one forward, carved from one allocation for (B,T). */
typedef struct {
    float *x;          /* (T,B,E) embedded input (not the recurrent models: see PlIdTable) */
    float *pre;        /* (T,B,G) packed models: the projected input before packing */
    float *h, *hs;     /* (T,B,H) states; the packed states */
    float *g, *hu, *c; /* gate caches (T,B,G), (T,B,G), (T,B,H) */
    float *y;          /* (T,B,E) attention output */
    float *q, *k, *v, *o, *p; /* attention caches */
    float *feat, *dfeat, *logits;
    float *dx, *dh, *da, *dhu, *dc, *dy, *scratch;
    int *arg;          /* (B,F) max pooling winners */
} Acts;

struct PlModel {
    PlModelConfig cfg;
    Block blocks[MAX_BLOCKS];
    int nblocks;
    size_t nparams;
    float *params, *grads, *m1, *m2;
    PlOptim opt;
    int B, T;             /* shape of the last forward */
    int32_t *ids;         /* (B,T) copy of the last input */
    uint8_t *mask, *mask_tm; /* (B,T) and time-major (T,B) */
    PlPack pack;
    PlIdTable tab;        /* recurrent models: the batch's distinct ids */
    size_t cap_floats, cap_cells;
    float *act;
    Acts a;
};

static const char *const arch_names[PL_ARCH_COUNT] = {"rnn", "gru", "lstm", "avgpool", "maxpool",
                                                      "attention"};

const char *pl_arch_name(PlArch a) { return arch_names[a]; }

int pl_arch_parse(const char *s, PlArch *out) {
    for (int i = 0; i < PL_ARCH_COUNT; i++)
        if (strcmp(s, arch_names[i]) == 0) return *out = (PlArch)i, 0;
    return -1;
}

int pl_arch_recurrent(PlArch a) { return a == PL_ARCH_RNN || a == PL_ARCH_GRU || a == PL_ARCH_LSTM; }

PlModelConfig pl_model_config_default(PlArch arch) {
    PlModelConfig c = {0};
    c.arch = arch;
    c.vocab = 10000;
    c.embed = 32;
    c.hidden = 32;
    c.mask = PL_SEQ_NONE;
    c.pool = PL_POOL_UNMASKED;
    c.readout = PL_READ_LAST_POS;
    c.heads = 2;
    c.dhead = 16;
    return c;
}

static int gates(PlArch a) { return a == PL_ARCH_GRU ? 3 : a == PL_ARCH_LSTM ? 4 : 1; }

static int feature_width(const PlModelConfig *c) { return pl_arch_recurrent(c->arch) ? c->hidden : c->embed; }

static void add_block(PlModel *m, const char *name, size_t n) {
    m->blocks[m->nblocks++] = (Block){name, m->nparams, n};
    m->nparams += n;
}

/* The size table: every parameter block in a fixed order. */
static void lay_out(PlModel *m) {
    const PlModelConfig *c = &m->cfg;
    size_t E = (size_t)c->embed, H = (size_t)c->hidden, G = (size_t)gates(c->arch) * H;
    size_t HD = (size_t)c->heads * c->dhead;
    add_block(m, "embedding", (size_t)c->vocab * E);
    if (pl_arch_recurrent(c->arch)) {
        add_block(m, "kernel", E * G);
        add_block(m, "recurrent", H * G);
        add_block(m, "bias", c->arch == PL_ARCH_GRU ? 2 * G : G);
    } else if (c->arch == PL_ARCH_ATTENTION) {
        add_block(m, "wq", E * HD);
        add_block(m, "wk", E * HD);
        add_block(m, "wv", E * HD);
        add_block(m, "wo", HD * E);
    }
    size_t C = c->classes > 0 ? (size_t)c->classes : 1;
    add_block(m, "dense_w", (size_t)feature_width(c) * C);
    add_block(m, "dense_b", C);
}

static float *block_in(PlModel *m, float *base, const char *name, size_t *n) {
    for (int i = 0; i < m->nblocks; i++)
        if (strcmp(m->blocks[i].name, name) == 0) {
            if (n) *n = m->blocks[i].n;
            return base + m->blocks[i].off;
        }
    if (n) *n = 0;
    return NULL;
}

float *pl_model_block(PlModel *m, const char *name, size_t *n) { return block_in(m, m->params, name, n); }
float *pl_model_grad_block(PlModel *m, const char *name, size_t *n) { return block_in(m, m->grads, name, n); }
#define P(name) block_in(m, m->params, name, NULL)
#define GR(name) block_in(m, m->grads, name, NULL)

static PlStatus init_params(PlModel *m, uint64_t seed) {
    const PlModelConfig *c = &m->cfg;
    PlRng rng;
    pl_rng_seed(&rng, seed);
    int E = c->embed, H = c->hidden, G = gates(c->arch) * H, HD = c->heads * c->dhead;
    pl_init_uniform(P("embedding"), (size_t)c->vocab * E, -0.05f, 0.05f, &rng);
    if (c->freeze_pad) memset(P("embedding"), 0, (size_t)E * sizeof(float));
    if (pl_arch_recurrent(c->arch)) {
        pl_init_glorot(P("kernel"), E, G, &rng);
        if (pl_init_orthogonal(P("recurrent"), H, G, &rng)) return PL_ENOMEM;
        if (c->arch == PL_ARCH_LSTM)
            for (int j = 0; j < H; j++) P("bias")[H + j] = 1.0f; /* unit_forget_bias */
    } else if (c->arch == PL_ARCH_ATTENTION) {
        pl_init_glorot(P("wq"), E, HD, &rng);
        pl_init_glorot(P("wk"), E, HD, &rng);
        pl_init_glorot(P("wv"), E, HD, &rng);
        pl_init_glorot(P("wo"), HD, E, &rng);
    }
    pl_init_glorot(P("dense_w"), feature_width(c), c->classes > 0 ? c->classes : 1, &rng);
    return PL_OK;
}

static PlStatus check_config(const PlModelConfig *c, PlErr *err) {
    if (c->arch < 0 || c->arch >= PL_ARCH_COUNT) return pl_err_set(err, PL_ERANGE, "unknown model kind");
    if (c->vocab < 4 || c->vocab > 10000000) return pl_err_set(err, PL_ERANGE, "vocabulary must be 4 to 10000000 ids, got %d", c->vocab);
    if (c->embed < 1 || c->embed > 4096 || c->hidden < 1 || c->hidden > 4096)
        return pl_err_set(err, PL_ERANGE, "embedding and hidden widths must be 1 to 4096");
    if ((size_t)c->vocab * (size_t)c->embed > ((size_t)1 << 27))
        return pl_err_set(err, PL_ERANGE, "a %d x %d embedding is too large", c->vocab, c->embed);
    if (c->arch == PL_ARCH_ATTENTION && (c->heads < 1 || c->dhead < 1 || c->heads * c->dhead > 4096))
        return pl_err_set(err, PL_ERANGE, "attention needs heads >= 1 and dhead >= 1");
    if (c->mask < PL_SEQ_NONE || c->mask > PL_SEQ_PACKED || c->pool < PL_POOL_UNMASKED || c->pool > PL_POOL_DIV_T ||
        c->readout < PL_READ_LAST_POS || c->readout > PL_READ_LAST_REAL)
        return pl_err_set(err, PL_ERANGE, "unknown mask, pooling or readout mode");
    if (c->classes < 0 || c->classes > 65536 || (c->classes > 0 && (!pl_arch_recurrent(c->arch) || c->mask == PL_SEQ_PACKED)))
        return pl_err_set(err, PL_ERANGE, "a token-level head needs an unpacked recurrent model and 1 to 65536 classes");
    return PL_OK;
}

PlStatus pl_model_new(const PlModelConfig *cfg, uint64_t seed, PlModel **out, PlErr *err) {
    *out = NULL;
    PlStatus st = check_config(cfg, err);
    if (st) return st;
    PlModel *m = calloc(1, sizeof *m);
    if (!m) return pl_err_set(err, PL_ENOMEM, "out of memory for a model");
    m->cfg = *cfg;
    lay_out(m);
    m->params = calloc(m->nparams, sizeof(float));
    m->grads = calloc(m->nparams, sizeof(float));
    m->m1 = calloc(m->nparams, sizeof(float));
    m->m2 = calloc(m->nparams, sizeof(float));
    if (!m->params || !m->grads || !m->m1 || !m->m2 || init_params(m, seed)) {
        size_t n = m->nparams; /* read before the model is gone */
        pl_model_free(m);
        return pl_err_set(err, PL_ENOMEM, "out of memory for %zu parameters", n);
    }
    if (pl_arch_recurrent(cfg->arch) && pl_idtable_init(&m->tab, cfg->vocab)) {
        pl_model_free(m);
        return pl_err_set(err, PL_ENOMEM, "out of memory for a model");
    }
    pl_optim_init(&m->opt, PL_OPT_ADAM);
    pl_blas_init();
    *out = m;
    return PL_OK;
}

PlStatus pl_model_copy(PlModel *src, const PlModelConfig *cfg, PlModel **out, PlErr *err) {
    PlStatus st = pl_model_new(cfg, 0, out, err);
    if (st) return st;
    if (pl_model_nparams(*out) != pl_model_nparams(src)) {
        pl_model_free(*out);
        *out = NULL;
        return pl_err_set(err, PL_ERANGE, "a copy must keep the model's shapes");
    }
    memcpy((*out)->params, src->params, src->nparams * sizeof *src->params);
    return PL_OK;
}

void pl_model_free(PlModel *m) {
    if (!m) return;
    free(m->params);
    free(m->grads);
    free(m->m1);
    free(m->m2);
    free(m->act);
    free(m->ids);
    free(m->mask);
    free(m->mask_tm);
    free(m->a.arg);
    pl_pack_done(&m->pack);
    pl_idtable_done(&m->tab);
    free(m);
}

const PlModelConfig *pl_model_config(const PlModel *m) { return &m->cfg; }
size_t pl_model_nparams(const PlModel *m) { return m->nparams; }
float *pl_model_params(PlModel *m) { return m->params; }
float *pl_model_grads(PlModel *m) { return m->grads; }
PlOptim *pl_model_optim(PlModel *m) { return &m->opt; }
const float *pl_model_logits(const PlModel *m) { return m->a.logits; }
const float *pl_model_states(const PlModel *m) { return m->a.h; }
const float *pl_model_features(const PlModel *m) { return m->a.feat; }
int pl_model_feature_width(const PlModel *m) { return feature_width(&m->cfg); }

/* Assigns every activation pointer for a (B,T) forward from base (NULL: only
 * count) and returns the floats needed. */
static size_t carve(Acts *a, float *base, const PlModelConfig *c, int B, int T) {
    size_t off = 0, cells = (size_t)B * T, E = (size_t)c->embed, H = (size_t)c->hidden;
    size_t G = (size_t)gates(c->arch) * H, F = (size_t)feature_width(c);
    size_t HD = (size_t)c->heads * c->dhead;
    int rec = pl_arch_recurrent(c->arch), packed = rec && c->mask == PL_SEQ_PACKED;
    int attn = c->arch == PL_ARCH_ATTENTION;
#define TAKE(ptr, n) do { a->ptr = base ? base + off : NULL; off += (n); } while (0)
    /* The pooling and recurrent models fuse the lookup into their first layer. */
    int fused = c->arch == PL_ARCH_AVGPOOL || rec;
    TAKE(x, fused ? 0 : cells * E);
    TAKE(dx, fused ? 0 : cells * E);
    TAKE(pre, packed ? cells * G : 0);
    TAKE(h, rec ? cells * H : 0);
    TAKE(hs, packed ? cells * H : 0);
    TAKE(dh, rec ? cells * H : 0);
    TAKE(g, rec && c->arch != PL_ARCH_RNN ? cells * G : 0);
    TAKE(hu, c->arch == PL_ARCH_GRU ? cells * G : 0);
    TAKE(dhu, c->arch == PL_ARCH_GRU ? cells * G : 0);
    TAKE(da, rec ? cells * G : 0);
    TAKE(c, c->arch == PL_ARCH_LSTM ? cells * H : 0);
    TAKE(dc, c->arch == PL_ARCH_LSTM ? (size_t)B * H : 0);
    TAKE(y, attn ? cells * E : 0);
    TAKE(dy, attn ? cells * E : 0);
    TAKE(q, attn ? cells * HD : 0);
    TAKE(k, attn ? cells * HD : 0);
    TAKE(v, attn ? cells * HD : 0);
    TAKE(o, attn ? cells * HD : 0);
    TAKE(p, attn ? (size_t)B * c->heads * T * T : 0);
    TAKE(scratch, attn ? 4 * cells * HD + (size_t)T * T : 0);
    TAKE(feat, (size_t)B * F);
    TAKE(dfeat, (size_t)B * F);
    TAKE(logits, c->classes > 0 ? cells * (size_t)c->classes : (size_t)B);
#undef TAKE
    return off;
}

static PlStatus ensure_acts(PlModel *m, int B, int T, PlErr *err) {
    size_t need = carve(&m->a, NULL, &m->cfg, B, T), cells = (size_t)B * T;
    size_t F = (size_t)feature_width(&m->cfg);
    if (need > m->cap_floats) {
        float *act = realloc(m->act, need * sizeof *act);
        if (!act) return pl_err_set(err, PL_ENOMEM, "out of memory for a %d x %d batch", B, T);
        m->act = act;
        m->cap_floats = need;
    }
    if (cells > m->cap_cells || (size_t)B * F > m->cap_cells) {
        size_t n = cells > (size_t)B * F ? cells : (size_t)B * F;
        int32_t *ids = realloc(m->ids, n * sizeof *ids);
        if (ids) m->ids = ids;
        uint8_t *mk = realloc(m->mask, n);
        if (mk) m->mask = mk;
        uint8_t *mt = realloc(m->mask_tm, n);
        if (mt) m->mask_tm = mt;
        int *arg = realloc(m->a.arg, n * sizeof *arg);
        if (arg) m->a.arg = arg;
        if (!ids || !mk || !mt || !arg) return pl_err_set(err, PL_ENOMEM, "out of memory for a %d x %d batch", B, T);
        m->cap_cells = n;
    }
    int *arg = m->a.arg;
    carve(&m->a, m->act, &m->cfg, B, T);
    m->a.arg = arg;
    return PL_OK;
}

/* Runs the recurrence over (T,B) into states h; the projected input is
 * already in h (SimpleRNN) or in the gate cache (GRU, LSTM). */
static void scan_forward(PlModel *m, float *h, const uint8_t *mask, const int *nact, int T, int B) {
    const PlModelConfig *c = &m->cfg;
    int H = c->hidden;
    if (c->arch == PL_ARCH_RNN) pl_rnn_scan(h, mask, nact, P("recurrent"), T, B, H);
    else if (c->arch == PL_ARCH_GRU) pl_gru_scan(h, m->a.g, m->a.hu, mask, nact, P("recurrent"), P("bias") + 3 * H, T, B, H);
    else pl_lstm_scan(h, m->a.c, m->a.g, mask, nact, P("recurrent"), T, B, H);
}

/* Back through the recurrence: dh in, the projected input's gradient in da. */
static void scan_backward(PlModel *m, const float *h, const uint8_t *mask, const int *nact, int T, int B) {
    const PlModelConfig *c = &m->cfg;
    int H = c->hidden;
    Acts *a = &m->a;
    if (c->arch == PL_ARCH_RNN)
        pl_rnn_scan_backward(GR("recurrent"), a->dh, a->da, h, mask, nact, P("recurrent"), T, B, H);
    else if (c->arch == PL_ARCH_GRU)
        pl_gru_scan_backward(GR("recurrent"), GR("bias") + 3 * H, a->dh, a->da, a->dhu, h, a->g, a->hu, mask, nact, P("recurrent"), T, B, H);
    else
        pl_lstm_scan_backward(GR("recurrent"), a->dh, a->da, a->dc, h, a->c, a->g, mask, nact, P("recurrent"), T, B, H);
}

/* Where the projected input goes: the states (SimpleRNN) or the gate cache. */
static float *scan_input(PlModel *m, float *states) { return m->cfg.arch == PL_ARCH_RNN ? states : m->a.g; }

static PlStatus project(PlModel *m, float *out, PlErr *err) {
    const PlModelConfig *c = &m->cfg;
    int G = gates(c->arch) * c->hidden;
    if (pl_embed_project_forward(out, &m->tab, m->ids, P("embedding"), P("kernel"), P("bias"), m->B, m->T, c->embed, G))
        return pl_err_set(err, PL_ENOMEM, "out of memory projecting a batch");
    return PL_OK;
}

static void project_backward(PlModel *m, const float *da) {
    const PlModelConfig *c = &m->cfg;
    pl_embed_project_backward(GR("embedding"), GR("kernel"), GR("bias"), &m->tab, da, m->ids, P("kernel"), m->B, m->T,
                              c->embed, gates(c->arch) * c->hidden, c->freeze_pad);
}

/* Time of the state the readout takes for row b, or -1 for none. */
static int readout_step(const PlModel *m, int b) {
    int T = m->T;
    if (m->cfg.readout == PL_READ_LAST_POS) return T - 1;
    for (int t = T - 1; t >= 0; t--)
        if (m->mask[(size_t)b * T + t]) return t;
    return -1;
}

static PlStatus recurrent_forward(PlModel *m, PlErr *err) {
    int B = m->B, T = m->T, H = m->cfg.hidden;
    Acts *a = &m->a;
    int G = gates(m->cfg.arch) * H;
    PlStatus st;
    if (m->cfg.mask == PL_SEQ_PACKED) {
        pl_pack_done(&m->pack);
        if (pl_pack_init(&m->pack, m->mask, B, T)) return pl_err_set(err, PL_ENOMEM, "out of memory packing a batch");
        const PlPack *pk = &m->pack;
        if ((st = project(m, a->pre, err))) return st;
        pl_pack_gather(scan_input(m, a->hs), a->pre, pk, G);
        scan_forward(m, a->hs, NULL, pk->nact, pk->K, B);
        pl_pack_scatter(a->h, a->hs, pk, H);
        for (int i = 0; i < B; i++) {
            float *f = a->feat + (size_t)pk->perm[i] * H;
            if (pk->len[i]) memcpy(f, a->hs + ((size_t)(pk->len[i] - 1) * B + i) * H, (size_t)H * sizeof *f);
            else memset(f, 0, (size_t)H * sizeof *f);
        }
        return PL_OK;
    }
    if ((st = project(m, scan_input(m, a->h), err))) return st;
    scan_forward(m, a->h, m->cfg.mask == PL_SEQ_KERAS ? m->mask_tm : NULL, NULL, T, B);
    for (int b = 0; b < B; b++) {
        int t = readout_step(m, b);
        float *f = a->feat + (size_t)b * H;
        if (t >= 0) memcpy(f, a->h + ((size_t)t * B + b) * H, (size_t)H * sizeof *f);
        else memset(f, 0, (size_t)H * sizeof *f);
    }
    return PL_OK;
}

static void recurrent_backward(PlModel *m) {
    int B = m->B, T = m->T, H = m->cfg.hidden;
    Acts *a = &m->a;
    memset(a->dh, 0, (size_t)T * B * H * sizeof *a->dh);
    if (m->cfg.mask == PL_SEQ_PACKED) {
        const PlPack *pk = &m->pack;
        for (int i = 0; i < B; i++)
            if (pk->len[i])
                memcpy(a->dh + ((size_t)(pk->len[i] - 1) * B + i) * H, a->dfeat + (size_t)pk->perm[i] * H, (size_t)H * sizeof *a->dh);
        scan_backward(m, a->hs, NULL, pk->nact, pk->K, B);
        pl_pack_scatter(a->pre, a->da, pk, gates(m->cfg.arch) * H);
        project_backward(m, a->pre);
        return;
    }
    for (int b = 0; b < B; b++) {
        int t = readout_step(m, b);
        if (t >= 0) memcpy(a->dh + ((size_t)t * B + b) * H, a->dfeat + (size_t)b * H, (size_t)H * sizeof *a->dh);
    }
    scan_backward(m, a->h, m->cfg.mask == PL_SEQ_KERAS ? m->mask_tm : NULL, NULL, T, B);
    project_backward(m, a->da);
}

static PlPoolMask pool_mode(const PlModel *m) {
    if (m->cfg.arch == PL_ARCH_ATTENTION) return m->cfg.mask == PL_SEQ_NONE ? PL_POOL_UNMASKED : PL_POOL_MASKED;
    return m->cfg.pool;
}

static PlAttnShape attn_shape(const PlModel *m) {
    const PlModelConfig *c = &m->cfg;
    return (PlAttnShape){m->T, m->B, c->embed, c->heads, c->dhead, c->causal,
                         c->mask == PL_SEQ_NONE ? NULL : m->mask};
}

PlStatus pl_model_forward(PlModel *m, const int32_t *ids, const uint8_t *mask, int B, int T, PlErr *err) {
    if (B < 1 || T < 1) return pl_err_set(err, PL_ERANGE, "a batch needs at least one row and one step");
    for (size_t i = 0; i < (size_t)B * T; i++)
        if (ids[i] < 0 || ids[i] >= m->cfg.vocab)
            return pl_err_set(err, PL_ERANGE, "token id %d is outside the model's vocabulary (%d)", ids[i], m->cfg.vocab);
    PlStatus st = ensure_acts(m, B, T, err);
    if (st) return st;
    m->B = B;
    m->T = T;
    memcpy(m->ids, ids, (size_t)B * T * sizeof *ids);
    memcpy(m->mask, mask, (size_t)B * T);
    for (int t = 0; t < T; t++)
        for (int b = 0; b < B; b++) m->mask_tm[(size_t)t * B + b] = mask[(size_t)b * T + t];
    const PlModelConfig *c = &m->cfg;
    Acts *a = &m->a;
    int E = c->embed, F = feature_width(c);
    if (c->arch == PL_ARCH_AVGPOOL) {
        pl_embed_avgpool_forward(a->feat, m->ids, m->mask, pool_mode(m), P("embedding"), B, T, E);
        pl_dense_forward(a->logits, a->feat, P("dense_w"), P("dense_b"), B, F, 1);
        return PL_OK;
    }
    if (c->classes > 0) {
        if ((st = project(m, scan_input(m, a->h), err))) return st;
        scan_forward(m, a->h, c->mask == PL_SEQ_KERAS ? m->mask_tm : NULL, NULL, T, B);
        pl_dense_forward(a->logits, a->h, P("dense_w"), P("dense_b"), T * B, F, c->classes);
        return PL_OK;
    }
    if (pl_arch_recurrent(c->arch)) {
        if ((st = recurrent_forward(m, err))) return st;
        pl_dense_forward(a->logits, a->feat, P("dense_w"), P("dense_b"), B, F, 1);
        return PL_OK;
    }
    pl_embedding_forward(a->x, m->ids, P("embedding"), B, T, E);
    if (c->arch == PL_ARCH_MAXPOOL) {
        pl_maxpool_forward(a->feat, a->arg, a->x, m->mask, pool_mode(m), T, B, E);
    } else {
        PlAttnShape s = attn_shape(m);
        pl_attention_forward(a->y, a->q, a->k, a->v, a->p, a->o, a->x, P("wq"), P("wk"), P("wv"), P("wo"), &s);
        pl_avgpool_forward(a->feat, a->y, m->mask, pool_mode(m), T, B, E);
    }
    pl_dense_forward(a->logits, a->feat, P("dense_w"), P("dense_b"), B, F, 1);
    return PL_OK;
}

void pl_model_backward(PlModel *m, const float *dlogits) {
    const PlModelConfig *c = &m->cfg;
    Acts *a = &m->a;
    int B = m->B, T = m->T, E = c->embed, F = feature_width(c);
    memset(m->grads, 0, m->nparams * sizeof *m->grads);
    if (c->classes > 0) {
        pl_dense_backward(a->dh, GR("dense_w"), GR("dense_b"), dlogits, a->h, P("dense_w"), T * B, F, c->classes);
        scan_backward(m, a->h, c->mask == PL_SEQ_KERAS ? m->mask_tm : NULL, NULL, T, B);
        project_backward(m, a->da);
        return;
    }
    pl_dense_backward(a->dfeat, GR("dense_w"), GR("dense_b"), dlogits, a->feat, P("dense_w"), B, F, 1);
    if (c->arch == PL_ARCH_AVGPOOL) {
        pl_embed_avgpool_backward(GR("embedding"), a->dfeat, m->ids, m->mask, pool_mode(m), B, T, E, c->freeze_pad);
        return;
    }
    if (pl_arch_recurrent(c->arch)) {
        recurrent_backward(m);
        return;
    }
    if (c->arch == PL_ARCH_MAXPOOL) {
        pl_maxpool_backward(a->dx, a->dfeat, a->arg, T, B, E);
    } else {
        PlAttnShape s = attn_shape(m);
        pl_avgpool_backward(a->dy, a->dfeat, m->mask, pool_mode(m), T, B, E);
        pl_attention_backward(a->dx, GR("wq"), GR("wk"), GR("wv"), GR("wo"), a->scratch, a->dy, a->q, a->k, a->v, a->p, a->o, a->x,
                              P("wq"), P("wk"), P("wv"), P("wo"), &s);
    }
    pl_embedding_backward(GR("embedding"), a->dx, m->ids, B, T, E, c->freeze_pad);
}

void pl_model_update(PlModel *m) {
    pl_optim_begin(&m->opt);
    pl_optim_apply(&m->opt, m->params, m->grads, m->m1, m->m2, m->nparams);
}
