/* libFuzzer harness: the dates padlab reads (app/teach/sched.h):
 * `drill --until DATE` (pl_sched_parse_day), PADLAB_NOW
 * (pl_sched_parse_time, which the drill's clock checks too), and the day a
 * time stored in the drill book falls on (pl_sched_day). Each line of the
 * input is tried as a date and as a time. A text either is refused or is a
 * real date from 1970 to 9999 (and a time of day), as the C library's
 * timegm and gmtime_r, an independent reference, say: its day and seconds
 * are theirs, and it is written back as the same text (a date alone as its
 * noon). Each line's first bytes are also a time and a shift of the day's
 * start, and the day found holds that time. UBSan holds the arithmetic. */
#include <time.h>

#include "app/teach/sched.h"
#include "fuzz_util.h"

/* Whether text is YYYY-MM-DD (and THH:MM when with_time) of a real date
 * from 1970 to 9999, by the C library: *t its seconds since 1970. */
static int library_reads(const char *text, int with_time, long long *t) {
    size_t want = with_time ? 16 : 10;
    const char *shape = "dddd-dd-ddTdd:dd";
    if (strlen(text) != want) return 0;
    for (size_t i = 0; i < want; i++)
        if (shape[i] == 'd' ? text[i] < '0' || text[i] > '9' : text[i] != shape[i]) return 0;
    struct tm tm = {0}, back;
    tm.tm_year = atoi(text) - 1900, tm.tm_mon = atoi(text + 5) - 1, tm.tm_mday = atoi(text + 8);
    tm.tm_hour = with_time ? atoi(text + 11) : 12, tm.tm_min = with_time ? atoi(text + 14) : 0;
    if (tm.tm_year < 70 || tm.tm_mon < 0 || tm.tm_mon > 11 || tm.tm_hour > 23 || tm.tm_min > 59) return 0;
    int mday = tm.tm_mday, mon = tm.tm_mon; /* timegm makes 02-30 03-02 */
    time_t s = timegm(&tm);
    if (s == (time_t)-1 || !gmtime_r(&s, &back) || back.tm_mday != mday || back.tm_mon != mon) return 0;
    *t = (long long)s;
    return 1;
}

static void date(const char *line) {
    int day = -7;
    long long want;
    int ok = pl_sched_parse_day(line, &day) == 0;
    FUZZ_CHECK(ok == library_reads(line, 0, &want));
    if (!ok) return;
    char back[32];
    FUZZ_CHECK(day == (want - 12 * 3600) / 86400);
    pl_sched_day_text(day, back, sizeof back);
    FUZZ_CHECK(!strcmp(back, line));
}

static void time_of_day(const char *line) {
    long long t = -7, want;
    int ok = pl_sched_parse_time(line, &t) == 0;
    int as_time = library_reads(line, 1, &want), as_date = !as_time && library_reads(line, 0, &want);
    FUZZ_CHECK(ok == (as_time || as_date));
    if (!ok) return;
    char back[40], expect[40];
    FUZZ_CHECK(t == want);
    pl_sched_time_text(t, back, sizeof back);
    snprintf(expect, sizeof expect, "%s%s", line, as_date ? "T12:00" : "");
    FUZZ_CHECK(!strcmp(back, expect));
}

/* A time up to 1e12 s (the drill book's bound) and a day's start from UTC-14
 * to UTC+14 at any hour: the day found holds the time. */
static void day_holds(const char *line, size_t n) {
    uint64_t bits = 0;
    memcpy(&bits, line, n < sizeof bits ? n : sizeof bits);
    long long t = (long long)(bits % 1000000000001ULL), shift = (long long)(bits >> 40) % (28 * 3600 + 1) - 14 * 3600;
    pl_sched_set_day_shift(shift);
    long long day = pl_sched_day(t);
    FUZZ_CHECK(pl_sched_day_start(day) <= t && t < pl_sched_day_start(day + 1));
    pl_sched_set_day_shift(0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    FUZZ_CHECK(text != NULL);
    memcpy(text, data, size), text[size] = '\0';
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        date(line);
        time_of_day(line);
        day_holds(line, strlen(line));
    }
    free(text);
    return 0;
}
