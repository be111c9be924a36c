/* test_notation.c — UCI and SAN, out and in, on positions where the text is known. */
#include "support.h"

TestSuite(notation, .init = core_setup);

static void assert_san(const char *fen, const char *uci, const char *san) {
    Position pos = position_of(fen, false);
    Move m = move_parse_uci(&pos, uci);
    cr_assert_neq(m, MOVE_NONE, "%s is not legal in %s", uci, fen);
    char out[SAN_MOVE_SIZE];
    cr_assert_str_eq(move_to_san(&pos, m, out), san, "%s in %s", uci, fen);
    const char *why = NULL;
    cr_assert_eq(move_parse_san(&pos, san, &why), m, "reading %s back: %s", san, why ? why : "");
}

Test(notation, san_of_plain_moves_captures_and_pawns) {
    assert_san(FEN_STARTPOS, "g1f3", "Nf3");
    assert_san(FEN_STARTPOS, "e2e4", "e4");
    assert_san("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "e4d5", "exd5");
    assert_san("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", "f3e5", "Nxe5");
    assert_san("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", "exd6");
}

Test(notation, san_disambiguates_by_file_then_rank_then_square) {
    assert_san("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "b1d2", "Nbd2");
    assert_san("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "f3d2", "Nfd2");
    assert_san("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3", "R1a3");
    assert_san("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a5a3", "R5a3");
    assert_san("4k3/8/8/8/8/Q7/8/Q1Q4K w - - 0 1", "a1b2", "Qa1b2");
    assert_san("4k3/8/8/8/8/Q7/8/Q1Q4K w - - 0 1", "c1b2", "Qcb2");
    assert_san("4k3/8/8/8/8/Q7/8/Q1Q4K w - - 0 1", "a3b2", "Q3b2");
    /* A pinned rival does not count: the f3 knight is pinned, so Nd2 is enough. */
    assert_san("4k3/8/8/3b4/8/5N2/8/1N5K w - - 0 1", "b1d2", "Nd2");
}

Test(notation, san_marks_check_mate_castling_and_promotion) {
    assert_san("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", "Ra8+");
    assert_san("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", "Ra8#");
    assert_san("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "O-O");
    assert_san("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", "O-O-O");
    assert_san("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "O-O+");
    assert_san("8/P7/8/8/8/8/8/k6K w - - 0 1", "a7a8q", "a8=Q+");
    assert_san("8/P7/8/8/8/8/8/k6K w - - 0 1", "a7a8n", "a8=N");
    assert_san("1r5k/P7/8/8/8/8/8/7K w - - 0 1", "a7b8q", "axb8=Q+");
}

static void assert_san_reads(const char *fen, const char *san, const char *uci) {
    Position pos = position_of(fen, false);
    const char *why = "";
    Move m = move_parse_san(&pos, san, &why);
    cr_assert_neq(m, MOVE_NONE, "'%s' not read in %s: %s", san, fen, why);
    char out[UCI_MOVE_SIZE];
    cr_assert_str_eq(move_to_uci(&pos, m, out), uci);
}

static void assert_san_refused(const char *fen, const char *san, const char *reason) {
    Position pos = position_of(fen, false);
    const char *why = "";
    cr_assert_eq(move_parse_san(&pos, san, &why), MOVE_NONE, "'%s' accepted in %s", san, fen);
    cr_assert(strstr(why, reason), "'%s' refused with '%s', expected '%s'", san, why, reason);
}

Test(notation, san_reading_tolerates_common_variants) {
    assert_san_reads(FEN_STARTPOS, "Nf3!?", "g1f3");
    assert_san_reads(FEN_STARTPOS, "Ngf3", "g1f3");
    assert_san_reads("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0", "e1g1");
    assert_san_reads("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "O-O-O", "e8c8");
    assert_san_reads("8/P7/8/8/8/8/8/k6K w - - 0 1", "a8Q", "a7a8q");
    assert_san_reads("8/P7/8/8/8/8/8/k6K w - - 0 1", "a8=R+", "a7a8r");
    assert_san_reads("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "ed5", "e4d5");
}

Test(notation, san_reading_refuses_illegal_ambiguous_and_malformed_text) {
    assert_san_refused(FEN_STARTPOS, "Ke2", "no legal move");
    assert_san_refused(FEN_STARTPOS, "e5", "no legal move");
    assert_san_refused("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nd2", "ambiguous");
    assert_san_refused(FEN_STARTPOS, "O-O", "castling is not legal");
    assert_san_refused(FEN_STARTPOS, "Zf3", "not a SAN move");
    assert_san_refused(FEN_STARTPOS, "", "not a SAN move");
    assert_san_refused(FEN_STARTPOS, "e2e4xx", "not a SAN move");
    assert_san_refused("8/P7/8/8/8/8/8/k6K w - - 0 1", "a8", "no legal move");
}

Test(notation, uci_writes_standard_castling_as_the_king_move) {
    Position pos = position_of("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false);
    Move m = move_parse_uci(&pos, "e1g1");
    cr_assert_eq(move_kind(m), MOVE_CASTLING);
    cr_assert_eq(move_parse_uci(&pos, "e1h1"), m, "king takes rook is accepted too");
    char out[UCI_MOVE_SIZE];
    cr_assert_str_eq(move_to_uci(&pos, m, out), "e1g1");
}

Test(notation, uci_writes_chess960_castling_as_king_takes_rook) {
    Position pos = position_of("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", true);
    Move m = move_parse_uci(&pos, "e1h1");
    cr_assert_eq(move_kind(m), MOVE_CASTLING);
    char out[UCI_MOVE_SIZE];
    cr_assert_str_eq(move_to_uci(&pos, m, out), "e1h1");
    cr_assert_eq(move_parse_uci(&pos, "e1g1"), MOVE_NONE, "in Chess960 e1g1 would be a king step");
}

Test(notation, uci_round_trips_every_legal_move) {
    static const char *const fens[] = {
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "1rkr3b/1ppn3p/3pB1n1/6q1/R2P4/4N1P1/1P5P/2KRQ1B1 b Dbd - 0 14"};
    for (size_t f = 0; f < 3; f++) {
        Position pos = position_of(fens[f], false);
        MoveList list;
        gen_legal(&pos, &list);
        for (int i = 0; i < list.count; i++) {
            char uci[UCI_MOVE_SIZE], san[SAN_MOVE_SIZE];
            cr_assert_eq(move_parse_uci(&pos, move_to_uci(&pos, list.moves[i], uci)), list.moves[i], "%s", uci);
            cr_assert_eq(move_parse_san(&pos, move_to_san(&pos, list.moves[i], san), NULL), list.moves[i], "%s",
                         san);
        }
    }
    Position pos = position_of(FEN_STARTPOS, false);
    char out[UCI_MOVE_SIZE];
    cr_assert_str_eq(move_to_uci(&pos, MOVE_NONE, out), "0000");
    cr_assert_eq(move_parse_uci(&pos, "e2e5"), MOVE_NONE);
    cr_assert_eq(move_parse_uci(&pos, "e2"), MOVE_NONE);
}
