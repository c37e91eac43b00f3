/* padlab drill --retention R --until DATE --plan (see drill_plan_cli.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/teach/drill.h"
#include "app/teach/drill_plan.h"
#include "drill_plan_cli.h"

/* The clock, with PADLAB_NOW (for tests) checked: -1 after its line. */
static long long clock_now(const CliArgs *a) {
    const char *env = getenv("PADLAB_NOW");
    if (env) {
        char date[11];
        int day;
        snprintf(date, sizeof date, "%s", env);
        if (pl_sched_parse_day(date, &day) || (env[10] && strlen(env) != 16))
            return fprintf(stderr, "%s: PADLAB_NOW: expected YYYY-MM-DD or YYYY-MM-DDTHH:MM (UTC), got '%s'\n", a->cmd,
                           env),
                   -1;
    }
    return pl_sched_now();
}

static int read_settings(const CliArgs *a, double *retention, int *until, long long now) {
    const char *r = cli_str(a, "retention", NULL), *u = cli_str(a, "until", NULL);
    char *end = NULL;
    if (r) *retention = strtod(r, &end);
    if (r && (end == r || *end || pl_fsrs_retention_ok(*retention)))
        return cli_usage_error(a, "--retention: expected a desired retention from 0.7 to 0.99, got '%s'", r);
    if (u && pl_sched_parse_day(u, until))
        return cli_usage_error(a, "--until: expected the interview's date as YYYY-MM-DD, got '%s'", u);
    if (u && *until < now / PL_DAY) return cli_usage_error(a, "--until: %s is before today", u);
    return 0;
}

int cli_drill_plan_settings(const CliArgs *a) {
    double retention = 0;
    int until = -1;
    long long now = clock_now(a);
    if (now < 0 || read_settings(a, &retention, &until, now)) return 2;
    if (!retention && until < 0) return 0;
    PlDrillBook b;
    PlErr err;
    int rc = 0;
    if (pl_drill_book_load(&b, &err)) rc = 2, fprintf(stderr, "%s: %s\n", a->cmd, err.msg);
    if (!rc && ((retention && pl_drill_book_set_retention(&b, retention)) ||
                (until >= 0 && pl_drill_book_set_until(&b, until))))
        rc = cli_no_memory(a, "keeping the drill settings");
    if (!rc && pl_drill_book_save(&b, &err)) rc = 2, fprintf(stderr, "%s: %s\n", a->cmd, err.msg);
    pl_drill_book_done(&b);
    return rc;
}

/* Each topic's recall today, and on the interview's day when there is one. */
static void print_topics(const PlTopicRecall *t, int nt, const char *then) {
    printf("\n%-34s %5s %5s %4s %13s", "topic", "cards", "seen", "due", "recall today");
    if (then) printf(" %13s", then);
    for (int i = 0; i < nt; i++) {
        printf("\n%-34.34s %5d %5d %4d %12.0f%%", t[i].topic, t[i].cards, t[i].seen, t[i].due, 100 * t[i].recall_now);
        if (then) printf(" %12.0f%%", 100 * t[i].recall_then);
    }
    printf("\n");
}

/* The reviews due on each of the next days (to the interview's day at most). */
static void print_days(PlDeck *const *decks, int n, const PlDrillBook *b, int today, int until) {
    enum { WEEK = 7 };
    int due[WEEK], days = until && until - today + 1 < WEEK ? until - today + 1 : WEEK;
    pl_drill_plan_days((const PlDeck *const *)decks, n, b, today, days, due);
    printf("\n%-15s", "reviews due");
    for (int k = 0; k < days; k++) {
        char day[16];
        pl_sched_day_text(today + k, day, sizeof day);
        printf(" %6s", k == 0 ? "today" : day + 5);
    }
    printf("\n%-15s", "as FSRS set them");
    for (int k = 0; k < days; k++) printf(" %6d", due[k]);
    printf("\n");
}

int cli_drill_plan_print(const CliArgs *a, PlDeck *const *decks, int n) {
    long long now = clock_now(a);
    if (now < 0) return 2;
    PlDrillBook b;
    PlErr err;
    if (pl_drill_book_load(&b, &err)) return fprintf(stderr, "%s: %s\n", a->cmd, err.msg), pl_drill_book_done(&b), 1;
    int today = (int)(now / PL_DAY), until = pl_drill_book_until(&b);
    char day[16], date[16], then[32];
    pl_sched_day_text(today, day, sizeof day);
    pl_sched_day_text(until, date, sizeof date);
    printf("today %s; desired retention %.2f; ", day, pl_drill_book_retention(&b));
    if (until) printf("interview %s, in %d day%s\n", date, until - today, until - today == 1 ? "" : "s");
    else printf("no interview date (--until DATE sets one)\n");
    printf("\n%-24s %8s %10s %10s\n", "deck", "reviews", "new today", "not seen");
    for (int i = 0; i < n; i++)
        if (decks[i]->kind == PL_DECK_CARDS || decks[i]->kind == PL_DECK_MINUTE) {
            int fresh = 0;
            for (int k = 0; k < decks[i]->n; k++) {
                const PlDrillRecord *r = pl_drill_book_find(&b, decks[i]->name, decks[i]->items[k].id);
                fresh += !r || r->s.state == PL_CARD_NEW;
            }
            int allowed = pl_drill_new_allowance(decks[i], &b, today);
            printf("%-24s %8d %10d %10d\n", decks[i]->name, pl_drill_due_count(decks[i], &b, today) - fresh,
                   allowed < fresh ? allowed : fresh, fresh);
        }
    print_days(decks, n, &b, today, until);
    PlTopicRecall *t = malloc(sizeof *t * PL_PLAN_MAX_TOPICS);
    if (!t) return pl_drill_book_done(&b), cli_no_memory(a, "planning");
    int nt = pl_drill_plan_topics((const PlDeck *const *)decks, n, &b, now, until, t, PL_PLAN_MAX_TOPICS);
    if (until) snprintf(then, sizeof then, "on %s", date);
    print_topics(t, nt, until ? then : NULL);
    free(t);
    pl_drill_book_done(&b);
    return 0;
}
