/* test_bitboard.c — set operations and edge-safe shifts. */
#include "support.h"

Test(bitboard, counting_and_popping_visit_every_square_once) {
    Bitboard b = 0x8100000000000081ULL;
    cr_assert_eq(bb_count(b), 4);
    cr_assert_eq(bb_first(b), SQ_A1);
    Square order[4];
    for (int i = 0; i < 4; i++)
        order[i] = bb_pop(&b);
    cr_assert_eq(b, 0);
    cr_assert(order[0] == SQ_A1 && order[1] == SQ_H1 && order[2] == SQ_A8 && order[3] == SQ_H8);
    cr_assert(bb_several(3) && !bb_several(4) && !bb_several(0));
}

Test(bitboard, shifts_drop_squares_that_would_wrap_around) {
    cr_assert_eq(bb_east(BB_FILE_H), 0);
    cr_assert_eq(bb_west(BB_FILE_A), 0);
    cr_assert_eq(bb_north(BB_RANK_8), 0);
    cr_assert_eq(bb_south(BB_RANK_1), 0);
    cr_assert_eq(bb_east(BB_FILE_A), bb_file(FILE_B));
    cr_assert_eq(bb_forward_west(WHITE, BB_FILE_A), 0);
    cr_assert_eq(bb_forward_east(BLACK, BB_FILE_H), 0);
    cr_assert_eq(bb_forward(BLACK, bb_rank(RANK_7)), bb_rank(RANK_6));
}

Test(bitboard, pawn_attack_sets_agree_with_single_pawn_tables) {
    core_init();
    for (Color c = WHITE; c <= BLACK; c++)
        for (Square s = 0; s < SQUARE_NB; s++)
            cr_assert_eq(bb_pawn_attacks(c, bb_square(s)), atk_pawn(c, s), "colour %d square %d", c, s);
}

Test(bitboard, vertical_flip_mirrors_ranks) {
    cr_assert_eq(bb_flip_vertical(bb_rank(RANK_2)), bb_rank(RANK_7));
    cr_assert_eq(bb_flip_vertical(bb_square(sq_make(FILE_C, RANK_1))), bb_square(sq_make(FILE_C, RANK_8)));
}
