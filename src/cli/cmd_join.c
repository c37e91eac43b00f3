/* padlab join ADDRESS CODE: a student's terminal in a class session. */
#include <string.h>

#include "join.h"

static int run(const CliArgs *a) {
    const char *token = cli_str(a, "token", NULL), *answer = cli_str(a, "answer", NULL);
    if (a->npos != 2 && !(a->npos == 1 && token))
        return cli_usage_error(
            a, "expected the address and the code on the projector (padlab join 192.168.1.20:8765 K7P2Q)");
    if (token && (strlen(token) != 32 || strspn(token, "0123456789abcdef") != 32))
        return cli_usage_error(a, "--token takes the 32 hex digits padlab join printed when you joined");
    return cli_join_run(a, a->pos[0], a->npos == 2 ? a->pos[1] : NULL, token, answer);
}

static const CliOpt opts[] = {
    {"token", "TOKEN", "come back as the student you were (the token printed when you joined): your votes stay"},
    {"answer", "TEXT", "send this one answer to the open question and stop"},
    {NULL, NULL, NULL},
};

const CliCommand cli_cmd_join = {
    .name = "join",
    .summary = "answer a class's questions from a terminal (the teacher runs padlab lesson NAME --class)",
    .usage = "ADDRESS CODE [--answer TEXT] | ADDRESS [CODE] --token TOKEN [--answer TEXT]",
    .details = "Joins the class session a teacher's padlab serves at ADDRESS (host:port, as the\n"
               "projector shows it) with the code on the projector. Each question is shown as\n"
               "the teacher opens it; type your answer (a letter for a choice, a number for the\n"
               "rest) and Enter; typing again replaces it. Your answer is echoed back; the\n"
               "class's answers are shown once the teacher reveals them, with whether yours\n"
               "counted. When the class ends, your answers are listed against the lab's and\n"
               "padlab join stops (status 0); a class that stops answering ends it with\n"
               "status 1. End sooner with Ctrl-D.",
    .opts = opts,
    .max_pos = 2,
    .run = run,
    .interactive = 1,
};
