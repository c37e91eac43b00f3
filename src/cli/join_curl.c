/* padlab join over libcurl (join.h): it asks the class's /state every
 * half second and reads the answers typed in between. What the server sends
 * is read as data only, bounded (app/class/reply.h), and printed with its
 * control bytes shown.
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

#include "app/class/reply.h"
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

static void show_question(const PlClassReply *s) {
    cli_print_shown("\nquestion %ld, round %ld\n%s\n", s->q + 1, s->round, s->prompt);
    for (int i = 0; i < s->nchoices; i++) cli_print_shown("  %c. %s\n", 'a' + i, s->choices[i]);
    /* a number's hint, as the class reads it: a share, a whole number, a number */
    if (s->choose) printf("your answer (a letter): ");
    else cli_print_shown("your answer (%s): ", s->hint[0] ? s->hint : "a number");
    fflush(stdout);
}

static void show_tally(const PlClassReply *s) {
    char right_text[700];
    long right = s->right_choice;
    int letter = right >= 0 && right < s->nchoices ? (int)('a' + right) : '?';
    if (s->value[0]) cli_print_shown("\nrevealed: the lab computed %s\n", s->value);
    else printf("\nrevealed: the right answer is %c\n", letter);
    for (int r = 0; r < s->nrounds; r++)
        printf("  round %d: %ld answered, %ld right\n", r + 1, s->answered[r], s->right[r] < 0 ? 0 : s->right[r]);
    if (s->value[0]) snprintf(right_text, sizeof right_text, "the lab's number is %s", s->value);
    else
        snprintf(right_text, sizeof right_text, "the right answer is %c. %s", letter,
                 letter != '?' ? s->choices[right] : "");
    if (!s->mine[0]) printf("  you sent no answer\n");
    else if (s->mine_right == 1) cli_print_shown("  your answer %s: counted right\n", s->mine);
    else if (s->mine_right == 0) cli_print_shown("  your answer %s: not counted: %s\n", s->mine, right_text);
    else cli_print_shown("  your answer: %s\n", s->mine);
}

/* The class's end: the student's answers against the lab's, from the
 * state's "results". */
static void show_end(const char *json) {
    PlClassReplyResult res;
    const char *at = NULL;
    printf("\nthe class has ended\n");
    int n = 0;
    for (; pl_class_reply_result(json, &at, &res); n++) {
        if (!n) printf("your answers:\n");
        cli_print_shown("  question %ld: %s\n", res.question, res.prompt);
        if (!res.mine[0])
            cli_print_shown("    no answer sent%s%s\n", res.answer[0] ? "; the answer: " : "", res.answer);
        else if (res.right == 1) cli_print_shown("    your answer %s: counted right\n", res.mine);
        else if (res.right == 0)
            cli_print_shown("    your answer %s: not counted: the answer is %s\n", res.mine, res.answer);
        else cli_print_shown("    your answer %s (its answer was not revealed)\n", res.mine);
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
    PlClassReply *s = malloc(sizeof *s);
    if (!s) return FOLLOW_SILENT;
    pl_class_reply_read(r->buf, s);
    Follow f = FOLLOW_ON;
    if (!strcmp(s->phase, "ended")) show_end(r->buf), f = FOLLOW_ENDED;
    else if (strcmp(s->key, key)) {
        snprintf(key, cap, "%s", s->key);
        if (!strcmp(s->phase, "open")) show_question(s);
        else if (!strcmp(s->phase, "shown")) show_tally(s);
        else printf("\nwaiting for the teacher's next question\n");
        fflush(stdout);
    }
    free(s);
    return f;
}

/* Sends text as the answer to the open question. Returns the exit status:
 * 0 when it was taken. */
static int send_answer(Join *j, const char *text) {
    Reply *r = malloc(sizeof *r);
    PlClassReply *s = malloc(sizeof *s);
    char body[200];
    if (!r || !s) return free(r), free(s), 1;
    long st = request(j, "/state", NULL, r);
    if (st != 200) return st < 0 ? no_answer(j, r) : refused(r), free(r), free(s), 1;
    pl_class_reply_read(r->buf, s);
    if (!strcmp(s->phase, "ended")) {
        fprintf(stderr, "padlab join: the class has ended: no answer is taken\n");
        return show_end(r->buf), free(r), free(s), 1;
    }
    char *esc = curl_easy_escape(j->h, text, 0);
    snprintf(body, sizeof body, "q=%ld&a=%s", s->q, esc ? esc : "");
    curl_free(esc);
    st = request(j, "/answer", body, r);
    if (st == 200) pl_class_reply_read(r->buf, s), cli_print_shown("your answer: %s\n", s->mine);
    else if (st < 0) no_answer(j, r);
    else cli_print_shown("not taken: %s", r->buf[0] ? r->buf : "no reply\n");
    free(r), free(s);
    return st == 200 ? 0 : 1;
}

static int join(Join *j, const char *code) {
    Reply *r = malloc(sizeof *r);
    PlClassReply *s = malloc(sizeof *s);
    char body[64], token[40];
    if (!r || !s) return free(r), free(s), -1;
    snprintf(body, sizeof body, "code=%.16s", code);
    long st = request(j, "/join", body, r);
    if (st != 200) return st < 0 ? no_answer(j, r) : refused(r), free(r), free(s), -1;
    pl_class_reply_read(r->buf, s);
    snprintf(token, sizeof token, "%s", s->token);
    free(r), free(s);
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
