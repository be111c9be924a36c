/* test_cli.c — the perft binary as users run it: output shapes, exit codes, and a
 * one-line error for every kind of bad input. */
#include "support.h"

#include <sys/wait.h>
#include <unistd.h>

typedef struct Run {
    int status;
    char out[65536];
} Run;

/* Runs `perft ARGS` through the shell; `out` gets stdout (and stderr with merge). */
static Run run_perft(const char *args, bool merge_stderr) {
    const char *bin = getenv("PERFTKIT_BIN");
    cr_assert(bin, "PERFTKIT_BIN is not set (run the tests through meson test)");
    char command[4096];
    snprintf(command, sizeof command, "'%s' %s %s", bin, args, merge_stderr ? "2>&1" : "2>/dev/null");
    FILE *pipe = popen(command, "r");
    cr_assert(pipe);
    Run run;
    size_t n = fread(run.out, 1, sizeof run.out - 1, pipe);
    run.out[n] = '\0';
    int status = pclose(pipe);
    run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return run;
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

Test(cli, suite_without_files_runs_the_quick_selection) {
    Run run = run_perft("suite --max-depth 4", false);
    cr_assert_eq(run.status, 0, "%s", run.out);
    cr_assert(strstr(run.out, "pass  startpos"), "%s", run.out);
    cr_assert(strstr(run.out, "2 passed, 0 failed"), "%s", run.out);
}

Test(cli, suite_reports_a_wrong_count_and_how_to_reproduce_it) {
    char path[] = "/tmp/perftkit-test-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("# a planted wrong count\n4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 67\nnot a fen ;D1 1\n", f);
    fclose(f);
    char args[256];
    snprintf(args, sizeof args, "suite %s", path);
    Run run = run_perft(args, true);
    unlink(path);
    cr_assert_eq(run.status, 1, "%s", run.out);
    cr_assert(strstr(run.out, "depth 2: expected 67, got 66"), "%s", run.out);
    cr_assert(strstr(run.out, "reproduce: perft divide -d 2 --fen \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\""), "%s", run.out);
    cr_assert(strstr(run.out, ":3: bad FEN 'not a fen'"), "%s", run.out);
    cr_assert(strstr(run.out, "0 passed, 1 failed, 1 unreadable"), "%s", run.out);
}

Test(cli, every_command_has_help_and_the_binary_a_version) {
    static const char *const commands[] = {"count", "divide", "suite"};
    for (int i = 0; i < 3; i++) {
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
    Run run = run_perft("", true);
    cr_assert_eq(run.status, 2);
}
