/* The settings registry (see settings.h), and the few functions that read
 * any row of it. Nothing outside this file lists the settings. */
#include "settings.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mask.h"
#include "core/model.h"
#include "core/names.h"
#include "core/pad.h"
#include "core/plan.h"

/* A choice's names in the order the keys step through them, and the values
 * they stand for; the core's own tables where the lab offers them all. */
static const int side_values[] = {PL_PRE, PL_POST};
static const char *const onoff_names[] = {"off", "on", NULL};
static const int onoff_values[] = {0, 1};
static const char *const batching_names[] = {"static",         "dynamic",   "multiple_of_8", "length_grouped",
                                             "bucket_longest", "tf_bucket", "packed",        NULL};
static const int batching_values[] = {PL_BATCH_STATIC,         PL_BATCH_DYNAMIC,   PL_BATCH_MULTIPLE, PL_BATCH_GROUPED,
                                      PL_BATCH_BUCKET_LONGEST, PL_BATCH_TF_BUCKET, PL_BATCH_PACKED};
static const char *const pad_row_names[] = {"learned", "zero", NULL};
static const int pad_row_values[] = {0, 1};
static const char *const model_names[] = {"rnn", "gru", "lstm", "avgpool", "attention", NULL};
static const int model_values[] = {PL_ARCH_RNN, PL_ARCH_GRU, PL_ARCH_LSTM, PL_ARCH_AVGPOOL, PL_ARCH_ATTENTION};
static const int conv_values[] = {PL_MASK_KERAS, PL_MASK_TORCH, PL_MASK_HF, PL_MASK_ADDITIVE};
static const char *const view_names[] = {"batch", "cost",   "attention", "rnn",   "pooling", "loss",
                                         "train", "layers", "generate",  "masks", NULL};
static const int view_values[] = {PL_VIEW_BATCH, PL_VIEW_COST,  PL_VIEW_ATTENTION, PL_VIEW_RNN,      PL_VIEW_POOLING,
                                  PL_VIEW_LOSS,  PL_VIEW_TRAIN, PL_VIEW_LAYERS,    PL_VIEW_GENERATE, PL_VIEW_MASKS};

/* + and - walk these; any value in the range can still be set by name. */
static const int maxlen_ladder[] = {10,   20,   30,   40,   50,   60,   70,   80,   90,   100,  150,
                                    200,  250,  300,  350,  400,  500,  600,  700,  800,  900,  1000,
                                    1100, 1200, 1300, 1400, 1500, 1600, 1700, 1800, 1900, 2000, PL_MAXLEN_NONE};
static const int batch_ladder[] = {1, 2, 4, 8, 16, 32, 64, 128};

#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define CHOICE(names_, values_) .type = PL_ST_CHOICE, .names = names_, .values = values_
#define FIELD(f) .offset = offsetof(PlLabSettings, f)

const PlSettingDef pl_settings[PL_S_COUNT] = {
    [PL_S_CORPUS] = {.name = "corpus",
                     .type = PL_ST_TEXT,
                     .def_text = "builtin",
                     .cold = 1,
                     .arg = "SRC",
                     .help = "the reviews: builtin, builtin:SEED[:COUNT[:POSITIVE%]], a TSV file or an aclImdb folder",
                     FIELD(corpus)},
    [PL_S_PADDING] = {.name = "padding",
                      CHOICE(pl_side_names, side_values),
                      .def = PL_PRE,
                      .cold = 1,
                      .key_next = 'p',
                      .key_prev = 'P',
                      .arg = "pre|post",
                      .help = "where the pad cells go: before the tokens (pre) or after them (post)",
                      FIELD(padding)},
    [PL_S_TRUNCATING] = {.name = "truncating",
                         CHOICE(pl_side_names, side_values),
                         .def = PL_PRE,
                         .cold = 1,
                         .key_next = 't',
                         .key_prev = 'T',
                         .arg = "pre|post",
                         .help = "which end of a review longer than maxlen is cut away",
                         FIELD(truncating)},
    [PL_S_MASK] = {.name = "mask",
                   CHOICE(onoff_names, onoff_values),
                   .def = 0,
                   .cold = 1,
                   .key_next = 'm',
                   .key_prev = 'M',
                   .arg = "off|on",
                   .help = "whether the model is told which cells are pads",
                   FIELD(mask)},
    [PL_S_MAXLEN] = {.name = "maxlen",
                     .type = PL_ST_INT,
                     .lo = 1,
                     .hi = 2000,
                     .none = "none",
                     .ladder = maxlen_ladder,
                     .nladder = N_OF(maxlen_ladder),
                     .def = PL_DEFAULT_MAXLEN,
                     .cold = 1,
                     .key_next = '+',
                     .key_prev = '-',
                     .key_alt = '=',
                     .arg = "N|none",
                     .help = "rows are cut to this many tokens, static batches are this wide; none cuts nothing "
                             "(as wide as the longest review)",
                     FIELD(maxlen)},
    [PL_S_BATCHING] = {.name = "batching",
                       CHOICE(batching_names, batching_values),
                       .def = PL_BATCH_STATIC,
                       .cold = 1,
                       .key_next = 'b',
                       .key_prev = 'B',
                       .arg = "STRATEGY",
                       .help = "how rows are grouped and how wide each batch is padded",
                       FIELD(batching)},
    [PL_S_BATCH] = {.name = "batch",
                    .type = PL_ST_INT,
                    .lo = 1,
                    .hi = 1024,
                    .ladder = batch_ladder,
                    .nladder = N_OF(batch_ladder),
                    .def = PL_DEFAULT_BATCH,
                    .cold = 1,
                    .key_next = ']',
                    .key_prev = '[',
                    .arg = "N",
                    .help = "rows per batch",
                    FIELD(batch)},
    [PL_S_MODEL] = {.name = "model",
                    CHOICE(model_names, model_values),
                    .def = PL_ARCH_RNN,
                    .cold = 1,
                    .key_next = 'a',
                    .key_prev = 'A',
                    .arg = "MODEL",
                    .help = "the classifier that trains: recurrent, pooling or attention",
                    FIELD(model)},
    [PL_S_SEED] = {.name = "seed",
                   .type = PL_ST_INT,
                   .lo = 0,
                   .hi = 999999,
                   .def = 0,
                   .cold = 1,
                   .key_next = 's',
                   .key_prev = 'S',
                   .arg = "S",
                   .help = "the first seed: weights, shuffles and the runs' seeds start here",
                   FIELD(seed)},
    [PL_S_SEEDS] = {.name = "seeds",
                    .type = PL_ST_INT,
                    .lo = 1,
                    .hi = PL_MAX_SEEDS,
                    .def = PL_DEFAULT_SEEDS,
                    .cold = 1,
                    .key_next = 'x',
                    .key_prev = 'X',
                    .arg = "K",
                    .help = "how many seeds a retrain trains at once: a result is a spread, not one run",
                    FIELD(seeds)},
    [PL_S_CONVENTION] = {.name = "convention",
                         CHOICE(pl_mask_conv_names, conv_values),
                         .def = PL_MASK_KERAS,
                         .key_next = 'c',
                         .key_prev = 'C',
                         .arg = "CONV",
                         .help = "how the mask is written: keras, torch, hf or additive",
                         FIELD(convention)},
    [PL_S_CAUSAL] = {.name = "causal",
                     CHOICE(onoff_names, onoff_values),
                     .def = 0,
                     .key_next = 'w',
                     .key_prev = 'W',
                     .arg = "off|on",
                     .help = "the attention view adds the causal mask: a query sees no later key",
                     FIELD(causal)},
    [PL_S_PAD_EMBEDDING] = {.name = "pad_embedding",
                            CHOICE(pad_row_names, pad_row_values),
                            .def = 0,
                            .key_next = 'z',
                            .key_prev = 'Z',
                            .arg = "learned|zero",
                            .help = "the rnn view's pad row of the embedding: as learned, or set to zero",
                            FIELD(pad_embedding)},
    [PL_S_EXAMPLE] = {.name = "example",
                      .type = PL_ST_INT,
                      .lo = PL_EXAMPLE_AUTO,
                      .hi = INT_MAX,
                      .def = PL_EXAMPLE_AUTO,
                      .key_next = 'n',
                      .key_prev = 'N',
                      .arg = "I",
                      .help = "the review the views follow (auto: the first one with pads to see)",
                      FIELD(example)},
    [PL_S_VIEW] = {.name = "view",
                   CHOICE(view_names, view_values),
                   .def = PL_VIEW_BATCH,
                   .arg = "VIEW",
                   .help = "the view on screen",
                   FIELD(view)},
};

static int *field(PlLabSettings *s, PlSettingId id) { return (int *)(void *)((char *)s + pl_settings[id].offset); }

static const int *cfield(const PlLabSettings *s, PlSettingId id) {
    return (const int *)(const void *)((const char *)s + pl_settings[id].offset);
}

PlLabSettings pl_settings_default(void) {
    PlLabSettings s;
    memset(&s, 0, sizeof s);
    for (int id = 0; id < PL_S_COUNT; id++) {
        const PlSettingDef *d = &pl_settings[id];
        if (d->type == PL_ST_TEXT) snprintf((char *)&s + d->offset, sizeof s.corpus, "%s", d->def_text);
        else *field(&s, (PlSettingId)id) = d->def;
    }
    return s;
}

int pl_setting_find(const char *name) { return PL_ROW_FIND(pl_settings, PL_S_COUNT, name); }

int pl_setting_get(const PlLabSettings *s, PlSettingId id) { return *cfield(s, id); }

static int choice_index(const PlSettingDef *d, int v) {
    for (int i = 0; d->names[i]; i++)
        if (d->values[i] == v) return i;
    return -1;
}

static int allowed(const PlSettingDef *d, int v) {
    if (d->type == PL_ST_CHOICE) return choice_index(d, v) >= 0;
    return d->type == PL_ST_INT && ((v >= d->lo && v <= d->hi) || (d->none && v == PL_SETTING_NONE));
}

int pl_setting_set(PlLabSettings *s, PlSettingId id, int v) {
    if (!allowed(&pl_settings[id], v)) return -1;
    *field(s, id) = v;
    return 0;
}

const char *pl_setting_values_text(PlSettingId id, char *buf, int cap) {
    const PlSettingDef *d = &pl_settings[id];
    buf[0] = '\0';
    if (d->type == PL_ST_TEXT) snprintf(buf, (size_t)cap, "%s", d->arg);
    else if (d->type == PL_ST_INT && id == PL_S_EXAMPLE) snprintf(buf, (size_t)cap, "auto or a review number from 0");
    else if (d->type == PL_ST_INT)
        snprintf(buf, (size_t)cap, "%d..%d%s%s", d->lo, d->hi, d->none ? "|" : "", d->none ? d->none : "");
    else
        for (int i = 0; d->names[i]; i++)
            snprintf(buf + strlen(buf), (size_t)cap - strlen(buf), "%s%s", i ? "|" : "", d->names[i]);
    return buf;
}

static int parse_int(const char *text, long *v) {
    char *end;
    errno = 0;
    *v = strtol(text, &end, 10);
    return end != text && *end == '\0' && errno == 0 ? 0 : -1;
}

int pl_setting_parse(PlLabSettings *s, PlSettingId id, const char *text, char *want, int cap) {
    const PlSettingDef *d = &pl_settings[id];
    char values[256];
    if (d->type == PL_ST_TEXT) {
        /* No control bytes: a newline in a value would be a second line of a session file. */
        int clean = 1;
        for (const unsigned char *p = (const unsigned char *)text; *p; p++) clean &= *p >= 0x20 && *p != 0x7f;
        if (*text && clean && strlen(text) < sizeof s->corpus)
            return snprintf((char *)s + d->offset, sizeof s->corpus, "%s", text), 0;
        return snprintf(want, (size_t)cap, "a name or a path of at most %d bytes, without control characters",
                        (int)sizeof s->corpus - 1),
               -1;
    }
    if (d->type == PL_ST_CHOICE) {
        int i = pl_name_find(d->names, text);
        if (i >= 0) return *field(s, id) = d->values[i], 0;
        pl_setting_values_text(id, values, sizeof values);
        for (char *bar = strchr(values, '|'); bar; bar = strchr(bar, '|')) *bar = ',';
        return snprintf(want, (size_t)cap, "one of %s", values), -1;
    }
    long v;
    if (id == PL_S_EXAMPLE && strcmp(text, "auto") == 0) return *field(s, id) = PL_EXAMPLE_AUTO, 0;
    if (d->none && strcmp(text, d->none) == 0) return *field(s, id) = PL_SETTING_NONE, 0;
    if (parse_int(text, &v) == 0 && v >= (id == PL_S_EXAMPLE ? 0 : d->lo) && v <= d->hi)
        return *field(s, id) = (int)v, 0;
    if (id == PL_S_EXAMPLE) return snprintf(want, (size_t)cap, "auto or a whole number from 0"), -1;
    return snprintf(want, (size_t)cap, "a whole number from %d to %d%s%s", d->lo, d->hi, d->none ? " or " : "",
                    d->none ? d->none : ""),
           -1;
}

const char *pl_setting_format(const PlLabSettings *s, PlSettingId id, char *buf, int cap) {
    const PlSettingDef *d = &pl_settings[id];
    int v = d->type == PL_ST_TEXT ? 0 : *cfield(s, id);
    if (d->type == PL_ST_TEXT) snprintf(buf, (size_t)cap, "%s", (const char *)s + d->offset);
    else if (d->type == PL_ST_CHOICE)
        snprintf(buf, (size_t)cap, "%s", choice_index(d, v) >= 0 ? d->names[choice_index(d, v)] : "?");
    else if (id == PL_S_EXAMPLE && v == PL_EXAMPLE_AUTO) snprintf(buf, (size_t)cap, "auto");
    else if (d->none && v == PL_SETTING_NONE) snprintf(buf, (size_t)cap, "%s", d->none);
    else snprintf(buf, (size_t)cap, "%d", v);
    return buf;
}

const char *pl_corpus_label(const char *spec, char *buf, int cap) {
    if (strncmp(spec, "inline:", 7) == 0) { /* rows between bars, an "xN" first repeating them */
        const char *body = spec + 7;
        int rows = 1, times = 1, n = 0;
        for (const char *c = body; *c; c++) rows += *c == '|';
        if (sscanf(body, " x%d |%n", &times, &n) == 1 && n > 0) rows--;
        else times = 1;
        if (times > 1) snprintf(buf, (size_t)cap, "inline: %d review%s x %d", rows, rows == 1 ? "" : "s", times);
        else snprintf(buf, (size_t)cap, "inline: %d review%s", rows, rows == 1 ? "" : "s");
        return buf;
    }
    const char *base = strrchr(spec, '/');
    snprintf(buf, (size_t)cap, "%s", base && base[1] ? base + 1 : spec); /* a path by its file's name */
    return buf;
}

const char *pl_maxlen_text(int maxlen, int longest, char *buf, int cap) {
    if (maxlen == PL_MAXLEN_NONE) snprintf(buf, (size_t)cap, "none (longest: %d)", longest);
    else snprintf(buf, (size_t)cap, "%d", maxlen);
    return buf;
}

const char *pl_maxlen_cut_text(int maxlen, int longest, char *buf, int cap) {
    if (maxlen == PL_MAXLEN_NONE) snprintf(buf, (size_t)cap, "rows kept whole (maxlen none: longest %d)", longest);
    else snprintf(buf, (size_t)cap, "rows cut to %d tokens", maxlen);
    return buf;
}

int pl_setting_is_number(const PlLabSettings *s, PlSettingId id) {
    const PlSettingDef *d = &pl_settings[id];
    int v = d->type == PL_ST_INT ? *cfield(s, id) : 0;
    return d->type == PL_ST_INT && !(id == PL_S_EXAMPLE && v == PL_EXAMPLE_AUTO) && !(d->none && v == PL_SETTING_NONE);
}

/* The next ladder value above v (dir > 0) or below it; v itself at the ends. */
static int ladder_step(const PlSettingDef *d, int v, int dir) {
    if (dir > 0) {
        for (int i = 0; i < d->nladder; i++)
            if (d->ladder[i] > v) return d->ladder[i];
    } else {
        for (int i = d->nladder - 1; i >= 0; i--)
            if (d->ladder[i] < v) return d->ladder[i];
    }
    return v;
}

int pl_setting_step(const PlLabSettings *s, PlSettingId id, int dir) {
    const PlSettingDef *d = &pl_settings[id];
    int v = *cfield(s, id);
    if (d->type == PL_ST_CHOICE) {
        int n = 0, i = choice_index(d, v);
        while (d->names[n]) n++;
        return d->values[((i < 0 ? 0 : i) + (dir > 0 ? 1 : n - 1)) % n];
    }
    if (d->ladder) return ladder_step(d, v, dir);
    long next = (long)v + (dir > 0 ? 1 : -1);
    return next < d->lo || next > d->hi ? v : (int)next;
}

int pl_setting_of_key(int key, int *dir) {
    for (int id = 0; key && id < PL_S_COUNT; id++) {
        const PlSettingDef *d = &pl_settings[id];
        if (key == d->key_next || key == d->key_alt) return *dir = 1, id;
        if (key == d->key_prev) return *dir = -1, id;
    }
    return -1;
}

const char *pl_setting_keys_text(PlSettingId id, char *buf, int cap) {
    const PlSettingDef *d = &pl_settings[id];
    buf[0] = '\0';
    if (d->key_next && d->key_prev) snprintf(buf, (size_t)cap, "%c/%c", d->key_next, d->key_prev);
    else if (d->key_next) snprintf(buf, (size_t)cap, "%c", d->key_next);
    if (d->key_alt) snprintf(buf + strlen(buf), (size_t)cap - strlen(buf), " %c", d->key_alt);
    return buf;
}

/* One "name=value" token (len bytes at tok) into p. */
static int patch_pair(const char *tok, size_t len, PlSettingsPatch *p, char *why, int cap) {
    char pair[1024], want[256];
    if (len >= sizeof pair) return snprintf(why, (size_t)cap, "'%.40s...' is too long for a setting", tok), -1;
    memcpy(pair, tok, len), pair[len] = '\0';
    char *eq = strchr(pair, '=');
    if (!eq) return snprintf(why, (size_t)cap, "settings are name=value pairs, got '%.40s'", pair), -1;
    *eq = '\0';
    int id = pl_setting_find(pair);
    if (id < 0) return snprintf(why, (size_t)cap, "'%.40s' is not a setting (padlab lab --help lists them)", pair), -1;
    if (pl_setting_parse(&p->values, (PlSettingId)id, eq + 1, want, sizeof want))
        return snprintf(why, (size_t)cap, "%s must be %s, got '%.40s'", pair, want, eq + 1), -1;
    p->mask |= PL_S_BIT(id);
    return 0;
}

int pl_settings_patch_parse(const char *text, PlSettingsPatch *p, char *why, int cap) {
    memset(p, 0, sizeof *p);
    p->values = pl_settings_default();
    int n = 0;
    for (const char *at = text; *at; n++) {
        at += strspn(at, " \t");
        size_t len = strcspn(at, " \t");
        if (!len) break;
        if (patch_pair(at, len, p, why, cap)) return -1;
        at += len;
    }
    if (!n) return snprintf(why, (size_t)cap, "settings need at least one name=value"), -1;
    return 0;
}

void pl_settings_patch_apply(PlLabSettings *dst, const PlSettingsPatch *p) {
    for (int id = 0; p && id < PL_S_COUNT; id++) {
        if (!(p->mask & PL_S_BIT(id))) continue;
        size_t at = pl_settings[id].offset,
               size = pl_settings[id].type == PL_ST_TEXT ? sizeof dst->corpus : sizeof(int);
        memcpy((char *)dst + at, (const char *)&p->values + at, size);
    }
}

unsigned pl_settings_diff(const PlLabSettings *a, const PlLabSettings *b) {
    unsigned bits = 0;
    for (int id = 0; id < PL_S_COUNT; id++) {
        int same = pl_settings[id].type == PL_ST_TEXT
                       ? strcmp((const char *)a + pl_settings[id].offset, (const char *)b + pl_settings[id].offset) == 0
                       : *cfield(a, (PlSettingId)id) == *cfield(b, (PlSettingId)id);
        if (!same) bits |= PL_S_BIT(id);
    }
    return bits;
}

unsigned pl_settings_cold_mask(void) {
    unsigned bits = 0;
    for (int id = 0; id < PL_S_COUNT; id++)
        if (pl_settings[id].cold) bits |= PL_S_BIT(id);
    return bits;
}

const char *pl_view_name(PlView v) { return pl_name_of(view_names, (int)v); }

int pl_view_parse(const char *s, PlView *out) {
    int i = pl_name_find(view_names, s);
    if (i < 0) return -1;
    *out = (PlView)view_values[i];
    return 0;
}
