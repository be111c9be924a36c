/* cmd_suite.c — `perft suite`: positions with known counts in, a verdict out. Every
 * position is counted on the shared driver (threads and tables kept from position to
 * position) and reported as it finishes: as text, TAP or JSON on stdout, and as
 * JUnit XML in a file written at the end (through a temporary file and a rename). */
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "quick_suite.h"
#include "../io/outfile.h"
#include "report.h"
#include "../suites/suite.h"

typedef enum { OUTPUT_TEXT, OUTPUT_TAP, OUTPUT_JSON } Output;

typedef struct SuiteOptions {
    long max_depth;
    Count max_nodes;
    long count_depth; /* depth counted for positions without known counts */
    bool chess960;
    Output output;
    const char *junit;
    LegacyRunSettings run;
} SuiteOptions;

typedef enum { VERDICT_PASS, VERDICT_FAIL, VERDICT_COUNTED, VERDICT_SKIPPED, VERDICT_MALFORMED } Verdict;

typedef struct DepthResult {
    int depth;
    bool known;  /* an expected count was given */
    Count expected, got;
    double seconds;
} DepthResult;

/* A growable text buffer, for the JUnit document. */
typedef struct Text {
    char *data;
    size_t length, capacity;
} Text;

static void text_append(Text *t, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void text_append(Text *t, const char *format, ...) {
    va_list args;
    for (;;) {
        va_start(args, format);
        int n = vsnprintf(t->data ? t->data + t->length : NULL, t->data ? t->capacity - t->length : 0, format, args);
        va_end(args);
        if (n < 0)
            return;
        if (t->data && t->length + (size_t)n < t->capacity) {
            t->length += (size_t)n;
            return;
        }
        size_t capacity = (t->capacity + (size_t)n + 1) * 2;
        char *grown = realloc(t->data, capacity);
        if (!grown)
            return;
        t->data = grown;
        t->capacity = capacity;
    }
}

static void text_append_xml(Text *t, const char *s) {
    for (; *s; s++) {
        switch (*s) {
        case '<': text_append(t, "&lt;"); break;
        case '>': text_append(t, "&gt;"); break;
        case '&': text_append(t, "&amp;"); break;
        case '"': text_append(t, "&quot;"); break;
        default: text_append(t, "%c", (unsigned char)*s >= 0x20 ? *s : '?');
        }
    }
}

typedef struct Totals {
    int passed, failed, counted, skipped, malformed;
    int counts, tap_points, testcases;
    Count nodes;
} Totals;

/* What a run of the whole command keeps: totals, and the JUnit document being built. */
typedef struct SuiteRun {
    const SuiteOptions *o;
    Driver driver;
    Totals all, file;      /* the whole run, and the current file (for JUnit) */
    double file_seconds;
    Text junit, junit_file;
    bool first_json;
} SuiteRun;

static const char suite_help[] =
    "usage: perft suite [FILE...] [--max-depth N] [--max-nodes N] [-d N] [--chess960] [-t N]\n"
    "                   [--hash MB] [--json | --tap] [--junit FILE]\n\n"
    "Counts every position of the suites at every depth they list and compares with the\n"
    "known counts: one line per position (pass or FAIL, its id or file:line, the depths\n"
    "checked, the FEN), then \"N passed, N failed\" with the nodes and time spent. A\n"
    "mismatch prints the depth, expected and actual counts and the perft divide command\n"
    "that reproduces it. Without FILE, runs the built-in quick selection (well-known\n"
    "positions, e.p. and castling traps, Chess960; a few seconds).\n\n"
    "Formats, mixed freely in one file:\n"
    "  EPD with counts    <FEN> ;D1 20 ;D2 400 [;id NAME]   (FEN of 6 fields or 4)\n"
    "  python-chess       id NAME / epd <FEN> / perft 1 20 / perft 2 400   (blocks)\n"
    "  plain FEN lists    <FEN>   (no counts: counted to -d N and printed, not checked)\n"
    "'#' starts a comment line. Chess960 is read from the castling field.\n\n"
    "      --max-depth N      skip depths above N (1..32)\n"
    "      --max-nodes N      skip depths whose known count is above N\n"
    "  -d, --depth N          depth to count positions without known counts (default 3)\n"
    "      --chess960         read every position as Chess960\n"
    "  -t, --threads N        threads (default: every processor)\n"
    "      --hash MB          hash tables, kept from position to position (default: as for\n"
    "                         perft count -d 6, 64 MB, or less with --max-depth below 6)\n"
    "      --json             one JSON document on stdout instead of text (schema: README)\n"
    "      --tap              TAP (version 13) on stdout instead of text: one test point per\n"
    "                         position and depth\n"
    "      --junit FILE       also write JUnit XML to FILE: a testsuite per input file, a\n"
    "                         testcase per position and depth\n"
    "  -h, --help             this text\n\n"
    "Exit status: 0 all passed, 1 a count differed, 2 unreadable file, malformed line or\n"
    "bad FEN (the other lines still run) or bad option.\n";

static void print_json_position(SuiteRun *r, const char *label, int line, const char *file, const EpdRecord *record,
                                bool chess960, Verdict verdict, const DepthResult *depths, int n, const char *error) {
    static const char *const names[] = {"pass", "fail", "counted", "skipped", "malformed"};
    char text[COUNT_TEXT_SIZE];
    printf("%s\n    {\"file\": ", r->first_json ? "" : ",");
    r->first_json = false;
    report_json_string(stdout, file);
    printf(", \"line\": %d, \"id\": ", line);
    if (record && record->id[0])
        report_json_string(stdout, record->id);
    else
        printf("null");
    printf(", \"label\": ");
    report_json_string(stdout, label);
    printf(", \"fen\": ");
    if (record)
        report_json_string(stdout, record->fen);
    else
        printf("null");
    printf(", \"chess960\": %s, \"status\": \"%s\"", chess960 ? "true" : "false", names[verdict]);
    if (error) {
        printf(", \"error\": ");
        report_json_string(stdout, error);
    }
    printf(", \"depths\": [");
    for (int i = 0; i < n; i++) {
        printf("%s{\"depth\": %d, \"expected\": ", i ? ", " : "", depths[i].depth);
        if (depths[i].known)
            printf("\"%s\"", count_format(depths[i].expected, false, text));
        else
            printf("null");
        printf(", \"got\": \"%s\", \"pass\": ", count_format(depths[i].got, false, text));
        printf("%s, \"seconds\": %.6f}", !depths[i].known ? "null" : depths[i].got == depths[i].expected ? "true" : "false",
               depths[i].seconds);
    }
    printf("]}");
}

static void junit_testcase(SuiteRun *r, const char *label, const char *fen, const DepthResult *d, const char *error,
                           const char *divide_flags) {
    char expected[COUNT_TEXT_SIZE], got[COUNT_TEXT_SIZE];
    Text *t = &r->junit_file;
    r->file.testcases++;
    r->all.testcases++;
    text_append(t, "    <testcase classname=\"");
    text_append_xml(t, label);
    if (!d) {
        text_append(t, "\" name=\"malformed\" time=\"0\">\n      <error type=\"malformed\" message=\"");
        text_append_xml(t, error);
        text_append(t, "\"/>\n    </testcase>\n");
        return;
    }
    text_append(t, "\" name=\"D%d ", d->depth);
    text_append_xml(t, fen);
    text_append(t, "\" time=\"%.6f\"", d->seconds);
    count_format(d->got, false, got);
    if (!d->known) {
        text_append(t, ">\n      <skipped message=\"no known count; counted %s\"/>\n    </testcase>\n", got);
    } else if (d->got != d->expected) {
        text_append(t, ">\n      <failure type=\"mismatch\" message=\"expected %s, got %s\">perft divide -d %d --fen &quot;",
                    count_format(d->expected, false, expected), got, d->depth);
        text_append_xml(t, fen);
        text_append(t, "&quot;%s</failure>\n    </testcase>\n", divide_flags);
    } else {
        text_append(t, "/>\n");
    }
}

static void tap_point(SuiteRun *r, bool ok, const char *format, ...) __attribute__((format(printf, 3, 4)));
static void tap_point(SuiteRun *r, bool ok, const char *format, ...) {
    va_list args;
    va_start(args, format);
    printf("%sok %d - ", ok ? "" : "not ", ++r->all.tap_points);
    vprintf(format, args);
    putchar('\n');
    va_end(args);
}

/* The file's name without its folders, for labels. */
static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static void report_malformed(SuiteRun *r, const char *file, int line, const EpdRecord *record, const char *error) {
    char label[96];
    snprintf(label, sizeof label, "%s:%d", base_name(file), line);
    fprintf(stderr, "perft suite: %s: %s\n", label, error);
    r->all.malformed++;
    r->file.malformed++;
    if (r->o->output == OUTPUT_TAP)
        tap_point(r, false, "%s # malformed: %s", label, error);
    else if (r->o->output == OUTPUT_JSON)
        print_json_position(r, label, line, file, record, false, VERDICT_MALFORMED, NULL, 0, error);
    if (r->o->junit)
        junit_testcase(r, label, "", NULL, error, "");
}

static void run_record(SuiteRun *r, const char *file, int line, const EpdRecord *record) {
    const SuiteOptions *o = r->o;
    Position pos;
    char error[FEN_ERROR_SIZE], label[96];
    if (!fen_parse(&pos, record->fen, o->chess960, error, sizeof error)) {
        char reason[EPD_FEN_SIZE + FEN_ERROR_SIZE + 16];
        snprintf(reason, sizeof reason, "bad FEN '%s': %s", record->fen, error);
        report_malformed(r, file, line, record, reason);
        return;
    }
    if (record->id[0])
        snprintf(label, sizeof label, "%s", record->id);
    else
        snprintf(label, sizeof label, "%s:%d", base_name(file), line);

    /* The depths to run: the known ones under the limits, or 1..-d for a bare FEN. */
    DepthResult depths[EPD_MAX_DEPTHS];
    int n = 0;
    if (record->expectation_count == 0) {
        for (int d = 1; d <= o->count_depth && d <= o->max_depth; d++)
            depths[n++] = (DepthResult){d, false, 0, 0, 0};
    }
    for (int i = 0; i < record->expectation_count; i++) {
        const EpdExpectation *e = &record->expect[i];
        if (e->depth <= o->max_depth && e->nodes <= o->max_nodes)
            depths[n++] = (DepthResult){e->depth, true, e->nodes, 0, 0};
    }
    bool failed = false;
    for (int i = 0; i < n; i++) {
        RunReport run;
        driver_run(&r->driver, &pos, depths[i].depth, NULL, NULL, &run);
        depths[i].got = run.total;
        depths[i].seconds = run.seconds;
        failed |= depths[i].known && run.total != depths[i].expected;
        r->all.counts++;
        r->all.nodes += run.total;
        r->file_seconds += run.seconds;
    }
    Verdict verdict = failed ? VERDICT_FAIL : n == 0 ? VERDICT_SKIPPED
                    : record->expectation_count == 0 ? VERDICT_COUNTED : VERDICT_PASS;
    int *tally[] = {&r->all.passed, &r->all.failed, &r->all.counted, &r->all.skipped};
    int *file_tally[] = {&r->file.passed, &r->file.failed, &r->file.counted, &r->file.skipped};
    ++*tally[verdict];
    ++*file_tally[verdict];
    const char *divide_flags = pos.chess960 ? " --chess960" : "";
    char text[COUNT_TEXT_SIZE], expected[COUNT_TEXT_SIZE];

    if (o->output == OUTPUT_TEXT) {
        static const char *const words[] = {"pass", "FAIL", "count", "skip"};
        char span[32] = "none";
        if (n == 1)
            snprintf(span, sizeof span, "D%d", depths[0].depth);
        else if (n > 1)
            snprintf(span, sizeof span, "D%d-D%d", depths[0].depth, depths[n - 1].depth);
        printf("%-5s %-28s %-7s  %s", words[verdict], label, span, record->fen);
        if (verdict == VERDICT_COUNTED)
            for (int i = 0; i < n; i++)
                printf(" ;D%d %s", depths[i].depth, count_format(depths[i].got, false, text));
        putchar('\n');
        for (int i = 0; i < n; i++)
            if (depths[i].known && depths[i].got != depths[i].expected)
                printf("      depth %d: expected %s, got %s\n      reproduce: perft divide -d %d --fen \"%s\"%s\n",
                       depths[i].depth, count_format(depths[i].expected, false, expected),
                       count_format(depths[i].got, false, text), depths[i].depth, record->fen, divide_flags);
    } else if (o->output == OUTPUT_TAP) {
        if (n == 0)
            tap_point(r, true, "%s # SKIP every depth is above the limits", label);
        for (int i = 0; i < n; i++) {
            const DepthResult *d = &depths[i];
            count_format(d->got, false, text);
            if (!d->known)
                tap_point(r, true, "%s depth %d: %s # SKIP no known count", label, d->depth, text);
            else if (d->got == d->expected)
                tap_point(r, true, "%s depth %d: %s", label, d->depth, text);
            else
                tap_point(r, false, "%s depth %d: expected %s, got %s\n  ---\n  fen: \"%s\"\n  expected: \"%s\"\n"
                          "  got: \"%s\"\n  reproduce: perft divide -d %d --fen \"%s\"%s\n  ...",
                          label, d->depth, count_format(d->expected, false, expected), text, record->fen, expected,
                          text, d->depth, record->fen, divide_flags);
        }
    } else {
        print_json_position(r, label, line, file, record, pos.chess960, verdict, depths, n, NULL);
    }
    if (o->junit)
        for (int i = 0; i < n; i++)
            junit_testcase(r, label, record->fen, &depths[i], NULL, divide_flags);
    fflush(stdout);
}

/* Closes the current file's <testsuite> element. */
static void junit_end_file(SuiteRun *r, const char *name) {
    Text *t = &r->junit;
    text_append(t, "  <testsuite name=\"");
    text_append_xml(t, name);
    text_append(t, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" time=\"%.6f\">\n%s  </testsuite>\n",
                r->file.testcases, r->file.failed, r->file.malformed, r->file_seconds,
                r->junit_file.data ? r->junit_file.data : "");
    r->junit_file.length = 0;
    if (r->junit_file.data)
        r->junit_file.data[0] = '\0';
}

static void run_reader(SuiteRun *r, SuiteReader *reader) {
    EpdRecord record;
    int line;
    char error[EPD_ERROR_SIZE + 64];
    memset(&r->file, 0, sizeof r->file);
    r->file_seconds = 0;
    for (;;) {
        SuiteItem item = suite_next(reader, &record, &line, error, sizeof error);
        if (item == SUITE_END)
            break;
        if (item == SUITE_MALFORMED)
            report_malformed(r, reader->name, reader->line_number, NULL, error);
        else
            run_record(r, reader->name, line, &record);
    }
    if (r->o->junit)
        junit_end_file(r, reader->name);
}

/* Writes the JUnit document and moves it into place. */
static bool write_junit(SuiteRun *r, OutFile *junit, double seconds) {
    const Totals *a = &r->all;
    fprintf(junit->stream, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"perft suite\" tests=\"%d\" "
            "failures=\"%d\" errors=\"%d\" time=\"%.6f\">\n%s</testsuites>\n", a->testcases, a->failed, a->malformed,
            seconds, r->junit.data ? r->junit.data : "");
    char error[4400];
    if (!outfile_commit(junit, error, sizeof error)) {
        cli_fail("suite", "%s", error);
        return false;
    }
    return true;
}

static int parse_options(int argc, char **argv, SuiteOptions *o) {
    enum { OPT_MAX_DEPTH = 256, OPT_MAX_NODES, OPT_CHESS960, OPT_HASH, OPT_JSON, OPT_TAP, OPT_JUNIT };
    static const struct option long_options[] = {
        {"max-depth", required_argument, NULL, OPT_MAX_DEPTH}, {"max-nodes", required_argument, NULL, OPT_MAX_NODES},
        {"depth", required_argument, NULL, 'd'},               {"chess960", no_argument, NULL, OPT_CHESS960},
        {"threads", required_argument, NULL, 't'},             {"hash", required_argument, NULL, OPT_HASH},
        {"json", no_argument, NULL, OPT_JSON},                 {"tap", no_argument, NULL, OPT_TAP},
        {"junit", required_argument, NULL, OPT_JUNIT},         {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    memset(o, 0, sizeof *o);
    o->max_depth = PERFT_MAX_DEPTH;
    o->max_nodes = ~(Count)0;
    o->count_depth = 3;
    cli_default_run_settings(&o->run);
    cli_options_start();
    for (;;) {
        int c = getopt_long(argc, argv, ":d:t:h", long_options, NULL);
        if (c == -1)
            break;
        switch (c) {
        case OPT_MAX_DEPTH:
            if (!cli_parse_long("suite", "--max-depth", optarg, 1, PERFT_MAX_DEPTH, &o->max_depth))
                return EXIT_BAD_INPUT;
            break;
        case OPT_MAX_NODES:
            if (!count_parse(optarg, strlen(optarg), &o->max_nodes))
                return cli_fail("suite", "--max-nodes '%s' is not a whole number", optarg);
            break;
        case 'd':
            if (!cli_parse_long("suite", "depth", optarg, 1, PERFT_MAX_DEPTH, &o->count_depth))
                return EXIT_BAD_INPUT;
            break;
        case OPT_CHESS960: o->chess960 = true; break;
        case 't':
        case OPT_HASH:
            if (!cli_parse_run_option("suite", c == 't' ? RUN_OPTION_THREADS : RUN_OPTION_HASH, optarg, &o->run))
                return EXIT_BAD_INPUT;
            break;
        case OPT_JSON:
        case OPT_TAP: {
            Output wanted = c == OPT_JSON ? OUTPUT_JSON : OUTPUT_TAP;
            if (o->output != OUTPUT_TEXT && o->output != wanted)
                return cli_fail("suite", "--json and --tap both given; choose one");
            o->output = wanted;
            break;
        }
        case OPT_JUNIT: o->junit = optarg; break;
        case 'h': fputs(suite_help, stdout); return EXIT_OK;
        default: return cli_option_problem("suite", c, argv);
        }
    }
    return -1;
}

int cmd_suite(Cli *cli, int argc, char **argv) {
    (void)cli;
    SuiteOptions o;
    int status = parse_options(argc, argv, &o);
    if (status >= 0)
        return status;
    /* An unwritable JUnit path fails now, before anything is counted. */
    OutFile junit = {.stream = NULL};
    char error[4400];
    if (o.junit && !outfile_open(&junit, o.junit, error, sizeof error))
        return cli_fail("suite", "%s", error);
    SuiteRun r;
    memset(&r, 0, sizeof r);
    r.o = &o;
    r.first_json = true;
    /* Tables sized for the deepest depth suite lines usually list: 6. */
    if (!cli_create_driver("suite", &o.run, o.max_depth < 6 ? (int)o.max_depth : 6, &r.driver)) {
        outfile_abandon(&junit);
        return EXIT_BAD_INPUT;
    }
    if (o.output == OUTPUT_TAP)
        printf("TAP version 13\n");
    if (o.output == OUTPUT_JSON) {
        report_json_open(stdout, "suite");
        printf("  \"options\": {\"threads\": %d, \"hash_mb\": %ld, \"max_depth\": %ld, \"max_nodes\": ",
               r.driver.threads, o.run.hash_mb, o.max_depth);
        char text[COUNT_TEXT_SIZE];
        if (o.max_nodes == ~(Count)0)
            printf("null");
        else
            printf("\"%s\"", count_format(o.max_nodes, false, text));
        printf("},\n  \"positions\": [");
    }

    bool readable = true;
    double start = cli_now();
    SuiteReader reader;
    if (optind == argc) {
        suite_open_lines(&reader, "quick.epd", quick_suite_lines, sizeof quick_suite_lines / sizeof quick_suite_lines[0]);
        run_reader(&r, &reader);
        suite_close(&reader);
    }
    for (int i = optind; i < argc; i++) {
        if (!suite_open(&reader, argv[i], error, sizeof error)) {
            cli_fail("suite", "%s", error);
            readable = false;
            if (o.output == OUTPUT_TAP)
                tap_point(&r, false, "%s # unreadable", argv[i]);
            continue;
        }
        run_reader(&r, &reader);
        suite_close(&reader);
    }
    double seconds = cli_now() - start;

    const Totals *a = &r.all;
    char nodes[COUNT_TEXT_SIZE];
    count_format(a->nodes, true, nodes);
    char summary[256];
    int length = snprintf(summary, sizeof summary, "%d passed, %d failed", a->passed, a->failed);
    if (a->counted)
        length += snprintf(summary + length, sizeof summary - (size_t)length, ", %d counted", a->counted);
    if (a->skipped)
        length += snprintf(summary + length, sizeof summary - (size_t)length, ", %d skipped", a->skipped);
    if (a->malformed)
        length += snprintf(summary + length, sizeof summary - (size_t)length, ", %d unreadable", a->malformed);
    snprintf(summary + length, sizeof summary - (size_t)length, " (%d counts, %s nodes, %.2f s)", a->counts, nodes,
             seconds);
    bool nothing_read = a->passed + a->failed + a->counted + a->skipped + a->malformed == 0;
    if (o.output == OUTPUT_TEXT) {
        if (!nothing_read || readable) /* else the reason on stderr says it all */
            printf("%s\n", summary);
    } else if (o.output == OUTPUT_TAP)
        printf("1..%d\n# %s\n", a->tap_points, summary);
    else
        printf("\n  ],\n  \"summary\": {\"passed\": %d, \"failed\": %d, \"counted\": %d, \"skipped\": %d, "
               "\"malformed\": %d, \"counts\": %d, \"nodes\": \"%s\", \"seconds\": %.6f}\n}\n",
               a->passed, a->failed, a->counted, a->skipped, a->malformed, a->counts,
               count_format(a->nodes, false, nodes), seconds);
    fflush(stdout);
    if (junit.stream && !write_junit(&r, &junit, seconds))
        readable = false;
    free(r.junit.data);
    free(r.junit_file.data);
    driver_destroy(&r.driver);
    if (a->failed)
        return EXIT_MISMATCH;
    return readable && !a->malformed ? EXIT_OK : EXIT_BAD_INPUT;
}
