/* test_unique.c — distinct positions per ply against the published counts. */
#include "support.h"

#include "../perft/unique.h"

TestSuite(unique, .init = core_setup, .timeout = 1800);

Test(unique, start_position_matches_the_published_counts_to_ply_6) {
    /* OEIS A083276 (distinct positions after n plies). Ply 6 also pins down the e.p. rule:
     * counting an e.p. square whenever a pawn attacks it, pins aside, gives 9,417,683. */
    static const uint64_t published[] = {1, 20, 400, 5362, 72078, 822518, 9417681};
    Position pos = position_of(FEN_STARTPOS, false);
    UniqueReport report;
    char error[160];
    cr_assert(unique_count(&pos, 6, 2, SIZE_MAX, &report, error, sizeof error), "%s", error);
    for (int ply = 0; ply <= 6; ply++)
        cr_assert_eq(report.positions[ply], published[ply], "ply %d: got %llu", ply,
                     (unsigned long long)report.positions[ply]);
    cr_assert_gt(report.peak_bytes, 9417681 * sizeof(Key128), "the sets hold every key of ply 6");
}
