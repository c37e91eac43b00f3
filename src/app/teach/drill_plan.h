/* The plan towards an interview: predicted recall by topic, today and on
 * the interview's day, from the drill book's FSRS memory states (sched.h).
 * A topic is an item's "topic:" line in its deck (doc/deck-format.md);
 * cards and minute prompts count (questions and cases have no memory
 * state); the recall is the mean over the cards seen (those not seen yet
 * are counted apart), and the recall on the day assumes no review in
 * between, so it is the floor the reviews raise. */
#ifndef PL_APP_DRILL_PLAN_H
#define PL_APP_DRILL_PLAN_H

#include "deck.h"
#include "drill_book.h"

#define PL_PLAN_MAX_TOPICS 64

typedef struct {
    char topic[64];
    int cards;          /* cards and prompts of the topic */
    int seen;           /* of them, seen at least once */
    int due;            /* seen and due today */
    double recall_now;  /* mean predicted recall at now, of the cards seen */
    double recall_then; /* at noon of the interview's day */
} PlTopicRecall;

/* Fills out with the topics of decks (n of them), in the order they first
 * appear; returns how many (at most cap; the rest are left out). */
int pl_drill_plan_topics(const PlDeck *const *decks, int n, const PlDrillBook *b, long long now, int until,
                         PlTopicRecall *out, int cap);

/* The schedule FSRS has set, as the book stands: out[k] is how many seen
 * cards and prompts of decks fall due on day today + k (k = 0 counts the
 * overdue too), for k < days. A grade moves its card, so day k's count is
 * what that day brings if nothing is graded before it. */
void pl_drill_plan_days(const PlDeck *const *decks, int n, const PlDrillBook *b, int today, int days, int *out);

#endif
