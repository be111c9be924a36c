/* test_unique.c — distinct positions per ply against the published counts (OEIS
 * A083276), the same at any thread count, and within a memory bound. Ply 6 of the
 * start position runs when PERFTKIT_UNIQUE_PLY6 is set (the slow suite). */
#include "support.h"

#include <stdint.h>

#include "../perft/unique.h"

TestSuite(unique, .init = core_setup, .timeout = 1800);

/* Distinct positions after n plies of the start position (OEIS A083276). */
static const uint64_t published[] = {1, 20, 400, 5362, 72078, 822518, 9417681};

static UniqueReport count_or_fail(const char *fen, int depth, int threads, size_t max_bytes) {
    Position pos = position_of(fen, false);
    UniqueReport report;
    char error[200];
    cr_assert(unique_count(&pos, depth, threads, max_bytes, &report, error, sizeof error), "%s", error);
    return report;
}

Test(unique, start_position_matches_the_published_counts_to_ply_5) {
    for (int threads = 1; threads <= 2; threads++) {
        UniqueReport report = count_or_fail(FEN_STARTPOS, 5, threads, SIZE_MAX);
        for (int ply = 0; ply <= 5; ply++)
            cr_assert_eq(report.positions[ply], published[ply], "%d threads, ply %d: got %llu", threads, ply,
                         (unsigned long long)report.positions[ply]);
        cr_assert_eq(report.threads, threads);
        cr_assert_geq(report.bytes[5], 822518 * sizeof(Key128) * 4 / 3, "ply 5's set holds every key");
    }
}

Test(unique, start_position_matches_the_published_counts_to_ply_6) {
    /* Ply 6 also pins down the e.p. rule: counting an e.p. square whenever a pawn
     * attacks it, pins aside, gives 9,417,683. */
    if (!getenv("PERFTKIT_UNIQUE_PLY6"))
        cr_skip_test("ply 6 runs in the slow suite");
    UniqueReport report = count_or_fail(FEN_STARTPOS, 6, 2, SIZE_MAX);
    for (int ply = 0; ply <= 6; ply++)
        cr_assert_eq(report.positions[ply], published[ply], "ply %d: got %llu", ply,
                     (unsigned long long)report.positions[ply]);
    cr_assert_gt(report.peak_bytes, 9417681 * sizeof(Key128), "the sets hold every key of ply 6");
}

Test(unique, any_thread_count_finds_the_same_positions_and_memory) {
    /* Position 3 of the wiki's Perft Results (perft 6 = 11,030,083): e.p. captures, checks
     * and promotions within six plies. */
    static const char fen[] = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -";
    UniqueReport one = count_or_fail(fen, 6, 1, SIZE_MAX);
    for (int threads = 2; threads <= 3; threads++) {
        UniqueReport many = count_or_fail(fen, 6, threads, SIZE_MAX);
        cr_assert_eq(many.threads, threads);
        for (int ply = 0; ply <= 6; ply++) {
            cr_assert_eq(many.positions[ply], one.positions[ply], "ply %d, %d threads", ply, threads);
            cr_assert_eq(many.bytes[ply], one.bytes[ply], "ply %d, %d threads", ply, threads);
        }
    }
    /* Ply 1 has perft(1) = 14 positions, all distinct; later plies fewer than perft. */
    cr_assert_eq(one.positions[1], 14);
    cr_assert_eq(one.positions[2], 191);
    cr_assert_lt(one.positions[6], 11030083);
}

Test(unique, small_depths_run_on_one_thread) {
    UniqueReport report = count_or_fail(FEN_STARTPOS, 4, 2, SIZE_MAX);
    cr_assert_eq(report.threads, 1);
    cr_assert_eq(report.positions[4], 72078);
}

Test(unique, sets_stay_within_the_memory_given) {
    /* On one thread the sets grow in one order, so the peak is exact: a bound of the
     * peak is enough, a byte less is not. */
    UniqueReport free_run = count_or_fail(FEN_STARTPOS, 4, 1, SIZE_MAX);
    UniqueReport bounded = count_or_fail(FEN_STARTPOS, 4, 1, free_run.peak_bytes);
    cr_assert_eq(bounded.positions[4], 72078);
    Position pos = position_of(FEN_STARTPOS, false);
    UniqueReport report;
    char error[200];
    cr_assert_not(unique_count(&pos, 4, 1, free_run.peak_bytes - 1, &report, error, sizeof error));
    cr_assert(strstr(error, "need more than") && strstr(error, "ply 4"), "%s", error);
    cr_assert_eq(report.positions[4], 0, "nothing is reported of a failed run");
    /* With several threads the walk stops as soon as one thread's set cannot grow. */
    cr_assert_not(unique_count(&pos, 6, 2, 8 << 20, &report, error, sizeof error));
    cr_assert(strstr(error, "need more than 8 MB"), "%s", error);
    cr_assert_not(unique_count(&pos, 2, 1, 0, &report, error, sizeof error), "no memory at all");
}
