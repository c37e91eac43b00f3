/* The classifier models, each kind described once by a row of arch_specs:
 * its body (the layers between the embedding and the dense head), the
 * recurrent cell it runs, and its parameter blocks with their shapes and
 * initialisers, in the order they are laid out.
 *
 * Layout: the parameters are one allocation of nparams floats, carved into
 * the blocks of the kind's row in PlParam order (a model file stores them in
 * the same order); the gradients and the two Adam moments are one
 * allocation each, carved the same way. Activations are one allocation
 * carved for the largest (B,T) seen so far. */
#include "model.h"

#include <stdlib.h>
#include <string.h>

#include "corpus.h"
#include "kernels.h"
#include "names.h"
#include "rng.h"
#include "size.h"
#include "tensor.h"

/* ---- the table of model kinds ---------------------------------------------- */

/* A block's dimensions, resolved against a configuration by dim_size. */
typedef enum {
    DIM_NONE, /* ends a kind's list of blocks */
    DIM_1,
    DIM_2,
    DIM_V,  /* vocabulary */
    DIM_E,  /* embedding width */
    DIM_H,  /* recurrent units */
    DIM_G,  /* gates x H */
    DIM_HD, /* heads x dhead */
    DIM_F,  /* what the head reads: H for the recurrent kinds, E for the others */
    DIM_C   /* the head's outputs: classes, or 1 */
} Dim;

typedef enum {
    INIT_ZERO,
    INIT_EMBEDDING,  /* uniform +-0.05; row 0 zero with freeze_pad */
    INIT_GLOROT,     /* glorot uniform over (rows, cols) */
    INIT_ORTHOGONAL, /* orthogonal (rows, cols) */
    INIT_FORGET      /* zero but the forget gate's H entries, 1 (LSTM unit_forget_bias) */
} Init;

typedef struct {
    PlParam param;
    Dim rows, cols;
    Init init;
} BlockSpec;

/* What runs between the embedding and the dense head. */
typedef enum {
    BODY_RECURRENT, /* lookup fused into the input projection, a scan, a readout */
    BODY_AVGPOOL,   /* lookup fused into average pooling */
    BODY_MAXPOOL,   /* lookup, max pooling */
    BODY_ATTENTION  /* lookup, self-attention, average pooling */
} Body;

/* The recurrent cells' caches beyond the states, as bits. */
enum { CACHE_GATES = 1, CACHE_HU = 2, CACHE_CELL = 4 };

typedef struct ArchSpec ArchSpec;
typedef PlStatus (*BodyForward)(PlModel *m, PlErr *err);
typedef void (*BodyBackward)(PlModel *m);
/* A recurrent cell's scan over (T,B) and its backward (see rnn_scan). */
typedef void (*ScanFn)(PlModel *m, float *h, const PlScanIn *in, const uint8_t *mask, const int *nact, int T, int B);
typedef void (*ScanBackwardFn)(PlModel *m, const float *h, const uint8_t *mask, const int *nact, int T, int B);

struct ArchSpec {
    const char *name;
    Body body;
    BodyForward forward;   /* ids and mask to the features the head reads */
    BodyBackward backward; /* the head's input gradient into the parameters' */
    ScanFn scan;           /* recurrent: the cell */
    ScanBackwardFn scan_backward;
    int gates;                        /* recurrent: gate blocks per unit (SimpleRNN 1, GRU 3, LSTM 4); 0 otherwise */
    int caches;                       /* recurrent: CACHE_* bits */
    BlockSpec blocks[PL_P_COUNT + 1]; /* in layout order, ended by rows DIM_NONE */
};

static PlStatus recurrent_forward(PlModel *m, PlErr *err);
static void recurrent_backward(PlModel *m);
static PlStatus avgpool_forward(PlModel *m, PlErr *err);
static void avgpool_backward(PlModel *m);
static PlStatus maxpool_forward(PlModel *m, PlErr *err);
static void maxpool_backward(PlModel *m);
static PlStatus attention_forward(PlModel *m, PlErr *err);
static void attention_backward(PlModel *m);
static void rnn_scan(PlModel *m, float *h, const PlScanIn *in, const uint8_t *mask, const int *nact, int T, int B);
static void rnn_scan_backward(PlModel *m, const float *h, const uint8_t *mask, const int *nact, int T, int B);
static void gru_scan(PlModel *m, float *h, const PlScanIn *in, const uint8_t *mask, const int *nact, int T, int B);
static void gru_scan_backward(PlModel *m, const float *h, const uint8_t *mask, const int *nact, int T, int B);
static void lstm_scan(PlModel *m, float *h, const PlScanIn *in, const uint8_t *mask, const int *nact, int T, int B);
static void lstm_scan_backward(PlModel *m, const float *h, const uint8_t *mask, const int *nact, int T, int B);

/* A kind's blocks, as the rows below name them (initialiser lists in
 * macros, which clang-format would take for code blocks). */
/* clang-format off */
#define EMBED {PL_P_EMBEDDING, DIM_V, DIM_E, INIT_EMBEDDING}
#define CELL(bias_rows, bias_init) \
    {PL_P_KERNEL, DIM_E, DIM_G, INIT_GLOROT}, {PL_P_RECURRENT, DIM_H, DIM_G, INIT_ORTHOGONAL}, \
    {PL_P_BIAS, bias_rows, DIM_G, bias_init}
#define ATTN \
    {PL_P_WQ, DIM_E, DIM_HD, INIT_GLOROT}, {PL_P_WK, DIM_E, DIM_HD, INIT_GLOROT}, \
    {PL_P_WV, DIM_E, DIM_HD, INIT_GLOROT}, {PL_P_WO, DIM_HD, DIM_E, INIT_GLOROT}
#define HEAD {PL_P_DENSE_W, DIM_F, DIM_C, INIT_GLOROT}, {PL_P_DENSE_B, DIM_1, DIM_C, INIT_ZERO}
/* clang-format on */
#define RECURRENT(cell, gates, caches) \
    BODY_RECURRENT, recurrent_forward, recurrent_backward, cell##_scan, cell##_scan_backward, gates, caches
#define POOLED(body, fn) body, fn##_forward, fn##_backward, NULL, NULL, 0, 0

static const ArchSpec arch_specs[PL_ARCH_COUNT] = {
    /* Embedding(V,E) -> SimpleRNN / GRU / LSTM (H) -> readout -> Dense(C); the
     * GRU's bias is (2, 3H): input bias, then recurrent bias (reset_after) */
    [PL_ARCH_RNN] = {"rnn", RECURRENT(rnn, 1, 0), {EMBED, CELL(DIM_1, INIT_ZERO), HEAD}},
    [PL_ARCH_GRU] = {"gru", RECURRENT(gru, 3, CACHE_GATES | CACHE_HU), {EMBED, CELL(DIM_2, INIT_ZERO), HEAD}},
    [PL_ARCH_LSTM] = {"lstm", RECURRENT(lstm, 4, CACHE_GATES | CACHE_CELL), {EMBED, CELL(DIM_1, INIT_FORGET), HEAD}},
    /* Embedding(V,E) -> global average / max pooling -> Dense(1) */
    [PL_ARCH_AVGPOOL] = {"avgpool", POOLED(BODY_AVGPOOL, avgpool), {EMBED, HEAD}},
    [PL_ARCH_MAXPOOL] = {"maxpool", POOLED(BODY_MAXPOOL, maxpool), {EMBED, HEAD}},
    /* Embedding(V,E) -> self-attention(heads x dhead) -> mean -> Dense(1) */
    [PL_ARCH_ATTENTION] = {"attention", POOLED(BODY_ATTENTION, attention), {EMBED, ATTN, HEAD}},
};

static const ArchSpec *spec_of(const PlModelConfig *c) { return &arch_specs[c->arch]; }

static int feature_width(const PlModelConfig *c) { return spec_of(c)->body == BODY_RECURRENT ? c->hidden : c->embed; }

static size_t dim_size(Dim d, const PlModelConfig *c) {
    switch (d) {
    case DIM_NONE: return 0;
    case DIM_1: return 1;
    case DIM_2: return 2;
    case DIM_V: return (size_t)c->vocab;
    case DIM_E: return (size_t)c->embed;
    case DIM_H: return (size_t)c->hidden;
    case DIM_G: return (size_t)spec_of(c)->gates * (size_t)c->hidden;
    case DIM_HD: return (size_t)c->heads * (size_t)c->dhead;
    case DIM_F: return (size_t)feature_width(c);
    case DIM_C: return c->classes > 0 ? (size_t)c->classes : 1;
    }
    return 0;
}

const char *pl_arch_name(PlArch a) { return arch_specs[a].name; }

int pl_arch_parse(const char *s, PlArch *out) {
    int i = PL_ROW_FIND(arch_specs, PL_ARCH_COUNT, s);
    if (i < 0) return -1;
    *out = (PlArch)i;
    return 0;
}

int pl_arch_recurrent(PlArch a) { return a >= 0 && a < PL_ARCH_COUNT && arch_specs[a].body == BODY_RECURRENT; }

PlModelConfig pl_model_config_default(PlArch arch) {
    PlModelConfig c = {0};
    c.arch = arch;
    c.vocab = PL_DEFAULT_NUM_WORDS;
    c.embed = PL_DEFAULT_WIDTH;
    c.hidden = PL_DEFAULT_WIDTH;
    c.mask = PL_SEQ_NONE;
    c.pool = PL_POOL_UNMASKED;
    c.readout = PL_READ_LAST_POS;
    c.heads = 2;
    c.dhead = 16;
    return c;
}

/* ---- the model -------------------------------------------------------------- */

/* Activations of one forward, carved from one allocation for (B,T). */
typedef struct {
    float *x;                 /* (T,B,E) embedded input (not the fused kinds: see PlIdTable) */
    float *pre;               /* (T,B,G) packed models: the projected input before packing */
    float *h, *hs;            /* (T,B,H) states; the packed states */
    float *g, *hu, *c;        /* gate caches (T,B,G), (T,B,G), (T,B,H) */
    float *y;                 /* (T,B,E) attention output */
    float *q, *k, *v, *o, *p; /* attention caches */
    float *feat, *dfeat, *logits;
    float *dx, *dh, *da, *dhu, *dc, *dy, *scratch;
    float *ut; /* (H,G) the recurrent weights transposed, for the backward */
    int *arg; /* (B,F) max pooling winners */
} Acts;

struct PlModel {
    PlModelConfig cfg;
    const ArchSpec *spec;
    size_t off[PL_P_COUNT], size[PL_P_COUNT]; /* each block in the flat arrays; size 0: absent */
    float *param[PL_P_COUNT], *grad[PL_P_COUNT];
    size_t nparams;
    float *params, *grads, *m1, *m2;
    int grads_zero; /* the gradients are all zero (cleared by an update) */
    PlOptim opt;
    int B, T;                /* shape of the last forward */
    int32_t *ids;            /* (B,T) copy of the last input */
    uint8_t *mask, *mask_tm; /* (B,T) and time-major (T,B) */
    PlPack pack;
    PlIdTable tab; /* recurrent models: the batch's distinct ids */
    size_t cap_floats, cap_cells;
    float *act;
    Acts a;
};

/* The size table: every block of the kind's row, in order, into off and
 * size (either may be NULL). Returns the number of parameters, or 0 when it
 * would overflow. */
static size_t lay_out(const PlModelConfig *c, size_t *off, size_t *size) {
    const ArchSpec *sp = spec_of(c);
    size_t n = 0;
    for (const BlockSpec *b = sp->blocks; b->rows != DIM_NONE; b++) {
        size_t k;
        if (off) off[b->param] = n;
        if (pl_size_mul(dim_size(b->rows, c), dim_size(b->cols, c), &k) || pl_size_add(n, k, &n)) return 0;
        if (size) size[b->param] = k;
    }
    return n;
}

/* Points every present block into the flat parameter and gradient arrays. */
static void carve_params(PlModel *m) {
    for (int p = 0; p < PL_P_COUNT; p++) {
        m->param[p] = m->size[p] ? m->params + m->off[p] : NULL;
        m->grad[p] = m->size[p] ? m->grads + m->off[p] : NULL;
    }
}

/* Keras's initialisers, block by block in table order (the order the seed's
 * draws are taken in). */
static PlStatus init_params(PlModel *m, PlSeed seed) {
    const PlModelConfig *c = &m->cfg;
    PlRng rng;
    pl_rng_seed(&rng, seed);
    for (const BlockSpec *b = m->spec->blocks; b->rows != DIM_NONE; b++) {
        float *w = m->param[b->param];
        int rows = (int)dim_size(b->rows, c), cols = (int)dim_size(b->cols, c);
        switch (b->init) {
        case INIT_ZERO: break;
        case INIT_EMBEDDING:
            pl_init_uniform(w, m->size[b->param], -0.05f, 0.05f, &rng);
            if (c->freeze_pad) memset(w, 0, (size_t)cols * sizeof(float));
            break;
        case INIT_GLOROT: pl_init_glorot(w, rows, cols, &rng); break;
        case INIT_ORTHOGONAL:
            if (pl_init_orthogonal(w, rows, cols, &rng)) return PL_ENOMEM;
            break;
        case INIT_FORGET:
            for (int j = 0; j < c->hidden; j++) w[c->hidden + j] = 1.0f;
            break;
        }
    }
    return PL_OK;
}

static PlStatus check_config(const PlModelConfig *c, PlErr *err) {
    if (c->arch < 0 || c->arch >= PL_ARCH_COUNT) return pl_err_set(err, PL_ERANGE, "unknown model kind");
    if (c->vocab < 4 || c->vocab > 10000000)
        return pl_err_set(err, PL_ERANGE, "vocabulary must be 4 to 10000000 ids, got %d", c->vocab);
    if (c->embed < 1 || c->embed > 4096 || c->hidden < 1 || c->hidden > 4096)
        return pl_err_set(err, PL_ERANGE, "embedding and hidden widths must be 1 to 4096");
    if ((size_t)c->vocab * (size_t)c->embed > ((size_t)1 << 27))
        return pl_err_set(err, PL_ERANGE, "a %d x %d embedding is too large", c->vocab, c->embed);
    size_t hd;
    if (spec_of(c)->body == BODY_ATTENTION &&
        (c->heads < 1 || c->dhead < 1 || pl_size_mul((size_t)c->heads, (size_t)c->dhead, &hd) || hd > 4096))
        return pl_err_set(err, PL_ERANGE, "attention needs heads >= 1, dhead >= 1 and heads x dhead up to 4096");
    if (c->mask < PL_SEQ_NONE || c->mask > PL_SEQ_PACKED || c->pool < PL_POOL_UNMASKED || c->pool > PL_POOL_DIV_T ||
        c->readout < PL_READ_LAST_POS || c->readout > PL_READ_LAST_REAL)
        return pl_err_set(err, PL_ERANGE, "unknown mask, pooling or readout mode");
    if (c->classes < 0 || c->classes > 65536 ||
        (c->classes > 0 && (!pl_arch_recurrent(c->arch) || c->mask == PL_SEQ_PACKED)))
        return pl_err_set(err, PL_ERANGE,
                          "a token-level head needs an unpacked recurrent model and 1 to 65536 classes");
    return PL_OK;
}

PlStatus pl_model_config_check(const PlModelConfig *cfg, size_t *nparams, PlErr *err) {
    *nparams = 0;
    PlStatus st = check_config(cfg, err);
    if (st) return st;
    size_t n = lay_out(cfg, NULL, NULL), bytes;
    /* Four arrays of n floats (parameters, gradients, two moments). */
    if (!n || pl_size_mul3(n, 4, sizeof(float), &bytes))
        return pl_err_set(err, PL_ERANGE, "the model's parameter count overflows");
    *nparams = n;
    return PL_OK;
}

/* A model of cfg with its arrays allocated and zeroed; init says whether its
 * parameters are then drawn from seed. */
static PlStatus model_make(const PlModelConfig *cfg, int init, PlSeed seed, PlModel **out, PlErr *err) {
    *out = NULL;
    size_t nparams;
    PlStatus st = pl_model_config_check(cfg, &nparams, err);
    if (st) return st;
    PlModel *m = calloc(1, sizeof *m);
    if (!m) return pl_err_set(err, PL_ENOMEM, "out of memory while building a model");
    m->cfg = *cfg;
    m->spec = spec_of(cfg);
    m->nparams = lay_out(cfg, m->off, m->size);
    m->params = calloc(m->nparams, sizeof(float));
    m->grads = calloc(m->nparams, sizeof(float));
    m->m1 = calloc(m->nparams, sizeof(float));
    m->m2 = calloc(m->nparams, sizeof(float));
    if (m->params && m->grads) carve_params(m);
    if (!m->params || !m->grads || !m->m1 || !m->m2 || (init && init_params(m, seed))) {
        size_t n = m->nparams; /* read before the model is gone */
        pl_model_free(m);
        return pl_err_set(err, PL_ENOMEM, "out of memory while allocating %zu parameters", n);
    }
    if (m->spec->body == BODY_RECURRENT && pl_idtable_init(&m->tab, cfg->vocab)) {
        pl_model_free(m);
        return pl_err_set(err, PL_ENOMEM, "out of memory while building a model");
    }
    pl_optim_init(&m->opt, PL_OPT_ADAM);
    if (pl_blas_init(err)) {
        pl_model_free(m);
        return PL_ENOMEM;
    }
    *out = m;
    return PL_OK;
}

PlStatus pl_model_new(const PlModelConfig *cfg, PlSeed seed, PlModel **out, PlErr *err) {
    return model_make(cfg, 1, seed, out, err);
}

PlStatus pl_model_new_zero(const PlModelConfig *cfg, PlModel **out, PlErr *err) {
    return model_make(cfg, 0, 0, out, err);
}

PlStatus pl_model_copy(const PlModel *src, const PlModelConfig *cfg, PlModel **out, PlErr *err) {
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
const float *pl_model_params_view(const PlModel *m) { return m->params; }
const float *pl_model_grads(const PlModel *m) { return m->grads; }
PlOptim *pl_model_optim(PlModel *m) { return &m->opt; }
const float *pl_model_logits(const PlModel *m) { return m->a.logits; }
const float *pl_model_states(const PlModel *m) { return m->a.h; }
const float *pl_model_features(const PlModel *m) { return m->a.feat; }
int pl_model_feature_width(const PlModel *m) { return feature_width(&m->cfg); }

float *pl_model_param(PlModel *m, PlParam p, size_t *n) {
    if (n) *n = m->size[p];
    return m->param[p];
}

const float *pl_model_param_view(const PlModel *m, PlParam p, size_t *n) {
    if (n) *n = m->size[p];
    return m->param[p];
}

void pl_model_zero_grad(PlModel *m) {
    if (!m->grads_zero) memset(m->grads, 0, m->nparams * sizeof *m->grads);
    m->grads_zero = 1;
}

/* ---- activations ------------------------------------------------------------ */

/* Assigns every activation pointer for a (B,T) forward from base (NULL: only
 * count) and returns the floats needed. */
static size_t carve(Acts *a, float *base, const PlModelConfig *c, int B, int T) {
    const ArchSpec *sp = spec_of(c);
    size_t off = 0, cells = (size_t)B * T, E = (size_t)c->embed, H = (size_t)c->hidden;
    size_t G = dim_size(DIM_G, c), F = (size_t)feature_width(c), HD = dim_size(DIM_HD, c);
    int rec = sp->body == BODY_RECURRENT, packed = rec && c->mask == PL_SEQ_PACKED;
    int attn = sp->body == BODY_ATTENTION;
#define TAKE(ptr, n)                       \
    do {                                   \
        a->ptr = base ? base + off : NULL; \
        off += (n);                        \
    } while (0)
    /* The pooling and recurrent models fuse the lookup into their first layer. */
    int fused = rec || sp->body == BODY_AVGPOOL;
    TAKE(x, fused ? 0 : cells * E);
    TAKE(dx, fused ? 0 : cells * E);
    TAKE(pre, packed ? cells * G : 0);
    TAKE(h, rec ? cells * H : 0);
    TAKE(hs, packed ? cells * H : 0);
    TAKE(dh, rec ? cells * H : 0);
    TAKE(g, sp->caches & CACHE_GATES ? cells * G : 0);
    TAKE(hu, sp->caches & CACHE_HU ? cells * H + (size_t)B * G : 0); /* nn.h: the cache, then a step's scratch */
    TAKE(dhu, sp->caches & CACHE_HU ? (size_t)B * G : 0);            /* one step's, reused */
    TAKE(da, rec ? cells * G : 0);
    TAKE(ut, rec ? H * G : 0);
    TAKE(c, sp->caches & CACHE_CELL ? cells * H : 0);
    TAKE(dc, sp->caches & CACHE_CELL ? (size_t)B * H : 0);
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

uint64_t pl_model_batch_bytes(const PlModelConfig *cfg, int B, int T) {
    Acts a;
    memset(&a, 0, sizeof a);
    uint64_t cells = (uint64_t)B * (uint64_t)T, F = (uint64_t)feature_width(cfg);
    uint64_t n = cells > (uint64_t)B * F ? cells : (uint64_t)B * F; /* ids, two masks and the argmax */
    return (uint64_t)carve(&a, NULL, cfg, B, T) * sizeof(float) + n * (sizeof(int32_t) + 2 + sizeof(int));
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

/* ---- the recurrent body ----------------------------------------------------- */

/* The cells' scans: the recurrence over (T,B) into states h, the projected
 * input already in h (SimpleRNN) or in the gate cache (GRU, LSTM); and back
 * through it, dh in, the projected input's gradient in da. */
static void rnn_scan(PlModel *m, float *h, const PlScanIn *in, const uint8_t *mask, const int *nact, int T, int B) {
    pl_rnn_scan(h, in, mask, nact, m->param[PL_P_RECURRENT], T, B, m->cfg.hidden);
}

static void rnn_scan_backward(PlModel *m, const float *h, const uint8_t *mask, const int *nact, int T, int B) {
    pl_rnn_scan_backward(m->grad[PL_P_RECURRENT], m->a.dh, m->a.da, h, mask, nact, m->param[PL_P_RECURRENT], T, B,
                         m->cfg.hidden, m->a.ut);
}

static void gru_scan(PlModel *m, float *h, const PlScanIn *in, const uint8_t *mask, const int *nact, int T, int B) {
    int H = m->cfg.hidden;
    pl_gru_scan(h, m->a.g, m->a.hu, in, mask, nact, m->param[PL_P_RECURRENT], m->param[PL_P_BIAS] + 3 * H, T, B, H);
}

static void gru_scan_backward(PlModel *m, const float *h, const uint8_t *mask, const int *nact, int T, int B) {
    int H = m->cfg.hidden;
    Acts *a = &m->a;
    pl_gru_scan_backward(m->grad[PL_P_RECURRENT], m->grad[PL_P_BIAS] + 3 * H, a->dh, a->da, a->dhu, h, a->g, a->hu,
                         mask, nact, m->param[PL_P_RECURRENT], T, B, H, a->ut);
}

static void lstm_scan(PlModel *m, float *h, const PlScanIn *in, const uint8_t *mask, const int *nact, int T, int B) {
    pl_lstm_scan(h, m->a.c, m->a.g, in, mask, nact, m->param[PL_P_RECURRENT], T, B, m->cfg.hidden);
}

static void lstm_scan_backward(PlModel *m, const float *h, const uint8_t *mask, const int *nact, int T, int B) {
    Acts *a = &m->a;
    pl_lstm_scan_backward(m->grad[PL_P_RECURRENT], a->dh, a->da, a->dc, h, a->c, a->g, mask, nact,
                          m->param[PL_P_RECURRENT], T, B, m->cfg.hidden, a->ut);
}

/* Where the projected input goes: the states (SimpleRNN) or the gate cache. */
static float *scan_input(PlModel *m, float *states) { return m->spec->caches & CACHE_GATES ? m->a.g : states; }

static PlStatus project(PlModel *m, float *out, PlErr *err) {
    int G = (int)dim_size(DIM_G, &m->cfg);
    if (pl_embed_project_forward(out, &m->tab, m->ids, m->param[PL_P_EMBEDDING], m->param[PL_P_KERNEL],
                                 m->param[PL_P_BIAS], m->B, m->T, m->cfg.embed, G))
        return pl_err_set(err, PL_ENOMEM, "out of memory projecting a batch");
    return PL_OK;
}

static void project_backward(PlModel *m, const float *da) {
    pl_embed_project_backward(m->grad[PL_P_EMBEDDING], m->grad[PL_P_KERNEL], m->grad[PL_P_BIAS], &m->tab, da,
                              m->param[PL_P_KERNEL], m->B, m->T, m->cfg.embed, (int)dim_size(DIM_G, &m->cfg),
                              m->cfg.freeze_pad);
}

/* Time of the state the readout takes for row b, or -1 for none. */
static int readout_step(const PlModel *m, int b) {
    int T = m->T;
    if (m->cfg.readout == PL_READ_LAST_POS) return T - 1;
    for (int t = T - 1; t >= 0; t--)
        if (m->mask[(size_t)b * T + t]) return t;
    return -1;
}

/* The mask the scan honours: Keras carries the state over masked steps. */
static const uint8_t *scan_mask(const PlModel *m) { return m->cfg.mask == PL_SEQ_KERAS ? m->mask_tm : NULL; }

/* States h (T,B,H), then (a classifier) the readout into feat (B,H). */
static PlStatus recurrent_forward(PlModel *m, PlErr *err) {
    int B = m->B, T = m->T, H = m->cfg.hidden;
    Acts *a = &m->a;
    int G = (int)dim_size(DIM_G, &m->cfg);
    PlStatus st;
    if (m->cfg.mask == PL_SEQ_PACKED) {
        pl_pack_done(&m->pack);
        if (pl_pack_init(&m->pack, m->mask, B, T)) return pl_err_set(err, PL_ENOMEM, "out of memory packing a batch");
        const PlPack *pk = &m->pack;
        if ((st = project(m, a->pre, err))) return st;
        pl_pack_gather(scan_input(m, a->hs), a->pre, pk, G);
        m->spec->scan(m, a->hs, NULL, NULL, pk->nact, pk->K, B);
        pl_pack_scatter(a->h, a->hs, pk, H);
        for (int i = 0; i < B; i++) {
            float *f = a->feat + (size_t)pk->perm[i] * H;
            if (pk->len[i]) memcpy(f, a->hs + ((size_t)(pk->len[i] - 1) * B + i) * H, (size_t)H * sizeof *f);
            else memset(f, 0, (size_t)H * sizeof *f);
        }
        return PL_OK;
    }
    /* the projected rows are copied in step by step, as the scan reaches them */
    if ((st = project(m, NULL, err))) return st;
    PlScanIn in = {m->tab.acc, m->tab.cell};
    m->spec->scan(m, a->h, &in, scan_mask(m), NULL, T, B);
    if (m->cfg.classes > 0) return PL_OK; /* the token head reads every state */
    for (int b = 0; b < B; b++) {
        int t = readout_step(m, b);
        float *f = a->feat + (size_t)b * H;
        if (t >= 0) memcpy(f, a->h + ((size_t)t * B + b) * H, (size_t)H * sizeof *f);
        else memset(f, 0, (size_t)H * sizeof *f);
    }
    return PL_OK;
}

/* From the head's gradient (dfeat, or dh for a token head) into the cell's
 * and the embedding's gradients. */
static void recurrent_backward(PlModel *m) {
    int B = m->B, T = m->T, H = m->cfg.hidden;
    Acts *a = &m->a;
    if (m->cfg.classes > 0) {
        m->spec->scan_backward(m, a->h, scan_mask(m), NULL, T, B);
        project_backward(m, a->da);
        return;
    }
    memset(a->dh, 0, (size_t)T * B * H * sizeof *a->dh);
    if (m->cfg.mask == PL_SEQ_PACKED) {
        const PlPack *pk = &m->pack;
        for (int i = 0; i < B; i++)
            if (pk->len[i])
                memcpy(a->dh + ((size_t)(pk->len[i] - 1) * B + i) * H, a->dfeat + (size_t)pk->perm[i] * H,
                       (size_t)H * sizeof *a->dh);
        m->spec->scan_backward(m, a->hs, NULL, pk->nact, pk->K, B);
        pl_pack_scatter(a->pre, a->da, pk, (int)dim_size(DIM_G, &m->cfg));
        project_backward(m, a->pre);
        return;
    }
    for (int b = 0; b < B; b++) {
        int t = readout_step(m, b);
        if (t >= 0) memcpy(a->dh + ((size_t)t * B + b) * H, a->dfeat + (size_t)b * H, (size_t)H * sizeof *a->dh);
    }
    m->spec->scan_backward(m, a->h, scan_mask(m), NULL, T, B);
    project_backward(m, a->da);
}

/* ---- the pooling and attention bodies ---------------------------------------- */

/* How pads count in the pooling: attention's mean follows its mask. */
static PlPoolMask pool_mode(const PlModel *m) {
    if (m->spec->body == BODY_ATTENTION) return m->cfg.mask == PL_SEQ_NONE ? PL_POOL_UNMASKED : PL_POOL_MASKED;
    return m->cfg.pool;
}

static PlAttnShape attn_shape(const PlModel *m) {
    const PlModelConfig *c = &m->cfg;
    return (PlAttnShape){m->T, m->B, c->embed, c->heads, c->dhead, c->causal, c->mask == PL_SEQ_NONE ? NULL : m->mask};
}

/* feat (B,E) = the embeddings' mean, the lookup fused into the pooling. */
static PlStatus avgpool_forward(PlModel *m, PlErr *err) {
    (void)err;
    pl_embed_avgpool_forward(m->a.feat, m->ids, m->mask, pool_mode(m), m->param[PL_P_EMBEDDING], m->B, m->T,
                             m->cfg.embed);
    return PL_OK;
}

static void avgpool_backward(PlModel *m) {
    pl_embed_avgpool_backward(m->grad[PL_P_EMBEDDING], m->a.dfeat, m->ids, m->mask, pool_mode(m), m->B, m->T,
                              m->cfg.embed, m->cfg.freeze_pad);
}

/* x (T,B,E) looked up, feat (B,E) its maximum over time. */
static PlStatus maxpool_forward(PlModel *m, PlErr *err) {
    (void)err;
    Acts *a = &m->a;
    pl_embedding_forward(a->x, m->ids, m->param[PL_P_EMBEDDING], m->B, m->T, m->cfg.embed);
    pl_maxpool_forward(a->feat, a->arg, a->x, m->mask, pool_mode(m), m->T, m->B, m->cfg.embed);
    return PL_OK;
}

static void maxpool_backward(PlModel *m) {
    Acts *a = &m->a;
    pl_maxpool_backward(a->dx, a->dfeat, a->arg, m->T, m->B, m->cfg.embed);
    pl_embedding_backward(m->grad[PL_P_EMBEDDING], a->dx, m->ids, m->B, m->T, m->cfg.embed, m->cfg.freeze_pad);
}

/* x (T,B,E) looked up, y (T,B,E) its self-attention, feat (B,E) the mean of y. */
static PlStatus attention_forward(PlModel *m, PlErr *err) {
    (void)err;
    Acts *a = &m->a;
    float *const *w = m->param;
    PlAttnShape s = attn_shape(m);
    pl_embedding_forward(a->x, m->ids, w[PL_P_EMBEDDING], m->B, m->T, m->cfg.embed);
    pl_attention_forward(a->y, a->q, a->k, a->v, a->p, a->o, a->x, w[PL_P_WQ], w[PL_P_WK], w[PL_P_WV], w[PL_P_WO], &s);
    pl_avgpool_forward(a->feat, a->y, m->mask, pool_mode(m), m->T, m->B, m->cfg.embed);
    return PL_OK;
}

static void attention_backward(PlModel *m) {
    Acts *a = &m->a;
    float *const *w = m->param, *const *dw = m->grad;
    PlAttnShape s = attn_shape(m);
    pl_avgpool_backward(a->dy, a->dfeat, m->mask, pool_mode(m), m->T, m->B, m->cfg.embed);
    pl_attention_backward(a->dx, dw[PL_P_WQ], dw[PL_P_WK], dw[PL_P_WV], dw[PL_P_WO], a->scratch, a->dy, a->q, a->k,
                          a->v, a->p, a->o, a->x, w[PL_P_WQ], w[PL_P_WK], w[PL_P_WV], w[PL_P_WO], &s);
    pl_embedding_backward(dw[PL_P_EMBEDDING], a->dx, m->ids, m->B, m->T, m->cfg.embed, m->cfg.freeze_pad);
}

/* ---- forward and backward --------------------------------------------------- */

/* What the dense head reads: every state (T*B rows) for a token head, else
 * the body's features (B rows). */
static int head_rows(const PlModel *m) { return m->cfg.classes > 0 ? m->T * m->B : m->B; }
static float *head_input(PlModel *m) { return m->cfg.classes > 0 ? m->a.h : m->a.feat; }

/* The forward pass of a checked batch, the activations already sized. */
static PlStatus forward_batch(PlModel *m, const int32_t *ids, const uint8_t *mask, int B, int T, PlErr *err) {
    m->B = B;
    m->T = T;
    memcpy(m->ids, ids, (size_t)B * T * sizeof *ids);
    memcpy(m->mask, mask, (size_t)B * T);
    for (int t = 0; t < T; t++)
        for (int b = 0; b < B; b++) m->mask_tm[(size_t)t * B + b] = mask[(size_t)b * T + t];
    PlStatus st = m->spec->forward(m, err);
    if (st) return st;
    pl_dense_forward(m->a.logits, head_input(m), m->param[PL_P_DENSE_W], m->param[PL_P_DENSE_B], head_rows(m),
                     feature_width(&m->cfg), (int)dim_size(DIM_C, &m->cfg));
    return PL_OK;
}

PlStatus pl_model_forward(PlModel *m, const int32_t *ids, const uint8_t *mask, int B, int T, PlErr *err) {
    if (B < 1 || T < 1) return pl_err_set(err, PL_ERANGE, "a batch needs at least one row and one step");
    for (size_t i = 0; i < (size_t)B * T; i++)
        if (ids[i] < 0 || ids[i] >= m->cfg.vocab)
            return pl_err_set(err, PL_ERANGE, "token id %d is outside the model's vocabulary (%d)", ids[i],
                              m->cfg.vocab);
    PlStatus st = ensure_acts(m, B, T, err);
    if (st) return st;
    unsigned fp = pl_fp_flush_begin();
    st = forward_batch(m, ids, mask, B, T, err);
    pl_fp_flush_end(fp);
    return st;
}

void pl_model_backward(PlModel *m, const float *dlogits) {
    Acts *a = &m->a;
    float *dhead = m->cfg.classes > 0 ? a->dh : a->dfeat;
    m->grads_zero = 0;
    unsigned fp = pl_fp_flush_begin();
    pl_dense_backward(dhead, m->grad[PL_P_DENSE_W], m->grad[PL_P_DENSE_B], dlogits, head_input(m),
                      m->param[PL_P_DENSE_W], head_rows(m), feature_width(&m->cfg), (int)dim_size(DIM_C, &m->cfg));
    m->spec->backward(m);
    pl_fp_flush_end(fp);
}

void pl_model_update(PlModel *m) {
    pl_optim_begin(&m->opt);
    unsigned fp = pl_fp_flush_begin();
    pl_optim_step(&m->opt, m->params, m->grads, m->m1, m->m2, m->nparams);
    pl_fp_flush_end(fp);
    m->grads_zero = 1;
}
