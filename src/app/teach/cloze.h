/* The mask polarities and fill values as cloze notes for Anki: each fact a
 * sentence with its key words hidden ({{c1::...}}), the facts of padlab's
 * one-page sheet (cheatsheet.h) that a candidate most often gets backwards. */
#ifndef PL_APP_CLOZE_H
#define PL_APP_CLOZE_H

#include <stdio.h>

/* How many facts there are. */
int pl_cloze_count(void);
/* Writes them as an Anki text file for the built-in Cloze note type: its
 * file headers (HTML, the note type, the deck padlab::polarity, a guid
 * column so a second import updates them) and one note a line. 0, or -1
 * when f could not be written. */
int pl_cloze_anki(FILE *f);

#endif
