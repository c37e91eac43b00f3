/* libFuzzer harness for the lesson parser (pl_lesson_parse, app/lesson.c):
 * any bytes parse into a lesson or fail with one "FILE:LINE: message" line,
 * and never crash, leak or read out of bounds. Built with clang
 * -fsanitize=fuzzer by `make fuzz`; tests/fuzz/driver.c replays its seeds
 * (tests/fuzz/seeds/lesson) in `make check` under any compiler. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "app/lesson.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size ? size : 1); /* exactly size bytes, no NUL */
    if (!text) return 0;
    if (size) memcpy(text, data, size);
    PlErr err;
    PlLesson *l = pl_lesson_parse("fuzz.lesson", text, size, &err);
    if (l) {
        if (l->nsteps < 1) abort();
        pl_lesson_free(l);
    } else if (strncmp(err.msg, "fuzz.lesson:", 12) != 0 || strchr(err.msg, '\n')) {
        abort(); /* every error is one FILE:LINE: line */
    }
    free(text);
    return 0;
}
