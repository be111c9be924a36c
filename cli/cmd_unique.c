/* cmd_unique.c — `perft unique`: distinct positions at every ply. */
#include <string.h>

#include "../perft/clock.h"
#include "../perft/unique.h"
#include "commands.h"
#include "report.h"

typedef struct UniqueOptions {
    PositionOptions position;
    long depth;
    RunOptions run;
    bool json;
} UniqueOptions;

static const CliSpec unique_spec = {
    .summary = "Counts the distinct positions at every ply 1..N below the position. Every ply has\n"
               "an exact set of full 128-bit keys that grows as needed (no entry is ever dropped),\n"
               "and each distinct position is expanded once per ply; the memory used is reported.\n"
               "Two positions are the same when they agree in placement, side to move, castling\n"
               "rights (and their rooks) and the e.p. square; an e.p. square counts only where a\n"
               "legal e.p. capture exists (a pawn that attacks it but is pinned does not count).\n"
               "Clocks are ignored. Start position, plies 1-6: 20, 400, 5362, 72078, 822518, 9417681.\n",
    .epilogue = "--hash bounds the position sets, all plies together (16 bytes a position, tables\n"
                "kept at most three quarters full): a run that needs more stops with an error\n"
                "naming the ply, never a partial count. The start position needs about 0.3 GB\n"
                "to ply 6 and 2.5 GB to ply 7; ply 8 would take some 40 GB.\n"
                "-t: from depth 5, threads share the walk below the distinct positions of ply 3;\n"
                "the counts are the same at any thread count.\n\n"
                "Example: perft unique -d 5   the distinct positions of plies 1 to 5 (822518 at ply 5)\n"
                "Exit status: 0 counted, 2 bad input, or the sets needed more memory than given.\n",
};

/* --hash as unique reads it: a bound on the sets, not a table size. */
#define UNIQUE_OPT_HASH(r)                                                                                   \
    {.name = "hash", .kind = CLI_MB, .value = CLI_VALUE(long *, &(r)->hash_mb), .arg = "MB",                 \
     .help = "memory the position sets may use, all plies together", .default_text = "the memory free now"}

/* Returns CLI_CONTINUE to go on, or the exit status to end with. */
static int parse_options(Cli *cli, int argc, char **argv, UniqueOptions *o) {
    memset(o, 0, sizeof *o);
    o->depth = 5;
    cli_run_defaults(&o->run);
    const CliOption options[] = {
        CLI_OPT_DEPTH(&o->depth, 1, UNIQUE_MAX_DEPTH,
                      "deepest ply (12 as for perft stats; memory ends a run\nfirst, see below)"),
        CLI_OPTS_POSITION(&o->position),
        CLI_OPT_THREADS(&o->run),
        UNIQUE_OPT_HASH(&o->run),
        CLI_OPT_KEY_SEED(&o->run),
        CLI_OPT_JSON(&o->json),
        CLI_OPT_END,
    };
    return cli_parse(cli, &unique_spec, options, argc, argv, NULL);
}

int cmd_unique(Cli *cli, int argc, char **argv) {
    UniqueOptions o;
    Position pos;
    int status = parse_options(cli, argc, argv, &o);
    if (status != CLI_CONTINUE)
        return status;
    if (!cli_keyed_position(cli, &o.position, &o.run, &pos))
        return EXIT_BAD_INPUT;
    if (o.run.hash_mb < 0)
        o.run.hash_mb = cli_memory_mb(true);
    UniqueReport report;
    char error[200];
    double start = clock_seconds();
    if (!unique_count(&pos, (int)o.depth, (int)o.run.threads, (size_t)o.run.hash_mb << 20, &report, error,
                      sizeof error))
        return cli_error(cli, "-d %ld --hash %ld: %s", o.depth, o.run.hash_mb, error);
    double seconds = clock_seconds() - start;
    if (o.json) {
        json_t *doc = json_document(cli->command, REPORT_JSON_SCHEMA), *plies = json_array();
        json_set(doc, "position", json_position(&pos));
        json_set(doc, "depth", json_integer(o.depth));
        json_set(doc, "options", report_options_json(&o.run, report.threads));
        for (int ply = 1; ply <= o.depth; ply++) {
            json_t *p = json_object();
            json_set(p, "ply", json_integer(ply));
            json_set(p, "positions", json_integer((json_int_t)report.positions[ply]));
            json_set(p, "set_bytes", json_integer((json_int_t)report.bytes[ply]));
            json_append(plies, p);
        }
        json_set(doc, "plies", plies);
        json_set(doc, "peak_bytes", json_integer((json_int_t)report.peak_bytes));
        json_set(doc, "seconds", json_real(seconds));
        return cli_finish_output(cli, json_write(cli->out, doc));
    }
    char text[COUNT_TEXT_SIZE];
    fprintf(cli->out, "%-6s %16s %12s\n", "ply", "positions", "set memory");
    for (int ply = 1; ply <= o.depth; ply++)
        fprintf(cli->out, "%-6d %16s %9.1f MB\n", ply, count_format(report.positions[ply], false, text),
                (double)report.bytes[ply] / 1048576.0);
    fprintf(cli->out, "peak memory %.1f MB, time %.3f s\n", (double)report.peak_bytes / 1048576.0, seconds);
    return cli_flush(cli);
}
