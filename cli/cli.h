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
#include "options.h"

/* The running subcommand: its name and its streams. */
struct Cli {
    const char *command; /* "count", ...; NULL before one is chosen */
    FILE *in, *out, *err;
};

enum {
    EXIT_OK = 0,
    EXIT_MISMATCH = 1,      /* a count differed from the expected one */
    EXIT_BAD_INPUT = 2,     /* bad option, FEN, file or depth; nothing was counted */
    EXIT_PARTIAL = 3,       /* stopped by --max-time or --max-nodes; the result is partial */
    EXIT_INTERRUPTED = 130, /* stopped by Ctrl-C; the result is partial */
};



/* A subcommand: argv[0] is its name. */
typedef int (*CliCommand)(Cli *cli, int argc, char **argv);

/* Prints "perft COMMAND: MESSAGE" on cli->err as one line; returns EXIT_BAD_INPUT.
 * Outside text in the message must be quoted with text_quote() (io/text.h). */
int cli_error(const Cli *cli, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* Sets up `pos` from the position options; on failure prints why (quoting the FEN or
 * move) and returns false. */
bool cli_position(const Cli *cli, const PositionOptions *options, Position *pos);

/* The defaults of the run options: every processor, hash by depth, the fixed seed. */
void cli_run_defaults(RunOptions *run);

/* The driver for a run at `depth`: threads, tables of the default size for the depth
 * unless --hash was given (resolved into run->hash_mb); prints why and returns false
 * when the memory is refused. */
bool cli_driver(const Cli *cli, RunOptions *run, int depth, Driver *driver);

/* The statistics tables (perft stats, divide --stats) of the default size for `depth`
 * unless --hash was given, and the threads to use; prints why and returns false when
 * the memory is refused. */
typedef struct StatsTables StatsTables;
bool cli_stats_tables(const Cli *cli, RunOptions *run, int depth, StatsTables **tables, int *threads);

/* True when `stream` is a terminal that can redraw a line (not TERM=dumb): only then
 * is progress shown. */
bool cli_is_terminal(FILE *stream);

/* Flushes cli->out; EXIT_OK, or the exit status after saying that writing failed. */
int cli_flush(const Cli *cli);

/* Says on cli->err that the output could not be written (with errno's reason) and
 * returns EXIT_BAD_INPUT. */
int cli_write_failed(const Cli *cli);

/* Megabytes of memory: the whole machine's, or what is free now. */
long cli_memory_mb(bool available);

/* The limits of a run: max time and nodes, and Ctrl-C. */
RunLimits cli_limits(const RunOptions *run);

/* LEGACY: prints "perft COMMAND: MESSAGE" on stderr; returns EXIT_BAD_INPUT. */
int cli_fail(const char *command, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* Reads a whole number in [min, max] from `text`; on failure prints why (naming
 * `option`) and returns false. */
bool cli_parse_long(const char *command, const char *option, const char *text, long min, long max, long *out);

/* getopt_long values of the position options, shared by every subcommand. */
enum { CLI_OPT_FEN = 1000, CLI_OPT_STARTPOS, CLI_OPT_CHESS960, CLI_OPT_MOVES, CLI_OPT_FIRST_FREE };
#define CLI_POSITION_OPTIONS                                                                            \
    {"fen", required_argument, NULL, CLI_OPT_FEN}, {"startpos", no_argument, NULL, CLI_OPT_STARTPOS},  \
        {"chess960", no_argument, NULL, CLI_OPT_CHESS960}, {"moves", required_argument, NULL, CLI_OPT_MOVES}

/* Resets getopt for a subcommand's argv; errors are reported by the callers. */
void cli_options_start(void);

/* Takes `option` into `position` when it is a position option; false otherwise. */
bool cli_position_option(int option, const char *value, PositionOptions *position);

/* The message for getopt's ':' (missing value) or '?' (unknown option); returns
 * EXIT_BAD_INPUT. */
int cli_option_problem(const char *command, int option, char **argv);

/* After the options: refuses leftover arguments and --fen with --startpos; returns -1
 * when all is well, else the exit status. */
int cli_finish_options(const char *command, int argc, char **argv, const PositionOptions *position);

/* Sets up `pos` from the options; on failure prints why and returns false. */
bool cli_setup_position(const char *command, const PositionOptions *options, Position *pos);

/* LEGACY (until every subcommand has its option table): threads, hash and limits. */
typedef struct LegacyRunSettings {
    long threads; /* 0: every processor */
    long hash_mb; /* -1: the default for the depth */
    RunLimits limits;
} LegacyRunSettings;

enum { RUN_OPTION_THREADS, RUN_OPTION_HASH, RUN_OPTION_MAX_TIME, RUN_OPTION_MAX_NODES };

void cli_default_run_settings(LegacyRunSettings *settings);

/* Reads the value of one of the RUN_OPTION_ options; prints why and returns false
 * when it is out of range (threads 1..1024, hash 0..the machine's memory, time > 0). */
bool cli_parse_run_option(const char *command, int option, const char *value, LegacyRunSettings *settings);

/* Resolves the default hash size for `depth` into settings->hash_mb and creates the
 * driver; prints why and returns false when the memory is refused. */
bool cli_create_driver(const char *command, LegacyRunSettings *settings, int depth, Driver *driver);

/* The threads to use and the statistics tables (perft stats, divide --stats), with the
 * default hash size for `depth`; prints why and returns false when memory is refused. */
bool cli_create_stats_tables(const char *command, LegacyRunSettings *settings, int depth, StatsTables **tables,
                             int *threads);

/* Installs a Ctrl-C handler that sets the returned flag (a second Ctrl-C kills). */
const volatile sig_atomic_t *cli_catch_interrupt(void);

/* Seconds on a monotonic clock. */
double cli_now(void);

/* What a ProgressHook (driver.h) shows: one line on `err`, redrawn in place (units done,
 * leaves so far, rate and ETA), cleared at the end. */
void cli_draw_progress(FILE *err, const RunProgress *progress);

/* Prints "time T s   rate R Mleaves/s   period P ns/leaf" for `leaves` in `seconds`. */
void cli_print_rate(FILE *out, Count leaves, double seconds);

/* Help text shared by the subcommands that take a position (descriptions at column 25). */
#define CLI_POSITION_HELP                                                                            \
    "      --fen FEN          the position: a FEN of 6 fields, or 4 without the clocks\n"            \
    "      --startpos         the standard start position (the default)\n"                           \
    "      --chess960         Chess960 castling rules and notation (implied by Shredder-FEN\n"       \
    "                         castling letters, or by KQkq naming a king or rook off its\n"          \
    "                         standard square)\n"                                                    \
    "      --moves LIST       play these moves first (UCI or SAN, separated by blanks or\n"          \
    "                         commas), e.g. --moves \"e2e4 e7e5\" to drill down a divide\n"

#endif
