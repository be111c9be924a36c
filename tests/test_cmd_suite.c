/* test_cmd_suite.c — `perft suite` in-process: the option table, every output format,
 * malformed lines named with file:line, the summary's words, and Ctrl-C. */
#include "cli_support.h"

#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

TestSuite(cmd_suite, .init = core_setup);

/* Writes `length` bytes to a new temporary file named in `path`. */
static const char *write_suite(char path[64], const char *bytes, size_t length) {
    strcpy(path, "/tmp/perftkit-cmd-suite-XXXXXX");
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, bytes, length), (ssize_t)length);
    close(fd);
    return path;
}

#define WRITE_SUITE(path, text) write_suite(path, text, sizeof text - 1)

/* Every stderr line is one "perft suite: ..." message. */
static void assert_one_line_messages(const char *err) {
    for (const char *p = err; *p;) {
        cr_assert(!strncmp(p, "perft suite: ", 13), "not a message: %s", p);
        const char *end = strchr(p, '\n');
        cr_assert(end, "unterminated: %s", p);
        for (const char *c = p; c < end; c++)
            cr_assert((unsigned char)*c >= 0x20 && (unsigned char)*c < 0x7f, "raw byte in %s", p);
        p = end + 1;
    }
}

Test(cmd_suite, checks_known_counts_of_the_files_given) {
    char path[64];
    WRITE_SUITE(path, "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66 ;id rook\n"
                      "id queen-side\nepd 4k3/8/8/8/8/8/8/R3K3 w Q -\nperft 1 16\nperft 2 71\n");
    CliRun run = cli_run("suite -t 1 %s", path);
    unlink(path);
    cr_assert_eq(run.status, 0, "%s%s", run.out, run.err);
    char line[256];
    snprintf(line, sizeof line, "%-5s %-28s %-7s  %s\n", "pass", "rook", "D1-D2", "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    cr_assert(strstr(run.out, line), "%s", run.out);
    cr_assert(strstr(run.out, "pass  queen-side "), "%s", run.out);
    cr_assert(strstr(run.out, "2 passed, 0 failed (4 counts, 168 nodes, "), "%s", run.out);
    cr_assert_str_eq(run.err, "");
    cli_run_free(&run);
}

Test(cmd_suite, quiet_prints_only_failures_counts_and_the_summary) {
    char path[64];
    WRITE_SUITE(path, "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66 ;id rook\n"
                      "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 ;D1 16 ;D2 72 ;id queen-side\n"
                      "4k3/8/8/8/8/8/8/4K3 w - - 0 1\n");
    CliRun run = cli_run("suite -q -t 1 -d 2 %s", path);
    unlink(path);
    cr_assert_eq(run.status, 1, "%s%s", run.out, run.err);
    cr_expect(!strstr(run.out, "pass  rook"), "a pass printed under -q: %s", run.out);
    cr_expect(strstr(run.out, "FAIL  queen-side") && strstr(run.out, "depth 2: expected 72, got 71\n"), "%s", run.out);
    cr_expect(strstr(run.out, "count ") && strstr(run.out, ";D2 25\n"), "a counted position is data: %s", run.out);
    cr_expect(strstr(run.out, "1 passed, 1 failed"), "%s", run.out);
    cli_run_free(&run);
}

Test(cmd_suite, a_mismatch_prints_the_divide_that_reproduces_it) {
    char path[64];
    WRITE_SUITE(path, "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 67 ;id rook\n");
    CliRun run = cli_run("suite %s", path);
    unlink(path);
    cr_assert_eq(run.status, 1);
    cr_assert(strstr(run.out, "FAIL  rook"), "%s", run.out);
    cr_assert(strstr(run.out, "depth 2: expected 67, got 66\n"
                              "      reproduce: perft divide -d 2 --fen \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"\n"),
              "%s", run.out);
    cr_assert(strstr(run.out, "0 passed, 1 failed (2 counts, 81 nodes, "), "%s", run.out);
    cli_run_free(&run);
}

Test(cmd_suite, singular_words_for_one) {
    char path[64];
    WRITE_SUITE(path, "8/8/8/8/8/8/8/K6k w - - ;D1 3\n");
    CliRun run = cli_run("suite %s", path);
    unlink(path);
    cr_assert_eq(run.status, 0);
    cr_assert(strstr(run.out, "1 passed, 0 failed (1 count, 3 nodes, "), "%s", run.out);
    cli_run_free(&run);
}

Test(cmd_suite, lines_with_nul_bytes_are_reported_with_file_and_line) {
    /* Defect 4: a line starting with a NUL byte was skipped without a word. */
    static const char bytes[] = "8/8/8/8/8/8/8/K6k w - - ;D1 3\n"
                                "\0rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20\n"
                                "8/8/8/8/8/8/8/K6k w - - ;D1 3\0;D2 9\n";
    char path[64];
    write_suite(path, bytes, sizeof bytes - 1);
    const char *base = strrchr(path, '/') + 1;
    CliRun run = cli_run("suite %s", path);
    unlink(path);
    cr_assert_eq(run.status, 2, "%s", run.out);
    char expected[256];
    snprintf(expected, sizeof expected, "perft suite: %s:2: a NUL byte at column 1 in '\\x00rnbqkbnr/", base);
    cr_assert(strstr(run.err, expected), "%s", run.err);
    snprintf(expected, sizeof expected, "perft suite: %s:3: a NUL byte at column 30", base);
    cr_assert(strstr(run.err, expected), "%s", run.err);
    assert_one_line_messages(run.err);
    cr_assert(strstr(run.out, "1 passed, 0 failed, 2 malformed (1 count, 3 nodes, "), "%s", run.out);
    cli_run_free(&run);
}

Test(cmd_suite, a_huge_garbage_line_gives_one_short_line) {
    enum { SIZE = 100 * 1024 };
    char *bytes = malloc(SIZE + 1);
    unsigned state = 99;
    for (int i = 0; i < SIZE; i++) {
        state = state * 1103515245u + 12345u;
        char c = (char)(state >> 16);
        bytes[i] = c == '\n' ? '?' : c;
    }
    bytes[SIZE] = '\n';
    char path[64];
    write_suite(path, bytes, SIZE + 1);
    free(bytes);
    CliRun run = cli_run("suite %s", path);
    unlink(path);
    cr_assert_eq(run.status, 2);
    assert_one_line_messages(run.err);
    cr_assert_lt(strlen(run.err), 300, "%zu bytes: %s", strlen(run.err), run.err);
    cr_assert(strstr(run.out, "0 passed, 0 failed, 1 malformed"), "%s", run.out);
    cli_run_free(&run);
}

Test(cmd_suite, a_bad_fen_is_quoted_escaped) {
    char path[64];
    WRITE_SUITE(path, "not a fen ;D1 1\n"
                      "8/8/8/8/8/8/8/K6k w - - ;D1 3\n");
    CliRun run = cli_run("suite %s", path);
    unlink(path);
    cr_assert_eq(run.status, 2);
    cr_assert(strstr(run.err, ":1: bad FEN 'not a fen': "), "%s", run.err);
    assert_one_line_messages(run.err);
    cr_assert(strstr(run.out, "1 passed, 0 failed, 1 malformed"), "the other lines still run: %s", run.out);
    cli_run_free(&run);
}

Test(cmd_suite, max_known_skips_depths_whose_known_count_is_above_it) {
    CliRun run = cli_run("suite --max-known 400 --json");
    cr_assert_eq(run.status, 0, "%s", run.err);
    json_error_t error;
    json_t *doc = json_loads(run.out, 0, &error);
    cr_assert(doc, "not JSON (%s): %s", error.text, run.out);
    json_t *initial = json_array_get(json_object_get(doc, "positions"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(initial, "label")), "initial");
    json_t *depths = json_object_get(initial, "depths");
    cr_assert_eq(json_array_size(depths), 2, "20 and 400 are within 400; 8902 is not");
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(depths, 1), "got")), "400");
    json_t *options = json_object_get(doc, "options");
    cr_assert_str_eq(json_string_value(json_object_get(options, "max_known")), "400");
    json_decref(doc);
    cli_run_free(&run);

    run = cli_run("suite --max-nodes 1000");
    cr_assert_eq(run.status, 2);
    cr_assert(strstr(run.err, "unknown option '--max-nodes'"), "renamed to --max-known: %s", run.err);
    cli_run_free(&run);
    run = cli_run("suite --help");
    cr_assert(strstr(run.out, "--max-known N") && strstr(run.out, "formerly\n"), "%s", run.out);
    cli_run_free(&run);
}

Test(cmd_suite, bare_fens_are_counted_to_the_depth) {
    char path[64];
    WRITE_SUITE(path, "8/8/8/8/8/8/8/K6k w - -\n");
    CliRun run = cli_run("suite -d 3 %s", path);
    cr_assert_eq(run.status, 0);
    cr_assert(strstr(run.out, "count "), "%s", run.out);
    cr_assert(strstr(run.out, "8/8/8/8/8/8/8/K6k w - - ;D1 3 ;D2 9 ;D3 54\n"), "%s", run.out);
    cr_assert(strstr(run.out, "0 passed, 0 failed, 1 counted (3 counts, 66 nodes, "), "%s", run.out);
    cli_run_free(&run);
    run = cli_run("suite -d 0 %s", path);
    cr_assert_eq(run.status, 2);
    cr_assert_str_eq(run.err, "perft suite: --depth 0 is out of range 1..32\n");
    cli_run_free(&run);
    run = cli_run("suite -d 33 %s", path);
    cr_assert_str_eq(run.err, "perft suite: --depth 33 is out of range 1..32\n");
    cli_run_free(&run);
    unlink(path);
}

Test(cmd_suite, json_is_one_document_with_every_position) {
    char path[64];
    WRITE_SUITE(path, "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 67 ;id rook\n"
                      "8/8/8/8/8/8/8/K6k w - -\n"
                      "not a fen ;D1 1\n"
                      "id queen-side\nepd 4k3/8/8/8/8/8/8/R3K3 w Q -\nperft 1 16\nperft 2 71\n");
    CliRun run = cli_run("suite --json -d 2 -t 1 --hash 1 %s", path);
    unlink(path);
    cr_assert_eq(run.status, 1);
    json_error_t error;
    json_t *doc = json_loads(run.out, 0, &error);
    cr_assert(doc, "not JSON (%s): %s", error.text, run.out);
    cr_assert_eq(json_integer_value(json_object_get(doc, "schema")), 1);
    cr_assert_str_eq(json_string_value(json_object_get(doc, "command")), "suite");
    cr_assert_str_eq(json_string_value(json_object_get(doc, "status")), "completed");
    json_t *options = json_object_get(doc, "options");
    cr_assert_eq(json_integer_value(json_object_get(options, "threads")), 1);
    cr_assert_eq(json_integer_value(json_object_get(options, "hash_mb")), 1);
    cr_assert_eq(json_integer_value(json_object_get(options, "max_depth")), 32);
    cr_assert(json_is_null(json_object_get(options, "max_known")));
    json_t *positions = json_object_get(doc, "positions");
    cr_assert_eq(json_array_size(positions), 4);
    json_t *rook = json_array_get(positions, 0);
    cr_assert_str_eq(json_string_value(json_object_get(rook, "status")), "fail");
    cr_assert_str_eq(json_string_value(json_object_get(rook, "id")), "rook");
    cr_assert_eq(json_integer_value(json_object_get(rook, "line")), 1);
    json_t *d2 = json_array_get(json_object_get(rook, "depths"), 1);
    cr_assert_str_eq(json_string_value(json_object_get(d2, "expected")), "67");
    cr_assert_str_eq(json_string_value(json_object_get(d2, "got")), "66");
    cr_assert(json_is_false(json_object_get(d2, "pass")));
    json_t *bare = json_array_get(positions, 1);
    cr_assert_str_eq(json_string_value(json_object_get(bare, "status")), "counted");
    cr_assert(json_is_null(json_object_get(json_array_get(json_object_get(bare, "depths"), 0), "pass")));
    json_t *bad = json_array_get(positions, 2);
    cr_assert_str_eq(json_string_value(json_object_get(bad, "status")), "malformed");
    cr_assert(strstr(json_string_value(json_object_get(bad, "error")), "bad FEN 'not a fen'"));
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(positions, 3), "status")), "pass");
    json_t *summary = json_object_get(doc, "summary");
    cr_assert_eq(json_integer_value(json_object_get(summary, "passed")), 1);
    cr_assert_eq(json_integer_value(json_object_get(summary, "failed")), 1);
    cr_assert_eq(json_integer_value(json_object_get(summary, "counted")), 1);
    cr_assert_eq(json_integer_value(json_object_get(summary, "malformed")), 1);
    cr_assert_eq(json_integer_value(json_object_get(summary, "counts")), 6);
    cr_assert_str_eq(json_string_value(json_object_get(summary, "nodes")), "180", "15+66+3+9+16+71");
    json_decref(doc);
    cli_run_free(&run);
}

Test(cmd_suite, tap_has_a_point_per_position_and_depth) {
    char path[64];
    WRITE_SUITE(path, "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 67 ;id rook\n"
                      "8/8/8/8/8/8/8/K6k w - - ;D9 1\n");
    CliRun run = cli_run("suite --tap --max-depth 2 %s", path);
    unlink(path);
    cr_assert_eq(run.status, 1);
    static const char start[] = "TAP version 13\nok 1 - rook depth 1: 15\nnot ok 2 - rook depth 2: expected 67, got 66\n";
    cr_assert(!strncmp(run.out, start, sizeof start - 1), "%s", run.out);
    cr_assert(strstr(run.out, "\nok 3 - "), "%s", run.out);
    cr_assert(strstr(run.out, "# SKIP every depth is above the limits\n1..3\n# 0 passed, 1 failed, 1 skipped"),
              "%s", run.out);
    cli_run_free(&run);
}

Test(cmd_suite, options_are_checked_by_the_table) {
    CliRun run = cli_run("suite --json --tap");
    cr_assert_eq(run.status, 2);
    cr_assert_str_eq(run.err, "perft suite: --json and --tap both given; choose one\n");
    cli_run_free(&run);
    run = cli_run("suite --max-depth 0");
    cr_assert_str_eq(run.err, "perft suite: --max-depth 0 is out of range 1..32\n");
    cli_run_free(&run);
    run = cli_run("suite --max-known 0");
    cr_assert_str_eq(run.err, "perft suite: --max-known '0' is not a whole number of at least 1\n");
    cli_run_free(&run);
    run = cli_run("suite -t 0");
    cr_assert_str_eq(run.err, "perft suite: --threads 0 is out of range 1..1024\n");
    cli_run_free(&run);
    run = cli_run("suite /nonexistent/file.epd");
    cr_assert_eq(run.status, 2);
    cr_assert_str_eq(run.err, "perft suite: cannot read '/nonexistent/file.epd': No such file or directory\n");
    cr_assert_str_eq(run.out, "", "nothing was read: the reason says it all");
    cli_run_free(&run);
}

/* Sends SIGINT to this process after a delay, as Ctrl-C would. */
static void *interrupt_later(void *arg) {
    (void)arg;
    nanosleep(&(struct timespec){0, 400 * 1000 * 1000}, NULL);
    kill(getpid(), SIGINT);
    return NULL;
}

Test(cmd_suite, ctrl_c_prints_what_finished_and_interrupted) {
    /* Defect 5: an interrupted suite printed no summary. The second position runs to
     * depth 8 (about 10 s on one thread), so the interrupt lands inside it. */
    char path[64];
    WRITE_SUITE(path, "8/8/8/8/8/8/8/K6k w - - ;D1 3 ;D2 9\n"
                      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D8 84998978956 ;id "
                      "initial\n"
                      "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15\n");
    pthread_t thread;
    cr_assert_eq(pthread_create(&thread, NULL, interrupt_later, NULL), 0);
    CliRun run = cli_run("suite -t 1 --hash 0 %s", path);
    pthread_join(thread, NULL);
    signal(SIGINT, SIG_DFL);
    unlink(path);
    cr_assert_eq(run.status, 130, "%s", run.out);
    cr_assert(strstr(run.out, "pass  perftkit-cmd-suite-"), "the first position finished: %s", run.out);
    char line[256];
    snprintf(line, sizeof line, "%-5s %-28s %-7s  rnbqkbnr/", "pass", "initial", "D1-D2");
    cr_assert(strstr(run.out, line), "the depths it finished: %s", run.out);
    cr_assert(strstr(run.out, "2 passed, 0 failed (4 counts, 432 nodes, "), "%s", run.out);
    cr_assert(strstr(run.out, "\nstatus: interrupted\n"), "%s", run.out);
    cr_assert_null(strstr(run.out, "4K2R"), "nothing after the interrupt: %s", run.out);
    cli_run_free(&run);
}

Test(cmd_suite, json_names_a_file_whose_name_is_not_utf8) {
    const char *path = "/tmp/perftkit-cmd-suite-\xff.epd";
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs("8/8/8/8/8/8/8/K6k w - - ;D1 3\n", f);
    fclose(f);
    CliRun run = cli_run("suite --json %s", path);
    unlink(path);
    cr_assert_eq(run.status, 0, "%s", run.err);
    json_error_t error;
    json_t *doc = json_loads(run.out, 0, &error);
    cr_assert(doc, "not JSON (%s): %s", error.text, run.out);
    json_t *position = json_array_get(json_object_get(doc, "positions"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(position, "file")), "/tmp/perftkit-cmd-suite-\\xFF.epd");
    cr_assert_str_eq(json_string_value(json_object_get(position, "label")), "perftkit-cmd-suite-\\xFF.epd:1");
    json_decref(doc);
    cli_run_free(&run);
}
