/* Lesson questions in review (see lesson_review.h). */
#include "lesson_review.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LESSONS 256

void pl_lesson_card_id(const PlLesson *l, int k, char *id, int cap) {
    char slug[PL_DECK_ID_CAP - 25]; /* with the name's 24 and the colon, the id fits */
    pl_deck_slug(l->steps[k].title, slug, sizeof slug);
    snprintf(id, (size_t)cap, "%.24s:%s", l->name, slug);
}

PlStatus pl_lesson_grade(const PlLesson *l, int k, int right, long long now, PlErr *err) {
    char id[PL_DECK_ID_CAP];
    PlDrillBook b;
    pl_lesson_card_id(l, k, id, sizeof id);
    PlStatus st = pl_drill_book_load(&b, err);
    PlFsrs p;
    pl_drill_book_fsrs(&b, &p);
    p.nlearning = 0; /* the lesson was the learning: its answer is the card's first review */
    if (!st && pl_drill_book_grade_with(&b, &p, PL_LESSON_DECK, id, right ? PL_GRADE_GOOD : PL_GRADE_AGAIN, now))
        st = pl_err_set(err, PL_ENOMEM, "out of memory while keeping the answer for review");
    if (!st) st = pl_drill_book_save(&b, err);
    pl_drill_book_done(&b);
    return st;
}

/* ---- the deck ---- */

typedef struct {
    PlDeck *d;
    int cap;
    PlLessonDue *due;
    int ndue, duecap;
} Gather;

static int add_item(Gather *g, const PlLesson *l, int k, const char *id) {
    if (g->d->n == g->cap) {
        int cap = g->cap ? 2 * g->cap : 16;
        PlDeckItem *items = realloc(g->d->items, (size_t)cap * sizeof *items);
        if (!items) return -1;
        g->d->items = items, g->cap = cap;
    }
    PlDeckItem *it = &g->d->items[g->d->n];
    memset(it, 0, sizeof *it);
    snprintf(it->id, sizeof it->id, "%s", id);
    it->title = strdup(l->steps[k].q.prompt ? l->steps[k].q.prompt : l->steps[k].title);
    it->topic = strdup(l->title);
    it->line = l->steps[k].line;
    g->d->n++; /* counted now, so that the deck's free frees what was made */
    return it->title && it->topic ? 0 : -1;
}

static int add_due(Gather *g, const PlLesson *l, int k, const PlSchedCard *c) {
    if (g->ndue == g->duecap) {
        int cap = g->duecap ? 2 * g->duecap : 16;
        PlLessonDue *d = realloc(g->due, (size_t)cap * sizeof *d);
        if (!d) return -1;
        g->due = d, g->duecap = cap;
    }
    PlLessonDue *e = &g->due[g->ndue++];
    snprintf(e->lesson, sizeof e->lesson, "%s", l->name);
    e->step = k, e->due = c->due, e->reviews = c->reviews;
    return 0;
}

/* The steps of l that b holds a card for; -1 when memory ran out. */
static int gather_lesson(Gather *g, const PlLesson *l, const PlDrillBook *b, int today, int want_due) {
    for (int k = 0; k < l->nsteps; k++) {
        char id[PL_DECK_ID_CAP];
        if (l->steps[k].q.kind == PL_Q_NONE) continue;
        pl_lesson_card_id(l, k, id, sizeof id);
        const PlDrillRecord *r = pl_drill_book_find(b, PL_LESSON_DECK, id);
        if (!r || r->s.state == PL_CARD_NEW) continue;
        if (add_item(g, l, k, id)) return -1;
        if (want_due && pl_sched_is_due(&r->s, today) && add_due(g, l, k, &r->s)) return -1;
    }
    return 0;
}

static int by_due(const void *a, const void *b) {
    const PlLessonDue *x = a, *y = b;
    return x->due < y->due ? -1 : x->due > y->due;
}

static PlDeck *new_deck(void) {
    PlDeck *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    snprintf(d->name, sizeof d->name, PL_LESSON_DECK);
    d->kind = PL_DECK_CARDS;
    d->title = strdup("Your lesson questions");
    d->about = strdup("Every question you answered in a lesson, asked again at its own step with the lab set as the "
                      "lesson sets it there (padlab lesson --review, padlab drill lessons).");
    if (!d->title || !d->about) pl_deck_free(d), d = NULL;
    return d;
}

PlDeck *pl_lesson_deck(const PlDrillBook *b, int today, PlLessonDue **due, int *ndue, PlErr *err) {
    Gather g = {.d = new_deck()};
    char(*paths)[1024] = malloc(MAX_LESSONS * sizeof *paths);
    int n = g.d && paths ? pl_lesson_list(paths, MAX_LESSONS) : -1, bad = n < 0;
    for (int i = 0; i < n && !bad; i++) {
        PlErr why;
        PlLesson *l = pl_lesson_load(paths[i], &why);
        if (!l && strstr(why.msg, "out of memory")) bad = 1; /* a damaged lesson is left out: --check names it */
        if (l) bad = gather_lesson(&g, l, b, today, due != NULL);
        pl_lesson_free(l);
    }
    free(paths);
    if (bad) {
        pl_deck_free(g.d), free(g.due);
        pl_err_set(err, PL_ENOMEM, "out of memory while gathering the lesson questions in review");
        return NULL;
    }
    if (g.ndue) qsort(g.due, (size_t)g.ndue, sizeof *g.due, by_due);
    if (due) *due = g.due, *ndue = g.ndue;
    else free(g.due);
    return g.d;
}
