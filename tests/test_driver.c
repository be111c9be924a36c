/* test_driver.c — the parallel hashed driver counts exactly what the serial unhashed
 * counter counts, for every thread count and table size, on every suite count up to
 * 1,000,000 nodes; and limits stop it cleanly with exact finished root moves. */
#include "support.h"

#include "../perft/driver.h"
#include "../suites/epd.h"

TestSuite(driver, .init = core_setup, .timeout = 1800);

typedef struct Setup {
    int threads;
    size_t hash_mb;
    const ZobristKeys *keys; /* NULL: the default set */
} Setup;

/* Every count of every suite within the node window, in one driver configuration. The
 * driver (and so its tables) lives through the whole suite, as in `perft suite`. */
static void check_suites(Setup setup) {
    static const char *const files[] = {"cpw_perft_results.epd", "roce_perftsuite.epd", "ethereal_fischer960.epd",
                                        "kervinck_perft_random.epd", "pychess_tricky.epd", "pychess_tricky_960.epd",
                                        "peterellisjones_gist.epd", "stockfish_perft_sh_960.epd"};
    unsigned long long max_nodes = env_number("PERFTKIT_MAX_NODES", 1000000);
    Driver driver;
    char error[160];
    cr_assert(driver_create(&driver, setup.threads, setup.hash_mb << 20, error, sizeof error), "%s", error);
    driver.parallel_depth = 1; /* every run on every thread, however small */
    int checked = 0;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char path[1024], line[4096], why[EPD_ERROR_SIZE];
        FILE *file = fopen(suite_path(files[f], path, sizeof path), "r");
        cr_assert(file);
        for (int n = 1; fgets(line, sizeof line, file); n++) {
            EpdRecord record;
            if (epd_parse_line(line, &record, why, sizeof why) != EPD_RECORD)
                continue;
            Position pos = position_of(record.fen, false);
            if (setup.keys)
                pos_set_keys(&pos, setup.keys);
            for (int i = 0; i < record.expectation_count; i++) {
                if (record.expect[i].nodes > max_nodes)
                    continue;
                RunReport run;
                driver_run(&driver, &pos, record.expect[i].depth, NULL, NULL, &run);
                cr_assert(run.complete, "%s:%d: %s", files[f], n, run_status_text(run.status));
                cr_expect(run.total == record.expect[i].nodes, "%s:%d depth %d with %d threads, %zu MB: got %llu",
                          files[f], n, record.expect[i].depth, setup.threads, setup.hash_mb,
                          (unsigned long long)run.total);
                checked++;
            }
        }
        fclose(file);
    }
    driver_destroy(&driver);
    cr_log_info("%d counts checked with %d threads and %zu MB", checked, setup.threads, setup.hash_mb);
    cr_assert_gt(checked, 1000, "the suites must yield counts in the window");
}

Test(driver, suites_on_two_threads_without_hashing) { check_suites((Setup){2, 0, NULL}); }
Test(driver, suites_on_one_thread_with_tables) { check_suites((Setup){1, 64, NULL}); }
Test(driver, suites_on_two_threads_with_tiny_tables_full_of_replacements) { check_suites((Setup){2, 1, NULL}); }
Test(driver, suites_on_three_threads_with_tables) { check_suites((Setup){3, 32, NULL}); }
/* Another key set fills the tables with other keys (tiny tables: other collisions and
 * replacements) and must count the same. */
Test(driver, suites_under_another_key_set_with_tables) {
    static ZobristKeys other;
    zob_keys_make(&other, 0x5EED);
    check_suites((Setup){2, 1, &other});
}

/* Stockfish's divide of the start position at depth 5. */
static const struct {
    const char *move;
    uint64_t nodes;
} start_divide5[20] = {
    {"a2a3", 181046}, {"b2b3", 215255}, {"c2c3", 222861}, {"d2d3", 328511}, {"e2e3", 402988},
    {"f2f3", 178889}, {"g2g3", 217210}, {"h2h3", 181044}, {"a2a4", 217832}, {"b2b4", 216145},
    {"c2c4", 240082}, {"d2d4", 361790}, {"e2e4", 405385}, {"f2f4", 198473}, {"g2g4", 214048},
    {"h2h4", 218829}, {"b1a3", 198572}, {"b1c3", 234656}, {"g1f3", 233491}, {"g1h3", 198502},
};

static uint64_t known_divide5(const Position *pos, Move m) {
    char uci[UCI_MOVE_SIZE];
    move_to_uci(pos, m, uci);
    for (int i = 0; i < 20; i++)
        if (!strcmp(start_divide5[i].move, uci))
            return start_divide5[i].nodes;
    cr_assert_fail("%s is not a root move of the start position", uci);
    return 0;
}

Test(driver, root_moves_of_a_complete_run_match_stockfish_divide) {
    Driver driver;
    cr_assert(driver_create(&driver, 2, 16 << 20, NULL, 0));
    Position pos = position_of(FEN_STARTPOS, false);
    RunReport run;
    driver_run(&driver, &pos, 5, NULL, NULL, &run);
    cr_assert_eq(run.root_moves, 20);
    uint64_t sum = 0;
    for (int i = 0; i < 20; i++) {
        cr_assert(run.roots[i].complete);
        cr_assert(run.roots[i].count == known_divide5(&pos, run.roots[i].move));
        sum += known_divide5(&pos, run.roots[i].move);
    }
    cr_assert_eq(sum, 4865609);
    driver_destroy(&driver);
}

Test(driver, node_limit_stops_with_exact_finished_root_moves) {
    Driver driver;
    cr_assert(driver_create(&driver, 2, 0, NULL, 0));
    Position pos = position_of(FEN_STARTPOS, false);
    RunLimits limits = {0, 1000000, NULL};
    RunReport run;
    driver_run(&driver, &pos, 5, &limits, NULL, &run);
    cr_assert_eq(run.status, RUN_NODE_LIMIT);
    cr_assert_not(run.complete);
    int finished = 0;
    uint64_t sum = 0;
    for (int i = 0; i < run.root_moves; i++) {
        if (!run.roots[i].complete)
            continue;
        finished++;
        cr_assert(run.roots[i].count == known_divide5(&pos, run.roots[i].move));
        sum += (uint64_t)run.roots[i].count;
    }
    cr_assert(finished > 0 && finished < 20, "%d root moves finished", finished);
    cr_assert(run.total == sum, "the partial total is the sum of the finished root moves");
    driver_destroy(&driver);
}

Test(driver, time_limit_stops_a_long_run_promptly) {
    Driver driver;
    cr_assert(driver_create(&driver, 2, 16 << 20, NULL, 0));
    Position pos = position_of(FEN_STARTPOS, false);
    RunLimits limits = {0.3, 0, NULL};
    RunReport run;
    driver_run(&driver, &pos, 10, &limits, NULL, &run);
    cr_assert_eq(run.status, RUN_TIME_LIMIT);
    cr_assert_not(run.complete);
    cr_assert_lt(run.seconds, 3.0, "stopped after %.2f s", run.seconds);
    driver_destroy(&driver);
}

Test(driver, interrupt_flag_stops_the_run) {
    Driver driver;
    cr_assert(driver_create(&driver, 1, 0, NULL, 0));
    Position pos = position_of(FEN_STARTPOS, false);
    volatile sig_atomic_t interrupt = 1;
    RunLimits limits = {0, 0, &interrupt};
    RunReport run;
    driver_run(&driver, &pos, 10, &limits, NULL, &run);
    cr_assert_eq(run.status, RUN_INTERRUPTED);
    cr_assert_str_eq(run_status_text(run.status), "interrupted");
    driver_destroy(&driver);
}

Test(driver, positions_without_moves_and_depth_zero) {
    Driver driver;
    cr_assert(driver_create(&driver, 2, 0, NULL, 0));
    Position mate = position_of("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", false);
    RunReport run;
    driver_run(&driver, &mate, 4, NULL, NULL, &run);
    cr_assert_eq(run.status, RUN_NO_MOVES);
    cr_assert(run.total == 0 && run.complete);
    cr_assert_str_eq(run_status_text(run.status), "no moves available");
    Position start = position_of(FEN_STARTPOS, false);
    driver_run(&driver, &start, 0, NULL, NULL, &run);
    cr_assert(run.total == 1 && run.status == RUN_COMPLETED);
    driver_destroy(&driver);
}

Test(driver, tables_spread_memory_towards_the_deepest_ply) {
    TableSet set;
    char error[160];
    cr_assert(table_set_create(&set, (size_t)1 << 30, error, sizeof error), "%s", error);
    cr_assert_eq(table_slots(table_for(&set, 2)), (1ULL << 30) / 2 / 16, "half of 1 GiB at remaining depth 2");
    cr_assert_eq(table_slots(table_for(&set, 3)), (1ULL << 30) / 4 / 16);
    cr_assert_null(table_for(&set, 1), "depth 1 is never hashed");
    uint64_t total = 0;
    for (int d = 2; d <= TABLE_MAX_DEPTH; d++)
        total += table_for(&set, d) ? table_slots(table_for(&set, d)) * 16 : 0;
    cr_assert_leq(total, 1ULL << 30);
    table_set_destroy(&set);
    cr_assert(table_set_create(&set, 1000, error, sizeof error));
    cr_assert_null(table_for(&set, 2), "too little memory for a table: no hashing");
    table_set_destroy(&set);
}

Test(driver, table_keeps_counts_and_detects_torn_entries) {
    TableSet set;
    cr_assert(table_set_create(&set, 1 << 20, NULL, 0));
    const Table *t = table_for(&set, 2);
    TableCounters counters = {0, 0, 0, 0};
    Key128 key = {0x1234567890ABCDEFULL, 0x42};
    uint64_t got;
    cr_assert_not(table_probe(t, key, &got));
    table_store(t, key, 8902, &counters);
    cr_assert(table_probe(t, key, &got) && got == 8902);
    /* A torn entry: the count of one write with the check of another. */
    TableEntry *e = &table_bucket(t, key)->entry[0];
    atomic_store(&e->count, 9999);
    cr_assert_not(table_probe(t, key, &got), "a torn entry must read as a miss");
    /* Four other keys in the same bucket push out the smallest count. */
    for (uint64_t i = 1; i <= 4; i++)
        table_store(t, (Key128){key.lo + i, key.hi}, 100 * i, &counters);
    cr_assert_not(table_probe(t, (Key128){key.lo + 1, key.hi}, &got), "the smallest count was replaced");
    cr_assert(table_probe(t, (Key128){key.lo + 4, key.hi}, &got) && got == 400);
    cr_assert_eq(counters.replacements, 1);
    table_set_destroy(&set);
}
