/* cmd_count.c — `perft count` and `perft divide`: one position, one depth, on the
 * parallel hashed driver, with limits, traces, statistics and JSON. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../perft/clock.h"
#include "../perft/driver.h"
#include "../perft/stats.h"
#include "commands.h"
#include "report.h"

enum { TRACE_ITERATIONS = 1, TRACE_ROOTS = 2, TRACE_TABLES = 4 };

typedef struct CountOptions {
    PositionOptions position;
    long depth;
    RunOptions run;
    bool quiet, san, stats, json, words;
    unsigned trace;
} CountOptions;

#define HASH_HELP                                                                              \
    "--hash: by default a quarter of the free memory, at most 4 MB at depth 4, 16 at 5,\n"     \
    "64 at 6, 256 at 7 and 1024 from 8; none below 4; with --max-time S, at most 64 MB\n"     \
    "per second of S. One table per ply: the deepest hashed ply (two plies above the\n"       \
    "leaves, where most distinct positions are) takes the largest power of two within\n"      \
    "two thirds of the memory, the ply above it the same of what is left, and so on. The\n"   \
    "last two plies are never looked up: counting them is cheaper than a cache miss.\n"

static const CliSpec count_spec = {
    .summary = "Counts the leaves of the legal move tree of a position to depth N (perft N) and\n"
               "prints the total, the time, the rate (leaves per second) and the period (ns per\n"
               "leaf), and how the run ended. Depth 1 is bulk-counted: no move is made.\n",
    .epilogue = HASH_HELP "\nExample: perft count -d 6 --startpos   prints perft(6) = 119060324\n"
                "Exit status: 0 counted, 2 bad input, 3 stopped by --max-time or --max-nodes (partial),\n"
                "130 interrupted by Ctrl-C (partial; the finished root moves are printed).\n",
};

static const CliSpec divide_spec = {
    .summary = "Prints the count below each legal root move, sorted, then the total. The default\n"
               "lines have the shape of Stockfish's `go perft` (\"e2e4: 20\", a blank line,\n"
               "\"Nodes searched: N\") so the two can be diffed; --san writes moves in SAN, sorted\n"
               "by SAN (\"Na3 8885\"). Time, rate and status go to stderr. To find a wrong move path,\n"
               "divide, pick the move whose count differs, and divide again one ply lower with --moves.\n",
    .epilogue = HASH_HELP "\nExample: perft divide -d 3 --moves e2e4   the 20 replies to 1. e4 and their counts\n"
                "Exit status: 0 counted, 2 bad input, 3 stopped by a limit (partial), 130 interrupted.\n",
};

/* Returns CLI_CONTINUE to go on, or the exit status to end with. */
static int parse_options(Cli *cli, int argc, char **argv, bool divide, CountOptions *o) {
    memset(o, 0, sizeof *o);
    o->depth = 5;
    cli_run_defaults(&o->run);
    const CliOption common[] = {
        CLI_OPT_DEPTH(&o->depth, divide ? 1 : 0, CLI_MAX_DEPTH, "depth in plies"),
        CLI_OPTS_POSITION(&o->position),
        CLI_OPTS_RUN(&o->run),
        CLI_OPTS_LIMITS(&o->run),
        CLI_OPT_FLAG("stats", 0, &o->stats,
                     divide ? "also count, for each root move, what perft stats counts\n(captures, e.p., castles, "
                              "promotions, checks, discovery and\ndouble checks, mates) on the statistics tables, "
                              "then their\nper-ply statistics"
                            : "per-ply table statistics after the run: C slots, P probes,\nM matches, R match rate, "
                              "S stores, U used slots, F fill,\nX replacements"),
        CLI_OPT_JSON(&o->json),
        CLI_OPT_LIST("trace", "LIST", &o->trace, "it|pz|tt",
                     "it counts depths 1..N and prints each total; pz prints\neach root move as it completes; tt "
                     "prints the table\nstatistics after each depth"),
        CLI_OPT_END,
    };
    const CliOption count_only[] = {
        CLI_OPT_FLAG("words", 0, &o->words, "also print the total in English words"),
        CLI_OPT_QUIET(&o->quiet, "print the count only"),
        CLI_OPT_END,
    };
    const CliOption divide_only[] = {
        CLI_OPT_FLAG("san", 0, &o->san, "SAN moves (\"Nf3 12345\") instead of UCI (\"g1f3: 12345\")"),
        CLI_OPT_END,
    };
    enum { COMMON = sizeof common / sizeof common[0] - 1 };
    CliOption options[COMMON + 3];
    memcpy(options, common, COMMON * sizeof common[0]);
    memcpy(options + COMMON, divide ? divide_only : count_only, (divide ? 2 : 3) * sizeof common[0]);
    return cli_parse(cli, divide ? &divide_spec : &count_spec, options, argc, argv, NULL);
}

/* Where trace lines go: stdout, unless stdout carries the JSON document. */
typedef struct Tracer {
    FILE *out;
    double start;
    int done, of;
    FILE *err; /* where progress is drawn */
} Tracer;

static void show_progress(void *context, const RunProgress *progress) {
    cli_draw_progress(((Tracer *)context)->err, progress);
}

static void trace_root(void *context, const Position *root, const RootCount *done) {
    Tracer *tracer = context;
    char uci[UCI_MOVE_SIZE], text[COUNT_TEXT_SIZE];
    tracer->done++;
    fprintf(tracer->out, "trace pz: %s: %s (%d/%d, %.3f s)\n", move_to_uci(root, done->move, uci),
            count_format(done->count, false, text), tracer->done, tracer->of, clock_seconds() - tracer->start);
    fflush(tracer->out);
}

static bool print_json(Cli *cli, const CountOptions *o, const Position *pos, const Driver *driver,
                       const RunReport *run, const RunReport *iterations, int iteration_count) {
    MoveLine lines[MAX_MOVES];
    PlyStats stats[PERFT_MAX_DEPTH];
    int n = report_move_lines(pos, run, false, lines), finished = 0;
    int plies = report_ply_stats(driver->tables.memory ? &driver->tables : NULL, run, stats);
    json_t *doc = json_document(cli->command, REPORT_JSON_SCHEMA);
    json_set(doc, "position", json_position(pos));
    json_set(doc, "depth", json_integer(run->depth));
    json_set(doc, "options", report_options_json(&o->run, run->threads));
    json_set(doc, "status", json_string(run_status_text(run->status)));
    json_set(doc, "complete", json_boolean(run->complete));
    json_set(doc, "total", json_count(run->total));
    json_t *moves = json_array();
    for (int i = 0; i < n; i++) {
        char san[SAN_MOVE_SIZE];
        json_t *m = json_object();
        finished += lines[i].complete;
        json_set(m, "uci", json_string(lines[i].uci));
        json_set(m, "san", json_string(move_to_san(pos, move_parse_uci(pos, lines[i].uci), san)));
        json_set(m, "nodes", lines[i].complete ? json_count(lines[i].count) : json_null());
        json_set(m, "complete", json_boolean(lines[i].complete));
        json_array_append_new(moves, m);
    }
    json_set(doc, "root_moves", json_integer(n));
    json_set(doc, "completed_root_moves", json_integer(finished));
    json_set(doc, "moves", moves);
    json_set(doc, "tables", json_ply_stats(stats, plies));
    if (iteration_count) {
        json_t *list = json_array();
        for (int i = 0; i < iteration_count; i++) {
            json_t *it = json_object();
            json_set(it, "depth", json_integer(iterations[i].depth));
            json_set(it, "total", json_count(iterations[i].total));
            json_set(it, "complete", json_boolean(iterations[i].complete));
            json_set(it, "seconds", json_real(iterations[i].seconds));
            json_array_append_new(list, it);
        }
        json_set(doc, "iterations", list);
    }
    double leaves = count_to_double(run->total);
    json_set(doc, "seconds", json_real(run->seconds));
    json_set(doc, "leaves_per_second", json_real(run->seconds > 0 ? leaves / run->seconds : 0.0));
    json_set(doc, "ns_per_leaf", json_real_or_null(leaves > 0 ? run->seconds * 1e9 / leaves : 0, leaves > 0));
    return json_write(cli->out, doc);
}

static void print_text(Cli *cli, const CountOptions *o, bool divide, const Position *pos, const Driver *driver,
                       const RunReport *run) {
    char text[COUNT_TEXT_SIZE];
    MoveLine lines[MAX_MOVES];
    int n = report_move_lines(pos, run, o->san, lines), finished = 0;
    for (int i = 0; i < n; i++)
        finished += lines[i].complete;
    char partial[96] = "";
    if (!run->complete)
        snprintf(partial, sizeof partial, " (partial: %d of %d root moves)", finished, n);
    FILE *out = cli->out, *side = divide ? cli->err : out; /* divide keeps stdout in Stockfish's shape */
    if (o->quiet) {
        fprintf(out, "%s\n", count_format(run->total, false, text));
        if (!run->complete)
            fprintf(cli->err, "perft %s: partial total, %s\n", cli->command, run_status_text(run->status));
        return;
    }
    if (divide || !run->complete)
        for (int i = 0; i < n; i++)
            if (lines[i].complete)
                fprintf(out, o->san ? "%s %s\n" : "%s: %s\n", lines[i].move, count_format(lines[i].count, false, text));
    if (divide)
        fprintf(out, "\nNodes searched: %s%s\n", count_format(run->total, false, text), partial);
    else
        fprintf(out, "perft(%d) %s %s%s\n", run->depth, run->complete ? "=" : ">=",
                count_format(run->total, false, text), partial);
    if (o->words) {
        char words[COUNT_WORDS_SIZE];
        fprintf(out, "%s\n", count_words(run->total, words));
    }
    cli_print_rate(side, run->total, run->seconds);
    fprintf(side, "status: %s\n", run_status_text(run->status));
    if (o->stats) {
        PlyStats stats[PERFT_MAX_DEPTH];
        int plies = report_ply_stats(driver->tables.memory ? &driver->tables : NULL, run, stats);
        report_print_ply_stats(out, stats, plies);
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
static int divide_stats(Cli *cli, CountOptions *o, const Position *pos) {
    if (o->run.max_seconds > 0 || o->run.max_nodes)
        return cli_error(cli, "--stats counts statistics, which take no --max-time or --max-nodes");
    if (o->depth > STATS_MAX_DEPTH)
        return cli_error(cli, "--depth %ld is out of range 1..%d with --stats", o->depth, STATS_MAX_DEPTH);
    StatsTables *tables;
    int threads;
    if (!cli_stats_tables(cli, &o->run, (int)o->depth, &tables, &threads))
        return EXIT_BAD_INPUT;
    Move moves[MAX_MOVES];
    LeafStats per_move[MAX_MOVES], total;
    TableCounters counters[STATS_MAX_DEPTH + 1];
    memset(counters, 0, sizeof counters);
    memset(&total, 0, sizeof total);
    double start = clock_seconds();
    int n = stats_divide(pos, (int)o->depth, threads, tables, moves, per_move, counters);
    double seconds = clock_seconds() - start;
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
    stats_tables_destroy(tables);
    if (o->json) {
        json_t *doc = json_document(cli->command, REPORT_JSON_SCHEMA);
        json_set(doc, "position", json_position(pos));
        json_set(doc, "depth", json_integer(o->depth));
        json_set(doc, "options", report_options_json(&o->run, threads));
        json_set(doc, "status", json_string("completed"));
        json_set(doc, "complete", json_true());
        json_set(doc, "total", json_count(total.field[STAT_NODES]));
        json_set(doc, "stats", report_stats_json(&total));
        json_t *list = json_array();
        for (int i = 0; i < n; i++) {
            char san[SAN_MOVE_SIZE];
            json_t *m = json_object();
            json_set(m, "uci", json_string(lines[i].uci));
            json_set(m, "san", json_string(move_to_san(pos, move_parse_uci(pos, lines[i].uci), san)));
            json_set(m, "nodes", json_count(lines[i].stats.field[STAT_NODES]));
            json_set(m, "complete", json_true());
            json_set(m, "stats", report_stats_json(&lines[i].stats));
            json_array_append_new(list, m);
        }
        json_set(doc, "moves", list);
        json_set(doc, "tables", json_ply_stats(plies, ply_count));
        json_set(doc, "seconds", json_real(seconds));
        return json_write(cli->out, doc) ? EXIT_OK : cli_write_failed(cli);
    }
    report_stats_header(cli->out, "move");
    for (int i = 0; i < n; i++)
        report_stats_row(cli->out, lines[i].move, &lines[i].stats);
    report_stats_row(cli->out, "total", &total);
    report_print_ply_stats(cli->out, plies, ply_count);
    cli_print_rate(cli->err, total.field[STAT_NODES], seconds);
    return cli_flush(cli);
}

static int run_command(Cli *cli, int argc, char **argv, bool divide) {
    CountOptions o;
    Position pos;
    int status = parse_options(cli, argc, argv, divide, &o);
    if (status != CLI_CONTINUE)
        return status;
    if (!cli_position(cli, &o.position, &pos))
        return EXIT_BAD_INPUT;
    cli_use_keys(cli, &o.run, &pos);
    if (divide && o.stats)
        return divide_stats(cli, &o, &pos);
    Driver driver;
    if (!cli_driver(cli, &o.run, (int)o.depth, &driver))
        return EXIT_BAD_INPUT;
    RunLimits limits = cli_limits(&o.run);

    Tracer tracer = {o.json ? cli->err : cli->out, clock_seconds(), 0, 0, cli->err};
    RunHooks hooks = {.root_done = (o.trace & TRACE_ROOTS) ? trace_root : NULL,
                      .progress = !o.quiet && !o.json && cli_is_terminal(cli->err) ? show_progress : NULL,
                      .context = &tracer};
    RunReport *iterations = calloc(PERFT_MAX_DEPTH + 1, sizeof *iterations);
    if (!iterations) {
        driver_destroy(&driver);
        return cli_error(cli, "out of memory");
    }
    int iteration_count = 0;
    RunReport run;
    for (int depth = (o.trace & TRACE_ITERATIONS) ? 1 : (int)o.depth; depth <= o.depth; depth++) {
        tracer.done = 0;
        tracer.start = clock_seconds();
        MoveList roots;
        tracer.of = gen_legal(&pos, &roots);
        cli->run(&driver, &pos, depth, &limits, &hooks, &run);
        if (o.trace & TRACE_ITERATIONS) {
            char text[COUNT_TEXT_SIZE];
            iterations[iteration_count++] = run;
            fprintf(tracer.out, "trace it: perft(%d) %s %s   %.3f s\n", depth, run.complete ? "=" : ">=",
                    count_format(run.total, false, text), run.seconds);
        }
        if (o.trace & TRACE_TABLES) {
            PlyStats stats[PERFT_MAX_DEPTH];
            int plies = report_ply_stats(driver.tables.memory ? &driver.tables : NULL, &run, stats);
            fprintf(tracer.out, "trace tt: depth %d\n", depth);
            report_print_ply_stats(tracer.out, stats, plies);
        }
        if (!run.complete && run.status != RUN_NO_MOVES)
            break;
    }
    bool written = true;
    if (o.json)
        written = print_json(cli, &o, &pos, &driver, &run, iterations, iteration_count);
    else
        print_text(cli, &o, divide, &pos, &driver, &run);
    free(iterations);
    driver_destroy(&driver);
    if (!written || cli_flush(cli) != EXIT_OK)
        return cli_write_failed(cli);
    return exit_status(&run);
}

int cmd_count(Cli *cli, int argc, char **argv) { return run_command(cli, argc, argv, false); }

int cmd_divide(Cli *cli, int argc, char **argv) { return run_command(cli, argc, argv, true); }
