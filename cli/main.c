/* main.c — the `perft` binary: builds the core tables, then hands the command line
 * to the subcommand named first. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "config.h"
#include "version.h"

typedef struct Command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} Command;

static const Command commands[] = {
    {"count", cmd_count, "count the leaves of the move tree to a depth (perft N)"},
    {"divide", cmd_divide, "the count below each legal root move, then the total"},
    {"suite", cmd_suite, "check positions against known counts (built-in quick set by default)"},
    {"stats", cmd_stats, "captures, e.p., castles, promotions, checks, mates at every depth"},
    {"unique", cmd_unique, "distinct positions at every ply"},
    {"verify", cmd_verify, "cross-checks: checking moves, move classes, mirror, hashing, keys, notation"},
    {"uci", cmd_uci, "a UCI engine for `go perft` on stdin/stdout"},
    {"perftree", cmd_perftree, "the perftree tool's script interface: DEPTH FEN [MOVES]"},
    {"check", cmd_check, "another engine's go perft against perftkit, bisected to the first wrong move"},
    {"bench", cmd_bench, "the fixed benchmark: bulk, full and hashed modes, stored as JSON"},
    {"results", cmd_results, "stored benchmark results compared: a table and an HTML chart"},
};
enum { COMMAND_NB = sizeof commands / sizeof commands[0] };

static void print_usage(FILE *out) {
    fputs("usage: perft COMMAND [OPTIONS]\n"
          "       perft COMMAND --help     options of one command\n"
          "       perft --version\n\n"
          "perftkit counts the legal move paths of chess positions exactly and fast.\n\n"
          "Commands:\n",
          out);
    for (int i = 0; i < COMMAND_NB; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fputs("\nOptions mean the same in every command: -d depth, --fen/--startpos, --chess960.\n"
          "Data goes to stdout; diagnostics to stderr.\n"
          "Exit status: 0 success, 1 a count differed from the expected one, 2 bad input.\n",
          out);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        print_usage(stderr);
        return EXIT_BAD_INPUT;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        if (argc > 2 && strcmp(argv[1], "help") == 0) {
            for (int i = 0; i < COMMAND_NB; i++) {
                if (!strcmp(argv[2], commands[i].name)) {
                    char *help_argv[] = {argv[2], "--help", NULL};
                    core_init();
                    return commands[i].run(2, help_argv);
                }
            }
            return cli_fail(NULL, "no command '%s' (try perft --help)", argv[2]);
        }
        print_usage(stdout);
        return EXIT_OK;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
        printf("perft (perftkit) %s, commit %s\nbuild: %s, %s\n", PERFTKIT_VERSION, PERFTKIT_GIT_COMMIT,
               PERFTKIT_BUILD_OPTIONS, PERFTKIT_COMPILER);
        return EXIT_OK;
    }
    for (int i = 0; i < COMMAND_NB; i++) {
        if (!strcmp(argv[1], commands[i].name)) {
            core_init();
            return commands[i].run(argc - 1, argv + 1);
        }
    }
    return cli_fail(NULL, "no command '%s' (try perft --help)", argv[1]);
}
