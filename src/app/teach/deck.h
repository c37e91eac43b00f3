/* Decks: plain-text files of drill items that a teacher writes by hand
 * (doc/deck-format.md is the format). One deck per file, of one kind:
 *
 *   cards      flashcards: a front, a short answer, a fuller one, a memory
 *              aid and the usual wrong answer, scheduled in Leitner boxes
 *   questions  quick-fire multiple choice, every answer explained
 *   bugs       spot the bug: a mis-configured lab setup whose symptom the
 *              lab computes, the causes to pick from, and the fix
 *   minute     "say it in one minute": a prompt, a model answer, the
 *              follow-ups an interviewer asks and what they listen for
 *
 * A deck holds no number: a figure is a {quantity} placeholder the lab fills
 * in (quantity.h). A deck runs no program and reads no file: its settings
 * may not name a corpus, and its own rows are written out (inline:). */
#ifndef PL_APP_DECK_H
#define PL_APP_DECK_H

#include "app/lab/quantity.h"
#include "doc.h"

typedef enum { PL_DECK_CARDS, PL_DECK_QUESTIONS, PL_DECK_BUGS, PL_DECK_MINUTE, PL_DECK_KINDS } PlDeckKind;

#define PL_DECK_MAX_CHOICES 6
#define PL_DECK_MAX_LIST 8
#define PL_DECK_MAX_ALSO 3
#define PL_DECK_ID_CAP 64

typedef struct {
    char *text; /* what the learner reads */
    char *why;  /* why it is right or wrong, shown once chosen */
    int right;
    int pinned; /* "[pinned]": it keeps its place when the others are shuffled (choices.h) */
} PlDeckChoice;

typedef struct {
    char id[PL_DECK_ID_CAP]; /* stable name for progress: id:, or the title's slug */
    char *title;             /* the ## line: a card's front, a question, a prompt, a case's name */
    char *text; /* lines after it, before any field: more of the front, of the question, the case's story */
    char *topic;
    char *set;                  /* settings for the item's figures ("padding=post"), or NULL */
    PlSettingsPatch *set_patch; /* the same, parsed */
    int line;
    /* cards; minute: answer is the model answer */
    char *answer, *more, *remember, *dont;
    /* questions; bugs after choose: */
    char *ask; /* bugs: the choose: prompt */
    PlDeckChoice choices[PL_DECK_MAX_CHOICES];
    int nchoices, right; /* right: the index of the right choice */
    int seconds;         /* questions: the time limit when timed; minute: the countdown; 0: the deck's */
    /* minute */
    char *follow[PL_DECK_MAX_LIST], *listen[PL_DECK_MAX_LIST];
    int nfollow, nlisten;
    /* bugs */
    char *bug, *fix;                        /* settings of the buggy setup, and what the fix changes */
    PlSettingsPatch *bug_patch, *fix_patch; /* the same, parsed (NULL without) */
    char *bug_inline, *fix_inline;          /* the case's own rows (ROW | ROW), under the bug and under the fix */
    int view;                               /* PlView shown beside the case */
    int trains;                             /* the symptom needs training: seeds >= 3 under the bug and under the fix */
    PlQuantity symptom,
        fixed; /* read under the bug, and under the fix (fixed: the symptom again, or its right variant) */
    PlQuantity also[PL_DECK_MAX_ALSO];
    /* what the learner is told the symptom and each also: measure (QUANTITY => label), or NULL */
    char *symptom_label, *also_label[PL_DECK_MAX_ALSO];
    int nalso;
    int expect;  /* -1: the fixed value is lower than the symptom's; +1: higher; 0: other, either way */
    char *after; /* what the fix did, shown with both values */
} PlDeckItem;

typedef struct {
    char name[96]; /* the file's name without .deck */
    char path[1024];
    char *title, *about;
    char *setup;                  /* settings every item starts from, or NULL */
    PlSettingsPatch *setup_patch; /* the same, parsed */
    PlDeckKind kind;
    int seconds; /* questions: the time limit when timed (20); minute: the countdown (60) */
    PlDeckItem *items;
    int n;
} PlDeck;

/* Parses a deck from text[0..n); path names it in messages. NULL with err
 * as "PATH:LINE: message" when it is not a valid deck (the first problem by
 * line). Never crashes on any input. */
PlDeck *pl_deck_parse(const char *path, const char *text, size_t n, PlErr *err);
/* Reads and parses a deck file (at most 1 MB). */
PlDeck *pl_deck_load(const char *path, PlErr *err);
/* The same, going on past a problem to find every one (--check): NULL with
 * each in probs (the caller's), in line order. */
PlDeck *pl_deck_check(const char *path, PlProblems *probs);
/* pl_deck_parse going on past a problem, as pl_deck_check does. */
PlDeck *pl_deck_parse_all(const char *path, const char *text, size_t n, PlProblems *probs);
void pl_deck_free(PlDeck *d);

const char *pl_deck_kind_name(PlDeckKind k);
/* An item's id from its title: "How a blank title looks" ->
 * "how-a-blank-title-looks" (cap bytes at most; "item" when nothing is left). */
void pl_deck_slug(const char *title, char *id, int cap);
/* What its items are called: cards, questions, cases, prompts. */
const char *pl_deck_item_noun(PlDeckKind k);

/* What the learner is told a case's measure is (also: -1 for the symptom,
 * else the index of an also: quantity): its label in the deck, else the
 * quantity's help; never the quantity's internal name. */
const char *pl_deck_measure_label(const PlDeckItem *it, int also);

/* The folders decks are looked for in, in order: $PADLAB_DECKS
 * (colon-separated), $XDG_DATA_HOME/padlab/decks, the installed decks, the
 * source tree's decks. Fills up to max; returns how many exist. */
int pl_deck_dirs(char dirs[][1024], int max);
/* Every deck in the folders, by file name, each name once (the first folder
 * wins), sorted: fills paths (up to max), returns how many, or -1 when memory
 * ran out. */
int pl_deck_list(char paths[][1024], int max);
/* Finds a deck by path or by name ("cards-attention"). 0 with path filled,
 * -1 when there is none, or -2 when memory ran out looking. */
int pl_deck_find(const char *name, char *path, int cap);

/* The result kinds an item's texts read ({placeholders}), a bit per
 * PlResultKind. */
unsigned pl_deck_item_kinds(const PlDeckItem *it);

/* Whether a quantity reads the runs of a training (train.*). */
int pl_deck_quantity_trains(const PlQuantity *q);

/* The settings an item's figures are computed at: base (the learner's),
 * then the deck's setup:, then the item's set: (it may be NULL). */
void pl_deck_item_settings(const PlLabSettings *base, const PlDeck *d, const PlDeckItem *it, PlLabSettings *out);

#endif
