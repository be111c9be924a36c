/* test_attacks.c — the attack tables against ray walking, and the square geometry. */
#include "support.h"

TestSuite(attacks, .init = core_setup);

/* A fixed-seed generator so every run tests the same occupancies. */
static uint64_t next_random(uint64_t *state) {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

Test(attacks, slider_lookups_match_ray_walking_on_random_boards) {
    uint64_t rng = 0x1234567;
    for (Square s = 0; s < SQUARE_NB; s++) {
        for (int i = 0; i < 3000; i++) {
            /* Sparse and dense boards both: AND or OR of two random words. */
            Bitboard occupied = i & 1 ? next_random(&rng) & next_random(&rng) : next_random(&rng) | next_random(&rng);
            cr_assert_eq(atk_rook(s, occupied), atk_rook_reference(s, occupied), "rook on %d, occupied %llx", s,
                         (unsigned long long)occupied);
            cr_assert_eq(atk_bishop(s, occupied), atk_bishop_reference(s, occupied), "bishop on %d", s);
        }
    }
}

Test(attacks, empty_board_slider_attacks_have_known_sizes) {
    cr_assert_eq(bb_count(atk_rook(SQ_A1, 0)), 14);
    cr_assert_eq(bb_count(atk_bishop(SQ_A1, 0)), 7);
    cr_assert_eq(bb_count(atk_bishop(sq_make(FILE_D, RANK_4), 0)), 13);
    cr_assert_eq(bb_count(atk_queen(sq_make(FILE_D, RANK_4), 0)), 27);
}

Test(attacks, leapers_reach_the_right_number_of_squares) {
    cr_assert_eq(bb_count(atk_knight(SQ_A1)), 2);
    cr_assert_eq(bb_count(atk_knight(sq_make(FILE_D, RANK_4))), 8);
    cr_assert_eq(bb_count(atk_king(SQ_H8)), 3);
    cr_assert_eq(bb_count(atk_king(sq_make(FILE_E, RANK_4))), 8);
    cr_assert_eq(atk_pawn(WHITE, sq_make(FILE_E, RANK_2)), bb_square(sq_make(FILE_D, RANK_3)) | bb_square(sq_make(FILE_F, RANK_3)));
    cr_assert_eq(atk_pawn(BLACK, sq_make(FILE_A, RANK_7)), bb_square(sq_make(FILE_B, RANK_6)));
}

Test(attacks, between_holds_only_the_squares_strictly_between) {
    Square a1 = SQ_A1, h8 = SQ_H8, a8 = SQ_A8, b3 = sq_make(FILE_B, RANK_3);
    cr_assert_eq(bb_count(atk_between(a1, h8)), 6);
    cr_assert_eq(bb_count(atk_between(a1, a8)), 6);
    cr_assert_eq(atk_between(a1, b3), 0, "a1 and b3 share no line");
    cr_assert_eq(atk_between(a1, sq_make(FILE_B, RANK_2)), 0, "neighbours have nothing between");
    cr_assert(bb_has(atk_between(a1, h8), sq_make(FILE_D, RANK_4)));
}

Test(attacks, line_runs_from_edge_to_edge) {
    Square c3 = sq_make(FILE_C, RANK_3), e5 = sq_make(FILE_E, RANK_5);
    cr_assert_eq(atk_line(c3, e5), atk_line(SQ_A1, SQ_H8));
    cr_assert_eq(bb_count(atk_line(c3, e5)), 8);
    cr_assert_eq(atk_line(SQ_A1, sq_make(FILE_B, RANK_3)), 0);
    cr_assert_eq(atk_line(SQ_A1, SQ_H1), bb_rank(RANK_1));
}

Test(attacks, backend_name_matches_the_build) {
    cr_assert_str_eq(atk_backend_name(), PERFTKIT_PEXT ? "pext" : "magic");
}
