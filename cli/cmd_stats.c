/* cmd_stats.c — `perft stats`: the wiki's perft statistics and the Grand Chess Tree's
 * check classes at every depth 1..N, within the run's limits. */
#include <string.h>

#include "../perft/clock.h"
#include "../perft/stats.h"
#include "commands.h"
#include "report.h"

typedef struct StatsOptions {
    PositionOptions position;
    long depth;
    RunOptions run;
    bool json;
} StatsOptions;

static const CliSpec stats_spec = {
    .summary = "Counts, for every depth 1..N, what the chessprogramming wiki's Perft Results tables\n"
               "count of the last move into each leaf: nodes, captures (e.p. included), e.p.\n"
               "captures, castles, promotions, checks (mates included), discovery checks (single\n"
               "checks by a man other than the one that moved; the rook, for castling), double\n"
               "checks, and checkmates. Then the Grand Chess Tree's classes of every check, each\n"
               "as a check that is not mate (chk) and as a mate: direct (by the man that moved\n"
               "alone), disc (single discovered: by one other man), dir+disc (the man that moved\n"
               "and another), dbl disc (two others). The wiki's checks are the sum of the eight,\n"
               "its mates the sum of the four mates. `perft divide --stats` gives the same per\n"
               "root move.\n",
    .epilogue = "Hashing applies: a table per remaining depth, down to the last ply, holds each\n"
                "position's whole statistics vector (112-byte entries, a check word over key and\n"
                "vector). --hash: by default as for perft count at depth N.\n\n"
                "--max-time and --max-nodes count the whole run, all depths together. A stopped run\n"
                "prints the depths it finished, each exact (a depth is never printed in part), then\n"
                "\"partial: ...\" and why.\n\n"
                "Example: perft stats -d 5   the wiki's table of the start position to depth 5\n"
                "Exit status: 0 counted, 2 bad input, 3 stopped by --max-time or --max-nodes (partial),\n"
                "130 interrupted by Ctrl-C, SIGTERM or SIGHUP (partial; the finished depths are\n"
                "printed).\n",
};

/* Returns CLI_CONTINUE to go on, or the exit status to end with. */
static int parse_options(Cli *cli, int argc, char **argv, StatsOptions *o) {
    memset(o, 0, sizeof *o);
    o->depth = 5;
    cli_run_defaults(&o->run);
    const CliOption options[] = {
        CLI_OPT_DEPTH(&o->depth, 1, STATS_MAX_DEPTH, "deepest depth (64-bit counters suffice to 12)"),
        CLI_OPTS_POSITION(&o->position),
        CLI_OPTS_RUN(&o->run),
        CLI_OPTS_LIMITS(&o->run),
        CLI_OPT_JSON(&o->json),
        CLI_OPT_END,
    };
    return cli_parse(cli, &stats_spec, options, argc, argv, NULL);
}

/* The limits left for the next depth, after `seconds` and `leaves` spent; false (with
 * the reason) when one is used up already. */
static bool limits_left(const RunLimits *whole, double seconds, Count leaves, RunLimits *left, RunStatus *why) {
    *left = *whole;
    if (run_interrupted(whole))
        return *why = RUN_INTERRUPTED, false;
    if (whole->max_seconds > 0) {
        if (seconds >= whole->max_seconds)
            return *why = RUN_TIME_LIMIT, false;
        left->max_seconds = whole->max_seconds - seconds;
    }
    if (whole->max_nodes) {
        if (leaves >= whole->max_nodes)
            return *why = RUN_NODE_LIMIT, false;
        left->max_nodes = whole->max_nodes - leaves;
    }
    return true;
}

static int exit_status(RunStatus status) {
    switch (status) {
    case RUN_INTERRUPTED: return EXIT_INTERRUPTED;
    case RUN_TIME_LIMIT:
    case RUN_NODE_LIMIT: return EXIT_PARTIAL;
    default: return EXIT_OK;
    }
}

int cmd_stats(Cli *cli, int argc, char **argv) {
    StatsOptions o;
    Position pos;
    int status = parse_options(cli, argc, argv, &o);
    if (status != CLI_CONTINUE)
        return status;
    if (!cli_keyed_position(cli, &o.position, &o.run, &pos))
        return EXIT_BAD_INPUT;
    StatsTables *tables;
    int threads;
    if (!cli_stats_tables(cli, &o.run, (int)o.depth, &tables, &threads))
        return EXIT_BAD_INPUT;
    RunLimits limits = cli_limits(&o.run);

    json_t *depths = o.json ? json_array() : NULL;
    if (!o.json)
        report_stats_header(cli->out, "depth");
    RunStatus run_status = RUN_COMPLETED;
    Count leaves = 0;
    int finished = 0;
    double start = clock_seconds();
    for (int d = 1; d <= o.depth; d++) {
        RunLimits left;
        double begun = clock_seconds();
        if (!limits_left(&limits, begun - start, leaves, &left, &run_status))
            break;
        LeafStats s;
        run_status = cli->stats(&pos, d, threads, tables, &left, &s);
        if (run_status != RUN_COMPLETED)
            break;
        finished = d;
        leaves += s.field[STAT_NODES];
        if (o.json) {
            json_t *row = json_object();
            json_set(row, "depth", json_integer(d));
            json_merge(row, report_stats_json(&s));
            json_set(row, "seconds", json_real(clock_seconds() - begun));
            json_append(depths, row);
        } else {
            char label[8];
            snprintf(label, sizeof label, "%d", d);
            report_stats_row(cli->out, label, &s);
            fflush(cli->out); /* each depth as it finishes: the deep ones take minutes */
        }
    }
    double seconds = clock_seconds() - start;
    stats_tables_destroy(tables);
    bool complete = run_status == RUN_COMPLETED;
    if (o.json) {
        json_t *doc = json_document(cli->command, REPORT_JSON_SCHEMA);
        json_set(doc, "position", json_position(&pos));
        json_set(doc, "depth", json_integer(o.depth));
        json_set(doc, "options", report_options_json(&o.run, stats_threads((int)o.depth, threads)));
        json_set(doc, "status", json_string(run_status_text(run_status)));
        json_set(doc, "complete", json_boolean(complete));
        json_set(doc, "depths", depths);
        json_set(doc, "seconds", json_real(seconds));
        if (!json_write(cli->out, doc))
            return cli_finish_output(cli, false);
    } else {
        if (!complete) {
            if (finished)
                fprintf(cli->out, "partial: depths 1..%d of 1..%ld (%s)\n", finished, o.depth,
                        run_status_text(run_status));
            else
                fprintf(cli->out, "partial: no depth of 1..%ld finished (%s)\n", o.depth, run_status_text(run_status));
        }
        cli_print_rate(cli->err, leaves, seconds);
        fprintf(cli->err, "status: %s\n", run_status_text(run_status));
    }
    status = cli_flush(cli);
    if (status == EXIT_OK && run_status == RUN_NO_MEMORY)
        return cli_error(cli, "out of memory at depth %d: the depths above it are exact", finished + 1);
    return status != EXIT_OK ? status : exit_status(run_status);
}
