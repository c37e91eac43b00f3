/* Lesson questions in review. Every question a learner answers in a lesson
 * becomes a card of the drill book's "lessons" deck (drill_book.h), graded
 * by the first answer each time the step is played: right is good, wrong is
 * again. The lesson itself was the learning, so the first grade skips
 * FSRS's learning steps (sched.h): a miss is due the next day (stability
 * 0.212 days, the shortest interval, one day), a right answer two days on
 * (stability 2.31 days), and from there the intervals grow as a drill's. `padlab lesson --review` asks the due ones
 * again, each at its own step of its lesson, the lab set up as the lesson sets it there, the figure hidden until
 * answered as in the lesson itself; the drills'
 * --list and --plan count them beside the decks. */
#ifndef PL_APP_LESSON_REVIEW_H
#define PL_APP_LESSON_REVIEW_H

#include "deck.h"
#include "drill_book.h"
#include "lesson.h"

/* The deck's name in the drill book. */
#define PL_LESSON_DECK "lessons"

/* A due lesson question: which lesson, which step (from 0), and when. */
typedef struct {
    char lesson[96];
    int step;
    long long due;
    int reviews; /* grades so far: with the learner's salt, the order its choices come in */
} PlLessonDue;

/* The card's id of step k of l: "NAME:STEP-TITLE-SLUG" (cap bytes). */
void pl_lesson_card_id(const PlLesson *l, int k, char *id, int cap);

/* Grades step k of l in the learner's drill book (read, graded, saved under
 * its lock): right, good; wrong, again. PL_OK, or the failure with err. */
PlStatus pl_lesson_grade(const PlLesson *l, int k, int right, long long now, PlErr *err);

/* The lesson questions b holds a card for, as a deck of cards named
 * "lessons" (front: the question; topic: the lesson's title), in lesson and
 * step order; with due, also the ones due on day today, earliest first (the
 * caller frees *due). NULL with err when memory ran out; a lesson that
 * cannot be read is left out. */
PlDeck *pl_lesson_deck(const PlDrillBook *b, int today, PlLessonDue **due, int *ndue, PlErr *err);

#endif
