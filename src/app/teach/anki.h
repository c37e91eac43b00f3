/* Fields and ids of the text files Anki imports (File > Import, Anki 2.1.55
 * and later): the notes of a deck (padlab drill --export anki DECK) and the
 * polarity facts as cloze notes (cloze.h). */
#ifndef PL_APP_ANKI_H
#define PL_APP_ANKI_H

#include <stdio.h>

/* text as one HTML field: &, <, >, " escaped; paragraphs (a blank line
 * apart) as <p>, lines starting "- " as a list; no line break in the file. */
void pl_anki_html(FILE *f, const char *text);
/* A note's stable id for Anki's guid column: "padlab-" and eleven base-62
 * digits of the item's hash (pl_drill_card_seed), the same on every export
 * so that importing again updates the note. */
void pl_anki_guid(FILE *f, const char *deck, const char *id);

#endif
