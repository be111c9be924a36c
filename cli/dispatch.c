/* dispatch.c — from `perft COMMAND ARGS` to the subcommand: the command table, the
 * top-level --help and --version. */
#include <string.h>

#include "../io/text.h"
#include "commands.h"
#include "config.h"
#include "version.h"

const CommandEntry cli_commands[] = {
    {"count", cmd_count, "count the leaves of the move tree to a depth (perft N)"},
    {"divide", cmd_divide, "the count below each legal root move, then the total"},
    {"units", cmd_units, "the work units of a run: distinct positions at a ply, with multiplicities"},
    {"suite", cmd_suite, "check positions against known counts (built-in quick set by default)"},
    {"stats", cmd_stats, "captures, e.p., castles, promotions, checks by class, mates at every depth"},
    {"unique", cmd_unique, "distinct positions at every ply"},
    {"show", cmd_show, "the position as a board: FEN fields, key, checkers, pins, legal moves"},
    {"verify", cmd_verify, "cross-checks: checking moves, move classes, mirror, hashing, keys, notation"},
    {"uci", cmd_uci, "a UCI engine for `go perft` on stdin/stdout"},
    {"perftree", cmd_perftree, "the perftree tool's script interface: DEPTH FEN [MOVES]"},
    {"check", cmd_check, "another engine's go perft against perftkit, bisected to the first wrong move"},
    {"bench", cmd_bench, "the fixed benchmark: bulk, full and hashed modes, stored as JSON"},
    {"results", cmd_results, "stored benchmark results compared: a table and an HTML chart"},
    {NULL, NULL, NULL},
};

static void print_usage(FILE *out) {
    fputs("usage: perft COMMAND [OPTIONS]\n"
          "       perft COMMAND --help     options of one command\n"
          "       perft --version\n"
          "       perft --man-page | --bash-completion   the man page (roff), the bash completion\n\n"
          "perftkit counts the legal move paths of chess positions exactly and fast.\n\n"
          "Commands:\n",
          out);
    for (const CommandEntry *c = cli_commands; c->name; c++)
        fprintf(out, "  %-8s %s\n", c->name, c->summary);
    fputs("\nOptions mean the same in every command: -d depth, --fen/--startpos/--moves, --chess960,\n"
          "-t threads, --hash MB, --key-seed N, --json, -q, --max-nodes N, --max-time S.\n"
          "Data goes to stdout; progress and diagnostics to stderr.\n\n"
          "Exit status:\n",
          out);
    for (const CliExitStatus *e = cli_exit_statuses; e->meaning; e++)
        fprintf(out, "  %3d  %s\n", e->code, e->meaning);
}

static const CommandEntry *find_command(const char *name) {
    for (const CommandEntry *c = cli_commands; c->name; c++)
        if (!strcmp(name, c->name))
            return c;
    return NULL;
}

int cli_main(FILE *in, FILE *out, FILE *err, int argc, char **argv) {
    static const CliBackend one_process = {driver_run, stats_run_units, false};
    return cli_main_with(in, out, err, &one_process, false, argc, argv);
}

int cli_main_with(FILE *in, FILE *out, FILE *err, const CliBackend *backend, bool worker, int argc, char **argv) {
    static Cli cli; /* the key set makes it large; one command line runs at a time */
    cli = (Cli){.in = in, .out = out, .err = err, .run = backend->run, .stats = backend->stats,
           .spreads = backend->spreads, .worker = worker};
    if (argc < 2) {
        print_usage(err);
        return EXIT_BAD_INPUT;
    }
    const char *first = argv[1];
    if (!strcmp(first, "--help") || !strcmp(first, "-h") || !strcmp(first, "help")) {
        if (argc > 2 && !strcmp(first, "help")) {
            const CommandEntry *c = find_command(argv[2]);
            char shown[TEXT_QUOTE_SIZE];
            if (!c)
                return cli_error(&cli, "no command '%s' (try perft --help)", text_quote(argv[2], shown));
            char *help_argv[] = {argv[2], "--help", NULL};
            cli.command = c->name;
            return c->run(&cli, 2, help_argv);
        }
        print_usage(out);
        return fflush(out) == 0 ? EXIT_OK : EXIT_BAD_INPUT;
    }
    if (!strcmp(first, "--version") || !strcmp(first, "-V")) {
        fprintf(out, "perft (perftkit) %s, commit %s\nbuild: %s, %s\n", PERFTKIT_VERSION, PERFTKIT_GIT_COMMIT,
                PERFTKIT_BUILD_OPTIONS, PERFTKIT_COMPILER);
        return fflush(out) == 0 ? EXIT_OK : EXIT_BAD_INPUT;
    }
    if (!strcmp(first, "--man-page") || !strcmp(first, "--bash-completion")) {
        (first[2] == 'm' ? cli_man_page : cli_bash_completion)(out);
        return fflush(out) == 0 && !ferror(out) ? EXIT_OK : cli_write_failed(&cli);
    }
    const CommandEntry *c = find_command(first);
    char shown[TEXT_QUOTE_SIZE];
    if (!c)
        return cli_error(&cli, "no command '%s' (try perft --help)", text_quote(first, shown));
    cli.command = c->name;
    return c->run(&cli, argc - 1, argv + 1);
}
