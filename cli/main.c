/* main.c — the `perft` binary: builds the core's tables, then runs the command line
 * on the process's own streams. */
#include <signal.h>
#include <stdio.h>

#include "../core/core.h"
#include "commands.h"

int main(int argc, char **argv) {
    /* A closed stdout pipe (`perft divide -d 6 | head -1`) ends the process quietly at
     * the next write, as every filter does, even when the parent ignored SIGPIPE; runs
     * with a journal catch it to stop cleanly (cli_catch_stop_signals). */
    signal(SIGPIPE, SIG_DFL);
    core_init();
    return cli_main(stdin, stdout, stderr, argc, argv);
}
