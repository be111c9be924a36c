/* cmd_stats.c — `perft stats`: the wiki's perft statistics at every depth 1..N. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "report.h"
#include "../perft/stats.h"

static const char stats_help[] =
    "usage: perft stats [-d N] [--fen FEN | --startpos] [--chess960] [--moves LIST] [-t N] [--hash MB]\n"
    "                   [--json]\n\n"
    "Counts, for every depth 1..N, what the chessprogramming wiki's Perft Results tables\n"
    "count of the last move into each leaf: nodes, captures (e.p. included), e.p.\n"
    "captures, castles, promotions, checks (mates included), discovery checks (single\n"
    "checks by a man other than the one that moved; the rook, for castling), double\n"
    "checks, and checkmates. `perft divide --stats` gives the same per root move.\n\n"
    "Hashing applies: a table per remaining depth, down to the last ply, holds each\n"
    "position's whole statistics vector (80-byte entries, a check word over key and vector).\n\n"
    "  -d, --depth N          deepest depth, 1..12 (default 5)\n" CLI_POSITION_HELP
    "  -t, --threads N        threads (default: every processor)\n"
    "      --hash MB          memory for the statistics tables; 0 turns hashing off\n"
    "                         (default: as for perft count)\n"
    "      --json             one JSON document on stdout instead of the table\n"
    "  -h, --help             this text\n\n"
    "Exit status: 0 counted, 2 bad input.\n";

static const char *const column_titles[STATS_FIELDS] = {"nodes", "captures", "e.p.", "castles", "promotions",
                                                        "checks", "discovery", "double", "mates"};

void stats_print_header(FILE *out, const char *first_column) {
    fprintf(out, "%-8s", first_column);
    for (int i = 0; i < STATS_FIELDS; i++)
        fprintf(out, i == 0 ? "%16s" : "%14s", column_titles[i]);
    fputc('\n', out);
}

void stats_print_row(FILE *out, const char *label, LeafStats *s) {
    char text[COUNT_TEXT_SIZE];
    fprintf(out, "%-8s", label);
    for (int i = 0; i < STATS_FIELDS; i++)
        fprintf(out, i == 0 ? "%16s" : "%14s", count_format(s->field[i], false, text));
    fputc('\n', out);
}

void stats_print_json_fields(FILE *out, LeafStats *s) {
    for (int i = 0; i < STATS_FIELDS; i++)
        fprintf(out, "%s\"%s\": \"%llu\"", i ? ", " : "", stats_field_names[i],
                (unsigned long long)s->field[i]);
}

int cmd_stats(Cli *cli, int argc, char **argv) {
    (void)cli;
    enum { OPT_HASH = CLI_OPT_FIRST_FREE, OPT_JSON };
    static const struct option long_options[] = {
        CLI_POSITION_OPTIONS,                          {"depth", required_argument, NULL, 'd'}, {"threads", required_argument, NULL, 't'},
        {"hash", required_argument, NULL, OPT_HASH},   {"json", no_argument, NULL, OPT_JSON},
        {"help", no_argument, NULL, 'h'},              {NULL, 0, NULL, 0}};
    PositionOptions position = {NULL, NULL, false, false};
    LegacyRunSettings run;
    cli_default_run_settings(&run);
    long depth = 5;
    bool json = false;
    cli_options_start();
    for (;;) {
        int c = getopt_long(argc, argv, ":d:t:h", long_options, NULL);
        if (c == -1)
            break;
        if (cli_position_option(c, optarg, &position))
            continue;
        switch (c) {
        case 'd':
            if (!cli_parse_long("stats", "depth", optarg, 1, STATS_MAX_DEPTH, &depth))
                return EXIT_BAD_INPUT;
            break;
        case OPT_JSON: json = true; break;
        case 't':
        case OPT_HASH:
            if (!cli_parse_run_option("stats", c == 't' ? RUN_OPTION_THREADS : RUN_OPTION_HASH, optarg, &run))
                return EXIT_BAD_INPUT;
            break;
        case 'h': fputs(stats_help, stdout); return EXIT_OK;
        default: return cli_option_problem("stats", c, argv);
        }
    }
    int finished = cli_finish_options("stats", argc, argv, &position);
    if (finished >= 0)
        return finished;
    Position pos;
    if (!cli_setup_position("stats", &position, &pos))
        return EXIT_BAD_INPUT;
    StatsTables *tables;
    int threads;
    if (!cli_create_stats_tables("stats", &run, (int)depth, &tables, &threads))
        return EXIT_BAD_INPUT;

    if (json) {
        report_json_open(stdout, "stats");
        report_json_position(stdout, &pos);
        printf(",\n  \"options\": {\"threads\": %d, \"hash_mb\": %ld},\n  \"depths\": [", threads, run.hash_mb);
    } else {
        stats_print_header(stdout, "depth");
    }
    double start = cli_now();
    for (int d = 1; d <= depth; d++) {
        LeafStats s;
        double begun = cli_now();
        stats_run(&pos, d, threads, tables, &s);
        if (json) {
            printf("%s\n    {\"depth\": %d, ", d > 1 ? "," : "", d);
            stats_print_json_fields(stdout, &s);
            printf(", \"seconds\": %.6f}", cli_now() - begun);
        } else {
            char label[8];
            snprintf(label, sizeof label, "%d", d);
            stats_print_row(stdout, label, &s);
        }
        fflush(stdout);
    }
    if (json)
        printf("\n  ],\n  \"seconds\": %.6f\n}\n", cli_now() - start);
    else
        fprintf(stderr, "time %.3f s\n", cli_now() - start);
    stats_tables_destroy(tables);
    return EXIT_OK;
}
