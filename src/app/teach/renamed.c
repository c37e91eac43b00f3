/* The lessons' old names (see renamed.h): the order of issue 33, cheapest
 * idea first. Before it the lessons were 01-rectangle 02-mask 03-attention
 * 04-causal 05-rnn 06-pooling 07-loss 08-maxlen 09-batching 10-generation
 * 11-experiment; 01-rectangle, 07-loss and 10-generation kept theirs. */
#include "renamed.h"

#include <string.h>

static const PlLessonRenamed renames[] = {
    {"02-mask", "03-mask", 0, 0, 0, NULL},
    {"03-attention", "06-attention", 0, 0, 0, NULL},
    {"04-causal", "09-causal", 0, 0, 0, NULL},
    {"05-rnn", "04-rnn", 0, 0, 0, NULL},
    {"06-pooling", "05-pooling", 0, 0, 0, NULL},
    {"08-maxlen", "02-maxlen", 0, 0, 0, NULL},
    /* 09-batching's steps 10 to 12 (from 1) are 11-packing's 4 to 6 */
    {"09-batching", "08-batching", 0, 9, 0, NULL},
    {"09-batching", "11-packing", 9, 12, -6,
     "attention-across-the-boundaries the-boundary-loss-terms no-boundary-to-cross"},
    {"09-batching", "08-batching", 12, 0, -3, NULL},
    {"11-experiment", "12-experiment", 0, 0, 0, NULL},
};

#define NROWS ((int)(sizeof renames / sizeof renames[0]))

const PlLessonRenamed *pl_lesson_renames(int *n) { return *n = NROWS, renames; }

const char *pl_lesson_renamed(const char *old) {
    for (int i = 0; i < NROWS; i++)
        if (strcmp(renames[i].old, old) == 0) return renames[i].now;
    return NULL;
}

const char *pl_lesson_renamed_step(const char *old, int *step) {
    for (int i = 0; i < NROWS; i++) {
        const PlLessonRenamed *r = &renames[i];
        if (strcmp(r->old, old) == 0 && *step >= r->from && (!r->to || *step < r->to)) return *step += r->shift, r->now;
    }
    return NULL;
}

const char *pl_lesson_was(const char *now) {
    const char *old = NULL;
    for (int i = 0; i < NROWS; i++)
        if (strcmp(renames[i].now, now) == 0) {
            if (old || renames[i].from || renames[i].to || renames[i].shift) return NULL;
            old = renames[i].old;
        }
    for (int i = 0; old && i < NROWS; i++) /* and no step of it went elsewhere */
        if (strcmp(renames[i].old, old) == 0 && strcmp(renames[i].now, now)) return NULL;
    return old;
}

/* Whether the space-separated list holds word. */
static int listed(const char *list, const char *word) {
    size_t n = strlen(word);
    for (const char *s = list; (s = strstr(s, word)); s += n)
        if ((s == list || s[-1] == ' ') && (s[n] == ' ' || !s[n])) return 1;
    return 0;
}

const char *pl_lesson_renamed_card(const char *old, const char *slug) {
    const char *whole = NULL;
    for (int i = 0; i < NROWS; i++) {
        const PlLessonRenamed *r = &renames[i];
        if (strcmp(r->old, old)) continue;
        if (r->cards && listed(r->cards, slug)) return r->now;
        if (!r->cards && !whole) whole = r->now;
    }
    return whole;
}
