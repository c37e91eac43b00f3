/* The part file's format (part.h): written with the JSON writer, read with
 * the JSON reader, every field checked where it is read. */
#include "part.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "app/json.h"
#include "core/infile.h"
#include "out.h"

/* ---- writing ---- */

static void put_real(JsonW *w, const char *key, double v) {
    char buf[48];
    snprintf(buf, sizeof buf, "%a", v);
    json_str(w, key, buf);
}

static void put_floats(JsonW *w, const char *key, const float *v, int n) {
    json_arr(w, key);
    for (int i = 0; i < n; i++) put_real(w, NULL, (double)v[i]);
    json_close(w, ']');
}

static void put_ints(JsonW *w, const char *key, const int *v, int n) {
    json_arr(w, key);
    for (int i = 0; i < n; i++) json_int(w, NULL, v[i]);
    json_close(w, ']');
}

static void put_run(JsonW *w, int index, const PlRun *run) {
    const PlTrainResult *r = &run->res;
    int e = r->epochs_done;
    json_obj(w, NULL);
    json_int(w, "run", index);
    json_int(w, "seed", (int64_t)run->cfg.seed);
    put_real(w, "dilution", run->dilution);
    json_int(w, "epochs_done", e);
    put_floats(w, "train_loss", r->train_loss, e);
    put_floats(w, "train_acc", r->train_acc, e);
    put_floats(w, "val_loss", r->val_loss, e);
    put_floats(w, "val_acc", r->val_acc, e);
    put_real(w, "best_val_acc", (double)r->best_val_acc);
    json_int(w, "best_epoch", r->best_epoch);
    put_real(w, "best_val_loss", (double)r->best_val_loss);
    put_ints(w, "bucket_hi", r->bucket_hi, PL_LEN_BUCKETS);
    put_ints(w, "bucket_n", r->bucket_n, PL_LEN_BUCKETS);
    put_floats(w, "bucket_acc", r->bucket_acc, PL_LEN_BUCKETS);
    json_int(w, "n_train", r->n_train);
    json_int(w, "n_val", r->n_val);
    json_int(w, "steps", r->steps);
    json_int(w, "real_tokens", r->real_tokens);
    put_real(w, "seconds", r->seconds);
    json_arr(w, "epoch_seconds");
    for (int i = 0; i < e; i++) put_real(w, NULL, r->epoch_seconds[i]);
    json_close(w, ']');
    json_close(w, '}');
}

int pl_part_write(FILE *f, const PlPart *p) {
    JsonW w;
    char digest[17];
    snprintf(digest, sizeof digest, "%016" PRIx64, p->corpus_digest);
    json_begin(&w, f);
    json_int(&w, "padlab_part", PL_PART_FORMAT);
    json_str(&w, "padlab", p->padlab);
    json_str(&w, "experiment", p->experiment);
    json_int(&w, "epochs", p->epochs);
    json_int(&w, "maxlen", p->maxlen);
    json_arr(&w, "seeds");
    for (int i = 0; i < p->n_seeds; i++) json_int(&w, NULL, (int64_t)p->seeds[i]);
    json_close(&w, ']');
    json_str(&w, "corpus", p->corpus);
    json_str(&w, "corpus_digest", digest);
    json_obj(&w, "chance");
    json_int(&w, "n_val", p->chance.n_val);
    json_int(&w, "label", p->chance.label);
    json_int(&w, "count", p->chance.count);
    put_real(&w, "share", p->chance.share);
    put_real(&w, "noise", p->chance.noise);
    json_close(&w, '}');
    json_str(&w, "arithmetic", p->arithmetic);
    json_int(&w, "shard", p->shard);
    json_int(&w, "shards", p->shards);
    json_arr(&w, "runs");
    for (int i = 0; i < p->n; i++) put_run(&w, p->index[i], &p->runs[i]);
    json_close(&w, ']');
    json_end(&w);
    return ferror(f);
}

/* ---- reading ---- */

/* Where a field is, for messages: "runs item 3: val_acc". */
typedef struct {
    const char *at; /* "" at the top level */
    PlErr *err;
} Ctx;

static PlStatus bad(const Ctx *c, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static PlStatus bad(const Ctx *c, const char *key, const char *fmt, ...) {
    char what[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return pl_err_set(c->err, PL_EINPUT, "%s%s'%s' %s", c->at, *c->at ? ": " : "", key, what);
}

/* The member key of o, of type t; NULL after a message. */
static const PlJson *member(const Ctx *c, const PlJson *o, const char *key, PlJType t) {
    const PlJson *v = pl_json_get(o, key);
    if (!v) return bad(c, key, "is missing"), NULL;
    if (v->t != t) return bad(c, key, "should be %s, not %s", pl_json_kind(t), pl_json_kind(v->t)), NULL;
    return v;
}

static PlStatus int_of(const Ctx *c, const char *key, const PlJson *v, int64_t lo, int64_t hi, int64_t *out) {
    if (v->t != PL_J_NUM) return bad(c, key, "should hold whole numbers, not %s", pl_json_kind(v->t));
    if (!(v->num >= (double)lo && v->num <= (double)hi) || v->num != floor(v->num))
        return bad(c, key, "should be a whole number from %" PRId64 " to %" PRId64, lo, hi);
    *out = (int64_t)v->num;
    return PL_OK;
}

static PlStatus get_int(const Ctx *c, const PlJson *o, const char *key, int64_t lo, int64_t hi, int64_t *out) {
    const PlJson *v = member(c, o, key, PL_J_NUM);
    return v ? int_of(c, key, v, lo, hi, out) : PL_EINPUT;
}

static PlStatus get_int32(const Ctx *c, const PlJson *o, const char *key, int lo, int hi, int *out) {
    int64_t v = 0;
    PlStatus st = get_int(c, o, key, lo, hi, &v);
    if (!st) *out = (int)v;
    return st;
}

/* A %a string (or any strtod form) read whole. */
static PlStatus real_of(const Ctx *c, const char *key, const PlJson *v, double *out) {
    char *end = NULL;
    if (v->t == PL_J_STR) *out = strtod(v->str, &end);
    if (v->t != PL_J_STR || end == v->str || *end)
        return bad(c, key, "should be a number written as a string in %%a form (\"0x1.8p-1\"), not %s",
                   v->t == PL_J_STR ? "another string" : pl_json_kind(v->t));
    return PL_OK;
}

static PlStatus get_real(const Ctx *c, const PlJson *o, const char *key, double *out) {
    const PlJson *v = pl_json_get(o, key);
    return v ? real_of(c, key, v, out) : bad(c, key, "is missing");
}

static PlStatus get_float(const Ctx *c, const PlJson *o, const char *key, float *out) {
    double d = 0.0;
    PlStatus st = get_real(c, o, key, &d);
    if (!st) *out = (float)d;
    return st;
}

static PlStatus get_text(const Ctx *c, const PlJson *o, const char *key, char *out, size_t cap) {
    const PlJson *v = member(c, o, key, PL_J_STR);
    if (!v) return PL_EINPUT;
    size_t len = strlen(v->str);
    if (len >= cap || memchr(v->str, '\n', len)) return bad(c, key, "should be one line of at most %zu bytes", cap - 1);
    memcpy(out, v->str, len + 1);
    return PL_OK;
}

/* A list of exactly n items. */
static const PlJson *list(const Ctx *c, const PlJson *o, const char *key, int n) {
    const PlJson *v = member(c, o, key, PL_J_ARR);
    if (v && v->n != n) return bad(c, key, "should hold %d item%s, not %d", n, n == 1 ? "" : "s", v->n), NULL;
    return v;
}

static PlStatus get_floats(const Ctx *c, const PlJson *o, const char *key, float *out, int n) {
    const PlJson *v = list(c, o, key, n);
    double d = 0.0;
    for (int i = 0; v && i < n; i++) {
        if (real_of(c, key, &v->items[i], &d)) return PL_EINPUT;
        out[i] = (float)d;
    }
    return v ? PL_OK : PL_EINPUT;
}

static PlStatus get_ints(const Ctx *c, const PlJson *o, const char *key, int *out, int n) {
    const PlJson *v = list(c, o, key, n);
    int64_t x = 0;
    for (int i = 0; v && i < n; i++) {
        if (int_of(c, key, &v->items[i], INT32_MIN, INT32_MAX, &x)) return PL_EINPUT;
        out[i] = (int)x;
    }
    return v ? PL_OK : PL_EINPUT;
}

static PlStatus read_result(const Ctx *c, const PlJson *o, int epochs, PlTrainResult *r) {
    PlStatus st = get_int32(c, o, "epochs_done", epochs, epochs, &r->epochs_done);
    int e = r->epochs_done;
    double secs = 0.0;
    const PlJson *es = NULL;
    if (!st) st = get_floats(c, o, "train_loss", r->train_loss, e);
    if (!st) st = get_floats(c, o, "train_acc", r->train_acc, e);
    if (!st) st = get_floats(c, o, "val_loss", r->val_loss, e);
    if (!st) st = get_floats(c, o, "val_acc", r->val_acc, e);
    if (!st) st = get_float(c, o, "best_val_acc", &r->best_val_acc);
    if (!st) st = get_int32(c, o, "best_epoch", 0, e, &r->best_epoch);
    if (!st) st = get_float(c, o, "best_val_loss", &r->best_val_loss);
    if (!st) st = get_ints(c, o, "bucket_hi", r->bucket_hi, PL_LEN_BUCKETS);
    if (!st) st = get_ints(c, o, "bucket_n", r->bucket_n, PL_LEN_BUCKETS);
    if (!st) st = get_floats(c, o, "bucket_acc", r->bucket_acc, PL_LEN_BUCKETS);
    if (!st) st = get_int32(c, o, "n_train", 0, INT32_MAX, &r->n_train);
    if (!st) st = get_int32(c, o, "n_val", 0, INT32_MAX, &r->n_val);
    if (!st) st = get_int(c, o, "steps", 0, INT64_C(1) << 53, &r->steps);
    if (!st) st = get_int(c, o, "real_tokens", 0, INT64_C(1) << 53, &r->real_tokens);
    if (!st) st = get_real(c, o, "seconds", &r->seconds);
    if (!st && !(es = list(c, o, "epoch_seconds", e))) st = PL_EINPUT;
    for (int i = 0; !st && i < e; i++)
        if (!(st = real_of(c, "epoch_seconds", &es->items[i], &secs))) r->epoch_seconds[i] = secs;
    return st;
}

static PlStatus read_run(PlPart *p, int i, const PlJson *o, PlErr *err) {
    char at[32];
    snprintf(at, sizeof at, "runs item %d", i + 1);
    Ctx c = {at, err};
    if (o->t != PL_J_OBJ) return pl_err_set(err, PL_EINPUT, "%s should be an object, not %s", at, pl_json_kind(o->t));
    int64_t seed = 0;
    PlStatus st = get_int32(&c, o, "run", 0, INT32_MAX, &p->index[i]);
    if (!st) st = get_int(&c, o, "seed", 0, INT64_C(1) << 53, &seed);
    if (!st) st = get_real(&c, o, "dilution", &p->runs[i].dilution);
    p->runs[i].cfg.seed = (PlSeed)seed;
    return st ? st : read_result(&c, o, p->epochs, &p->runs[i].res);
}

static PlStatus read_seeds(const Ctx *c, const PlJson *o, PlPart *p) {
    const PlJson *v = member(c, o, "seeds", PL_J_ARR);
    if (!v) return PL_EINPUT;
    if (v->n < 1 || v->n > PL_PART_MAX_SEEDS) return bad(c, "seeds", "should hold 1 to %d seeds", PL_PART_MAX_SEEDS);
    int64_t s = 0;
    for (int i = 0; i < v->n; i++) {
        if (int_of(c, "seeds", &v->items[i], 0, INT64_C(1) << 53, &s)) return PL_EINPUT;
        p->seeds[i] = (PlSeed)s;
    }
    p->n_seeds = v->n;
    return PL_OK;
}

static PlStatus read_chance(const Ctx *top, const PlJson *o, PlChance *ch) {
    const PlJson *v = member(top, o, "chance", PL_J_OBJ);
    Ctx c = {"chance", top->err};
    if (!v) return PL_EINPUT;
    PlStatus st = get_int32(&c, v, "n_val", 0, INT32_MAX, &ch->n_val);
    if (!st) st = get_int32(&c, v, "label", 0, 1, &ch->label);
    if (!st) st = get_int32(&c, v, "count", 0, ch->n_val, &ch->count);
    if (!st) st = get_real(&c, v, "share", &ch->share);
    if (!st) st = get_real(&c, v, "noise", &ch->noise);
    return st;
}

static PlStatus read_digest(const Ctx *c, const PlJson *o, uint64_t *out) {
    char hex[17], *end;
    if (get_text(c, o, "corpus_digest", hex, sizeof hex)) return PL_EINPUT;
    *out = strtoull(hex, &end, 16);
    if (strlen(hex) != 16 || strspn(hex, "0123456789abcdef") != 16 || *end)
        return bad(c, "corpus_digest", "should be 16 hexadecimal digits");
    return PL_OK;
}

static PlStatus read_head(const Ctx *c, const PlJson *o, PlPart *p) {
    int format;
    PlStatus st = get_int32(c, o, "padlab_part", PL_PART_FORMAT, PL_PART_FORMAT, &format);
    if (!st) st = get_text(c, o, "padlab", p->padlab, sizeof p->padlab);
    if (!st) st = get_text(c, o, "experiment", p->experiment, sizeof p->experiment);
    if (!st) st = get_int32(c, o, "epochs", 1, PL_MAX_EPOCHS, &p->epochs);
    if (!st) st = get_int32(c, o, "maxlen", 2, 100000, &p->maxlen);
    if (!st) st = read_seeds(c, o, p);
    if (!st) st = get_text(c, o, "corpus", p->corpus, sizeof p->corpus);
    if (!st) st = read_digest(c, o, &p->corpus_digest);
    if (!st) st = read_chance(c, o, &p->chance);
    if (!st) st = get_text(c, o, "arithmetic", p->arithmetic, sizeof p->arithmetic);
    if (!st) st = get_int32(c, o, "shards", 1, PL_PART_MAX_SHARDS, &p->shards);
    if (!st) st = get_int32(c, o, "shard", 0, p->shards - 1, &p->shard);
    return st;
}

static PlStatus read_runs(const Ctx *c, const PlJson *o, PlPart *p) {
    const PlJson *v = member(c, o, "runs", PL_J_ARR);
    if (!v) return PL_EINPUT;
    /* a plan has at most 64 runs a seed (pl_experiment_plan) */
    if (v->n > 64 * p->n_seeds) return bad(c, "runs", "should hold at most %d runs", 64 * p->n_seeds);
    p->runs = calloc((size_t)(v->n ? v->n : 1), sizeof *p->runs);
    p->index = calloc((size_t)(v->n ? v->n : 1), sizeof *p->index);
    if (!p->runs || !p->index) return pl_err_set(c->err, PL_ENOMEM, "out of memory reading the runs");
    p->n = v->n;
    PlStatus st = PL_OK;
    for (int i = 0; !st && i < v->n; i++) st = read_run(p, i, &v->items[i], c->err);
    return st;
}

PlStatus pl_part_read(const char *text, size_t n, PlPart *p, PlErr *err) {
    memset(p, 0, sizeof *p);
    PlJson *j = pl_json_parse(text, n, err);
    if (!j) return strstr(err->msg, "out of memory") ? PL_ENOMEM : PL_EINPUT;
    Ctx c = {"", err};
    PlStatus st = PL_OK;
    if (j->t != PL_J_OBJ) st = pl_err_set(err, PL_EINPUT, "a part file is a JSON object, not %s", pl_json_kind(j->t));
    if (!st) st = read_head(&c, j, p);
    if (!st) st = read_runs(&c, j, p);
    pl_json_free(j);
    return st;
}

PlStatus pl_part_load(const char *path, PlPart *p, PlErr *err) {
    FILE *f;
    uint64_t size;
    memset(p, 0, sizeof *p);
    PlStatus st = pl_infile_open(path, PL_JSON_MAX_BYTES, &f, &size, err);
    if (st == PL_ERANGE) return pl_err_set(err, PL_EINPUT, "%s: a part file is at most 64 MB", path);
    if (st) return st;
    char *buf = malloc((size_t)size + 1);
    size_t got = buf ? fread(buf, 1, (size_t)size, f) : 0;
    int failed = ferror(f);
    fclose(f);
    if (!buf) return pl_err_set(err, PL_ENOMEM, "%s: out of memory", path);
    if (failed) st = pl_err_set(err, PL_EIO, "%s: cannot read", path);
    else if ((st = pl_part_read(buf, got, p, err))) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        pl_err_set(err, st, "%s: %s", path, msg);
    }
    free(buf);
    return st;
}

void pl_part_done(PlPart *p) {
    free(p->runs);
    free(p->index);
    p->runs = NULL;
    p->index = NULL;
    p->n = 0;
}

PlExperimentOpts pl_part_opts(const PlPart *p) {
    PlExperimentOpts o = {p->epochs, p->maxlen, p->seeds, p->n_seeds};
    return o;
}
