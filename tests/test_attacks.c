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

/* The shared tables are const to every module but core.c: the pointer and what it
 * points to. */
static_assert(_Generic(&atk_tables, const AttackTables *const *: 1, default: 0),
              "atk_tables is a const pointer to const tables");

Test(attacks, a_table_value_made_again_matches_the_shared_one) {
    AttackTables *made = malloc(sizeof *made);
    cr_assert_not_null(made);
    atk_tables_make(made);
    cr_assert(memcmp(made->knight, atk_tables->knight, sizeof made->knight) == 0);
    cr_assert(memcmp(made->king, atk_tables->king, sizeof made->king) == 0);
    cr_assert(memcmp(made->pawn, atk_tables->pawn, sizeof made->pawn) == 0);
    cr_assert(memcmp(made->between, atk_tables->between, sizeof made->between) == 0);
    cr_assert(memcmp(made->line, atk_tables->line, sizeof made->line) == 0);
    cr_assert(memcmp(made->slider, atk_tables->slider, sizeof made->slider) == 0, "same slots, same order");
    uint64_t rng = 0xC0FFEE;
    for (Square s = 0; s < SQUARE_NB; s++) {
        cr_assert_eq(made->rook[s].mask, atk_tables->rook[s].mask);
        cr_assert_eq(made->bishop[s].mask, atk_tables->bishop[s].mask);
        cr_assert_eq(made->rook[s].attacks - made->slider, atk_tables->rook[s].attacks - atk_tables->slider);
        for (int i = 0; i < 200; i++) {
            Bitboard occupied = next_random(&rng) & next_random(&rng);
            const SliderSlot *rook = &made->rook[s], *bishop = &made->bishop[s];
            cr_assert_eq(rook->attacks[atk_slot_index(rook, occupied)], atk_rook(s, occupied));
            cr_assert_eq(bishop->attacks[atk_slot_index(bishop, occupied)], atk_bishop(s, occupied));
        }
    }
    free(made);
    /* Making another value wrote nothing shared: the lookups still agree with ray walking. */
    cr_assert_eq(atk_rook(SQ_A1, bb_square(SQ_A8)), atk_rook_reference(SQ_A1, bb_square(SQ_A8)));
}
