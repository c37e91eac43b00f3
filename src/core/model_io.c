/* Model files: a header that names the architecture, then the parameters.
 *
 * Layout, all integers little-endian:
 *   0   8 bytes  magic "PADLABMD"
 *   8   u32      format version (1)
 *   12  u32      number of config fields that follow (12)
 *   16  i32 x 12 arch, vocab, embed, hidden, mask, pool, readout, heads,
 *                dhead, causal, freeze_pad, classes
 *   64  u64      number of parameters n
 *   72  f32 x n  the parameters, block by block in the model's size table
 *   ..  u64      FNV-1a hash of the parameter bytes */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic.h"
#include "infile.h"
#include "model.h"
#include "rng.h"
#include "size.h"

#define MAGIC "PADLABMD"
#define FORMAT_VERSION 1u
#define NFIELDS 12u

static void put_u32(unsigned char *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static void put_u64(unsigned char *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static uint32_t get_u32(const unsigned char *p) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= (uint32_t)p[i] << (8 * i);
    return v;
}
static uint64_t get_u64(const unsigned char *p) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static void config_fields(const PlModelConfig *c, int32_t *f) {
    int32_t v[NFIELDS] = {c->arch,    c->vocab, c->embed, c->hidden, c->mask,       c->pool,
                          c->readout, c->heads, c->dhead, c->causal, c->freeze_pad, c->classes};
    memcpy(f, v, sizeof v);
}

static PlModelConfig config_of(const int32_t *f) {
    PlModelConfig c = {0};
    c.arch = (PlArch)f[0];
    c.vocab = f[1];
    c.embed = f[2];
    c.hidden = f[3];
    c.mask = (PlSeqMask)f[4];
    c.pool = (PlPoolMask)f[5];
    c.readout = (PlReadout)f[6];
    c.heads = f[7];
    c.dhead = f[8];
    c.causal = f[9];
    c.freeze_pad = f[10];
    c.classes = f[11];
    return c;
}

/* The parameters as little-endian bytes. */
static unsigned char *param_bytes(const float *w, size_t n) {
    unsigned char *b = malloc(n * 4 + 1);
    for (size_t i = 0; b && i < n; i++) {
        uint32_t u;
        memcpy(&u, &w[i], 4);
        put_u32(b + 4 * i, u);
    }
    return b;
}

/* The bytes of a model file, for pl_write_atomic. */
typedef struct {
    const unsigned char *head, *body, *tail;
    size_t nbody;
} ModelBytes;

static int write_model_bytes(FILE *f, void *ctx) {
    const ModelBytes *b = ctx;
    int ok =
        fwrite(b->head, 1, 72, f) == 72 && fwrite(b->body, 1, b->nbody, f) == b->nbody && fwrite(b->tail, 1, 8, f) == 8;
    return ok ? 0 : -1;
}

PlStatus pl_model_save(const PlModel *m, const char *path, PlErr *err) {
    size_t n = pl_model_nparams(m);
    unsigned char head[72];
    int32_t f[NFIELDS];
    memcpy(head, MAGIC, 8);
    put_u32(head + 8, FORMAT_VERSION);
    put_u32(head + 12, NFIELDS);
    config_fields(pl_model_config(m), f);
    for (unsigned i = 0; i < NFIELDS; i++) put_u32(head + 16 + 4 * i, (uint32_t)f[i]);
    put_u64(head + 64, n);
    unsigned char *body = param_bytes(pl_model_params_view(m), n), tail[8];
    if (!body) return pl_err_set(err, PL_ENOMEM, "%s: out of memory", path);
    put_u64(tail, pl_fnv1a(body, n * 4));
    ModelBytes bytes = {head, body, tail, n * 4};
    PlStatus st = pl_write_atomic(path, write_model_bytes, &bytes, err);
    free(body);
    return st;
}

static PlStatus read_all(FILE *fp, unsigned char *buf, size_t n, const char *path, PlErr *err) {
    if (fread(buf, 1, n, fp) != n) return pl_err_set(err, PL_EINPUT, "%s: truncated model file", path);
    return PL_OK;
}

static PlStatus check_header(const unsigned char *head, const char *path, PlModelConfig *c, PlErr *err) {
    if (get_u32(head + 12) != NFIELDS) return pl_err_set(err, PL_EINPUT, "%s: unexpected header size", path);
    int32_t f[NFIELDS];
    for (unsigned i = 0; i < NFIELDS; i++) f[i] = (int32_t)get_u32(head + 16 + 4 * i);
    *c = config_of(f);
    return PL_OK;
}

/* Every header field and the size they imply, before anything is allocated:
 * the parameter count the header states must be the configuration's, and
 * the file exactly as long as the header, those parameters and the hash. */
static PlStatus check_sizes(const unsigned char *head, const PlModelConfig *cfg, uint64_t file_size, const char *path,
                            size_t *n, PlErr *err) {
    PlErr inner;
    if (pl_model_config_check(cfg, n, &inner))
        return pl_err_set(err, PL_EINPUT, "%s: invalid model header: %s", path, inner.msg);
    if (get_u64(head + 64) != *n)
        return pl_err_set(err, PL_EINPUT, "%s: %llu parameters, but the header's model has %zu", path,
                          (unsigned long long)get_u64(head + 64), *n);
    size_t want;
    if (pl_size_mul(*n, 4, &want) || pl_size_add(want, 72 + 8, &want) || file_size != want)
        return pl_err_set(err, PL_EINPUT, "%s: %llu bytes, but its header's %zu parameters make a file of %zu", path,
                          (unsigned long long)file_size, *n, want);
    return PL_OK;
}

PlStatus pl_model_load(const char *path, PlModel **out, PlErr *err) {
    *out = NULL;
    FILE *fp;
    uint64_t file_size;
    PlStatus opened = pl_infile_open(path, 0, &fp, &file_size, err);
    if (opened) return opened;
    unsigned char head[72], tail[8], *body = NULL;
    PlModelConfig cfg;
    PlModel *m = NULL;
    /* Magic and version first, so a file of another version is named as such. */
    PlStatus st = PL_OK;
    if (fread(head, 1, 8, fp) != 8 || memcmp(head, MAGIC, 8) != 0)
        st = pl_err_set(err, PL_EINPUT, "%s: not a padlab model file (bad magic)", path);
    if (!st) st = read_all(fp, head + 8, 4, path, err);
    if (!st && get_u32(head + 8) != FORMAT_VERSION)
        st = pl_err_set(err, PL_EINPUT, "%s: model format version %u, this padlab reads version %u", path,
                        get_u32(head + 8), FORMAT_VERSION);
    if (!st) st = read_all(fp, head + 12, sizeof head - 12, path, err);
    if (!st) st = check_header(head, path, &cfg, err);
    size_t n = 0;
    if (!st) st = check_sizes(head, &cfg, file_size, path, &n, err);
    PlErr inner;
    if (!st && pl_model_new_zero(&cfg, &m, &inner))
        st = pl_err_set(err, PL_ENOMEM, "%s: out of memory while loading: %s", path, inner.msg);
    if (!st && !(body = malloc(n * 4 + 1)))
        st = pl_err_set(err, PL_ENOMEM, "%s: out of memory while reading the parameters", path);
    if (!st) st = read_all(fp, body, n * 4, path, err);
    if (!st) st = read_all(fp, tail, 8, path, err);
    if (!st && get_u64(tail) != pl_fnv1a(body, n * 4))
        st = pl_err_set(err, PL_EINPUT, "%s: checksum mismatch (damaged file)", path);
    if (!st && fgetc(fp) != EOF) st = pl_err_set(err, PL_EINPUT, "%s: trailing bytes after the parameters", path);
    fclose(fp);
    if (!st) {
        float *w = pl_model_params(m);
        for (size_t i = 0; i < n; i++) {
            uint32_t u = get_u32(body + 4 * i);
            memcpy(&w[i], &u, 4);
        }
        *out = m;
    } else {
        pl_model_free(m);
    }
    free(body);
    return st;
}
