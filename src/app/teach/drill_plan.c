/* The plan towards an interview (see drill_plan.h). */
#include "drill_plan.h"

#include <stdio.h>
#include <string.h>

static PlTopicRecall *topic_of(PlTopicRecall *out, int *n, int cap, const char *name) {
    for (int i = 0; i < *n; i++)
        if (strcmp(out[i].topic, name) == 0) return &out[i];
    if (*n == cap) return NULL;
    PlTopicRecall *t = &out[(*n)++];
    memset(t, 0, sizeof *t);
    snprintf(t->topic, sizeof t->topic, "%.63s", name);
    return t;
}

int pl_drill_plan_topics(const PlDeck *const *decks, int n, const PlDrillBook *b, long long now, int until,
                         PlTopicRecall *out, int cap) {
    PlFsrs p;
    pl_drill_book_fsrs(b, &p);
    long long then = pl_sched_day_start(until) + PL_DAY / 2;
    int today = (int)pl_sched_day(now), nt = 0;
    for (int k = 0; k < n; k++) {
        const PlDeck *d = decks[k];
        if (d->kind != PL_DECK_CARDS && d->kind != PL_DECK_MINUTE) continue;
        for (int i = 0; i < d->n; i++) {
            const PlDeckItem *it = &d->items[i];
            PlTopicRecall *t = topic_of(out, &nt, cap, it->topic && it->topic[0] ? it->topic : d->name);
            if (!t) continue;
            const PlDrillRecord *r = pl_drill_book_find(b, d->name, it->id);
            PlSchedCard fresh;
            memset(&fresh, 0, sizeof fresh);
            const PlSchedCard *c = r ? &r->s : &fresh;
            t->cards++;
            if (c->state == PL_CARD_NEW) continue; /* the recall is of the cards seen */
            t->seen++;
            t->due += pl_sched_is_due(c, today);
            t->recall_now += pl_sched_recall(&p, c, now);
            t->recall_then += until ? pl_sched_recall(&p, c, then > now ? then : now) : 0;
        }
    }
    for (int i = 0; i < nt; i++)
        if (out[i].seen) out[i].recall_now /= out[i].seen, out[i].recall_then /= out[i].seen;
    return nt;
}

void pl_drill_plan_days(const PlDeck *const *decks, int n, const PlDrillBook *b, int today, int days, int *out) {
    memset(out, 0, sizeof *out * (size_t)days);
    for (int k = 0; k < n; k++) {
        const PlDeck *d = decks[k];
        if (d->kind != PL_DECK_CARDS && d->kind != PL_DECK_MINUTE) continue;
        for (int i = 0; i < d->n; i++) {
            const PlDrillRecord *r = pl_drill_book_find(b, d->name, d->items[i].id);
            if (!r || r->s.state == PL_CARD_NEW) continue;
            long long day = pl_sched_day(r->s.due) - today;
            if (day < days) out[day < 0 ? 0 : day]++;
        }
    }
}
