/* A class session's state: questions, rounds, students, votes (class.h). */
#include "class_internal.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

PlClass *pl_class_new(const char *code) {
    PlClass *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    if (pthread_mutex_init(&c->mu, NULL)) return free(c), NULL;
    snprintf(c->code, sizeof c->code, "%s", code);
    c->cur = -1, c->round = 1, c->phase = PL_CLASS_WAIT;
    return c;
}

static void question_done(ClassQuestion *q) {
    free(q->prompt);
    for (int i = 0; i < q->nmiscon; i++) free(q->miscon[i].text);
    for (int i = 0; i < q->nchoices; i++) free(q->choices[i]);
    free(q->votes[0]);
    free(q->votes[1]);
}

void pl_class_free(PlClass *c) {
    if (!c) return;
    for (int i = 0; i < c->nq; i++) question_done(&c->qs[i]);
    pthread_mutex_destroy(&c->mu);
    free(c);
}

const char *pl_class_code(const PlClass *c) { return c->code; }

/* A new question row with its prompt and vote tables, or NULL. Locked. */
static ClassQuestion *question_add(PlClass *c, const char *prompt, int step) {
    if (c->nq >= PL_CLASS_MAX_QUESTIONS) return NULL;
    ClassQuestion *q = &c->qs[c->nq];
    memset(q, 0, sizeof *q);
    q->prompt = strdup(prompt);
    q->votes[0] = calloc(PL_CLASS_MAX_STUDENTS, sizeof *q->votes[0]);
    q->votes[1] = calloc(PL_CLASS_MAX_STUDENTS, sizeof *q->votes[1]);
    q->step = step, q->rounds = 1;
    if (!q->prompt || !q->votes[0] || !q->votes[1]) return question_done(q), NULL;
    return q;
}

int pl_class_add_number(PlClass *c, const char *prompt, const PlQuantity *qty, const PlTolerance *t, int step) {
    pthread_mutex_lock(&c->mu);
    ClassQuestion *q = question_add(c, prompt, step);
    int at = q ? c->nq++ : -1;
    if (q) q->kind = PL_CLASS_NUMBER, q->qty = *qty, q->tol = *t;
    pthread_mutex_unlock(&c->mu);
    return at;
}

int pl_class_add_choice(PlClass *c, const char *prompt, const char *const *choices, int n, int right, int step) {
    if (n < 1 || n > PL_CHOICES_MAX || right < 0 || right >= n) return -1;
    pthread_mutex_lock(&c->mu);
    ClassQuestion *q = question_add(c, prompt, step);
    int ok = q != NULL;
    for (int i = 0; ok && i < n; i++) ok = (q->choices[i] = strdup(choices[i])) != NULL, q->nchoices = i + 1;
    if (q && !ok) question_done(q);
    if (ok) q->kind = PL_CLASS_CHOICE, q->right = right;
    int at = ok ? c->nq++ : -1;
    pthread_mutex_unlock(&c->mu);
    return at;
}

int pl_class_questions(const PlClass *c) { return c->nq; }

int pl_class_add_misconception(PlClass *c, int qi, double value, const char *text) {
    int rc = -1;
    pthread_mutex_lock(&c->mu);
    ClassQuestion *q = qi >= 0 && qi < c->nq ? &c->qs[qi] : NULL;
    if (q && q->kind == PL_CLASS_NUMBER && q->nmiscon < PL_CLASS_MISCON && !isinf(value)) {
        char *s = strdup(text);
        if (s) q->miscon[q->nmiscon].value = value, q->miscon[q->nmiscon++].text = s, rc = 0;
    }
    pthread_mutex_unlock(&c->mu);
    return rc;
}

int pl_class_set_misconception(PlClass *c, int qi, int m, double value) {
    int rc = -1;
    pthread_mutex_lock(&c->mu);
    ClassQuestion *q = qi >= 0 && qi < c->nq ? &c->qs[qi] : NULL;
    if (q && m >= 0 && m < q->nmiscon && !isinf(value)) {
        int measured = !isnan(value);
        if (measured != q->miscon[m].measured || (measured && q->miscon[m].value != value)) c->version++;
        q->miscon[m].value = value, q->miscon[m].measured = measured, rc = 0;
    }
    pthread_mutex_unlock(&c->mu);
    return rc;
}

void pl_class_countdown(PlClass *c, int seconds) {
    pthread_mutex_lock(&c->mu);
    int64_t now = c->now_ms ? c->now_ms(c->now_ctx) : 0;
    c->countdown_end = seconds > 0 ? now + (int64_t)seconds * 1000 : 0, c->version++;
    pthread_mutex_unlock(&c->mu);
}

void pl_class_set_clock(PlClass *c, int64_t (*now_ms)(void *ctx), void *ctx) {
    pthread_mutex_lock(&c->mu);
    c->now_ms = now_ms, c->now_ctx = ctx;
    pthread_mutex_unlock(&c->mu);
}

static int replace_text(char **slot, const char *text) {
    char *s = strdup(text);
    if (!s) return -1;
    free(*slot);
    *slot = s;
    return 0;
}

int pl_class_set_text(PlClass *c, int qi, const char *prompt, const char *const *choices) {
    int rc = -1;
    pthread_mutex_lock(&c->mu);
    if (qi >= 0 && qi < c->nq) {
        ClassQuestion *q = &c->qs[qi];
        rc = replace_text(&q->prompt, prompt);
        for (int i = 0; !rc && choices && i < q->nchoices; i++) rc = replace_text(&q->choices[i], choices[i]);
        c->version++;
    }
    pthread_mutex_unlock(&c->mu);
    return rc;
}

/* ---- the join code and the students ---- */

int pl_class_join(PlClass *c, const unsigned char rnd[16], char *token) {
    static const char hex[] = "0123456789abcdef";
    pthread_mutex_lock(&c->mu);
    int at = c->nstudents < PL_CLASS_MAX_STUDENTS ? c->nstudents++ : -1;
    if (at >= 0) {
        for (int i = 0; i < 16; i++)
            c->tokens[at][2 * i] = hex[rnd[i] >> 4], c->tokens[at][2 * i + 1] = hex[rnd[i] & 15];
        c->tokens[at][PL_CLASS_TOKEN_HEX] = 0;
        memcpy(token, c->tokens[at], PL_CLASS_TOKEN_HEX + 1);
        c->version++;
    }
    pthread_mutex_unlock(&c->mu);
    return at;
}

int pl_class_student(PlClass *c, const char *token) {
    int at = -1;
    if (strlen(token) != PL_CLASS_TOKEN_HEX) return -1;
    pthread_mutex_lock(&c->mu);
    for (int i = 0; i < c->nstudents && at < 0; i++)
        if (!memcmp(c->tokens[i], token, PL_CLASS_TOKEN_HEX)) at = i;
    pthread_mutex_unlock(&c->mu);
    return at;
}

int pl_class_students(PlClass *c) {
    pthread_mutex_lock(&c->mu);
    int n = c->nstudents;
    pthread_mutex_unlock(&c->mu);
    return n;
}

/* ---- the teacher's moves ---- */

int pl_class_open(PlClass *c, int qi) {
    pthread_mutex_lock(&c->mu);
    int ok = qi >= 0 && qi < c->nq;
    if (ok) /* a second opening keeps its votes; a countdown belongs to the question it ran on */
        c->cur = qi, c->round = 1, c->phase = PL_CLASS_OPEN, c->qs[qi].opened = 1, c->countdown_end = 0, c->version++;
    pthread_mutex_unlock(&c->mu);
    return ok ? 0 : -1;
}

int pl_class_again(PlClass *c) {
    pthread_mutex_lock(&c->mu);
    int ok = c->cur >= 0 && c->round == 1 && c->phase != PL_CLASS_WAIT;
    if (ok) c->round = 2, c->phase = PL_CLASS_OPEN, c->qs[c->cur].rounds = 2, c->version++;
    pthread_mutex_unlock(&c->mu);
    return ok ? 0 : -1;
}

int pl_class_reveal(PlClass *c, double value) {
    pthread_mutex_lock(&c->mu);
    int ok = c->cur >= 0 && c->phase == PL_CLASS_OPEN;
    if (ok) {
        c->phase = PL_CLASS_SHOWN, c->countdown_end = 0, c->version++;
        c->qs[c->cur].revealed = 1, c->qs[c->cur].value = value;
    }
    pthread_mutex_unlock(&c->mu);
    return ok ? 0 : -1;
}

int pl_class_reveal_at(PlClass *c, int qi, double value) {
    pthread_mutex_lock(&c->mu);
    int ok = qi >= 0 && qi < c->nq;
    if (ok) c->cur = qi, c->phase = PL_CLASS_SHOWN, c->qs[qi].revealed = 1, c->qs[qi].value = value, c->version++;
    pthread_mutex_unlock(&c->mu);
    return ok ? 0 : -1;
}

int pl_class_close(PlClass *c) {
    pthread_mutex_lock(&c->mu);
    if (c->phase != PL_CLASS_ENDED) c->phase = PL_CLASS_WAIT, c->countdown_end = 0, c->version++;
    pthread_mutex_unlock(&c->mu);
    return 0;
}

int pl_class_end(PlClass *c) {
    pthread_mutex_lock(&c->mu);
    c->phase = PL_CLASS_ENDED, c->version++;
    pthread_mutex_unlock(&c->mu);
    return 0;
}

/* ---- votes ---- */

/* The hint of q's answer field (pl_class_answer_hint), lock held. */
static const char *class_hint(const ClassQuestion *q, char *out, int cap) {
    PlQuantityFormat f = pl_quantity_kind_of_format(&q->qty);
    snprintf(out, (size_t)cap, "%s",
             f == PL_QF_SHARE   ? "a share: 19.6%, 19.6 or 0.196"
             : f == PL_QF_COUNT ? "a whole number: 1330, or 1,330"
                                : "a number: 0.45, 2.5e-3 or 1,330");
    return out;
}

/* The largest answer taken: a share up to 100 times the whole (10000%),
 * any other number up to 1e15; beyond, no figure of padlab's lies. */
static double class_plausible(const ClassQuestion *q) {
    return pl_quantity_kind_of_format(&q->qty) == PL_QF_SHARE ? 100.0 : 1e15;
}

const char *pl_class_answer_hint(PlClass *c, int qi, char *out, int cap) {
    pthread_mutex_lock(&c->mu);
    if (qi >= 0 && qi < c->nq && c->qs[qi].kind == PL_CLASS_NUMBER) class_hint(&c->qs[qi], out, cap);
    else snprintf(out, (size_t)cap, "a letter");
    pthread_mutex_unlock(&c->mu);
    return out;
}

/* Reads text as question q's answer into v: 0, or -1 with why. */
static int read_vote(const ClassQuestion *q, const char *text, ClassVote *v, char *why, int cap) {
    memset(v, 0, sizeof *v);
    if (q->kind == PL_CLASS_CHOICE) {
        if (strlen(text) != 1 || text[0] < 'a' || text[0] >= 'a' + q->nchoices)
            return snprintf(why, cap, "expected a letter from a to %c", 'a' + q->nchoices - 1), -1;
        v->choice = text[0] - 'a';
    } else {
        char hint[64];
        if (strlen(text) >= sizeof v->text || pl_quantity_read(&q->qty, text, &v->num))
            return snprintf(why, cap, "expected %s", class_hint(q, hint, sizeof hint)), -1;
        if (fabs(v->num) > class_plausible(q)) /* 1e308 would only break the tally */
            return snprintf(why, cap, "'%.31s' is too far from any answer: expected %s", text,
                            class_hint(q, hint, sizeof hint)),
                   -1;
        snprintf(v->text, sizeof v->text, "%s", text);
    }
    v->has = 1;
    return 0;
}

int pl_class_answer(PlClass *c, int student, int qi, const char *text, char *why, int cap) {
    int rc = -1;
    pthread_mutex_lock(&c->mu);
    if (student < 0 || student >= c->nstudents) snprintf(why, cap, "unknown student");
    else if (c->phase == PL_CLASS_ENDED) snprintf(why, cap, "the class has ended");
    else if (c->cur < 0 || c->phase != PL_CLASS_OPEN) snprintf(why, cap, "no question is open");
    else if (qi != c->cur) snprintf(why, cap, "question %d is not the open one (%d is)", qi, c->cur);
    else {
        ClassVote v;
        ClassQuestion *q = &c->qs[qi];
        rc = read_vote(q, text, &v, why, cap);
        if (!rc) v.ms = c->now_ms ? c->now_ms(c->now_ctx) : 0, q->votes[c->round - 1][student] = v, c->version++;
    }
    pthread_mutex_unlock(&c->mu);
    return rc;
}

int pl_class_rate(PlClass *c, int student, int qi, int sure, char *why, int cap) {
    int rc = -1;
    pthread_mutex_lock(&c->mu);
    ClassVote *v = student >= 0 && student < c->nstudents && qi == c->cur && qi >= 0 && c->phase == PL_CLASS_OPEN
                       ? &c->qs[qi].votes[c->round - 1][student]
                       : NULL;
    if (sure < 1 || sure > 3) snprintf(why, cap, "how sure is 1 (a guess), 2 (fairly) or 3 (sure)");
    else if (!v || !v->has) snprintf(why, cap, "answer the open question first, then say how sure you are");
    else v->sure = sure, c->version++, rc = 0;
    pthread_mutex_unlock(&c->mu);
    return rc;
}

void pl_class_mine(PlClass *c, int student, char *out, int cap) {
    out[0] = 0;
    pthread_mutex_lock(&c->mu);
    if (c->cur >= 0 && student >= 0 && student < c->nstudents) {
        const ClassQuestion *q = &c->qs[c->cur];
        const ClassVote *v = &q->votes[c->round - 1][student];
        if (v->has && q->kind == PL_CLASS_CHOICE) snprintf(out, cap, "%c. %s", 'a' + v->choice, q->choices[v->choice]);
        else if (v->has) snprintf(out, cap, "%s", v->text);
    }
    pthread_mutex_unlock(&c->mu);
}

/* The vote of student s, question qi, round r (1 or 2), or NULL; locked. */
static const ClassVote *vote_of(PlClass *c, int s, int qi, int r) {
    if (qi < 0 || qi >= c->nq || s < 0 || s >= c->nstudents || (r != 1 && r != 2)) return NULL;
    const ClassVote *v = &c->qs[qi].votes[r - 1][s];
    return v->has ? v : NULL;
}

int pl_class_vote_right(PlClass *c, int student, int qi, int round) {
    pthread_mutex_lock(&c->mu);
    const ClassVote *v = vote_of(c, student, qi, round);
    const ClassQuestion *q = v ? &c->qs[qi] : NULL;
    int r = !v                           ? -1
            : q->kind == PL_CLASS_CHOICE ? v->choice == q->right
            : !q->revealed               ? -1
                                         : pl_quantity_check(&q->qty, q->value, v->text, &q->tol) == 1;
    pthread_mutex_unlock(&c->mu);
    return r;
}

int pl_class_vote_sure(PlClass *c, int student, int qi, int round) {
    pthread_mutex_lock(&c->mu);
    const ClassVote *v = vote_of(c, student, qi, round);
    int sure = v ? v->sure : 0;
    pthread_mutex_unlock(&c->mu);
    return sure;
}

void pl_class_vote_text(PlClass *c, int student, int qi, int round, char *out, int cap) {
    out[0] = '\0';
    pthread_mutex_lock(&c->mu);
    const ClassVote *v = vote_of(c, student, qi, round);
    if (v && c->qs[qi].kind == PL_CLASS_CHOICE)
        snprintf(out, (size_t)cap, "%c. %s", 'a' + v->choice, c->qs[qi].choices[v->choice]);
    else if (v) snprintf(out, (size_t)cap, "%s", v->text);
    pthread_mutex_unlock(&c->mu);
}

int pl_class_question_info(PlClass *c, int qi, char *prompt, int pcap, char *answer, int acap) {
    int opened = 0;
    prompt[0] = answer[0] = '\0';
    pthread_mutex_lock(&c->mu);
    if (qi >= 0 && qi < c->nq) {
        const ClassQuestion *q = &c->qs[qi];
        opened = q->opened;
        snprintf(prompt, (size_t)pcap, "%s", q->prompt);
        if (q->kind == PL_CLASS_CHOICE && q->revealed)
            snprintf(answer, (size_t)acap, "%c. %s", 'a' + q->right, q->choices[q->right]);
        else if (q->revealed) pl_quantity_format(&q->qty, q->value, answer, acap);
    }
    pthread_mutex_unlock(&c->mu);
    return opened;
}

void pl_class_now(PlClass *c, PlClassNow *now) {
    memset(now, 0, sizeof *now);
    pthread_mutex_lock(&c->mu);
    now->phase = c->phase, now->q = c->cur, now->round = c->round, now->version = c->version, now->countdown = -1;
    if (c->countdown_end) {
        int64_t left = c->countdown_end - (c->now_ms ? c->now_ms(c->now_ctx) : 0);
        now->countdown = left > 0 ? (int)((left + 999) / 1000) : 0;
    }
    if (c->cur >= 0) {
        const ClassQuestion *q = &c->qs[c->cur];
        now->kind = q->kind, now->nchoices = q->nchoices;
        snprintf(now->prompt, sizeof now->prompt, "%s", q->prompt);
        for (int i = 0; i < q->nchoices; i++) snprintf(now->choices[i], sizeof now->choices[i], "%s", q->choices[i]);
    }
    pthread_mutex_unlock(&c->mu);
}

int pl_class_count(PlClass *c, int qi, int round) {
    int n = 0;
    pthread_mutex_lock(&c->mu);
    if (qi >= 0 && qi < c->nq && (round == 1 || round == 2))
        for (int i = 0; i < c->nstudents; i++) n += c->qs[qi].votes[round - 1][i].has;
    pthread_mutex_unlock(&c->mu);
    return n;
}
