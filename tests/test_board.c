/* test_board.c — the position display (io/board): the exact board rows in letters, in
 * figurines and in colour, the FEN's fields (castling in the position's notation), the
 * key the core computes, checkers and pinned men, the legal moves in SAN or FAN (as many
 * as perft 1 counts), FAN from SAN, and widths counted in columns, not bytes. */
#include "support.h"

#include "../io/board.h"
#include "../io/terminal.h"

TestSuite(board, .init = core_setup, .timeout = 60);

#define KIWIPETE "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
/* White in check from the rook on h1, the knight on d2 pinned by the bishop on b4:
 * only Ke2 and Kf2 remain. */
#define CHECK_AND_PIN "4k3/8/8/8/1b6/8/3N4/4K2r w - - 0 1"

static const char *render(const char *fen, bool chess960, unsigned style, char out[BOARD_TEXT_SIZE]) {
    Position pos = position_of(fen, chess960);
    return board_render(&pos, style, out);
}

/* The line of `text` that starts with `prefix`, without its newline, into `out`. */
static const char *line_of(const char *text, const char *prefix, char *out, size_t size) {
    for (const char *line = text; *line;) {
        size_t length = strcspn(line, "\n");
        if (!strncmp(line, prefix, strlen(prefix))) {
            snprintf(out, size, "%.*s", (int)length, line);
            return out;
        }
        line += length + (line[length] == '\n');
    }
    cr_assert_fail("no line '%s' in:\n%s", prefix, text);
    return NULL;
}

/* The moves listed after "Legal moves: N", counted, and N itself. */
static int listed_moves(const char *text, int *announced) {
    const char *p = strstr(text, "Legal moves: ");
    cr_assert(p, "%s", text);
    *announced = atoi(p + 13);
    p += strcspn(p, "\n");
    int n = 0;
    while (*p == '\n' && p[1] == ' ' && p[2] == ' ') { /* continuation lines: "  m1 m2 ..." */
        p += 2;
        for (;;) {
            size_t word = strcspn(p, " \n");
            n += word > 0;
            p += word;
            if (*p != ' ')
                break;
            p++;
        }
    }
    return n;
}

static void assert_moves_are_perft_1(const char *fen, bool chess960, unsigned style) {
    char text[BOARD_TEXT_SIZE];
    Position pos = position_of(fen, chess960);
    board_render(&pos, style, text);
    int announced, listed = listed_moves(text, &announced);
    int perft1 = (int)gen_count_perft(&pos, 1);
    cr_assert_eq(announced, perft1, "%s: says %d moves, perft 1 is %d", fen, announced, perft1);
    cr_assert_eq(listed, perft1, "%s: lists %d moves, perft 1 is %d:\n%s", fen, listed, perft1, text);
}

Test(board, start_position_in_letters) {
    char text[BOARD_TEXT_SIZE], expected[BOARD_TEXT_SIZE];
    Position pos = position_of(FEN_STARTPOS, false);
    board_render(&pos, 0, text);
    Key128 key = pos_compute_key(&pos);
    snprintf(expected, sizeof expected,
                     "   a b c d e f g h\n"
                     " 8 r n b q k b n r 8\n"
                     " 7 p p p p p p p p 7\n"
                     " 6 . . . . . . . . 6\n"
                     " 5 . . . . . . . . 5\n"
                     " 4 . . . . . . . . 4\n"
                     " 3 . . . . . . . . 3\n"
                     " 2 P P P P P P P P 2\n"
                     " 1 R N B Q K B N R 1\n"
                     "   a b c d e f g h\n"
                     "\n"
                     "Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
                     "Variant: standard\n"
                     "Side to move: white\n"
                     "Castling: KQkq\n"
                     "En passant: -\n"
                     "Clocks: halfmove 0, fullmove 1\n"
                     "Key: %016llx%016llx\n"
                     "Checkers: -\n"
                     "Pinned: -\n"
                     "Legal moves: 20\n"
                     "  Na3 Nc3 Nf3 Nh3 a3 a4 b3 b4 c3 c4 d3 d4 e3 e4 f3 f4 g3 g4 h3 h4\n",
             (unsigned long long)key.hi, (unsigned long long)key.lo);
    cr_assert_str_eq(text, expected);
}

Test(board, the_key_is_the_one_the_core_computes) {
    static const char *const fens[] = {FEN_STARTPOS, KIWIPETE, CHECK_AND_PIN};
    for (int i = 0; i < 3; i++) {
        char text[BOARD_TEXT_SIZE], line[80], expected[80];
        Position pos = position_of(fens[i], false);
        board_render(&pos, 0, text);
        Key128 key = pos_compute_key(&pos);
        snprintf(expected, sizeof expected, "Key: %016llx%016llx", (unsigned long long)key.hi,
                 (unsigned long long)key.lo);
        cr_assert_str_eq(line_of(text, "Key: ", line, sizeof line), expected);
    }
}

Test(board, kiwipete_rows_and_its_48_moves) {
    char text[BOARD_TEXT_SIZE], line[256];
    render(KIWIPETE, false, 0, text);
    static const char board[] = "   a b c d e f g h\n"
                                " 8 r . . . k . . r 8\n"
                                " 7 p . p p q p b . 7\n"
                                " 6 b n . . p n p . 6\n"
                                " 5 . . . P N . . . 5\n"
                                " 4 . p . . P . . . 4\n"
                                " 3 . . N . . Q . p 3\n"
                                " 2 P P P B B P P P 2\n"
                                " 1 R . . . K . . R 1\n"
                                "   a b c d e f g h\n\n";
    cr_assert(!strncmp(text, board, strlen(board)), "%s", text);
    cr_assert_str_eq(line_of(text, "Castling: ", line, sizeof line), "Castling: KQkq");
    cr_assert_str_eq(line_of(text, "Legal moves: ", line, sizeof line), "Legal moves: 48");
    cr_assert(strstr(text, " O-O ") && strstr(text, " O-O-O "), "%s", text);
    assert_moves_are_perft_1(KIWIPETE, false, 0);
    assert_moves_are_perft_1(KIWIPETE, false, BOARD_FAN);
}

Test(board, chess960_castling_in_the_notation_it_was_read_in) {
    char text[BOARD_TEXT_SIZE], line[256];
    /* Shredder-FEN stays rook files; X-FEN stays KQkq (the outermost rooks). */
    render("1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9", true, 0, text);
    cr_assert_str_eq(line_of(text, "Castling: ", line, sizeof line), "Castling: FBfb");
    cr_assert_str_eq(line_of(text, "Variant: ", line, sizeof line), "Variant: Chess960");
    cr_assert_str_eq(line_of(text, " 1 ", line, sizeof line), " 1 . R Q B K R B N 1");
    assert_moves_are_perft_1("1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9", true, 0);
    render("r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1", true, 0, text);
    cr_assert_str_eq(line_of(text, "Castling: ", line, sizeof line), "Castling: KQkq");
    cr_assert_str_eq(line_of(text, "Legal moves: ", line, sizeof line), "Legal moves: 23",
                     "python-chess's xfen-00 has 23 moves");
    assert_moves_are_perft_1("r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1", true, BOARD_FAN);
}

Test(board, a_check_with_a_pinned_man) {
    char text[BOARD_TEXT_SIZE], line[256];
    render(CHECK_AND_PIN, false, 0, text);
    cr_assert_str_eq(line_of(text, " 4 ", line, sizeof line), " 4 . b . . . . . . 4");
    cr_assert_str_eq(line_of(text, " 2 ", line, sizeof line), " 2 . . . N . . . . 2");
    cr_assert_str_eq(line_of(text, " 1 ", line, sizeof line), " 1 . . . . K . . r 1");
    cr_assert_str_eq(line_of(text, "Checkers: ", line, sizeof line), "Checkers: Rh1");
    cr_assert_str_eq(line_of(text, "Pinned: ", line, sizeof line), "Pinned: Nd2");
    cr_assert(strstr(text, "Legal moves: 2\n  Ke2 Kf2\n"), "%s", text);
    assert_moves_are_perft_1(CHECK_AND_PIN, false, 0);
    /* Black to move after 1. Kf2: no check; the bishop pins nothing of black's. */
    render("4k3/8/8/8/1b6/8/3N1K2/7r b - - 1 1", false, BOARD_FAN, text);
    cr_assert_str_eq(line_of(text, "Checkers: ", line, sizeof line), "Checkers: -");
    cr_assert_str_eq(line_of(text, "Pinned: ", line, sizeof line), "Pinned: -");
    /* A double check and a pin, in figurines: the rook on e8 and the bishop on b4
     * check; the bishop on h4 pins the knight on f2. */
    render("4r1k1/8/8/8/1b5b/8/5N2/4K3 w - - 0 1", false, BOARD_FAN, text);
    cr_assert_str_eq(line_of(text, "Checkers: ", line, sizeof line), "Checkers: \u265Db4 \u265Ce8");
    cr_assert_str_eq(line_of(text, "Pinned: ", line, sizeof line), "Pinned: \u2658f2");
    assert_moves_are_perft_1("4r1k1/8/8/8/1b5b/8/5N2/4K3 w - - 0 1", false, 0);
}

Test(board, mate_and_stalemate_are_named) {
    char text[BOARD_TEXT_SIZE], line[256];
    render("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", false, 0, text);
    cr_assert_str_eq(line_of(text, "Legal moves: ", line, sizeof line), "Legal moves: 0 (checkmate)");
    cr_assert_str_eq(line_of(text, "Checkers: ", line, sizeof line), "Checkers: Qh4");
    render("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", false, 0, text);
    cr_assert_str_eq(line_of(text, "Legal moves: ", line, sizeof line), "Legal moves: 0 (stalemate)");
}

Test(board, figurines_in_place_of_letters_one_column_each) {
    char text[BOARD_TEXT_SIZE], line[256], letters[BOARD_TEXT_SIZE];
    render(FEN_STARTPOS, false, BOARD_FAN, text);
    cr_assert_str_eq(line_of(text, " 8 ", line, sizeof line),
                     " 8 \u265C \u265E \u265D \u265B \u265A \u265D \u265E \u265C 8");
    cr_assert_str_eq(line_of(text, " 7 ", line, sizeof line),
                     " 7 \u265F \u265F \u265F \u265F \u265F \u265F \u265F \u265F 7");
    cr_assert_str_eq(line_of(text, " 1 ", line, sizeof line),
                     " 1 \u2656 \u2658 \u2657 \u2655 \u2654 \u2657 \u2658 \u2656 1");
    cr_assert(strstr(text, "Legal moves: 20\n  \u2658a3 \u2658c3 \u2658f3 \u2658h3 a3 a4"), "%s", text);
    /* Each row is as wide in columns as the letters' row, though three times as long in
     * bytes where the men stand. */
    render(FEN_STARTPOS, false, 0, letters);
    char letter_line[256];
    line_of(letters, " 8 ", letter_line, sizeof letter_line);
    line_of(text, " 8 ", line, sizeof line);
    cr_assert_eq(board_columns(line), strlen(letter_line));
    cr_assert_eq(strlen(line), strlen(letter_line) + 2 * 8);
}

Test(board, the_move_list_wraps_by_columns_not_bytes) {
    /* Kiwipete's 48 moves in FAN: no line of the list is wider than 78 columns, and the
     * figurines do not shorten the lines as counting bytes would. */
    char fan[BOARD_TEXT_SIZE], san[BOARD_TEXT_SIZE];
    render(KIWIPETE, false, BOARD_FAN, fan);
    render(KIWIPETE, false, 0, san);
    int fan_lines = 0, san_lines = 0;
    for (const char *p = strstr(fan, "Legal moves: "); (p = strchr(p, '\n')) && p[1]; fan_lines++) {
        p++;
        char line[512];
        snprintf(line, sizeof line, "%.*s", (int)strcspn(p, "\n"), p);
        cr_assert_leq(board_columns(line), 78, "'%s'", line);
    }
    for (const char *p = strstr(san, "Legal moves: "); (p = strchr(p, '\n')) && p[1]; san_lines++)
        p++;
    cr_assert_eq(fan_lines, san_lines, "FAN and SAN lists wrap alike:\n%s\n%s", fan, san);
}

Test(board, colours_paint_squares_and_men) {
    char text[BOARD_TEXT_SIZE], line[512];
    render(FEN_STARTPOS, false, BOARD_COLOR, text);
    /* Rank 6: empty squares, light from a6, three columns each, reset before the label. */
    cr_assert_str_eq(line_of(text, " 6 ", line, sizeof line),
                     " 6 \033[48;5;180m   \033[48;5;137m   \033[48;5;180m   \033[48;5;137m   "
                     "\033[48;5;180m   \033[48;5;137m   \033[48;5;180m   \033[48;5;137m   \033[0m 6");
    /* Rank 1: dark from a1, white men bold bright white. */
    cr_assert(starts_with(line_of(text, " 1 ", line, sizeof line),
                          " 1 \033[48;5;137m\033[1;97m R \033[48;5;180m\033[1;97m N "),
              "%s", line);
    cr_assert(strstr(text, "\033[48;5;180m\033[22;30m r "), "a black man in black: %s", text);
    cr_assert_str_eq(line_of(text, "    a", line, sizeof line), "    a  b  c  d  e  f  g  h");
    /* Colour and figurines together. */
    render(FEN_STARTPOS, false, BOARD_COLOR | BOARD_FAN, text);
    cr_assert(strstr(text, "\033[48;5;137m\033[1;97m \u2656 "), "%s", text);
    /* Without BOARD_COLOR, no escape at all. */
    render(KIWIPETE, false, BOARD_FAN, text);
    cr_assert_null(strchr(text, '\033'), "%s", text);
}

Test(board, fan_from_san) {
    char out[FAN_MOVE_SIZE];
    cr_assert_str_eq(board_fan("Nf3", WHITE, out), "\u2658f3");
    cr_assert_str_eq(board_fan("Nbd7", BLACK, out), "\u265Ebd7");
    cr_assert_str_eq(board_fan("Bxc3+", WHITE, out), "\u2657xc3+");
    cr_assert_str_eq(board_fan("bxc3", WHITE, out), "bxc3", "a file letter is no bishop");
    cr_assert_str_eq(board_fan("exd8=Q+", WHITE, out), "exd8=\u2655+");
    cr_assert_str_eq(board_fan("a1=N", BLACK, out), "a1=\u265E");
    cr_assert_str_eq(board_fan("O-O-O#", BLACK, out), "O-O-O#");
    cr_assert_str_eq(board_fan("Kxh8", BLACK, out), "\u265Axh8");
    cr_assert_str_eq(board_fan("Qh4xe1#", BLACK, out), "\u265Bh4xe1#");
}

Test(board, colour_only_for_a_terminal) {
    /* A memory stream is no terminal; neither is a pipe. */
    char *buffer = NULL;
    size_t size = 0;
    FILE *memory = open_memstream(&buffer, &size);
    cr_assert(memory);
    cr_assert_not(terminal_colour(memory));
    fclose(memory);
    free(buffer);
    FILE *pipe = popen("cat > /dev/null", "w");
    cr_assert(pipe);
    cr_assert_not(terminal_colour(pipe));
    pclose(pipe);
}

Test(board, printed_as_rendered) {
    char text[BOARD_TEXT_SIZE], *buffer = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&buffer, &size);
    Position pos = position_of(KIWIPETE, false);
    cr_assert(board_print(out, &pos, BOARD_FAN));
    fclose(out);
    cr_assert_str_eq(buffer, board_render(&pos, BOARD_FAN, text));
    free(buffer);
    FILE *full = fopen("/dev/full", "w");
    cr_assert(full);
    cr_assert_not(board_print(full, &pos, 0), "a failed write is reported");
    fclose(full);
}
