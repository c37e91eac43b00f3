/* libFuzzer harness for the lesson parser (pl_lesson_parse, app/lesson.c):
 * any bytes parse into a lesson or fail with one "FILE:LINE: message" line,
 * and never crash, leak or read out of bounds; going on past each problem
 * (--check) finds the same verdict, and the stopping parse's problem among
 * its own. Built with clang
 * -fsanitize=fuzzer by `make fuzz`; tests/fuzz/driver.c replays its seeds
 * (tests/fuzz/seeds/lesson) in `make check` under any compiler. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "app/teach/lesson.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size ? size : 1); /* exactly size bytes, no NUL */
    if (!text) return 0;
    if (size) memcpy(text, data, size);
    PlErr err;
    PlLesson *l = pl_lesson_parse("fuzz.lesson", text, size, &err);
    int parsed = l != NULL;
    if (l) {
        if (l->nsteps < 1) abort();
        pl_lesson_free(l);
    } else if (strncmp(err.msg, "fuzz.lesson:", 12) != 0 || strchr(err.msg, '\n')) {
        abort(); /* every error is one FILE:LINE: line */
    }
    static PlProblems probs;
    memset(&probs, 0, sizeof probs);
    PlLesson *all = pl_lesson_parse_all("fuzz.lesson", text, size, &probs);
    if (!all != !parsed || (all && probs.n) || (!all && !probs.n)) abort(); /* the same verdict */
    int kept = 0;
    for (int i = 0; i < probs.n; i++) {
        if (strncmp(probs.at[i].msg, "fuzz.lesson:", 12) != 0 || strchr(probs.at[i].msg, '\n')) abort();
        if (i && probs.at[i].line < probs.at[i - 1].line) abort(); /* in line order */
        kept |= !parsed && strcmp(probs.at[i].msg, err.msg) == 0;
    }
    if (!parsed && !kept && !strstr(err.msg, "out of memory")) abort();
    pl_lesson_free(all);
    free(text);
    return 0;
}
