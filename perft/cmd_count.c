/* cmd_count.c — `perft count` and `perft divide`: one position, one depth. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "perft.h"

typedef struct CountOptions {
    PositionOptions position;
    long depth;
    bool quiet;
    bool san;
} CountOptions;

enum { OPT_FEN = 256, OPT_STARTPOS, OPT_CHESS960, OPT_MOVES, OPT_SAN };

static const char count_help[] =
    "usage: perft count [-d N] [--fen FEN | --startpos] [--chess960] [--moves LIST] [-q]\n\n"
    "Counts the leaves of the legal move tree of a position to depth N (perft N),\n"
    "then prints the elapsed time, the rate (leaves per second) and the period\n"
    "(nanoseconds per leaf). Depth 1 is bulk-counted: no move is made.\n\n"
    "  -d, --depth N          depth in plies, 0..32 (default 5)\n" CLI_POSITION_HELP
    "  -q, --quiet            print the count only\n"
    "  -h, --help             this text\n\n"
    "Example: perft count -d 6 --startpos   prints perft(6) = 119060324\n"
    "Exit status: 0 counted, 2 bad input.\n";

static const char divide_help[] =
    "usage: perft divide [-d N] [--fen FEN | --startpos] [--chess960] [--moves LIST] [--san]\n\n"
    "Prints the count below each legal root move, sorted, then the total. The default\n"
    "lines have the shape of Stockfish's `go perft` (\"e2e4: 20\", a blank line,\n"
    "\"Nodes searched: N\") so the two can be diffed; --san writes moves in SAN, sorted\n"
    "by SAN (\"Na3 8885\"). Time and rate go to stderr. To find a wrong move path, divide,\n"
    "pick the move whose count differs, and divide again one ply lower with --moves.\n\n"
    "  -d, --depth N          depth in plies, 1..32 (default 5)\n" CLI_POSITION_HELP
    "      --san              SAN moves (\"Nf3 12345\") instead of UCI (\"g1f3: 12345\")\n"
    "  -h, --help             this text\n\n"
    "Exit status: 0 counted, 2 bad input.\n";

/* Returns -1 to go on, or the exit status to end with. */
static int parse_options(int argc, char **argv, bool divide, CountOptions *o) {
    static const struct option long_options[] = {
        {"depth", required_argument, NULL, 'd'},   {"fen", required_argument, NULL, OPT_FEN},
        {"startpos", no_argument, NULL, OPT_STARTPOS}, {"chess960", no_argument, NULL, OPT_CHESS960},
        {"moves", required_argument, NULL, OPT_MOVES}, {"quiet", no_argument, NULL, 'q'},
        {"san", no_argument, NULL, OPT_SAN},       {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    const char *command = argv[0];
    memset(o, 0, sizeof *o);
    o->depth = 5;
    bool startpos = false;
    opterr = 0;
    optind = 1;
    for (;;) {
        int c = getopt_long(argc, argv, divide ? ":d:h" : ":d:qh", long_options, NULL);
        if (c == -1)
            break;
        switch (c) {
        case 'd':
            if (!cli_parse_long(command, "depth", optarg, divide ? 1 : 0, PERFT_MAX_DEPTH, &o->depth))
                return EXIT_BAD_INPUT;
            break;
        case OPT_FEN: o->position.fen = optarg; break;
        case OPT_STARTPOS: startpos = true; break;
        case OPT_CHESS960: o->position.chess960 = true; break;
        case OPT_MOVES: o->position.moves = optarg; break;
        case 'q':
            if (divide)
                return cli_fail(command, "unknown option '%s' (try perft %s --help)", argv[optind - 1], command);
            o->quiet = true;
            break;
        case OPT_SAN:
            if (!divide)
                return cli_fail(command, "unknown option '%s' (try perft %s --help)", argv[optind - 1], command);
            o->san = true;
            break;
        case 'h': fputs(divide ? divide_help : count_help, stdout); return EXIT_OK;
        case ':': return cli_fail(command, "option '%s' needs a value", argv[optind - 1]);
        default: return cli_fail(command, "unknown option '%s' (try perft %s --help)", argv[optind - 1], command);
        }
    }
    if (optind < argc)
        return cli_fail(command, "unexpected argument '%s' (a FEN must be quoted as one argument)", argv[optind]);
    if (startpos && o->position.fen)
        return cli_fail(command, "--fen and --startpos both given; choose one");
    return -1;
}

int cmd_count(int argc, char **argv) {
    CountOptions o;
    Position pos;
    int status = parse_options(argc, argv, false, &o);
    if (status >= 0)
        return status;
    if (!cli_setup_position(argv[0], &o.position, &pos))
        return EXIT_BAD_INPUT;
    double start = cli_now();
    Count leaves = perft_count(&pos, (int)o.depth);
    double seconds = cli_now() - start;
    char text[COUNT_TEXT_SIZE];
    if (o.quiet) {
        printf("%s\n", count_format(leaves, false, text));
        return EXIT_OK;
    }
    printf("perft(%ld) = %s\n", o.depth, count_format(leaves, false, text));
    cli_print_rate(stdout, leaves, seconds);
    return EXIT_OK;
}

typedef struct DivideLine {
    char move[SAN_MOVE_SIZE];
    Count count;
} DivideLine;

static int compare_lines(const void *a, const void *b) {
    return strcmp(((const DivideLine *)a)->move, ((const DivideLine *)b)->move);
}

int cmd_divide(int argc, char **argv) {
    CountOptions o;
    Position pos;
    int status = parse_options(argc, argv, true, &o);
    if (status >= 0)
        return status;
    if (!cli_setup_position(argv[0], &o.position, &pos))
        return EXIT_BAD_INPUT;
    PerftDivision divisions[MAX_MOVES];
    DivideLine lines[MAX_MOVES];
    double start = cli_now();
    int n = perft_divide(&pos, (int)o.depth, divisions);
    double seconds = cli_now() - start;
    Count total = 0;
    for (int i = 0; i < n; i++) {
        if (o.san)
            move_to_san(&pos, divisions[i].move, lines[i].move);
        else
            move_to_uci(&pos, divisions[i].move, lines[i].move);
        lines[i].count = divisions[i].count;
        total += divisions[i].count;
    }
    qsort(lines, (size_t)n, sizeof lines[0], compare_lines);
    char text[COUNT_TEXT_SIZE];
    for (int i = 0; i < n; i++)
        printf(o.san ? "%s %s\n" : "%s: %s\n", lines[i].move, count_format(lines[i].count, false, text));
    printf("\nNodes searched: %s\n", count_format(total, false, text));
    cli_print_rate(stderr, total, seconds);
    return EXIT_OK;
}
