/* main.c — the `perft` binary: builds the core's tables, then runs the command line
 * on the process's own streams. */
#include <stdio.h>

#include "../core/core.h"
#include "commands.h"

int main(int argc, char **argv) {
    core_init();
    return cli_main(stdin, stdout, stderr, argc, argv);
}
