/* libFuzzer harness for the kata parser (app/kata/kata.c): any bytes parse
 * into a kata or fail with one "FILE:LINE: message" line, and never crash,
 * leak or read out of bounds; going on past each problem (--check) finds the
 * same verdict. A kata that parses names a computation whose arrays it
 * lists. Built with clang -fsanitize=fuzzer by `make fuzz`; tests/fuzz/driver.c
 * replays its seeds (tests/fuzz/seeds/kata) in `make check`. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "app/kata/kata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size ? size : 1);
    if (!text) return 0;
    if (size) memcpy(text, data, size);
    PlErr err;
    PlKata *k = pl_kata_parse("fuzz.kata", text, size, &err);
    int parsed = k != NULL;
    if (k) {
        if (!k->task || !k->title || k->nsec < 1 || !k->inputs || !k->outputs) abort();
        for (int i = 0; i < k->nsec; i++)
            if (!k->sec[i].title || !k->sec[i].text) abort();
        pl_kata_free(k);
    } else if (strncmp(err.msg, "fuzz.kata:", 10) != 0 || strchr(err.msg, '\n')) {
        abort(); /* every error is one FILE:LINE: line */
    }
    static PlProblems probs;
    memset(&probs, 0, sizeof probs);
    PlKata *all = pl_kata_parse_all("fuzz.kata", text, size, &probs);
    if (!all != !parsed || (all && probs.n) || (!all && !probs.n)) abort(); /* the same verdict */
    for (int i = 0; i < probs.n; i++)
        if (strncmp(probs.at[i].msg, "fuzz.kata:", 10) != 0 || strchr(probs.at[i].msg, '\n')) abort();
    pl_kata_free(all);
    free(text);
    return 0;
}
