/* libFuzzer harness for the reader of a candidate's outputs (app/json.c)
 * and the check that reads them: any bytes give a value or one line saying
 * where and what was expected, and checking any value against a kata's cases
 * gives a verdict, never a crash, a leak or a read out of bounds; so does
 * judging them as `check --run` judges one case's output (its stdout, the
 * only thing it reads: a kata reads no .npy back). Replayed
 * from tests/fuzz/seeds/kata_json in `make check`. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "app/kata/attempt.h"
#include "core/corpus_load.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The cases of two katas, made once from the built-in corpus: a 3-D float
 * output with the masked softmax, ints with position ids (cells that do not
 * count), and scalars with the loss. */
static const PlKata *katas[3];
static PlKCase *cases[3];

static void setup(void) {
    static const char *const text[3] = {
        "# S\ncompute: masked_softmax\ninputs: scores key_padding_mask\noutputs: weights\n## Task\nt\n",
        "# P\ncompute: position_ids\ninputs: attention_mask\noutputs: position_ids\n## Task\nt\n",
        "# L\ncompute: token_loss\ninputs: logits labels\noutputs: loss_token loss_sequence loss_cells\n## Task\nt\n"};
    PlCorpus *c;
    PlErr err;
    PlCorpusOpts o = {0};
    if (pl_corpus_load("builtin", &o, &c, &err)) abort();
    for (int i = 0; i < 3; i++) {
        PlKata *k = pl_kata_parse("fuzz.kata", text[i], strlen(text[i]), &err);
        if (!k || !(cases[i] = calloc((size_t)k->task->ncases, sizeof *cases[i]))) abort();
        if (pl_ktask_cases(k->task, c, cases[i])) abort();
        katas[i] = k;
    }
    pl_corpus_free(c);
}

/* The cases are made before the first input, so that their making (seconds
 * under the sanitizers on a loaded machine) is never timed as an input's. */
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    setup();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!katas[0]) setup();
    char *text = malloc(size ? size : 1);
    if (!text) return 0;
    if (size) memcpy(text, data, size);
    PlErr err;
    PlJson *j = pl_json_parse(text, size, &err);
    if (!j && (strncmp(err.msg, "line ", 5) != 0 || strchr(err.msg, '\n')) && !strstr(err.msg, "64 MB")) abort();
    for (int i = 0; j && i < 3; i++) {
        char msg[1200] = "";
        int passed, v = pl_kata_check_answers(katas[i], cases[i], j, &passed, msg, sizeof msg);
        if (v < -1 || v > 1 || strchr(msg, '\n') || passed < 0 || passed > katas[i]->task->ncases) abort();
        /* one case's outputs alone, as --run reads them */
        if (pl_kcheck_case(katas[i]->task, &cases[i][0], 1, j, msg, sizeof msg) > 1) abort();
    }
    for (int i = 0; i < 3; i++) { /* the program's output as check --run judges it: JSON or not, and the bug it is */
        char msg[2600] = "";
        int v = pl_kata_judge_output(katas[i], &cases[i][0], 1, text, size, msg, sizeof msg);
        if (v < 0 || v > 1 || (v == 1) != (msg[0] != 0) || (!j && v != 1)) abort();
    }
    pl_json_free(j);
    free(text);
    return 0;
}
