/* test_perft.c — the serial counter on published counts, and divide against count. */
#include "support.h"

#include "../perft/perft.h"

TestSuite(perft, .init = core_setup);

Test(perft, start_position_matches_oeis_a048987_to_depth_5) {
    static const uint64_t known[] = {1, 20, 400, 8902, 197281, 4865609};
    Position pos = position_of(FEN_STARTPOS, false);
    for (int depth = 0; depth <= 5; depth++)
        cr_assert_eq(perft_count(&pos, depth), known[depth], "depth %d", depth);
    Position start = position_of(FEN_STARTPOS, false);
    cr_assert(pos_equal(&pos, &start), "perft leaves the position as it found it");
}

Test(perft, divide_sums_to_the_count_and_lists_every_root_move) {
    Position pos = position_of("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false);
    PerftDivision divisions[MAX_MOVES];
    int n = perft_divide(&pos, 3, divisions);
    cr_assert_eq(n, 48);
    uint64_t total = 0;
    for (int i = 0; i < n; i++)
        total += divisions[i].count;
    cr_assert_eq(total, 97862);
}

Test(perft, divide_at_depth_one_counts_each_move_once) {
    Position pos = position_of(FEN_STARTPOS, false);
    PerftDivision divisions[MAX_MOVES];
    int n = perft_divide(&pos, 1, divisions);
    cr_assert_eq(n, 20);
    for (int i = 0; i < n; i++)
        cr_assert_eq(divisions[i].count, 1);
}

Test(perft, checkmate_and_stalemate_have_no_leaves) {
    Position mate = position_of("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", false);
    cr_assert_eq(perft_count(&mate, 1), 0);
    cr_assert_eq(perft_count(&mate, 3), 0);
    cr_assert_eq(perft_count(&mate, 0), 1);
    Position stalemate = position_of("7k/5Q2/8/8/8/8/8/6K1 b - - 0 1", false);
    cr_assert_eq(perft_count(&stalemate, 2), 0);
}
