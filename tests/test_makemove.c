/* test_makemove.c — make and unmake along random playouts: after every make the
 * incremental key equals the key recomputed from scratch, and every unmake restores
 * the position exactly. */
#include "support.h"

TestSuite(makemove, .init = core_setup);

static uint64_t next_random(uint64_t *state) {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

static void random_playouts(const char *fen, int games, uint64_t seed) {
    uint64_t rng = seed;
    for (int game = 0; game < games; game++) {
        Position pos = position_of(fen, false);
        Position before[MAX_PLY];
        Move played[MAX_PLY];
        Undo undo[MAX_PLY];
        int ply = 0;
        for (; ply < 120; ply++) {
            MoveList list;
            if (!gen_legal(&pos, &list))
                break;
            Move m = list.moves[next_random(&rng) % (uint64_t)list.count];
            before[ply] = pos;
            played[ply] = m;
            Key128 predicted = pos_key_after(&pos, m);
            pos_make_move(&pos, m, &undo[ply]);
            cr_assert(zob_equal(pos.key, predicted), "pos_key_after disagrees with make at move %d", ply);
            Key128 recomputed = pos_compute_key(&pos);
            char fen_now[FEN_BUFFER_SIZE];
            cr_assert(zob_equal(pos.key, recomputed), "key drifted after move %d of game %d from %s: %s", ply, game,
                      fen, fen_write(&pos, fen_now));
            cr_assert_null(pos_impossibility(&pos), "impossible position after a legal move: %s",
                           fen_write(&pos, fen_now));
            /* The written FEN reads back as the same position. */
            Position again = position_of(fen_write(&pos, fen_now), pos.chess960);
            cr_assert(pos_equal(&pos, &again), "FEN round trip failed: %s", fen_now);
        }
        while (ply-- > 0) {
            pos_unmake_move(&pos, played[ply], &undo[ply]);
            cr_assert(pos_equal(&pos, &before[ply]), "unmake of move %d in game %d did not restore", ply, game);
            cr_assert(zob_equal(pos.key, pos_compute_key(&pos)));
        }
    }
}

Test(makemove, keys_stay_exact_from_the_start_position) { random_playouts(FEN_STARTPOS, 300, 1); }

Test(makemove, keys_stay_exact_from_kiwipete) {
    random_playouts("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 300, 2);
}

Test(makemove, keys_stay_exact_with_promotions_and_en_passant) {
    random_playouts("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 300, 3);
    random_playouts("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 300, 4);
}

Test(makemove, keys_stay_exact_in_chess960) {
    random_playouts("1rkr3b/1ppn3p/3pB1n1/6q1/R2P4/4N1P1/1P5P/2KRQ1B1 b Dbd - 0 14", 300, 5);
    random_playouts("r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1", 300, 6);
}

Test(makemove, clocks_and_rights_follow_the_rules) {
    Position pos = position_of(FEN_STARTPOS, false);
    Undo undo;
    pos_make_move(&pos, move_parse_uci(&pos, "g1f3"), &undo);
    cr_assert_eq(pos.halfmove, 1);
    cr_assert_eq(pos.fullmove, 1);
    pos_make_move(&pos, move_parse_uci(&pos, "e7e5"), &undo);
    cr_assert_eq(pos.halfmove, 0, "a pawn move resets the clock");
    cr_assert_eq(pos.fullmove, 2, "the number grows after black's move");
    cr_assert_eq(pos.ep_square, SQ_NONE, "no white pawn can take on e6");
    pos_make_move(&pos, move_parse_uci(&pos, "h1g1"), &undo);
    cr_assert_eq(pos.castling, WHITE_OOO | BLACK_OO | BLACK_OOO, "a rook move loses its right");
    pos = position_of("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", false);
    pos_make_move(&pos, move_parse_uci(&pos, "e2e4"), &undo);
    cr_assert_eq(pos.ep_square, sq_make(FILE_E, RANK_3), "d4 can take on e3");
}

/* Fuzzing finding (fuzz_fen, the FEN of each position a move away): fullmove 65535
 * wrapped to 0 after black's move, a FEN that reads back as an error; the halfmove clock
 * wrapped to 0 the same way. Both stop at FEN's limit and unmake restores them. */
Test(makemove, clocks_stop_at_their_limit_and_unmake_restores_them) {
    Position pos = position_of("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 65535 65535", false), before = pos;
    Undo undo;
    Move m = move_parse_uci(&pos, "a8b8");
    pos_make_move(&pos, m, &undo);
    cr_assert_eq(pos.fullmove, 65535);
    cr_assert_eq(pos.halfmove, 65535);
    char fen[FEN_BUFFER_SIZE];
    cr_assert_str_eq(fen_write(&pos, fen), "1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 65535 65535");
    position_of(fen, false);
    pos_unmake_move(&pos, m, &undo);
    cr_assert(pos_equal(&pos, &before));
    pos = position_of("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 7 65534", false);
    pos_make_move(&pos, move_parse_uci(&pos, "a8b8"), &undo);
    cr_assert(pos.fullmove == 65535 && pos.halfmove == 8);
}
