/* libFuzzer harness: the aclImdb folder reader, over a small folder made
 * from the input in memory (/dev/shm). The input is records separated by
 * 0x1e; a record's first byte says where it goes (bit 0: pos/ or neg/,
 * bit 1: under train/, bit 2: a name without .txt, bit 3: a subfolder
 * instead of a file), the rest is the file's text. */
#define _XOPEN_SOURCE 700 /* nftw with FTW_DEPTH */
#include <ftw.h>
#include <sys/stat.h>

#include "core/corpus_load.h"
#include "fuzz_util.h"

enum { MAX_FILES = 16 };

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static void make_folder(const char *root, const uint8_t *data, size_t size) {
    char path[700];
    if (access(root, F_OK) == 0 && nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0) abort();
    int nfiles = 0;
    for (size_t at = 0; at < size && nfiles < MAX_FILES;) {
        const uint8_t *end = memchr(data + at, 0x1e, size - at);
        size_t len = end ? (size_t)(end - (data + at)) : size - at;
        if (len) {
            uint8_t how = data[at];
            const char *under = how & 2 ? "/train" : "", *cls = how & 1 ? "pos" : "neg";
            snprintf(path, sizeof path, "%s%s", root, under);
            mkdir(root, 0700), mkdir(path, 0700);
            snprintf(path, sizeof path, "%s%s/%s", root, under, cls);
            mkdir(path, 0700);
            snprintf(path + strlen(path), sizeof path - strlen(path), "/%d%s", nfiles++, how & 4 ? "" : ".txt");
            if (how & 8) {
                mkdir(path, 0700);
            } else {
                FILE *f = fopen(path, "wb");
                if (!f || fwrite(data + at + 1, 1, len - 1, f) != len - 1 || fclose(f) != 0) abort();
            }
        }
        at += len + 1;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char root[300];
    snprintf(root, sizeof root, "%s/acl", fuzz_scratch());
    make_folder(root, data, size);
    PlCorpusOpts opts = {.num_words = 50};
    PlCorpus *c = NULL;
    PlErr err;
    if (pl_corpus_load(root, &opts, &c, &err) == PL_OK) {
        FUZZ_CHECK(c->n > 0);
        for (int i = 0; i < c->n; i++) FUZZ_CHECK(c->offsets[i + 1] >= c->offsets[i] && c->labels[i] <= 1);
        for (int64_t k = 0; k < c->offsets[c->n]; k++) FUZZ_CHECK(c->ids[k] >= 0 && c->ids[k] < c->num_words);
        pl_corpus_free(c);
    } else {
        FUZZ_CHECK(c == NULL && err.msg[0] && !strchr(err.msg, '\n'));
    }
    return 0;
}
