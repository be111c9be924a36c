/* cli.h — what every subcommand of the `perft` binary shares: exit codes, option
 * values checked against their ranges, the position options (--fen, --startpos,
 * --chess960, --moves) and the wall clock. Messages go to stderr as one line. */
#ifndef PERFTKIT_CLI_H
#define PERFTKIT_CLI_H

#include <stdio.h>

#include "../core/core.h"
#include "../perft/count.h"
#include "../perft/driver.h"

enum {
    EXIT_OK = 0,
    EXIT_MISMATCH = 1,      /* a count differed from the expected one */
    EXIT_BAD_INPUT = 2,     /* bad option, FEN, file or depth; nothing was counted */
    EXIT_PARTIAL = 3,       /* stopped by --max-time or --max-nodes; the result is partial */
    EXIT_INTERRUPTED = 130, /* stopped by Ctrl-C; the result is partial */
};



/* Prints "perft COMMAND: MESSAGE" on stderr; returns EXIT_BAD_INPUT. */
int cli_fail(const char *command, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* Reads a whole number in [min, max] from `text`; on failure prints why (naming
 * `option`) and returns false. */
bool cli_parse_long(const char *command, const char *option, const char *text, long min, long max, long *out);

/* The position options as given on the command line. */
typedef struct PositionOptions {
    const char *fen;   /* NULL: the start position */
    const char *moves; /* NULL, or moves to play first, UCI or SAN, blank- or comma-separated */
    bool chess960;
    bool startpos;     /* --startpos was given */
} PositionOptions;

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

/* Threads, hash size and limits, as given on the command line. */
typedef struct RunSettings {
    long threads; /* 0: every processor */
    long hash_mb; /* -1: the default for the depth */
    RunLimits limits;
} RunSettings;

enum { RUN_OPTION_THREADS, RUN_OPTION_HASH, RUN_OPTION_MAX_TIME, RUN_OPTION_MAX_NODES };

void cli_default_run_settings(RunSettings *settings);

/* Reads the value of one of the RUN_OPTION_ options; prints why and returns false
 * when it is out of range (threads 1..1024, hash 0..the machine's memory, time > 0). */
bool cli_parse_run_option(const char *command, int option, const char *value, RunSettings *settings);

/* Resolves the default hash size for `depth` into settings->hash_mb and creates the
 * driver; prints why and returns false when the memory is refused. */
bool cli_create_driver(const char *command, RunSettings *settings, int depth, Driver *driver);

/* The threads to use and the statistics tables (perft stats, divide --stats), with the
 * default hash size for `depth`; prints why and returns false when memory is refused. */
typedef struct StatsTables StatsTables;
bool cli_create_stats_tables(const char *command, RunSettings *settings, int depth, StatsTables **tables,
                             int *threads);

/* Installs a Ctrl-C handler that sets the returned flag (a second Ctrl-C kills). */
const volatile sig_atomic_t *cli_catch_interrupt(void);

/* Seconds on a monotonic clock. */
double cli_now(void);

/* A ProgressHook (driver.h) drawing one line on stderr, redrawn in place: units done,
 * leaves so far, rate and ETA; cleared at the end. The context is not used. */
void cli_draw_progress(void *context, const RunProgress *progress);

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
