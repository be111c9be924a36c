/* cmd_count.c — `perft count` and `perft divide`: one position, one depth, on the
 * parallel hashed driver, with limits, traces, statistics and JSON. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "../perft/driver.h"
#include "report.h"
#include "../perft/stats.h"

typedef struct CountOptions {
    PositionOptions position;
    long depth;
    RunSettings run;
    bool quiet, san, stats, json, words;
    bool trace_iterations, trace_roots, trace_tables;
} CountOptions;

enum { OPT_SAN = CLI_OPT_FIRST_FREE, OPT_HASH, OPT_MAX_TIME, OPT_MAX_NODES, OPT_STATS, OPT_JSON, OPT_WORDS,
       OPT_TRACE };

#define RUN_OPTIONS_HELP                                                                     \
    "  -t, --threads N        threads (default: every processor, here %d)\n"                   \
    "      --hash MB          memory for the hash tables; 0 turns hashing off. Default: a\n"   \
    "                         quarter of the free memory, at most 4 MB at depth 4, 16 at 5,\n" \
    "                         64 at 6, 256 at 7 and 1024 from 8; none below 4; with\n"          \
    "                         --max-time S at most 64 MB per second of S. One table per\n"      \
    "                         ply: the deepest hashed ply (two plies above the leaves, where\n" \
    "                         most distinct positions are) takes the largest power of two\n"   \
    "                         within two thirds of the memory, the ply above it the same of\n"  \
    "                         what is left, and so on. The last two plies are never looked\n"   \
    "                         up: counting them is cheaper than a cache miss.\n"               \
    "      --max-time S       stop after S seconds\n"                                          \
    "      --max-nodes N      stop once N leaves are counted. A stopped run prints the root\n"  \
    "                         moves it finished, with exact counts, and a partial total.\n"     \
    "      --stats            per-ply table statistics after the run: C slots, P probes,\n"    \
    "                         M matches, R match rate, S stores, U used slots, F fill,\n"       \
    "                         X replacements\n"                                                 \
    "      --json             one JSON document on stdout instead of text (schema: README)\n"  \
    "      --trace LIST       comma-separated: it counts depths 1..N and prints each total;\n"  \
    "                         pz prints each root move as it completes; tt prints the table\n"  \
    "                         statistics after each depth\n"

static const char count_help[] =
    "usage: perft count [-d N] [--fen FEN | --startpos] [--chess960] [--moves LIST] [-t N] [--hash MB]\n"
    "                   [--max-time S] [--max-nodes N] [--stats] [--json] [--words] [--trace LIST] [-q]\n\n"
    "Counts the leaves of the legal move tree of a position to depth N (perft N) and\n"
    "prints the total, the time, the rate (leaves per second) and the period (ns per\n"
    "leaf), and how the run ended. Depth 1 is bulk-counted: no move is made.\n\n"
    "  -d, --depth N          depth in plies, 0..32 (default 5)\n" CLI_POSITION_HELP RUN_OPTIONS_HELP
    "      --words            also print the total in English words\n"
    "  -q, --quiet            print the count only\n"
    "  -h, --help             this text\n\n"
    "Example: perft count -d 6 --startpos   prints perft(6) = 119060324\n"
    "Exit status: 0 counted, 2 bad input, 3 stopped by --max-time or --max-nodes (partial),\n"
    "130 interrupted by Ctrl-C (partial; the finished root moves are printed).\n";

static const char divide_help[] =
    "usage: perft divide [-d N] [--fen FEN | --startpos] [--chess960] [--moves LIST] [--san] [-t N]\n"
    "                    [--hash MB] [--max-time S] [--max-nodes N] [--stats] [--json] [--trace LIST]\n\n"
    "Prints the count below each legal root move, sorted, then the total. The default\n"
    "lines have the shape of Stockfish's `go perft` (\"e2e4: 20\", a blank line,\n"
    "\"Nodes searched: N\") so the two can be diffed; --san writes moves in SAN, sorted\n"
    "by SAN (\"Na3 8885\"). Time, rate and status go to stderr. To find a wrong move path,\n"
    "divide, pick the move whose count differs, and divide again one ply lower with --moves.\n\n"
    "  -d, --depth N          depth in plies, 1..32 (default 5)\n" CLI_POSITION_HELP
    "      --san              SAN moves (\"Nf3 12345\") instead of UCI (\"g1f3: 12345\")\n" RUN_OPTIONS_HELP
    "                         With divide, --stats also counts, for each root move, what\n"
    "                         perft stats counts (captures, e.p., castles, promotions,\n"
    "                         checks, discovery and double checks, mates), hashed on the\n"
    "                         statistics tables, whose per-ply statistics follow.\n"
    "  -h, --help             this text\n\n"
    "Exit status: 0 counted, 2 bad input, 3 stopped by a limit (partial), 130 interrupted.\n";

static bool parse_trace(const char *command, const char *text, CountOptions *o) {
    char list[64];
    snprintf(list, sizeof list, "%s", text);
    for (char *save = NULL, *item = strtok_r(list, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        if (!strcmp(item, "it"))
            o->trace_iterations = true;
        else if (!strcmp(item, "pz"))
            o->trace_roots = true;
        else if (!strcmp(item, "tt"))
            o->trace_tables = true;
        else {
            cli_fail(command, "--trace: '%s' is not it, pz or tt", item);
            return false;
        }
    }
    return true;
}

/* Returns -1 to go on, or the exit status to end with. */
static int parse_options(int argc, char **argv, bool divide, CountOptions *o) {
    static const struct option long_options[] = {
        CLI_POSITION_OPTIONS,
        {"depth", required_argument, NULL, 'd'},         {"quiet", no_argument, NULL, 'q'},
        {"san", no_argument, NULL, OPT_SAN},             {"threads", required_argument, NULL, 't'},
        {"hash", required_argument, NULL, OPT_HASH},     {"max-time", required_argument, NULL, OPT_MAX_TIME},
        {"max-nodes", required_argument, NULL, OPT_MAX_NODES}, {"stats", no_argument, NULL, OPT_STATS},
        {"json", no_argument, NULL, OPT_JSON},           {"words", no_argument, NULL, OPT_WORDS},
        {"trace", required_argument, NULL, OPT_TRACE},   {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    const char *command = argv[0];
    memset(o, 0, sizeof *o);
    o->depth = 5;
    cli_default_run_settings(&o->run);
    cli_options_start();
    for (;;) {
        int c = getopt_long(argc, argv, ":d:t:qh", long_options, NULL);
        if (c == -1)
            break;
        if (cli_position_option(c, optarg, &o->position))
            continue;
        switch (c) {
        case 'd':
            if (!cli_parse_long(command, "depth", optarg, divide ? 1 : 0, PERFT_MAX_DEPTH, &o->depth))
                return EXIT_BAD_INPUT;
            break;
        case OPT_STATS: o->stats = true; break;
        case OPT_JSON: o->json = true; break;
        case OPT_TRACE:
            if (!parse_trace(command, optarg, o))
                return EXIT_BAD_INPUT;
            break;
        case 'q':
        case OPT_WORDS:
            if (divide)
                return cli_option_problem(command, '?', argv);
            *(c == 'q' ? &o->quiet : &o->words) = true;
            break;
        case OPT_SAN:
            if (!divide)
                return cli_option_problem(command, '?', argv);
            o->san = true;
            break;
        case 't':
        case OPT_HASH:
        case OPT_MAX_TIME:
        case OPT_MAX_NODES: {
            int option = c == 't' ? RUN_OPTION_THREADS : c == OPT_HASH ? RUN_OPTION_HASH
                       : c == OPT_MAX_TIME ? RUN_OPTION_MAX_TIME : RUN_OPTION_MAX_NODES;
            if (!cli_parse_run_option(command, option, optarg, &o->run))
                return EXIT_BAD_INPUT;
            break;
        }
        case 'h': printf(divide ? divide_help : count_help, driver_available_threads()); return EXIT_OK;
        default: return cli_option_problem(command, c, argv);
        }
    }
    return cli_finish_options(command, argc, argv, &o->position);
}

/* Where trace lines go: stdout, unless stdout carries the JSON document. */
typedef struct Tracer {
    FILE *out;
    double start;
    int done, of;
} Tracer;

static void trace_root(void *context, const Position *root, const RootCount *done) {
    Tracer *tracer = context;
    char uci[UCI_MOVE_SIZE], text[COUNT_TEXT_SIZE];
    tracer->done++;
    fprintf(tracer->out, "trace pz: %s: %s (%d/%d, %.3f s)\n", move_to_uci(root, done->move, uci),
            count_format(done->count, false, text), tracer->done, tracer->of, cli_now() - tracer->start);
    fflush(tracer->out);
}

static void print_json(const CountOptions *o, const char *command, const Position *pos, const Driver *driver,
                       const RunReport *run, const RunReport *iterations, int iteration_count) {
    char text[COUNT_TEXT_SIZE];
    MoveLine lines[MAX_MOVES];
    PlyStats stats[PERFT_MAX_DEPTH];
    int n = report_move_lines(pos, run, false, lines);
    int plies = report_ply_stats(driver->tables.memory ? &driver->tables : NULL, run, stats);
    report_json_open(stdout, command);
    report_json_position(stdout, pos);
    printf(",\n  \"depth\": %d,\n", run->depth);
    printf("  \"options\": {\"threads\": %d, \"hash_mb\": %ld, \"max_time\": ", run->threads, o->run.hash_mb);
    if (o->run.limits.max_seconds > 0)
        printf("%g", o->run.limits.max_seconds);
    else
        printf("null");
    printf(", \"max_nodes\": ");
    if (o->run.limits.max_nodes)
        printf("\"%s\"", count_format(o->run.limits.max_nodes, false, text));
    else
        printf("null");
    printf("},\n  \"status\": \"%s\",\n  \"complete\": %s,\n", run_status_text(run->status),
           run->complete ? "true" : "false");
    printf("  \"total\": \"%s\",\n", count_format(run->total, false, text));
    int finished = 0;
    for (int i = 0; i < n; i++)
        finished += lines[i].complete;
    printf("  \"root_moves\": %d,\n  \"completed_root_moves\": %d,\n  \"moves\": [", n, finished);
    for (int i = 0; i < n; i++) {
        char san[SAN_MOVE_SIZE];
        move_to_san(pos, move_parse_uci(pos, lines[i].uci), san);
        printf("%s\n    {\"uci\": \"%s\", \"san\": \"%s\", \"nodes\": ", i ? "," : "", lines[i].uci, san);
        if (lines[i].complete)
            printf("\"%s\", \"complete\": true}", count_format(lines[i].count, false, text));
        else
            printf("null, \"complete\": false}");
    }
    printf("%s],\n  \"tables\": [", n ? "\n  " : "");
    for (int i = 0; i < plies; i++) {
        const PlyStats *s = &stats[i];
        printf("%s\n    {\"ply\": %d, \"remaining_depth\": %d, \"slots\": %llu, \"probes\": %llu, \"matches\": %llu, "
               "\"match_rate\": %.6f, \"stores\": %llu, \"used\": %llu, \"fill\": %.6f, \"replacements\": %llu}",
               i ? "," : "", s->ply, s->remaining, (unsigned long long)s->slots, (unsigned long long)s->probes,
               (unsigned long long)s->matches, s->probes ? (double)s->matches / (double)s->probes : 0.0,
               (unsigned long long)s->stores, (unsigned long long)s->used,
               s->slots ? (double)s->used / (double)s->slots : 0.0, (unsigned long long)s->replacements);
    }
    printf("%s],\n", plies ? "\n  " : "");
    if (iteration_count) {
        printf("  \"iterations\": [");
        for (int i = 0; i < iteration_count; i++)
            printf("%s\n    {\"depth\": %d, \"total\": \"%s\", \"complete\": %s, \"seconds\": %.6f}", i ? "," : "",
                   iterations[i].depth, count_format(iterations[i].total, false, text),
                   iterations[i].complete ? "true" : "false", iterations[i].seconds);
        printf("\n  ],\n");
    }
    double leaves = count_to_double(run->total);
    printf("  \"seconds\": %.6f,\n  \"leaves_per_second\": %.1f,\n  \"ns_per_leaf\": ", run->seconds,
           run->seconds > 0 ? leaves / run->seconds : 0.0);
    if (leaves > 0)
        printf("%.6f\n}\n", run->seconds * 1e9 / leaves);
    else
        printf("null\n}\n");
}

static void print_partial_roots(const MoveLine *lines, int n, bool san) {
    char text[COUNT_TEXT_SIZE];
    for (int i = 0; i < n; i++)
        if (lines[i].complete)
            printf(san ? "%s %s\n" : "%s: %s\n", lines[i].move, count_format(lines[i].count, false, text));
}

static void print_text(const CountOptions *o, bool divide, const Position *pos, const Driver *driver,
                       const RunReport *run) {
    char text[COUNT_TEXT_SIZE];
    MoveLine lines[MAX_MOVES];
    int n = report_move_lines(pos, run, o->san, lines), finished = 0;
    for (int i = 0; i < n; i++)
        finished += lines[i].complete;
    char partial[96] = "";
    if (!run->complete)
        snprintf(partial, sizeof partial, " (partial: %d of %d root moves)", finished, n);
    FILE *side = divide ? stderr : stdout; /* divide keeps stdout in Stockfish's shape */
    if (o->quiet) {
        printf("%s\n", count_format(run->total, false, text));
        if (!run->complete)
            fprintf(stderr, "perft count: partial total, %s\n", run_status_text(run->status));
        return;
    }
    if (divide || !run->complete)
        print_partial_roots(lines, n, o->san);
    if (divide)
        printf("\nNodes searched: %s%s\n", count_format(run->total, false, text), partial);
    else
        printf("perft(%d) %s %s%s\n", run->depth, run->complete ? "=" : ">=", count_format(run->total, false, text),
               partial);
    if (o->words) {
        char words[COUNT_WORDS_SIZE];
        printf("%s\n", count_words(run->total, words));
    }
    cli_print_rate(side, run->total, run->seconds);
    fprintf(side, "status: %s\n", run_status_text(run->status));
    if (o->stats) {
        PlyStats stats[PERFT_MAX_DEPTH];
        int plies = report_ply_stats(driver->tables.memory ? &driver->tables : NULL, run, stats);
        report_print_ply_stats(stdout, stats, plies);
    }
}

static int exit_status(const RunReport *run) {
    switch (run->status) {
    case RUN_INTERRUPTED: return EXIT_INTERRUPTED;
    case RUN_TIME_LIMIT:
    case RUN_NODE_LIMIT: return EXIT_PARTIAL;
    default: return EXIT_OK;
    }
}

typedef struct StatsLine {
    char move[SAN_MOVE_SIZE];
    char uci[UCI_MOVE_SIZE];
    LeafStats stats;
} StatsLine;

static int compare_stats_lines(const void *a, const void *b) {
    return strcmp(((const StatsLine *)a)->move, ((const StatsLine *)b)->move);
}

/* divide --stats: the wiki's counters for each root move, then the statistics tables. */
static int divide_stats(CountOptions *o, const Position *pos) {
    if (o->run.limits.max_seconds > 0 || o->run.limits.max_nodes)
        return cli_fail("divide", "--stats counts statistics, which take no --max-time or --max-nodes");
    if (o->depth > STATS_MAX_DEPTH)
        return cli_fail("divide", "--stats counts to depth %d at most", STATS_MAX_DEPTH);
    StatsTables *tables;
    int threads;
    if (!cli_create_stats_tables("divide", &o->run, (int)o->depth, &tables, &threads))
        return EXIT_BAD_INPUT;
    Move moves[MAX_MOVES];
    LeafStats per_move[MAX_MOVES], total;
    TableCounters counters[STATS_MAX_DEPTH + 1];
    memset(counters, 0, sizeof counters);
    memset(&total, 0, sizeof total);
    double start = cli_now();
    int n = stats_divide(pos, (int)o->depth, threads, tables, moves, per_move, counters);
    double seconds = cli_now() - start;
    StatsLine lines[MAX_MOVES];
    for (int i = 0; i < n; i++) {
        move_to_uci(pos, moves[i], lines[i].uci);
        if (o->san)
            move_to_san(pos, moves[i], lines[i].move);
        else
            memcpy(lines[i].move, lines[i].uci, sizeof lines[i].uci);
        lines[i].stats = per_move[i];
        for (int f = 0; f < STATS_FIELDS; f++)
            total.field[f] += per_move[i].field[f];
    }
    qsort(lines, (size_t)n, sizeof lines[0], compare_stats_lines);
    PlyStats plies[STATS_MAX_DEPTH];
    int ply_count = stats_ply_stats(tables, (int)o->depth, counters, plies);
    if (o->json) {
        report_json_open(stdout, "divide");
        report_json_position(stdout, pos);
        printf(",\n  \"depth\": %ld,\n  \"options\": {\"threads\": %d, \"hash_mb\": %ld},\n", o->depth, threads,
               o->run.hash_mb);
        printf("  \"status\": \"completed\",\n  \"complete\": true,\n  \"total\": \"%llu\",\n  \"stats\": {",
               (unsigned long long)total.field[STAT_NODES]);
        stats_print_json_fields(stdout, &total);
        printf("},\n  \"moves\": [");
        for (int i = 0; i < n; i++) {
            char san[SAN_MOVE_SIZE];
            move_to_san(pos, move_parse_uci(pos, lines[i].uci), san);
            printf("%s\n    {\"uci\": \"%s\", \"san\": \"%s\", \"nodes\": \"%llu\", \"complete\": true, \"stats\": {",
                   i ? "," : "", lines[i].uci, san, (unsigned long long)lines[i].stats.field[STAT_NODES]);
            stats_print_json_fields(stdout, &lines[i].stats);
            printf("}}");
        }
        printf("%s],\n  \"tables\": [", n ? "\n  " : "");
        for (int i = 0; i < ply_count; i++)
            printf("%s\n    {\"ply\": %d, \"remaining_depth\": %d, \"slots\": %llu, \"probes\": %llu, "
                   "\"matches\": %llu, \"stores\": %llu, \"used\": %llu, \"replacements\": %llu}",
                   i ? "," : "", plies[i].ply, plies[i].remaining, (unsigned long long)plies[i].slots,
                   (unsigned long long)plies[i].probes, (unsigned long long)plies[i].matches,
                   (unsigned long long)plies[i].stores, (unsigned long long)plies[i].used,
                   (unsigned long long)plies[i].replacements);
        printf("%s],\n  \"seconds\": %.6f\n}\n", ply_count ? "\n  " : "", seconds);
    } else {
        stats_print_header(stdout, "move");
        for (int i = 0; i < n; i++)
            stats_print_row(stdout, lines[i].move, &lines[i].stats);
        stats_print_row(stdout, "total", &total);
        report_print_ply_stats(stdout, plies, ply_count);
        cli_print_rate(stderr, total.field[STAT_NODES], seconds);
    }
    stats_tables_destroy(tables);
    return EXIT_OK;
}

static int run_command(int argc, char **argv, bool divide) {
    CountOptions o;
    Position pos;
    int status = parse_options(argc, argv, divide, &o);
    if (status >= 0)
        return status;
    if (!cli_setup_position(argv[0], &o.position, &pos))
        return EXIT_BAD_INPUT;
    if (divide && o.stats)
        return divide_stats(&o, &pos);
    Driver driver;
    if (!cli_create_driver(argv[0], &o.run, (int)o.depth, &driver))
        return EXIT_BAD_INPUT;
    o.run.limits.interrupt = cli_catch_interrupt();

    Tracer tracer = {o.json ? stderr : stdout, cli_now(), 0, 0};
    RunHooks hooks = {.root_done = o.trace_roots ? trace_root : NULL,
                      .progress = !o.quiet && !o.json && isatty(STDERR_FILENO) ? cli_draw_progress : NULL,
                      .context = &tracer};
    static RunReport iterations[PERFT_MAX_DEPTH + 1];
    int iteration_count = 0;
    RunReport run;
    for (int depth = o.trace_iterations ? 1 : (int)o.depth; depth <= o.depth; depth++) {
        tracer.done = 0;
        tracer.of = 0;
        tracer.start = cli_now();
        MoveList roots;
        tracer.of = gen_legal(&pos, &roots);
        driver_run(&driver, &pos, depth, &o.run.limits, &hooks, &run);
        if (o.trace_iterations) {
            char text[COUNT_TEXT_SIZE];
            iterations[iteration_count++] = run;
            fprintf(tracer.out, "trace it: perft(%d) %s %s   %.3f s\n", depth, run.complete ? "=" : ">=",
                    count_format(run.total, false, text), run.seconds);
        }
        if (o.trace_tables) {
            PlyStats stats[PERFT_MAX_DEPTH];
            int plies = report_ply_stats(driver.tables.memory ? &driver.tables : NULL, &run, stats);
            fprintf(tracer.out, "trace tt: depth %d\n", depth);
            report_print_ply_stats(tracer.out, stats, plies);
        }
        if (!run.complete && run.status != RUN_NO_MOVES)
            break;
    }
    if (o.json)
        print_json(&o, argv[0], &pos, &driver, &run, iterations, iteration_count);
    else
        print_text(&o, divide, &pos, &driver, &run);
    fflush(stdout);
    driver_destroy(&driver);
    return exit_status(&run);
}

int cmd_count(int argc, char **argv) { return run_command(argc, argv, false); }

int cmd_divide(int argc, char **argv) { return run_command(argc, argv, true); }
