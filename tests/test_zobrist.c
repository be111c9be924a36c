/* test_zobrist.c — the key tables: distinct, seed-dependent, rights composable. */
#include "support.h"

Test(zobrist, piece_square_keys_are_distinct_in_both_halves) {
    zob_init(ZOB_DEFAULT_SEED);
    for (Piece p = 1; p < PIECE_NB; p++)
        for (Square s = 0; s < SQUARE_NB; s++)
            for (Square t = 0; t < s; t++) {
                cr_assert_neq(zob_psq(p, s).lo, zob_psq(p, t).lo);
                cr_assert_neq(zob_psq(p, s).hi, zob_psq(p, t).hi);
            }
}

Test(zobrist, castling_keys_depend_on_the_right_and_the_rook_square) {
    zob_init(ZOB_DEFAULT_SEED);
    cr_assert(!zob_equal(zob_castling(0, SQ_H1), zob_castling(1, SQ_H1)));
    cr_assert(!zob_equal(zob_castling(0, SQ_H1), zob_castling(0, SQ_H1 - 1)));
}

Test(zobrist, another_seed_gives_other_keys_and_the_same_seed_the_same) {
    zob_init(ZOB_DEFAULT_SEED);
    Key128 a = zob_side();
    zob_init(42);
    Key128 b = zob_side();
    zob_init(ZOB_DEFAULT_SEED);
    cr_assert(!zob_equal(a, b));
    cr_assert(zob_equal(a, zob_side()));
}
