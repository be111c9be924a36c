/* cmd_count.c — `perft count` and `perft divide`: one position, one depth, on the
 * parallel hashed driver, with limits, traces, statistics and JSON. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../io/board.h"
#include "../io/journal.h"
#include "../io/terminal.h"
#include "../io/text.h"
#include "../perft/clock.h"
#include "../perft/driver.h"
#include "../perft/stats.h"
#include "commands.h"
#include "config.h"
#include "report.h"
#include "version.h"

enum { TRACE_ITERATIONS = 1, TRACE_ROOTS = 2, TRACE_TABLES = 4 };

typedef struct CountOptions {
    PositionOptions position;
    long depth;
    RunOptions run;
    bool quiet, san, fan, stats, json, words; /* fan implies san */
    unsigned trace;
    long split_ply;                /* 0: the driver's default rule */
    const char *journal, *resume; /* NULL: none */
    bool verify;
} CountOptions;

/* The second pass of --verify keys its positions with --key-seed XOR this (the 64-bit
 * golden ratio): another key set, derived so that a resumed pass 2 finds its seed again. */
#define VERIFY_SEED_XOR 0x9E3779B97F4A7C15ULL

#define SPLIT_HELP                                                                                  \
    "the ply whose distinct positions are the work units; 0: the\ndefault rule, depth - 5, at least 2 " \
    "with several threads,\nat least 1, at most 4, never closer than 2 plies to the\nleaves (at depth " \
    "3 or more), shallower where the ply would\nhold over 2^20 (position, root move) pairs"
#define JOURNAL_HELP                                                                                  \
    "write a journal of the finished units to FILE (JSON Lines,\nREADME \"Journal format\"), so a "    \
    "killed run can resume;\nwith --verify pass 2 journals to FILE.pass2"
#define RESUME_HELP                                                                                  \
    "resume the run journaled in FILE: check its header against\nthis run, count the units it lacks, "  \
    "and go on journaling\nto it; prints the total of an uninterrupted run (its time,\nrate, "         \
    "--max-time and --max-nodes are this launch's own)"
#define VERIFY_HELP                                                                                   \
    "count twice, pass 2 with another key set (seed: --key-seed\nXOR 0x9e3779b97f4a7c15) and fresh "    \
    "tables; print both\ntotals and seeds; exit 1 if they differ"

#define HASH_HELP                                                                              \
    "--hash: by default a quarter of the free memory, at most 4 MB at depth 4, 16 at 5,\n"     \
    "64 at 6, 256 at 7 and 1024 from 8; none below 4; with --max-time S, at most 64 MB\n"     \
    "per second of S. One table per ply: the deepest hashed ply (two plies above the\n"       \
    "leaves, where most distinct positions are) takes half the memory, the ply above it\n"   \
    "half of what is left, and so on; when three times the distinct positions expected\n"   \
    "at each shallower ply fit in half of it, they get that, the deepest ply the rest.\n"  \
    "The last two plies are never looked up: counting them beats a cache miss.\n"         \
    "A --hash beyond the free memory or a ulimit, or refused by the system, shrinks to\n"    \
    "what fits, said in one line on stderr; the counts are the same at any size.\n"

static const CliSpec count_spec = {
    .summary = "Counts the leaves of the legal move tree of a position to depth N (perft N) and\n"
               "prints the total, the time, the rate (leaves per second) and the period (ns per\n"
               "leaf), and how the run ended. Depth 1 is bulk-counted: no move is made.\n",
    .epilogue = HASH_HELP "\nExample: perft count -d 6 --startpos   prints perft(6) = 119060324\n"
                "Exit status: 0 counted, 1 --verify's passes differ, 2 bad input or a journal that\n"
                "cannot be read or written, 3 stopped by --max-time or --max-nodes (partial),\n"
                "130 interrupted by Ctrl-C, SIGTERM or SIGHUP (partial; the finished root moves\n"
                "are printed; a journaled run can be resumed), 141 stdout's reader went away\n"
                "(a closed pipe: the run stops as on Ctrl-C, quietly).\n",
};

static const CliSpec divide_spec = {
    .summary = "Prints the count below each legal root move, sorted, then the total. The default\n"
               "lines have the shape of Stockfish's `go perft` (\"e2e4: 20\", a blank line,\n"
               "\"Nodes searched: N\") so the two can be diffed; --san writes moves in SAN, sorted\n"
               "by SAN (\"Na3 8885\"), --fan in FAN, SAN with figurines (\"\u2658a3 8885\"). Time, rate and\n"
               "status go to stderr. To find a wrong move path, divide, pick the move whose count\n"
               "differs, and divide again one ply lower with --moves.\n",
    .epilogue = HASH_HELP "\nExample: perft divide -d 3 --moves e2e4   the 20 replies to 1. e4 and their counts\n"
                "Exit status: 0 counted, 1 --verify's passes differ, 2 bad input or journal error,\n"
                "3 stopped by a limit (partial), 130 interrupted (Ctrl-C, SIGTERM, SIGHUP),\n"
                "141 stdout's reader went away (a closed pipe; nothing is said).\n",
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
        CLI_OPT_INT("split-ply", 0, "K", &o->split_ply, 0, UNIT_MAX_PLY, SPLIT_HELP),
        CLI_OPT_STRING("journal", 0, "FILE", &o->journal, JOURNAL_HELP),
        CLI_OPT_STRING("resume", 0, "FILE", &o->resume, RESUME_HELP),
        CLI_OPT_FLAG("verify", 0, &o->verify, VERIFY_HELP),
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
        CLI_OPT_FLAG("fan", 0, &o->fan,
                     "FAN moves: SAN with figurines for the pieces (\"\u2658f3 12345\"),\nsorted as --san sorts; "
                     "text only (JSON keeps uci and san)"),
        CLI_OPT_END,
    };
    enum { COMMON = sizeof common / sizeof common[0] - 1 };
    CliOption options[COMMON + 3];
    memcpy(options, common, COMMON * sizeof common[0]);
    memcpy(options + COMMON, divide ? divide_only : count_only, 3 * sizeof common[0]);
    int status = cli_parse(cli, divide ? &divide_spec : &count_spec, options, argc, argv, NULL);
    o->san |= o->fan;
    return status;
}

/* A journaled pass: the run's finished units, appended in batches (a line at most every
 * JOURNAL_INTERVAL seconds or JOURNAL_BATCH units) so a long run writes few lines, and
 * synced from the progress hook, so a crash loses at most about a second. */
enum { JOURNAL_BATCH = 256 };
#define JOURNAL_INTERVAL 0.2

typedef struct JournalRun {
    Journal *journal;
    JournalUnit pending[JOURNAL_BATCH];
    int pending_count;
    double last_append;
    bool failed; /* the run was stopped: `error` says why */
    char error[JOURNAL_ERROR_SIZE];
} JournalRun;

/* Where trace lines go: stdout, unless stdout carries the JSON document. */
typedef struct Tracer {
    FILE *out;
    double start;
    int done, of;
    FILE *err;           /* where progress is drawn */
    bool draw;           /* progress is drawn */
    JournalRun *journal; /* NULL: not journaled */
} Tracer;

/* Appends the pending units; on failure stops the run (the journal refuses more). */
static void journal_flush(JournalRun *j) {
    if (j->failed)
        j->pending_count = 0;
    if (j->failed || !j->pending_count)
        return;
    if (!journal_append(j->journal, j->pending, j->pending_count, j->error, sizeof j->error)) {
        j->failed = true;
        cli_request_stop();
    }
    j->pending_count = 0;
    j->last_append = clock_seconds();
}

static void journal_unit(void *context, const UnitResult *done) {
    JournalRun *j = ((Tracer *)context)->journal;
    if (j->failed) /* the run is stopping: units finished meanwhile are counted again on resume */
        return;
    j->pending[j->pending_count++] = (JournalUnit){done->unit, done->count, NULL};
    if (j->pending_count == JOURNAL_BATCH || clock_seconds() - j->last_append >= JOURNAL_INTERVAL)
        journal_flush(j);
}

static void show_progress(void *context, const RunProgress *progress) {
    Tracer *tracer = context;
    JournalRun *j = tracer->journal;
    if (j && !j->failed) {
        if (clock_seconds() - j->last_append >= JOURNAL_INTERVAL)
            journal_flush(j);
        if (!j->failed && !journal_sync_due(j->journal, j->error, sizeof j->error)) {
            j->failed = true;
            cli_request_stop();
        }
    }
    if (tracer->draw)
        cli_draw_progress(tracer->err, progress);
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
                       const RunReport *run, const RunReport *iterations, int iteration_count, json_t *verify) {
    MoveLine lines[MAX_MOVES];
    PlyStats stats[PERFT_MAX_DEPTH];
    int n = report_move_lines(pos, run, false, lines), finished = 0;
    int plies = report_ply_stats(driver->tables.memory ? &driver->tables : NULL, run, stats);
    json_t *doc = json_document(cli->command, REPORT_JSON_SCHEMA);
    json_set(doc, "position", json_position(pos));
    json_set(doc, "depth", json_integer(run->depth));
    json_set(doc, "options", report_options_json(&o->run, run->threads));
    json_set(doc, "table_memory", json_string(table_memory_name(driver->tables.kind)));
    json_set(doc, "status", json_string(run_status_text(run->status)));
    json_set(doc, "complete", json_boolean(run->complete));
    json_set(doc, "total", json_count(run->total));
    json_set(doc, "split_ply", json_integer(run->split_ply));
    json_set(doc, "units", json_integer((json_int_t)run->units));
    json_set(doc, "units_done", json_integer((json_int_t)run->units_done));
    json_set(doc, "units_resumed", json_integer((json_int_t)run->units_resumed));
    json_t *moves = json_array();
    for (int i = 0; i < n; i++) {
        char san[SAN_MOVE_SIZE];
        json_t *m = json_object();
        finished += lines[i].complete;
        json_set(m, "uci", json_string(lines[i].uci));
        json_set(m, "san", json_string(move_to_san(pos, move_parse_uci(pos, lines[i].uci), san)));
        json_set(m, "nodes", lines[i].complete ? json_count(lines[i].count) : json_null());
        json_set(m, "complete", json_boolean(lines[i].complete));
        json_append(moves, m);
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
            json_append(list, it);
        }
        json_set(doc, "iterations", list);
    }
    double leaves = count_to_double(run->total - run->resumed_leaves); /* this run's: the rate's */
    json_set(doc, "resumed_leaves", json_count(run->resumed_leaves));
    json_set(doc, "seconds", json_real(run->seconds));
    json_set(doc, "leaves_per_second", json_real(run->seconds > 0 ? leaves / run->seconds : 0.0));
    json_set(doc, "ns_per_leaf", json_real_or_null(leaves > 0 ? run->seconds * 1e9 / leaves : 0, leaves > 0));
    if (verify)
        json_set(doc, "verify", verify);
    return json_write(cli->out, doc);
}

/* A root move's text as printed: UCI or SAN as given, or with --fan the SAN made FAN
 * in `fan`. */
static const char *move_text(const CountOptions *o, const Position *pos, const char *text, char fan[FAN_MOVE_SIZE]) {
    return o->fan ? board_fan(text, pos_side(pos), fan) : text;
}

static void print_text(Cli *cli, const CountOptions *o, bool divide, const Position *pos, const Driver *driver,
                       const RunReport *run) {
    char text[COUNT_TEXT_SIZE], fan[FAN_MOVE_SIZE];
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
                fprintf(out, o->san ? "%s %s\n" : "%s: %s\n", move_text(o, pos, lines[i].move, fan),
                        count_format(lines[i].count, false, text));
    if (divide)
        fprintf(out, "\nNodes searched: %s%s\n", count_format(run->total, false, text), partial);
    else
        fprintf(out, "perft(%d) %s %s%s\n", run->depth, run->complete ? "=" : ">=",
                count_format(run->total, false, text), partial);
    if (o->words) {
        char words[COUNT_WORDS_SIZE];
        fprintf(out, "%s\n", count_words(run->total, words));
    }
    cli_print_rate(side, run->total - run->resumed_leaves, run->seconds);
    if (run->units_resumed)
        fprintf(side, "resumed: %s leaves below %zu units from the journal (not in the rate)\n",
                count_format(run->resumed_leaves, true, text), run->units_resumed);
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

/* The root moves of divide --stats as work units of the binary's statistics runner:
 * the root's children at ply 1 (one path each, so a unit's statistics are its move's). */
typedef struct RootMoveStats {
    const UnitSet *units;
    LeafStats *per_move; /* by root move, in generation order */
} RootMoveStats;

static void root_move_done(void *context, size_t unit, const LeafStats *unit_stats) {
    RootMoveStats *r = context;
    const UnitRoot *roots;
    unit_roots(r->units, unit, &roots);
    r->per_move[roots[0].root] = *unit_stats;
}

/* divide --stats over MPI ranks (depth >= 2): the root moves handed out as units, so
 * every rank counts some of them. Returns the moves, whose rows rank 0 fills (the
 * others' stay zero), or -1 with *status saying why the run stopped. */
static int divide_stats_spread(Cli *cli, const CountOptions *o, const Position *pos, int threads, StatsTables *tables,
                               Move moves[MAX_MOVES], LeafStats per_move[MAX_MOVES], RunStatus *status) {
    char error[160];
    UnitSet *units = unit_set_create(pos, 1, 0, error, sizeof error);
    if (!units) {
        *status = RUN_NO_MEMORY;
        return -1;
    }
    MoveList list;
    gen_legal(pos, &list);
    memcpy(moves, list.moves, (size_t)list.count * sizeof *moves);
    memset(per_move, 0, (size_t)list.count * sizeof *per_move);
    RootMoveStats context = {units, per_move};
    RunLimits limits = cli_limits(&o->run);
    LeafStats total;
    *status = cli->stats(units, (int)o->depth, threads, tables, &limits, NULL, NULL, root_move_done, &context, &total);
    unit_set_destroy(units);
    return *status == RUN_COMPLETED ? list.count : -1;
}

/* divide --stats: the wiki's counters for each root move, then the statistics tables
 * (in one process; over MPI ranks each machine's tables hold only its ranks' part, so
 * they are not shown). */
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
    bool spread = cli->spreads && o->depth >= 2;
    RunStatus status = RUN_NO_MEMORY;
    int n = spread ? divide_stats_spread(cli, o, pos, threads, tables, moves, per_move, &status)
                   : stats_divide(pos, (int)o->depth, threads, tables, moves, per_move, counters);
    double seconds = clock_seconds() - start;
    if (n >= 0 && cli->worker) { /* rank 0 prints */
        stats_tables_destroy(tables);
        return EXIT_OK;
    }
    if (n < 0) {
        stats_tables_destroy(tables);
        if (status == RUN_INTERRUPTED) {
            cli_error(cli, "interrupted: no move's statistics are printed");
            return EXIT_INTERRUPTED;
        }
        return cli_error(cli, "%s: nothing was counted",
                         status == RUN_NO_MEMORY ? "out of memory" : run_status_text(status));
    }
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
    int ply_count = spread ? 0 : stats_ply_stats(tables, (int)o->depth, counters, plies);
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
            json_append(list, m);
        }
        json_set(doc, "moves", list);
        json_set(doc, "tables", json_ply_stats(plies, ply_count));
        json_set(doc, "seconds", json_real(seconds));
        return cli_finish_output(cli, json_write(cli->out, doc));
    }
    char fan[FAN_MOVE_SIZE];
    report_stats_header(cli->out, "move");
    for (int i = 0; i < n; i++)
        report_stats_row(cli->out, move_text(o, pos, lines[i].move, fan), &lines[i].stats);
    report_stats_row(cli->out, "total", &total);
    if (spread)
        fputs("hash tables: not shown over MPI ranks (each machine's hold only its own ranks' part)\n", cli->out);
    else
        report_print_ply_stats(cli->out, plies, ply_count);
    cli_print_rate(cli->err, total.field[STAT_NODES], seconds);
    return cli_flush(cli);
}

/* One pass of a run: what it counts with and where it journals. */
typedef struct Pass {
    int number;       /* 1, or 2 under --verify */
    uint64_t seed;    /* its key seed */
    char path[4096];  /* its journal; "" for none */
    bool resume;      /* continue the journal at `path` */
} Pass;

/* Counts one pass into *run, journaled or resumed as `pass` says. EXIT_OK when it ran
 * (however it ended), else the exit status after a one-line error. */
static int run_pass(Cli *cli, const CountOptions *o, const Position *pos, Driver *driver, const RunLimits *limits,
                    Tracer *tracer, const Pass *pass, RunReport *run) {
    int depth = (int)o->depth;
    RunHooks hooks = {.root_done = (o->trace & TRACE_ROOTS) ? trace_root : NULL,
                      .progress = tracer->draw ? show_progress : NULL,
                      .context = tracer};
    tracer->journal = NULL;
    driver->split_ply = (int)o->split_ply;
    if (!pass->path[0]) {
        cli->run(driver, pos, depth, limits, &hooks, run);
        return EXIT_OK;
    }
    char error[JOURNAL_ERROR_SIZE], shown[TEXT_QUOTE_SIZE];
    text_quote(pass->path, shown);
    JournalContents contents;
    memset(&contents, 0, sizeof contents);
    UnitSet *units = NULL;
    JournalRun *j = NULL;
    UnitResult *finished = NULL;
    int status = EXIT_OK;
    bool resume = pass->resume && !cli->worker; /* workers read no journal */
    if (resume && !journal_read(pass->path, &contents, error, sizeof error)) {
        status = cli_error(cli, "--resume: %s", error);
        goto done;
    }
    JournalHeader expected = {.chess960 = pos->chess960, .depth = depth, .key_seed = pass->seed, .pass = pass->number};
    cli_journal_tool(expected.tool, sizeof expected.tool);
    fen_write(pos, expected.fen);
    if (resume) { /* the cheap fields first: a journal of another run is refused before planning */
        expected.split_ply = o->split_ply ? (int)o->split_ply : contents.header.split_ply;
        expected.units = contents.header.units;
        expected.digest = contents.header.digest;
        if (!journal_check_header(&expected, &contents.header, error, sizeof error)) {
            status = cli_error(cli, "--resume '%s': %s", shown, error);
            goto done;
        }
    }
    /* The units of a resumed run are those of its journal's split ply, whatever the
     * default rule would choose now (it depends on the threads). */
    driver->split_ply = o->split_ply ? (int)o->split_ply : resume ? contents.header.split_ply : 0;
    units = driver_plan(driver, pos, depth, error, sizeof error);
    if (!units) {
        status = cli_error(cli, "cannot plan the work units: %s", error);
        goto done;
    }
    expected.split_ply = unit_set_ply(units);
    expected.units = unit_set_count(units);
    expected.digest = unit_set_digest(units);
    if (resume && !journal_check_header(&expected, &contents.header, error, sizeof error)) {
        status = cli_error(cli, "--resume '%s': %s", shown, error);
        goto done;
    }
    hooks.units = units;
    if (cli->worker) { /* rank 0 journals; the other ranks count the same units */
        cli->run(driver, pos, depth, limits, &hooks, run);
        goto done;
    }
    j = calloc(1, sizeof *j);
    finished = resume ? calloc(contents.finished + 1, sizeof *finished) : NULL;
    if (!j || (resume && !finished)) {
        status = cli_error(cli, "out of memory");
        goto done;
    }
    size_t finished_count = 0;
    for (uint64_t u = 0; resume && u < contents.header.units; u++)
        if (contents.done[u])
            finished[finished_count++] = (UnitResult){(size_t)u, contents.counts[u]};
    j->journal = resume ? journal_open_append(pass->path, &contents, error, sizeof error)
                        : journal_create(pass->path, &expected, false, error, sizeof error);
    if (!j->journal) {
        status = cli_error(cli, "%s", error);
        goto done;
    }
    if (resume) {
        if (contents.torn)
            fprintf(cli->err, "perft %s: journal '%s': dropped a torn last line (line %lld, %lld bytes); its units are "
                    "counted again\n", cli->command, shown, contents.torn_line, contents.torn_bytes);
        fprintf(cli->err, "perft %s: %zu of %zu units from journal '%s'\n", cli->command, finished_count,
                (size_t)expected.units, shown);
    }
    j->last_append = clock_seconds();
    tracer->journal = j;
    hooks.unit_done = journal_unit;
    hooks.progress = show_progress; /* syncs the journal, and draws when tracer->draw */
    hooks.finished = finished;
    hooks.finished_count = finished_count;
    cli->run(driver, pos, depth, limits, &hooks, run);
    tracer->journal = NULL;
    journal_flush(j); /* the units of the last fraction of a second, however the run ended */
    bool ok = !j->failed;
    if (!journal_close(j->journal, ok ? j->error : NULL, sizeof j->error))
        ok = false;
    if (!ok)
        status = cli_error(cli, "%s; the run stopped (resume it with --resume '%s')", j->error, shown);
    else if (!run->complete && !run_counted_nothing(run->status))
        fprintf(cli->err, "perft %s: journal '%s' holds %zu of %zu units; continue with --resume '%s'\n", cli->command,
                shown, run->units_done, run->units, shown);
done:
    free(j);
    free(finished);
    unit_set_destroy(units);
    journal_contents_free(&contents);
    return status;
}

static bool same_roots(const RunReport *a, const RunReport *b) {
    if (a->total != b->total || a->root_moves != b->root_moves)
        return false;
    for (int m = 0; m < a->root_moves; m++)
        if (a->roots[m].count != b->roots[m].count)
            return false;
    return true;
}

/* Keys `pos` with the key set of `seed`. */
static void use_seed(Cli *cli, const CountOptions *o, uint64_t seed, Position *pos) {
    RunOptions run = o->run;
    run.key_seed = seed;
    cli_use_keys(cli, &run, pos);
}

static json_t *verify_json(const RunReport runs[2], const uint64_t seeds[2], bool agree) {
    json_t *v = json_object(), *passes = json_array();
    for (int p = 0; p < 2; p++) {
        json_t *one = json_object();
        json_set(one, "pass", json_integer(p + 1));
        json_set(one, "key_seed", json_key_seed(seeds[p]));
        json_set(one, "status", json_string(run_status_text(runs[p].status)));
        json_set(one, "complete", json_boolean(runs[p].complete));
        json_set(one, "total", json_count(runs[p].total));
        json_set(one, "seconds", json_real(runs[p].seconds));
        json_append(passes, one);
    }
    json_set(v, "passes", passes);
    json_set(v, "agree", json_boolean(agree));
    return v;
}

/* `--trace tt`: the statistics of every hashed ply after a run of `depth`. */
static void trace_tables(FILE *out, const Driver *driver, const RunReport *run, int depth) {
    PlyStats stats[PERFT_MAX_DEPTH];
    int plies = report_ply_stats(driver->tables.memory ? &driver->tables : NULL, run, stats);
    fprintf(out, "trace tt: depth %d\n", depth);
    report_print_ply_stats(out, stats, plies);
}

static int run_command(Cli *cli, int argc, char **argv, bool divide) {
    CountOptions o;
    Position pos;
    int status = parse_options(cli, argc, argv, divide, &o);
    if (status != CLI_CONTINUE)
        return status;
    if (!cli_keyed_position(cli, &o.position, &o.run, &pos))
        return EXIT_BAD_INPUT;
    bool journaled = o.journal || o.resume;
    if (divide && o.stats && (journaled || o.verify || o.split_ply))
        return cli_error(cli, "--stats takes no --journal, --resume, --verify or --split-ply");
    if (divide && o.stats)
        return divide_stats(cli, &o, &pos);
    if (o.split_ply > o.depth)
        return cli_error(cli, "--split-ply %ld is deeper than the depth %ld", o.split_ply, o.depth);
    if ((o.trace & TRACE_ITERATIONS) && (journaled || o.verify))
        return cli_error(cli, "--trace it counts several depths: it takes no --journal, --resume or --verify");
    if (journaled && o.depth < 1)
        return cli_error(cli, "--journal and --resume need a depth of 1 or more");
    if (o.journal && o.resume && strcmp(o.journal, o.resume))
        return cli_error(cli, "--journal and --resume name different files (--resume FILE goes on journaling to FILE)");
    const char *path = o.resume ? o.resume : o.journal;
    if (path && strlen(path) + 8 > sizeof ((Pass *)0)->path)
        return cli_error(cli, "the journal's path is too long");
    /* Both passes' journals are checked now: pass 2's would be refused only after pass 1. */
    for (int p = 0; o.journal && !o.resume && !cli->worker && p < (o.verify ? 2 : 1); p++) {
        char name[sizeof ((Pass *)0)->path];
        struct stat st;
        snprintf(name, sizeof name, "%s%s", o.journal, p ? ".pass2" : "");
        if (stat(name, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
            char shown[TEXT_QUOTE_SIZE], first[TEXT_QUOTE_SIZE];
            text_quote(name, shown);
            text_quote(o.journal, first);
            return cli_error(cli, "journal '%s' exists: continue it with --resume '%s', or remove it to start over",
                             shown, first);
        }
    }
    Driver driver;
    if (!cli_driver(cli, &o.run, (int)o.depth, &driver))
        return EXIT_BAD_INPUT;
    driver_fit_tables(&driver, &pos, (int)o.depth);
    RunLimits limits = cli_limits(&o.run);
    limits.interrupt = cli_catch_stop_signals(); /* SIGTERM and SIGHUP stop a run as Ctrl-C does */

    Tracer tracer = {o.json ? cli->err : cli->out, clock_seconds(), 0, 0, cli->err,
                     !cli->worker && !o.quiet && !o.json && terminal_redraws(cli->err), NULL};
    RunReport *iterations = calloc(PERFT_MAX_DEPTH + 3, sizeof *iterations);
    if (!iterations) {
        driver_destroy(&driver);
        return cli_error(cli, "out of memory");
    }
    RunReport *passes = iterations + PERFT_MAX_DEPTH + 1; /* --verify's two runs */
    int iteration_count = 0;
    RunReport run;
    uint64_t seeds[2] = {o.run.key_seed, o.run.key_seed ^ VERIFY_SEED_XOR}; /* --verify's two passes */
    if (o.trace & TRACE_ITERATIONS) {
        driver.split_ply = (int)o.split_ply;
        RunHooks hooks = {.root_done = (o.trace & TRACE_ROOTS) ? trace_root : NULL,
                          .progress = tracer.draw ? show_progress : NULL,
                          .context = &tracer};
        for (int depth = 1; depth <= o.depth; depth++) {
            tracer.done = 0;
            tracer.start = clock_seconds();
            MoveList roots;
            tracer.of = gen_legal(&pos, &roots);
            cli->run(&driver, &pos, depth, &limits, &hooks, &run);
            char text[COUNT_TEXT_SIZE];
            iterations[iteration_count++] = run;
            if (!cli->worker)
                fprintf(tracer.out, "trace it: perft(%d) %s %s   %.3f s\n", depth, run.complete ? "=" : ">=",
                        count_format(run.total, false, text), run.seconds);
            if ((o.trace & TRACE_TABLES) && !cli->worker)
                trace_tables(tracer.out, &driver, &run, depth);
            if (!run.complete && run.status != RUN_NO_MOVES)
                break;
        }
    } else {
        int pass_count = o.verify ? 2 : 1;
        for (int p = 0; p < pass_count; p++) {
            Pass pass = {.number = p + 1, .seed = seeds[p], .resume = o.resume != NULL};
            if (path)
                snprintf(pass.path, sizeof pass.path, "%s%s", path, p ? ".pass2" : "");
            if (p) { /* pass 2: other keys, fresh tables; its journal is resumed if there is one */
                use_seed(cli, &o, seeds[p], &pos);
                table_set_clear(&driver.tables);
                if (pass.resume && access(pass.path, F_OK) != 0)
                    pass.resume = false;
            }
            tracer.done = 0;
            tracer.start = clock_seconds();
            MoveList roots;
            tracer.of = gen_legal(&pos, &roots);
            status = run_pass(cli, &o, &pos, &driver, &limits, &tracer, &pass, &passes[p]);
            if (status != EXIT_OK) {
                free(iterations);
                driver_destroy(&driver);
                return status;
            }
            if ((o.trace & TRACE_TABLES) && !cli->worker)
                trace_tables(tracer.out, &driver, &passes[p], (int)o.depth);
            if (!passes[p].complete)
                break; /* a stopped pass 1 ends the run: pass 2 would only be stopped too */
        }
        run = passes[0];
        if (o.verify && passes[0].complete && !passes[1].complete)
            run = passes[1]; /* the pass that stopped says how the run ended */
    }
    if (run_counted_nothing(run.status)) {
        free(iterations);
        driver_destroy(&driver);
        return cli_error(cli, run.status == RUN_BAD_UNITS ? "the work units do not fit the run (%s): nothing was counted"
                                                          : "%s: nothing was counted",
                         run_status_text(run.status));
    }
    bool verified = o.verify && passes[0].complete && passes[1].complete;
    bool agree = verified && same_roots(&passes[0], &passes[1]);
    if (cli->worker) {
        free(iterations);
        driver_destroy(&driver);
        return verified && !agree ? EXIT_MISMATCH : exit_status(&run);
    }
    bool written = true;
    if (o.json)
        written = print_json(cli, &o, &pos, &driver, &run, iterations, iteration_count,
                             o.verify ? verify_json(passes, seeds, agree) : NULL);
    else {
        print_text(cli, &o, divide, &pos, &driver, &run);
        if (o.verify) {
            FILE *side = divide || o.quiet ? cli->err : cli->out;
            char text[COUNT_TEXT_SIZE];
            for (int p = 0; p < 2; p++)
                fprintf(side, "verify: pass %d, key seed 0x%" PRIx64 ": %s%s\n", p + 1, seeds[p],
                        count_format(passes[p].total, false, text),
                        passes[p].complete ? "" : p && !passes[0].complete ? " (not run)" : " (partial)");
            fprintf(side, "verify: %s\n", !verified ? "incomplete: the passes were not compared"
                                          : agree   ? "the two passes agree"
                                                    : "MISMATCH: the two passes differ");
        }
    }
    free(iterations);
    driver_destroy(&driver);
    int output = cli_finish_output(cli, written);
    if (output != EXIT_OK)
        return output;
    if (verified && !agree)
        return EXIT_MISMATCH;
    return exit_status(&run);
}

int cmd_count(Cli *cli, int argc, char **argv) { return run_command(cli, argc, argv, false); }

int cmd_divide(Cli *cli, int argc, char **argv) { return run_command(cli, argc, argv, true); }
