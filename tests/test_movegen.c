/* test_movegen.c — the legal generator on its special cases, each in a position where
 * the right answer is known by hand, and the agreement of its three entry points. */
#include "support.h"

#include "epd.h"
#include "suite.h"

TestSuite(movegen, .init = core_setup);

static bool has_move(const Position *pos, const char *uci) {
    MoveList list;
    gen_legal(pos, &list);
    char text[UCI_MOVE_SIZE];
    for (int i = 0; i < list.count; i++)
        if (!strcmp(move_to_uci(pos, list.moves[i], text), uci))
            return true;
    return false;
}

static int legal_count(const Position *pos) {
    MoveList list;
    int n = gen_legal(pos, &list);
    cr_assert_eq(n, gen_count_legal(pos), "listing and counting disagree");
    return n;
}

Test(movegen, start_position_has_twenty_moves) {
    Position pos = position_of(FEN_STARTPOS, false);
    cr_assert_eq(legal_count(&pos), 20);
    cr_assert(has_move(&pos, "g1f3") && has_move(&pos, "e2e4") && !has_move(&pos, "e2e5"));
}

Test(movegen, en_passant_that_exposes_the_king_along_a_rank_is_illegal) {
    /* b5xc6 would take both pawns off rank 5 and open the h5 rook onto the a5 king. */
    Position pos = position_of("8/8/8/KPp4r/8/8/8/7k w - c6 0 1", false);
    cr_assert_not(has_move(&pos, "b5c6"));
    cr_assert(has_move(&pos, "b5b6"));
    cr_assert_eq(legal_count(&pos), 4, "Ka4, Ka6, Kb6 and b6 (b4 is covered by the c5 pawn)");
}

Test(movegen, en_passant_that_takes_the_checking_pawn_is_legal) {
    Position pos = position_of("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", false);
    cr_assert(pos_in_check(&pos));
    cr_assert(has_move(&pos, "e4d3"));
}

Test(movegen, en_passant_by_a_diagonally_pinned_pawn_follows_the_pin) {
    /* The a1 bishop pins e5 to the h8 king: exd6 would leave the diagonal. */
    Position off = position_of("k6K/8/8/3pP3/8/8/8/b7 w - d6 0 1", false);
    cr_assert_not(has_move(&off, "e5d6"));
    cr_assert_not(has_move(&off, "e5e6"));
    cr_assert_eq(legal_count(&off), 3, "Kg8, Kg7 and Kh7 only");
    /* The b8 bishop pins e5 to the h2 king: exd6 stays on the diagonal. */
    Position along = position_of("1b5k/8/8/3pP3/8/8/7K/8 w - d6 0 1", false);
    cr_assert(has_move(&along, "e5d6"));
    cr_assert_not(has_move(&along, "e5e6"));
}

Test(movegen, every_pawn_reaching_the_last_rank_promotes_to_four_pieces) {
    Position pos = position_of("1r5k/P7/8/8/8/8/8/7K w - - 0 1", false);
    const char *promotions[] = {"a7a8q", "a7a8r", "a7a8b", "a7a8n", "a7b8q", "a7b8r", "a7b8b", "a7b8n"};
    for (int i = 0; i < 8; i++)
        cr_assert(has_move(&pos, promotions[i]), "missing %s", promotions[i]);
    cr_assert_eq(legal_count(&pos), 8 + 3);
}

Test(movegen, double_check_allows_king_moves_only) {
    /* The e8 rook and the d3 knight both check the e1 king; the a1 rook cannot help. */
    Position pos = position_of("4r2k/8/8/8/8/3n4/8/R3K3 w - - 0 1", false);
    cr_assert_eq(bb_count(pos_checkers(&pos)), 2);
    MoveList list;
    gen_legal(&pos, &list);
    for (int i = 0; i < list.count; i++)
        cr_assert_eq(move_from(list.moves[i]), sq_make(FILE_E, RANK_1));
    cr_assert_eq(legal_count(&pos), 3, "Kd1, Kd2 and Kf1");
}

Test(movegen, single_check_is_met_by_capture_block_or_king_move) {
    /* Rook e8 checks along the file: Bxe8? no bishop; block with Re2? Rook a2 blocks on e2. */
    Position pos = position_of("4r2k/8/8/8/8/8/R7/4K3 w - - 0 1", false);
    cr_assert(has_move(&pos, "a2e2"), "block");
    cr_assert_not(has_move(&pos, "a2a3"), "a move that ignores the check");
    cr_assert(has_move(&pos, "e1d1"));
}

Test(movegen, pinned_pieces_move_only_along_the_pin) {
    /* The e2 rook is pinned by the e8 rook: it may move on the e-file, not off it. */
    Position pos = position_of("4r2k/8/8/8/8/8/4R3/4K3 w - - 0 1", false);
    cr_assert(has_move(&pos, "e2e8") && has_move(&pos, "e2e5"));
    cr_assert_not(has_move(&pos, "e2d2"));
    /* A knight pinned on a diagonal cannot move at all. */
    pos = position_of("7k/8/8/b7/8/2N5/8/4K3 w - - 0 1", false);
    cr_assert_not(has_move(&pos, "c3d5"));
}

Test(movegen, castling_through_or_out_of_an_attacked_square_is_illegal) {
    Position through = position_of("4kr2/8/8/8/8/8/8/4K2R w K - 0 1", false);
    cr_assert_not(has_move(&through, "e1g1"), "f1 is attacked by the f8 rook");
    Position out = position_of("4k3/8/8/8/8/8/8/r3K2R w K - 0 1", false);
    cr_assert_not(has_move(&out, "e1g1"), "the king is in check");
    Position into = position_of("4k1r1/8/8/8/8/8/8/4K2R w K - 0 1", false);
    cr_assert_not(has_move(&into, "e1g1"), "g1 is attacked");
    /* Queen side: b1 may be attacked (the king does not cross it), d1 may not. */
    Position b1 = position_of("1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1", false);
    cr_assert(has_move(&b1, "e1c1"));
    Position d1 = position_of("3rk3/8/8/8/8/8/8/R3K3 w Q - 0 1", false);
    cr_assert_not(has_move(&d1, "e1c1"));
    Position blocked = position_of("4k3/8/8/8/8/8/8/RN2K3 w Q - 0 1", false);
    cr_assert_not(has_move(&blocked, "e1c1"), "b1 must be empty");
}

Test(movegen, chess960_castling_with_the_king_already_on_its_square) {
    /* King g1, rook h1: castling leaves the king on g1 and brings the rook to f1. */
    Position pos = position_of("6k1/8/8/8/8/8/8/6KR w H - 0 1", false);
    cr_assert(pos.chess960);
    cr_assert(has_move(&pos, "g1h1"));
    Move m = move_parse_uci(&pos, "g1h1");
    Undo undo;
    pos_make_move(&pos, m, &undo);
    cr_assert_eq(pos_piece_on(&pos, sq_make(FILE_G, RANK_1)), W_KING);
    cr_assert_eq(pos_piece_on(&pos, sq_make(FILE_F, RANK_1)), W_ROOK);
    cr_assert_eq(pos_piece_on(&pos, SQ_H1), NO_PIECE);
}

Test(movegen, chess960_castling_with_the_rook_already_on_its_square) {
    Position pos = position_of("4k3/8/8/8/8/8/8/4KR2 w F - 0 1", false);
    cr_assert(has_move(&pos, "e1f1"));
    Position attacked = position_of("4k1r1/8/8/8/8/8/8/4KR2 w F - 0 1", false);
    cr_assert_not(has_move(&attacked, "e1f1"), "g1 is attacked");
}

Test(movegen, chess960_castling_over_the_rook_between_king_and_destination) {
    /* King b1, rook c1: king-side castling takes the king past its own rook to g1. */
    Position pos = position_of("1k6/8/8/8/8/8/8/1KR5 w C - 0 1", false);
    cr_assert(has_move(&pos, "b1c1"));
    Move m = move_parse_uci(&pos, "b1c1");
    Undo undo;
    pos_make_move(&pos, m, &undo);
    char out[FEN_BUFFER_SIZE];
    cr_assert_str_eq(fen_write(&pos, out), "1k6/8/8/8/8/8/8/5RK1 b - - 1 1");
}

Test(movegen, chess960_castling_rook_may_not_leave_the_king_exposed) {
    /* King c1 stays on c1 and the b1 rook goes to d1: the a1 rook would then check. */
    Position pos = position_of("7k/8/8/8/8/8/8/rRK5 w B - 0 1", false);
    cr_assert_not(pos_in_check(&pos));
    cr_assert_not(has_move(&pos, "c1b1"));
}

Test(movegen, counting_after_a_move_equals_making_it_and_counting) {
    static const char *const fens[] = {
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbqkbnr/pp1ppppp/8/2pP4/8/8/PPP1PPPP/RNBQKBNR b KQkq - 0 2",
        "1rkr3b/1ppn3p/3pB1n1/6q1/R2P4/4N1P1/1P5P/2KRQ1B1 b Dbd - 0 14",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    };
    for (size_t f = 0; f < sizeof fens / sizeof fens[0]; f++) {
        Position pos = position_of(fens[f], false);
        MoveList list;
        gen_legal(&pos, &list);
        uint64_t replies[MAX_MOVES];
        gen_count_replies_after(&pos, list.moves, list.count, replies);
        for (int i = 0; i < list.count; i++) {
            Position child = pos;
            Undo undo;
            pos_make_move(&child, list.moves[i], &undo);
            cr_assert_eq(gen_count_after(&pos, list.moves[i]), gen_count_legal(&child), "%s move %d", fens[f], i);
            cr_assert_eq(replies[i], gen_count_replies(&child), "%s move %d", fens[f], i);
        }
    }
}

Test(movegen, counting_replies_equals_summing_the_counts_after_each_move) {
    static const char *const fens[] = {
        FEN_STARTPOS,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
        "1rkr3b/1ppn3p/3pB1n1/6q1/R2P4/4N1P1/1P5P/2KRQ1B1 b Dbd - 0 14",
    };
    static const uint64_t perft2[] = {400, 2039, 264, 0, 0};
    for (size_t f = 0; f < sizeof fens / sizeof fens[0]; f++) {
        Position pos = position_of(fens[f], false);
        MoveList list;
        gen_legal(&pos, &list);
        uint64_t sum = 0;
        for (int i = 0; i < list.count; i++)
            sum += (uint64_t)gen_count_after(&pos, list.moves[i]);
        cr_assert_eq(gen_count_replies(&pos), sum, "%s", fens[f]);
        if (perft2[f])
            cr_assert_eq(sum, perft2[f], "%s", fens[f]);
    }
}

Test(movegen, is_legal_accepts_only_generated_moves) {
    Position pos = position_of(FEN_STARTPOS, false);
    cr_assert(gen_is_legal(&pos, move_make(sq_make(FILE_E, RANK_2), sq_make(FILE_E, RANK_4))));
    cr_assert_not(gen_is_legal(&pos, move_make(sq_make(FILE_E, RANK_2), sq_make(FILE_E, RANK_5))));
    cr_assert_not(gen_is_legal(&pos, MOVE_NONE));
}

static bool in_list(const MoveList *list, Move m) {
    for (int i = 0; i < list->count; i++)
        if (list->moves[i] == m)
            return true;
    return false;
}

static uint64_t next_random(uint64_t *state) {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

static const char *const class_fens[] = {
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbqkbnr/pp1ppppp/8/2pP4/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 2",
    "1rkr3b/1ppn3p/3pB1n1/6q1/R2P4/4N1P1/1P5P/2KRQ1B1 b Dbd - 0 14",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
};

/* Along random playouts: captures, promotions and quiets split the legal moves exactly,
 * and the checking moves are exactly those after which the other side is in check. */
Test(movegen, move_classes_partition_the_legal_moves_and_checks_are_exact) {
    uint64_t rng = 7;
    int checks_seen = 0;
    for (size_t f = 0; f < sizeof class_fens / sizeof class_fens[0]; f++) {
        for (int game = 0; game < 40; game++) {
            Position pos = position_of(class_fens[f], false);
            for (int ply = 0; ply < 80; ply++) {
                MoveList all, captures, promotions, quiets, checks;
                if (!gen_legal(&pos, &all))
                    break;
                gen_captures(&pos, &captures);
                gen_promotions(&pos, &promotions);
                gen_quiets(&pos, &quiets);
                gen_checks(&pos, &checks);
                cr_assert_eq(captures.count + promotions.count + quiets.count, all.count);
                for (int i = 0; i < all.count; i++) {
                    Move m = all.moves[i];
                    bool capture = move_kind(m) == MOVE_EN_PASSANT
                                || (move_kind(m) != MOVE_CASTLING && pos.board[move_to(m)] != NO_PIECE);
                    bool promotion = move_kind(m) == MOVE_PROMOTION;
                    cr_assert_eq(in_list(&promotions, m), promotion);
                    cr_assert_eq(in_list(&captures, m), capture && !promotion);
                    cr_assert_eq(in_list(&quiets, m), !capture && !promotion);
                    Position after = pos;
                    Undo undo;
                    pos_make_move(&after, m, &undo);
                    char fen[FEN_BUFFER_SIZE], uci[UCI_MOVE_SIZE];
                    cr_assert_eq(in_list(&checks, m), pos_in_check(&after), "%s in %s", move_to_uci(&pos, m, uci),
                                 fen_write(&pos, fen));
                    checks_seen += pos_in_check(&after);
                }
                Undo undo;
                pos_make_move(&pos, all.moves[next_random(&rng) % (uint64_t)all.count], &undo);
            }
        }
    }
    cr_assert_gt(checks_seen, 1000);
}

Test(movegen, checks_include_discoveries_promotions_en_passant_and_castling) {
    /* Discovered: the d4 knight leaves the a1-h8 diagonal of the a1 bishop. */
    Position pos = position_of("7k/8/8/8/3N4/8/8/B3K3 w - - 0 1", false);
    cr_assert(gen_gives_check(&pos, move_parse_uci(&pos, "d4b5")));
    /* Promotion seeing through the square its pawn left: b8=Q checks the b1 king. */
    pos = position_of("8/1P6/8/8/8/8/8/1k5K w - - 0 1", false);
    cr_assert(gen_gives_check(&pos, move_parse_uci(&pos, "b7b8q")));
    cr_assert(gen_gives_check(&pos, move_parse_uci(&pos, "b7b8r")));
    cr_assert_not(gen_gives_check(&pos, move_parse_uci(&pos, "b7b8b")));
    /* En passant opening the rank: exf6 removes e5 and f5 from the a5 rook's way to h5. */
    pos = position_of("8/8/8/R3Pp1k/8/8/8/4K3 w - f6 0 1", false);
    cr_assert(gen_gives_check(&pos, move_parse_uci(&pos, "e5f6")));
    /* Castling with the rook giving check. */
    pos = position_of("5k2/8/8/8/8/8/8/4K2R w K - 0 1", false);
    cr_assert(gen_gives_check(&pos, move_parse_uci(&pos, "e1g1")));
}

/* The counts of every position of a suite (and of its colour-reversed twin, which
 * runs the other colour's instances) by the bulk counter, up to `max_nodes` each. */
static void bulk_counts_match_suite(const char *name, bool chess960, unsigned long long max_nodes) {
    char path[1024], error[EPD_ERROR_SIZE + 64];
    SuiteReader reader;
    cr_assert(suite_open(&reader, suite_path(name, path, sizeof path), error, sizeof error), "%s", error);
    EpdRecord record;
    int line, checked = 0;
    SuiteItem item;
    while ((item = suite_next(&reader, &record, &line, error, sizeof error)) != SUITE_END) {
        cr_assert_eq(item, SUITE_RECORD, "%s: %s", name, error);
        Position pos = position_of(record.fen, chess960), twin;
        pos_mirror(&pos, &twin);
        for (int i = 0; i < record.expectation_count; i++) {
            if (record.expect[i].nodes > max_nodes)
                continue;
            int depth = record.expect[i].depth;
            uint64_t expected = (uint64_t)record.expect[i].nodes;
            cr_assert_eq(gen_count_perft(&pos, depth), expected, "%s:%d depth %d", name, line, depth);
            cr_assert_eq(gen_count_perft(&twin, depth), expected, "%s:%d mirrored, depth %d", name, line, depth);
            checked++;
        }
    }
    suite_close(&reader);
    cr_assert_gt(checked, 0, "%s: no count checked", name);
}

Test(movegen, bulk_perft_matches_the_suites_in_both_colours, .timeout = 600) {
    bulk_counts_match_suite("cpw_perft_results.epd", false, 20000000);
    bulk_counts_match_suite("roce_perftsuite.epd", false, 2000000);
    bulk_counts_match_suite("ethereal_standard.epd", false, 2000000);
    bulk_counts_match_suite("peterellisjones_gist.epd", false, 2000000);
    bulk_counts_match_suite("pychess_tricky.epd", false, 2000000);
    bulk_counts_match_suite("kervinck_perft_random.epd", false, 200000);
    bulk_counts_match_suite("ethereal_fischer960.epd", true, 2000000);
    bulk_counts_match_suite("pychess_tricky_960.epd", true, 2000000);
}

Test(movegen, bulk_perft_is_one_at_depth_zero_and_the_count_at_depth_one) {
    Position pos = position_of(FEN_STARTPOS, false);
    cr_assert_eq(gen_count_perft(&pos, 0), 1);
    cr_assert_eq(gen_count_perft(&pos, 1), 20);
    cr_assert_eq(gen_count_perft(&pos, 2), 400);
    cr_assert_eq(gen_count_perft(&pos, 3), 8902);
    Position mate = position_of("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", false);
    cr_assert_eq(gen_count_perft(&mate, 1), 0);
    cr_assert_eq(gen_count_perft(&mate, 4), 0);
}
