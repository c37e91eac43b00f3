/* Replays review histories through padlab's FSRS (app/teach/sched.h) for
 * tests/fsrs.sh, which replays the same through ts-fsrs and compares. Reads
 * lines "CARD TIME GRADE" (TIME in seconds since 1970, UTC; GRADE 1..4),
 * each card a history of its own, and prints a JSON line per review with
 * the card's state after it. Fuzz is off, as on the reference's side.
 *
 *   tests/fsrs/replay [RETENTION [lesson]] < histories.txt
 *
 * lesson: no learning steps, as a lesson question's card is graded
 * (lesson_review.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/teach/sched.h"

#define MAX_CARDS 1024

int main(int argc, char **argv) {
    static char names[MAX_CARDS][64];
    static PlSchedCard cards[MAX_CARDS];
    int n = 0;
    PlFsrs p;
    pl_fsrs_default(&p);
    p.fuzz = 0;
    if (argc > 1) p.retention = atof(argv[1]);
    if (argc > 2 && !strcmp(argv[2], "lesson")) p.nlearning = 0;
    char name[64];
    long long t;
    int g;
    while (scanf("%63s %lld %d", name, &t, &g) == 3) {
        int i = 0;
        while (i < n && strcmp(names[i], name)) i++;
        if (i == n) {
            if (n == MAX_CARDS) return fprintf(stderr, "replay: more than %d cards\n", MAX_CARDS), 1;
            snprintf(names[n++], sizeof names[0], "%s", name);
        }
        PlSchedCard *c = &cards[i];
        double r = pl_sched_recall(&p, c, t);
        if (pl_sched_grade(&p, c, (PlGrade)g, t, 0)) return fprintf(stderr, "replay: grade %d out of range\n", g), 1;
        printf("{\"card\":\"%s\",\"t\":%lld,\"grade\":%d,\"r\":%.8f,\"state\":%d,\"step\":%d,\"d\":%.8f,\"s\":%.8f,"
               "\"due\":%lld,\"ivl\":%d,\"reps\":%d,\"lapses\":%d}\n",
               name, t, g, r, c->state, c->step, c->d, c->s, c->due, c->scheduled, c->reviews, c->lapses);
    }
    return 0;
}
