/* padlab join over libcurl (join.h): it asks the class's /state every
 * half second and reads the answers typed in between. What the server sends
 * is read as data only, bounded, and printed with its control bytes shown. */
#include <curl/curl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "join.h"

#define REPLY_MAX 65536

typedef struct {
    char base[300];
    char cookie[64];
    CURL *h;
} Join;

typedef struct {
    char buf[REPLY_MAX + 1];
    size_t n;
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
 * transfer's error in r->buf. */
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
    CURLcode rc = curl_easy_perform(j->h);
    curl_slist_free_all(hs);
    long status = -1;
    if (rc != CURLE_OK) snprintf(r->buf, sizeof r->buf, "%s", curl_easy_strerror(rc));
    else curl_easy_getinfo(j->h, CURLINFO_RESPONSE_CODE, &status);
    return status;
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

static void show_question(const char *json) {
    char prompt[2000], choice[600];
    field(json, "prompt", prompt, sizeof prompt);
    cli_print_shown("\nquestion %ld, round %ld\n%s\n", field_int(json, "q") + 1, field_int(json, "round"), prompt);
    const char *p = strstr(json, "\"choices\": [");
    if (p) p += strlen("\"choices\": [");
    for (int i = 0; p && *p && i < 8; i++) {
        while (*p == ' ' || *p == '\n' || *p == ',') p++;
        if (*p != '"') break;
        p = json_string(p + 1, choice, sizeof choice);
        cli_print_shown("  %c. %s\n", 'a' + i, choice);
    }
    printf(strstr(json, "\"kind\": \"choose\"") ? "your answer (a letter): " : "your answer (a number): ");
    fflush(stdout);
}

static void show_tally(const char *json) {
    char value[64];
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
    char mine[600];
    field(json, "mine", mine, sizeof mine);
    if (mine[0]) cli_print_shown("  your answer: %s\n", mine);
}

/* Shows the state when its key changed. Returns 0, or -1 when the class is gone. */
static int follow(Join *j, char *key, int cap) {
    Reply *r = malloc(sizeof *r);
    if (!r) return -1;
    long st = request(j, "/state", NULL, r);
    if (st != 200) {
        fprintf(stderr, "padlab join: the class did not answer (%s)\n", st < 0 ? r->buf : "HTTP error");
        return free(r), -1;
    }
    char now[64], phase[16];
    field(r->buf, "key", now, sizeof now);
    if (strcmp(now, key)) {
        snprintf(key, cap, "%s", now);
        field(r->buf, "phase", phase, sizeof phase);
        if (!strcmp(phase, "open")) show_question(r->buf);
        else if (!strcmp(phase, "shown")) show_tally(r->buf);
        else printf("\nwaiting for the teacher's next question\n");
        fflush(stdout);
    }
    free(r);
    return 0;
}

static int send_answer(Join *j, const char *text) {
    Reply *r = malloc(sizeof *r);
    char body[200], mine[600], key[64];
    if (!r) return -1;
    if (request(j, "/state", NULL, r) != 200)
        return fprintf(stderr, "padlab join: the class did not answer\n"), free(r), -1;
    field(r->buf, "key", key, sizeof key);
    char *esc = curl_easy_escape(j->h, text, 0);
    snprintf(body, sizeof body, "q=%ld&a=%s", field_int(r->buf, "q"), esc ? esc : "");
    curl_free(esc);
    long st = request(j, "/answer", body, r);
    if (st == 200) field(r->buf, "mine", mine, sizeof mine), cli_print_shown("your answer: %s\n", mine);
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
    if (st != 200) {
        cli_print_shown("padlab join: %s", st < 0 ? r->buf : r->buf[0] ? r->buf : "refused\n");
        if (st < 0) printf("\n");
        return free(r), -1;
    }
    field(r->buf, "token", token, sizeof token);
    free(r);
    if (strlen(token) != 32) return fprintf(stderr, "padlab join: the class sent no token\n"), -1;
    snprintf(j->cookie, sizeof j->cookie, "padlab_class=%s", token);
    printf("joined; to come back as yourself: padlab join ADDRESS --token %s\n", token);
    return 0;
}

/* Reads the lines typed and follows the class until end of input. */
static int loop(Join *j) {
    char key[64] = "", line[256];
    for (;;) {
        if (follow(j, key, sizeof key)) return 1;
        struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
        if (poll(&p, 1, 500) <= 0) continue;
        if (!fgets(line, sizeof line, stdin)) return 0;
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
