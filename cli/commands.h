/* commands.h — the subcommands of the `perft` binary and the table that names them.
 * Each takes the running Cli (name and streams), its own argv (argv[0] is the
 * subcommand's name) and returns the exit status; none exits or touches other
 * streams, so the tests call them directly. */
#ifndef PERFTKIT_COMMANDS_H
#define PERFTKIT_COMMANDS_H

#include "cli.h"

int cmd_count(Cli *cli, int argc, char **argv);
int cmd_divide(Cli *cli, int argc, char **argv);
int cmd_suite(Cli *cli, int argc, char **argv);
int cmd_stats(Cli *cli, int argc, char **argv);
int cmd_unique(Cli *cli, int argc, char **argv);
int cmd_verify(Cli *cli, int argc, char **argv);
int cmd_uci(Cli *cli, int argc, char **argv);
int cmd_perftree(Cli *cli, int argc, char **argv);
int cmd_check(Cli *cli, int argc, char **argv);
int cmd_bench(Cli *cli, int argc, char **argv);
int cmd_results(Cli *cli, int argc, char **argv);
int cmd_units(Cli *cli, int argc, char **argv);
int cmd_show(Cli *cli, int argc, char **argv);

typedef struct CommandEntry {
    const char *name;
    CliCommand run;
    const char *summary;
} CommandEntry;

/* Every subcommand, in the order `perft --help` lists them; ended by a NULL name. */
extern const CommandEntry cli_commands[];

/* Runs `perft ARGS...` as the binary would, on the given streams: argv[0] is the
 * program name, argv[1] the subcommand (or --help, --version). The core must be
 * initialised. */
int cli_main(FILE *in, FILE *out, FILE *err, int argc, char **argv);

/* The man page perft(1) in roff, and the bash completion script, made from the command
 * table and every subcommand's option table (manual.c): `perft --man-page`,
 * `perft --bash-completion`. */
void cli_man_page(FILE *out);
void cli_bash_completion(FILE *out);

/* The same with other runners (dist_run and dist_stats_run_units in perft-mpi), as an MPI
 * worker or not. */
int cli_main_with(FILE *in, FILE *out, FILE *err, const CliBackend *backend, bool worker, int argc, char **argv);

#endif
