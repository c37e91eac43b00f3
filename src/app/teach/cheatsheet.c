/* The cheat sheet (see cheatsheet.h): the cards by deck and topic, each
 * written by the format's row of one table. */
#include "cheatsheet.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app/lab/fill.h"
#include "core/text.h"
#include "lesson.h"

#define FILL_CAP 8192
#define LAB_TIMEOUT 300.0

/* The parts of one format: how a deck, a topic and a card's lines begin. */
typedef struct {
    const char *title;     /* the sheet's first lines */
    const char *deck_fmt;  /* %s: the deck's title, %s: its name */
    const char *deck_rule; /* under the deck's title, repeated to its length ("" for none) */
    const char *topic_fmt;
    const char *front, *answer, *remember, *dont; /* the label before each part */
    const char *follow, *listen;
    const char *front_end; /* after the front */
    const char *part_end;  /* after each part of a card ("\n": Markdown's parts are paragraphs of the list item) */
    const char *card_end;  /* after a card */
    int indent;            /* where wrapped lines go on */
} Style;

static const Style styles[] = {
    [PL_SHEET_TEXT] = {"padlab cheat sheet: padding and masking, card by card\n"
                       "=====================================================\n",
                       "\n%s (%s)\n", "-", "\n  %s\n", "  Q  ", "     ",
                       "     remember: ", "     don't say: ", "     follow-up: ", "     listen for: ", "", "", "\n", 5},
    [PL_SHEET_MARKDOWN] = {"# padlab cheat sheet: padding and masking, card by card\n", "\n## %s (`%s`)\n", "",
                           "\n### %s\n\n", "- **", "  ", "  *Remember:* ", "  *Don't say:* ", "  *Follow-up:* ",
                           "  *Listen for:* ", "**", "\n", "", 2},
};

/* Writes s[0..n) as pl_text_printable shows it: a card cannot drive the
 * terminal it is printed on. */
static void put_shown(FILE *f, const char *s, size_t n) {
    char c[7];
    for (int k; n && (k = pl_text_shown_char(s, c)) > 0; s += k, n -= (size_t)k < n ? (size_t)k : n) fputs(c, f);
}

/* Writes label + text wrapped at width (a newline in text starts a new
 * line at the indent); width 0: no wrapping. */
static void wrapped(FILE *f, const char *label, const char *text, const char *end, int width, int indent) {
    int col = fprintf(f, "%s", label), first = 1;
    for (const char *s = text; s[strspn(s, " \n")];) { /* the text's trailing blank lines are not written */
        if (*s == '\n') {
            fprintf(f, "\n%*s", indent, "");
            col = indent, first = 1, s++;
            continue;
        }
        while (*s == ' ') s++;
        size_t word = strcspn(s, " \n");
        if (!word) continue;
        if (!first && width && col + 1 + (int)word > width) fprintf(f, "\n%*s", indent, ""), col = indent, first = 1;
        if (!first) fputc(' ', f), col++;
        put_shown(f, s, word);
        col += (int)word, s += word, first = 0;
    }
    fprintf(f, "%s\n", end);
}

/* A card's text with its figures from the lab (the settings are set);
 * NULL with err when one of them could not be computed ("..." is no figure
 * to print on a sheet). */
static const char *fill(PlLab *lab, const PlDeck *d, const PlDeckItem *it, const char *text, char *buf, PlErr *err) {
    char why[320];
    if (!lab) return snprintf(buf, FILL_CAP, "%s", text ? text : ""), buf;
    if (pl_fill_all(lab, NULL, text, buf, FILL_CAP, why, sizeof why) == 0) return buf;
    pl_err_set(err, PL_ERANGE, "%s:%d: a figure could not be computed: %s", d->path, it->line, why);
    return NULL;
}

/* Sets the lab to the card's settings and waits for what it reads. */
static int ready(PlLab *lab, const PlLabSettings *base, const PlDeck *d, const PlDeckItem *it, PlErr *err) {
    unsigned kinds = pl_deck_item_kinds(it);
    if (!kinds) return 0;
    if (!lab)
        return pl_err_set(err, PL_ERANGE, "%s:%d: the card holds a figure and there is no lab", d->path, it->line), -1;
    PlLabSettings s;
    pl_deck_item_settings(base, d, it, &s);
    s.view = pl_lab_settings(lab)->view;
    if (pl_lab_apply(lab, &s, err) < 0) return -1;
    if (pl_lab_wait(lab, kinds, LAB_TIMEOUT))
        return pl_err_set(err, PL_ERANGE, "%s:%d: the lab did not compute the card's figures in time", d->path,
                          it->line),
               -1;
    return 0;
}

static int card(FILE *f, const Style *st, PlLab *lab, const PlLabSettings *base, const PlDeck *d, const PlDeckItem *it,
                int width, PlErr *err) {
    if (ready(lab, base, d, it, err)) return -1;
    char *a = malloc(FILL_CAP), *b = malloc(FILL_CAP);
    if (!a || !b) return free(a), free(b), pl_err_set(err, PL_ENOMEM, "out of memory for the cheat sheet"), -1;
    int rc = -1;
    if (!fill(lab, d, it, it->title, a, err)) goto done;
    if (it->text && *it->text) {
        size_t n = strlen(a);
        if (!fill(lab, d, it, it->text, b, err)) goto done;
        snprintf(a + n, FILL_CAP - n, " %s", b);
    }
    wrapped(f, st->front, a, st->front_end, width, st->indent);
    fputs(st->part_end, f);
    const char *parts[][2] = {{st->answer, it->answer}, {st->remember, it->remember}, {st->dont, it->dont}};
    for (int i = 0; i < 3; i++) {
        if (!parts[i][1] || !*parts[i][1]) continue; /* a minute prompt has no memory aid */
        if (!fill(lab, d, it, parts[i][1], b, err)) goto done;
        wrapped(f, parts[i][0], b, "", width, st->indent), fputs(st->part_end, f);
    }
    /* a minute prompt: the follow-ups to expect and what the interviewer listens for */
    for (int i = 0; i < it->nfollow + it->nlisten; i++) {
        const char *text = i < it->nfollow ? it->follow[i] : it->listen[i - it->nfollow];
        if (!fill(lab, d, it, text, b, err)) goto done;
        wrapped(f, i < it->nfollow ? st->follow : st->listen, b, "", width, st->indent), fputs(st->part_end, f);
    }
    fputs(st->card_end, f);
    rc = 0;
done:
    free(a), free(b);
    return rc;
}

/* The deck's cards, topic by topic in the order topics first appear. */
static int deck_cards(FILE *f, const Style *st, PlLab *lab, const PlLabSettings *base, const PlDeck *d, int width,
                      PlErr *err) {
    char *done = calloc((size_t)d->n + 1, 1);
    if (!done) return pl_err_set(err, PL_ENOMEM, "out of memory for the cheat sheet"), -1;
    char *title = pl_text_printable(d->title), *name = pl_text_printable(d->name);
    int rc = 0;
    if (!title || !name) rc = (pl_err_set(err, PL_ENOMEM, "out of memory for the cheat sheet"), -1);
    else fprintf(f, st->deck_fmt, title, name);
    if (!rc && *st->deck_rule) {
        for (int i = 0, len = (int)strlen(title) + (int)strlen(name) + 3; i < len; i++) fputs(st->deck_rule, f);
        fputc('\n', f);
    }
    free(title), free(name);
    for (int i = 0; i < d->n && !rc; i++) {
        if (done[i]) continue;
        char *topic = pl_text_printable(d->items[i].topic);
        if (!topic) {
            rc = (pl_err_set(err, PL_ENOMEM, "out of memory for the cheat sheet"), -1);
            break;
        }
        fprintf(f, st->topic_fmt, topic);
        free(topic);
        for (int j = i; j < d->n && !rc; j++)
            if (!done[j] && strcmp(d->items[j].topic, d->items[i].topic) == 0)
                done[j] = 1, rc = card(f, st, lab, base, d, &d->items[j], width, err);
    }
    free(done);
    return rc;
}

int pl_cheatsheet_write(FILE *f, PlDeck *const *decks, int n, PlLab *lab, const PlLabSettings *base, PlSheetFormat fmt,
                        int width, PlErr *err) {
    const Style *st = &styles[fmt == PL_SHEET_MARKDOWN ? PL_SHEET_MARKDOWN : PL_SHEET_TEXT];
    if (fmt == PL_SHEET_MARKDOWN) width = 0; /* Markdown reflows its own paragraphs */
    fputs(st->title, f);
    for (int i = 0; i < n; i++)
        if ((decks[i]->kind == PL_DECK_CARDS || decks[i]->kind == PL_DECK_MINUTE) &&
            deck_cards(f, st, lab, base, decks[i], width, err))
            return -1;
    return ferror(f) ? pl_err_set(err, PL_EIO, "the cheat sheet could not be written"), -1 : 0;
}

int pl_cheatsheet_needs_lab(PlDeck *const *decks, int n) {
    for (int i = 0; i < n; i++)
        for (int j = 0; (decks[i]->kind == PL_DECK_CARDS || decks[i]->kind == PL_DECK_MINUTE) && j < decks[i]->n; j++)
            if (pl_deck_item_kinds(&decks[i]->items[j])) return 1;
    return 0;
}

/* ---- the one-page sheet ---- */

/* The largest finite value of a binary float with m stored mantissa bits
 * and the largest exponent e: (2 - 2^-m) * 2^e. */
static double largest(int m, int e) { return (2.0 - ldexp(1.0, -m)) * ldexp(1.0, e); }

static const char *const one_page[] = {
    "padlab one-page sheet: masks, fills, losses and the fixes",
    "==========================================================",
    "",
    "MASKS            shape        real   pad    read by",
    "Keras mask       (B, T)       True   False  every layer that supports masking",
    "                                            (Embedding(mask_zero=True) makes it: ids != 0)",
    "key_padding_mask (B, T)       False  True   nn.MultiheadAttention, nn.TransformerEncoder:",
    "                                            True = ignore this key",
    "SDPA attn_mask   (B,1,1,T)    True   False  F.scaled_dot_product_attention, bool:",
    "                                            True = takes part (the opposite of the above)",
    "attention_mask   (B, T)       1      0      Hugging Face models: 1 = attend",
    "additive bias    (B,1,1,T)    0      -inf or finfo(dtype).min, added to the scores",
    "causal + padding (B,1,T,T)    a key is seen when it is at or before the query AND real",
    "",
    "FILLS            %s",
    "                 fill the scores (masked_fill), never add finfo.min: in float16 a score",
    "                 below -16 plus -65504 rounds past the largest value to -inf",
    "                 a row of nothing but pads: -inf gives NaN after the softmax, a finite",
    "                 fill gives uniform weights over the pads; mask that query's output too",
    "",
    "LOSSES           labels -100 at the pads: CrossEntropyLoss's ignore_index (-100 by default)",
    "token mean       sum over real labels / their count (reduction='mean' with ignore_index)",
    "sequence mean    each row's mean over its own labels, then the mean over rows that have any",
    "cells mean       sum over real labels / (B * T): the pads count in the divisor",
    "completion only  -100 on the prompt's tokens too: the loss reads the answer alone",
    "",
    "FIXES",
    "mean pooling     sum(x * m) / clamp(sum(m), min=1): never x.mean(1), never divide by T",
    "positions        attention_mask.cumsum(-1) - 1 under left padding (pads: any value)",
    "last token       right padding: gather at lengths - 1; left padding: position -1",
    "RNN              pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)",
    "                 reads the first `length` steps: right padding; Keras's pad_sequences",
    "                 pads 'pre' by default, so pack after padding 'post' or pass lengths right",
    "buckets          tf.data: boundaries[k-1] <= length < boundaries[k] (bisect_right)",
    "packing          cu_seqlens = 0 then the running sum of real lengths; position ids and",
    "                 a block-diagonal causal mask restart at every document",
    "generation       decoder-only batches pad on the left, so the last column is a real token",
    NULL,
};

int pl_cheatsheet_one_page(FILE *f) {
    char fills[200];
    snprintf(fills, sizeof fills, "finfo.min: float32 %.8g, float16 %.0f, bfloat16 %.5g", -(double)FLT_MAX,
             -largest(10, 15), -largest(7, 127));
    for (int i = 0; one_page[i]; i++) {
        if (strstr(one_page[i], "%s")) fprintf(f, one_page[i], fills);
        else fputs(one_page[i], f);
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}
