/* padlab join in a padlab built without libcurl: it says so. */
#include <stdio.h>

#include "join.h"

int cli_join_run(const CliArgs *a, const char *address, const char *code, const char *token, const char *answer) {
    (void)address, (void)code, (void)token, (void)answer;
    fprintf(stderr,
            "%s: this padlab was built without libcurl (Debian: apt-get install libcurl4-openssl-dev, then "
            "configure and make again): the class's page works in any browser\n",
            a->cmd);
    return 2;
}
