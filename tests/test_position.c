/* test_position.c — setting up, comparing and mirroring positions; the key. */
#include "support.h"

TestSuite(position, .init = core_setup);

Test(position, start_position_matches_its_fen) {
    Position built, read = position_of(FEN_STARTPOS, false);
    pos_set_startpos(&built);
    cr_assert(pos_equal(&built, &read));
    cr_assert(zob_equal(built.key, pos_compute_key(&built)));
    cr_assert_eq(bb_count(pos_occupied(&built)), 32);
    cr_assert_eq(pos_piece_on(&built, SQ_A8), B_ROOK);
    cr_assert_eq(pos_king(&built, BLACK), sq_make(FILE_E, RANK_8));
}

Test(position, bitboards_and_mailbox_agree) {
    Position pos = position_of("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false);
    for (Square s = 0; s < SQUARE_NB; s++) {
        Piece p = pos_piece_on(&pos, s);
        if (p == NO_PIECE) {
            cr_assert_not(bb_has(pos_occupied(&pos), s));
        } else {
            cr_assert(bb_has(pos_pieces(&pos, piece_color(p), piece_type(p)), s));
        }
    }
}

Test(position, key_depends_on_side_rights_and_capturable_ep_only) {
    Position a = position_of("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", false);
    Position b = position_of("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false);
    Position c = position_of("4k3/8/8/8/8/8/8/R3K3 b Q - 0 1", false);
    cr_assert(!zob_equal(a.key, b.key));
    cr_assert(!zob_equal(a.key, c.key));
    /* An e.p. square no pawn can take does not change the key; one that can, does. */
    Position no_taker = position_of("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1", false);
    Position no_ep = position_of("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1", false);
    cr_assert(zob_equal(no_taker.key, no_ep.key));
    Position taker = position_of("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", false);
    Position taker_no_ep = position_of("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1", false);
    cr_assert(!zob_equal(taker.key, taker_no_ep.key));
    /* Same placement and rights, another castling rook (g1 rather than h1): another key. */
    Position outer = position_of("4k3/8/8/8/8/8/8/4K1RR w H - 0 1", false);
    Position inner = position_of("4k3/8/8/8/8/8/8/4K1RR w G - 0 1", false);
    cr_assert(!zob_equal(outer.key, inner.key));
    /* The clocks are not part of the key. */
    Position clocks = position_of("4k3/8/8/8/8/8/8/R3K3 w Q - 31 40", false);
    cr_assert(zob_equal(a.key, clocks.key));
}

Test(position, mirror_swaps_colours_and_flips_the_board) {
    Position pos = position_of("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false);
    Position m;
    pos_mirror(&pos, &m);
    char out[FEN_BUFFER_SIZE];
    cr_assert_str_eq(fen_write(&m, out), "r3k2r/pppbbppp/2n2q1P/1P2p3/3pn3/BN2PNP1/P1PPQPB1/R3K2R b KQkq - 0 1");
    Position back;
    pos_mirror(&m, &back);
    cr_assert(pos_equal(&pos, &back));
}

Test(position, mirror_keeps_ep_and_chess960_rights) {
    Position pos = position_of("1rkr3b/1ppn3p/3pB1n1/6q1/R2P4/4N1P1/1P5P/2KRQ1B1 b Dbd - 0 14", false);
    Position m;
    pos_mirror(&pos, &m);
    char out[FEN_BUFFER_SIZE];
    cr_assert_str_eq(fen_write(&m, out), "2krq1b1/1p5p/4n1p1/r2p4/6Q1/3Pb1N1/1PPN3P/1RKR3B w DBd - 0 14");
    pos = position_of("rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2", false);
    pos_mirror(&pos, &m);
    cr_assert_str_eq(fen_write(&m, out), "rnbqkbnr/pppp1ppp/8/4p3/2P5/8/PP1PPPPP/RNBQKBNR b KQkq c3 0 2");
}

Test(position, impossibility_names_the_problem) {
    Position pos;
    pos_clear(&pos);
    cr_assert_str_eq(pos_impossibility(&pos), "white has no king");
    pos_put_piece(&pos, W_KING, SQ_A1, false);
    pos_put_piece(&pos, B_KING, SQ_H8, false);
    cr_assert_null(pos_impossibility(&pos));
    pos_put_piece(&pos, W_ROOK, SQ_H1, false);
    cr_assert_str_eq(pos_impossibility(&pos), "black, not to move, is in check");
}

Test(position, copies_mirrors_and_comparisons_follow_the_key_set) {
    static ZobristKeys other;
    zob_keys_make(&other, 5);
    Position pos = position_of("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false);
    Position same = pos;
    pos_set_keys(&same, &other);
    cr_assert(pos_equal(&pos, &same), "positions equal but for their key sets compare equal");
    same.key.lo ^= 1;
    cr_assert(pos_equal(&pos, &same), "keys of different sets are not compared");
    Position copy = same;
    pos_set_keys(&copy, &other);
    cr_assert_not(pos_equal(&same, &copy), "a wrong key of the same set makes the positions differ");
    Position m;
    pos_mirror(&copy, &m);
    cr_assert_eq(m.keys, &other, "the mirror keeps the key set");
    cr_assert(zob_equal(m.key, pos_compute_key(&m)));
    pos_clear(&m);
    cr_assert_eq(m.keys, zob_default_keys(), "a cleared position uses the default set");
}
