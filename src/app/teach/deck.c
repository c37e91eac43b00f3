/* The deck parser (doc/deck-format.md is the format):
 *
 *   # Title                     the header, up to the first item
 *   kind: cards                 cards, questions, bugs or minute
 *   about: one line
 *   setup: maxlen=200           settings every item's figures start from
 *
 *   ## An item's title          a card's front, a question, a prompt, a case
 *   More of it, on free lines.
 *   topic: attention masks      fields: a known word, a colon, a value; a
 *   answer: The short answer,   text field goes on over the free lines
 *   going on here.              after it
 *
 * This file is the format: its field tables (fields[], header[]), what
 * each field means, and what an item and a deck must have. Reading the
 * lines, the title, matching a field and reporting a problem as
 * "PATH:LINE: message" are the skeleton's (doc.h), as for lessons. */
#include "deck.h"

#include "choices.h"
#include "core/corpus_load.h"
#include "doc.h"
#include "lesson.h"

#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ITEMS 500

static const char *const kind_names[PL_DECK_KINDS] = {"cards", "questions", "bugs", "minute"};

const char *pl_deck_kind_name(PlDeckKind k) { return k >= 0 && k < PL_DECK_KINDS ? kind_names[k] : "?"; }

const char *pl_deck_item_noun(PlDeckKind k) {
    static const char *const nouns[PL_DECK_KINDS] = {"cards", "questions", "cases", "prompts"};
    return k >= 0 && k < PL_DECK_KINDS ? nouns[k] : "items";
}

/* ---- the fields of an item ---- */

typedef enum {
    T_LINE,     /* one line of text */
    T_TEXT,     /* text that goes on over the free lines after it */
    T_LIST,     /* a text field that may be given several times */
    T_SETTINGS, /* name=value pairs of the registry, no corpus */
    T_INLINE,   /* rows written out: ROW | ROW */
    T_QUANTITY, /* a quantity's name */
    T_MEASURE,  /* a quantity's name, and after => what the learner is told it measures */
    T_ALSO,     /* quantities separated by commas */
    T_VIEW,     /* a view's name */
    T_SECONDS,  /* a whole number of seconds */
    T_TRAIN,    /* no value: the case trains */
    T_EXPECT,   /* lower, higher or changed */
    T_ID,       /* the item's stable name */
    T_CHOOSE,   /* the prompt of the causes that follow */
} FieldType;

typedef struct {
    PlDoc doc; /* first: the handlers get it */
    PlDeck *deck;
    int has_kind;
    PlDeckItem *it; /* the item being read, or NULL in the header */
    uint32_t given; /* its fields given, a bit per row of fields[] */
    char **text;    /* the text a free line goes on with, or NULL */
    int opened;     /* a text field of the item was given: free lines no longer go to its text */
    int in_choices; /* "- " and "* " lines are choices */
} Parser;

#define P(d) ((Parser *)(void *)(d))

/* The member of the item at f's offset (count: at f->count). */
static void *member(PlDoc *d, size_t offset) { return (char *)P(d)->it + offset; }

/* ---- checking values ---- */

/* "padding=post mask=on" into *text and *patch: registry settings with
 * allowed values, no corpus. */
static PlStatus settings(PlDoc *d, const char *v, char **text, PlSettingsPatch **patch) {
    free(*text);
    if (!(*text = pl_doc_dupe(v))) return PL_ENOMEM;
    PlStatus st = pl_doc_settings(d, v, patch);
    if (!st && ((*patch)->mask & PL_S_BIT(PL_S_CORPUS)))
        return pl_doc_fail(d, "a deck reads no file: it cannot set the corpus (write rows out with inline:)");
    return st;
}

static PlStatus quantity(PlDoc *d, const char *name, PlQuantity *q) {
    char why[200];
    return pl_quantity_parse(name, q, why, sizeof why) ? pl_doc_fail(d, "%s", why) : PL_OK;
}

/* "QUANTITY => what the learner is told it measures": the quantity, and its
 * label in *label (NULL without one). A label is plain words: the lab's
 * internal names are the teacher's, the label the learner's. */
static PlStatus labelled(PlDoc *d, const char *v, PlQuantity *q, char **label) {
    const char *arrow = strstr(v, "=>");
    char name[128], text[PL_DOC_LINE_MAX + 1];
    snprintf(name, sizeof name, "%.*s", arrow ? (int)(arrow - v) : (int)strlen(v), v);
    PlStatus st = quantity(d, pl_doc_trim(name), q);
    if (st || !arrow) return st;
    snprintf(text, sizeof text, "%s", arrow + 2);
    const char *words = pl_doc_trim(text);
    if (!*words || strchr(words, '{'))
        return pl_doc_fail(d, "a measure's label is plain words after =>: what the learner is told it measures");
    free(*label);
    return (*label = pl_doc_dupe(words)) ? PL_OK : PL_ENOMEM;
}

static PlStatus seconds(PlDoc *d, const char *v, int *out) {
    char *end;
    long n = strtol(v, &end, 10);
    if (end == v || *end || n < 5 || n > 600)
        return pl_doc_fail(d, "seconds is a whole number from 5 to 600, got '%.40s'", v);
    *out = (int)n;
    return PL_OK;
}

/* ---- the fields' handlers ---- */

/* T_LINE, T_TEXT, T_LIST (f->count: the offset of the list's count). */
static PlStatus text_field(PlDoc *d, const PlDocField *f, const char *v) {
    char **at = member(d, f->offset);
    if (f->arg == T_LIST) {
        int *count = member(d, f->count);
        if (*count == PL_DECK_MAX_LIST) return pl_doc_fail(d, "%s: is given at most 8 times", f->name);
        at += (*count)++;
    }
    if (!(*at = pl_doc_dupe(v))) return PL_ENOMEM;
    if (f->arg != T_LINE) P(d)->text = at, P(d)->opened = 1;
    return pl_doc_placeholders(d, v);
}

/* f->count: the offset of the patch. */
static PlStatus settings_field(PlDoc *d, const PlDocField *f, const char *v) {
    return settings(d, v, member(d, f->offset), member(d, f->count));
}

static PlStatus inline_field(PlDoc *d, const PlDocField *f, const char *rows) {
    char **at = member(d, f->offset);
    if (!(*at = pl_doc_dupe(rows))) return PL_ENOMEM;
    size_t n = strlen(rows);
    char *spec = malloc(n + 8);
    if (!spec) return PL_ENOMEM;
    memcpy(spec, "inline:", 7), memcpy(spec + 7, rows, n + 1);
    PlCorpus *c = NULL;
    PlErr ignored;
    PlStatus st = pl_corpus_load(spec, NULL, &c, &ignored);
    pl_corpus_free(c);
    free(spec);
    if (st == PL_ENOMEM) return st;
    return st ? pl_doc_fail(d, "inline takes rows of words or ids separated by |") : PL_OK;
}

static PlStatus quantity_field(PlDoc *d, const PlDocField *f, const char *v) {
    return quantity(d, v, member(d, f->offset));
}

static PlStatus measure_field(PlDoc *d, const PlDocField *f, const char *v) {
    (void)f;
    return labelled(d, v, &P(d)->it->symptom, &P(d)->it->symptom_label);
}

/* "attention.pad_share, layers.leak(lstm off)", or one "QUANTITY => label". */
static PlStatus also_field(PlDoc *d, const PlDocField *f, const char *v) {
    PlDeckItem *it = P(d)->it;
    (void)f;
    if (strstr(v, "=>")) {
        if (it->nalso == PL_DECK_MAX_ALSO) return pl_doc_fail(d, "also: names at most 3 quantities");
        PlStatus st = labelled(d, v, &it->also[it->nalso], &it->also_label[it->nalso]);
        if (!st) it->nalso++;
        return st;
    }
    char *copy = pl_doc_dupe(v), *save = NULL;
    PlStatus st = copy ? PL_OK : PL_ENOMEM;
    for (char *part = copy ? strtok_r(copy, ",", &save) : NULL; part && !st; part = strtok_r(NULL, ",", &save)) {
        if (it->nalso == PL_DECK_MAX_ALSO) st = pl_doc_fail(d, "also: names at most 3 quantities");
        else st = quantity(d, pl_doc_trim(part), &it->also[it->nalso++]);
    }
    free(copy);
    return st;
}

static PlStatus view_field(PlDoc *d, const PlDocField *f, const char *v) {
    PlView view;
    if (pl_view_parse(v, &view))
        return pl_doc_fail(d, "'%.40s' is not a view (batch, cost, attention, rnn, pooling, ...)", v);
    *(int *)member(d, f->offset) = (int)view;
    return PL_OK;
}

static PlStatus seconds_field(PlDoc *d, const PlDocField *f, const char *v) {
    return seconds(d, v, member(d, f->offset));
}

static PlStatus train_field(PlDoc *d, const PlDocField *f, const char *v) {
    if (*v) return pl_doc_fail(d, "train: takes no value");
    *(int *)member(d, f->offset) = 1;
    return PL_OK;
}

static PlStatus expect_field(PlDoc *d, const PlDocField *f, const char *v) {
    if (strcmp(v, "lower") && strcmp(v, "higher") && strcmp(v, "changed"))
        return pl_doc_fail(
            d, "expect: is lower, higher or changed (the fixed value against the symptom's), got '%.40s'", v);
    *(int *)member(d, f->offset) = v[0] == 'l' ? -1 : v[0] == 'h' ? 1 : 0;
    return PL_OK;
}

static PlStatus id_field(PlDoc *d, const PlDocField *f, const char *v) {
    PlDeckItem *it = P(d)->it;
    (void)f;
    for (const char *s = v; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_')
            return pl_doc_fail(d, "an id is letters, digits, - and _, got '%.40s'", v);
    if (!*v || strlen(v) >= sizeof it->id) return pl_doc_fail(d, "an id is 1 to 63 characters");
    snprintf(it->id, sizeof it->id, "%s", v);
    return PL_OK;
}

static PlStatus choose_field(PlDoc *d, const PlDocField *f, const char *v) {
    char **at = member(d, f->offset);
    P(d)->in_choices = 1;
    if (!(*at = pl_doc_dupe(v))) return PL_ENOMEM;
    P(d)->text = at, P(d)->opened = 1;
    return pl_doc_placeholders(d, v);
}

#define K(x) (1u << PL_DECK_##x)
#define ALL (K(CARDS) | K(QUESTIONS) | K(BUGS) | K(MINUTE))
#define AT(f) offsetof(PlDeckItem, f)

/* Each row: its name, handler and type; the decks it belongs to, the decks
 * whose items must have it; its member, and a second one (a list's count,
 * settings' patch). */
static const PlDocField fields[] = {
    {"topic", text_field, T_LINE, ALL, ALL, AT(topic), 0},
    {"id", id_field, T_ID, ALL, 0, 0, 0},
    {"set", settings_field, T_SETTINGS, K(CARDS) | K(QUESTIONS) | K(MINUTE), 0, AT(set), AT(set_patch)},
    {"answer", text_field, T_TEXT, K(CARDS) | K(MINUTE), K(CARDS) | K(MINUTE), AT(answer), 0},
    {"more", text_field, T_TEXT, K(CARDS), K(CARDS), AT(more), 0},
    {"remember", text_field, T_TEXT, K(CARDS), K(CARDS), AT(remember), 0},
    {"dont", text_field, T_TEXT, K(CARDS), K(CARDS), AT(dont), 0},
    {"seconds", seconds_field, T_SECONDS, K(QUESTIONS) | K(MINUTE), 0, AT(seconds), 0},
    {"follow", text_field, T_LIST, K(MINUTE), K(MINUTE), AT(follow), AT(nfollow)},
    {"listen", text_field, T_LIST, K(MINUTE), K(MINUTE), AT(listen), AT(nlisten)},
    {"bug", settings_field, T_SETTINGS, K(BUGS), 0, AT(bug), AT(bug_patch)},
    {"inline", inline_field, T_INLINE, K(BUGS), 0, AT(bug_inline), 0},
    {"view", view_field, T_VIEW, K(BUGS), K(BUGS), AT(view), 0},
    {"train", train_field, T_TRAIN, K(BUGS), 0, AT(trains), 0},
    {"symptom", measure_field, T_MEASURE, K(BUGS), K(BUGS), AT(symptom), 0},
    {"also", also_field, T_ALSO, K(BUGS), 0, 0, 0},
    {"choose", choose_field, T_CHOOSE, K(BUGS), K(BUGS), AT(ask), 0},
    {"fix", settings_field, T_SETTINGS, K(BUGS), 0, AT(fix), AT(fix_patch)},
    {"fix-inline", inline_field, T_INLINE, K(BUGS), 0, AT(fix_inline), 0},
    {"fixed", quantity_field, T_QUANTITY, K(BUGS), 0, AT(fixed), 0},
    {"expect", expect_field, T_EXPECT, K(BUGS), K(BUGS), AT(expect), 0},
    {"after", text_field, T_TEXT, K(BUGS), K(BUGS), AT(after), 0},
};
#define NFIELDS ((int)(sizeof fields / sizeof fields[0]))

/* The bit of the field named name in a Parser's given. */
static uint32_t bit(const char *name) {
    for (int k = 0; k < NFIELDS; k++)
        if (strcmp(fields[k].name, name) == 0) return 1u << k;
    return 0;
}

/* What every field checks first: it belongs to the deck's kind, and is
 * given once (but a list). A field ends the free text it was in. */
static PlStatus enter(PlDoc *d, const PlDocField *f) {
    Parser *p = P(d);
    uint32_t b = 1u << (f - fields);
    if (!(f->kinds & (1u << p->deck->kind)))
        return pl_doc_fail(d, "%s: has no place in a %s deck", f->name, kind_names[p->deck->kind]);
    if ((p->given & b) && f->arg != T_LIST && f->arg != T_ALSO)
        return pl_doc_fail(d, "%s: is given twice in this item", f->name);
    p->given |= b;
    p->text = p->opened ? NULL : &p->it->text, p->in_choices = p->deck->kind == PL_DECK_QUESTIONS;
    return PL_OK;
}

/* "- text => why" or "* text => why" (the right one starred). */
static PlStatus add_choice(PlDoc *d, const char *line) {
    PlDeckItem *it = P(d)->it;
    if (it->nchoices == PL_DECK_MAX_CHOICES) return pl_doc_fail(d, "an item has at most 6 choices");
    const char *text = line + 2, *arrow = strstr(text, "=>");
    if (!arrow) return pl_doc_fail(d, "a choice is '- text => why' ('* ' for the right one): this one says no why");
    PlDeckChoice *c = &it->choices[it->nchoices++];
    c->right = line[0] == '*';
    while (*text == ' ') text++;
    c->pinned = pl_choices_pinned(text, &text);
    c->text = strndup(text, (size_t)(arrow > text ? arrow - text : 0));
    c->why = pl_doc_dupe(arrow + 2);
    if (!c->text || !c->why) return PL_ENOMEM;
    char *t = pl_doc_trim(c->text), *w = pl_doc_trim(c->why);
    memmove(c->text, t, strlen(t) + 1), memmove(c->why, w, strlen(w) + 1);
    if (!c->text[0] || !c->why[0]) return pl_doc_fail(d, "a choice needs its text and its why");
    if (c->right) it->right = it->nchoices - 1;
    PlStatus st = pl_doc_placeholders(d, c->text);
    return st ? st : pl_doc_placeholders(d, c->why);
}

/* ---- items ---- */

void pl_deck_slug(const char *title, char *id, int cap) {
    int n = 0, dash = 0;
    for (const char *s = title; *s && n < cap - 1; s++) {
        if (isalnum((unsigned char)*s)) {
            if (dash && n) id[n++] = '-';
            if (n < cap - 1) id[n++] = (char)tolower((unsigned char)*s);
            dash = 0;
        } else {
            dash = 1;
        }
    }
    id[n] = '\0';
    if (!n) snprintf(id, (size_t)cap, "item");
}

/* The fields a complete case holds beyond the required ones. */
static PlStatus check_case(PlDoc *d, PlDeckItem *it) {
    Parser *p = P(d);
    if (!(p->given & bit("fixed"))) it->fixed = it->symptom;
    if (!(p->given & (bit("fix") | bit("fix-inline") | bit("fixed"))))
        return pl_doc_fail(d,
                           "a case says what fixes it: fix: settings, fix-inline: rows, or fixed: the right variant");
    int trains = pl_deck_quantity_trains(&it->symptom) || pl_deck_quantity_trains(&it->fixed);
    for (int i = 0; i < it->nalso; i++)
        if (pl_deck_quantity_trains(&it->also[i])) trains = 1;
    if (trains && !it->trains) return pl_doc_fail(d, "a case that reads train.* trains: add train:");
    PlLabSettings s = pl_settings_default();
    pl_settings_patch_apply(&s, p->deck->setup_patch);
    pl_settings_patch_apply(&s, it->bug_patch), pl_settings_patch_apply(&s, it->fix_patch);
    if (it->trains && s.seeds < 3)
        return pl_doc_fail(d, "a case that trains runs 3 seeds or more: a spread, never one run");
    return PL_OK;
}

/* A case offers three causes at least: between two, a guess is right half
 * the time. */
static PlStatus check_choices(PlDoc *d, const PlDeckItem *it) {
    int right = 0;
    for (int c = 0; c < it->nchoices; c++) right += it->choices[c].right;
    if (P(d)->deck->kind == PL_DECK_BUGS && (it->nchoices < 3 || right != 1))
        return pl_doc_fail(
            d, "choose: needs three causes or more (- text => why), exactly one of them right (* text => why)");
    if (it->nchoices < 2 || right != 1)
        return pl_doc_fail(
            d, "a question needs two choices or more (- text => why), exactly one of them right (* text => why)");
    return PL_OK;
}

/* The required fields the item lacks, named together in one problem. */
static PlStatus missing_fields(PlDoc *d) {
    static const char *const nouns[PL_DECK_KINDS] = {"card", "question", "case", "prompt"};
    Parser *p = P(d);
    char names[200] = "";
    int n = 0, last = -1;
    for (int k = 0; k < NFIELDS; k++)
        if ((fields[k].required & (1u << p->deck->kind)) && !(p->given & (1u << k))) {
            if (last >= 0)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s:", names[0] ? ", " : "",
                         fields[last].name);
            last = k, n++;
        }
    if (!n) return PL_OK;
    return pl_doc_fail(d, "this %s needs its %s%s%s: line%s", nouns[p->deck->kind], names, n > 1 ? " and " : "",
                       fields[last].name, n > 1 ? "s" : "");
}

static PlStatus same_id(PlDoc *d, const PlDeckItem *it) {
    const PlDeck *deck = P(d)->deck;
    for (int i = 0; i < deck->n - 1; i++)
        if (strcmp(deck->items[i].id, it->id) == 0)
            return pl_doc_fail(
                d, "the item at line %d has the same id '%s': give one of them an id:", deck->items[i].line, it->id);
    return PL_OK;
}

/* What the item must have; its id must be its own. Every problem is kept
 * when every one is wanted. */
static PlStatus end_item(PlDoc *d) {
    Parser *p = P(d);
    PlDeckItem *it = p->it;
    if (!it) return PL_OK;
    int saved = d->line, kind = p->deck->kind;
    d->line = it->line;
    PlStatus st = pl_doc_found(d, missing_fields(d));
    if (!st && (kind == PL_DECK_QUESTIONS || kind == PL_DECK_BUGS)) st = pl_doc_found(d, check_choices(d, it));
    if (!st && kind == PL_DECK_BUGS) st = pl_doc_found(d, check_case(d, it));
    if (!it->id[0]) pl_deck_slug(it->title, it->id, sizeof it->id);
    if (!st) st = pl_doc_found(d, same_id(d, it));
    d->line = saved;
    return st;
}

static PlStatus new_item(PlDoc *d, char *heading) {
    Parser *p = P(d);
    PlDeck *deck = p->deck;
    PlStatus st = pl_doc_found(d, end_item(d));
    if (st) return st;
    if (!p->has_kind)
        return pl_doc_fatal(d, "a deck says its kind before its first item: kind: cards, questions, bugs or minute");
    if (deck->n == MAX_ITEMS) return pl_doc_fatal(d, "a deck has at most 500 items");
    PlDeckItem *items = realloc(deck->items, sizeof *items * (size_t)(deck->n + 1));
    if (!items) return PL_ENOMEM;
    deck->items = items;
    p->it = &items[deck->n++];
    memset(p->it, 0, sizeof *p->it);
    p->it->line = d->line;
    p->given = 0, p->opened = 0, p->text = &p->it->text, p->in_choices = deck->kind == PL_DECK_QUESTIONS;
    char *title = pl_doc_trim(heading);
    if (!(p->it->title = pl_doc_dupe(title))) return PL_ENOMEM;
    return *title ? pl_doc_placeholders(d, title) : pl_doc_fail(d, "an item (##) needs its title");
}

static PlStatus item_text(PlDoc *d, const char *line) {
    Parser *p = P(d);
    if (p->in_choices && (strncmp(line, "- ", 2) == 0 || strncmp(line, "* ", 2) == 0)) return add_choice(d, line);
    if (!*line) return p->text ? pl_doc_append(p->text, "") : PL_OK;
    if (!p->text)
        return pl_doc_fail(d, "this line belongs to no field: text goes on after a text field (answer:, more:, ...)");
    PlStatus st = pl_doc_placeholders(d, line);
    return st ? st : pl_doc_append(p->text, line);
}

/* ---- the header: kind:, about:, setup:, seconds: ---- */

static PlStatus kind(PlDoc *d, const PlDocField *f, const char *v) {
    (void)f;
    for (int k = 0; k < PL_DECK_KINDS; k++)
        if (strcmp(v, kind_names[k]) == 0) return P(d)->deck->kind = (PlDeckKind)k, P(d)->has_kind = 1, PL_OK;
    return pl_doc_fail(d, "kind: is cards, questions, bugs or minute, got '%.40s'", v);
}

static PlStatus setup(PlDoc *d, const PlDocField *f, const char *v) {
    (void)f;
    return settings(d, v, &P(d)->deck->setup, &P(d)->deck->setup_patch);
}

static PlStatus deck_seconds(PlDoc *d, const PlDocField *f, const char *v) {
    (void)f;
    return seconds(d, v, &P(d)->deck->seconds);
}

static const PlDocField header[] = {
    {"kind", kind, .arg = 0},
    {"about", pl_doc_header_text, .offset = offsetof(PlDeck, about)},
    {"setup", setup, .arg = 0},
    {"seconds", deck_seconds, .arg = 0},
};

static PlStatus finish(PlDoc *d) {
    Parser *p = P(d);
    PlStatus st = pl_doc_found(d, end_item(d));
    if (st) return st;
    d->line = 1;
    if (!p->has_kind) return pl_doc_fatal(d, "a deck says its kind: kind: cards, questions, bugs or minute");
    if (!p->deck->n) return pl_doc_fatal(d, "a deck has items, each beginning with ## and its title");
    if (!p->deck->seconds) p->deck->seconds = p->deck->kind == PL_DECK_MINUTE ? 60 : 20;
    return PL_OK;
}

#ifndef PL_DECKS_DIR
#define PL_DECKS_DIR ""
#endif
#ifndef PL_SOURCE_DECKS_DIR
#define PL_SOURCE_DECKS_DIR ""
#endif

static void *parse(const char *path, const char *text, size_t n, PlProblems *probs, PlErr *err);

static const PlDocFormat format = {
    .what = "a deck",
    .suffix = ".deck",
    .section = "item",
    .env = "PADLAB_DECKS",
    .sub = "decks",
    .installed = PL_DECKS_DIR,
    .source = PL_SOURCE_DECKS_DIR,
    .header = header,
    .nheader = (int)(sizeof header / sizeof header[0]),
    .fields = fields,
    .nfields = NFIELDS,
    .enter = enter,
    .begin = new_item,
    .text = item_text,
    .finish = finish,
    .parse = parse,
};

/* ---- parsing, loading, freeing ---- */

/* The parse, stopping at the first problem (probs NULL: it goes in err) or
 * going on to find every one (into probs). */
static void *parse(const char *path, const char *text, size_t n, PlProblems *probs, PlErr *err) {
    PlDeck *deck = calloc(1, sizeof *deck);
    if (!deck) return pl_doc_no_memory(path, probs, err);
    pl_doc_name(&format, path, deck->name, sizeof deck->name);
    snprintf(deck->path, sizeof deck->path, "%s", path);
    Parser p = {.doc = {.format = &format, .path = path, .out = deck, .title = &deck->title, .probs = probs},
                .deck = deck};
    if (pl_doc_parse(&p.doc, text, n, err)) {
        pl_deck_free(deck);
        return NULL;
    }
    return deck;
}

PlDeck *pl_deck_parse(const char *path, const char *text, size_t n, PlErr *err) {
    return parse(path, text, n, NULL, err);
}

PlDeck *pl_deck_parse_all(const char *path, const char *text, size_t n, PlProblems *probs) {
    PlErr err;
    return parse(path, text, n, probs, &err);
}

PlDeck *pl_deck_load(const char *path, PlErr *err) { return pl_doc_load(&format, path, NULL, err); }

PlDeck *pl_deck_check(const char *path, PlProblems *probs) {
    PlErr err;
    return pl_doc_load(&format, path, probs, &err);
}

static void free_item(PlDeckItem *it) {
    char **texts[] = {&it->title, &it->text, &it->topic, &it->set, &it->answer,     &it->more,       &it->remember,
                      &it->dont,  &it->ask,  &it->bug,   &it->fix, &it->bug_inline, &it->fix_inline, &it->after};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) free(*texts[i]);
    free(it->set_patch), free(it->bug_patch), free(it->fix_patch);
    for (int c = 0; c < it->nchoices; c++) free(it->choices[c].text), free(it->choices[c].why);
    free(it->symptom_label);
    for (int i = 0; i < PL_DECK_MAX_ALSO; i++) free(it->also_label[i]);
    for (int i = 0; i < it->nfollow; i++) free(it->follow[i]);
    for (int i = 0; i < it->nlisten; i++) free(it->listen[i]);
}

void pl_deck_free(PlDeck *d) {
    if (!d) return;
    for (int i = 0; i < d->n; i++) free_item(&d->items[i]);
    free(d->items);
    free(d->title), free(d->about), free(d->setup), free(d->setup_patch);
    free(d);
}

/* ---- where decks are ---- */

int pl_deck_dirs(char dirs[][1024], int max) { return pl_doc_dirs(&format, dirs, max); }
int pl_deck_list(char paths[][1024], int max) { return pl_doc_list(&format, paths, max); }
int pl_deck_find(const char *name, char *path, int cap) { return pl_doc_find(&format, name, path, cap); }

/* ---- what items read ---- */

unsigned pl_deck_item_kinds(const PlDeckItem *it) {
    const char *texts[] = {it->title, it->text, it->answer, it->more, it->remember, it->dont, it->ask, it->after};
    unsigned k = 0;
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) k |= pl_lesson_text_kinds(texts[i]);
    for (int c = 0; c < it->nchoices; c++)
        k |= pl_lesson_text_kinds(it->choices[c].text) | pl_lesson_text_kinds(it->choices[c].why);
    for (int i = 0; i < it->nfollow; i++) k |= pl_lesson_text_kinds(it->follow[i]);
    for (int i = 0; i < it->nlisten; i++) k |= pl_lesson_text_kinds(it->listen[i]);
    return k;
}

const char *pl_deck_measure_label(const PlDeckItem *it, int also) {
    const char *label = also < 0 ? it->symptom_label : it->also_label[also];
    const PlQuantity *q = also < 0 ? &it->symptom : &it->also[also];
    if (label) return label;
    return q->def < pl_quantity_count() ? pl_quantity_help(q->def) : "the measure";
}

int pl_deck_quantity_trains(const PlQuantity *q) {
    char name[96];
    if (pl_quantity_kinds(q) || pl_quantity_kind_of_format(q) == PL_QF_SETTING) return 0;
    return strncmp(pl_quantity_name(q, name, sizeof name), "train.", 6) == 0;
}

void pl_deck_item_settings(const PlLabSettings *base, const PlDeck *d, const PlDeckItem *it, PlLabSettings *out) {
    *out = *base;
    pl_settings_patch_apply(out, d->setup_patch);
    if (it) pl_settings_patch_apply(out, it->set_patch);
}
