/* cmd_verify.c — `perft verify`: the cross-checks of verify.h over suites. Positions
 * are read first (malformed lines reported), then each check runs over all of them,
 * in parallel but for the hash check, which switches the Zobrist keys and runs
 * alone with threads of its own. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "quick_suite.h"
#include "../suites/suite.h"
#include "../perft/verify.h"

typedef struct Entry {
    char fen[EPD_FEN_SIZE];
    char label[96];
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

static const char verify_help[] =
    "usage: perft verify [FILE...] [-d N] [--check LIST] [--chess960] [-t N] [--hash MB] [-q]\n\n"
    "Runs cross-checks over the positions of suites (any format perft suite reads; the\n"
    "built-in quick selection without FILE), each to depth N, and reports per check a\n"
    "pass/FAIL line per position (with the first thing found wrong) and a summary:\n"
    "  checks    the checking-move generator = the legal moves that give check\n"
    "  split     captures + promotions + quiet moves = the legal moves, no overlap\n"
    "  mirror    the colour-reversed position has the same perft at every depth\n"
    "  hash      hashed = unhashed, 1 thread = several, another Zobrist seed = the same\n"
    "  keys      incremental key = key from scratch after every move; unmake restores\n"
    "  notation  every move reads back from SAN and UCI; every FEN reads back\n"
    "checks, split, keys and notation examine every node of the tree to depth N.\n\n"
    "  -d, --depth N          depth, 1..8 (default 3)\n"
    "      --check LIST       the checks to run, comma-separated (default: all)\n"
    "      --chess960         read every position as Chess960\n"
    "  -t, --threads N        threads (default: every processor)\n"
    "      --hash MB          tables of the hash check (default 16)\n"
    "  -q, --quiet            print only failures and summaries\n"
    "  -h, --help             this text\n\n"
    "Exit status: 0 every check passed, 1 a check failed, 2 unreadable file, malformed\n"
    "line or bad option.\n";

static void add_entry(Entries *entries, const char *fen, const char *label) {
    if (entries->count == entries->capacity) {
        int capacity = entries->capacity ? entries->capacity * 2 : 256;
        Entry *grown = realloc(entries->items, (size_t)capacity * sizeof(Entry));
        if (!grown)
            return;
        entries->items = grown;
        entries->capacity = capacity;
    }
    Entry *e = &entries->items[entries->count++];
    snprintf(e->fen, sizeof e->fen, "%s", fen);
    snprintf(e->label, sizeof e->label, "%s", label);
}

/* Reads every record of `reader`; returns the number of malformed lines. */
static int read_entries(SuiteReader *reader, Entries *entries) {
    EpdRecord record;
    int line, malformed = 0;
    char error[EPD_ERROR_SIZE + 64], label[96];
    for (;;) {
        SuiteItem item = suite_next(reader, &record, &line, error, sizeof error);
        if (item == SUITE_END)
            return malformed;
        if (item == SUITE_MALFORMED) {
            fprintf(stderr, "perft verify: %s:%d: %s\n", reader->name, reader->line_number, error);
            malformed++;
            continue;
        }
        const char *slash = strrchr(reader->name, '/');
        if (record.id[0])
            snprintf(label, sizeof label, "%s", record.id);
        else
            snprintf(label, sizeof label, "%s:%d", slash ? slash + 1 : reader->name, line);
        add_entry(entries, record.fen, label);
    }
}

static void verify_unit(void *context, int thread, const Unit *unit, int remaining) {
    (void)thread;
    (void)remaining;
    CheckRun *run = context;
    Entry *e = &run->entries->items[unit->root];
    verify_position(run->check, e->fen, run->chess960, run->depth, run->drivers, &e->result);
}

static bool parse_checks(const char *text, bool selected[VERIFY_NB]) {
    char list[128];
    snprintf(list, sizeof list, "%s", text);
    memset(selected, 0, sizeof(bool) * VERIFY_NB);
    for (char *save = NULL, *item = strtok_r(list, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        int c = 0;
        while (c < VERIFY_NB && strcmp(item, verify_name((VerifyCheck)c)))
            c++;
        if (c == VERIFY_NB) {
            cli_fail("verify", "--check: '%s' is not checks, split, mirror, hash, keys or notation", item);
            return false;
        }
        selected[c] = true;
    }
    return true;
}

int cmd_verify(Cli *cli, int argc, char **argv) {
    (void)cli;
    enum { OPT_CHECK = 256, OPT_CHESS960, OPT_HASH };
    static const struct option long_options[] = {
        {"depth", required_argument, NULL, 'd'},   {"check", required_argument, NULL, OPT_CHECK},
        {"chess960", no_argument, NULL, OPT_CHESS960}, {"threads", required_argument, NULL, 't'},
        {"hash", required_argument, NULL, OPT_HASH}, {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},          {NULL, 0, NULL, 0}};
    bool selected[VERIFY_NB], chess960 = false, quiet = false;
    for (int c = 0; c < VERIFY_NB; c++)
        selected[c] = true;
    long depth = 3;
    LegacyRunSettings run;
    cli_default_run_settings(&run);
    run.hash_mb = 16;
    cli_options_start();
    for (;;) {
        int c = getopt_long(argc, argv, ":d:t:qh", long_options, NULL);
        if (c == -1)
            break;
        switch (c) {
        case 'd':
            if (!cli_parse_long("verify", "depth", optarg, 1, 8, &depth))
                return EXIT_BAD_INPUT;
            break;
        case OPT_CHECK:
            if (!parse_checks(optarg, selected))
                return EXIT_BAD_INPUT;
            break;
        case OPT_CHESS960: chess960 = true; break;
        case 'q': quiet = true; break;
        case 't':
        case OPT_HASH:
            if (!cli_parse_run_option("verify", c == 't' ? RUN_OPTION_THREADS : RUN_OPTION_HASH, optarg, &run))
                return EXIT_BAD_INPUT;
            break;
        case 'h': fputs(verify_help, stdout); return EXIT_OK;
        default: return cli_option_problem("verify", c, argv);
        }
    }

    Entries entries = {NULL, 0, 0};
    int malformed = 0;
    bool readable = true;
    SuiteReader reader;
    if (optind == argc) {
        suite_open_lines(&reader, "quick.epd", quick_suite_lines, sizeof quick_suite_lines / sizeof quick_suite_lines[0]);
        malformed += read_entries(&reader, &entries);
        suite_close(&reader);
    }
    for (int i = optind; i < argc; i++) {
        char error[512];
        if (!suite_open(&reader, argv[i], error, sizeof error)) {
            cli_fail("verify", "%s", error);
            readable = false;
            continue;
        }
        malformed += read_entries(&reader, &entries);
        suite_close(&reader);
    }
    if (entries.count == 0) {
        free(entries.items);
        return readable && !malformed ? cli_fail("verify", "no positions to check") : EXIT_BAD_INPUT;
    }

    VerifyDrivers drivers;
    char error[160];
    int threads = run.threads > 0 ? (int)run.threads : driver_available_threads();
    if (!verify_drivers_create(&drivers, threads, (size_t)run.hash_mb << 20, error, sizeof error)) {
        free(entries.items);
        return cli_fail("verify", "--hash %ld: %s", run.hash_mb, error);
    }
    /* Positions as units, so the tree checks can share the parallel loop. */
    UnitList units = {calloc((size_t)entries.count, sizeof(Unit)), entries.count};
    for (int i = 0; units.items && i < entries.count; i++)
        units.items[i].root = i;

    int failed_checks = 0, checks_run = 0;
    double start = cli_now();
    for (int c = 0; c < VERIFY_NB; c++) {
        if (!selected[c])
            continue;
        CheckRun check = {(VerifyCheck)c, &entries, chess960, (int)depth, &drivers};
        printf("== %s: %s (depth %ld)\n", verify_name(check.check), verify_description(check.check), depth);
        fflush(stdout);
        double begun = cli_now();
        bool parallel = check.check != VERIFY_HASH && units.items;
        if (parallel)
            driver_for_each_unit(threads, &units, 0, NULL, verify_unit, &check);
        else
            for (int i = 0; i < entries.count; i++)
                verify_position(check.check, entries.items[i].fen, chess960, (int)depth, &drivers,
                                &entries.items[i].result);
        int passed = 0, failed = 0;
        uint64_t nodes = 0;
        char text[COUNT_TEXT_SIZE];
        for (int i = 0; i < entries.count; i++) {
            const Entry *e = &entries.items[i];
            passed += e->result.pass;
            failed += !e->result.pass;
            nodes += e->result.nodes;
            if (!quiet || !e->result.pass)
                printf("%-5s %-28s %s\n", e->result.pass ? "pass" : "FAIL", e->label, e->fen);
            if (!e->result.pass)
                printf("      %s\n", e->result.detail);
        }
        printf("%s: %d passed, %d failed (%s %s, %.2f s)\n", verify_name(check.check), passed, failed,
               count_format(nodes, true, text),
               check.check == VERIFY_MIRROR || check.check == VERIFY_HASH ? "leaves counted" : "nodes examined",
               cli_now() - begun);
        fflush(stdout);
        checks_run++;
        failed_checks += failed > 0;
    }
    if (failed_checks)
        printf("verify: %d of %d checks failed on %d positions (%.2f s)\n", failed_checks, checks_run, entries.count,
               cli_now() - start);
    else
        printf("verify: all %d checks passed on %d positions (%.2f s)\n", checks_run, entries.count, cli_now() - start);
    free(units.items);
    free(entries.items);
    verify_drivers_destroy(&drivers);
    if (failed_checks)
        return EXIT_MISMATCH;
    return readable && !malformed ? EXIT_OK : EXIT_BAD_INPUT;
}
