/* test_mpi.c — perft-mpi under a real MPI launcher (mpirun, 2 and 4 ranks on this
 * machine's cores, oversubscribed): every count and divide is identical to one
 * process's, whatever the ranks, threads and split ply. */
#include "support.h"

#include "../perft/count.h"

#include <unistd.h>

TestSuite(mpi, .init = core_setup);

static const char *mpirun(void) {
    const char *path = getenv("PERFTKIT_MPIRUN");
    cr_assert(path, "PERFTKIT_MPIRUN is not set (run the tests through meson test)");
    return path;
}

static const char *mpi_bin(void) {
    const char *path = getenv("PERFTKIT_MPI_BIN");
    cr_assert(path, "PERFTKIT_MPI_BIN is not set");
    return path;
}

/* The total line of `perft-mpi count -q ARGS` on `ranks` ranks. */
static Count mpi_count(int ranks, const char *args) {
    Run r = run_command("%s --allow-run-as-root --oversubscribe -np %d %s count -q %s 2>&1", mpirun(), ranks, mpi_bin(),
                        args);
    cr_assert_eq(r.status, 0, "mpirun -np %d perft-mpi count -q %s: exit %d:\n%s", ranks, args, r.status, r.out);
    Count n;
    size_t digits = strspn(r.out, "0123456789");
    cr_assert(digits > 0 && count_parse(r.out, digits, &n), "no count in: %s", r.out);
    return n;
}

static void expect_count(int ranks, const char *args, unsigned long long expected) {
    Count got = mpi_count(ranks, args);
    char text[COUNT_TEXT_SIZE];
    cr_expect(got == (Count)expected, "-np %d count %s: %s, expected %llu", ranks, args,
              count_format(got, false, text), expected);
}

#define KIWIPETE "'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'"

/* Runs `perft-mpi ARGS --journal DIR/FILE` on 2 ranks and, once the journal holds
 * `lines` lines (polled, so a slow start cannot leave it short), sends `signal` to the
 * newest rank, a worker (by process name: the tests of this file run one at a time).
 * Returns the job's output and then "exit N", its exit status. */
static Run job_signalled(const char *signal, int lines, const char *dir, const char *file, const char *args) {
    return run_command("%s --allow-run-as-root --oversubscribe -np 2 %s %s --journal %s/%s >%s/out 2>&1 & job=$!; "
                       "for i in $(seq 600); do [ \"$(wc -l < %s/%s 2>/dev/null)\" -ge %d ] 2>/dev/null && break; "
                       "sleep 0.1; done; pkill -%s -n -x perft-mpi; wait $job; echo \"exit $?\" >>%s/out; cat %s/out",
                       mpirun(), mpi_bin(), args, dir, file, dir, dir, file, lines, signal, dir, dir);
}

Test(mpi, the_start_position_to_depth_7_on_2_and_4_ranks, .timeout = 600) {
    expect_count(2, "-d 7 -t 1", 3195901860ULL);
    expect_count(4, "-d 7 -t 1 --hash 64", 3195901860ULL);
}

Test(mpi, kiwipete_to_depth_5_at_several_split_plies, .timeout = 600) {
    expect_count(2, "-d 5 -t 1 --fen " KIWIPETE, 193690690ULL);
    expect_count(4, "-d 5 -t 1 --split-ply 1 --fen " KIWIPETE, 193690690ULL);
    expect_count(2, "-d 5 -t 2 --split-ply 3 --hash 0 --fen " KIWIPETE, 193690690ULL);
}

Test(mpi, chess960_and_suite_positions_match_one_process, .timeout = 600) {
    /* Chess960 (stockfish_perft_sh_960.epd) and CPW positions 3, 4 and 5 */
    expect_count(2, "-d 5 -t 1 --chess960 --fen 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9'",
                 8146062ULL);
    expect_count(4, "-d 6 -t 1 --fen '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1'", 11030083ULL);
    expect_count(2, "-d 5 -t 1 --fen 'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1'", 15833292ULL);
    expect_count(4, "-d 4 -t 1 --fen 'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8'", 2103487ULL);
}

Test(mpi, divide_gives_the_per_move_counts_of_one_process, .timeout = 600) {
    Run one = run_command("%s divide -d 5 -t 1 --fen " KIWIPETE " 2>/dev/null", getenv("PERFTKIT_BIN"));
    cr_assert_eq(one.status, 0);
    char expected[sizeof one.out];
    memcpy(expected, one.out, sizeof expected);
    Run many = run_command("%s --allow-run-as-root --oversubscribe -np 3 %s divide -d 5 -t 1 --fen " KIWIPETE
                           " 2>/dev/null",
                           mpirun(), mpi_bin());
    cr_assert_eq(many.status, 0);
    cr_expect_str_eq(many.out, expected);
    cr_expect(strstr(many.out, "Nodes searched: 193690690"), "%s", many.out);
}

/* divide --stats hands the root moves out as units (one path each): every move's row
 * and the total as one process prints them; the table lines, each machine's alone, are
 * replaced by a line saying so. */
Test(mpi, divide_stats_spreads_the_root_moves_with_the_rows_of_one_process, .timeout = 600) {
    Run one = run_command("%s divide --stats -d 4 -t 1 --fen " KIWIPETE " 2>/dev/null", getenv("PERFTKIT_BIN"));
    cr_assert_eq(one.status, 0);
    char *tables = strstr(one.out, "\nPly:");
    cr_assert(tables, "no table lines in:\n%s", one.out);
    tables[1] = '\0';
    /* the total's figures are the chessprogramming wiki's (Perft Results, Kiwipete) */
    cr_assert(strstr(one.out, "4085603") && strstr(one.out, "757163") && strstr(one.out, "128013"), "%s", one.out);
    char expected[sizeof one.out];
    snprintf(expected, sizeof expected, "%shash tables: not shown over MPI ranks (each machine's hold only its own "
             "ranks' part)\n", one.out);
    for (int ranks = 2; ranks <= 3; ranks++) {
        Run many = run_command("%s --allow-run-as-root --oversubscribe -np %d %s divide --stats -d 4 -t 1 --fen "
                               KIWIPETE " 2>/dev/null", mpirun(), ranks, mpi_bin());
        cr_assert_eq(many.status, 0, "-np %d: exit %d", ranks, many.status);
        cr_expect_str_eq(many.out, expected, "-np %d", ranks);
    }
}

Test(mpi, one_rank_and_shallow_depths_count_alone, .timeout = 300) {
    expect_count(1, "-d 5", 4865609ULL);
    expect_count(2, "-d 1", 20ULL);
    expect_count(2, "-d 0", 1ULL);
}

Test(mpi, a_job_with_a_rank_killed_resumes_from_the_journal_with_other_ranks, .timeout = 600) {
    char dir[] = "/tmp/perftkit-mpi-XXXXXX";
    cr_assert(mkdtemp(dir));
    /* Kiwipete perft 6 unhashed takes seconds on two ranks. Kill a worker once the
     * journal holds the header and a line of finished units: mpirun then ends the
     * whole job, and the journal holds what rank 0 had booked. */
    Run killed = job_signalled("KILL", 2, dir, "p6.jsonl", "count -q -d 6 -t 1 --hash 0 --split-ply 3 --fen " KIWIPETE);
    cr_assert_null(strstr(killed.out, "exit 0\n"), "the job should have been killed: %s", killed.out);
    Run resumed = run_command("%s --allow-run-as-root --oversubscribe -np 3 %s count -q -d 6 -t 1 --hash 0 --split-ply 3 "
                              "--fen " KIWIPETE " --resume %s/p6.jsonl 2>&1",
                              mpirun(), mpi_bin(), dir);
    cr_assert_eq(resumed.status, 0, "%s", resumed.out);
    cr_expect(strstr(resumed.out, "8031647685"), "%s", resumed.out);
    unsigned long from = 0, of = 0;
    const char *said = strstr(resumed.out, "perft count: ");
    cr_assert(said && sscanf(said, "perft count: %lu of %lu units from journal", &from, &of) == 2, "%s", resumed.out);
    cr_expect(from > 0 && from < of, "the kill should leave part of the work (%lu of %lu units journaled)", from, of);
    run_command("rm -rf %s", dir);
}

/* The decimal string of `field` in a --json document's text, as a number. */
static unsigned long long json_field(const char *doc, const char *field) {
    char key[64];
    snprintf(key, sizeof key, "\"%s\": \"", field);
    const char *at = strstr(doc, key);
    cr_assert(at, "no %s in: %s", field, doc);
    return strtoull(at + strlen(key), NULL, 10);
}

/* Rank 0's --max-nodes, like --max-time, bounds what one launch counts: a journal
 * already holding more leaves than the limit does not stop a resumed job at once. */
Test(mpi, a_resumed_job_counts_the_limit_from_its_own_leaves, .timeout = 600) {
    char dir[] = "/tmp/perftkit-mpi-XXXXXX";
    cr_assert(mkdtemp(dir));
    Run first = run_command("%s --allow-run-as-root --oversubscribe -np 2 %s count -d 7 -t 1 --hash 64 --split-ply 3 "
                            "--max-nodes 1000000000 --json --journal %s/p7.jsonl 2>/dev/null",
                            mpirun(), mpi_bin(), dir);
    cr_assert_eq(first.status, 3, "stopped by the limit: %s", first.out);
    unsigned long long journaled = json_field(first.out, "total");
    cr_assert(journaled >= 1000000000ULL && journaled < 3195901860ULL, "%llu", journaled);
    Run second = run_command("%s --allow-run-as-root --oversubscribe -np 2 %s count -d 7 -t 1 --hash 64 "
                             "--max-nodes 500000000 --json --resume %s/p7.jsonl 2>/dev/null",
                             mpirun(), mpi_bin(), dir);
    cr_assert_eq(second.status, 3, "stopped by the limit again: %s", second.out);
    unsigned long long resumed = json_field(second.out, "resumed_leaves"), total = json_field(second.out, "total");
    cr_expect_eq(resumed, journaled, "the journal's leaves, as the first launch counted them");
    cr_expect(total - resumed >= 500000000ULL, "this launch counted its own 500 M leaves: %llu", total - resumed);
    Run last = run_command("%s --allow-run-as-root --oversubscribe -np 2 %s count -q -d 7 -t 1 --hash 64 --resume "
                           "%s/p7.jsonl 2>/dev/null",
                           mpirun(), mpi_bin(), dir);
    cr_assert_eq(last.status, 0);
    cr_expect_str_eq(last.out, "3195901860\n");
    run_command("rm -rf %s", dir);
}

/* A worker rank sent SIGTERM alone (a scheduler taking one machine back) stops at
 * once, hands in the units it finished and leaves; rank 0 then stops the whole job as
 * interrupted (exit 130) with a journal that resumes to the exact count. */
Test(mpi, a_signal_to_one_worker_rank_stops_the_job_resumably, .timeout = 600) {
    char dir[] = "/tmp/perftkit-mpi-XXXXXX";
    cr_assert(mkdtemp(dir));
    Run stopped = job_signalled("TERM", 2, dir, "p8.jsonl", "count -d 8 -t 1 --hash 0 --split-ply 3");
    cr_assert(strstr(stopped.out, "exit 130\n"), "the job ends as interrupted:\n%s", stopped.out);
    cr_assert(strstr(stopped.out, "status: interrupted\n") && strstr(stopped.out, "continue with --resume"), "%s",
              stopped.out);
    Run resumed = run_command("%s --allow-run-as-root --oversubscribe -np 2 %s count -q -d 8 -t 1 --hash 64 --resume "
                              "%s/p8.jsonl 2>&1",
                              mpirun(), mpi_bin(), dir);
    cr_assert_eq(resumed.status, 0, "%s", resumed.out);
    cr_expect(strstr(resumed.out, "84998978956\n"), "%s", resumed.out);
    run_command("rm -rf %s", dir);
}

/* `perft stats ARGS` in one process and over `ranks` ranks print the same table. */
static void expect_same_stats(int ranks, const char *args, const char *row) {
    Run one = run_command("%s stats %s 2>/dev/null", getenv("PERFTKIT_BIN"), args);
    cr_assert_eq(one.status, 0, "stats %s: exit %d", args, one.status);
    cr_assert(strstr(one.out, row), "stats %s has no row '%s':\n%s", args, row, one.out);
    char expected[sizeof one.out];
    memcpy(expected, one.out, sizeof expected);
    Run many = run_command("%s --allow-run-as-root --oversubscribe -np %d %s stats %s 2>/dev/null", mpirun(), ranks,
                           mpi_bin(), args);
    cr_assert_eq(many.status, 0, "-np %d stats %s: exit %d", ranks, args, many.status);
    cr_expect_str_eq(many.out, expected);
}

Test(mpi, stats_over_ranks_give_the_tables_of_one_process, .timeout = 600) {
    /* the rows' figures are the chessprogramming wiki's (Perft Results) */
    expect_same_stats(2, "-d 6 -t 1", "119060324");
    expect_same_stats(3, "-d 5 -t 2 --hash 0 --fen " KIWIPETE, "193690690");
    expect_same_stats(4, "-d 4 -t 1 --fen " KIWIPETE, "4085603");
}

/* Rank 0 journals every unit's statistics, whichever rank counted it: a job whose
 * worker rank is killed resumes from that journal, on another number of ranks, to the
 * table of one uninterrupted process. */
Test(mpi, a_stats_job_with_a_rank_killed_resumes_from_the_journal_with_other_ranks, .timeout = 600) {
    char dir[] = "/tmp/perftkit-mpi-XXXXXX";
    cr_assert(mkdtemp(dir));
    const char *args = "-d 7 -t 1 --hash 64";
    Run one = run_command("%s stats %s 2>/dev/null", getenv("PERFTKIT_BIN"), args);
    cr_assert_eq(one.status, 0);
    /* the wiki's depth-7 row (Perft Results), then the GCT's direct checks and mates */
    cr_assert(strstr(one.out, "\n7             3195901860     108329926        319617        883453             0      "
                              "33103848         18026          1628        435767      32648427         18026  "),
              "%s", one.out);
    char expected[sizeof one.out];
    memcpy(expected, one.out, sizeof expected);
    /* Depth 7 has 500 units (20 at each depth 2..6, 400 at depth 7); kill a worker
     * once the journal holds 150 of them, well inside depth 7. */
    char stats[64];
    snprintf(stats, sizeof stats, "stats %s", args);
    Run killed = job_signalled("KILL", 150, dir, "s7.jsonl", stats);
    cr_assert_null(strstr(killed.out, "exit 0\n"), "the job should have been killed: %s", killed.out);
    Run resumed = run_command("%s --allow-run-as-root --oversubscribe -np 3 %s stats %s --resume %s/s7.jsonl "
                              "2>%s/err",
                              mpirun(), mpi_bin(), args, dir, dir);
    cr_assert_eq(resumed.status, 0, "%s", resumed.out);
    cr_expect_str_eq(resumed.out, expected);
    Run said = run_command("cat %s/err", dir);
    unsigned long from = 0, of = 0;
    const char *at = strstr(said.out, "perft stats: ");
    cr_assert(at && sscanf(at, "perft stats: %lu of %lu units from journal", &from, &of) == 2, "%s", said.out);
    cr_expect(of == 500 && from >= 149 && from < 500, "the kill leaves part of depth 7 (%lu of %lu journaled)", from,
              of);
    cr_expect(strstr(said.out, "\nresumed: "), "%s", said.out);
    run_command("rm -rf %s", dir);
}

/* Rank 0 refusing a journal of another run (before any count) ends the whole job with
 * its one-line error: the other ranks, which read no journal, do not wait for it. */
Test(mpi, a_journal_rank_0_refuses_ends_the_job_at_once, .timeout = 300) {
    char dir[] = "/tmp/perftkit-mpi-XXXXXX";
    cr_assert(mkdtemp(dir));
    Run made = run_command("%s count -q -d 4 --journal %s/c4.jsonl && %s stats -d 4 --journal %s/s4.jsonl",
                           getenv("PERFTKIT_BIN"), dir, getenv("PERFTKIT_BIN"), dir);
    cr_assert_eq(made.status, 0, "%s", made.out);
    static const struct {
        const char *args, *error;
    } refused[] = {
        {"count -q -d 5 --resume %s/c4.jsonl", "perft count: --resume '%s/c4.jsonl': journal header: depth is 4, this "
                                               "run has 5\n"},
        {"stats -d 5 --resume %s/s4.jsonl", "perft stats: --resume '%s/s4.jsonl': journal header: depth is 4, this "
                                            "run has 5\n"},
        {"stats -d 4 --resume %s/c4.jsonl", "perft stats: --resume '%s/c4.jsonl': journal header: stats is 0, this "
                                            "run has 17"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        char args[256], error[256];
        snprintf(args, sizeof args, refused[i].args, dir);
        snprintf(error, sizeof error, refused[i].error, dir);
        Run r = run_command("timeout 60 %s --allow-run-as-root --oversubscribe -np 2 %s %s 2>&1; echo \"exit $?\"",
                            mpirun(), mpi_bin(), args);
        cr_expect(!strstr(r.out, "exit 124"), "perft-mpi %s hangs:\n%s", args, r.out);
        cr_expect(strstr(r.out, "exit 2\n"), "perft-mpi %s: exit 2 expected:\n%s", args, r.out);
        cr_expect(strstr(r.out, error), "perft-mpi %s: no '%s' in:\n%s", args, error, r.out);
    }
    run_command("rm -rf %s", dir);
}

/* Rank 0 stops handing out units at the limit: the depths before it are printed
 * whole, as one process prints them, and every rank ends with exit 3. */
Test(mpi, stats_over_ranks_stop_at_the_node_limit_with_the_depths_before_it_exact, .timeout = 600) {
    const char *args = "-d 7 -t 1 --hash 64 --max-nodes 500000000";
    Run one = run_command("%s stats %s 2>/dev/null", getenv("PERFTKIT_BIN"), args);
    cr_assert_eq(one.status, 3, "stats %s: exit %d", args, one.status);
    cr_assert(strstr(one.out, "\n6              119060324 ") && strstr(one.out, "partial: depths 1..6 of 1..7"), "%s",
              one.out);
    char expected[sizeof one.out];
    memcpy(expected, one.out, sizeof expected);
    Run many = run_command("%s --allow-run-as-root --oversubscribe -np 2 %s stats %s 2>/dev/null", mpirun(), mpi_bin(),
                           args);
    cr_assert_eq(many.status, 3, "-np 2 stats %s: exit %d", args, many.status);
    cr_expect_str_eq(many.out, expected);
}

/* SIGTERM to the worker rank alone (a scheduler taking its machine back) stops the
 * whole stats job with the depths it finished, as Ctrl-C stops one process, and leaves
 * its journal resumable to the exact table. */
Test(mpi, a_signal_to_one_worker_rank_stops_stats_resumably_with_the_finished_depths, .timeout = 600) {
    char dir[] = "/tmp/perftkit-mpi-XXXXXX";
    cr_assert(mkdtemp(dir));
    /* depths 2..6 are the journal's first 100 units: 150 lines are inside depth 7 */
    Run stopped = job_signalled("TERM", 150, dir, "s7.jsonl", "stats -d 7 -t 1 --hash 64");
    cr_assert(strstr(stopped.out, "exit 130\n"), "the job ends as interrupted:\n%s", stopped.out);
    cr_assert(strstr(stopped.out, "status: interrupted\n") && strstr(stopped.out, "partial: depths 1..6 of 1..7 "
                                                                                  "(interrupted)\n"),
              "%s", stopped.out);
    cr_assert(strstr(stopped.out, "\n6              119060324       2812008 "), "%s", stopped.out);
    cr_assert(strstr(stopped.out, "units; continue with --resume"), "%s", stopped.out);
    Run resumed = run_command("%s --allow-run-as-root --oversubscribe -np 2 %s stats -d 7 -t 1 --hash 64 --resume "
                              "%s/s7.jsonl 2>/dev/null",
                              mpirun(), mpi_bin(), dir);
    cr_assert_eq(resumed.status, 0, "%s", resumed.out);
    cr_expect(strstr(resumed.out, "\n7             3195901860     108329926        319617        883453             0 "),
              "%s", resumed.out);
    run_command("rm -rf %s", dir);
}

Test(mpi, a_verification_run_over_ranks_checks_both_key_sets, .timeout = 600) {
    Run r = run_command("%s --allow-run-as-root --oversubscribe -np 2 %s count -d 6 -t 1 --verify 2>&1", mpirun(),
                        mpi_bin());
    cr_assert_eq(r.status, 0, "exit %d:\n%s", r.status, r.out);
    cr_expect(strstr(r.out, "119060324"), "%s", r.out);
}

