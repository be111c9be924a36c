/* test_cmd_show.c — `perft show` in-process: the board and the position's facts for the
 * start position, a position after --moves, Chess960 and a check with a pinned man;
 * figurines with --fan; no colour off a terminal whatever TERM says; one-line errors.
 * (Colours on a terminal: test_cli.c, which runs the binary on a pseudo-terminal.) */
#include "cli_support.h"

TestSuite(cmd_show, .init = core_setup, .timeout = 60);

Test(cmd_show, prints_the_start_position) {
    CliRun run = cli_run("show");
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert_str_eq(run.err, "");
    cr_assert(starts_with(run.out,
                       "   a b c d e f g h\n"
                       " 8 r n b q k b n r 8\n"
                       " 7 p p p p p p p p 7\n"
                       " 6 . . . . . . . . 6\n"
                       " 5 . . . . . . . . 5\n"
                       " 4 . . . . . . . . 4\n"
                       " 3 . . . . . . . . 3\n"
                       " 2 P P P P P P P P 2\n"
                       " 1 R N B Q K B N R 1\n"
                       "   a b c d e f g h\n\n"
                       "Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"),
              "%s", run.out);
    Position pos = position_of(FEN_STARTPOS, false);
    Key128 key = pos_compute_key(&pos);
    char line[80];
    snprintf(line, sizeof line, "\nKey: %016llx%016llx\n", (unsigned long long)key.hi, (unsigned long long)key.lo);
    cr_assert(strstr(run.out, line), "no '%s' in %s", line + 1, run.out);
    cr_assert(strstr(run.out, "\nLegal moves: 20\n  Na3 Nc3 Nf3 Nh3 a3 a4 "), "%s", run.out);
    cr_assert_null(strchr(run.out, '\033'), "a memory stream is no terminal");
    cli_run_free(&run);
}

Test(cmd_show, plays_moves_and_shows_the_e_p_square_and_clocks) {
    CliRun run = cli_run("show --moves 'e4 d5 e5 f5'");
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert(strstr(run.out, " 5 . . . p P p . . 5\n"), "%s", run.out);
    cr_assert(strstr(run.out, "\nFen: rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3\n"), "%s",
              run.out);
    cr_assert(strstr(run.out, "\nEn passant: f6\n"), "%s", run.out);
    cr_assert(strstr(run.out, "\nClocks: halfmove 0, fullmove 3\n"), "%s", run.out);
    cr_assert(strstr(run.out, "\nSide to move: white\n"), "%s", run.out);
    /* perft 1 of that position: 31 (e.p. exf6 among them). */
    cr_assert(strstr(run.out, "\nLegal moves: 31\n") && strstr(run.out, " exf6 "), "%s", run.out);
    cli_run_free(&run);
}

Test(cmd_show, chess960_and_a_check_with_a_pinned_man) {
    CliRun run = cli_run("show --chess960 --fen 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9'");
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert(strstr(run.out, "\nVariant: Chess960\nSide to move: white\nCastling: HFhf\n"), "%s", run.out);
    cr_assert(strstr(run.out, " 1 B Q . B N R K R 1\n"), "%s", run.out);
    cr_assert(strstr(run.out, "\nLegal moves: 21\n"), "Stockfish's perft.sh: D1 21: %s", run.out);
    cli_run_free(&run);
    run = cli_run("show --fan --fen '4k3/8/8/8/1b6/8/3N4/4K2r w - - 0 1'");
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert(strstr(run.out, "\nCheckers: \u265Ch1\nPinned: \u2658d2\nLegal moves: 2\n  \u2654e2 \u2654f2\n"), "%s",
              run.out);
    cr_assert(strstr(run.out, " 1 . . . . \u2654 . . \u265C 1\n"), "%s", run.out);
    cli_run_free(&run);
}

Test(cmd_show, no_colour_off_a_terminal_whatever_term_says) {
    setenv("TERM", "xterm-256color", 1);
    unsetenv("NO_COLOR");
    CliRun run = cli_run("show --fan");
    cr_assert_eq(run.status, 0);
    cr_assert_null(strchr(run.out, '\033'), "%s", run.out);
    cr_assert(strstr(run.out, " 8 \u265C \u265E \u265D \u265B \u265A \u265D \u265E \u265C 8\n"), "%s", run.out);
    cli_run_free(&run);
    setenv("NO_COLOR", "1", 1);
    run = cli_run("show");
    cr_assert_null(strchr(run.out, '\033'), "%s", run.out);
    cli_run_free(&run);
}

static void assert_bad_input(const char *args, const char *reason) {
    CliRun run = cli_run("%s", args);
    cr_assert_eq(run.status, 2, "'perft %s' exited %d", args, run.status);
    cr_assert(strstr(run.err, reason), "'perft %s' said '%s', expected '%s'", args, run.err, reason);
    cr_assert(!strncmp(run.err, "perft show: ", 12), "%s", run.err);
    cr_assert_eq(strchr(run.err, '\n'), run.err + strlen(run.err) - 1, "more than one line: %s", run.err);
    cr_assert_str_eq(run.out, "");
    cli_run_free(&run);
}

Test(cmd_show, bad_input_gets_one_line_and_exit_status_2) {
    assert_bad_input("show --fen 'rnbqkbnr/pppppppp w'", "bad FEN");
    assert_bad_input("show --moves 'e4 e4'", "--moves: move 2 'e4' is not legal");
    assert_bad_input("show --fen x --startpos", "--fen and --startpos both given");
    assert_bad_input("show -d 3", "unknown option '-d'");
    assert_bad_input("show extra", "unexpected argument 'extra'");
}

Test(cmd_show, help_comes_from_the_option_table) {
    CliRun run = cli_run("show --help");
    cr_assert_eq(run.status, 0);
    static const char *const parts[] = {"usage: perft show [OPTIONS]", "--fen FEN", "--startpos", "--moves LIST",
                                        "--chess960", "--fan", "NO_COLOR"};
    for (int i = 0; i < 7; i++)
        cr_assert(strstr(run.out, parts[i]), "no '%s' in %s", parts[i], run.out);
    cli_run_free(&run);
    run = cli_run("--help");
    cr_assert(strstr(run.out, "\n  show "), "perft --help lists show: %s", run.out);
    cli_run_free(&run);
}
