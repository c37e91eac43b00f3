/* padlab drill --retention R --until DATE|none --reviews-per-day N --new-per-day N
 * --day-starts H --plan (see drill_plan_cli.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/teach/drill.h"
#include "app/teach/drill_plan.h"
#include "drill_plan_cli.h"

/* The clock, with PADLAB_NOW (for tests) checked: -1 after its line. */
static long long clock_now(const CliArgs *a) {
    const char *env = getenv("PADLAB_NOW");
    long long t;
    if (env) {
        if (pl_sched_parse_time(env, &t))
            return fprintf(stderr, "%s: PADLAB_NOW: expected YYYY-MM-DD or YYYY-MM-DDTHH:MM (UTC), got '%s'\n", a->cmd,
                           env),
                   -1;
    }
    return pl_sched_now();
}

/* What the command line asks the book to keep; 0 where it asks nothing. */
typedef struct {
    double retention;
    int until;   /* -1: not asked; 0: none */
    int reviews; /* per day */
    int fresh;   /* new per day */
    int hour;    /* the day's start; -1: not asked */
} Asked;

static int read_settings(const CliArgs *a, Asked *k) {
    const char *r = cli_str(a, "retention", NULL), *u = cli_str(a, "until", NULL);
    char *end = NULL;
    memset(k, 0, sizeof *k), k->until = -1;
    if (r) k->retention = strtod(r, &end);
    if (r && (end == r || *end || pl_fsrs_retention_ok(k->retention)))
        return cli_usage_error(a, "--retention: expected a desired retention from 0.7 to 0.99, got '%s'", r);
    if (u && strcmp(u, "none") && pl_sched_parse_day(u, &k->until))
        return cli_usage_error(a, "--until: expected the interview's date as YYYY-MM-DD, or none, got '%s'", u);
    if (u && !strcmp(u, "none")) k->until = 0;
    if (cli_int(a, "reviews-per-day", 0, 1, 100000, &k->reviews) ||
        cli_int(a, "new-per-day", 0, 1, 100000, &k->fresh) || cli_int(a, "day-starts", -1, 0, 23, &k->hour))
        return 2;
    return 0;
}

/* Keeps what was asked in b; the interview's day moves every card due after
 * it onto the days before it. 0, or 2 after its line. */
static int keep(const CliArgs *a, PlDrillBook *b, const Asked *k, long long now) {
    if ((k->retention && pl_drill_book_set_retention(b, k->retention)) ||
        pl_drill_book_set_limits(b, k->reviews, k->fresh, k->hour))
        return cli_no_memory(a, "keeping the drill settings");
    if (k->hour >= 0) pl_sched_set_day_start(k->hour, now);
    if (k->until > 0 && k->until < pl_sched_day(now)) {
        char day[16];
        pl_sched_day_text(k->until, day, sizeof day);
        return cli_usage_error(a, "--until: %s is before today", day);
    }
    if (k->until >= 0 && pl_drill_book_set_until(b, k->until)) return cli_no_memory(a, "keeping the drill settings");
    int moved = k->until > 0 ? pl_drill_book_fit_until(b, now) : 0;
    if (moved) printf("%d card%s due after the interview now come before it\n", moved, moved == 1 ? "" : "s");
    return 0;
}

int cli_drill_plan_settings(const CliArgs *a) {
    Asked k;
    long long now = clock_now(a);
    if (now < 0 || read_settings(a, &k)) return 2;
    if (!k.retention && k.until < 0 && !k.reviews && !k.fresh && k.hour < 0) return 0;
    PlDrillBook b;
    PlErr err;
    int rc = 0;
    if (pl_drill_book_load(&b, &err)) rc = 2, fprintf(stderr, "%s: %s\n", a->cmd, err.msg);
    if (!rc) rc = keep(a, &b, &k, now);
    if (!rc && pl_drill_book_save(&b, &err)) rc = 2, fprintf(stderr, "%s: %s\n", a->cmd, err.msg);
    pl_drill_book_done(&b);
    return rc;
}

/* Each topic's recall today, and on the interview's day when there is one:
 * of the cards seen, with how many are not seen yet. */
static void print_topics(const PlTopicRecall *t, int nt, const char *then) {
    printf("\n%-34s %5s %5s %4s %13s", "topic", "cards", "seen", "due", "recall today");
    if (then) printf(" %13s", then);
    for (int i = 0; i < nt; i++) {
        printf("\n%-34.34s %5d %5d %4d", t[i].topic, t[i].cards, t[i].seen, t[i].due);
        if (!t[i].seen) {
            printf(" %13s", "none seen yet");
            continue;
        }
        printf(" %12.0f%%", 100 * t[i].recall_now);
        if (then) printf(" %12.0f%%", 100 * t[i].recall_then);
        if (t[i].seen < t[i].cards) printf("   %d not seen yet", t[i].cards - t[i].seen);
    }
    printf("\n");
}

/* The reviews FSRS has set on each day to the interview's (or the next
 * fortnight), a row a day with a bar against the daily limit. */
#define PLAN_DAYS 60
static void print_days(PlDeck *const *decks, int n, const PlDrillBook *b, int today, int until) {
    int due[PLAN_DAYS], days = until && until >= today ? until - today + 1 : 14,
                        limit = pl_drill_book_reviews_per_day(b);
    if (days > PLAN_DAYS) days = PLAN_DAYS;
    pl_drill_plan_days((const PlDeck *const *)decks, n, b, today, days, due);
    int most = limit;
    for (int k = 0; k < days; k++) most = due[k] > most ? due[k] : most;
    printf("\nreviews due each day, as FSRS set them (a grade moves its card; the limit is %d a day)\n", limit);
    for (int k = 0; k < days; k++) {
        char day[16], bar[3 * 40 + 1] = "";
        pl_sched_day_text(today + k, day, sizeof day);
        int cells = (due[k] * 40 + most - 1) / most;
        for (int c = 0; c < cells; c++) strcat(bar, "\u2588");
        printf("  %s %-9s %4d%s%s%s\n", day,
               k == 0               ? "(today)"
               : today + k == until ? "(the day)"
                                    : "",
               due[k], cells ? " " : "", bar, due[k] > limit ? "  over the limit" : "");
    }
}

/* The interview's day has passed: said, and how to clear it. */
static void print_passed(int today, int until) {
    char date[16];
    pl_sched_day_text(until, date, sizeof date);
    printf("interview %s: the date has passed (%d day%s ago); --until none clears it, --until DATE sets another\n",
           date, today - until, today - until == 1 ? "" : "s");
}

int cli_drill_plan_print(const CliArgs *a, PlDeck *const *decks, int n) {
    long long now = clock_now(a);
    if (now < 0) return 2;
    PlDrillBook b;
    PlErr err;
    if (pl_drill_book_load(&b, &err)) return fprintf(stderr, "%s: %s\n", a->cmd, err.msg), pl_drill_book_done(&b), 1;
    int today = (int)pl_sched_day(now), until = pl_drill_book_until(&b), hour = pl_drill_book_day_starts(&b);
    char day[16], date[16], then[32];
    pl_sched_day_text(today, day, sizeof day);
    pl_sched_day_text(until, date, sizeof date);
    printf("today %s (days start at %d:00); desired retention %.2f; at most %d reviews and %d new cards a day\n", day,
           hour, pl_drill_book_retention(&b), pl_drill_book_reviews_per_day(&b), pl_drill_book_new_per_day(&b));
    if (until && until < today) print_passed(today, until), until = 0;
    else if (until) printf("interview %s, in %d day%s\n", date, until - today, until - today == 1 ? "" : "s");
    else printf("no interview date (--until DATE sets one)\n");
    printf("\n%-24s %8s %10s %10s\n", "deck", "reviews", "new ready", "not seen");
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
    printf("(new cards are drawn from one allowance of %d a day over every deck: %d left today)\n",
           pl_drill_book_new_per_day(&b), pl_drill_new_left(&b, today));
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
