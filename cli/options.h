/* options.h — a subcommand's options as data. Each subcommand declares one table of
 * CliOption entries (long name, short letter, kind, range, where the value goes, one
 * help line); cli_parse() reads argv by that table, checks every value against its
 * kind and range, names the subcommand and the option in every error, and prints
 * --help from the same table. The options every subcommand shares are the macros
 * below, declared once, so they mean the same everywhere. The value a field holds
 * before parsing is its default, and --help shows it. */
#ifndef PERFTKIT_OPTIONS_H
#define PERFTKIT_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "../perft/count.h"

typedef struct Cli Cli;

typedef enum CliKind {
    CLI_FLAG,    /* bool, set to true; takes no value */
    CLI_INT,     /* long in [min, max] */
    CLI_U64,     /* uint64_t, decimal or 0x-hex (keys, seeds) */
    CLI_COUNT,   /* Count (128-bit), at least min */
    CLI_MB,      /* long, megabytes, 0 .. the machine's memory */
    CLI_THREADS, /* long, 1..1024; 0 (the default) means every processor */
    CLI_SECONDS, /* double, above 0 */
    CLI_STRING,  /* const char *, pointing into argv */
    CLI_CHOICE,  /* int: the index of the value among `choices` ("text|tap|json") */
    CLI_LIST,    /* unsigned: a bit per item of `choices` named in a comma-separated list */
} CliKind;

typedef struct CliOption {
    const char *name;         /* long name, without the dashes; NULL ends a table */
    char letter;              /* short option letter, 0 for none */
    CliKind kind;
    void *value;              /* where the value goes: the type the kind says */
    const char *arg;          /* the value's name in --help: "N", "FEN", "MB" */
    long min, max;            /* CLI_INT range; CLI_COUNT minimum */
    const char *choices;      /* CLI_CHOICE, CLI_LIST: "it|pz|tt" */
    const char *help;         /* one help line; '\n' continues it, indented */
    const char *default_text; /* NULL: the value before parsing (for numbers and
                                 choices); "": print no default */
    bool *given;              /* NULL, or set to true when the option is given */
} CliOption;

/* A subcommand as --help and the errors present it. */
typedef struct CliSpec {
    const char *operands;     /* "[FILE...]" for a command that takes operands, else NULL */
    int min_operands, max_operands; /* with operands: how many (max -1: any) */
    const char *summary;      /* the paragraphs after the usage line */
    const char *epilogue;     /* examples, exit status: after the options */
} CliSpec;

/* The operands left after the options, in order. */
typedef struct CliOperands {
    int count;
    char **items;             /* pointers into argv */
} CliOperands;

enum { CLI_CONTINUE = -1 };

/* Parses argv (argv[0] is the subcommand's name; options and operands may mix; "--"
 * ends the options) by `options`, a table ended by an entry whose name is NULL.
 * Returns CLI_CONTINUE to go on; otherwise the exit status to end with: EXIT_OK after
 * --help (printed on cli->out), EXIT_BAD_INPUT after a one-line error on cli->err.
 * `operands` may be NULL when spec->operands is. */
int cli_parse(Cli *cli, const CliSpec *spec, const CliOption *options, int argc, char **argv,
              CliOperands *operands);

/* The option table's help, as `perft COMMAND --help` prints it. */
void cli_print_help(const Cli *cli, const CliSpec *spec, const CliOption *options);

/* The " (0..32; default 5)" that follows an option's help line; `portable` leaves out
 * what depends on the machine (its processor count), for the man page. */
void cli_option_default(const CliOption *o, bool portable, char *out, size_t size);

/* What cli_parse calls instead of parsing when the Cli asks for it (Cli.describe): the
 * subcommand's name, spec and option table, for the man page and the completion. */
typedef void (*CliDescribe)(void *context, const char *command, const CliSpec *spec, const CliOption *options);

/* Checks at compile time that `p` has type `type` (so a table entry cannot point at a
 * value of another kind), and yields it as void *. */
#define CLI_VALUE(type, p) ((void *)(1 ? (p) : (type)0))

#define CLI_OPT_FLAG(name_, letter_, p, help_) \
    {.name = (name_), .letter = (letter_), .kind = CLI_FLAG, .value = CLI_VALUE(bool *, p), .help = (help_)}
#define CLI_OPT_INT(name_, letter_, arg_, p, min_, max_, help_)                                         \
    {.name = (name_), .letter = (letter_), .kind = CLI_INT, .value = CLI_VALUE(long *, p), .arg = (arg_), \
     .min = (min_), .max = (max_), .help = (help_)}
#define CLI_OPT_U64(name_, arg_, p, help_) \
    {.name = (name_), .kind = CLI_U64, .value = CLI_VALUE(uint64_t *, p), .arg = (arg_), .help = (help_)}
#define CLI_OPT_COUNT(name_, arg_, p, min_, help_)                                                     \
    {.name = (name_), .kind = CLI_COUNT, .value = CLI_VALUE(Count *, p), .arg = (arg_), .min = (min_), \
     .help = (help_), .default_text = ""}
#define CLI_OPT_SECONDS(name_, arg_, p, help_)                                                       \
    {.name = (name_), .kind = CLI_SECONDS, .value = CLI_VALUE(double *, p), .arg = (arg_), .help = (help_), \
     .default_text = ""}
#define CLI_OPT_STRING(name_, letter_, arg_, p, help_)                                                      \
    {.name = (name_), .letter = (letter_), .kind = CLI_STRING, .value = CLI_VALUE(const char **, p),        \
     .arg = (arg_), .help = (help_)}
#define CLI_OPT_CHOICE(name_, arg_, p, choices_, help_)                                                   \
    {.name = (name_), .kind = CLI_CHOICE, .value = CLI_VALUE(int *, p), .arg = (arg_), .choices = (choices_), \
     .help = (help_)}
#define CLI_OPT_LIST(name_, arg_, p, choices_, help_)                                                          \
    {.name = (name_), .kind = CLI_LIST, .value = CLI_VALUE(unsigned *, p), .arg = (arg_), .choices = (choices_), \
     .help = (help_), .default_text = ""}
#define CLI_OPT_END {.name = NULL}

/* ---- The shared options: one declaration each. ---- */

/* The position to work on. */
typedef struct PositionOptions {
    const char *fen;   /* NULL: the start position */
    const char *moves; /* NULL, or moves to play first, UCI or SAN, blank- or comma-separated */
    bool chess960;
    bool startpos;     /* --startpos was given */
} PositionOptions;

/* --chess960 alone, for the subcommands that read positions from files (suite). */
#define CLI_OPT_CHESS960(p)                                                                                  \
    CLI_OPT_FLAG("chess960", 0, p,                                                                          \
                 "Chess960 castling rules and notation (implied by Shredder-FEN\ncastling letters, or by KQkq " \
                 "naming a king or rook off its\nstandard square)")

#define CLI_OPTS_POSITION(p)                                                                                      \
    CLI_OPT_STRING("fen", 0, "FEN", &(p)->fen, "the position: a FEN of 6 fields, or 4 without the clocks"),     \
    CLI_OPT_FLAG("startpos", 0, &(p)->startpos, "the standard start position (the default)"),                    \
    CLI_OPT_CHESS960(&(p)->chess960),                                                                            \
    CLI_OPT_STRING("moves", 0, "LIST", &(p)->moves,                                                              \
                   "play these moves first (UCI or SAN, separated by blanks or\ncommas), e.g. --moves \"e2e4 "   \
                   "e7e5\" to drill down a divide")

/* The depth: one range wherever the work allows it, one message when out of range. */
enum { CLI_MAX_DEPTH = 32 };
#define CLI_OPT_DEPTH(p, min_, max_, help_) CLI_OPT_INT("depth", 'd', "N", p, min_, max_, help_)

/* Threads, tables, keys and limits of every subcommand that counts. */
typedef struct RunOptions {
    long threads;      /* 0: every processor */
    long hash_mb;      /* -1: the default for the depth */
    uint64_t key_seed; /* the Zobrist keys' seed */
    double max_seconds;/* 0: none */
    Count max_nodes;   /* 0: none */
} RunOptions;

#define CLI_OPT_THREADS(r)                                                                      \
    {.name = "threads", .letter = 't', .kind = CLI_THREADS, .value = CLI_VALUE(long *, &(r)->threads), \
     .arg = "N", .min = 1, .max = 1024, .help = "threads"}
/* --hash with the default as --help states it (a command whose tables are not sized by
 * depth says its own). */
#define CLI_OPT_HASH_DEFAULT(r, default_)                                                          \
    {.name = "hash", .kind = CLI_MB, .value = CLI_VALUE(long *, &(r)->hash_mb), .arg = "MB",        \
     .help = "memory for the hash tables; 0 turns hashing off", .default_text = (default_)}
#define CLI_OPT_HASH(r) CLI_OPT_HASH_DEFAULT(r, "by depth, see below")
#define CLI_OPT_KEY_SEED(r)                                                                                    \
    {.name = "key-seed", .kind = CLI_U64, .value = CLI_VALUE(uint64_t *, &(r)->key_seed), .arg = "N",         \
     .help = "seed of the Zobrist keys (decimal or 0x hex); counts never\ndepend on it"}
#define CLI_OPTS_LIMITS(r)                                                                                   \
    CLI_OPT_SECONDS("max-time", "S", &(r)->max_seconds, "stop after about S seconds of counting"),          \
    CLI_OPT_COUNT("max-nodes", "N", &(r)->max_nodes, 1,                                                     \
                  "stop after about N leaves. A stopped run prints what it\nfinished, with exact counts, " \
                  "and says it is partial")
#define CLI_OPTS_RUN(r) CLI_OPT_THREADS(r), CLI_OPT_HASH(r), CLI_OPT_KEY_SEED(r)

#define CLI_OPT_JSON(p) CLI_OPT_FLAG("json", 0, p, "one JSON document on stdout instead of text (schema: README)")
#define CLI_OPT_QUIET(p, help_) CLI_OPT_FLAG("quiet", 'q', p, help_)

#endif
