/* What every file padlab writes for Anki shares (anki.h). */
#include "anki.h"

#include <stdint.h>
#include <string.h>

#include "drill_book.h"

/* HTML of a text for a field: &, <, >, " escaped; paragraphs (a blank
 * line apart) as <p>, lines starting "- " as a list; nothing that breaks
 * the line, so that a note is one line of the file. */
void pl_anki_html(FILE *f, const char *text) {
    int in_list = 0, in_p = 0;
    for (const char *p = text ? text : ""; *p;) {
        size_t len = strcspn(p, "\n");
        int item = len >= 2 && p[0] == '-' && p[1] == ' ', blank = len == 0;
        if ((blank || item) && in_p) fputs("</p>", f), in_p = 0;
        if (!item && in_list) fputs("</ul>", f), in_list = 0;
        if (item && !in_list) fputs("<ul>", f), in_list = 1;
        if (!blank) {
            fputs(item ? "<li>" : in_p ? " " : "<p>", f), in_p |= !item;
            for (size_t i = item ? 2 : 0; i < len; i++) {
                char c = p[i] == '\t' || p[i] == '\r' ? ' ' : p[i];
                if (c == '&') fputs("&amp;", f);
                else if (c == '<') fputs("&lt;", f);
                else if (c == '>') fputs("&gt;", f);
                else if (c == '"') fputs("&quot;", f);
                else fputc(c, f);
            }
            if (item) fputs("</li>", f);
        }
        p += len + (p[len] == '\n');
    }
    if (in_p) fputs("</p>", f);
    if (in_list) fputs("</ul>", f);
}

/* A note's stable id (Anki's guid column): the same for the same deck and
 * item on every export, so that importing again updates the note. */
void pl_anki_guid(FILE *f, const char *deck, const char *id) {
    static const char digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    uint64_t h = pl_drill_card_seed(deck, id);
    fputs("padlab-", f);
    for (int i = 0; i < 11; i++) fputc(digits[h % 62], f), h /= 62;
}
