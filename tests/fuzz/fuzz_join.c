/* libFuzzer harness: what `padlab join` reads of the class server's replies
 * (app/class/reply.h). An input starting with '{' is a reply as any server
 * might send it: read, whatever it holds, into texts that end within their
 * buffers, at most 8 choices and 2 rounds, numbers from -1 to
 * PL_CLASS_REPLY_INT_MAX, and an ended class's results, each read once.
 * Any other input builds a class, a move a line:
 *
 *   P PROMPT          the texts of both questions    C A|B|C   the choices
 *   o Q               question Q (0 a number, 1 a choice) opened
 *   a S TEXT          student S (0..7) answers       g  the second round
 *   r X               revealed with X                x  the class ends
 *
 * and the state the server sends student 0 (pl_class_page_state) must read
 * back as the class holds it: the key, phase, question, round, prompt,
 * choices, hint, their own answer, once shown the lab's number or the
 * right choice, each round's counts and whether they counted right, and at
 * the end each of their answers against the lab's. */
#include <math.h>

#include "app/class/reply.h"
#include "app/class/student.h"
#include "fuzz_util.h"

/* text as join reads it back: a control byte but \n, \t and \r is '?' (the
 * server writes it as \u00XX), and cut to cap - 1 bytes. */
static void as_read(const char *text, char *out, size_t cap) {
    size_t k = 0;
    for (; text[k] && k + 1 < cap; k++) {
        unsigned char ch = (unsigned char)text[k];
        out[k] = ch < 0x20 && ch != '\n' && ch != '\t' && ch != '\r' ? '?' : (char)ch;
    }
    out[k] = '\0';
}

static void same_text(const char *read, const char *held) {
    char want[2400];
    as_read(held, want, sizeof want);
    FUZZ_CHECK(!strcmp(read, want));
}

#define BOUNDED(s) FUZZ_CHECK(memchr((s), 0, sizeof(s)) != NULL)
#define IN_RANGE(v) FUZZ_CHECK((v) >= -1 && (v) <= PL_CLASS_REPLY_INT_MAX)

static void any_reply(const char *json) {
    PlClassReply *r = malloc(sizeof *r);
    FUZZ_CHECK(r != NULL);
    pl_class_reply_read(json, r);
    BOUNDED(r->key);
    BOUNDED(r->phase);
    BOUNDED(r->token);
    BOUNDED(r->prompt);
    BOUNDED(r->hint);
    BOUNDED(r->mine);
    BOUNDED(r->value);
    FUZZ_CHECK(r->nchoices >= 0 && r->nchoices <= PL_CLASS_REPLY_CHOICES);
    for (int i = 0; i < r->nchoices; i++) BOUNDED(r->choices[i]);
    FUZZ_CHECK(r->nrounds >= 0 && r->nrounds <= 2);
    for (int i = 0; i < r->nrounds; i++) {
        IN_RANGE(r->answered[i]);
        IN_RANGE(r->right[i]);
    }
    IN_RANGE(r->q);
    IN_RANGE(r->round);
    IN_RANGE(r->right_choice);
    FUZZ_CHECK(r->mine_right >= -1 && r->mine_right <= 1);
    free(r);
    int objects = 0, n = 0;
    for (const char *p = json; (p = strchr(p, '{')); p++) objects++;
    PlClassReplyResult res;
    for (const char *at = NULL; pl_class_reply_result(json, &at, &res); n++) {
        BOUNDED(res.prompt);
        BOUNDED(res.mine);
        BOUNDED(res.answer);
        IN_RANGE(res.question);
        FUZZ_CHECK(n < objects && res.right >= -1 && res.right <= 1);
    }
}

typedef struct {
    PlClass *c;
    int open, round;
} Join;

static void move(Join *j, char *line) {
    char why[200], token[PL_CLASS_TOKEN_HEX + 1];
    if (line[0] == 'P' && line[1] == ' ') {
        pl_class_set_text(j->c, 0, line + 2, NULL), pl_class_set_text(j->c, 1, line + 2, NULL);
    } else if (line[0] == 'C' && line[1] == ' ') {
        const char *ch[3] = {"", "", ""};
        char *save = NULL, *prompt = strtok_r(line + 2, "|", &save);
        for (int i = 0; i < 3 && prompt; i++, prompt = strtok_r(NULL, "|", &save)) ch[i] = prompt;
        char held[1200], answer[8];
        pl_class_question_info(j->c, 1, held, sizeof held, answer, sizeof answer);
        pl_class_set_text(j->c, 1, held, ch);
    } else if (line[0] == 'o' && line[1] == ' ' && !pl_class_open(j->c, atoi(line + 2) & 1))
        j->open = atoi(line + 2) & 1, j->round = 1;
    else if (!strcmp(line, "g") && !pl_class_again(j->c)) j->round = 2;
    else if (line[0] == 'a' && line[1] == ' ' && line[2] >= '0' && line[2] <= '7' && line[3] == ' ') {
        unsigned char rnd[16] = {0x77};
        for (; pl_class_students(j->c) <= line[2] - '0'; rnd[1]++) FUZZ_CHECK(pl_class_join(j->c, rnd, token) >= 0);
        if (j->open >= 0) pl_class_answer(j->c, line[2] - '0', j->open, line + 4, why, sizeof why);
    } else if (line[0] == 'r' && line[1] == ' ') pl_class_reveal(j->c, strtod(line + 2, NULL));
    else if (!strcmp(line, "x")) pl_class_end(j->c);
}

static void check_shown(PlClass *c, const PlClassNow *n, const PlClassReply *r) {
    PlClassTally t;
    FUZZ_CHECK(pl_class_tally(c, n->q, &t) == 0 && r->nrounds == t.rounds);
    for (int k = 0; k < t.rounds; k++) FUZZ_CHECK(r->answered[k] == t.answered[k] && r->right[k] == t.right[k]);
    if (t.kind == PL_CLASS_CHOICE) FUZZ_CHECK(r->right_choice == t.right_choice && !r->value[0]);
    else same_text(r->value, t.value_text);
    char mine[600];
    pl_class_mine(c, 0, mine, sizeof mine);
    int right = pl_class_vote_right(c, 0, n->q, n->round);
    FUZZ_CHECK(r->mine_right == (mine[0] ? right : -1));
}

/* The end: each question student 0 was asked, in order. */
static void check_results(PlClass *c, const char *json) {
    PlClassReplyResult res;
    const char *at = NULL;
    for (int qi = 0; qi < pl_class_questions(c); qi++) {
        char prompt[1200], answer[600], mine[600];
        if (!pl_class_question_info(c, qi, prompt, sizeof prompt, answer, sizeof answer)) continue;
        FUZZ_CHECK(pl_class_reply_result(json, &at, &res) && res.question == qi + 1);
        same_text(res.prompt, prompt), same_text(res.answer, answer);
        int round = 2; /* their last vote: round 2's, else round 1's */
        pl_class_vote_text(c, 0, qi, round, mine, sizeof mine);
        if (!mine[0]) pl_class_vote_text(c, 0, qi, round = 1, mine, sizeof mine);
        same_text(res.mine, mine);
        FUZZ_CHECK(res.right == (mine[0] ? pl_class_vote_right(c, 0, qi, round) : -1));
    }
    FUZZ_CHECK(!pl_class_reply_result(json, &at, &res));
}

static void server_state(char *text) {
    Join j = {pl_class_new("K7P2Q"), -1, 1};
    PlQuantity q;
    PlTolerance t = {PL_TOL_DEFAULT, 0};
    const char *choices[] = {"post", "pre", "none"};
    char why[200], token[PL_CLASS_TOKEN_HEX + 1];
    unsigned char rnd[16] = {0x42};
    FUZZ_CHECK(j.c && pl_quantity_parse("batch.pad_share", &q, why, sizeof why) == 0);
    FUZZ_CHECK(pl_class_add_number(j.c, "share?", &q, &t, 0) == 0 &&
               pl_class_add_choice(j.c, "which?", choices, 3, 1, 1) == 1);
    FUZZ_CHECK(pl_class_join(j.c, rnd, token) == 0);
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) move(&j, line);
    char *json = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&json, &n);
    FUZZ_CHECK(f != NULL);
    pl_class_page_state(f, j.c, 0, NULL);
    FUZZ_CHECK(fclose(f) == 0);
    PlClassReply *r = malloc(sizeof *r);
    PlClassNow now;
    FUZZ_CHECK(r != NULL);
    pl_class_reply_read(json, r);
    pl_class_now(j.c, &now);
    static const char *const phases[] = {"wait", "open", "shown", "ended"};
    char key[64], mine[600], hint[80];
    snprintf(key, sizeof key, "%d-%d-%s", now.q, now.round, phases[now.phase]);
    FUZZ_CHECK(!strcmp(r->key, key) && !strcmp(r->phase, phases[now.phase]));
    FUZZ_CHECK(r->q == now.q && r->round == now.round);
    pl_class_mine(j.c, 0, mine, sizeof mine);
    same_text(r->mine, mine);
    if (now.q >= 0) {
        same_text(r->prompt, now.prompt);
        FUZZ_CHECK(r->choose == (now.kind == PL_CLASS_CHOICE) && r->nchoices == now.nchoices);
        for (int i = 0; i < now.nchoices; i++) same_text(r->choices[i], now.choices[i]);
        if (now.kind == PL_CLASS_NUMBER) same_text(r->hint, pl_class_answer_hint(j.c, now.q, hint, sizeof hint));
    }
    if (now.phase == PL_CLASS_SHOWN) check_shown(j.c, &now, r);
    if (now.phase == PL_CLASS_ENDED) check_results(j.c, json);
    free(r), free(json);
    pl_class_free(j.c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    FUZZ_CHECK(text != NULL);
    memcpy(text, data, size), text[size] = '\0';
    if (size && data[0] == '{') any_reply(text);
    else server_state(text);
    free(text);
    return 0;
}
