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
 * The fields an item may have, and must have, are one table (fields[]);
 * every error names the file and the line. */
#include "deck.h"

#include "choices.h"
#include "core/corpus_load.h"
#include "doc.h"
#include "app/lab/fill.h"
#include "lesson.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BYTES (1 << 20)
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

#define K(x) (1u << PL_DECK_##x)
#define ALL (K(CARDS) | K(QUESTIONS) | K(BUGS) | K(MINUTE))
#define AT(f) offsetof(PlDeckItem, f)

typedef struct {
    const char *name;
    unsigned kinds;    /* the decks it belongs to */
    unsigned required; /* the decks whose items must have it */
    FieldType type;
    size_t offset; /* of its member in PlDeckItem */
    size_t count;  /* T_LIST: of its count */
} Field;

static const Field fields[] = {
    {"topic", ALL, ALL, T_LINE, AT(topic), 0},
    {"id", ALL, 0, T_ID, 0, 0},
    {"set", K(CARDS) | K(QUESTIONS) | K(MINUTE), 0, T_SETTINGS, AT(set), 0},
    {"answer", K(CARDS) | K(MINUTE), K(CARDS) | K(MINUTE), T_TEXT, AT(answer), 0},
    {"more", K(CARDS), K(CARDS), T_TEXT, AT(more), 0},
    {"remember", K(CARDS), K(CARDS), T_TEXT, AT(remember), 0},
    {"dont", K(CARDS), K(CARDS), T_TEXT, AT(dont), 0},
    {"seconds", K(QUESTIONS) | K(MINUTE), 0, T_SECONDS, AT(seconds), 0},
    {"follow", K(MINUTE), K(MINUTE), T_LIST, AT(follow), AT(nfollow)},
    {"listen", K(MINUTE), K(MINUTE), T_LIST, AT(listen), AT(nlisten)},
    {"bug", K(BUGS), 0, T_SETTINGS, AT(bug), 0},
    {"inline", K(BUGS), 0, T_INLINE, AT(bug_inline), 0},
    {"view", K(BUGS), K(BUGS), T_VIEW, AT(view), 0},
    {"train", K(BUGS), 0, T_TRAIN, AT(trains), 0},
    {"symptom", K(BUGS), K(BUGS), T_MEASURE, AT(symptom), 0},
    {"also", K(BUGS), 0, T_ALSO, 0, 0},
    {"choose", K(BUGS), K(BUGS), T_CHOOSE, AT(ask), 0},
    {"fix", K(BUGS), 0, T_SETTINGS, AT(fix), 0},
    {"fix-inline", K(BUGS), 0, T_INLINE, AT(fix_inline), 0},
    {"fixed", K(BUGS), 0, T_QUANTITY, AT(fixed), 0},
    {"expect", K(BUGS), K(BUGS), T_EXPECT, AT(expect), 0},
    {"after", K(BUGS), K(BUGS), T_TEXT, AT(after), 0},
};
#define NFIELDS ((int)(sizeof fields / sizeof fields[0]))

/* The bit of the field named name in a Parser's given. */
static uint32_t bit(const char *name) {
    for (int k = 0; k < NFIELDS; k++)
        if (strcmp(fields[k].name, name) == 0) return 1u << k;
    return 0;
}

static char **text_at(PlDeckItem *it, const Field *f) { return (char **)(void *)((char *)it + f->offset); }

typedef struct {
    const char *path;
    int line;
    PlErr last;        /* the last problem found */
    int last_line;     /* its line */
    PlProblems *probs; /* every problem is wanted (--check): the parse goes on past one; NULL: it stops */
    int fatal;         /* the last problem leaves nothing sensible to read on from */
    PlDeck *d;
    int has_kind;
    PlDeckItem *it; /* the item being read, or NULL in the header */
    uint32_t given; /* its fields given, a bit per row of fields[] */
    char **text;    /* the text a free line goes on with, or NULL */
    int opened;     /* a text field of the item was given: free lines no longer go to its text */
    int in_choices; /* "- " and "* " lines are choices */
} Parser;

static PlStatus fail(Parser *p, const char *fmt, const char *a, const char *b) {
    char msg[400];
    snprintf(msg, sizeof msg, fmt, a ? a : "", b ? b : "");
    p->last_line = p->line;
    return pl_err_set(&p->last, PL_EINPUT, "%s:%d: %s", p->path, p->line, msg);
}

/* A problem after which every later line would be one too (no title, no
 * kind): the parse stops there even when every problem is wanted. */
static PlStatus fatal(Parser *p, const char *fmt, const char *a, const char *b) {
    p->fatal = 1;
    return fail(p, fmt, a, b);
}

/* The status of a step that may have found a problem: kept, and the parse
 * goes on, when every problem is wanted; else returned, to stop it. */
static PlStatus found(Parser *p, PlStatus st) {
    if (st != PL_EINPUT || !p->probs || p->fatal) return st;
    pl_problems_add(p->probs, p->last_line, p->last.msg);
    return PL_OK;
}

static char *dupe(const char *s) { return strdup(s ? s : ""); }

static char *trimmed(char *s) {
    while (isspace((unsigned char)*s)) s++;
    for (char *e = s + strlen(s); e > s && isspace((unsigned char)e[-1]);) *--e = '\0';
    return s;
}

/* Appends a line to *text: lines of one paragraph join with a space, a
 * blank line ends the paragraph, a "- " line is a bullet of its own. */
static int append(char **text, const char *line) {
    size_t a = *text ? strlen(*text) : 0;
    if (!*line) {
        if (!a || (*text)[a - 1] == '\n') return 0;
        line = "\n";
    }
    const char *sep = !a || (*text)[a - 1] == '\n' || line[0] == '\n' ? "" : strncmp(line, "- ", 2) == 0 ? "\n" : " ";
    size_t m = strlen(sep), n = strlen(line);
    char *t = realloc(*text, a + m + n + 1);
    if (!t) return -1;
    memcpy(t + a, sep, m);
    memcpy(t + a + m, line, n + 1);
    *text = t;
    return 0;
}

/* ---- checking values ---- */

/* Placeholders and {? conditionals}, as lessons have them (fill.h). */
static PlStatus check_placeholders(Parser *p, const char *text) {
    char why[200];
    return pl_fill_check(text, why, sizeof why) ? fail(p, "%s", why, NULL) : PL_OK;
}

/* "padding=post mask=on": registry settings with allowed values, no corpus. */
static PlStatus check_settings(Parser *p, const char *text) {
    char *copy = dupe(text), *save = NULL;
    PlLabSettings s = pl_settings_default();
    PlStatus st = copy ? PL_OK : PL_ENOMEM;
    int n = 0;
    for (char *tok = copy ? strtok_r(copy, " \t", &save) : NULL; tok && !st; tok = strtok_r(NULL, " \t", &save), n++) {
        char *eq = strchr(tok, '='), want[200];
        if (!eq) {
            st = fail(p, "settings are name=value pairs, got '%.40s'", tok, NULL);
            break;
        }
        *eq = '\0';
        int id = pl_setting_find(tok);
        if (id == PL_S_CORPUS)
            st = fail(p, "a deck reads no file: it cannot set the corpus (write rows out with inline:)", NULL, NULL);
        else if (id < 0) st = fail(p, "'%.40s' is not a setting (padlab lab --help lists them)", tok, NULL);
        else if (pl_setting_parse(&s, (PlSettingId)id, eq + 1, want, sizeof want))
            st = fail(p, "%s must be %s", tok, want);
    }
    if (!st && !n) st = fail(p, "settings need at least one name=value", NULL, NULL);
    free(copy);
    return st;
}

static PlStatus check_inline(Parser *p, const char *rows) {
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
    return st ? fail(p, "inline takes rows of words or ids separated by |", NULL, NULL) : PL_OK;
}

static PlStatus quantity(Parser *p, const char *name, PlQuantity *q) {
    char why[200];
    return pl_quantity_parse(name, q, why, sizeof why) ? fail(p, "%s", why, NULL) : PL_OK;
}

/* "QUANTITY => what the learner is told it measures": the quantity, and its
 * label in *label (NULL without one). A label is plain words: the lab's
 * internal names are the teacher's, the label the learner's. */
static PlStatus labelled(Parser *p, const char *v, PlQuantity *q, char **label) {
    const char *arrow = strstr(v, "=>");
    char name[128], text[PL_DATAFILE_LINE_MAX + 1];
    snprintf(name, sizeof name, "%.*s", arrow ? (int)(arrow - v) : (int)strlen(v), v);
    PlStatus st = quantity(p, trimmed(name), q);
    if (st || !arrow) return st;
    snprintf(text, sizeof text, "%s", arrow + 2);
    const char *words = trimmed(text);
    if (!*words || strchr(words, '{'))
        return fail(p, "a measure's label is plain words after =>: what the learner is told it measures", NULL, NULL);
    free(*label);
    return (*label = dupe(words)) ? PL_OK : PL_ENOMEM;
}

/* "attention.pad_share, layers.leak(lstm off)", or one "QUANTITY => label". */
static PlStatus also_list(Parser *p, PlDeckItem *it, const char *v) {
    if (strstr(v, "=>")) {
        if (it->nalso == PL_DECK_MAX_ALSO) return fail(p, "also: names at most 3 quantities", NULL, NULL);
        PlStatus st = labelled(p, v, &it->also[it->nalso], &it->also_label[it->nalso]);
        if (!st) it->nalso++;
        return st;
    }
    char *copy = dupe(v), *save = NULL;
    PlStatus st = copy ? PL_OK : PL_ENOMEM;
    for (char *part = copy ? strtok_r(copy, ",", &save) : NULL; part && !st; part = strtok_r(NULL, ",", &save)) {
        if (it->nalso == PL_DECK_MAX_ALSO) st = fail(p, "also: names at most 3 quantities", NULL, NULL);
        else st = quantity(p, trimmed(part), &it->also[it->nalso++]);
    }
    free(copy);
    return st;
}

static PlStatus seconds(Parser *p, const char *v, int *out) {
    char *end;
    long n = strtol(v, &end, 10);
    if (end == v || *end || n < 5 || n > 600)
        return fail(p, "seconds is a whole number from 5 to 600, got '%.40s'", v, NULL);
    *out = (int)n;
    return PL_OK;
}

/* ---- fields ---- */

static PlStatus text_field(Parser *p, const Field *f, const char *v) {
    PlDeckItem *it = p->it;
    char **at = text_at(it, f);
    if (f->type == T_LIST) {
        int *count = (int *)(void *)((char *)it + f->count);
        if (*count == PL_DECK_MAX_LIST) return fail(p, "%s: is given at most 8 times", f->name, NULL);
        at += (*count)++;
    }
    if (!(*at = dupe(v))) return PL_ENOMEM;
    if (f->type != T_LINE) p->text = at, p->opened = 1;
    return check_placeholders(p, v);
}

static PlStatus field(Parser *p, int k, const char *v) {
    const Field *f = &fields[k];
    PlDeckItem *it = p->it;
    if (!(f->kinds & (1u << p->d->kind)))
        return fail(p, "%s: has no place in a %s deck", f->name, kind_names[p->d->kind]);
    if ((p->given & (1u << k)) && f->type != T_LIST && f->type != T_ALSO)
        return fail(p, "%s: is given twice in this item", f->name, NULL);
    p->given |= 1u << k;
    p->text = p->opened ? NULL : &it->text, p->in_choices = p->d->kind == PL_DECK_QUESTIONS;
    char **at = text_at(it, f);
    PlView view;
    switch (f->type) {
    case T_LINE:
    case T_TEXT:
    case T_LIST: return text_field(p, f, v);
    case T_SETTINGS: return (*at = dupe(v)) ? check_settings(p, v) : PL_ENOMEM;
    case T_INLINE: return (*at = dupe(v)) ? check_inline(p, v) : PL_ENOMEM;
    case T_QUANTITY: return quantity(p, v, (PlQuantity *)(void *)at);
    case T_MEASURE: return labelled(p, v, &it->symptom, &it->symptom_label);
    case T_ALSO: return also_list(p, it, v);
    case T_VIEW:
        if (pl_view_parse(v, &view))
            return fail(p, "'%.40s' is not a view (batch, cost, attention, rnn, pooling, ...)", v, NULL);
        return *(int *)(void *)at = (int)view, PL_OK;
    case T_SECONDS: return seconds(p, v, (int *)(void *)at);
    case T_TRAIN: return *v ? fail(p, "train: takes no value", NULL, NULL) : (*(int *)(void *)at = 1, PL_OK);
    case T_EXPECT:
        if (strcmp(v, "lower") && strcmp(v, "higher") && strcmp(v, "changed"))
            return fail(p, "expect: is lower, higher or changed (the fixed value against the symptom's), got '%.40s'",
                        v, NULL);
        return *(int *)(void *)at = v[0] == 'l' ? -1 : v[0] == 'h' ? 1 : 0, PL_OK;
    case T_ID:
        for (const char *s = v; *s; s++)
            if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_')
                return fail(p, "an id is letters, digits, - and _, got '%.40s'", v, NULL);
        if (!*v || strlen(v) >= sizeof it->id) return fail(p, "an id is 1 to 63 characters", NULL, NULL);
        snprintf(it->id, sizeof it->id, "%s", v);
        return PL_OK;
    default: /* T_CHOOSE */
        p->in_choices = 1;
        if (!(*at = dupe(v))) return PL_ENOMEM;
        p->text = at, p->opened = 1;
        return check_placeholders(p, v);
    }
}

/* The field a line starts with ("word: value"), or -1. */
static int field_of(const char *line, const char **value) {
    for (int k = 0; k < NFIELDS; k++) {
        size_t n = strlen(fields[k].name);
        if (strncmp(line, fields[k].name, n) == 0 && line[n] == ':' && (line[n + 1] == ' ' || !line[n + 1])) {
            *value = line + n + 1 + (line[n + 1] == ' ');
            return k;
        }
    }
    return -1;
}

/* "- text => why" or "* text => why" (the right one starred). */
static PlStatus add_choice(Parser *p, const char *line) {
    PlDeckItem *it = p->it;
    if (it->nchoices == PL_DECK_MAX_CHOICES) return fail(p, "an item has at most 6 choices", NULL, NULL);
    const char *text = line + 2, *arrow = strstr(text, "=>");
    if (!arrow)
        return fail(p, "a choice is '- text => why' ('* ' for the right one): this one says no why", NULL, NULL);
    PlDeckChoice *c = &it->choices[it->nchoices++];
    c->right = line[0] == '*';
    while (*text == ' ') text++;
    c->pinned = pl_choices_pinned(text, &text);
    c->text = strndup(text, (size_t)(arrow > text ? arrow - text : 0));
    c->why = dupe(arrow + 2);
    if (!c->text || !c->why) return PL_ENOMEM;
    char *t = trimmed(c->text), *w = trimmed(c->why);
    memmove(c->text, t, strlen(t) + 1), memmove(c->why, w, strlen(w) + 1);
    if (!c->text[0] || !c->why[0]) return fail(p, "a choice needs its text and its why", NULL, NULL);
    if (c->right) it->right = it->nchoices - 1;
    PlStatus st = check_placeholders(p, c->text);
    return st ? st : check_placeholders(p, c->why);
}

/* ---- items ---- */

/* "How a blank title looks" -> "how-a-blank-title-looks". */
static void slug(const char *title, char *id, int cap) {
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
static PlStatus check_case(Parser *p, PlDeckItem *it) {
    if (!(p->given & bit("fixed"))) it->fixed = it->symptom;
    if (!(p->given & (bit("fix") | bit("fix-inline") | bit("fixed"))))
        return fail(p, "a case says what fixes it: fix: settings, fix-inline: rows, or fixed: the right variant", NULL,
                    NULL);
    int trains = pl_deck_quantity_trains(&it->symptom) || pl_deck_quantity_trains(&it->fixed);
    for (int i = 0; i < it->nalso; i++)
        if (pl_deck_quantity_trains(&it->also[i])) trains = 1;
    if (trains && !it->trains) return fail(p, "a case that reads train.* trains: add train:", NULL, NULL);
    PlLabSettings s = pl_settings_default();
    pl_deck_apply(&s, p->d->setup), pl_deck_apply(&s, it->bug), pl_deck_apply(&s, it->fix);
    if (it->trains && s.seeds < 3)
        return fail(p, "a case that trains runs 3 seeds or more: a spread, never one run", NULL, NULL);
    return PL_OK;
}

/* A case offers three causes at least: between two, a guess is right half
 * the time. */
static PlStatus check_choices(Parser *p, const PlDeckItem *it) {
    int right = 0;
    for (int c = 0; c < it->nchoices; c++) right += it->choices[c].right;
    if (p->d->kind == PL_DECK_BUGS && (it->nchoices < 3 || right != 1))
        return fail(p, "choose: needs three causes or more (- text => why), exactly one of them right (* text => why)",
                    NULL, NULL);
    if (it->nchoices < 2 || right != 1)
        return fail(p,
                    "a question needs two choices or more (- text => why), exactly one of them right (* text => why)",
                    NULL, NULL);
    return PL_OK;
}

/* The required fields the item lacks, named together in one problem. */
static PlStatus missing_fields(Parser *p) {
    static const char *const nouns[PL_DECK_KINDS] = {"card", "question", "case", "prompt"};
    char names[200] = "";
    int n = 0, last = -1;
    for (int k = 0; k < NFIELDS; k++)
        if ((fields[k].required & (1u << p->d->kind)) && !(p->given & (1u << k))) {
            if (last >= 0)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s:", names[0] ? ", " : "",
                         fields[last].name);
            last = k, n++;
        }
    if (!n) return PL_OK;
    char list[300];
    snprintf(list, sizeof list, "%s%s%s: line%s", names, n > 1 ? " and " : "", fields[last].name, n > 1 ? "s" : "");
    return fail(p, "this %s needs its %s", nouns[p->d->kind], list);
}

static PlStatus same_id(Parser *p, const PlDeckItem *it) {
    for (int i = 0; i < p->d->n - 1; i++)
        if (strcmp(p->d->items[i].id, it->id) == 0) {
            char other[16];
            snprintf(other, sizeof other, "%d", p->d->items[i].line);
            return fail(p, "the item at line %s has the same id '%s': give one of them an id:", other, it->id);
        }
    return PL_OK;
}

/* What the item must have; its id must be its own. Every problem is kept
 * when every one is wanted. */
static PlStatus end_item(Parser *p) {
    PlDeckItem *it = p->it;
    if (!it) return PL_OK;
    int saved = p->line;
    p->line = it->line;
    PlStatus st = found(p, missing_fields(p));
    if (!st && (p->d->kind == PL_DECK_QUESTIONS || p->d->kind == PL_DECK_BUGS)) st = found(p, check_choices(p, it));
    if (!st && p->d->kind == PL_DECK_BUGS) st = found(p, check_case(p, it));
    if (!it->id[0]) slug(it->title, it->id, sizeof it->id);
    if (!st) st = found(p, same_id(p, it));
    p->line = saved;
    return st;
}

static PlStatus new_item(Parser *p, const char *title) {
    PlStatus st = found(p, end_item(p));
    if (st) return st;
    PlDeck *d = p->d;
    if (!p->has_kind)
        return fatal(p, "a deck says its kind before its first item: kind: cards, questions, bugs or minute", NULL,
                     NULL);
    if (d->n == MAX_ITEMS) return fatal(p, "a deck has at most 500 items", NULL, NULL);
    PlDeckItem *items = realloc(d->items, sizeof *items * (size_t)(d->n + 1));
    if (!items) return PL_ENOMEM;
    d->items = items;
    p->it = &items[d->n++];
    memset(p->it, 0, sizeof *p->it);
    p->it->line = p->line;
    p->it->title = dupe(title);
    p->given = 0, p->opened = 0, p->text = &p->it->text, p->in_choices = d->kind == PL_DECK_QUESTIONS;
    if (!p->it->title) return PL_ENOMEM;
    return *title ? check_placeholders(p, title) : fail(p, "an item (##) needs its title", NULL, NULL);
}

static PlStatus item_line(Parser *p, const char *line) {
    const char *v;
    int k = field_of(line, &v);
    if (k >= 0) return field(p, k, v);
    if (p->in_choices && (strncmp(line, "- ", 2) == 0 || strncmp(line, "* ", 2) == 0)) return add_choice(p, line);
    if (!*line) return p->text && append(p->text, "") ? PL_ENOMEM : PL_OK;
    if (!p->text)
        return fail(p, "this line belongs to no field: text goes on after a text field (answer:, more:, ...)", NULL,
                    NULL);
    PlStatus st = check_placeholders(p, line);
    return st ? st : append(p->text, line) ? PL_ENOMEM : PL_OK;
}

/* ---- the header ---- */

static PlStatus header_line(Parser *p, const char *line) {
    static const char *const names[] = {"kind", "about", "setup", "seconds", NULL};
    PlDeck *d = p->d;
    for (int i = 0; names[i]; i++) {
        size_t n = strlen(names[i]);
        if (strncmp(line, names[i], n) != 0 || line[n] != ':') continue;
        const char *v = line + n + 1;
        while (*v == ' ') v++;
        switch (i) {
        case 0:
            for (int k = 0; k < PL_DECK_KINDS; k++)
                if (strcmp(v, kind_names[k]) == 0) return d->kind = (PlDeckKind)k, p->has_kind = 1, PL_OK;
            return fail(p, "kind: is cards, questions, bugs or minute, got '%.40s'", v, NULL);
        case 1: free(d->about); return (d->about = dupe(v)) ? PL_OK : PL_ENOMEM;
        case 2: free(d->setup); return (d->setup = dupe(v)) ? check_settings(p, v) : PL_ENOMEM;
        default: return seconds(p, v, &d->seconds);
        }
    }
    if (!*line) return PL_OK;
    return fail(p, "before the first item (##) come only kind:, about:, setup: and seconds:, got '%.40s'", line, NULL);
}

static PlStatus parse_line(Parser *p, char *line) {
    for (char *e = line + strlen(line); e > line && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r');) *--e = '\0';
    if (line[0] == ';') return PL_OK; /* a note for the teacher */
    if (!p->d->title) {
        if (!*line) return PL_OK;
        if (strncmp(line, "# ", 2) != 0 || !line[2])
            return fatal(p, "a deck starts with its title: # Title", NULL, NULL);
        return (p->d->title = dupe(line + 2)) ? PL_OK : PL_ENOMEM;
    }
    if (strncmp(line, "## ", 3) == 0 || strcmp(line, "##") == 0) return new_item(p, line[2] ? trimmed(line + 3) : "");
    return p->it ? item_line(p, line) : header_line(p, line);
}

static PlStatus finish(Parser *p) {
    PlStatus st = found(p, end_item(p));
    if (st) return st;
    p->line = 1;
    if (!p->d->title) return fatal(p, "a deck starts with its title: # Title", NULL, NULL);
    if (!p->has_kind) return fatal(p, "a deck says its kind: kind: cards, questions, bugs or minute", NULL, NULL);
    if (!p->d->n) return fatal(p, "a deck has items, each beginning with ## and its title", NULL, NULL);
    if (!p->d->seconds) p->d->seconds = p->d->kind == PL_DECK_MINUTE ? 60 : 20;
    return PL_OK;
}

static void name_deck(PlDeck *d, const char *path) {
    const char *base = strrchr(path, '/');
    snprintf(d->name, sizeof d->name, "%s", base ? base + 1 : path);
    char *dot = strstr(d->name, ".deck");
    if (dot && !dot[5]) *dot = '\0';
    snprintf(d->path, sizeof d->path, "%s", path);
}

/* A line refused before the title (a NUL byte) leaves nothing to read on. */
static PlStatus deck_line(void *ctx, int number, char *line, const char *refused) {
    Parser *p = ctx;
    p->line = number;
    if (refused) return found(p, p->d->title ? fail(p, "%s", refused, NULL) : fatal(p, "%s", refused, NULL));
    return found(p, parse_line(p, line));
}

/* The parse, stopping at the first problem (probs NULL: it goes in err) or
 * going on to find every one (into probs). */
static PlDeck *parse(const char *path, const char *text, size_t n, PlProblems *probs, PlErr *err) {
    PlDeck *d = calloc(1, sizeof *d);
    if (!d) return pl_err_set(err, PL_ENOMEM, "%s: out of memory", path), NULL;
    name_deck(d, path);
    Parser p = {.path = path, .probs = probs, .d = d};
    PlStatus st = pl_datafile_lines(text, n, "a deck", deck_line, &p);
    if (!st) st = finish(&p);
    if (st == PL_EINPUT && probs) pl_problems_add(probs, p.last_line, p.last.msg); /* the one that stopped it */
    if (st == PL_ENOMEM) pl_err_set(&p.last, st, "%s: out of memory", path);
    if (st == PL_ENOMEM && probs) pl_problems_add(probs, 0, p.last.msg);
    if (st || (probs && probs->n)) {
        pl_err_set(err, st ? st : PL_EINPUT, "%s", probs && probs->n ? probs->at[0].msg : p.last.msg);
        pl_deck_free(d);
        return NULL;
    }
    return d;
}

PlDeck *pl_deck_parse(const char *path, const char *text, size_t n, PlErr *err) {
    return parse(path, text, n, NULL, err);
}

PlDeck *pl_deck_parse_all(const char *path, const char *text, size_t n, PlProblems *probs) {
    PlErr err;
    return parse(path, text, n, probs, &err);
}

static PlDeck *load(const char *path, PlProblems *probs, PlErr *err) {
    size_t n;
    char *buf = pl_datafile_read(path, "a deck", &n, err);
    if (!buf) {
        if (probs) pl_problems_add(probs, 0, err->msg);
        return NULL;
    }
    PlDeck *d = parse(path, buf, n, probs, err);
    free(buf);
    return d;
}

PlDeck *pl_deck_load(const char *path, PlErr *err) { return load(path, NULL, err); }

PlDeck *pl_deck_check(const char *path, PlProblems *probs) {
    PlErr err;
    return load(path, probs, &err);
}

static void free_item(PlDeckItem *it) {
    char **texts[] = {&it->title, &it->text, &it->topic, &it->set, &it->answer,     &it->more,       &it->remember,
                      &it->dont,  &it->ask,  &it->bug,   &it->fix, &it->bug_inline, &it->fix_inline, &it->after};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) free(*texts[i]);
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
    free(d->title), free(d->about), free(d->setup);
    free(d);
}

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
    pl_deck_apply(out, d->setup);
    if (it) pl_deck_apply(out, it->set);
}

void pl_deck_apply(PlLabSettings *s, const char *pairs) {
    char *copy = pairs ? strdup(pairs) : NULL, *save = NULL;
    for (char *tok = copy ? strtok_r(copy, " \t", &save) : NULL; tok; tok = strtok_r(NULL, " \t", &save)) {
        char *eq = strchr(tok, '='), want[160];
        if (!eq) continue;
        *eq = '\0';
        int id = pl_setting_find(tok);
        if (id >= 0 && id != PL_S_CORPUS) pl_setting_parse(s, (PlSettingId)id, eq + 1, want, sizeof want);
    }
    free(copy);
}
