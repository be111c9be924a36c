/* cli.h — what every subcommand of the `perft` binary shares: the streams and name of
 * the running subcommand (so the subcommands run as library calls: argv and streams
 * in, exit status out), exit codes, one-line errors that quote outside text safely,
 * the position and run options turned into a position, a driver and limits. */
#ifndef PERFTKIT_CLI_H
#define PERFTKIT_CLI_H

#include <stdio.h>

#include "../core/core.h"
#include "../perft/count.h"
#include "../perft/driver.h"
#include "../perft/stats.h"
#include "options.h"

/* The running subcommand: its name and its streams. */
/* How a run is counted: driver_run in one process, dist_run over MPI ranks. */
typedef void (*CliRunner)(Driver *driver, const Position *root, int depth, const RunLimits *limits,
                          const RunHooks *hooks, RunReport *report);
/* How statistics are counted, unit by unit: stats_run_units in one process,
 * dist_stats_run_units over MPI ranks. */
typedef RunStatus (*CliStatsRunner)(const UnitSet *units, int depth, int threads, StatsTables *tables,
                                    const RunLimits *limits, const bool *known, const LeafStats *known_stats,
                                    StatsUnitDone unit_done, void *context, LeafStats *out);
/* The runners a binary counts with. */
typedef struct CliBackend {
    CliRunner run;
    CliStatsRunner stats;
    bool spreads; /* the runners spread a run over MPI ranks (perft-mpi) */
} CliBackend;

struct Cli {
    const char *command; /* "count", ...; NULL before one is chosen */
    FILE *in, *out, *err;
    CliRunner run;       /* driver_run, unless the binary distributes (perft-mpi) */
    CliStatsRunner stats; /* stats_run_units, likewise */
    bool spreads;        /* they spread a run over MPI ranks: every rank takes the same
                            runner calls, in the same order */
    bool worker;         /* an MPI rank other than 0: counts what it is given, and
                            writes no file (journals are rank 0's) */
    ZobristKeys keys;    /* the key set of --key-seed, made once by cli_use_keys */
    bool keys_made;
    CliDescribe describe; /* NULL; else cli_parse hands it the option table instead of
                             parsing, and the subcommand returns EXIT_OK at once */
    void *describe_context;
};

enum {
    EXIT_OK = 0,
    EXIT_MISMATCH = 1,      /* a count differed from the expected one */
    EXIT_BAD_INPUT = 2,     /* bad option, FEN, file or depth; nothing was counted */
    EXIT_PARTIAL = 3,       /* stopped by --max-time or --max-nodes; the result is partial */
    EXIT_INTERRUPTED = 130, /* stopped by Ctrl-C; the result is partial */
    EXIT_BROKEN_PIPE = 141, /* stdout's reader went away (128 + SIGPIPE, what a shell
                               reports for a process SIGPIPE ended); nothing is said */
};

/* Every exit status with what it means, for --help and the man page; the list ends
 * with a NULL meaning. */
typedef struct CliExitStatus {
    int code;
    const char *meaning;
} CliExitStatus;
extern const CliExitStatus cli_exit_statuses[];

/* A subcommand: argv[0] is its name. */
typedef int (*CliCommand)(Cli *cli, int argc, char **argv);

/* Prints "perft COMMAND: MESSAGE" on cli->err as one line; returns EXIT_BAD_INPUT.
 * Outside text in the message must be quoted with text_quote() (io/text.h). */
int cli_error(const Cli *cli, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* Sets up `pos` from the position options; on failure prints why (quoting the FEN or
 * move) and returns false. */
bool cli_position(const Cli *cli, const PositionOptions *options, Position *pos);

/* Keys `pos` by the Zobrist keys of --key-seed (the default set when it is the fixed
 * seed); the set is made once, before any counting, and kept in the Cli. */
void cli_use_keys(Cli *cli, const RunOptions *run, Position *pos);

/* cli_position, then cli_use_keys: the position of a counting subcommand, keyed by
 * --key-seed; false after printing why. */
bool cli_keyed_position(Cli *cli, const PositionOptions *options, const RunOptions *run, Position *pos);

/* The defaults of the run options: every processor, hash by depth, the fixed seed. */
void cli_run_defaults(RunOptions *run);

/* The driver for a run at `depth`: threads, tables of the default size for the depth
 * unless --hash was given, cut to what fits the free memory and the process's limits
 * (ulimit -v, -d) and to what the system grants, halving until it does (a --hash that
 * had to shrink is said in one line on stderr); run->hash_mb is set to the size made.
 * False, after an error line, only when not even a run without tables can start. */
bool cli_driver(const Cli *cli, RunOptions *run, int depth, Driver *driver);

/* The statistics tables (perft stats, divide --stats) of the default size for `depth`
 * unless --hash was given, fitted as cli_driver's, and the threads to use. */
typedef struct StatsTables StatsTables;
bool cli_stats_tables(const Cli *cli, RunOptions *run, int depth, StatsTables **tables, int *threads);


/* Flushes cli->out; EXIT_OK, or the exit status after saying that writing failed. */
int cli_flush(const Cli *cli);

/* The end of a command's output: flushes cli->out; EXIT_OK when `written` and every
 * write reached it, else cli_write_failed's status. The one way a command reports a
 * failed output, so the failure is said once. */
int cli_finish_output(const Cli *cli, bool written);

/* Says on cli->err that the output could not be written (with errno's reason) and
 * returns EXIT_BAD_INPUT; when stdout's reader has gone (a closed pipe: `perft ... |
 * head -1`) it says nothing and returns EXIT_BROKEN_PIPE. */
int cli_write_failed(const Cli *cli);

/* Megabytes of memory: the whole machine's, or what is free now. */
long cli_memory_mb(bool available);

/* The limits of a run: max time and nodes, and Ctrl-C, SIGTERM or SIGHUP
 * (cli_catch_interrupt). */
RunLimits cli_limits(const RunOptions *run);

/* Installs handlers of Ctrl-C, SIGTERM and SIGHUP that set the returned flag (each
 * once; a second one kills), so a stopped run still prints what it finished. */
const volatile sig_atomic_t *cli_catch_interrupt(void);

/* The same flag, set by those signals and also by SIGPIPE (stdout's reader went away;
 * later ones are ignored, so writes fail with EPIPE and the command ends quietly): for
 * runs that must leave a resumable journal however they are stopped. */
const volatile sig_atomic_t *cli_catch_stop_signals(void);

/* Sets the flag of cli_catch_interrupt as a signal would (from a run's hook: a journal
 * that cannot be written stops the run). */
void cli_request_stop(void);

/* The "tool" of a journal's header: this build's version and commit. */
void cli_journal_tool(char *tool, size_t size);

/* What a ProgressHook (driver.h) shows: one line on `err`, redrawn in place (units done,
 * leaves so far, rate and ETA), cleared at the end. */
void cli_draw_progress(FILE *err, const RunProgress *progress);

/* Prints "time T s   rate R Mleaves/s   period P ns/leaf" for `leaves` in `seconds`. */
void cli_print_rate(FILE *out, Count leaves, double seconds);

#endif
