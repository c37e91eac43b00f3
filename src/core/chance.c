#include "chance.h"

#include <math.h>

int pl_train_split(int n, double val_split) { return (int)floor((double)n * (1.0 - val_split)); }

PlChance pl_chance_of(const PlCorpus *c, double val_split) {
    PlChance ch = {0, 1, 0, 0.0, 0.0};
    int first = pl_train_split(c->n, val_split), pos = 0;
    if (first < 0) first = 0;
    for (int i = first; i < c->n; i++) pos += c->labels[i] != 0;
    ch.n_val = c->n - first;
    if (ch.n_val <= 0) return ch;
    ch.label = 2 * pos >= ch.n_val;
    ch.count = ch.label ? pos : ch.n_val - pos;
    ch.share = (double)ch.count / (double)ch.n_val;
    ch.noise = PL_CHANCE_Z * sqrt(ch.share * (1.0 - ch.share) / (double)ch.n_val);
    return ch;
}

PlChanceVerdict pl_chance_verdict(const PlChance *ch, double acc) {
    if (acc > ch->share + ch->noise) return PL_ABOVE_CHANCE;
    if (acc < ch->share - ch->noise) return PL_BELOW_CHANCE;
    return PL_AT_CHANCE;
}

const char *pl_chance_verdict_name(PlChanceVerdict v) {
    return v == PL_ABOVE_CHANCE ? "above chance" : v == PL_BELOW_CHANCE ? "below chance" : "at chance";
}

const char *pl_label_name(int label) { return label ? "positive" : "negative"; }
