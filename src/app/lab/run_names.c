/* The names a figure of a setting's runs carries to the drawer (ledger.h):
 * one rule for the terminal, the window and the exports. */
#include <stdio.h>
#include <string.h>

#include "lab_internal.h"

static const char *const cells[] = {"pre off", "pre on", "post off", "post on"};

PlRunNames pl_lab_run_names(PlLab *lab) {
    PlRunNames w = {.now = *pl_lab_settings(lab), .lab = lab};
    PlLabGrid grid = pl_lab_grid(lab);
    for (int i = 0; grid.ncells > 0 && i < 4; i++) {
        w.cell[i] = grid.base;
        w.cell[i].padding = i >= 2 ? PL_POST : PL_PRE, w.cell[i].mask = i % 2;
        w.ncells = i + 1;
    }
    return w;
}

/* FNV-1a over a setting's cold values but those in `skip`, and its corpus. */
static uint32_t settings_hash(const PlLabSettings *s, unsigned skip) {
    unsigned cold = pl_settings_cold_mask() & ~skip;
    uint32_t h = 2166136261u;
    for (int id = 0; id < PL_S_COUNT; id++) {
        if (!(cold & PL_S_BIT(id))) continue;
        char v[sizeof s->corpus + 16];
        if (pl_settings[id].type == PL_ST_TEXT) snprintf(v, sizeof v, "%d=%s", id, s->corpus);
        else snprintf(v, sizeof v, "%d=%d", id, pl_setting_get(s, (PlSettingId)id));
        for (const char *c = v; *c; c++) h = (h ^ (uint8_t)*c) * 16777619u;
        h = (h ^ 0xffu) * 16777619u; /* a separator no value holds */
    }
    return h;
}

#define NOT_SEEDS (PL_S_BIT(PL_S_SEED) | PL_S_BIT(PL_S_SEEDS))

/* Two settings that train the same thing (pl_lab_same_setting) share a key. */
const char *pl_lab_setting_key(const PlLabSettings *s, char *buf, size_t cap) {
    snprintf(buf, cap, "runs.%08x", (unsigned)settings_hash(s, NOT_SEEDS));
    return buf;
}

/* The batches key of n seeds in increasing order, each with the digest of
 * the batches its run sees: one rule for runs that trained and settings
 * that will. */
static const char *batches_key(const PlLabSettings *s, const int *seed, const uint64_t *digest, int n, char *buf,
                               size_t cap) {
    uint64_t h = settings_hash(s, NOT_SEEDS | PL_S_BIT(PL_S_BATCHING));
    for (int i = 0; i < n; i++) {
        h = (h ^ (uint64_t)(uint32_t)seed[i]) * 0x100000001b3u;
        h = (h ^ digest[i]) * 0x100000001b3u;
        h ^= h >> 31;
    }
    snprintf(buf, cap, "batches.%016llx", (unsigned long long)h);
    return buf;
}

/* The batches key of the runs of settings s that trained: NULL when one of
 * them saw batches not known (a run read from an older session file). */
static const char *trained_key(const PlLab *lab, const PlLabSettings *s, char *buf, size_t cap) {
    int n = 0, seed[PL_LAB_MAX_RUNS];
    uint64_t digest[PL_LAB_MAX_RUNS];
    const PlLabRun *runs = pl_lab_runs(lab, &n);
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (!pl_lab_same_setting(&runs[i].settings, s)) continue;
        if (!runs[i].batches) return NULL;
        int at = k++; /* in order of seed: a setting holds a seed once */
        for (; at > 0 && seed[at - 1] > runs[i].settings.seed; at--)
            seed[at] = seed[at - 1], digest[at] = digest[at - 1];
        seed[at] = runs[i].settings.seed, digest[at] = runs[i].batches;
    }
    return k ? batches_key(s, seed, digest, k, buf, cap) : NULL;
}

/* The batches key of s worked out from its plans, once per setting. */
const char *pl_lab_batches_key(PlLab *lab, const PlLabSettings *s, char *buf, size_t cap) {
    const PlLabSettings *now = pl_lab_settings(lab);
    if (strcmp(s->corpus, now->corpus) != 0 || !pl_lab_corpus(lab)) return NULL;
    for (int i = 0; i < lab->nbatches_memo; i++) {
        const PlLabSettings *m = &lab->batches_memo[i].s;
        if (m->seed == s->seed && m->seeds == s->seeds && pl_lab_same_setting(m, s))
            return snprintf(buf, cap, "%s", lab->batches_memo[i].key), buf;
    }
    int seed[PL_MAX_SEEDS];
    uint64_t digest[PL_MAX_SEEDS];
    int n = s->seeds < PL_MAX_SEEDS ? s->seeds : PL_MAX_SEEDS;
    for (int i = 0; i < n; i++) {
        PlTrainConfig cfg = pl_lab_train_config(lab, s, s->seed + i);
        PlErr err;
        seed[i] = s->seed + i;
        if (pl_train_batches(pl_lab_corpus(lab), &cfg, &digest[i], &err)) return NULL;
    }
    batches_key(s, seed, digest, n, buf, cap);
    int at = lab->nbatches_memo < 8 ? lab->nbatches_memo++ : lab->batches_next++ % 8;
    lab->batches_memo[at].s = *s;
    snprintf(lab->batches_memo[at].key, sizeof lab->batches_memo[at].key, "%s", buf);
    return buf;
}

const char *pl_run_names(const PlRunNames *w, const PlLabSettings *s, const char *stat, char *buf, size_t cap) {
    size_t n = 0;
    char key[40];
    buf[0] = '\0';
    if (pl_lab_same_setting(s, &w->now)) n += (size_t)snprintf(buf, cap, "train.%s,", stat);
    for (int i = 0; i < w->ncells && n < cap; i++)
        if (pl_lab_same_setting(s, &w->cell[i]))
            n += (size_t)snprintf(buf + n, cap - n, "grid.%s(%s),", stat, cells[i]);
    /* Another setting's runs carry their batches key too, which a question
     * of the runs of the same batches hides; the lab's own runs are the
     * train.* figures, which a step's words may show again. How many seeds
     * ran is a setting, not a result (ledger.c): it stays. */
    if (n < cap && w->lab && strcmp(stat, "seeds") != 0 && !pl_lab_same_setting(s, &w->now) &&
        trained_key(w->lab, s, key, sizeof key))
        n += (size_t)snprintf(buf + n, cap - n, "%s,", key);
    if (n < cap) snprintf(buf + n, cap - n, "%s", pl_lab_setting_key(s, key, sizeof key));
    return buf;
}
