/* test_cli.c — the perft binary as users run it: output shapes, exit codes, and a
 * one-line error for every kind of bad input. */
#include "support.h"

#include <jansson.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Runs `perft ARGS` through the shell; `out` gets stdout (and stderr with merge). */
static Run run_perft(const char *args, bool merge_stderr) {
    const char *bin = getenv("PERFTKIT_BIN");
    cr_assert(bin, "PERFTKIT_BIN is not set (run the tests through meson test)");
    return run_command("'%s' %s %s", bin, args, merge_stderr ? "2>&1" : "2>/dev/null");
}

static void assert_bad_input(const char *args, const char *reason) {
    Run run = run_perft(args, true);
    cr_assert_eq(run.status, 2, "'perft %s' exited %d, not 2: %s", args, run.status, run.out);
    cr_assert(strstr(run.out, reason), "'perft %s' said '%s', expected '%s'", args, run.out, reason);
    cr_assert_eq(strchr(run.out, '\n'), run.out + strlen(run.out) - 1, "more than one line: %s", run.out);
}

Test(cli, count_prints_the_known_count) {
    Run run = run_perft("count -d 4 --startpos", false);
    cr_assert_eq(run.status, 0);
    cr_assert(strstr(run.out, "perft(4) = 197281\n"), "%s", run.out);
    cr_assert(strstr(run.out, "Mleaves/s") && strstr(run.out, "ns/leaf"), "%s", run.out);
    run = run_perft("count -q -d 3 --fen '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1'", false);
    cr_assert_str_eq(run.out, "2812\n");
}

Test(cli, count_plays_moves_given_in_uci_or_san) {
    /* Stockfish's divide of the start position at depth 3 gives e2e4: 600. */
    Run uci = run_perft("count -q -d 2 --moves e2e4", false);
    Run san = run_perft("count -q -d 2 --moves e4", false);
    cr_assert_eq(uci.status, 0);
    cr_assert_str_eq(uci.out, "600\n");
    cr_assert_str_eq(san.out, "600\n");
    Run two = run_perft("count -q -d 1 --moves 'e4, e5'", false);
    cr_assert_str_eq(two.out, "29\n");
}

Test(cli, divide_has_stockfish_line_shapes_sorted) {
    Run run = run_perft("divide -d 2", false);
    cr_assert_eq(run.status, 0);
    cr_assert(!strncmp(run.out, "a2a3: 20\na2a4: 20\nb1a3: 20\n", 27), "%s", run.out);
    cr_assert(strstr(run.out, "h2h4: 20\n\nNodes searched: 400\n"), "%s", run.out);
}

Test(cli, divide_in_san_is_sorted_by_san) {
    Run run = run_perft("divide -d 3 --san", false);
    cr_assert_eq(run.status, 0);
    cr_assert(!strncmp(run.out, "Na3 400\nNc3 440\nNf3 440\nNh3 400\na3 380\n", 38), "%s", run.out);
    cr_assert(strstr(run.out, "\nNodes searched: 8902\n"));
}

Test(cli, divide_of_chess960_writes_king_takes_rook) {
    Run run = run_perft("divide -d 1 --fen '6k1/8/8/8/8/8/8/6KR w H - 0 1'", false);
    cr_assert(strstr(run.out, "g1h1: 1\n"), "%s", run.out);
}

/* Waits (up to 10 s) until perft, started as `pid`, catches `signal_number`: sent before
 * it installs its handler (a slow start-up on a loaded machine), the signal would end it
 * by its default action, which is not what the tests are about. */
static void await_handler(pid_t pid, int signal_number) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    for (int tries = 0; tries < 1000; tries++) {
        FILE *f = fopen(path, "r");
        bool perft = false;
        unsigned long long caught = 0;
        while (f && fgets(line, sizeof line, f)) {
            if (!strncmp(line, "Name:", 5))
                perft = strstr(line, "perft") != NULL; /* exec'd: not the test's own copy */
            else if (!strncmp(line, "SigCgt:", 7))
                caught = strtoull(line + 7, NULL, 16);
        }
        if (f)
            fclose(f);
        if (perft && (caught >> (signal_number - 1) & 1))
            return;
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    }
}

/* Starts `perft ARGS...` (NULL-ended), lets it run `seconds`, then sends `signal_number`;
 * returns the wait status. A catchable signal waits for perft's handler first, so the time
 * counts from there. With `text`, the program's stdout is read into it (NUL-ended, at
 * most `size` - 1 bytes); else it goes to /dev/null. */
static int signalled_run(double seconds, int signal_number, char *const args[], char *text, size_t size) {
    const char *bin = getenv("PERFTKIT_BIN");
    cr_assert(bin, "PERFTKIT_BIN is not set");
    int out[2];
    cr_assert_eq(pipe(out), 0);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        char *argv[32] = {(char *)bin};
        for (int i = 0; args[i] && i < 30; i++)
            argv[i + 1] = args[i];
        if (text)
            dup2(out[1], STDOUT_FILENO);
        else
            freopen("/dev/null", "w", stdout);
        close(out[0]);
        close(out[1]);
        freopen("/dev/null", "w", stderr);
        execv(bin, argv);
        _exit(127);
    }
    close(out[1]);
    if (signal_number != SIGKILL)
        await_handler(pid, signal_number);
    struct timespec pause = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    nanosleep(&pause, NULL);
    kill(pid, signal_number);
    size_t n = 0;
    ssize_t got;
    while (text && (got = read(out[0], text + n, size - 1 - n)) > 0)
        n += (size_t)got;
    if (text)
        text[n] = '\0';
    close(out[0]);
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    return status;
}

static int run_and_signal(double seconds, int signal_number, char *const args[]) {
    return signalled_run(seconds, signal_number, args, NULL, 0);
}

/* True when the journal at `path` holds at least one whole line (its header). */
static bool journal_has_header(const char *path) {
    FILE *f = fopen(path, "r");
    int c;
    bool line = false;
    while (f && !line && (c = fgetc(f)) != EOF)
        line = c == '\n';
    if (f)
        fclose(f);
    return line;
}

/* Runs `perft COMMAND -d 7 --hash 64 --journal FILE` and SIGKILLs it once its journal
 * has a header, then runs it with --resume FILE three times, stopping it by SIGKILL,
 * SIGTERM and SIGKILL, so the journal is what a run stopped at any moment leaves; then
 * resumes it to the end with `final_options` and returns that run (stderr too with
 * `merge_stderr`). */
static Run killed_and_resumed(const char *command, const char *final_options, bool merge_stderr) {
    char dir[] = "/tmp/perftkit-kill-XXXXXX", path[128];
    cr_assert(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/run.jsonl", dir);
    char *first[] = {(char *)command, "-d", "7", "--hash", "64", "--journal", path, NULL};
    char *again[] = {(char *)command, "-d", "7", "--hash", "64", "--resume", path, NULL};
    int status = run_and_signal(0.3, SIGKILL, first);
    cr_assert(WIFSIGNALED(status) || WEXITSTATUS(status) == 0, "status %d", status);
    /* Killed before its journal had a header (planning and tables come first, and a slow
     * build may take longer than 0.3 s): there is nothing to resume, so start over. */
    for (double wait = 1.0; !journal_has_header(path); wait *= 2) {
        cr_assert(wait < 20, "no journal header after %g s", wait);
        unlink(path);
        status = run_and_signal(wait, SIGKILL, first);
        cr_assert(WIFSIGNALED(status) || WEXITSTATUS(status) == 0, "status %d", status);
    }
    static const double moments[] = {0.8, 0.5, 1.5};
    for (int i = 0; i < 3; i++) {
        status = run_and_signal(moments[i], i == 1 ? SIGTERM : SIGKILL, again);
        cr_assert(WIFSIGNALED(status) || WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 130,
                  "resume %d: status %d", i, status);
    }
    char args[256];
    snprintf(args, sizeof args, "%s -d 7 --hash 64 %s --resume %s", command, final_options, path);
    Run run = run_perft(args, merge_stderr);
    unlink(path);
    rmdir(dir);
    return run;
}

Test(cli, a_journaled_run_killed_at_any_moment_resumes_to_the_exact_count) {
    Run run = killed_and_resumed("count", "-q", false);
    cr_assert_eq(run.status, 0, "%s", run.out);
    cr_assert_str_eq(run.out, "3195901860\n");
}

Test(cli, a_journaled_stats_run_killed_at_any_moment_resumes_to_the_exact_table) {
    Run run = killed_and_resumed("stats", "", true);
    cr_assert_eq(run.status, 0, "%s", run.out);
    /* The start position's depths 6 and 7: the wiki's columns and the Grand Chess Tree's classes. */
    cr_assert(strstr(run.out, "6              119060324       2812008          5248             0             0        "
                              "809099           329            46         10828        797896           329            46"
                              "             0         10828             0             0             0\n"),
              "%s", run.out);
    cr_assert(strstr(run.out, "7             3195901860     108329926        319617        883453             0      "
                              "33103848         18026          1628        435767      32648427         18026          "
                              "1628             0        435767             0             0             0\n"),
              "%s", run.out);
    cr_assert(strstr(run.out, " units from journal '"), "%s", run.out);
    cr_assert(strstr(run.out, "status: completed\n"), "%s", run.out);
}

Test(cli, a_full_disk_under_a_journal_is_exit_2_and_no_count) {
    Run run = run_perft("count -d 5 --journal /dev/full", true);
    cr_assert_eq(run.status, 2, "%s", run.out);
    cr_assert_str_eq(run.out, "perft count: cannot write journal '/dev/full': No space left on device\n");
}

Test(cli, suite_without_files_runs_the_quick_selection) {
    Run run = run_perft("suite", false);
    cr_assert_eq(run.status, 0, "%s", run.out);
    cr_assert(strstr(run.out, "pass  initial                      D1-D6"), "%s", run.out);
    cr_assert(strstr(run.out, "pass  kiwipete                     D1-D5"), "%s", run.out);
    cr_assert(strstr(run.out, "61 passed, 0 failed"), "%s", run.out);
}

/* A suite file with a planted wrong count, a bare FEN, a malformed line and a block. */
static const char *write_mixed_suite(char *path) {
    strcpy(path, "/tmp/perftkit-suite-XXXXXX");
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("# planted: D2 of the first line is 66, not 67\n"
          "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 67 ;id rook\n"
          "8/8/8/8/8/8/8/K6k w - -\n"
          "not a fen ;D1 1\n"
          "id queen-side\nepd 4k3/8/8/8/8/8/8/R3K3 w Q -\nperft 1 16\nperft 2 71\n",
          f);
    fclose(f);
    return path;
}

Test(cli, suite_reads_all_formats_and_reports_each_problem) {
    char path[64], args[256];
    snprintf(args, sizeof args, "suite -d 2 %s", write_mixed_suite(path));
    Run run = run_perft(args, true);
    unlink(path);
    cr_assert_eq(run.status, 1, "a mismatch wins over a malformed line: %s", run.out);
    cr_assert(strstr(run.out, "FAIL  rook"), "%s", run.out);
    cr_assert(strstr(run.out, "depth 2: expected 67, got 66"), "%s", run.out);
    cr_assert(strstr(run.out, "count "), "%s", run.out);
    cr_assert(strstr(run.out, "8/8/8/8/8/8/8/K6k w - - ;D1 3 ;D2 9"), "a bare FEN is counted: %s", run.out);
    cr_assert(strstr(run.out, ":4: bad FEN 'not a fen'"), "%s", run.out);
    cr_assert(strstr(run.out, "pass  queen-side"), "%s", run.out);
    cr_assert(strstr(run.out, "1 passed, 1 failed, 1 counted, 1 malformed"), "%s", run.out);
}

Test(cli, suite_json_is_one_document_with_every_position) {
    char path[64], args[256];
    snprintf(args, sizeof args, "suite --json -d 2 %s", write_mixed_suite(path));
    Run run = run_perft(args, false);
    unlink(path);
    json_error_t error;
    json_t *doc = json_loads(run.out, 0, &error);
    cr_assert(doc, "not JSON (%s): %s", error.text, run.out);
    cr_assert_str_eq(json_string_value(json_object_get(doc, "command")), "suite");
    json_t *positions = json_object_get(doc, "positions");
    cr_assert_eq(json_array_size(positions), 4);
    json_t *rook = json_array_get(positions, 0);
    cr_assert_str_eq(json_string_value(json_object_get(rook, "status")), "fail");
    cr_assert_str_eq(json_string_value(json_object_get(rook, "id")), "rook");
    json_t *d2 = json_array_get(json_object_get(rook, "depths"), 1);
    cr_assert_str_eq(json_string_value(json_object_get(d2, "expected")), "67");
    cr_assert_str_eq(json_string_value(json_object_get(d2, "got")), "66");
    cr_assert(json_is_false(json_object_get(d2, "pass")));
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(positions, 1), "status")), "counted");
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(positions, 2), "status")), "malformed");
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(positions, 3), "status")), "pass");
    json_t *summary = json_object_get(doc, "summary");
    cr_assert_eq(json_integer_value(json_object_get(summary, "passed")), 1);
    cr_assert_eq(json_integer_value(json_object_get(summary, "failed")), 1);
    cr_assert_eq(json_integer_value(json_object_get(summary, "malformed")), 1);
    json_decref(doc);
}

/* Counts the elements named `name` under `node`. */
static int count_elements(xmlNode *node, const char *name) {
    int n = 0;
    for (; node; node = node->next)
        if (node->type == XML_ELEMENT_NODE)
            n += !strcmp((const char *)node->name, name) + count_elements(node->children, name);
    return n;
}

Test(cli, suite_junit_has_a_testcase_per_position_and_depth) {
    char path[64], args[512], xml[] = "/tmp/perftkit-junit-XXXXXX";
    int fd = mkstemp(xml);
    close(fd);
    snprintf(args, sizeof args, "suite -d 2 --junit %s %s", xml, write_mixed_suite(path));
    Run run = run_perft(args, false);
    unlink(path);
    cr_assert_eq(run.status, 1);
    xmlDoc *doc = xmlReadFile(xml, NULL, XML_PARSE_NONET);
    unlink(xml);
    cr_assert(doc, "the JUnit file is not XML");
    xmlNode *root = xmlDocGetRootElement(doc);
    cr_assert_str_eq((const char *)root->name, "testsuites");
    cr_assert_eq(count_elements(root->children, "testsuite"), 1);
    /* rook D1 D2, bare FEN D1 D2, malformed line, queen-side D1 D2 */
    cr_assert_eq(count_elements(root->children, "testcase"), 7);
    cr_assert_eq(count_elements(root->children, "failure"), 1);
    cr_assert_eq(count_elements(root->children, "error"), 1);
    cr_assert_eq(count_elements(root->children, "skipped"), 2, "counted but not checked");
    xmlChar *tests = xmlGetProp(root, (const xmlChar *)"tests");
    cr_assert_str_eq((const char *)tests, "7");
    xmlFree(tests);
    xmlFreeDoc(doc);
}

Test(cli, suite_tap_has_a_point_per_position_and_depth) {
    char path[64], args[256];
    snprintf(args, sizeof args, "suite --tap -d 2 %s", write_mixed_suite(path));
    Run run = run_perft(args, false);
    unlink(path);
    cr_assert(!strncmp(run.out, "TAP version 13\n", 15), "%s", run.out);
    cr_assert(strstr(run.out, "\nok 1 - rook depth 1: 15\n"), "%s", run.out);
    cr_assert(strstr(run.out, "\nnot ok 2 - rook depth 2: expected 67, got 66\n  ---\n"), "%s", run.out);
    cr_assert(strstr(run.out, "depth 2: 9 # SKIP no known count"), "%s", run.out);
    cr_assert(strstr(run.out, "\nnot ok 5 - "), "%s", run.out);
    cr_assert(strstr(run.out, "\n1..7\n"), "%s", run.out);
}

Test(cli, suite_refuses_an_unwritable_junit_path_before_counting) {
    time_t start = time(NULL);
    Run run = run_perft("suite --junit /nonexistent/dir/out.xml", true);
    cr_assert_eq(run.status, 2);
    cr_assert(strstr(run.out, "cannot write '/nonexistent/dir/out.xml'"), "%s", run.out);
    cr_assert_null(strstr(run.out, "passed"), "nothing was counted: %s", run.out);
    cr_assert_leq(time(NULL) - start, 2);
}

/* A suite whose second position runs to depth 9 (minutes), stopped by `signal_number`
 * inside it: what finished, the summary and "status: interrupted", exit 130. */
static void expect_suite_stopped_by(int signal_number) {
    char path[] = "/tmp/perftkit-suite-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fputs("8/8/8/8/8/8/8/K6k w - - ;D1 3 ;D2 9 ;id kings\n"
          "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D9 2439530234167 ;id initial\n",
          f);
    fclose(f);
    char text[65536];
    int status = signalled_run(0.5, signal_number, (char *[]){"suite", "-t", "2", path, NULL}, text, sizeof text);
    unlink(path);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 130, "signal %d: status %d: %s", signal_number, status,
              text);
    cr_assert(strstr(text, "pass  kings "), "%s", text);
    cr_assert(strstr(text, "pass  initial                      D1 "), "%s", text);
    cr_assert(strstr(text, "\n2 passed, 0 failed (3 counts, 32 nodes, "), "%s", text);
    cr_assert(strstr(text, "s)\nstatus: interrupted\n"), "%s", text);
}

Test(cli, suite_ctrl_c_prints_what_finished_the_summary_and_exits_130) {
    /* Defect 5: an interrupted suite printed no summary. */
    expect_suite_stopped_by(SIGINT);
}

Test(cli, sigterm_and_sighup_stop_suite_and_check_as_ctrl_c_does) {
    /* They ended both with nothing printed (only count and divide caught them). */
    expect_suite_stopped_by(SIGTERM);
    /* An engine that never answers `go perft`: the wait is abandoned, the engine stopped
     * and reaped, the summary printed. */
    const char *engine = getenv("PERFTKIT_FAULTY_ENGINE");
    cr_assert(engine, "PERFTKIT_FAULTY_ENGINE is not set");
    char command[1024];
    snprintf(command, sizeof command, "%s hang", engine);
    time_t start = time(NULL);
    char text[65536];
    char *const args[] = {"check", "--engine", command, "-d", "2", "--timeout", "60", NULL};
    int status = signalled_run(0.5, SIGHUP, args, text, sizeof text);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 130, "check: status %d: %s", status, text);
    cr_assert(strstr(text, "0 agree, 0 differ, 1 errors\n"), "%s", text);
    cr_assert_leq(time(NULL) - start, 10, "the hanging engine's wait was abandoned at once");
}

Test(cli, verify_passes_every_check_on_roce_chess960_and_tricky_suites) {
    char args[2048], a[1024], b[1024], c[1024], d[1024];
    snprintf(args, sizeof args, "verify -q -d 3 '%s' '%s' '%s' '%s'", suite_path("roce_perftsuite.epd", a, sizeof a),
             suite_path("ethereal_fischer960.epd", b, sizeof b), suite_path("pychess_tricky.epd", c, sizeof c),
             suite_path("pychess_tricky_960.epd", d, sizeof d));
    Run run = run_perft(args, false);
    cr_assert_eq(run.status, 0, "%s", run.out);
    static const char *const checks[] = {"checks", "split", "mirror", "hash", "keys", "notation"};
    for (int i = 0; i < 6; i++) {
        char line[64];
        snprintf(line, sizeof line, "\n%s: 1104 passed, 0 failed", checks[i]);
        cr_assert(strstr(run.out, line), "no '%s' in %s", line + 1, run.out);
    }
    cr_assert(strstr(run.out, "verify: all 6 checks passed on 1104 positions"), "%s", run.out);
}

Test(cli, stats_prints_the_wiki_columns) {
    Run run = run_perft("stats -d 5", false);
    cr_assert_eq(run.status, 0);
    cr_assert(strstr(run.out, "depth              nodes      captures          e.p.       castles    promotions"),
              "%s", run.out);
    /* The wiki's row for depth 5: nodes, captures, e.p., castles, promotions, checks,
     * discovery checks, double checks, mates; then the Grand Chess Tree's classes. */
    cr_assert(strstr(run.out, "5                4865609         82719           258             0             0"
                              "         27351             6             0           347"
                              "         26998             6             0             0"
                              "           347             0             0             0\n"),
              "%s", run.out);
    /* A limit stops the binary inside depth 5 (4,865,609 leaves): depths 1-4 stay. */
    run = run_perft("stats -d 8 --hash 16 --max-nodes 1000000", false);
    cr_assert_eq(run.status, 3, "%s", run.out);
    cr_assert(strstr(run.out, "\n4                 197281 ") && strstr(run.out, "partial: depths 1..4 of 1..8"), "%s",
              run.out);
}

Test(cli, divide_stats_gives_the_counters_per_root_move) {
    Run run = run_perft("divide -d 4 --stats --json", false);
    cr_assert_eq(run.status, 0);
    json_error_t error;
    json_t *doc = json_loads(run.out, 0, &error);
    cr_assert(doc, "not JSON (%s): %s", error.text, run.out);
    json_t *total = json_object_get(doc, "stats");
    cr_assert_str_eq(json_string_value(json_object_get(total, "captures")), "1576");
    cr_assert_str_eq(json_string_value(json_object_get(total, "checkmates")), "8");
    json_t *moves = json_object_get(doc, "moves");
    cr_assert_eq(json_array_size(moves), 20);
    /* Stockfish's divide at depth 4: e2e4 13160. */
    for (size_t i = 0; i < json_array_size(moves); i++) {
        json_t *m = json_array_get(moves, i);
        if (!strcmp(json_string_value(json_object_get(m, "uci")), "e2e4"))
            cr_assert_str_eq(json_string_value(json_object_get(json_object_get(m, "stats"), "nodes")), "13160");
    }
    json_decref(doc);
    run = run_perft("divide -d 3 --stats --hash 4", false);
    cr_assert(strstr(run.out, "total               8902            34"), "%s", run.out);
    cr_assert(strstr(run.out, "Ply:1  HT:[C:"), "%s", run.out);
}

Test(cli, unique_reports_distinct_positions_and_memory) {
    Run run = run_perft("unique -d 4", false);
    cr_assert_eq(run.status, 0);
    cr_assert(strstr(run.out, "3                  5362"), "%s", run.out);
    cr_assert(strstr(run.out, "4                 72078"), "%s", run.out);
    cr_assert(strstr(run.out, "peak memory"), "%s", run.out);
    run = run_perft("unique -d 3 --json", false);
    json_error_t error;
    json_t *doc = json_loads(run.out, 0, &error);
    cr_assert(doc, "not JSON (%s): %s", error.text, run.out);
    json_t *plies = json_object_get(doc, "plies");
    cr_assert_eq(json_integer_value(json_object_get(json_array_get(plies, 2), "positions")), 5362);
    json_decref(doc);
    run = run_perft("unique -d 5 -t 2", false);
    cr_assert_eq(run.status, 0);
    cr_assert(strstr(run.out, "5                822518"), "%s", run.out);
}

Test(cli, every_command_has_help_and_the_binary_a_version) {
    static const char *const commands[] = {"count", "divide", "suite", "stats", "unique", "verify", "uci",
                                           "perftree", "check"};
    for (int i = 0; i < 9; i++) {
        char args[64];
        snprintf(args, sizeof args, "%s --help", commands[i]);
        Run run = run_perft(args, false);
        cr_assert_eq(run.status, 0);
        cr_assert(strstr(run.out, "usage: perft "), "%s", run.out);
    }
    Run run = run_perft("--help", false);
    cr_assert(strstr(run.out, "count") && strstr(run.out, "divide") && run.status == 0);
    run = run_perft("--version", false);
    cr_assert(strstr(run.out, "perft (perftkit) ") && run.status == 0);
}

Test(cli, bad_input_gets_one_line_and_exit_status_2) {
    assert_bad_input("count -d 99", "depth 99 is out of range 0..32");
    assert_bad_input("count -d x", "depth 'x' is not a whole number");
    assert_bad_input("count -d", "needs a value");
    assert_bad_input("count --fen '8/8/8/8 w - - 0 1'", "bad FEN '8/8/8/8 w - - 0 1'");
    assert_bad_input("count --fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "must be quoted");
    assert_bad_input("count --fen '4k3/8/8/8/8/8/8/4K2R w - - 0 1' --startpos", "choose one");
    assert_bad_input("count --moves e2e5", "move 1 'e2e5' is not legal");
    assert_bad_input("count --frobnicate", "unknown option '--frobnicate'");
    assert_bad_input("frobnicate", "no command 'frobnicate'");
    assert_bad_input("divide -d 0", "out of range 1..32");
    assert_bad_input("suite /nonexistent/file.epd", "cannot read '/nonexistent/file.epd'");
    assert_bad_input("suite --json --tap", "choose one");
    assert_bad_input("stats -d 13", "depth 13 is out of range 1..12");
    assert_bad_input("unique -d 0", "depth 0 is out of range 1..12");
    assert_bad_input("unique -d 4 --hash 1", "the position sets need more than 1 MB");
    assert_bad_input("verify --check keys,frobs", "'frobs' is not checks, split, mirror, hash, keys or notation");
    assert_bad_input("divide -d 3 --stats --max-time 1", "take no --max-time");
    Run run = run_perft("", true);
    cr_assert_eq(run.status, 2);
    run = run_perft("suite --json --json --max-known 1000", false);
    cr_assert_eq(run.status, 0, "the same format twice is no conflict: %s", run.out);
    cr_assert(strstr(run.out, "\"command\": \"suite\""), "%s", run.out);
}

Test(cli, hashed_and_threaded_counts_match_the_serial_ones) {
    static const char *const setups[] = {"-t 1 --hash 0", "-t 2 --hash 0", "-t 1 --hash 16", "-t 2 --hash 64",
                                         "-t 2 --hash 1"};
    for (int i = 0; i < 5; i++) {
        char args[256];
        snprintf(args, sizeof args, "count -q -d 5 %s --fen 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -'",
                 setups[i]);
        Run run = run_perft(args, false);
        cr_assert_eq(run.status, 0);
        cr_assert_str_eq(run.out, "193690690\n", "with %s", setups[i]);
    }
}

Test(cli, words_spell_the_total) {
    Run run = run_perft("count -d 3 --words", false);
    cr_assert(strstr(run.out, "perft(3) = 8902\neight thousand, nine hundred and two\n"), "%s", run.out);
}

Test(cli, stats_report_each_hashed_ply_with_published_unique_counts) {
    /* At ply 3 of the start position there are 8,902 nodes but 5,362 distinct positions
     * (OEIS A083276): one thread probes each node once and stores each position once. */
    Run run = run_perft("count -d 5 -t 1 --hash 16 --stats", false);
    cr_assert_eq(run.status, 0);
    cr_assert(strstr(run.out, "Ply:3  HT:[C:"), "%s", run.out);
    cr_assert(strstr(run.out, " P:8902 M:3540 R:0.3977 S:5362 U:5362 F:"), "%s", run.out);
    cr_assert(strstr(run.out, "Ply:1  HT:[C:") && strstr(run.out, "Ply:2  HT:[C:"), "%s", run.out);
    cr_assert_null(strstr(run.out, "Ply:4"), "ply 4 is one ply above the leaves: never hashed");
    run = run_perft("count -d 5 --hash 0 --stats", false);
    cr_assert(strstr(run.out, "hash tables: none"), "%s", run.out);
}

Test(cli, node_limit_prints_finished_root_moves_and_a_partial_total) {
    Run run = run_perft("count -d 5 -t 1 --hash 0 --max-nodes 1000000", false);
    cr_assert_eq(run.status, 3, "%s", run.out);
    cr_assert(strstr(run.out, "status: resource exhaustion: nodes\n"), "%s", run.out);
    cr_assert(strstr(run.out, "perft(5) >= "), "%s", run.out);
    cr_assert(strstr(run.out, "of 20 root moves)"), "%s", run.out);
    /* Finished root moves carry their exact counts (Stockfish's divide at depth 5). */
    cr_assert(strstr(run.out, "a2a3: 181046\n") || strstr(run.out, "b1a3: 198572\n"), "%s", run.out);
    cr_assert_null(strstr(run.out, "e2e4: "), "e2e4 is generated late and cannot be finished: %s", run.out);
}

Test(cli, time_limit_stops_a_deep_count) {
    time_t start = time(NULL);
    Run run = run_perft("count -d 12 --max-time 0.4", false);
    cr_assert_eq(run.status, 3, "%s", run.out);
    cr_assert(strstr(run.out, "status: resource exhaustion: time"), "%s", run.out);
    cr_assert_leq(time(NULL) - start, 5);
}

Test(cli, ctrl_c_prints_what_was_finished_and_exits_130) {
    char text[65536];
    int status = signalled_run(0.5, SIGINT, (char *[]){"count", "-d", "12", "-t", "2", NULL}, text, sizeof text);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 130, "status %d: %s", status, text);
    cr_assert(strstr(text, "status: interrupted\n"), "%s", text);
    cr_assert(strstr(text, "perft(12) >= "), "%s", text);
}

Test(cli, json_is_one_document_with_the_documented_fields) {
    Run run = run_perft("count -d 5 -t 2 --hash 16 --json", false);
    cr_assert_eq(run.status, 0);
    json_error_t error;
    json_t *doc = json_loads(run.out, 0, &error);
    cr_assert(doc, "not JSON (%s): %s", error.text, run.out);
    cr_assert_eq(json_integer_value(json_object_get(doc, "schema")), 1);
    cr_assert_str_eq(json_string_value(json_object_get(doc, "command")), "count");
    cr_assert_str_eq(json_string_value(json_object_get(doc, "total")), "4865609");
    cr_assert_str_eq(json_string_value(json_object_get(doc, "status")), "completed");
    cr_assert(json_is_true(json_object_get(doc, "complete")));
    cr_assert_eq(json_integer_value(json_object_get(doc, "depth")), 5);
    json_t *position = json_object_get(doc, "position");
    cr_assert_str_eq(json_string_value(json_object_get(position, "fen")), FEN_STARTPOS);
    json_t *moves = json_object_get(doc, "moves");
    cr_assert_eq(json_array_size(moves), 20);
    json_t *first = json_array_get(moves, 0);
    cr_assert_str_eq(json_string_value(json_object_get(first, "uci")), "a2a3");
    cr_assert_str_eq(json_string_value(json_object_get(first, "san")), "a3");
    cr_assert_str_eq(json_string_value(json_object_get(first, "nodes")), "181046");
    json_t *tables = json_object_get(doc, "tables");
    cr_assert_eq(json_array_size(tables), 3, "plies 1 to 3 are hashed at depth 5");
    cr_assert_eq(json_integer_value(json_object_get(json_array_get(tables, 2), "ply")), 3);
    cr_assert(json_is_number(json_object_get(doc, "seconds")));
    cr_assert(json_is_number(json_object_get(doc, "leaves_per_second")));
    cr_assert_eq(json_integer_value(json_object_get(json_object_get(doc, "options"), "threads")), 2);
    json_decref(doc);

    run = run_perft("divide -d 4 --max-nodes 50000 -t 1 --hash 0 --json", false);
    cr_assert_eq(run.status, 3);
    doc = json_loads(run.out, 0, &error);
    cr_assert(doc, "not JSON (%s): %s", error.text, run.out);
    cr_assert_str_eq(json_string_value(json_object_get(doc, "status")), "resource exhaustion: nodes");
    cr_assert(json_is_false(json_object_get(doc, "complete")));
    json_decref(doc);
}

Test(cli, trace_prints_iterations_root_moves_and_tables) {
    Run run = run_perft("count -d 4 --trace it,pz,tt --hash 16", false);
    cr_assert_eq(run.status, 0);
    cr_assert(strstr(run.out, "trace it: perft(1) = 20 "), "%s", run.out);
    cr_assert(strstr(run.out, "trace it: perft(2) = 400 "), "%s", run.out);
    cr_assert(strstr(run.out, "trace it: perft(3) = 8902 "), "%s", run.out);
    cr_assert(strstr(run.out, "trace it: perft(4) = 197281 "), "%s", run.out);
    cr_assert(strstr(run.out, "trace pz: e2e4: 13160 ("), "Stockfish's divide at depth 4: %s", run.out);
    cr_assert(strstr(run.out, "/20, "), "%s", run.out);
    cr_assert(strstr(run.out, "trace tt: depth 4\nPly:1  HT:"), "%s", run.out);
    cr_assert(strstr(run.out, "perft(4) = 197281\n"), "%s", run.out);
}

Test(cli, progress_appears_on_a_terminal_only) {
    const char *bin = getenv("PERFTKIT_BIN");
    Run terminal = run_command("script -qec \"'%s' count -d 9 -t 1 --hash 0 --max-time 1.5\" /dev/null", bin);
    const char *text = terminal.out;
    cr_assert(strstr(text, "root moves"), "no progress line on a terminal: %s", text);
    cr_assert(strstr(text, "leaves"), "%s", text);
    cr_assert(strstr(text, "status: resource exhaustion: time"), "%s", text);
    Run plain = run_perft("count -d 6 -t 1 --hash 0 2>&1 >/dev/null", false);
    cr_assert_str_eq(plain.out, "", "nothing on stderr off a terminal");
    /* statistics: a line for the depth being counted, redrawn as its units finish, and
     * always cleared ("\r" and erase-line) before anything else is printed */
    Run stats = run_command("script -qec \"'%s' stats -d 8 -t 1 --hash 64 --max-time 2.5\" /dev/null", bin);
    const char *line = strstr(stats.out, "\r\033[Kperft ");
    cr_assert(line && strstr(line, " units, ") && strstr(line, " leaves, "), "no progress line: %s", stats.out);
    for (; line; line = strstr(line + 1, "\r\033[Kperft "))
        cr_assert(!strncmp(line + 3 + strcspn(line + 3, "\r\n"), "\r\033[K", 4), "a progress line is not cleared: %s",
                  stats.out);
    Run piped = run_perft("stats -d 6 -t 1 2>&1 >/dev/null", false);
    cr_assert_null(strstr(piped.out, "units, "), "no progress off a terminal: %s", piped.out);
}

Test(cli, run_options_are_checked) {
    assert_bad_input("count --hash 99999999", "--hash 99999999 is more than this machine's memory");
    assert_bad_input("count -t 0", "--threads 0 is out of range 1..1024");
    assert_bad_input("count --max-time -1", "--max-time '-1' is not a number of seconds above 0");
    assert_bad_input("count --max-nodes lots", "--max-nodes 'lots' is not a whole number");
    assert_bad_input("count --trace it,xx", "--trace: 'xx' is not it, pz or tt");
}

/* Feeds `input` to `perft uci` and returns what it printed. */
static Run uci_session(const char *input) {
    char path[] = "/tmp/perftkit-uci-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, input, strlen(input)), (ssize_t)strlen(input));
    close(fd);
    char args[256];
    snprintf(args, sizeof args, "uci < %s", path);
    Run run = run_perft(args, true);
    unlink(path);
    return run;
}

Test(cli, uci_answers_the_handshake_and_go_perft) {
    Run run = uci_session("uci\nisready\nposition startpos\ngo perft 3\nposition startpos moves e2e4\ngo perft 2\nquit\n");
    cr_assert_eq(run.status, 0);
    cr_assert(strstr(run.out, "id name perftkit "), "%s", run.out);
    cr_assert(strstr(run.out, "option name UCI_Chess960 type check default false\n"), "%s", run.out);
    cr_assert(strstr(run.out, "\nuciok\nreadyok\n"), "%s", run.out);
    cr_assert(strstr(run.out, "a2a3: 380\n"), "%s", run.out);
    cr_assert(strstr(run.out, "\nNodes searched: 8902\n"), "%s", run.out);
    cr_assert(strstr(run.out, "\nNodes searched: 600\n"), "Stockfish's divide: e2e4 600 at depth 3: %s", run.out);
}

Test(cli, check_names_a_broken_engine_in_one_line) {
    assert_bad_input("check --engine /bin/false -d 2", "perft check: engine '/bin/false' exited with status 1");
    assert_bad_input("check --engine true --suite x.epd", "unknown option '--suite'");
}

Test(cli, perftree_prints_move_count_lines_and_the_total) {
    Run run = run_perft("perftree 3 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'", false);
    cr_assert_eq(run.status, 0);
    cr_assert(!strncmp(run.out, "a2a3 380\na2a4 420\n", 18), "%s", run.out);
    cr_assert(strstr(run.out, "h2h4 420\n\n8902\n"), "%s", run.out);
    run = run_perft("perftree 2 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' 'e2e4'", false);
    cr_assert(strstr(run.out, "\n\n600\n"), "%s", run.out);
}

/* The binary end to end for bench and results: --json on stdout through a pipe (the
 * in-process tests are in test_cmd_bench.c and test_cmd_results.c). */
Test(cli, bench_json_pipes_into_a_parser_and_results_reads_what_it_stored) {
    char workload[] = "/tmp/perftkit-workload-XXXXXX", dir[] = "/tmp/perftkit-results-XXXXXX", args[512];
    int fd = mkstemp(workload);
    dprintf(fd, "# tiny: a test workload\n4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;id rook ;D3 1197 ;D4 7059\n");
    close(fd);
    cr_assert(mkdtemp(dir));
    snprintf(args, sizeof args, "bench --workload %s --repeat 1 -t 1 -q --json --results %s --machine box", workload,
             dir);
    Run run = run_perft(args, false);
    unlink(workload);
    cr_assert_eq(run.status, 0, "%s", run.out);
    json_error_t error;
    json_t *doc = json_loads(run.out, 0, &error);
    cr_assert(doc, "stdout is not one JSON document (%s): %s", error.text, run.out);
    cr_assert_str_eq(json_string_value(json_object_get(doc, "kind")), "perftkit-bench");
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(doc, "setups"), 0), "leaves")),
                     "7059");
    json_decref(doc);
    snprintf(args, sizeof args, "results %s --no-html", dir);
    run = run_perft(args, false);
    cr_assert_eq(run.status, 0, "%s", run.out);
    cr_assert(strstr(run.out, "1 result under ") && strstr(run.out, "\nbox "), "%s", run.out);
    run = run_perft("bench --help", false);
    cr_assert(run.status == 0 && strstr(run.out, "usage: perft bench"), "%s", run.out);
    run = run_perft("results --help", false);
    cr_assert(run.status == 0 && strstr(run.out, "usage: perft results"), "%s", run.out);
}

/* perft show's colours depend on the terminal and the environment; only the binary on
 * a real pseudo-terminal (script) can show that. */
Test(cli, show_colours_a_terminal_only_never_with_no_color_or_a_dumb_terminal) {
    const char *bin = getenv("PERFTKIT_BIN");
    cr_assert(bin, "PERFTKIT_BIN is not set (run the tests through meson test)");
    Run run = run_command("script -qec \"env -u NO_COLOR TERM=xterm-256color '%s' show --fan\" /dev/null", bin);
    cr_assert(strstr(run.out, "\033[48;5;137m\033[1;97m \u2656 "), "no colours on a terminal: %s", run.out);
    cr_assert(strstr(run.out, "Legal moves: 20"), "%s", run.out);
    static const char *const plain[] = {"NO_COLOR=1 TERM=xterm-256color", "NO_COLOR= TERM=xterm-256color",
                                        "TERM=dumb"};
    for (int i = 0; i < 3; i++) {
        run = run_command("script -qec \"env -u NO_COLOR %s '%s' show --fan\" /dev/null", plain[i], bin);
        cr_assert(strstr(run.out, " 1 \u2656 \u2658 \u2657 \u2655 \u2654 \u2657 \u2658 \u2656 1"), "%s: %s",
                  plain[i], run.out);
        cr_assert_null(strchr(run.out, '\033'), "colours with %s: %s", plain[i], run.out);
    }
    run = run_command("env -u NO_COLOR TERM=xterm-256color '%s' show | cat", bin);
    cr_assert(strstr(run.out, " 1 R N B Q K B N R 1\n"), "%s", run.out);
    cr_assert_null(strchr(run.out, '\033'), "colours into a pipe: %s", run.out);
}
