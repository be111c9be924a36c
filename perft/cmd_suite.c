/* cmd_suite.c — `perft suite`: positions with known counts in, a verdict out. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "epd.h"
#include "perft.h"
#include "quick_suite.h"

typedef struct SuiteOptions {
    long max_depth;
    Count max_nodes;
    bool chess960;
} SuiteOptions;

typedef struct SuiteTotals {
    int passed, failed, malformed;
    int counts;
    Count nodes;
} SuiteTotals;

static const char suite_help[] =
    "usage: perft suite [FILE...] [--max-depth N] [--max-nodes N] [--chess960]\n\n"
    "Counts every position of the suites at every depth they list and compares with\n"
    "the known counts. One line per position (pass or FAIL, where it comes from, the\n"
    "depths checked, the FEN), then \"N passed, N failed\" with the nodes and time spent.\n"
    "A mismatch prints the depth, expected and actual counts and the perft divide\n"
    "command that reproduces it. Without FILE, runs the built-in quick selection\n"
    "(start position to depth 6, Kiwipete to depth 5).\n\n"
    "Lines read: \"<FEN> ;D1 20 ;D2 400 ...\" with a FEN of 6 fields or 4, an optional\n"
    "\";id NAME\"; '#' starts a comment line.\n\n"
    "      --max-depth N      skip depths above N (1..32)\n"
    "      --max-nodes N      skip depths whose known count is above N\n"
    "      --chess960         read every position as Chess960 (otherwise implied by the\n"
    "                         castling field)\n"
    "  -h, --help             this text\n\n"
    "Exit status: 0 all passed, 1 a count differed, 2 unreadable file or malformed line\n"
    "(the other lines still run).\n";

static void run_record(const char *where, const EpdRecord *record, const SuiteOptions *o, SuiteTotals *totals) {
    Position pos;
    char error[FEN_ERROR_SIZE], text[COUNT_TEXT_SIZE], expected[COUNT_TEXT_SIZE];
    if (!fen_parse(&pos, record->fen, o->chess960, error, sizeof error)) {
        fprintf(stderr, "perft suite: %s: bad FEN '%s': %s\n", where, record->fen, error);
        totals->malformed++;
        return;
    }
    int first = 0, last = 0;
    char failures[2048] = "";
    size_t used = 0;
    for (int i = 0; i < record->expectation_count; i++) {
        const EpdExpectation *e = &record->expect[i];
        if (e->depth > o->max_depth || e->nodes > o->max_nodes)
            continue;
        Count got = perft_count(&pos, e->depth);
        totals->counts++;
        totals->nodes += got;
        if (!first)
            first = e->depth;
        last = e->depth;
        if (got != e->nodes && used < sizeof failures - 300)
            used += (size_t)snprintf(failures + used, sizeof failures - used,
                                     "      depth %d: expected %s, got %s\n"
                                     "      reproduce: perft divide -d %d --fen \"%s\"%s\n",
                                     e->depth, count_format(e->nodes, false, expected),
                                     count_format(got, false, text), e->depth, record->fen,
                                     pos.chess960 ? " --chess960" : "");
    }
    char depths[32];
    if (!first)
        snprintf(depths, sizeof depths, "none");
    else if (first == last)
        snprintf(depths, sizeof depths, "D%d", first);
    else
        snprintf(depths, sizeof depths, "D%d-D%d", first, last);
    bool failed = used > 0;
    printf("%-4s  %-24s %-7s  %s\n", failed ? "FAIL" : "pass", where, depths, record->fen);
    if (failed)
        fputs(failures, stdout);
    if (failed)
        totals->failed++;
    else
        totals->passed++;
}

static void run_line(const char *file, int line_number, const char *line, const SuiteOptions *o, SuiteTotals *totals) {
    EpdRecord record;
    char error[EPD_ERROR_SIZE], where[96];
    EpdStatus status = epd_parse_line(line, &record, error, sizeof error);
    if (status == EPD_NOT_A_RECORD)
        return;
    if (status == EPD_MALFORMED) {
        fprintf(stderr, "perft suite: %s:%d: %s\n", file, line_number, error);
        totals->malformed++;
        return;
    }
    if (record.id[0])
        snprintf(where, sizeof where, "%s", record.id);
    else
        snprintf(where, sizeof where, "%s:%d", file, line_number);
    run_record(where, &record, o, totals);
}

static bool run_file(const char *path, const SuiteOptions *o, SuiteTotals *totals) {
    FILE *file = fopen(path, "r");
    if (!file) {
        cli_fail("suite", "cannot read '%s': %s", path, strerror(errno));
        return false;
    }
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    char *line = NULL;
    size_t capacity = 0;
    int line_number = 0;
    while (getline(&line, &capacity, file) != -1) {
        line_number++;
        run_line(name, line_number, line, o, totals);
        fflush(stdout);
    }
    free(line);
    fclose(file);
    return true;
}

int cmd_suite(int argc, char **argv) {
    enum { OPT_MAX_DEPTH = 256, OPT_MAX_NODES, OPT_CHESS960 };
    static const struct option long_options[] = {
        {"max-depth", required_argument, NULL, OPT_MAX_DEPTH}, {"max-nodes", required_argument, NULL, OPT_MAX_NODES},
        {"chess960", no_argument, NULL, OPT_CHESS960},          {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    SuiteOptions o = {PERFT_MAX_DEPTH, ~(Count)0, false};
    opterr = 0;
    optind = 1;
    for (;;) {
        int c = getopt_long(argc, argv, ":h", long_options, NULL);
        if (c == -1)
            break;
        switch (c) {
        case OPT_MAX_DEPTH:
            if (!cli_parse_long("suite", "--max-depth", optarg, 1, PERFT_MAX_DEPTH, &o.max_depth))
                return EXIT_BAD_INPUT;
            break;
        case OPT_MAX_NODES:
            if (!count_parse(optarg, strlen(optarg), &o.max_nodes))
                return cli_fail("suite", "--max-nodes '%s' is not a whole number", optarg);
            break;
        case OPT_CHESS960: o.chess960 = true; break;
        case 'h': fputs(suite_help, stdout); return EXIT_OK;
        case ':': return cli_fail("suite", "option '%s' needs a value", argv[optind - 1]);
        default: return cli_fail("suite", "unknown option '%s' (try perft suite --help)", argv[optind - 1]);
        }
    }

    SuiteTotals totals = {0, 0, 0, 0, 0};
    bool readable = true;
    double start = cli_now();
    if (optind == argc) {
        for (size_t i = 0; i < sizeof quick_suite_lines / sizeof quick_suite_lines[0]; i++)
            run_line("built-in", (int)i + 1, quick_suite_lines[i], &o, &totals);
    }
    for (int i = optind; i < argc; i++)
        readable &= run_file(argv[i], &o, &totals);
    double seconds = cli_now() - start;

    if (!readable && totals.passed + totals.failed + totals.malformed == 0)
        return EXIT_BAD_INPUT; /* the reason is already on stderr */
    char nodes[COUNT_TEXT_SIZE];
    printf("%d passed, %d failed", totals.passed, totals.failed);
    if (totals.malformed)
        printf(", %d unreadable", totals.malformed);
    printf(" (%d counts, %s nodes, %.2f s)\n", totals.counts, count_format(totals.nodes, true, nodes), seconds);
    if (totals.failed)
        return EXIT_MISMATCH;
    return readable && !totals.malformed ? EXIT_OK : EXIT_BAD_INPUT;
}
