/* padlab join over libcurl (join.h): it asks the class's /state every
 * half second and reads the answers typed in between. What the server sends
 * is read as data only, bounded, and printed with its control bytes shown.
 *
 * How it stops: at end of input (status 0); when the class says it has
 * ended, after printing the student's answers against the lab's (status
 * 0); when the class stops answering for JOIN_PATIENCE polls in a row, with
 * one line saying so (status 1). */
#include <curl/curl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "join.h"

#define REPLY_MAX 65536
#define JOIN_PATIENCE 6 /* polls of half a second: a Wi-Fi hiccup is not the class's end */

typedef struct {
    char base[300];
    char cookie[64];
    CURL *h;
} Join;

typedef struct {
    char buf[REPLY_MAX + 1];
    size_t n;
    CURLcode rc; /* the transfer's result: CURLE_OK when the class answered */
} Reply;

static size_t gather(char *p, size_t size, size_t nm, void *ud) {
    Reply *r = ud;
    size_t n = size * nm, room = REPLY_MAX - r->n;
    memcpy(r->buf + r->n, p, n < room ? n : room);
    r->n += n < room ? n : room;
    r->buf[r->n] = 0;
    return n;
}

/* A request: GET when body is NULL. Returns the HTTP status, or -1 with the
 * transfer's error in r->rc and its words in r->buf. */
static long request(Join *j, const char *path, const char *body, Reply *r) {
    char url[400];
    snprintf(url, sizeof url, "%s%s", j->base, path);
    struct curl_slist *hs = curl_slist_append(NULL, "Accept: application/json");
    r->n = 0, r->buf[0] = 0;
    curl_easy_reset(j->h);
    curl_easy_setopt(j->h, CURLOPT_URL, url);
    curl_easy_setopt(j->h, CURLOPT_HTTPHEADER, hs);
    curl_easy_setopt(j->h, CURLOPT_WRITEFUNCTION, gather);
    curl_easy_setopt(j->h, CURLOPT_WRITEDATA, r);
    curl_easy_setopt(j->h, CURLOPT_TIMEOUT, 10L);
    curl_easy_setopt(j->h, CURLOPT_PROTOCOLS_STR, "http");
    if (j->cookie[0]) curl_easy_setopt(j->h, CURLOPT_COOKIE, j->cookie);
    if (body) curl_easy_setopt(j->h, CURLOPT_POSTFIELDS, body);
    r->rc = curl_easy_perform(j->h);
    curl_slist_free_all(hs);
    long status = -1;
    if (r->rc != CURLE_OK) snprintf(r->buf, sizeof r->buf, "%s", curl_easy_strerror(r->rc));
    else curl_easy_getinfo(j->h, CURLINFO_RESPONSE_CODE, &status);
    return status;
}

/* Says, on one line, why a request got no answer: a class that is gone
 * (refused, timed out, hung up: it may have ended) or an address that is
 * wrong. */
static void no_answer(const Join *j, const Reply *r) {
    if (r->rc == CURLE_COULDNT_RESOLVE_HOST || r->rc == CURLE_URL_MALFORMAT || r->rc == CURLE_UNSUPPORTED_PROTOCOL)
        fprintf(stderr, "padlab join: %s is not a class's address: %s\n", j->base, r->buf);
    else fprintf(stderr, "padlab join: the class at %s is not answering: it may have ended\n", j->base);
}

/* The server's refusal, one line: its own words (a 4xx's body). */
static void refused(const Reply *r) {
    size_t n = strcspn(r->buf, "\r\n");
    cli_print_shown("padlab join: %.*s\n", (int)n, n ? r->buf : "the class refused the request");
}

/* The JSON string at p (just after its opening quote) into out, decoded;
 * returns the byte after its closing quote. \u escapes become '?' unless
 * ASCII. */
static const char *json_string(const char *p, char *out, int cap) {
    int k = 0;
    for (; *p && *p != '"'; p++) {
        char ch = *p;
        if (ch == '\\' && p[1]) {
            p++;
            ch = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p;
            if (*p == 'u') {
                unsigned v = 0;
                for (int i = 0; i < 4 && p[1]; i++)
                    v = v * 16 + (unsigned)(p[1] <= '9' ? p[1] - '0' : (p[1] | 32) - 'a' + 10), p++;
                ch = v >= 0x20 && v < 0x7f ? (char)v : '?';
            }
        }
        if (k + 1 < cap) out[k++] = ch;
    }
    out[k] = 0;
    return *p ? p + 1 : p;
}

/* The string field key of the reply ("" when absent). */
static void field(const char *json, const char *key, char *out, int cap) {
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": \"", key);
    const char *p = strstr(json, pat);
    out[0] = 0;
    if (p) json_string(p + strlen(pat), out, cap);
}

static long field_int(const char *json, const char *key) {
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    const char *p = strstr(json, pat);
    return p ? strtol(p + strlen(pat), NULL, 10) : -1;
}

/* A true/false field: 1, 0, or -1 when absent or null. */
static int field_bool(const char *json, const char *key) {
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    const char *p = strstr(json, pat);
    if (!p) return -1;
    p += strlen(pat);
    return !strncmp(p, "true", 4) ? 1 : !strncmp(p, "false", 5) ? 0 : -1;
}

/* The next object of an array, from p: copied into out (up to cap - 1
 * bytes), its end returned; NULL when the array ends first. Braces and
 * brackets inside strings are text. */
static const char *next_object(const char *p, char *out, int cap) {
    while (*p && *p != '{' && *p != ']') p++;
    if (*p != '{') return NULL;
    const char *s = p;
    int depth = 0, in_str = 0;
    for (; *p; p++) {
        if (in_str) {
            if (*p == '\\' && p[1]) p++;
            else if (*p == '"') in_str = 0;
        } else if (*p == '"') in_str = 1;
        else if (*p == '{') depth++;
        else if (*p == '}' && !--depth) break;
    }
    if (!*p) return NULL;
    int n = (int)(p - s + 1) < cap ? (int)(p - s + 1) : cap - 1;
    memcpy(out, s, (size_t)n);
    out[n] = 0;
    return p + 1;
}

/* Choice i of the state's "choices" into out ("" when there is none). */
static void choice_at(const char *json, int i, char *out, int cap) {
    const char *p = strstr(json, "\"choices\": [");
    out[0] = 0;
    if (p) p += strlen("\"choices\": [");
    for (int k = 0; p && *p; k++) {
        while (*p == ' ' || *p == '\n' || *p == ',') p++;
        if (*p != '"') return;
        p = json_string(p + 1, out, cap);
        if (k == i) return;
    }
    out[0] = 0;
}

static void show_question(const char *json) {
    char prompt[2000], choice[600], hint[120];
    field(json, "prompt", prompt, sizeof prompt);
    cli_print_shown("\nquestion %ld, round %ld\n%s\n", field_int(json, "q") + 1, field_int(json, "round"), prompt);
    for (int i = 0; i < 8; i++) {
        choice_at(json, i, choice, sizeof choice);
        if (!choice[0]) break;
        cli_print_shown("  %c. %s\n", 'a' + i, choice);
    }
    field(json, "hint", hint, sizeof hint); /* a number's, as the class reads it: a share, a whole number, a number */
    if (strstr(json, "\"kind\": \"choose\"")) printf("your answer (a letter): ");
    else cli_print_shown("your answer (%s): ", hint[0] ? hint : "a number");
    fflush(stdout);
}

static void show_tally(const char *json) {
    char value[64], mine[600], right_text[700];
    field(json, "value", value, sizeof value);
    long right = field_int(json, "right_choice");
    if (value[0]) cli_print_shown("\nrevealed: the lab computed %s\n", value);
    else printf("\nrevealed: the right answer is %c\n", right >= 0 && right < 8 ? (int)('a' + right) : '?');
    const char *p = strstr(json, "\"rounds\": [");
    for (int r = 1; p && (p = strstr(p, "\"answered\": ")); r++) {
        long answered = strtol(p + 12, NULL, 10);
        const char *q = strstr(p, "\"right\": ");
        printf("  round %d: %ld answered, %ld right\n", r, answered, q ? strtol(q + 9, NULL, 10) : 0);
        p += 12;
    }
    field(json, "mine", mine, sizeof mine);
    int counted = field_bool(json, "mine_right"); /* as the page says it */
    if (value[0]) snprintf(right_text, sizeof right_text, "the lab's number is %s", value);
    else {
        char choice[600];
        choice_at(json, (int)right, choice, sizeof choice);
        snprintf(right_text, sizeof right_text, "the right answer is %c. %s",
                 right >= 0 && right < 8 ? (int)('a' + right) : '?', choice);
    }
    if (!mine[0]) printf("  you sent no answer\n");
    else if (counted == 1) cli_print_shown("  your answer %s: counted right\n", mine);
    else if (counted == 0) cli_print_shown("  your answer %s: not counted: %s\n", mine, right_text);
    else cli_print_shown("  your answer: %s\n", mine);
}

/* The class's end: the student's answers against the lab's, from the
 * state's "results". */
static void show_end(const char *json) {
    char obj[8000], prompt[1300], mine[600], answer[600];
    printf("\nthe class has ended\n");
    const char *p = strstr(json, "\"results\": [");
    int n = 0;
    for (p = p ? p + strlen("\"results\": [") : NULL; p && (p = next_object(p, obj, sizeof obj)); n++) {
        field(obj, "prompt", prompt, sizeof prompt);
        field(obj, "mine", mine, sizeof mine);
        field(obj, "answer", answer, sizeof answer);
        int right = field_bool(obj, "right");
        if (!n) printf("your answers:\n");
        cli_print_shown("  question %ld: %s\n", field_int(obj, "question"), prompt);
        if (!mine[0]) cli_print_shown("    no answer sent%s%s\n", answer[0] ? "; the answer: " : "", answer);
        else if (right == 1) cli_print_shown("    your answer %s: counted right\n", mine);
        else if (right == 0) cli_print_shown("    your answer %s: not counted: the answer is %s\n", mine, answer);
        else cli_print_shown("    your answer %s (its answer was not revealed)\n", mine);
    }
    if (!n) printf("the class asked no question\n");
    fflush(stdout);
}

typedef enum { FOLLOW_ON, FOLLOW_ENDED, FOLLOW_SILENT, FOLLOW_REFUSED } Follow;

/* Shows the state when its key changed. r holds the reply afterwards. */
static Follow follow(Join *j, char *key, int cap, Reply *r) {
    long st = request(j, "/state", NULL, r);
    if (st < 0) return FOLLOW_SILENT;
    if (st != 200) return FOLLOW_REFUSED;
    char now[64], phase[16];
    field(r->buf, "key", now, sizeof now);
    field(r->buf, "phase", phase, sizeof phase);
    if (!strcmp(phase, "ended")) return show_end(r->buf), FOLLOW_ENDED;
    if (strcmp(now, key)) {
        snprintf(key, cap, "%s", now);
        if (!strcmp(phase, "open")) show_question(r->buf);
        else if (!strcmp(phase, "shown")) show_tally(r->buf);
        else printf("\nwaiting for the teacher's next question\n");
        fflush(stdout);
    }
    return FOLLOW_ON;
}

/* Sends text as the answer to the open question. Returns the exit status:
 * 0 when it was taken. */
static int send_answer(Join *j, const char *text) {
    Reply *r = malloc(sizeof *r);
    char body[200], mine[600], phase[16];
    if (!r) return 1;
    long st = request(j, "/state", NULL, r);
    if (st != 200) return st < 0 ? no_answer(j, r) : refused(r), free(r), 1;
    field(r->buf, "phase", phase, sizeof phase);
    if (!strcmp(phase, "ended")) {
        fprintf(stderr, "padlab join: the class has ended: no answer is taken\n");
        return show_end(r->buf), free(r), 1;
    }
    char *esc = curl_easy_escape(j->h, text, 0);
    snprintf(body, sizeof body, "q=%ld&a=%s", field_int(r->buf, "q"), esc ? esc : "");
    curl_free(esc);
    st = request(j, "/answer", body, r);
    if (st == 200) field(r->buf, "mine", mine, sizeof mine), cli_print_shown("your answer: %s\n", mine);
    else if (st < 0) no_answer(j, r);
    else cli_print_shown("not taken: %s", r->buf[0] ? r->buf : "no reply\n");
    free(r);
    return st == 200 ? 0 : 1;
}

static int join(Join *j, const char *code) {
    Reply *r = malloc(sizeof *r);
    char body[64], token[40];
    if (!r) return -1;
    snprintf(body, sizeof body, "code=%.16s", code);
    long st = request(j, "/join", body, r);
    if (st != 200) return st < 0 ? no_answer(j, r) : refused(r), free(r), -1;
    field(r->buf, "token", token, sizeof token);
    free(r);
    if (strlen(token) != 32) return fprintf(stderr, "padlab join: the class sent no token\n"), -1;
    snprintf(j->cookie, sizeof j->cookie, "padlab_class=%s", token);
    printf("joined; to come back as yourself: padlab join ADDRESS --token %s\n", token);
    return 0;
}

/* Reads the lines typed and follows the class until end of input or its
 * end. Returns the exit status. */
static int loop(Join *j) {
    char key[64] = "", line[256];
    Reply *r = malloc(sizeof *r);
    if (!r) return 1;
    for (int silent = 0;;) {
        Follow f = follow(j, key, sizeof key, r);
        if (f == FOLLOW_ENDED) return free(r), 0;
        if (f == FOLLOW_REFUSED) return refused(r), free(r), 1;
        silent = f == FOLLOW_SILENT ? silent + 1 : 0;
        if (silent >= JOIN_PATIENCE) return no_answer(j, r), free(r), 1;
        struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
        if (poll(&p, 1, 500) <= 0) continue;
        if (!fgets(line, sizeof line, stdin)) return free(r), 0;
        line[strcspn(line, "\r\n")] = 0;
        if (line[0]) send_answer(j, line);
    }
}

int cli_join_run(const CliArgs *a, const char *address, const char *code, const char *token, const char *answer) {
    Join j;
    memset(&j, 0, sizeof j);
    if (strlen(address) > 200) return cli_usage_error(a, "the address is too long");
    snprintf(j.base, sizeof j.base, "%s%s", strncmp(address, "http://", 7) ? "http://" : "", address);
    for (size_t n = strlen(j.base); n > 7 && j.base[n - 1] == '/'; n--)
        j.base[n - 1] = 0; /* the projector's URL ends in / */
    if (token) snprintf(j.cookie, sizeof j.cookie, "padlab_class=%s", token);
    if (curl_global_init(CURL_GLOBAL_DEFAULT) || !(j.h = curl_easy_init()))
        return fprintf(stderr, "%s: libcurl could not start\n", a->cmd), 1;
    int rc = !token && join(&j, code) ? 1 : answer ? send_answer(&j, answer) : loop(&j);
    curl_easy_cleanup(j.h);
    curl_global_cleanup();
    return rc;
}
