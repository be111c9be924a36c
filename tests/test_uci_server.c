/* test_uci_server.c — the UCI server (uci/server) fed commands from memory: the
 * handshake, go perft with Stockfish's lines and real counts, Chess960 castling, and
 * one quoted `info string error` line for every bad command, after which the server
 * keeps serving with the position it had. */
#include "support.h"

#include "../uci/server.h"

TestSuite(uci_server, .init = core_setup, .timeout = 60);

/* What the server answers to `length` bytes of commands (which may hold NUL bytes). */
static char *serve_bytes(const char *commands, size_t length) {
    char *answer = NULL;
    size_t size = 0;
    FILE *in = fmemopen((void *)commands, length, "r");
    FILE *out = open_memstream(&answer, &size);
    cr_assert(in && out, "cannot open memory streams");
    cr_assert_eq(uci_serve(in, out), UCI_SERVED, "the server could not start or write");
    fclose(in);
    fclose(out);
    return answer;
}

static char *serve(const char *commands) { return serve_bytes(commands, strlen(commands)); }

/* How many lines of `text` start with `prefix`. */
static int lines_starting(const char *text, const char *prefix) {
    int n = 0;
    for (const char *line = text; *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] != '\0'))
        n += !strncmp(line, prefix, strlen(prefix));
    return n;
}

/* Every byte printable but the newlines: nothing from the input reaches the output raw. */
static void assert_clean(const char *text) {
    for (const char *p = text; *p; p++)
        cr_assert(*p == '\n' || ((unsigned char)*p >= 0x20 && *p != 0x7f), "byte 0x%02x in: %s", (unsigned char)*p,
                  text);
}

Test(uci_server, answers_the_handshake_and_go_perft_as_stockfish_does) {
    char *out = serve("uci\nisready\nsetoption name Threads value 1\nsetoption name Hash value 1\n"
                      "position startpos\ngo perft 3\nquit\ngo perft 1\n");
    cr_assert(!strncmp(out, "id name perftkit ", 17), "%s", out);
    cr_assert(strstr(out, "option name UCI_Chess960 type check default false\n"), "%s", out);
    cr_assert(strstr(out, "option name Hash type spin default 64 min 0 max 65536\n"), "%s", out);
    cr_assert(strstr(out, "\nuciok\nreadyok\na2a3: 380\na2a4: 420\nb1a3: 400\n"), "sorted by move: %s", out);
    cr_assert(strstr(out, "h2h4: 420\n\nNodes searched: 8902\n\n"), "%s", out);
    cr_assert_eq(lines_starting(out, "Nodes searched"), 1, "nothing after quit: %s", out);
    free(out);
}

Test(uci_server, plays_the_moves_of_a_position_command) {
    char *out = serve("position startpos moves e2e4 e7e5\nd\nposition startpos moves e2e4\ngo perft 2\n"
                      "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\ngo perft 3\n");
    cr_assert(strstr(out, "Fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n"), "%s", out);
    cr_assert(strstr(out, "\nNodes searched: 600\n"), "e2e4's line of the start position's divide 3: %s", out);
    cr_assert(strstr(out, "\nNodes searched: 97862\n"), "Kiwipete at depth 3: %s", out);
    free(out);
}

Test(uci_server, d_shows_the_board_as_perft_show_does) {
    /* After 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#: the board, the FEN, the checker
     * and no legal move; then a position with a pin. No colour: not a terminal. */
    char *out = serve("position startpos moves e2e4 e7e5 f1c4 b8c6 d1h5 g8f6 h5f7\nd\n"
                      "position fen 4k3/8/8/8/1b6/8/3N4/4K2r w - - 0 1\nd\nisready\n");
    cr_assert(strstr(out, "   a b c d e f g h\n"
                          " 8 r . b q k b . r 8\n"
                          " 7 p p p p . Q p p 7\n"
                          " 6 . . n . . n . . 6\n"
                          " 5 . . . . p . . . 5\n"
                          " 4 . . B . P . . . 4\n"
                          " 3 . . . . . . . . 3\n"
                          " 2 P P P P . P P P 2\n"
                          " 1 R N B . K . N R 1\n"
                          "   a b c d e f g h\n\n"
                          "Fen: r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4\n"),
              "%s", out);
    cr_assert(strstr(out, "\nCheckers: Qf7\nPinned: -\nLegal moves: 0 (checkmate)\n"), "%s", out);
    cr_assert(strstr(out, "\nCheckers: Rh1\nPinned: Nd2\nLegal moves: 2\n  Ke2 Kf2\nreadyok\n"), "%s", out);
    cr_assert_null(strchr(out, '\033'), "%s", out);
    free(out);
}

Test(uci_server, chess960_castling_is_written_king_takes_rook) {
    char *out = serve("setoption name UCI_Chess960 value true\n"
                      "position fen r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1\ngo perft 1\n");
    cr_assert(strstr(out, "c1e1: 1\n") && strstr(out, "c1a1: 1\n"), "%s", out);
    cr_assert(strstr(out, "\nNodes searched: 23\n"), "python-chess's xfen-00, depth 1: %s", out);
    free(out);
}

Test(uci_server, a_bad_go_perft_gets_one_error_line_each) {
    char *out = serve("go perft\ngo perft x\ngo perft -3\ngo perft 0\ngo perft 33\ngo perft 99999999999999999999999\n"
                      "go perft 2 3\ngo depth 5\ngo\ngo perft 1\n");
    cr_assert(strstr(out, "info string error: go perft needs a depth 1..32\n"), "%s", out);
    cr_assert(strstr(out, "info string error: go perft: depth 'x' is not a whole number\n"), "%s", out);
    cr_assert(strstr(out, "info string error: go perft: depth -3 is out of range 1..32\n"), "negative: %s", out);
    cr_assert(strstr(out, "info string error: go perft: depth 0 is out of range 1..32\n"), "%s", out);
    cr_assert(strstr(out, "info string error: go perft: depth 33 is out of range 1..32\n"), "%s", out);
    cr_assert(strstr(out, "info string error: go perft: depth 99999999999999999999999 is out of range 1..32\n"), "%s",
              out);
    cr_assert(strstr(out, "info string error: go perft takes only a depth, not '3' after it\n"), "%s", out);
    cr_assert_eq(lines_starting(out, "info string error: perftkit only counts: use 'go perft N'"), 2, "%s", out);
    cr_assert_eq(lines_starting(out, "info string error: "), 9, "one line each: %s", out);
    cr_assert(strstr(out, "\nNodes searched: 20\n"), "and it still counts: %s", out);
    free(out);
}

Test(uci_server, a_rejected_position_command_keeps_the_previous_position) {
    char *out = serve("position startpos moves e2e4\n"
                      "position fen 8/8/8 w\nd\n"
                      "position startpos moves e7e5\nd\n"
                      "position startpos moves e2e4 zz9\nd\n"
                      "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 foo e2e4\nd\n"
                      "position frobnicate\nposition\nposition fen\nposition fen moves e2e4\nd\n"
                      "go perft 1\n");
    cr_assert(strstr(out, "info string error: bad FEN '8/8/8 w': "), "%s", out);
    cr_assert(strstr(out, "info string error: move 1 'e7e5' is not legal in "
                          "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1; position unchanged\n"),
              "%s", out);
    cr_assert(strstr(out, "info string error: move 2 'zz9' is not a UCI move (e2e4, e7e8q); position unchanged\n"), "%s",
              out);
    cr_assert(strstr(out, "info string error: bad FEN '4k3/8/8/8/8/8/8/4K3 w - - 0 1 foo e2e4': "), "%s", out);
    cr_assert(strstr(out, "info string error: position needs 'startpos' or 'fen FEN', not 'frobnicate'"), "%s", out);
    cr_assert(strstr(out, "info string error: position needs 'startpos' or 'fen FEN'; position unchanged\n"), "%s", out);
    cr_assert_eq(lines_starting(out, "info string error: position fen needs a FEN"), 2, "%s", out);
    cr_assert_eq(lines_starting(out, "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"), 5,
                 "1. e4 stays after every rejected command: %s", out);
    cr_assert(strstr(out, "\nNodes searched: 20\n"), "black's 20 replies: %s", out);
    free(out);
}

Test(uci_server, outside_text_is_quoted_and_cut) {
    char commands[4096];
    snprintf(commands, sizeof commands, "frob\x1b[2J\nposition fen \x1b]0;x\x07 w - - 0 1\n"
                                        "position startpos moves e2e4 \xff\xfe\nsetoption name Hash value \x1b\n"
                                        "setoption name \x01\x02 value 3\nsetoption Hash 3\n%0300d\n", 7);
    char *out = serve(commands);
    assert_clean(out);
    cr_assert(strstr(out, "info string error: unknown command 'frob\\x1B[2J'\n"), "%s", out);
    cr_assert(strstr(out, "info string error: bad FEN '\\x1B]0;x\\x07 w - - 0 1': "), "%s", out);
    cr_assert(strstr(out, "info string error: move 2 '\\xFF\\xFE' is not a UCI move"), "%s", out);
    cr_assert(strstr(out, "info string error: Hash is 0..65536 MB, not '\\x1B'\n"), "%s", out);
    cr_assert(strstr(out, "info string error: no option '\\x01\\x02' (UCI_Chess960, Threads, Hash)\n"), "%s", out);
    cr_assert(strstr(out, "info string error: setoption needs 'name NAME value VALUE'\n"), "%s", out);
    cr_assert(strstr(out, "info string error: unknown command '000000000000000000000000000000000000000000000000000000000000"
                          "... (300 bytes)'\n"),
              "a long word is cut at 60 characters: %s", out);
    free(out);
}

Test(uci_server, a_line_too_long_or_holding_a_nul_byte_is_refused_and_the_next_served) {
    size_t long_line = UCI_MAX_LINE + 1000, n = 0;
    char *commands = malloc(long_line + 256);
    cr_assert(commands);
    n += (size_t)sprintf(commands, "position startpos moves");
    while (n < long_line - 5)
        n += (size_t)sprintf(commands + n, " e2e4");
    commands[n++] = '\n';
    memcpy(commands + n, "isr\0eady\nisready\ngo perft 1\n", 28);
    n += 28;
    char *out = serve_bytes(commands, n);
    assert_clean(out);
    char expected[160];
    snprintf(expected, sizeof expected, "info string error: a command line of %zu bytes, more than %d: "
                                        "'position startpos moves e2e4 e2e4 e2e4 e2e4 e2e4 e2e4 e2e4 e...'; ignored\n",
             n - 29, UCI_MAX_LINE);
    cr_assert(strstr(out, expected), "%.300s", out);
    cr_assert(strstr(out, "info string error: a command line holds a NUL byte: 'isr\\x00eady'; ignored\n"), "%s", out);
    cr_assert(strstr(out, "\nreadyok\n"), "%s", out);
    cr_assert(strstr(out, "\nNodes searched: 20\n"), "the start position, as before the long line: %s", out);
    cr_assert_eq(lines_starting(out, "info string error: "), 2, "%s", out);
    free(out);
    free(commands);
}

Test(uci_server, carriage_returns_and_blank_lines_are_accepted) {
    char *out = serve("\r\n   \nisready\r\nposition startpos moves e2e4\r\n\tgo  perft\t 1 \r\n");
    cr_assert(strstr(out, "readyok\n"), "%s", out);
    cr_assert(strstr(out, "\nNodes searched: 20\n"), "%s", out);
    cr_assert_eq(lines_starting(out, "info string error"), 0, "%s", out);
    free(out);
}

Test(uci_server, a_write_failure_is_reported) {
    FILE *in = fmemopen((void *)"isready\n", 8, "r"), *out = fopen("/dev/full", "w");
    cr_assert(in && out);
    cr_assert_eq(uci_serve(in, out), UCI_WRITE_FAILED);
    fclose(in);
    fclose(out);
}

/* A fixed stream of pseudo-random bytes (xorshift), so a failure can be replayed. */
static unsigned char junk_byte(unsigned long long *state) {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return (unsigned char)(*state >> 24);
}

/* Every answer line is at most `limit` bytes: a quotation shows at most 60 characters. */
static void assert_short_lines(const char *text, size_t limit) {
    for (const char *line = text; *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] != '\0'))
        cr_assert_leq(strcspn(line, "\n"), limit, "a line of %zu bytes: %.200s", strcspn(line, "\n"), line);
}

Test(uci_server, binary_junk_gets_one_error_line_each_and_the_position_stays) {
    static const char *const prefixes[] = {"", "position fen ", "position startpos moves ", "go perft ",
                                           "setoption name Hash value ", "position startpos moves e7e5 "};
    enum { JUNK_LINES = 600 };
    size_t size = 64 + JUNK_LINES * 400, n = 0;
    char *commands = malloc(size);
    cr_assert(commands);
    n += (size_t)sprintf(commands, "position startpos moves e2e4\n");
    unsigned long long state = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < JUNK_LINES; i++) {
        const char *prefix = prefixes[i % 6];
        n += (size_t)sprintf(commands + n, "%s", prefix);
        /* The junk opens with a byte no command, move, FEN or number starts with. */
        commands[n++] = (char)(0x80 | junk_byte(&state));
        for (int length = (int)(junk_byte(&state) % 300); length > 0; length--) {
            unsigned char c = junk_byte(&state);
            commands[n++] = (char)(c == '\n' ? 0xff : c);
        }
        commands[n++] = '\n';
    }
    n += (size_t)sprintf(commands + n, "d\ngo perft 1\n");
    char *out = serve_bytes(commands, n);
    assert_clean(out);
    assert_short_lines(out, 512);
    cr_assert_eq(lines_starting(out, "info string error: "), JUNK_LINES, "one line for each junk line: %.2000s", out);
    cr_assert(strstr(out, "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"),
              "1. e4 stays through all of it: %.2000s", out);
    cr_assert(strstr(out, "\nNodes searched: 20\n"), "black's 20 replies: %.2000s", out);
    free(out);
    free(commands);
}

Test(uci_server, a_line_of_a_megabyte_is_refused_without_being_held_and_the_server_goes_on) {
    size_t megabyte = 1 << 20, n = 0;
    char *commands = malloc(2 * megabyte + 256);
    cr_assert(commands);
    n += (size_t)sprintf(commands, "position startpos moves e2e4\n");
    size_t start = n;
    n += (size_t)sprintf(commands + n, "position startpos moves");
    while (n - start < megabyte)
        n += (size_t)sprintf(commands + n, " g1f3 g8f6 f3g1 f6g8");
    size_t first = n - start;
    commands[n++] = '\n';
    n += (size_t)sprintf(commands + n, "d\ngo perft 2\n");
    start = n;
    for (unsigned long long state = 42; n - start < megabyte;) { /* binary junk with no newline, to the end */
        unsigned char c = junk_byte(&state);
        commands[n++] = (char)(c == '\n' ? 0 : c);
    }
    char *out = serve_bytes(commands, n);
    assert_clean(out);
    assert_short_lines(out, 512);
    char expected[200];
    snprintf(expected, sizeof expected, "info string error: a command line of %zu bytes, more than %d: "
                                        "'position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f...'; ignored\n",
             first, UCI_MAX_LINE);
    cr_assert(strstr(out, expected), "%.500s", out);
    cr_assert(strstr(out, "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"), "%.500s", out);
    cr_assert(strstr(out, "\nNodes searched: 600\n"), "e2e4's line of the start position's divide 3: %.500s", out);
    snprintf(expected, sizeof expected, "info string error: a command line of %zu bytes, more than %d: '", megabyte,
             UCI_MAX_LINE);
    cr_assert(strstr(out, expected), "the junk at the end of the input is refused too: %.800s", out);
    cr_assert_eq(lines_starting(out, "info string error: "), 2, "%.800s", out);
    free(out);
    free(commands);
}

Test(uci_server, go_perft_depths_beyond_the_limit_or_not_numbers_keep_the_server_serving) {
    char *out = serve("position startpos moves e2e4\ngo perft 32x\ngo perft 4294967297\ngo perft -2147483648\n"
                      "go perft 1.5\ngo perft +1\ngo perft 0x10\ngo perft \xe2\x91\xa0\nd\ngo perft 1\n");
    assert_clean(out);
    cr_assert(strstr(out, "info string error: go perft: depth '32x' is not a whole number\n"), "%s", out);
    cr_assert(strstr(out, "info string error: go perft: depth 4294967297 is out of range 1..32\n"), "%s", out);
    cr_assert(strstr(out, "info string error: go perft: depth -2147483648 is out of range 1..32\n"), "%s", out);
    cr_assert(strstr(out, "info string error: go perft: depth '1.5' is not a whole number\n"), "%s", out);
    cr_assert(strstr(out, "info string error: go perft: depth '+1' is not a whole number\n"), "%s", out);
    cr_assert(strstr(out, "info string error: go perft: depth '0x10' is not a whole number\n"), "%s", out);
    cr_assert(strstr(out, "info string error: go perft: depth '\\xE2\\x91\\xA0' is not a whole number\n"), "%s", out);
    cr_assert_eq(lines_starting(out, "info string error: "), 7, "%s", out);
    cr_assert(strstr(out, "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"), "%s", out);
    cr_assert(strstr(out, "\nNodes searched: 20\n"), "%s", out);
    free(out);
}

Test(uci_server, illegal_moves_and_impossible_fens_keep_the_previous_position) {
    char *out = serve("position startpos moves e2e4\n"
                      "position startpos moves e2e5\n"                                    /* no such pawn move */
                      "position startpos moves e1g1\n"                                    /* castling through pieces */
                      "position startpos moves e2e4 e7e5 d1h5 e8e7 h5e5 e7e6\n"           /* into check */
                      "position fen 4k3/8/8/8/8/8/8/4K2R w KQ - 0 1 moves e1c1\n"          /* no such rook */
                      "position fen 4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1\n"                    /* the side not to move in check */
                      "position fen 8/8/8/8/8/8/8/8 w - - 0 1\n"                          /* no kings */
                      "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e4 e7e5 a7a8q\n"
                      "d\ngo perft 1\n");
    assert_clean(out);
    cr_assert(strstr(out, "info string error: move 1 'e2e5' is not legal in "), "%s", out);
    cr_assert(strstr(out, "info string error: move 1 'e1g1' is not legal in "), "%s", out);
    cr_assert(strstr(out, "info string error: move 6 'e7e6' is not legal in "), "%s", out);
    cr_assert(strstr(out, "info string error: bad FEN '4k3/8/8/8/8/8/8/4K2R w KQ - 0 1': "), "%s", out);
    cr_assert(strstr(out, "info string error: bad FEN '4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1': "), "%s", out);
    cr_assert(strstr(out, "info string error: bad FEN '8/8/8/8/8/8/8/8 w - - 0 1': "), "%s", out);
    cr_assert(strstr(out, "info string error: move 3 'a7a8q' is not legal in "), "%s", out);
    cr_assert_eq(lines_starting(out, "info string error: "), 7, "%s", out);
    cr_assert(strstr(out, "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"), "%s", out);
    cr_assert(strstr(out, "\nNodes searched: 20\n"), "%s", out);
    free(out);
}
