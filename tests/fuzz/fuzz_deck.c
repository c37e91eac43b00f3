/* libFuzzer harness for the deck parser (app/deck.c): any bytes parse into a
 * deck or fail with one "FILE:LINE: message" line, and never crash, leak or
 * read out of bounds; going on past each problem (--check) finds the same
 * verdict, and the stopping parse's problem among its own. Built with clang -fsanitize=fuzzer by `make fuzz`;
 * tests/fuzz/driver.c replays its seeds (tests/fuzz/seeds/deck) in `make
 * check` under any compiler. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "app/teach/deck.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* The parser gets exactly size bytes, no terminating NUL: a read past
     * the end is the sanitizer's to see. */
    char *text = malloc(size ? size : 1);
    if (!text) return 0;
    if (size) memcpy(text, data, size);
    PlErr err;
    PlDeck *d = pl_deck_parse("fuzz.deck", text, size, &err);
    int parsed = d != NULL;
    if (d) {
        /* What the front ends read of a parsed deck. */
        unsigned kinds = 0;
        for (int i = 0; i < d->n; i++) kinds |= pl_deck_item_kinds(&d->items[i]);
        (void)kinds;
        if (d->n < 1 || d->kind < 0 || d->kind >= PL_DECK_KINDS) abort();
        pl_deck_free(d);
    } else if (strncmp(err.msg, "fuzz.deck:", 10) != 0 || strchr(err.msg, '\n')) {
        abort(); /* every error is one FILE:LINE: line */
    }
    static PlProblems probs;
    memset(&probs, 0, sizeof probs);
    PlDeck *all = pl_deck_parse_all("fuzz.deck", text, size, &probs);
    if (!all != !parsed || (all && probs.n) || (!all && !probs.n)) abort(); /* the same verdict */
    int kept = 0;
    for (int i = 0; i < probs.n; i++) {
        if (strncmp(probs.at[i].msg, "fuzz.deck:", 10) != 0 || strchr(probs.at[i].msg, '\n')) abort();
        if (i && probs.at[i].line < probs.at[i - 1].line) abort(); /* in line order */
        kept |= !parsed && strcmp(probs.at[i].msg, err.msg) == 0;
    }
    if (!parsed && !kept && !strstr(err.msg, "out of memory")) abort();
    pl_deck_free(all);
    free(text);
    return 0;
}
