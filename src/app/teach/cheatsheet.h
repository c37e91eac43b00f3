/* The printable cheat sheet: every card of the card decks given, grouped by
 * deck and topic: its front, its short answer, its memory aid and what not
 * to say; a minute prompt with its model answer, its follow-ups and what is
 * listened for. As plain text wrapped to a width, or as Markdown. Figures are
 * filled from a lab set to each card's settings and computed before the
 * card is written (headless: this waits for the lab). */
#ifndef PL_APP_CHEATSHEET_H
#define PL_APP_CHEATSHEET_H

#include <stdio.h>

#include "deck.h"

typedef enum { PL_SHEET_TEXT, PL_SHEET_MARKDOWN } PlSheetFormat;

/* Writes the sheet of decks[0..n) (decks of other kinds are skipped) to f.
 * lab may be NULL when no card holds a figure; base is the learner's
 * settings the cards' own are applied over. Returns 0, or -1 with err when
 * the lab could not compute a figure in time or could not be set up. */
int pl_cheatsheet_write(FILE *f, PlDeck *const *decks, int n, PlLab *lab, const PlLabSettings *base, PlSheetFormat fmt,
                        int width, PlErr *err);

/* The one-page sheet: the mask conventions, the fill values (computed
 * from each float format), the loss normalisations and the fixes, on f. 0,
 * or -1 when f could not be written. */
int pl_cheatsheet_one_page(FILE *f);

/* Whether any card of the decks holds a {figure}. */
int pl_cheatsheet_needs_lab(PlDeck *const *decks, int n);

#endif
