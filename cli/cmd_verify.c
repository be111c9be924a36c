/* cmd_verify.c — `perft verify`: the cross-checks of verify.h over the positions of
 * suites (read as `perft suite` reads them) or over one position given with --fen,
 * --startpos or --moves. Positions are read first (malformed lines reported), then
 * each check runs over all of them in parallel, but for the hash check, whose counts
 * spread over the threads themselves. */
#include <stdlib.h>
#include <string.h>

#include "../io/json.h"
#include "../perft/clock.h"
#include "../perft/verify.h"
#include "../suites/suite.h"
#include "commands.h"
#include "quick_suite.h"

enum { VERIFY_JSON_SCHEMA = 1, VERIFY_DEFAULT_HASH_MB = 16 };

/* The --check names, in VerifyCheck order. */
#define CHECK_CHOICES "checks|split|mirror|hash|keys|notation"

typedef struct VerifyOptions {
    PositionOptions position;
    long depth;
    unsigned checks; /* a bit per VerifyCheck; 0: all */
    RunOptions run;
    bool quiet, json;
} VerifyOptions;

typedef struct Entry {
    char fen[EPD_FEN_SIZE];
    char label[SUITE_LABEL_SIZE];
    const char *file; /* NULL for a position given as options */
    int line;
    VerifyResult result;
} Entry;

typedef struct Entries {
    Entry *items;
    int count, capacity;
} Entries;

typedef struct CheckRun {
    VerifyCheck check;
    Entries *entries;
    bool chess960;
    int depth;
    VerifyDrivers *drivers;
} CheckRun;

static const CliSpec verify_spec = {
    .operands = "[FILE...]",
    .max_operands = -1,
    .summary =
        "Runs cross-checks over the positions of suite files (any format perft suite reads;\n"
        "the built-in quick selection without FILE), or over one position given with --fen,\n"
        "--startpos or --moves, each to depth N, and reports per check a pass/FAIL line per\n"
        "position (with the first thing found wrong) and a summary:\n"
        "  checks    the checking-move generator = the legal moves that give check\n"
        "  split     captures + promotions + quiet moves = the legal moves, no overlap\n"
        "  mirror    the colour-reversed position has the same perft at every depth\n"
        "  hash      hashed = unhashed, 1 thread = several, another Zobrist seed = the same\n"
        "  keys      incremental key = key from scratch after every move; unmake restores\n"
        "  notation  every move reads back from SAN and UCI; every FEN reads back\n"
        "checks, split, keys and notation examine every node of the tree to depth N.\n",
    .epilogue = "Example: perft verify -d 4 --fen 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -'\n"
                "Exit status: 0 every check passed, 1 a check failed, 2 an unreadable file, a malformed\n"
                "line or a bad option.\n",
};

/* Returns CLI_CONTINUE to go on, or the exit status to end with. */
static int parse_options(Cli *cli, int argc, char **argv, VerifyOptions *o, CliOperands *files) {
    memset(o, 0, sizeof *o);
    o->depth = 3;
    cli_run_defaults(&o->run);
    const CliOption options[] = {
        CLI_OPT_DEPTH(&o->depth, 1, CLI_MAX_DEPTH, "depth of every check"),
        CLI_OPTS_POSITION(&o->position),
        CLI_OPT_LIST("check", "LIST", &o->checks, CHECK_CHOICES,
                     "the checks to run, comma-separated (default: all);\nthe names"),
        CLI_OPT_THREADS(&o->run),
        CLI_OPT_HASH_DEFAULT(&o->run, "16 MB, for the tables of the hash check"),
        CLI_OPT_KEY_SEED(&o->run),
        CLI_OPT_JSON(&o->json),
        CLI_OPT_QUIET(&o->quiet, "print only failures and summaries"),
        CLI_OPT_END,
    };
    int status = cli_parse(cli, &verify_spec, options, argc, argv, files);
    if (status != CLI_CONTINUE)
        return status;
    const PositionOptions *p = &o->position;
    if ((p->fen || p->startpos || p->moves) && files->count)
        return cli_error(cli, "a position (--fen, --startpos, --moves) and FILE both given; choose one");
    if (!o->checks)
        o->checks = (1u << VERIFY_NB) - 1;
    if (o->run.hash_mb < 0)
        o->run.hash_mb = VERIFY_DEFAULT_HASH_MB;
    return CLI_CONTINUE;
}

static bool add_entry(Entries *entries, const char *fen, const char *label, const char *file, int line) {
    if (entries->count == entries->capacity) {
        int capacity = entries->capacity ? entries->capacity * 2 : 256;
        Entry *grown = realloc(entries->items, (size_t)capacity * sizeof(Entry));
        if (!grown)
            return false;
        entries->items = grown;
        entries->capacity = capacity;
    }
    Entry *e = &entries->items[entries->count++];
    memset(e, 0, sizeof *e);
    snprintf(e->fen, sizeof e->fen, "%s", fen);
    snprintf(e->label, sizeof e->label, "%s", label);
    e->file = file;
    e->line = line;
    return true;
}

/* Reads every record of `reader`; returns the number of malformed lines. */
static int read_entries(const Cli *cli, SuiteReader *reader, Entries *entries) {
    EpdRecord record;
    int line, malformed = 0;
    char error[EPD_ERROR_SIZE + 64], label[SUITE_LABEL_SIZE];
    for (;;) {
        SuiteItem item = suite_next(reader, &record, &line, error, sizeof error);
        if (item == SUITE_END)
            return malformed;
        if (item == SUITE_MALFORMED) {
            cli_error(cli, "%s: %s", suite_label(reader, NULL, reader->line_number, label), error);
            malformed++;
            continue;
        }
        if (!add_entry(entries, record.fen, suite_label(reader, record.id, line, label), reader->name, line)) {
            cli_error(cli, "out of memory");
            return malformed + 1;
        }
    }
}

/* What could not be read: lines, and files. */
typedef struct InputErrors {
    int malformed, unreadable;
} InputErrors;

/* The positions to check: the one given as options, the quick selection, or the
 * files'. Returns the exit status when nothing can be checked, else CLI_CONTINUE with
 * what was bad in *bad. */
static int read_positions(const Cli *cli, const VerifyOptions *o, const CliOperands *files, Entries *entries,
                          InputErrors *bad) {
    const PositionOptions *p = &o->position;
    memset(bad, 0, sizeof *bad);
    if (p->fen || p->startpos || p->moves) {
        Position pos;
        char fen[FEN_BUFFER_SIZE];
        if (!cli_position(cli, p, &pos))
            return EXIT_BAD_INPUT;
        if (!add_entry(entries, fen_write(&pos, fen), p->fen || p->moves ? "position" : "startpos", NULL, 0))
            return cli_error(cli, "out of memory");
        return CLI_CONTINUE;
    }
    SuiteReader reader;
    if (files->count == 0) {
        suite_open_lines(&reader, "quick.epd", quick_suite_lines, sizeof quick_suite_lines / sizeof quick_suite_lines[0]);
        bad->malformed += read_entries(cli, &reader, entries);
        suite_close(&reader);
    }
    for (int i = 0; i < files->count; i++) {
        char error[EPD_ERROR_SIZE + 64];
        if (!suite_open(&reader, files->items[i], error, sizeof error)) {
            cli_error(cli, "%s", error);
            bad->unreadable++;
            continue;
        }
        bad->malformed += read_entries(cli, &reader, entries);
        suite_close(&reader);
    }
    if (entries->count == 0)
        return bad->malformed || bad->unreadable ? EXIT_BAD_INPUT : cli_error(cli, "no positions to check");
    return CLI_CONTINUE;
}

static void verify_unit(void *context, int thread, const Unit *unit, int remaining) {
    (void)thread;
    (void)remaining;
    CheckRun *run = context;
    Entry *e = &run->entries->items[unit->root];
    verify_position(run->check, e->fen, run->chess960, run->depth, run->drivers, &e->result);
}

static const char *plural(long n, const char *one, const char *many) { return n == 1 ? one : many; }

/* The count checks count leaves; the tree checks examine nodes. */
static bool counts_leaves(VerifyCheck check) { return check == VERIFY_MIRROR || check == VERIFY_HASH; }

static json_t *check_json(VerifyCheck check, const Entries *entries, int passed, int failed, uint64_t nodes,
                          double seconds) {
    json_t *c = json_object();
    json_set(c, "name", json_string(verify_name(check)));
    json_set(c, "description", json_string(verify_description(check)));
    json_set(c, "pass", json_boolean(failed == 0));
    json_set(c, "passed", json_integer(passed));
    json_set(c, "failed", json_integer(failed));
    json_set(c, counts_leaves(check) ? "leaves" : "nodes", json_count(nodes));
    json_set(c, "seconds", json_real(seconds));
    json_t *list = json_array();
    for (int i = 0; i < entries->count; i++) {
        const Entry *e = &entries->items[i];
        json_t *p = json_object();
        json_set(p, "label", json_string(e->label));
        json_set(p, "file", e->file ? json_outside_string(e->file) : json_null());
        json_set(p, "line", e->file ? json_integer(e->line) : json_null());
        json_set(p, "fen", json_string(e->fen));
        json_set(p, "pass", json_boolean(e->result.pass));
        json_set(p, "detail", e->result.pass ? json_null() : json_string(e->result.detail));
        json_append(list, p);
    }
    json_set(c, "positions", list);
    return c;
}

static json_t *options_json(const VerifyOptions *o, int threads) {
    json_t *options = json_object(), *checks = json_array();
    for (int c = 0; c < VERIFY_NB; c++)
        if (o->checks & (1u << c))
            json_append(checks, json_string(verify_name((VerifyCheck)c)));
    json_set(options, "depth", json_integer(o->depth));
    json_set(options, "checks", checks);
    json_set(options, "chess960", json_boolean(o->position.chess960));
    json_set(options, "threads", json_integer(threads));
    json_set(options, "hash_mb", json_integer(o->run.hash_mb));
    json_set(options, "key_seed", json_key_seed(o->run.key_seed));
    return options;
}

int cmd_verify(Cli *cli, int argc, char **argv) {
    VerifyOptions o;
    CliOperands files;
    int status = parse_options(cli, argc, argv, &o, &files);
    if (status != CLI_CONTINUE)
        return status;
    Entries entries = {NULL, 0, 0};
    InputErrors bad;
    status = read_positions(cli, &o, &files, &entries, &bad);
    if (status != CLI_CONTINUE) {
        free(entries.items);
        return status;
    }

    VerifyDrivers drivers;
    char error[160];
    int threads = o.run.threads > 0 ? (int)o.run.threads : driver_available_threads();
    if (!verify_drivers_create(&drivers, threads, (size_t)o.run.hash_mb << 20,
                               o.run.key_seed == ZOB_DEFAULT_SEED ? VERIFY_OTHER_SEED : o.run.key_seed, error,
                               sizeof error)) {
        free(entries.items);
        return cli_error(cli, "--hash %ld: %s", o.run.hash_mb, error);
    }
    /* Positions as units, so the tree checks can share the parallel loop. */
    UnitList units = {calloc((size_t)entries.count, sizeof(Unit)), entries.count};
    for (int i = 0; units.items && i < entries.count; i++)
        units.items[i].root = i;

    FILE *out = cli->out;
    json_t *checks_json = json_array();
    int failed_checks = 0, checks_run = 0;
    double start = clock_seconds();
    for (int c = 0; c < VERIFY_NB; c++) {
        if (!(o.checks & (1u << c)))
            continue;
        CheckRun check = {(VerifyCheck)c, &entries, o.position.chess960, (int)o.depth, &drivers};
        if (!o.json) {
            fprintf(out, "== %s: %s (depth %ld)\n", verify_name(check.check), verify_description(check.check), o.depth);
            fflush(out);
        }
        double begun = clock_seconds();
        /* Nested in the loop over positions, the hash check's threaded counts would run
         * on one thread and no longer compare 1 thread with several. */
        if (check.check != VERIFY_HASH && units.items)
            driver_for_each_unit(threads, &units, 0, NULL, verify_unit, &check);
        else
            for (int i = 0; i < entries.count; i++)
                verify_position(check.check, entries.items[i].fen, o.position.chess960, (int)o.depth, &drivers,
                                &entries.items[i].result);
        double seconds = clock_seconds() - begun;
        int passed = 0, failed = 0;
        uint64_t nodes = 0;
        for (int i = 0; i < entries.count; i++) {
            const Entry *e = &entries.items[i];
            passed += e->result.pass;
            failed += !e->result.pass;
            nodes += e->result.nodes;
            if (o.json)
                continue;
            if (!o.quiet || !e->result.pass)
                fprintf(out, "%-5s %-28s %s\n", e->result.pass ? "pass" : "FAIL", e->label, e->fen);
            if (!e->result.pass)
                fprintf(out, "      %s\n", e->result.detail);
        }
        if (o.json) {
            json_append(checks_json, check_json(check.check, &entries, passed, failed, nodes, seconds));
        } else {
            char text[COUNT_TEXT_SIZE];
            fprintf(out, "%s: %d passed, %d failed (%s %s %s, %.2f s)\n", verify_name(check.check), passed, failed,
                    count_format(nodes, true, text),
                    counts_leaves(check.check) ? plural((long)nodes, "leaf", "leaves") : plural((long)nodes, "node", "nodes"),
                    counts_leaves(check.check) ? "counted" : "examined", seconds);
            fflush(out);
        }
        checks_run++;
        failed_checks += failed > 0;
    }
    double seconds = clock_seconds() - start;
    bool written = true;
    if (o.json) {
        json_t *doc = json_document(cli->command, VERIFY_JSON_SCHEMA);
        json_set(doc, "options", options_json(&o, threads));
        json_set(doc, "checks", checks_json);
        json_t *summary = json_object();
        json_set(summary, "pass", json_boolean(failed_checks == 0));
        json_set(summary, "checks", json_integer(checks_run));
        json_set(summary, "failed_checks", json_integer(failed_checks));
        json_set(summary, "positions", json_integer(entries.count));
        json_set(summary, "malformed", json_integer(bad.malformed));
        json_set(summary, "unreadable_files", json_integer(bad.unreadable));
        json_set(summary, "seconds", json_real(seconds));
        json_set(doc, "summary", summary);
        written = json_write(out, doc);
    } else {
        json_decref(checks_json);
        const char *positions = plural(entries.count, "position", "positions");
        if (failed_checks)
            fprintf(out, "verify: %d of %d %s failed on %d %s (%.2f s)\n", failed_checks, checks_run,
                    plural(checks_run, "check", "checks"), entries.count, positions, seconds);
        else if (checks_run == 1)
            fprintf(out, "verify: 1 check passed on %d %s (%.2f s)\n", entries.count, positions, seconds);
        else
            fprintf(out, "verify: all %d checks passed on %d %s (%.2f s)\n", checks_run, entries.count, positions,
                    seconds);
    }
    free(units.items);
    free(entries.items);
    verify_drivers_destroy(&drivers);
    int output = cli_finish_output(cli, written);
    if (output != EXIT_OK)
        return output;
    if (failed_checks)
        return EXIT_MISMATCH;
    return bad.malformed || bad.unreadable ? EXIT_BAD_INPUT : EXIT_OK;
}
