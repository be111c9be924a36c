/* test_cmd_uci.c — `perft uci` (the UCI server on the command's streams) and `perft
 * perftree DEPTH FEN [MOVES]`, run in-process: real counts, the option tables' help and
 * a one-line error for every bad operand. */
#include "cli_support.h"

TestSuite(cmd_uci, .init = core_setup, .timeout = 60);

static void assert_error(CliRun run, const char *message) {
    cr_assert_eq(run.status, 2, "exit %d: %s", run.status, run.err);
    cr_assert_str_eq(run.err, message);
    cr_assert_str_eq(run.out, "");
    cli_run_free(&run);
}

Test(cmd_uci, uci_serves_its_standard_input) {
    CliRun run = cli_run_input("uci\nisready\nposition startpos moves e2e4\ngo perft 2\ngo perft x\nquit\n", "uci");
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert(strstr(run.out, "\nuciok\nreadyok\n"), "%s", run.out);
    cr_assert(strstr(run.out, "\nNodes searched: 600\n"), "%s", run.out);
    cr_assert(strstr(run.out, "info string error: go perft: depth 'x' is not a whole number\n"), "%s", run.out);
    cr_assert_str_eq(run.err, "");
    cli_run_free(&run);
}

Test(cmd_uci, uci_takes_no_arguments_and_has_help) {
    assert_error(cli_run("uci foo"),
                 "perft uci: unexpected argument 'foo' (a FEN or a move list must be quoted as one argument)\n");
    assert_error(cli_run("uci --threads 2"), "perft uci: unknown option '--threads' (try perft uci --help)\n");
    CliRun run = cli_run("uci --help");
    cr_assert_eq(run.status, 0);
    cr_assert(!strncmp(run.out, "usage: perft uci [OPTIONS]\n", 27), "%s", run.out);
    cr_assert(strstr(run.out, "go perft N") && strstr(run.out, "info string error"), "%s", run.out);
    cli_run_free(&run);
}

static const char *const startpos = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

Test(cmd_uci, perftree_prints_move_count_lines_and_the_total) {
    CliRun run = cli_run("perftree 3 '%s'", startpos);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert(!strncmp(run.out, "a2a3 380\na2a4 420\nb1a3 400\n", 27), "sorted by move: %s", run.out);
    cr_assert(strstr(run.out, "h2h4 420\n\n8902\n"), "%s", run.out);
    cli_run_free(&run);
    run = cli_run("perftree 2 '%s' 'e2e4 e7e5 g1f3'", startpos);
    cr_assert(strstr(run.out, "e8e7 "), "black to move after 1. e4 e5 2. Nf3: %s", run.out);
    cli_run_free(&run);
    run = cli_run("perftree 3 '%s' e2e4", startpos);
    cr_assert(strstr(run.out, "\n\n13160\n"), "e2e4's line of divide 4: %s", run.out);
    cli_run_free(&run);
    run = cli_run("perftree 1 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1' ''");
    cr_assert(strstr(run.out, "e1g1 1\n") && strstr(run.out, "\n\n48\n"), "Kiwipete, empty MOVES: %s", run.out);
    cli_run_free(&run);
    run = cli_run("perftree -t 1 --hash 0 4 '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1'");
    cr_assert(strstr(run.out, "\n\n43238\n"), "the wiki's position 3 at depth 4: %s", run.out);
    cr_assert_str_eq(run.err, "");
    cli_run_free(&run);
}

Test(cmd_uci, perftree_refuses_bad_operands_in_one_line) {
    assert_error(cli_run("perftree 0 '%s'", startpos), "perft perftree: depth 0 is out of range 1..32\n");
    assert_error(cli_run("perftree 33 '%s'", startpos), "perft perftree: depth 33 is out of range 1..32\n");
    assert_error(cli_run("perftree 99999999999999999999 '%s'", startpos),
                 "perft perftree: depth 99999999999999999999 is out of range 1..32\n");
    assert_error(cli_run("perftree x '%s'", startpos), "perft perftree: depth 'x' is not a whole number\n");
    assert_error(cli_run("perftree 2"),
                 "perft perftree: DEPTH FEN [MOVES]: more operands expected (try perft perftree --help)\n");
    assert_error(cli_run("perftree 2 '%s' e2e4 e7e5", startpos),
                 "perft perftree: unexpected argument 'e7e5' (a FEN or a move list must be quoted as one argument)\n");
    CliRun run = cli_run("perftree 2 '8/8/8 w'");
    cr_assert_eq(run.status, 2);
    cr_assert(!strncmp(run.err, "perft perftree: bad FEN '8/8/8 w': ", 35), "%s", run.err);
    cli_run_free(&run);
    run = cli_run("perftree 2 '%s' 'e2e4 e2e4'", startpos);
    cr_assert_eq(run.status, 2);
    cr_assert(!strncmp(run.err, "perft perftree: --moves: move 2 'e2e4' is not legal in ", 55), "%s", run.err);
    cr_assert_eq(strchr(run.err, '\n'), run.err + strlen(run.err) - 1, "one line: %s", run.err);
    cli_run_free(&run);
    run = cli_run("perftree --help");
    cr_assert_eq(run.status, 0);
    cr_assert(!strncmp(run.out, "usage: perft perftree [OPTIONS] DEPTH FEN [MOVES]\n", 50), "%s", run.out);
    cr_assert(strstr(run.out, "exec perft perftree \"$@\""), "%s", run.out);
    cli_run_free(&run);
}
