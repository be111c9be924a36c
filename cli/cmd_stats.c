/* cmd_stats.c — `perft stats`: the wiki's perft statistics and the Grand Chess Tree's
 * check classes at every depth 1..N, within the run's limits. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../io/journal.h"
#include "../io/terminal.h"
#include "../io/text.h"
#include "../perft/clock.h"
#include "../perft/stats.h"
#include "commands.h"
#include "report.h"

typedef struct StatsOptions {
    PositionOptions position;
    long depth;
    RunOptions run;
    bool json;
    const char *journal, *resume; /* NULL: none */
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
                "Each depth from 2 on is counted as work units: the distinct positions a few plies\n"
                "below the root (depth - 5, 1 to 3), each once, weighted by its paths. --journal\n"
                "FILE writes each unit's statistics to FILE as it finishes (README \"Journal\n"
                "format\"), so a stopped or killed run resumes with --resume FILE: the depths and\n"
                "units in the journal are not counted again. Under perft-mpi, rank 0 keeps the\n"
                "journal, and a job resumes it with any number of ranks. On a terminal, stderr shows\n"
                "the depth being counted: units done, leaves, rate and ETA.\n\n"
                "Example: perft stats -d 5   the wiki's table of the start position to depth 5\n"
                "Exit status: 0 counted, 2 bad input or a journal that cannot be read or written,\n"
                "3 stopped by --max-time or --max-nodes (partial), 130 interrupted by Ctrl-C,\n"
                "SIGTERM or SIGHUP (partial; the finished depths are printed; a journaled run can\n"
                "be resumed).\n",
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
        CLI_OPT_STRING("journal", 0, "FILE", &o->journal,
                       "write each finished unit's statistics to FILE (JSON\nLines), so a killed run can resume"),
        CLI_OPT_STRING("resume", 0, "FILE", &o->resume,
                       "resume the run journaled in FILE: check its header, count\nwhat it lacks, go on journaling "
                       "to it"),
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

/* The progress line of the depth being counted (on a terminal only), redrawn as its
 * units finish: units, leaves below them, the rate and an ETA from the units' expected
 * sizes, all without the units a journal held. */
typedef struct StatsProgress {
    FILE *err;                /* NULL: nothing is drawn */
    const UnitSet *units;
    double start, last_drawn;
    size_t done;              /* units, resumed ones included */
    Count leaves, resumed;    /* below the finished units, and those of them resumed */
    double size_done, size_left; /* expected sizes (unit_estimate x paths) counted, and to count */
    bool drawn;
} StatsProgress;

/* What a run keeps across its depths: for a journal, the unit sets of depths 2..N,
 * numbered one after another in it (depth d's unit u is offset[d] + u), and what a
 * resumed journal holds. A run without a journal (and an MPI worker rank, which reads
 * and writes none) plans each depth's units as it comes to it. */
typedef struct StatsRun {
    UnitSet *units[STATS_MAX_DEPTH + 1];
    uint64_t offset[STATS_MAX_DEPTH + 2];
    Journal *journal;
    JournalContents contents; /* of --resume; empty otherwise */
    bool *known;              /* of the depth being counted */
    LeafStats *known_stats;
    int depth;                /* being counted */
    Count resumed_leaves;     /* below the units taken from the journal */
    uint64_t resumed_units;   /* of the depths reached */
    uint64_t appended;        /* units journaled by this run */
    bool failed;              /* an append failed: `error` says why; the run was stopped */
    char error[JOURNAL_ERROR_SIZE];
    char shown[TEXT_QUOTE_SIZE];
    StatsProgress progress;
} StatsRun;

static void stats_run_free(StatsRun *j) {
    for (int d = 0; d <= STATS_MAX_DEPTH; d++)
        unit_set_destroy(j->units[d]);
    journal_contents_free(&j->contents);
    free(j->known);
    free(j->known_stats);
}

static double expected_size(const UnitSet *units, size_t unit) {
    return (double)unit_estimate(units, unit) * (double)unit_paths(units, unit);
}

/* Starts the progress of a depth of `units`, those with known[u] (known may be NULL)
 * done before, with `resumed` leaves below them. */
static void progress_start(StatsProgress *p, const UnitSet *units, const bool *known, Count resumed) {
    p->units = units;
    p->start = p->last_drawn = clock_seconds();
    p->done = 0;
    p->leaves = p->resumed = resumed;
    p->size_done = p->size_left = 0;
    for (size_t u = 0; u < unit_set_count(units); u++)
        if (known && known[u])
            p->done++;
        else
            p->size_left += expected_size(units, u);
}

static void progress_draw(StatsProgress *p, int depth, bool last) {
    double now = clock_seconds(), elapsed = now - p->start;
    RunProgress line = {.depth = depth, .units_done = p->done, .units = unit_set_count(p->units),
                        .leaves = p->leaves, .resumed = p->resumed, .elapsed = elapsed,
                        .eta = p->size_done > 0 ? elapsed * (p->size_left - p->size_done) / p->size_done : -1,
                        .last = last};
    cli_draw_progress(p->err, &line);
    p->last_drawn = now;
    p->drawn = !last;
}

/* A finished unit: journaled (a failure stops the run: nothing is counted that the
 * journal would not keep), and the progress line redrawn at most four times a second. */
static void stats_unit_done(void *context, size_t unit, const LeafStats *unit_stats) {
    StatsRun *j = context;
    if (j->journal && !j->failed) {
        JournalUnit line = {j->offset[j->depth] + unit, 0, unit_stats->field};
        if (journal_append(j->journal, &line, 1, j->error, sizeof j->error)) {
            j->appended++;
        } else {
            j->failed = true;
            cli_request_stop();
        }
    }
    StatsProgress *p = &j->progress;
    if (!p->err)
        return;
    p->done++;
    p->leaves += (Count)unit_stats->field[STAT_NODES] * unit_paths(p->units, unit);
    p->size_done += expected_size(p->units, unit);
    if (clock_seconds() - p->last_drawn >= 0.25)
        progress_draw(p, j->depth, false);
}

/* Plans the units of depths 2..N and creates the journal, or reads and continues the
 * one of --resume after checking its header. EXIT_OK, or the exit status after an error. */
static int stats_journal_open(Cli *cli, const StatsOptions *o, const Position *pos, StatsRun *j) {
    const char *path = o->resume ? o->resume : o->journal;
    char error[JOURNAL_ERROR_SIZE];
    text_quote(path, j->shown);
    JournalHeader expected = {.chess960 = pos->chess960, .depth = (int)o->depth, .key_seed = o->run.key_seed,
                              .pass = 1, .stats = STATS_FIELDS, .split_ply = stats_split_ply((int)o->depth)};
    cli_journal_tool(expected.tool, sizeof expected.tool);
    fen_write(pos, expected.fen);
    uint64_t digest = 0x243F6A8885A308D3ULL;
    for (int d = 2; d <= o->depth; d++) {
        j->units[d] = unit_set_create(pos, stats_split_ply(d), 0, error, sizeof error);
        if (!j->units[d])
            return cli_error(cli, "cannot plan the work units of depth %d: %s", d, error);
        j->offset[d + 1] = j->offset[d] + unit_set_count(j->units[d]);
        digest = (digest ^ unit_set_digest(j->units[d])) * 0x9E3779B97F4A7C15ULL;
    }
    expected.units = j->offset[o->depth + 1];
    expected.digest = digest;
    if (!o->resume) {
        j->journal = journal_create(path, &expected, false, error, sizeof error);
        return j->journal ? EXIT_OK : cli_error(cli, "%s", error);
    }
    if (!journal_read(path, &j->contents, error, sizeof error))
        return cli_error(cli, "--resume: %s", error);
    if (!journal_check_header(&expected, &j->contents.header, error, sizeof error))
        return cli_error(cli, "--resume '%s': %s", j->shown, error);
    j->journal = journal_open_append(path, &j->contents, error, sizeof error);
    if (!j->journal)
        return cli_error(cli, "%s", error);
    if (j->contents.torn)
        fprintf(cli->err, "perft stats: journal '%s': dropped a torn last line (line %lld, %lld bytes); its units are "
                "counted again\n", j->shown, j->contents.torn_line, j->contents.torn_bytes);
    fprintf(cli->err, "perft stats: %" PRIu64 " of %" PRIu64 " units from journal '%s'\n", j->contents.finished,
            expected.units, j->shown);
    return EXIT_OK;
}

/* The known units of depth `d` from a resumed journal, in j->known and j->known_stats;
 * false when memory ran out. */
static bool take_known_units(StatsRun *j, int d) {
    const UnitSet *units = j->units[d];
    size_t count = unit_set_count(units);
    free(j->known);
    free(j->known_stats);
    j->known = calloc(count + 1, sizeof *j->known);
    j->known_stats = calloc(count + 1, sizeof *j->known_stats);
    if (!j->known || !j->known_stats)
        return false;
    for (size_t u = 0; j->contents.done && u < count; u++) {
        uint64_t at = j->offset[d] + u;
        if (!j->contents.done[at])
            continue;
        j->known[u] = true;
        memcpy(j->known_stats[u].field, journal_unit_stats(&j->contents, at), sizeof j->known_stats[u].field);
        j->resumed_leaves += (Count)j->known_stats[u].field[STAT_NODES] * unit_paths(units, u);
        j->resumed_units++;
    }
    return true;
}

/* Depth `d` >= 2, as its units on the binary's runner (in one process or over MPI
 * ranks): a journaled run's units the journal lacks, each journaled as it finishes. */
static RunStatus stats_depth(Cli *cli, const Position *pos, int d, int threads, StatsTables *tables,
                             const RunLimits *limits, StatsRun *j, LeafStats *out) {
    UnitSet *planned = NULL;
    const UnitSet *units = j->units[d];
    if (!units) {
        char error[160];
        units = planned = unit_set_create(pos, stats_split_ply(d), 0, error, sizeof error);
        if (!units)
            return RUN_NO_MEMORY; /* its only failure at ply 1 to 3 */
    }
    RunStatus status = RUN_NO_MEMORY;
    j->depth = d;
    Count resumed_before = j->resumed_leaves;
    if (!j->journal || take_known_units(j, d)) {
        const bool *known = j->journal ? j->known : NULL;
        const LeafStats *known_stats = j->journal ? j->known_stats : NULL;
        progress_start(&j->progress, units, known, j->resumed_leaves - resumed_before);
        status = cli->stats(units, d, threads, tables, limits, known, known_stats,
                            j->journal || j->progress.err ? stats_unit_done : NULL, j, out);
        if (j->progress.drawn)
            progress_draw(&j->progress, d, true);
    }
    unit_set_destroy(planned);
    return status;
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
    bool journaled = (o.journal || o.resume) && !cli->worker; /* rank 0 keeps the journal */
    if ((o.journal || o.resume) && o.depth < 2)
        return cli_error(cli, "--journal and --resume need a depth of 2 or more");
    if (o.journal && o.resume && strcmp(o.journal, o.resume))
        return cli_error(cli, "--journal and --resume name different files (--resume FILE goes on journaling to FILE)");
    StatsTables *tables;
    int threads;
    if (!cli_stats_tables(cli, &o.run, (int)o.depth, &tables, &threads))
        return EXIT_BAD_INPUT;
    StatsRun run = {0}; /* its journal is made last: a refused run leaves none behind */
    if (journaled && (status = stats_journal_open(cli, &o, &pos, &run)) != EXIT_OK) {
        stats_run_free(&run);
        stats_tables_destroy(tables);
        return status;
    }
    RunLimits limits = cli_limits(&o.run);
    if (!cli->worker && !o.json && terminal_redraws(cli->err))
        run.progress.err = cli->err;

    json_t *depths = o.json ? json_array() : NULL;
    if (!o.json)
        report_stats_header(cli->out, "depth");
    RunStatus run_status = RUN_COMPLETED;
    Count counted = 0; /* leaves of the finished depths this launch counted (not resumed) */
    int finished = 0;
    double start = clock_seconds();
    for (int d = 1; d <= o.depth; d++) {
        RunLimits left;
        double begun = clock_seconds();
        if (!limits_left(&limits, begun - start, counted, &left, &run_status))
            break;
        LeafStats s;
        Count resumed_before = run.resumed_leaves;
        if (d >= 2)
            run_status = stats_depth(cli, &pos, d, threads, tables, &left, &run, &s);
        else
            run_status = stats_run(&pos, d, threads, tables, &left, &s); /* 20-odd moves: every rank alone */
        if (run_status != RUN_COMPLETED)
            break;
        finished = d;
        counted += s.field[STAT_NODES] - (run.resumed_leaves - resumed_before);
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
    if (journaled) {
        bool ok = !run.failed;
        if (!journal_close(run.journal, ok ? run.error : NULL, sizeof run.error))
            ok = false;
        int journal_status = EXIT_OK;
        if (!ok)
            journal_status = cli_error(cli, "%s; the run stopped (resume it with --resume '%s')", run.error,
                                       run.shown);
        else if (!complete && !run_counted_nothing(run_status))
            fprintf(cli->err, "perft stats: journal '%s' holds %" PRIu64 " of %" PRIu64 " units; continue with "
                    "--resume '%s'\n", run.shown, run.contents.finished + run.appended,
                    run.offset[o.depth + 1], run.shown);
        stats_run_free(&run);
        if (journal_status != EXIT_OK) {
            json_decref(depths);
            return journal_status;
        }
    }
    if (o.json) {
        json_t *doc = json_document(cli->command, REPORT_JSON_SCHEMA);
        json_set(doc, "position", json_position(&pos));
        json_set(doc, "depth", json_integer(o.depth));
        json_set(doc, "options", report_options_json(&o.run, stats_threads((int)o.depth, threads)));
        json_set(doc, "status", json_string(run_status_text(run_status)));
        json_set(doc, "complete", json_boolean(complete));
        json_set(doc, "depths", depths);
        if (journaled)
            json_set(doc, "units_resumed", json_integer((json_int_t)run.resumed_units));
        json_set(doc, "seconds", json_real(seconds));
        if (!json_write(cli->out, doc))
            return cli_finish_output(cli, false);
    } else if (!run_counted_nothing(run_status)) { /* else the one error line below says it all */
        if (!complete) {
            if (finished)
                fprintf(cli->out, "partial: depths 1..%d of 1..%ld (%s)\n", finished, o.depth,
                        run_status_text(run_status));
            else
                fprintf(cli->out, "partial: no depth of 1..%ld finished (%s)\n", o.depth, run_status_text(run_status));
        }
        cli_print_rate(cli->err, counted, seconds);
        if (run.resumed_units) {
            char text[COUNT_TEXT_SIZE];
            fprintf(cli->err, "resumed: %s leaves below %" PRIu64 " units from the journal (not in the rate)\n",
                    count_format(run.resumed_leaves, true, text), run.resumed_units);
        }
        fprintf(cli->err, "status: %s\n", run_status_text(run_status));
    }
    status = cli_flush(cli);
    if (status == EXIT_OK && run_counted_nothing(run_status))
        return cli_error(cli, "%s at depth %d: the depths above it are exact", run_status_text(run_status),
                         finished + 1);
    return status != EXIT_OK ? status : exit_status(run_status);
}
