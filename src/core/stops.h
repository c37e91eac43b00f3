/* The signals that ask padlab to end: INT (Ctrl-C), TERM, HUP (the terminal
 * gone) and QUIT (Ctrl-\). A long action (a class, a candidate's program)
 * catches them into a flag, ends itself cleanly through its own loop, and
 * gives them back. Caught without SA_RESTART: a blocking call returns EINTR,
 * so the loop sees the flag at once. */
#ifndef PL_STOPS_H
#define PL_STOPS_H

#include <signal.h>

#define PL_STOP_SIGNALS 4

/* Routes the four to handler; their former actions into old (NULL: not kept). */
void pl_stops_catch(void (*handler)(int), struct sigaction *old);
/* Gives them back the actions kept in old. */
void pl_stops_release(const struct sigaction *old);
/* Their default actions (in a child about to run another program). */
void pl_stops_default(void);

#endif
