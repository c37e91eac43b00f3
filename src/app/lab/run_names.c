/* The names a figure of a setting's runs carries to the drawer (ledger.h):
 * one rule for the terminal, the window and the exports. */
#include <stdio.h>
#include <string.h>

#include "lab.h"

static const char *const cells[] = {"pre off", "pre on", "post off", "post on"};

PlRunNames pl_lab_run_names(PlLab *lab) {
    PlRunNames w = {.now = *pl_lab_settings(lab)};
    PlLabGrid grid = pl_lab_grid(lab);
    for (int i = 0; grid.ncells > 0 && i < 4; i++) {
        w.cell[i] = grid.base;
        w.cell[i].padding = i >= 2 ? PL_POST : PL_PRE, w.cell[i].mask = i % 2;
        w.ncells = i + 1;
    }
    return w;
}

/* FNV-1a over a setting's cold values but the seeds, and its corpus: two
 * settings that train the same thing (pl_lab_same_setting) share a key. */
const char *pl_lab_setting_key(const PlLabSettings *s, char *buf, size_t cap) {
    unsigned cold = pl_settings_cold_mask() & ~(PL_S_BIT(PL_S_SEED) | PL_S_BIT(PL_S_SEEDS));
    uint32_t h = 2166136261u;
    for (int id = 0; id < PL_S_COUNT; id++) {
        if (!(cold & PL_S_BIT(id))) continue;
        char v[sizeof s->corpus + 16];
        if (pl_settings[id].type == PL_ST_TEXT) snprintf(v, sizeof v, "%d=%s", id, s->corpus);
        else snprintf(v, sizeof v, "%d=%d", id, pl_setting_get(s, (PlSettingId)id));
        for (const char *c = v; *c; c++) h = (h ^ (uint8_t)*c) * 16777619u;
        h = (h ^ 0xffu) * 16777619u; /* a separator no value holds */
    }
    snprintf(buf, cap, "runs.%08x", (unsigned)h);
    return buf;
}

const char *pl_run_names(const PlRunNames *w, const PlLabSettings *s, const char *stat, char *buf, size_t cap) {
    size_t n = 0;
    char key[32];
    buf[0] = '\0';
    if (pl_lab_same_setting(s, &w->now)) n += (size_t)snprintf(buf, cap, "train.%s,", stat);
    for (int i = 0; i < w->ncells && n < cap; i++)
        if (pl_lab_same_setting(s, &w->cell[i]))
            n += (size_t)snprintf(buf + n, cap - n, "grid.%s(%s),", stat, cells[i]);
    if (n < cap) snprintf(buf + n, cap - n, "%s", pl_lab_setting_key(s, key, sizeof key));
    return buf;
}
