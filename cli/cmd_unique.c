/* cmd_unique.c — `perft unique`: distinct positions at every ply. */
#include <getopt.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "report.h"
#include "../perft/unique.h"

static const char unique_help[] =
    "usage: perft unique [-d N] [--fen FEN | --startpos] [--chess960] [--moves LIST] [--json]\n\n"
    "Counts the distinct positions at every ply 1..N below the position. Every ply has\n"
    "an exact set of full 128-bit keys that grows as needed (no entry is ever dropped),\n"
    "and each distinct position is expanded once per ply; the memory used is reported.\n"
    "Two positions are the same when they agree in placement, side to move, castling\n"
    "rights (and their rooks) and the e.p. square; an e.p. square counts only where a\n"
    "legal e.p. capture exists (a pawn that attacks it but is pinned does not count).\n"
    "Clocks are ignored. Start position, plies 1-6: 20, 400, 5362, 72078, 822518, 9417681.\n\n"
    "  -d, --depth N          deepest ply, 1..12 (default 5; ply 7 needs about 2 GB)\n" CLI_POSITION_HELP
    "      --json             one JSON document on stdout instead of the table\n"
    "  -h, --help             this text\n\n"
    "Exit status: 0 counted, 2 bad input or out of memory.\n";

int cmd_unique(Cli *cli, int argc, char **argv) {
    (void)cli;
    enum { OPT_JSON = CLI_OPT_FIRST_FREE };
    static const struct option long_options[] = {
        CLI_POSITION_OPTIONS,                          {"depth", required_argument, NULL, 'd'}, {"json", no_argument, NULL, OPT_JSON},
        {"help", no_argument, NULL, 'h'},              {NULL, 0, NULL, 0}};
    PositionOptions position = {NULL, NULL, false, false};
    long depth = 5;
    bool json = false;
    cli_options_start();
    for (;;) {
        int c = getopt_long(argc, argv, ":d:h", long_options, NULL);
        if (c == -1)
            break;
        if (cli_position_option(c, optarg, &position))
            continue;
        switch (c) {
        case 'd':
            if (!cli_parse_long("unique", "depth", optarg, 1, UNIQUE_MAX_DEPTH, &depth))
                return EXIT_BAD_INPUT;
            break;
        case OPT_JSON: json = true; break;
        case 'h': fputs(unique_help, stdout); return EXIT_OK;
        default: return cli_option_problem("unique", c, argv);
        }
    }
    int finished = cli_finish_options("unique", argc, argv, &position);
    if (finished >= 0)
        return finished;
    Position pos;
    if (!cli_setup_position("unique", &position, &pos))
        return EXIT_BAD_INPUT;
    UniqueReport report;
    char error[160];
    double start = cli_now();
    if (!unique_count(&pos, (int)depth, &report, error, sizeof error))
        return cli_fail("unique", "-d %ld: %s", depth, error);
    double seconds = cli_now() - start;
    if (json) {
        report_json_open(stdout, "unique");
        report_json_position(stdout, &pos);
        printf(",\n  \"plies\": [");
        for (int ply = 1; ply <= depth; ply++)
            printf("%s\n    {\"ply\": %d, \"positions\": %llu, \"set_bytes\": %zu}", ply > 1 ? "," : "", ply,
                   (unsigned long long)report.positions[ply], report.bytes[ply]);
        printf("\n  ],\n  \"peak_bytes\": %zu,\n  \"seconds\": %.6f\n}\n", report.peak_bytes, seconds);
        return EXIT_OK;
    }
    char text[COUNT_TEXT_SIZE];
    printf("%-6s %16s %12s\n", "ply", "positions", "set memory");
    for (int ply = 1; ply <= depth; ply++)
        printf("%-6d %16s %9.1f MB\n", ply, count_format(report.positions[ply], false, text),
               (double)report.bytes[ply] / 1048576.0);
    printf("peak memory %.1f MB, time %.3f s\n", (double)report.peak_bytes / 1048576.0, seconds);
    return EXIT_OK;
}
