/* libFuzzer harness: the class report (app/class/report.c) of a class built
 * from the input, a move a line:
 *
 *   n PROMPT                 a number question (a share, or a count when
 *                            PROMPT starts with #)
 *   c R PROMPT|A|B|...       a choice question, R the right one (from 0)
 *   o Q                      question Q opened          g   its second round
 *   a S TEXT                 student S (0..15) answers the open question
 *   s S N                    how sure student S is      r X  revealed with X
 *   m X TEXT                 a misconception X on the open question
 *   t MS                     the class's clock          x   the class ends
 *   h BEGAN ENDED LESSON|SETTINGS    the report's header
 *   T TITLE                  the report's title
 *
 * Numbers are read with strtod and strtoll as they come: nan, inf, 1e308,
 * -0, huge counts. Whatever the input, the report in each format is whole:
 * the JSON is valid (a strict checker of its own, tests/fuzz/fuzz_util.h),
 * every CSV row has the header's ten cells and no text cell a spreadsheet
 * would run as a formula, every Markdown response row has its seven cells,
 * and each format holds exactly one response for every vote taken. */
#include <math.h>

#include "app/class/class.h"
#include "fuzz_util.h"

#define STUDENTS 16

typedef struct {
    PlClass *c;
    int64_t clock;
    int open;                                                 /* the question open, -1 */
    int round;                                                /* its round, 1 or 2 */
    unsigned char voted[PL_CLASS_MAX_QUESTIONS][2][STUDENTS]; /* a vote taken */
    char title[200];
} Report;

static int64_t report_clock(void *ctx) { return ((Report *)ctx)->clock; }

static void add_question(Report *r, const char *line) {
    PlQuantity q;
    PlTolerance t = {PL_TOL_DEFAULT, 0};
    char why[200];
    if (line[0] == 'n') {
        FUZZ_CHECK(pl_quantity_parse(line[2] == '#' ? "batch.pad_cells" : "batch.pad_share", &q, why, sizeof why) == 0);
        pl_class_add_number(r->c, line + 2, &q, &t, pl_class_questions(r->c));
        return;
    }
    char text[2400], *save = NULL;
    const char *choices[PL_CHOICES_MAX];
    int right = atoi(line + 2), n = 0;
    const char *sp = strchr(line + 2, ' ');
    snprintf(text, sizeof text, "%s", sp ? sp + 1 : "");
    char *prompt = strtok_r(text, "|", &save);
    for (char *ch = strtok_r(NULL, "|", &save); ch && n < PL_CHOICES_MAX; ch = strtok_r(NULL, "|", &save))
        choices[n++] = ch;
    if (prompt && n >= 2 && right >= 0 && right < n)
        pl_class_add_choice(r->c, prompt, choices, n, right, pl_class_questions(r->c));
}

static void answer(Report *r, const char *line) {
    char *end;
    long s = strtol(line + 2, &end, 10);
    if (s < 0 || s >= STUDENTS || *end != ' ' || r->open < 0) return;
    unsigned char rnd[16] = {(unsigned char)s, 0x5a};
    char token[PL_CLASS_TOKEN_HEX + 1], why[200];
    for (; pl_class_students(r->c) <= s; rnd[2]++) FUZZ_CHECK(pl_class_join(r->c, rnd, token) >= 0);
    if (!pl_class_answer(r->c, (int)s, r->open, end + 1, why, sizeof why)) r->voted[r->open][r->round - 1][s] = 1;
    else FUZZ_CHECK(why[0] && !strchr(why, '\n'));
}

static void header(Report *r, const char *line) {
    PlClassMeta m;
    char *end;
    memset(&m, 0, sizeof m);
    long long began = strtoll(line + 2, &end, 10), ended = strtoll(end, &end, 10);
    while (*end == ' ') end++;
    const char *bar = strchr(end, '|');
    snprintf(m.lesson, sizeof m.lesson, "%.*s", bar ? (int)(bar - end) : (int)strlen(end), end);
    snprintf(m.settings, sizeof m.settings, "%s", bar ? bar + 1 : "");
    snprintf(m.code, sizeof m.code, "K7P2Q");
    m.began = began < 0 ? 0 : began; /* a saved class's is never negative (store.c) */
    pl_class_report_meta(r->c, &m, ended);
}

static void move(Report *r, const char *line) {
    char why[200];
    if ((line[0] == 'n' || line[0] == 'c') && line[1] == ' ') add_question(r, line);
    else if (line[0] == 'o' && line[1] == ' ' && !pl_class_open(r->c, atoi(line + 2)))
        r->open = atoi(line + 2), r->round = 1;
    else if (!strcmp(line, "g") && !pl_class_again(r->c)) r->round = 2;
    else if (line[0] == 'a' && line[1] == ' ') answer(r, line);
    else if (line[0] == 's' && line[1] == ' ' && r->open >= 0) {
        char *end;
        long s = strtol(line + 2, &end, 10);
        if (s >= 0 && s < pl_class_students(r->c)) pl_class_rate(r->c, (int)s, r->open, atoi(end), why, sizeof why);
    } else if (line[0] == 'r' && line[1] == ' ') pl_class_reveal(r->c, strtod(line + 2, NULL));
    else if (line[0] == 'm' && line[1] == ' ' && r->open >= 0) {
        char *end;
        double v = strtod(line + 2, &end);
        pl_class_add_misconception(r->c, r->open, v, *end ? end + 1 : "");
    } else if (line[0] == 't' && line[1] == ' ') r->clock = strtoll(line + 2, NULL, 10);
    else if (!strcmp(line, "x")) pl_class_end(r->c);
    else if (line[0] == 'h' && line[1] == ' ') header(r, line);
    else if (line[0] == 'T' && line[1] == ' ') snprintf(r->title, sizeof r->title, "%s", line + 2);
}

/* The report in fmt, in memory (NUL-terminated). */
static char *printed(Report *r, const char *fmt, size_t *n) {
    char *text = NULL;
    FILE *f = open_memstream(&text, n);
    FUZZ_CHECK(f != NULL);
    pl_class_report_print(r->c, f, fmt, r->title);
    FUZZ_CHECK(fclose(f) == 0);
    return text;
}

/* How often pat occurs in text. */
static int occurs(const char *text, const char *pat) {
    int k = 0;
    for (const char *p = text; (p = strstr(p, pat)); p += strlen(pat)) k++;
    return k;
}

/* One CSV record from *p (RFC 4180): its cells' count; each text cell's
 * first byte in first[] (up to 10). -1 when it is not one. */
static int csv_record(const char **p, char first[10]) {
    int cells = 0;
    for (;;) {
        const char *s = *p;
        int quoted = *s == '"';
        char lead = quoted ? s[1] : s[0];
        if (quoted) {
            for (s++;; s++) {
                if (!*s) return -1;
                if (*s == '"' && s[1] == '"') s++;
                else if (*s == '"') break;
            }
            s++;
        } else
            while (*s && *s != ',' && *s != '\n') {
                if (*s == '"' || (unsigned char)*s < 0x20) return -1;
                s++;
            }
        if (cells < 10) first[cells] = lead;
        cells++;
        *p = s + 1;
        if (*s == '\n') return cells;
        if (*s != ',') return -1;
    }
}

static void check_csv(const char *text, int votes) {
    const char *p = text;
    char first[10];
    FUZZ_CHECK(csv_record(&p, first) == 10);
    int rows = 0;
    for (; *p; rows++) {
        FUZZ_CHECK(csv_record(&p, first) == 10);
        FUZZ_CHECK(!strchr("=+-@", first[3]) || !first[3]); /* the prompt */
        FUZZ_CHECK(!strchr("=+-@", first[5]) || !first[5]); /* the answer */
    }
    FUZZ_CHECK(rows == votes);
}

/* The cells of a Markdown table row: its pipes that are not escaped, less one. */
static int md_cells(const char *line, size_t n) {
    int pipes = 0;
    for (size_t i = 0; i < n; i++) {
        if (line[i] == '\\') i++;
        else if (line[i] == '|') pipes++;
        FUZZ_CHECK((unsigned char)line[i] >= 0x20 || line[i] == '\t');
    }
    return pipes - 1;
}

static void check_md(const char *text, int votes) {
    const char *p = strstr(text, "\n## Every response\n\n");
    FUZZ_CHECK(p && !strstr(p + 1, "\n## Every response\n"));
    p = strchr(p + 20, '\n') + 1; /* the head */
    p = strchr(p, '\n') + 1;      /* the rule */
    int rows = 0;
    for (const char *nl; *p; p = nl + 1, rows++) {
        FUZZ_CHECK((nl = strchr(p, '\n')) != NULL);
        FUZZ_CHECK(md_cells(p, (size_t)(nl - p)) == 7);
    }
    FUZZ_CHECK(rows == votes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    Report *r = calloc(1, sizeof *r);
    char *text = malloc(size + 1);
    FUZZ_CHECK(r && text);
    memcpy(text, data, size), text[size] = '\0';
    r->c = pl_class_new("K7P2Q");
    FUZZ_CHECK(r->c != NULL);
    r->open = -1;
    snprintf(r->title, sizeof r->title, "fuzz");
    pl_class_set_clock(r->c, report_clock, r);
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) move(r, line);
    int votes = 0;
    for (int q = 0; q < PL_CLASS_MAX_QUESTIONS; q++)
        for (int k = 0; k < 2; k++)
            for (int s = 0; s < STUDENTS; s++) votes += r->voted[q][k][s];
    size_t n;
    char *json = printed(r, "json", &n);
    FUZZ_CHECK(fuzz_json_valid(json, n) && occurs(json, "\"counted_right\": ") == votes);
    char *csv = printed(r, "csv", &n), *md = printed(r, "md", &n);
    check_csv(csv, votes);
    check_md(md, votes);
    free(json), free(csv), free(md);
    pl_class_free(r->c);
    free(r), free(text);
    return 0;
}
