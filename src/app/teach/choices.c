/* Shuffled choices (see choices.h). */
#include "choices.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/rng.h"

uint64_t pl_choices_seed(uint64_t salt, const char *where, const char *which, int attempt) {
    char key[512];
    int n = snprintf(key, sizeof key, "%016llx/%.200s/%.200s/%d", (unsigned long long)salt, where ? where : "",
                     which ? which : "", attempt);
    return pl_fnv1a(key, (size_t)(n < (int)sizeof key ? n : (int)sizeof key - 1));
}

void pl_choices_order(uint64_t seed, const int *pinned, int n, int *order) {
    int loose[PL_CHOICES_MAX], m = 0;
    if (n > PL_CHOICES_MAX) n = PL_CHOICES_MAX;
    for (int i = 0; i < n; i++)
        if (!pinned || !pinned[i]) loose[m++] = i;
    PlRng rng;
    pl_rng_seed(&rng, seed);
    pl_rng_shuffle_int(&rng, loose, m);
    for (int i = 0, k = 0; i < n; i++) order[i] = pinned && pinned[i] ? i : loose[k++];
}

int pl_choices_place(const int *order, int n, int i) {
    for (int k = 0; k < n; k++)
        if (order[k] == i) return k;
    return -1;
}

int pl_choices_pinned(const char *text, const char **rest) {
    size_t n = strlen(PL_CHOICES_PIN);
    if (!text || strncmp(text, PL_CHOICES_PIN, n) != 0) return 0;
    for (text += n; *text == ' ' || *text == '\t';) text++;
    *rest = text;
    return 1;
}

uint64_t pl_choices_new_salt(void) {
    uint64_t salt = 0;
    FILE *f = fopen("/dev/urandom", "rb");
    if (f) {
        if (fread(&salt, sizeof salt, 1, f) != 1) salt = 0;
        fclose(f);
    }
    if (!salt) { /* no random bytes: the clock and the process still differ between learners */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t mix[3] = {(uint64_t)ts.tv_sec, (uint64_t)ts.tv_nsec, (uint64_t)getpid()};
        salt = pl_fnv1a(mix, sizeof mix);
    }
    return salt ? salt : 1;
}

int pl_choices_salt_parse(const char *v, uint64_t *salt) {
    char *end;
    if (strlen(v) != 16) return -1;
    unsigned long long x = strtoull(v, &end, 16);
    if (*end || !x) return -1;
    *salt = (uint64_t)x;
    return 0;
}
