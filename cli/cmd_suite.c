/* cmd_suite.c — `perft suite`: positions with known counts in, a verdict out. Every
 * position is counted on the shared driver (threads and tables kept from position to
 * position) and reported as it finishes, as text or TAP on stdout; --json builds one
 * document printed whole at the end; --junit writes JUnit XML to a file at the end
 * (io/outfile.h: whole or not at all). Ctrl-C (or SIGTERM, SIGHUP) ends the run with what
 * finished. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../io/json.h"
#include "../io/outfile.h"
#include "../io/text.h"
#include "../perft/clock.h"
#include "../suites/suite.h"
#include "commands.h"
#include "quick_suite.h"

enum { SUITE_JSON_SCHEMA = 1 };

typedef enum { OUTPUT_TEXT, OUTPUT_TAP, OUTPUT_JSON } Output;

typedef struct SuiteOptions {
    long max_depth;
    Count max_known;  /* 0: none */
    long count_depth; /* depth counted for positions without known counts */
    bool chess960, json, tap, quiet;
    const char *junit;
    RunOptions run;
} SuiteOptions;

typedef enum { VERDICT_PASS, VERDICT_FAIL, VERDICT_COUNTED, VERDICT_SKIPPED, VERDICT_MALFORMED } Verdict;

static const char *const verdict_names[] = {"pass", "fail", "counted", "skipped", "malformed"};

typedef struct DepthResult {
    int depth;
    bool known; /* an expected count was given */
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

/* What a run of the whole command keeps: totals, the documents being built, the stop. */
typedef struct SuiteRun {
    Cli *cli;
    const SuiteOptions *o;
    Output output;
    Driver driver;
    RunLimits limits;      /* Ctrl-C, SIGTERM, SIGHUP */
    bool interrupted;
    Totals all, file;      /* the whole run, and the current file (for JUnit) */
    double file_seconds;
    Text junit, junit_file;
    json_t *positions;     /* --json: the "positions" array */
} SuiteRun;

static const CliSpec suite_spec = {
    .operands = "[FILE...]",
    .max_operands = -1,
    .summary =
        "Counts every position of the suite files at every depth they list and compares with\n"
        "the known counts: one line per position (pass or FAIL, its id or file:line, the depths\n"
        "checked, the FEN), then \"N passed, N failed\" with the nodes and time spent. A mismatch\n"
        "prints the depth, expected and actual counts and the perft divide command that\n"
        "reproduces it. Without FILE, runs the built-in quick selection (61 well-known\n"
        "positions, e.p. and castling traps, Chess960: 1.27 billion nodes, about a second on\n"
        "one thread).\n",
    .epilogue =
        "Formats, mixed freely in one file:\n"
        "  EPD with counts    <FEN> ;D1 20 ;D2 400 [;id NAME]   (FEN of 6 fields or 4)\n"
        "  python-chess       id NAME / epd <FEN> / perft 1 20 / perft 2 400   (blocks)\n"
        "  plain FEN lists    <FEN>   (no counts: counted to -d N and printed, not checked)\n"
        "'#' starts a comment line. Chess960 is read from the castling field. Lines are ASCII:\n"
        "every line that is not a record, a comment or blank is reported as malformed with\n"
        "its file, line and reason, and the other lines still run.\n\n"
        "--hash: tables kept from position to position, by default as for perft count -d 6\n"
        "(64 MB), or less with --max-depth below 6.\n"
        "--max-known was called --max-nodes before perft's options were unified; --max-nodes\n"
        "now means \"stop after about N leaves\" (count, divide), which suite does not take.\n\n"
        "Ctrl-C (or SIGTERM, SIGHUP) stops the run: the positions finished (one cut short\n"
        "with the depths it finished) and the summary are printed, then \"status: interrupted\".\n"
        "Exit status: 0 all passed, 1 a count differed, 2 an unreadable file, a malformed line\n"
        "or a bad FEN (when nothing differed) or a bad option, 130 interrupted (Ctrl-C,\n"
        "SIGTERM, SIGHUP).\n",
};

/* Returns CLI_CONTINUE to go on, or the exit status to end with. */
static int parse_options(Cli *cli, int argc, char **argv, SuiteOptions *o, CliOperands *files) {
    memset(o, 0, sizeof *o);
    o->max_depth = CLI_MAX_DEPTH;
    o->count_depth = 3;
    cli_run_defaults(&o->run);
    const CliOption options[] = {
        CLI_OPT_INT("max-depth", 0, "N", &o->max_depth, 1, CLI_MAX_DEPTH, "skip depths above N"),
        CLI_OPT_COUNT("max-known", "N", &o->max_known, 1,
                      "skip depths whose known count is above N (formerly\n--max-nodes; see below)"),
        CLI_OPT_DEPTH(&o->count_depth, 1, CLI_MAX_DEPTH, "depth to count positions without known counts"),
        CLI_OPT_CHESS960(&o->chess960),
        CLI_OPTS_RUN(&o->run),
        CLI_OPT_JSON(&o->json),
        CLI_OPT_QUIET(&o->quiet, "text: no line for a position that passed or was skipped\n(failures, counts and the summary stay)"),
        CLI_OPT_FLAG("tap", 0, &o->tap,
                     "TAP (version 13) on stdout instead of text: one test point\nper position and depth"),
        CLI_OPT_STRING("junit", 0, "FILE", &o->junit,
                       "also write JUnit XML to FILE: a testsuite per input file, a\ntestcase per position and depth"),
        CLI_OPT_END,
    };
    int status = cli_parse(cli, &suite_spec, options, argc, argv, files);
    if (status == CLI_CONTINUE && o->json && o->tap)
        return cli_error(cli, "--json and --tap both given; choose one");
    return status;
}

static void add_json_position(SuiteRun *r, const char *label, int line, const char *file, const EpdRecord *record,
                              bool chess960, Verdict verdict, const DepthResult *depths, int n, const char *error) {
    json_t *p = json_object();
    json_set(p, "file", json_outside_string(file));
    json_set(p, "line", json_integer(line));
    json_set(p, "id", record && record->id[0] ? json_string(record->id) : json_null());
    json_set(p, "label", json_string(label));
    json_set(p, "fen", record ? json_string(record->fen) : json_null());
    json_set(p, "chess960", json_boolean(chess960));
    json_set(p, "status", json_string(verdict_names[verdict]));
    if (error)
        json_set(p, "error", json_string(error));
    json_t *list = json_array();
    for (int i = 0; i < n; i++) {
        json_t *d = json_object();
        json_set(d, "depth", json_integer(depths[i].depth));
        json_set(d, "expected", depths[i].known ? json_count(depths[i].expected) : json_null());
        json_set(d, "got", json_count(depths[i].got));
        json_set(d, "pass", depths[i].known ? json_boolean(depths[i].got == depths[i].expected) : json_null());
        json_set(d, "seconds", json_real(depths[i].seconds));
        json_append(list, d);
    }
    json_set(p, "depths", list);
    json_append(r->positions, p);
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
    fprintf(r->cli->out, "%sok %d - ", ok ? "" : "not ", ++r->all.tap_points);
    vfprintf(r->cli->out, format, args);
    fputc('\n', r->cli->out);
    va_end(args);
}

/* A line the reader could not take, or a record whose FEN is bad: said on stderr with
 * file:line and the reason (which quotes the line), and counted as malformed. */
static void report_malformed(SuiteRun *r, const SuiteReader *reader, int line, const EpdRecord *record,
                             const char *error) {
    char label[SUITE_LABEL_SIZE];
    suite_label(reader, NULL, line, label);
    cli_error(r->cli, "%s: %s", label, error);
    r->all.malformed++;
    r->file.malformed++;
    if (r->output == OUTPUT_TAP)
        tap_point(r, false, "%s # malformed: %s", label, error);
    else if (r->output == OUTPUT_JSON)
        add_json_position(r, label, line, reader->name, record, false, VERDICT_MALFORMED, NULL, 0, error);
    if (r->o->junit)
        junit_testcase(r, label, "", NULL, error, "");
}

static void print_text(SuiteRun *r, const char *label, const EpdRecord *record, Verdict verdict,
                       const DepthResult *depths, int n, const char *divide_flags) {
    static const char *const words[] = {"pass", "FAIL", "count", "skip"};
    FILE *out = r->cli->out;
    char span[32] = "none", text[COUNT_TEXT_SIZE], expected[COUNT_TEXT_SIZE];
    if (n == 1)
        snprintf(span, sizeof span, "D%d", depths[0].depth);
    else if (n > 1)
        snprintf(span, sizeof span, "D%d-D%d", depths[0].depth, depths[n - 1].depth);
    fprintf(out, "%-5s %-28s %-7s  %s", words[verdict], label, span, record->fen);
    if (verdict == VERDICT_COUNTED)
        for (int i = 0; i < n; i++)
            fprintf(out, " ;D%d %s", depths[i].depth, count_format(depths[i].got, false, text));
    fputc('\n', out);
    for (int i = 0; i < n; i++)
        if (depths[i].known && depths[i].got != depths[i].expected)
            fprintf(out, "      depth %d: expected %s, got %s\n      reproduce: perft divide -d %d --fen \"%s\"%s\n",
                    depths[i].depth, count_format(depths[i].expected, false, expected),
                    count_format(depths[i].got, false, text), depths[i].depth, record->fen, divide_flags);
}

static void print_tap(SuiteRun *r, const char *label, const EpdRecord *record, const DepthResult *depths, int n,
                      const char *divide_flags) {
    char text[COUNT_TEXT_SIZE], expected[COUNT_TEXT_SIZE];
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
}

/* Counts the depths of one record; a position cut short by Ctrl-C is reported with the
 * depths it finished (or not at all if none). */
static void run_record(SuiteRun *r, const SuiteReader *reader, int line, const EpdRecord *record) {
    const SuiteOptions *o = r->o;
    Position pos;
    char error[FEN_ERROR_SIZE], label[SUITE_LABEL_SIZE];
    if (!fen_parse(&pos, record->fen, o->chess960, error, sizeof error)) {
        char reason[TEXT_QUOTE_SIZE + FEN_ERROR_SIZE + 16], shown[TEXT_QUOTE_SIZE];
        snprintf(reason, sizeof reason, "bad FEN '%s': %s", text_quote(record->fen, shown), error);
        report_malformed(r, reader, line, record, reason);
        return;
    }
    cli_use_keys(r->cli, &o->run, &pos);
    suite_label(reader, record->id, line, label);

    /* The depths to run: the known ones under the limits, or 1..-d for a bare FEN. */
    DepthResult depths[EPD_MAX_DEPTHS];
    int n = 0;
    if (record->expectation_count == 0)
        for (int d = 1; d <= o->count_depth && d <= o->max_depth; d++)
            depths[n++] = (DepthResult){d, false, 0, 0, 0};
    for (int i = 0; i < record->expectation_count; i++) {
        const EpdExpectation *e = &record->expect[i];
        if (e->depth <= o->max_depth && (!o->max_known || e->nodes <= o->max_known))
            depths[n++] = (DepthResult){e->depth, true, e->nodes, 0, 0};
    }
    bool failed = false;
    for (int i = 0; i < n; i++) {
        RunReport run;
        driver_run(&r->driver, &pos, depths[i].depth, &r->limits, NULL, &run);
        if (!run.complete || *r->limits.interrupt) {
            r->interrupted = true;
            if (!run.complete) {
                n = i;
                break;
            }
        }
        depths[i].got = run.total;
        depths[i].seconds = run.seconds;
        failed |= depths[i].known && run.total != depths[i].expected;
        r->all.counts++;
        r->all.nodes += run.total;
        r->file_seconds += run.seconds;
        if (r->interrupted) {
            n = i + 1;
            break;
        }
    }
    if (r->interrupted && n == 0)
        return;
    Verdict verdict = failed ? VERDICT_FAIL : n == 0 ? VERDICT_SKIPPED
                    : record->expectation_count == 0 ? VERDICT_COUNTED : VERDICT_PASS;
    int *tally[] = {&r->all.passed, &r->all.failed, &r->all.counted, &r->all.skipped};
    int *file_tally[] = {&r->file.passed, &r->file.failed, &r->file.counted, &r->file.skipped};
    ++*tally[verdict];
    ++*file_tally[verdict];
    const char *divide_flags = pos.chess960 ? " --chess960" : "";
    if (r->output == OUTPUT_TEXT && !(r->o->quiet && (verdict == VERDICT_PASS || verdict == VERDICT_SKIPPED)))
        print_text(r, label, record, verdict, depths, n, divide_flags);
    else if (r->output == OUTPUT_TAP)
        print_tap(r, label, record, depths, n, divide_flags);
    else
        add_json_position(r, label, line, reader->name, record, pos.chess960, verdict, depths, n, NULL);
    if (o->junit)
        for (int i = 0; i < n; i++)
            junit_testcase(r, label, record->fen, &depths[i], NULL, divide_flags);
    fflush(r->cli->out);
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
    while (!r->interrupted) {
        SuiteItem item = suite_next(reader, &record, &line, error, sizeof error);
        if (item == SUITE_END)
            break;
        if (item == SUITE_MALFORMED)
            report_malformed(r, reader, reader->line_number, NULL, error);
        else
            run_record(r, reader, line, &record);
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
    if (!outfile_commit(junit, error, sizeof error))
        return cli_error(r->cli, "%s", error), false;
    return true;
}

static const char *plural(int n, const char *one, const char *many) { return n == 1 ? one : many; }

/* "1 passed, 0 failed, 2 malformed (3 counts, 1,234 nodes, 0.01 s)". */
static void summary_text(const Totals *a, double seconds, char *out, size_t size) {
    char nodes[COUNT_TEXT_SIZE];
    int length = snprintf(out, size, "%d passed, %d failed", a->passed, a->failed);
    if (a->counted)
        length += snprintf(out + length, size - (size_t)length, ", %d counted", a->counted);
    if (a->skipped)
        length += snprintf(out + length, size - (size_t)length, ", %d skipped", a->skipped);
    if (a->malformed)
        length += snprintf(out + length, size - (size_t)length, ", %d malformed", a->malformed);
    snprintf(out + length, size - (size_t)length, " (%d %s, %s %s, %.2f s)", a->counts,
             plural(a->counts, "count", "counts"), count_format(a->nodes, true, nodes),
             a->nodes == 1 ? "node" : "nodes", seconds);
}

static bool print_json(SuiteRun *r, const SuiteOptions *o, double seconds) {
    const Totals *a = &r->all;
    json_t *doc = json_document(r->cli->command, SUITE_JSON_SCHEMA);
    json_t *options = json_object();
    json_set(options, "threads", json_integer(r->driver.threads));
    json_set(options, "hash_mb", json_integer(o->run.hash_mb));
    json_set(options, "key_seed", json_key_seed(o->run.key_seed));
    json_set(options, "max_depth", json_integer(o->max_depth));
    json_set(options, "max_known", o->max_known ? json_count(o->max_known) : json_null());
    json_set(doc, "options", options);
    json_set(doc, "status", json_string(run_status_text(r->interrupted ? RUN_INTERRUPTED : RUN_COMPLETED)));
    json_set(doc, "complete", json_boolean(!r->interrupted));
    json_set(doc, "positions", r->positions);
    r->positions = NULL;
    json_t *summary = json_object();
    json_set(summary, "passed", json_integer(a->passed));
    json_set(summary, "failed", json_integer(a->failed));
    json_set(summary, "counted", json_integer(a->counted));
    json_set(summary, "skipped", json_integer(a->skipped));
    json_set(summary, "malformed", json_integer(a->malformed));
    json_set(summary, "counts", json_integer(a->counts));
    json_set(summary, "nodes", json_count(a->nodes));
    json_set(summary, "seconds", json_real(seconds));
    json_set(doc, "summary", summary);
    return json_write(r->cli->out, doc);
}

/* Runs the quick selection, or every file (an unreadable one is said and passed over);
 * false when a file could not be opened. */
static bool run_files(SuiteRun *r, const CliOperands *files) {
    bool readable = true;
    SuiteReader reader;
    if (files->count == 0) {
        suite_open_lines(&reader, "quick.epd", quick_suite_lines, sizeof quick_suite_lines / sizeof quick_suite_lines[0]);
        run_reader(r, &reader);
        suite_close(&reader);
    }
    for (int i = 0; i < files->count && !r->interrupted; i++) {
        char error[EPD_ERROR_SIZE + 64];
        if (!suite_open(&reader, files->items[i], error, sizeof error)) {
            cli_error(r->cli, "%s", error);
            readable = false;
            if (r->output == OUTPUT_TAP) {
                char shown[TEXT_QUOTE_SIZE];
                tap_point(r, false, "%s # unreadable", text_quote(files->items[i], shown));
            }
            continue;
        }
        run_reader(r, &reader);
        suite_close(&reader);
    }
    return readable;
}

int cmd_suite(Cli *cli, int argc, char **argv) {
    SuiteOptions o;
    CliOperands files;
    int status = parse_options(cli, argc, argv, &o, &files);
    if (status != CLI_CONTINUE)
        return status;
    /* An unwritable JUnit path fails now, before anything is counted. */
    OutFile junit = {.stream = NULL};
    char error[4400];
    if (o.junit && !outfile_open(&junit, o.junit, error, sizeof error))
        return cli_error(cli, "%s", error);
    SuiteRun r;
    memset(&r, 0, sizeof r);
    r.cli = cli;
    r.o = &o;
    r.output = o.json ? OUTPUT_JSON : o.tap ? OUTPUT_TAP : OUTPUT_TEXT;
    r.positions = json_array();
    /* Tables sized for the deepest depth suite lines usually list: 6. */
    if (!cli_driver(cli, &o.run, o.max_depth < 6 ? (int)o.max_depth : 6, &r.driver)) {
        outfile_abandon(&junit);
        json_decref(r.positions);
        return EXIT_BAD_INPUT;
    }
    r.limits = cli_limits(&o.run);
    if (r.output == OUTPUT_TAP)
        fprintf(cli->out, "TAP version 13\n");

    double start = clock_seconds();
    bool readable = run_files(&r, &files);
    double seconds = clock_seconds() - start;

    const Totals *a = &r.all;
    char summary[256];
    summary_text(a, seconds, summary, sizeof summary);
    bool nothing_read = a->passed + a->failed + a->counted + a->skipped + a->malformed == 0;
    bool written = true;
    if (r.output == OUTPUT_TEXT) {
        if (!nothing_read || readable || r.interrupted) /* else the reason on stderr says it all */
            fprintf(cli->out, "%s\n", summary);
        if (r.interrupted)
            fprintf(cli->out, "status: %s\n", run_status_text(RUN_INTERRUPTED));
    } else if (r.output == OUTPUT_TAP) {
        fprintf(cli->out, "1..%d\n# %s\n", a->tap_points, summary);
        if (r.interrupted)
            fprintf(cli->out, "# status: %s\n", run_status_text(RUN_INTERRUPTED));
    } else {
        written = print_json(&r, &o, seconds);
    }
    int output = cli_finish_output(cli, written); /* the JUnit file is written all the same */
    if (junit.stream && !write_junit(&r, &junit, seconds))
        readable = false;
    free(r.junit.data);
    free(r.junit_file.data);
    json_decref(r.positions);
    driver_destroy(&r.driver);
    if (output != EXIT_OK)
        return readable ? output : EXIT_BAD_INPUT;
    if (r.interrupted)
        return EXIT_INTERRUPTED;
    if (a->failed)
        return EXIT_MISMATCH;
    return readable && !a->malformed ? EXIT_OK : EXIT_BAD_INPUT;
}
