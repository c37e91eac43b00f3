/* A page: what a lesson's step or a drill's item says, as paragraphs by
 * meaning, made by the app layer (lesson_play.c, drill_page.c) and drawn by
 * one pane in each front end, which wraps it with pl_page_wrap to its width
 * and colours each role its own way.
 *
 * Layout of a page:
 *   para (n)   in reading order: a role (how it looks), a part (what a test
 *              or a front end's tags may look for), an indent for wrapped
 *              lines, a text (offset into buf; a newline in a text ends a
 *              paragraph of it) */
#ifndef PL_APP_PAGE_H
#define PL_APP_PAGE_H

#include <stddef.h>

/* The kinds of lines a lesson or a drill shows. */
typedef enum {
    PL_ROLE_TEXT,     /* the narration, an item's text */
    PL_ROLE_HEAD,     /* "card 3 of 12 - topic - box 2" */
    PL_ROLE_TITLE,    /* an item's front, a heading */
    PL_ROLE_PROMPT,   /* a lesson's question */
    PL_ROLE_CHOICE,   /* a choice */
    PL_ROLE_CHOSEN,   /* the choice picked */
    PL_ROLE_INPUT,    /* the answer being typed */
    PL_ROLE_ASIDE,    /* how to answer, how to go on, the setup, a step that trains */
    PL_ROLE_HINT,     /* a hint */
    PL_ROLE_WRONG,    /* an answer that is not it, a wrong choice's why, the symptom, time nearly up */
    PL_ROLE_RIGHT,    /* "Right.", a right choice's why, the reveal, a measure under the fix */
    PL_ROLE_SOLUTION, /* a lesson's solution */
    PL_ROLE_SUMMARY,  /* a lesson's summary */
    PL_ROLE_REAL,     /* a card's remember: */
    PL_ROLE_KEYS,     /* what the keys do now */
    PL_ROLE_CLOCK,    /* the countdown */
    PL_ROLE_NOTE,     /* a line for the learner */
    PL_ROLE_GAP,      /* an empty line */
    PL_ROLE_COUNT
} PlRole;

/* What a paragraph is, for a front end's tags and the tests (a clock line
 * is one line, never wrapped). */
typedef enum {
    PL_PART_NONE,
    PL_PART_FRONT,
    PL_PART_ANSWER,
    PL_PART_WHY,
    PL_PART_VERDICT,
    PL_PART_SYMPTOM,
    PL_PART_FIXED,
    PL_PART_CLOCK,
    PL_PART_QUESTION, /* a lesson's question: its prompt, its choices, the answer being typed, how to answer */
    PL_PART_REVEAL, /* a lesson's reveal, once its question is answered or solved */
    PL_PART_COUNT
} PlPart;

#define PL_PAGE_PARAS 96
#define PL_PAGE_TEXT 32768

typedef struct {
    struct {
        PlRole role;
        PlPart part;
        int indent;  /* columns (the terminal) or ems (the window) before each wrapped line after the first */
        size_t text; /* offset into buf */
    } para[PL_PAGE_PARAS];
    int n;
    char buf[PL_PAGE_TEXT];
    size_t used;
} PlPage;

/* Empties a page. */
void pl_page_clear(PlPage *g);
/* Adds a paragraph (text copied); one that does not fit is left out. */
void pl_page_add(PlPage *g, PlRole role, PlPart part, int indent, const char *text);
/* An empty line, unless the page is empty or ends with one. */
void pl_page_gap(PlPage *g);
static inline const char *pl_page_para(const PlPage *g, int i) { return g->buf + g->para[i].text; }

/* Wraps text to width, as both front ends do: a newline ends a paragraph
 * and an empty line comes between two, unless the next is a list item; a
 * list item starts with "- " and its wrapped lines hang under its text (at
 * least the width of "- " in, whatever indent says). Lines break at spaces,
 * a word wider than a line is cut. measure gives the width of s[0..n); line
 * gets each line (kind 0 the first of a paragraph, 1 a wrapped one, which
 * starts `in` from the left, 2 the empty line). Can't fail. */
void pl_page_wrap(const char *text, double width, double indent,
                  double (*measure)(void *ctx, const char *s, size_t n),
                  void (*line)(void *ctx, const char *s, size_t n, int kind, double in), void *ctx);

#endif
