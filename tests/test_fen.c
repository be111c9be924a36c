/* test_fen.c — FEN in and out: exact round trips, the three castling notations, every
 * class of rejection with its reason, and no crash on arbitrary bytes. */
#include "support.h"

TestSuite(fen, .init = core_setup);

static void assert_round_trip(const char *fen, bool chess960) {
    Position pos = position_of(fen, chess960);
    char out[FEN_BUFFER_SIZE];
    cr_assert_str_eq(fen_write(&pos, out), fen);
}

Test(fen, six_field_fens_round_trip_exactly) {
    assert_round_trip(FEN_STARTPOS, false);
    assert_round_trip("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false);
    assert_round_trip("rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2", false);
    assert_round_trip("8/8/8/8/8/8/8/K6k b - - 99 65535", false);
    assert_round_trip("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", false);
    assert_round_trip("1rkr3b/1ppn3p/3pB1n1/6q1/R2P4/4N1P1/1P5P/2KRQ1B1 b Ddb - 0 14", false);
    assert_round_trip("r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1", false);
}

Test(fen, every_six_field_suite_fen_round_trips) {
    static const char *const files[] = {"roce_perftsuite.epd", "ethereal_fischer960.epd", "stockfish_perft_sh_960.epd",
                                        "peterellisjones_gist.epd"};
    int checked = 0, reordered = 0;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char path[1024], line[1024];
        FILE *file = fopen(suite_path(files[f], path, sizeof path), "r");
        cr_assert(file);
        while (fgets(line, sizeof line, file)) {
            if (line[0] == '#')
                continue;
            *strchr(line, ';') = '\0';
            line[strlen(line) - 1] = '\0'; /* the blank before ';' */
            Position pos = position_of(line, false);
            char out[FEN_BUFFER_SIZE];
            fen_write(&pos, out);
            /* Castling letters come out in canonical order (white then black, king side
             * first): "AHah" is written "HAha", "Dbd" "Ddb". Everything else is exact. */
            Position again = position_of(out, false);
            cr_assert(pos_equal(&pos, &again), "%s wrote %s", line, out);
            if (strcmp(out, line) != 0) {
                char *a = strchr(line, ' '), *b = strchr(out, ' ');
                cr_assert_eq(strlen(a), strlen(b), "%s wrote %s", line, out);
                for (size_t i = 0; a[i]; i++)
                    cr_assert(a[i] == b[i] || (a[i] != ' ' && strchr(b, a[i])), "%s wrote %s", line, out);
                reordered++;
            }
            checked++;
        }
        fclose(file);
    }
    cr_assert_gt(checked, 1000);
    cr_assert_lt(reordered, 12, "only a few Stockfish lines use another castling order");
}

Test(fen, four_field_fens_get_default_clocks) {
    Position pos = position_of("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", false);
    char out[FEN_BUFFER_SIZE];
    cr_assert_str_eq(fen_write(&pos, out), "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    cr_assert_eq(pos.halfmove, 0);
    cr_assert_eq(pos.fullmove, 1);
}

Test(fen, standard_castling_is_standard_chess) {
    Position pos = position_of(FEN_STARTPOS, false);
    cr_assert_not(pos.chess960);
    cr_assert_eq(pos.castling, WHITE_OO | WHITE_OOO | BLACK_OO | BLACK_OOO);
    cr_assert_eq(pos.castle_rook[0], SQ_H1);
    cr_assert_eq(pos.castle_rook[3], SQ_A8);
}

Test(fen, shredder_letters_imply_chess960_and_name_rook_files) {
    Position pos = position_of("1rkr3b/1ppn3p/3pB1n1/6q1/R2P4/4N1P1/1P5P/2KRQ1B1 b Dbd - 0 14", false);
    cr_assert(pos.chess960);
    cr_assert_eq(pos.castling, WHITE_OO | BLACK_OO | BLACK_OOO);
    cr_assert_eq(pos.castle_rook[0], sq_make(FILE_D, RANK_1));
    cr_assert_eq(pos.castle_rook[2], sq_make(FILE_D, RANK_8));
    cr_assert_eq(pos.castle_rook[3], sq_make(FILE_B, RANK_8));
}

Test(fen, xfen_kq_names_the_outermost_rook_and_implies_chess960) {
    /* Rooks on a1 and e1 with the king on c1; Q means a1, K means e1 (the only one). */
    Position pos = position_of("r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1", false);
    cr_assert(pos.chess960);
    cr_assert_eq(pos.castle_rook[0], sq_make(FILE_E, RANK_1));
    cr_assert_eq(pos.castle_rook[1], SQ_A1);
    /* Two rooks on the king side: K is the outer one (h1), not g1. */
    /* Two rooks on the king side: K is the outer one, h1, so this is standard chess. */
    pos = position_of("4k3/8/8/8/8/8/8/4K1RR w K - 0 1", false);
    cr_assert_eq(pos.castle_rook[0], SQ_H1);
    cr_assert_not(pos.chess960);
}

Test(fen, chess960_can_be_forced_and_keeps_kqkq_notation) {
    Position pos = position_of(FEN_STARTPOS, true);
    cr_assert(pos.chess960);
    char out[FEN_BUFFER_SIZE];
    cr_assert_str_eq(fen_write(&pos, out), FEN_STARTPOS);
}

Test(fen, a_file_letter_for_an_inner_rook_round_trips) {
    Position pos = position_of("4k3/8/8/8/8/8/8/4K1RR w G - 0 1", false);
    char out[FEN_BUFFER_SIZE];
    cr_assert_str_eq(fen_write(&pos, out), "4k3/8/8/8/8/8/8/4K1RR w G - 0 1");
    cr_assert_eq(pos.castle_rook[0], sq_make(FILE_G, RANK_1));
}

/* Fuzzing finding (fuzz_epd): a rook moved onto the back rank beyond the castling rook
 * made fen_write name the castling rook by its file among KQkq (X-FEN, "EQkq"), which
 * was read back as Shredder-FEN and written "EAea". Mixed letters are X-FEN both ways. */
Test(fen, xfen_with_a_file_letter_among_kqkq_round_trips) {
    Position pos = position_of("r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1RP/R1K1R2Q w KQkq - 0 1", false);
    Move m = move_parse_uci(&pos, "g2g1");
    cr_assert_neq(m, MOVE_NONE);
    Undo undo;
    pos_make_move(&pos, m, &undo);
    char out[FEN_BUFFER_SIZE];
    cr_assert_str_eq(fen_write(&pos, out), "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP2P/R1K1R1RQ b EQkq - 1 1");
    assert_round_trip("r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP2P/R1K1R1RQ b EQkq - 1 1", false);
    Position back = position_of(out, false);
    cr_assert(back.chess960 && back.castle_rook[0] == sq_make(FILE_E, RANK_1), "E still names the e1 rook");
    cr_assert_eq(back.castling_notation, CASTLING_NOTATION_XFEN);
    cr_assert_eq(position_of("4k3/8/8/8/8/8/8/4K1RR w G - 0 1", false).castling_notation,
                 CASTLING_NOTATION_SHREDDER, "file letters alone stay Shredder-FEN");
}

static void assert_rejected(const char *fen, const char *reason) {
    Position pos;
    char error[FEN_ERROR_SIZE] = "";
    cr_assert_not(fen_parse(&pos, fen, false, error, sizeof error), "accepted invalid FEN '%s'", fen);
    cr_assert(strstr(error, reason), "FEN '%s' rejected with '%s', expected a reason mentioning '%s'", fen, error,
              reason);
}

Test(fen, rejects_wrong_field_counts) {
    assert_rejected("", "empty");
    assert_rejected("   ", "empty");
    assert_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", "5 fields");
    assert_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "3 fields");
    assert_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x", "more than 6 fields");
}

Test(fen, rejects_bad_ranks_files_letters_and_digits) {
    assert_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "7 ranks");
    assert_rejected("rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "more than 8 ranks");
    assert_rejected("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 7 of the piece placement has 7 files");
    assert_rejected("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "'9' is not a piece letter");
    assert_rejected("rnbqkbnr/pppppppp/0/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "'0' is not a piece letter");
    assert_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1", "more than 8 files");
    assert_rejected("rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "two digits in a row");
    assert_rejected("rnbqkbnr/pppppppp/8/8/3X4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "'X' is not a piece letter");
    assert_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "rank 1 of the piece placement has 7");
}

Test(fen, rejects_a_bad_side_to_move) {
    assert_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move 'x'");
    assert_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR white KQkq - 0 1", "side to move 'white'");
}

Test(fen, rejects_castling_fields_that_do_not_match_the_board) {
    assert_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqK - 0 1", "more than 4 letters");
    assert_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KX - 0 1", "'X' is not K, Q, k, q");
    assert_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1", "king-side castling twice");
    assert_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w K - 0 1", "needs a white rook on rank 1");
    assert_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPKPPP/RNBQ1BNR w K - 0 1", "needs the white king on rank 1");
    assert_rejected("4k3/8/8/8/8/8/8/4K2R w C - 0 1", "needs a white rook on c1");
    assert_rejected("4k3/8/8/8/8/8/8/4K2R w q - 0 1", "needs a black rook on rank 8");
    assert_rejected("4k3/8/8/8/8/8/8/4K2R w - - 0 1x", "fullmove number '1x' is not a whole number");
}

Test(fen, rejects_implausible_en_passant_squares) {
    assert_rejected("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e9 0 1", "neither '-' nor a square");
    assert_rejected("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e 0 1", "neither '-' nor a square");
    assert_rejected("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e6 0 1", "must be on rank 3");
    assert_rejected("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq d3 0 1", "no white pawn on d4");
    assert_rejected("rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/RNBQKB1R b KQkq e3 0 1", "e3 is not empty");
    assert_rejected("rnbqkbnr/pppppppp/8/8/4P3/8/PPPPNPPP/RNBQKB1R b KQkq e3 0 1", "e2, where the pawn came from");
}

Test(fen, rejects_clocks_out_of_range_or_overflowing) {
    assert_rejected("4k3/8/8/8/8/8/8/4K3 w - - -1 1", "halfmove clock -1 is negative");
    assert_rejected("4k3/8/8/8/8/8/8/4K3 w - - 65536 1", "halfmove clock 65536 is out of range");
    assert_rejected("4k3/8/8/8/8/8/8/4K3 w - - 99999999999999999999999999 1", "out of range");
    assert_rejected("4k3/8/8/8/8/8/8/4K3 w - - 0 0", "fullmove number 0 is out of range");
    assert_rejected("4k3/8/8/8/8/8/8/4K3 w - - 0 abc", "fullmove number 'abc' is not a whole number");
}

Test(fen, rejects_impossible_material) {
    assert_rejected("8/8/8/8/8/8/8/4K3 w - - 0 1", "black has no king");
    assert_rejected("4k3/8/8/8/8/8/8/8 w - - 0 1", "white has no king");
    assert_rejected("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "white has more than one king");
    assert_rejected("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "first or eighth rank");
    assert_rejected("p3k3/8/8/8/8/8/8/4K3 w - - 0 1", "first or eighth rank");
    assert_rejected("4k3/8/8/8/8/N7/PPPPPPPP/NNNNKNNN w - - 0 1", "white has more than 16 men");
    assert_rejected("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", "white has more than 8 pawns");
}

Test(fen, rejects_impossible_checks) {
    assert_rejected("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", "black, not to move, is in check");
    assert_rejected("4r2k/8/8/b7/8/3n4/8/4K3 w - - 0 1", "check from more than two pieces");
}

/* Random generator for the fuzz test: fixed seed, so failures reproduce. */
static uint64_t next_random(uint64_t *state) {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

Test(fen, survives_arbitrary_bytes_and_mutations) {
    static const char *const seeds[] = {FEN_STARTPOS, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                                        "1rkr3b/1ppn3p/3pB1n1/6q1/R2P4/4N1P1/1P5P/2KRQ1B1 b Dbd - 0 14",
                                        "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2"};
    static const char alphabet[] = "pnbrqkPNBRQK12345678/ wb-KQkqABCDEFGHabcdefgh0\t\xff\x01";
    uint64_t rng = 99;
    int accepted = 0;
    for (int i = 0; i < 200000; i++) {
        char text[160];
        if (i % 4 == 0) { /* arbitrary bytes */
            size_t n = next_random(&rng) % 100;
            for (size_t j = 0; j < n; j++)
                text[j] = (char)(next_random(&rng) % 255 + 1);
            text[n] = '\0';
        } else { /* a valid FEN with a few characters replaced, inserted or removed */
            snprintf(text, sizeof text, "%s", seeds[next_random(&rng) % 4]);
            for (int edits = 1 + (int)(next_random(&rng) % 3); edits > 0; edits--) {
                size_t n = strlen(text), at = next_random(&rng) % (n + 1);
                char c = alphabet[next_random(&rng) % (sizeof alphabet - 1)];
                int kind = (int)(next_random(&rng) % 3);
                if (kind == 0 && at < n)
                    text[at] = c;
                else if (kind == 1 && n + 1 < sizeof text) {
                    memmove(text + at + 1, text + at, n - at + 1);
                    text[at] = c;
                } else if (at < n)
                    memmove(text + at, text + at + 1, n - at);
            }
        }
        Position pos;
        char error[FEN_ERROR_SIZE] = "";
        if (fen_parse(&pos, text, false, error, sizeof error)) {
            accepted++;
            /* Whatever is accepted is a sound position that writes and reads back. */
            cr_assert_null(pos_impossibility(&pos), "accepted impossible '%s'", text);
            char out[FEN_BUFFER_SIZE];
            Position again = position_of(fen_write(&pos, out), pos.chess960);
            cr_assert(pos_equal(&pos, &again), "'%s' wrote '%s' which reads differently", text, out);
            cr_assert_geq(gen_count_legal(&pos), 0);
        } else {
            cr_assert_gt(strlen(error), 0, "rejected '%s' without a reason", text);
            cr_assert_null(strchr(error, '\n'), "reason has more than one line");
        }
    }
    cr_assert_gt(accepted, 100, "the mutations should leave some valid FENs");
}

Test(fen, error_text_is_optional_and_bounded) {
    Position pos;
    cr_assert_not(fen_parse(&pos, "garbage", false, NULL, 0));
    cr_assert_not(fen_parse(&pos, NULL, false, NULL, 0));
    char tiny[8];
    cr_assert_not(fen_parse(&pos, "garbage", false, tiny, sizeof tiny));
    cr_assert_eq(strlen(tiny), 7);
}

Test(fen, messages_count_fields_and_clocks_in_good_english) {
    assert_rejected("8/8/8/8/8/8/8/8", "the FEN has 1 field, not 6");
    assert_rejected("8/8/8/8/8/8/8/8 w", "the FEN has 2 fields, not 6");
    assert_rejected("4k3/8/8/8/8/8/8/4K3 w - - 0 -3", "fullmove number -3 is negative");
}
