/* The lab's settings: one const table, one row per setting.
 *
 * Every place that names a setting reads this table: the control strip, the
 * key bindings, the key bar and the help overlay, the session file, the
 * command-line flags of the lab and of the probes, and lessons' `set` lines.
 * Adding a setting is adding a row here (and a field in PlLabSettings).
 *
 * A row says what a setting is (name, type, the values it takes), what it
 * starts at, whether it is cold (it changes what a model learns, so a change
 * retrains) or hot (it changes only what is shown), which keys move it, and
 * one line of help. Values live in PlLabSettings as ints: a choice holds the
 * core enum it stands for (PlSide, PlBatching, PlArch, ...), so the core's
 * types never need to know about the registry. */
#ifndef PL_APP_SETTINGS_H
#define PL_APP_SETTINGS_H

#include <limits.h>
#include <stddef.h>

#include "core/plan.h"

typedef enum {
    PL_VIEW_BATCH,
    PL_VIEW_COST,
    PL_VIEW_ATTENTION,
    PL_VIEW_RNN,
    PL_VIEW_POOLING,
    PL_VIEW_LOSS,
    PL_VIEW_TRAIN,
    PL_VIEW_LAYERS,
    PL_VIEW_GENERATE,
    PL_VIEW_MASKS,
    PL_VIEW_COUNT
} PlView;

typedef enum {
    PL_S_CORPUS,
    PL_S_PADDING,
    PL_S_TRUNCATING,
    PL_S_MASK,
    PL_S_MAXLEN,
    PL_S_BATCHING,
    PL_S_BATCH,
    PL_S_MODEL,
    PL_S_SEED,
    PL_S_SEEDS,
    PL_S_CONVENTION,
    PL_S_CAUSAL,
    PL_S_PAD_EMBEDDING,
    PL_S_EXAMPLE,
    PL_S_VIEW,
    PL_S_COUNT
} PlSettingId;

#define PL_S_BIT(id) (1u << (id))

/* The lab's own defaults, named once; maxlen and batch are the core's
 * (PL_DEFAULT_MAXLEN and PL_DEFAULT_BATCH, core/plan.h). */
#define PL_DEFAULT_SEEDS 3
#define PL_MAX_SEEDS 9
#define PL_EXAMPLE_AUTO (-1) /* the first review with pads to see */
/* The value past the top of a number's range that a row may name (its
 * .none): above every number, so "maxlen <= 400" is false for it and + walks
 * into it from the top of the ladder. */
#define PL_SETTING_NONE INT_MAX
/* maxlen none: nothing is cut. It stands for the corpus's longest review,
 * resolved where settings become the core's options (pl_maxlen_of). */
#define PL_MAXLEN_NONE PL_SETTING_NONE

typedef struct {
    char corpus[512];
    int padding;    /* PlSide */
    int truncating; /* PlSide */
    int mask;       /* 0 off, 1 on */
    int maxlen;     /* or PL_MAXLEN_NONE */
    int batching;      /* PlBatching */
    int batch;         /* rows per batch */
    int model;         /* PlArch */
    int seed;          /* the first seed a retrain uses */
    int seeds;         /* how many seeds a retrain trains: seed, seed+1, ... */
    int convention;    /* PlMaskConv */
    int causal;        /* the attention views add the causal mask */
    int pad_embedding; /* 0: the pad row as learned; 1: set to zero (the rnn view) */
    int example;       /* corpus row, or PL_EXAMPLE_AUTO */
    int view;          /* PlView */
} PlLabSettings;

typedef enum { PL_ST_CHOICE, PL_ST_INT, PL_ST_TEXT } PlSettingType;

typedef struct {
    const char *name; /* in session files, --flags and lessons' set lines */
    PlSettingType type;
    const char *const *names; /* CHOICE: the values' names, NULL-terminated */
    const int *values;        /* CHOICE: the enum each name stands for */
    int lo, hi;               /* INT: the range */
    const char *none;         /* INT: the name of PL_SETTING_NONE, past hi ("none"); NULL: not allowed */
    const int *ladder;        /* INT: the values + and - step through, increasing; NULL: steps of 1 */
    int nladder;
    int def;                /* the default (a value, not an index) */
    const char *def_text;   /* TEXT: the default */
    int cold;               /* a change retrains */
    int key_next, key_prev; /* keys that move it forward and back: a letter's lower case forward, its upper case back */
    int key_alt;            /* another key for forward (0: none) */
    const char *arg;        /* for --help: "pre|post", "N" */
    const char *help;       /* one line */
    size_t offset;          /* of its field in PlLabSettings */
} PlSettingDef;

extern const PlSettingDef pl_settings[PL_S_COUNT];

/* Every setting at its default. */
PlLabSettings pl_settings_default(void);

/* The id of the setting named name, or -1. */
int pl_setting_find(const char *name);

/* The value of an int or choice setting. */
int pl_setting_get(const PlLabSettings *s, PlSettingId id);

/* Sets an int or choice setting to v when v is allowed; returns 0, or -1
 * (s unchanged) when it is not. */
int pl_setting_set(PlLabSettings *s, PlSettingId id, int v);

/* Parses text as the value of setting id into s. Returns 0, or -1 with what
 * was expected in want ("pre or post", "a whole number from 1 to 2000"). */
int pl_setting_parse(PlLabSettings *s, PlSettingId id, const char *text, char *want, int cap);

/* The value as text ("post", "200", "builtin"); returns buf. */
const char *pl_setting_format(const PlLabSettings *s, PlSettingId id, char *buf, int cap);

/* The corpus as a control names it, in both front ends: a file or folder
 * by its own name, an inline corpus by its reviews ("inline: 4 reviews",
 * "inline: 3 reviews x 50"), anything else as written. Returns buf. */
const char *pl_corpus_label(const char *spec, char *buf, int cap);

/* The value one step forward (dir > 0) or back (dir < 0): choices cycle,
 * numbers follow the ladder and stop at the ends. */
int pl_setting_step(const PlLabSettings *s, PlSettingId id, int dir);

/* The setting a key moves, with *dir = +1 or -1; -1 when no row has it. */
int pl_setting_of_key(int key, int *dir);

/* The keys of a row as the help shows them ("b/B", "+/-", "m"); "" without. */
const char *pl_setting_keys_text(PlSettingId id, char *buf, int cap);

/* The allowed values as one line ("pre|post", "1..2000|none"); returns buf. */
const char *pl_setting_values_text(PlSettingId id, char *buf, int cap);

/* The maxlen rows are cut to: the setting's, or for none the corpus's
 * longest review (longest, start token included), which cuts nothing. */
static inline int pl_maxlen_of(int maxlen, int longest) { return maxlen == PL_MAXLEN_NONE ? longest : maxlen; }

/* maxlen as every screen and table prints it: "200", or "none (longest:
 * 2474)". Returns buf. */
const char *pl_maxlen_text(int maxlen, int longest, char *buf, int cap);

/* What maxlen does to the rows, for the views' headers: "rows cut to 200
 * tokens", or "rows kept whole (maxlen none: longest 2474)". Returns buf. */
const char *pl_maxlen_cut_text(int maxlen, int longest, char *buf, int cap);

/* Whether the value of setting id is a plain number (JSON writes it as
 * one): an int setting that is not "auto" or "none". */
int pl_setting_is_number(const PlLabSettings *s, PlSettingId id);

/* A change of some settings: the bits of mask (PL_S_BIT) say which, and
 * values holds them (its other fields are unused). A lesson's set: and
 * setup:, a deck's settings, the flags given over a session and the locked
 * settings a reset keeps are each one, parsed or taken once and applied by
 * pl_settings_patch_apply. */
typedef struct {
    unsigned mask;
    PlLabSettings values;
} PlSettingsPatch;

/* Parses "name=value name=value ..." (spaces or tabs between pairs) into p,
 * a later pair of a setting overriding an earlier one. Returns 0, or -1 with
 * one line in why naming the setting and the value ("padding must be one of
 * pre,post, got 'sideways'"); p is then partial. Allocates nothing. */
int pl_settings_patch_parse(const char *text, PlSettingsPatch *p, char *why, int cap);

/* The settings of p's mask copied from p's values into dst; p NULL: none. */
void pl_settings_patch_apply(PlLabSettings *dst, const PlSettingsPatch *p);

/* A bit per setting that differs between a and b. */
unsigned pl_settings_diff(const PlLabSettings *a, const PlLabSettings *b);

/* The bits of the cold settings. */
unsigned pl_settings_cold_mask(void);

const char *pl_view_name(PlView v);
int pl_view_parse(const char *s, PlView *out);

#endif
