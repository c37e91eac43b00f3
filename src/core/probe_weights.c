#include "probe_weights.h"

#include <string.h>

PlStatus pl_probe_check_vocab(int vocab, const PlCorpus *c, PlErr *err) {
    if (vocab >= c->num_words) return PL_OK;
    return pl_err_set(err, PL_ERANGE, "the model knows %d ids but the corpus keeps %d (use --num-words %d)", vocab,
                      c->num_words, vocab);
}

PlStatus pl_probe_fresh_model(PlArch arch, const PlCorpus *c, PlSeed seed, PlModel **out, PlErr *err) {
    PlModelConfig cfg = pl_model_config_default(arch);
    cfg.vocab = c->num_words;
    return pl_model_new(&cfg, seed, out, err);
}

PlStatus pl_attn_weights_init(PlAttnWeights *w, const PlCorpus *c, const PlModel *model, int heads, int dhead,
                              PlSeed seed, PlErr *err) {
    memset(w, 0, sizeof *w);
    PlModelConfig cfg = pl_model_config_default(PL_ARCH_ATTENTION);
    cfg.vocab = c->num_words;
    cfg.heads = heads;
    cfg.dhead = dhead;
    if (model) {
        const PlModelConfig *mc = pl_model_config(model);
        cfg.vocab = mc->vocab;
        cfg.embed = mc->embed;
        if (mc->arch == PL_ARCH_ATTENTION) cfg.heads = mc->heads, cfg.dhead = mc->dhead;
    }
    PlStatus st = pl_probe_check_vocab(cfg.vocab, c, err);
    if (!st) st = pl_model_new(&cfg, seed, &w->own, err);
    if (st) return st;
    const PlModel *src = model ? model : w->own;
    const PlModel *att = model && pl_model_config(model)->arch == PL_ARCH_ATTENTION ? model : w->own;
    w->emb = pl_model_param_view(src, PL_P_EMBEDDING, NULL);
    w->wq = pl_model_param_view(att, PL_P_WQ, NULL);
    w->wk = pl_model_param_view(att, PL_P_WK, NULL);
    w->wv = pl_model_param_view(att, PL_P_WV, NULL);
    w->wo = pl_model_param_view(att, PL_P_WO, NULL);
    w->V = cfg.vocab, w->E = cfg.embed, w->NH = cfg.heads, w->D = cfg.dhead;
    return PL_OK;
}

void pl_attn_weights_done(PlAttnWeights *w) {
    if (!w) return;
    pl_model_free(w->own);
    memset(w, 0, sizeof *w);
}
