/* test_driver.c — the parallel hashed driver counts exactly what the serial unhashed
 * counter counts, for every thread count, split ply and table size, on every suite
 * count up to 1,000,000 nodes; limits stop it within milliseconds at any depth with
 * exact finished units and root moves; hooks see every unit, and a resumed run adds the
 * counts it is given. */
#include "support.h"

#include <pthread.h>
#include <time.h>

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
    /* The ThreadSanitizer stage takes the first counts of each file only: there every
     * run's threads cost milliseconds to start and watch, whatever its size. */
    unsigned long long per_file = env_number("PERFTKIT_COUNTS_PER_FILE", 1ULL << 62);
    Driver driver;
    char error[160];
    cr_assert(driver_create(&driver, setup.threads, setup.hash_mb << 20, error, sizeof error), "%s", error);
    driver.parallel_depth = 1; /* every run on every thread, however small */
    int checked = 0;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char path[1024], line[4096], why[EPD_ERROR_SIZE];
        FILE *file = fopen(suite_path(files[f], path, sizeof path), "r");
        cr_assert(file);
        unsigned long long in_file = 0;
        for (int n = 1; in_file < per_file && fgets(line, sizeof line, file); n++) {
            EpdRecord record;
            if (epd_parse_line(line, &record, why, sizeof why) != EPD_RECORD)
                continue;
            Position pos = position_of(record.fen, false);
            if (setup.keys)
                pos_set_keys(&pos, setup.keys);
            for (int i = 0; i < record.expectation_count; i++) {
                if (record.expect[i].nodes > max_nodes || in_file == per_file)
                    continue;
                in_file++;
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
    cr_assert_gt((unsigned long long)checked, per_file < 1000 ? per_file : 1000, "the suites must yield counts in the window");
}

Test(driver, suites_on_two_threads_without_hashing) { check_suites((Setup){2, 0, NULL}); }
Test(driver, suites_on_one_thread_with_tables) { check_suites((Setup){1, 64, NULL}); }
Test(driver, suites_on_two_threads_with_tiny_tables_full_of_replacements) { check_suites((Setup){2, 1, NULL}); }
Test(driver, suites_on_three_threads_with_tables) { check_suites((Setup){3, 32, NULL}); }
/* 512 MB: every hashed depth down to 6 has regions (table_key), so siblings share them. */
Test(driver, suites_on_two_threads_with_tables_in_regions) { check_suites((Setup){2, 512, NULL}); }
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
        if (!run.roots[i].complete) {
            cr_assert(run.roots[i].count == 0);
            continue;
        }
        finished++;
        cr_assert(run.roots[i].count == known_divide5(&pos, run.roots[i].move));
        sum += (uint64_t)run.roots[i].count;
    }
    cr_assert(finished < 20, "%d root moves finished", finished);
    cr_assert(run.units_done > 0 && run.units_done < run.units, "%zu of %zu units", run.units_done, run.units);
    cr_assert(run.total >= sum && run.total < 4865609, "the partial total covers the finished units");
    cr_assert(run.total >= 1000000, "stopped past the limit, not before");
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
    uint64_t buckets = (1ULL << 30) / 64;
    cr_assert_eq(table_slots(table_for(&set, 2)), buckets / 2 * 8, "half of 1 GiB, 8-byte entries");
    cr_assert_eq(table_slots(table_for(&set, 3)), (buckets - buckets / 2) / 2 * 7, "half of the rest, 7 to a bucket");
    cr_assert_eq(table_for(&set, 3)->count_bits, 24, "tagged 8-byte entries at depth 3");
    cr_assert_eq(table_slots(table_for(&set, 4)), (buckets - buckets / 2 - (buckets - buckets / 2) / 2) / 2 * 4,
                 "16-byte entries from depth 4");
    cr_assert_eq(table_for(&set, 4)->count_bits, 0);
    cr_assert_null(table_for(&set, 1), "depth 1 is never hashed");
    uint64_t total = 0;
    for (int d = 2; d <= TABLE_MAX_DEPTH; d++)
        total += table_for(&set, d) ? table_for(&set, d)->bucket_count * 64 : 0;
    cr_assert_leq(total, 1ULL << 30);
    table_set_destroy(&set);
    cr_assert(table_set_create(&set, 1000, error, sizeof error));
    cr_assert_null(table_for(&set, 2), "too little memory for a table: no hashing");
    table_set_destroy(&set);
}

/* The buckets the tables of a set take, over every depth. */
static uint64_t buckets_laid_out(const TableSet *set) {
    uint64_t total = 0;
    for (int d = 2; d <= TABLE_MAX_DEPTH; d++)
        total += table_for(set, d) ? table_for(set, d)->bucket_count : 0;
    return total;
}

Test(driver, tables_fit_to_what_each_depth_wants) {
    TableSet set;
    char error[160];
    cr_assert(table_set_create(&set, (size_t)1 << 30, error, sizeof error), "%s", error);
    uint64_t span = set.span / 64, want[TABLE_MAX_DEPTH + 1] = {0};
    want[3] = 100000, want[4] = 20000, want[5] = 3000; /* together far below half the span */
    table_set_fit(&set, want);
    cr_assert_eq(set.span / 64, span, "the span stays");
    cr_assert_eq(table_for(&set, 3)->bucket_count, 100000);
    cr_assert_eq(table_for(&set, 4)->bucket_count, 20000);
    cr_assert_eq(table_for(&set, 5)->bucket_count, 3000);
    cr_assert_eq(table_for(&set, 2)->bucket_count, span - 123000, "depth 2 takes the rest");
    cr_assert_null(table_for(&set, 6), "no table where none is wanted");
    cr_assert_eq(table_for(&set, 3)->tag_bits, 9, "each depth keeps its kind of entry");
    cr_assert((char *)table_for(&set, 3)->buckets == (char *)set.memory + (span - 123000) * 64, "placed in order");
    want[3] = span; /* more than the span: each depth takes at least half of what is left */
    table_set_fit(&set, want);
    cr_assert_eq(table_for(&set, 2)->bucket_count, span / 2);
    cr_assert_eq(table_for(&set, 3)->bucket_count, span - span / 2 - 23000, "all but what the deeper ones want");
    cr_assert_eq(table_for(&set, 4)->bucket_count, 20000);
    cr_assert_leq(buckets_laid_out(&set), span);
    table_set_destroy(&set);
}

/* Tables fitted to the run, then the count: exact. */
static void fitted_count_is_exact(const char *fen, int depth, size_t mb, uint64_t nodes, Driver *driver) {
    char error[160];
    cr_assert(driver_create(driver, 2, mb << 20, error, sizeof error), "%s", error);
    Position pos = position_of(fen, false);
    driver_fit_tables(driver, &pos, depth);
    cr_assert_leq(buckets_laid_out(&driver->tables) * 64, driver->tables.span);
    RunReport run;
    driver_run(driver, &pos, depth, NULL, NULL, &run);
    cr_assert(run.complete && (uint64_t)run.total == nodes, "%s perft %d: got %llu", fen, depth,
              (unsigned long long)run.total);
}

Test(driver, tables_fitted_to_the_root_hold_its_expected_positions_and_count_exactly) {
    Driver driver;
    /* Start position perft 7 in 64 MB: depth 3 holds the 72,078 distinct positions of
     * ply 4 three times over (7 to a bucket), depth 4 ply 3's 5,362, depth 2 the rest. */
    fitted_count_is_exact(FEN_STARTPOS, 7, 64, 3195901860ULL, &driver);
    uint64_t span = driver.tables.span / 64;
    cr_assert_eq(table_for(&driver.tables, 3)->bucket_count, 72078 * 3 / 7 + 1);
    cr_assert_eq(table_for(&driver.tables, 4)->bucket_count, 5362 * 3 / 4 + 1);
    cr_assert_gt(table_for(&driver.tables, 2)->bucket_count, span * 9 / 10, "depth 2 takes nine tenths and more");
    driver_destroy(&driver);
    const char *kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    fitted_count_is_exact(kiwipete, 5, 64, 193690690ULL, &driver);
    driver_destroy(&driver);
    /* Kiwipete grows faster than the start position: at depth 7 its estimate of ply 4
     * is larger than the start position's. */
    char error[160];
    cr_assert(driver_create(&driver, 2, (size_t)64 << 20, error, sizeof error), "%s", error);
    Position pos = position_of(kiwipete, false);
    driver_fit_tables(&driver, &pos, 7);
    cr_assert_gt(table_for(&driver.tables, 3)->bucket_count, 72078 * 3 / 7 + 1);
    driver_destroy(&driver);
    /* Start position perft 10 in 64 MB is overfull: depth 2 keeps half, as unfitted. */
    cr_assert(driver_create(&driver, 2, (size_t)64 << 20, error, sizeof error), "%s", error);
    pos = position_of(FEN_STARTPOS, false);
    driver_fit_tables(&driver, &pos, 10);
    span = driver.tables.span / 64;
    cr_assert_eq(table_for(&driver.tables, 2)->bucket_count, span / 2);
    cr_assert_geq(table_for(&driver.tables, 3)->bucket_count, (span - span / 2) / 2);
    driver_destroy(&driver);
    /* A mated root: nothing to estimate, the layout stays. */
    fitted_count_is_exact("7k/8/8/8/8/8/5PPP/3r2K1 w - - 0 1", 4, 64, 0, &driver);
    cr_assert_eq(table_for(&driver.tables, 2)->bucket_count, ((size_t)64 << 20) / 64 / 2);
    driver_destroy(&driver);
}

Test(driver, table_keeps_counts_and_detects_torn_entries) {
    TableSet set;
    cr_assert(table_set_create(&set, 1 << 20, NULL, 0));
    const Table *t = table_for(&set, 4);
    cr_assert_eq(t->count_bits, 0);
    TableCounters counters = {0, 0, 0, 0};
    Key128 key = {0x1234567890ABCDEFULL, 0x42};
    uint64_t got;
    cr_assert_not(table_probe(t, key, &got));
    table_store(t, key, 197281, &counters);
    cr_assert(table_probe(t, key, &got) && got == 197281);
    /* A torn entry: the count of one write with the check of another. */
    TableEntry *e = &table_bucket(t, key)->entry[0];
    atomic_store(&e->count, 9999);
    cr_assert_not(table_probe(t, key, &got), "a torn entry must read as a miss");
    /* Three other keys fill the bucket (the torn entry holds slot 0); a fifth key
     * replaces the entry in the slot its low key bits pick, and only that one: its
     * key.lo ends in 0xD1D7, 3 modulo four entries, so slot 3 (key.lo + 3). */
    for (uint64_t i = 1; i < TABLE_BUCKET_ENTRIES; i++)
        table_store(t, (Key128){key.lo + i, key.hi}, 100 * i, &counters);
    cr_assert_eq(counters.replacements, 0);
    Key128 fifth = {key.lo + 1000, key.hi};
    const int victim = 3;
    table_store(t, fifth, 500, &counters);
    cr_assert_eq(counters.replacements, 1);
    cr_assert(table_probe(t, fifth, &got) && got == 500);
    for (uint64_t i = 1; i < TABLE_BUCKET_ENTRIES; i++)
        cr_assert_eq(table_probe(t, (Key128){key.lo + i, key.hi}, &got), (int)i != victim,
                     "slot %d: only the picked slot is replaced", (int)i);
    table_set_destroy(&set);
}

Test(driver, narrow_entries_keep_counts_in_one_word_and_check_the_high_key_bits) {
    TableSet set;
    cr_assert(table_set_create(&set, 1 << 20, NULL, 0));
    const Table *t = table_for(&set, 2);
    cr_assert_eq(t->count_bits, 16);
    TableCounters counters = {0, 0, 0, 0};
    Key128 key = {0x1234567890AB0000ULL, 0x42};
    uint64_t got;
    cr_assert_not(table_probe(t, key, &got));
    table_store(t, key, 8902, &counters);
    cr_assert(table_probe(t, key, &got) && got == 8902);
    table_store(t, key, 9467, &counters);
    cr_assert(table_probe(t, key, &got) && got == 9467, "the same key is overwritten in place");
    cr_assert_not(table_probe(t, (Key128){key.lo ^ (1ULL << 40), key.hi}, &got), "a check bit differs");
    cr_assert(table_probe(t, (Key128){key.lo ^ 1, key.hi}, &got), "bits below the check are the count's");
    table_store(t, (Key128){0x123, key.hi}, 0, &counters);
    cr_assert(table_probe(t, (Key128){0x123, key.hi}, &got) && got == 0,
              "a key whose check bits are all 0 is still stored (an empty word is 0)");
    cr_assert_not(table_probe(t, (Key128){0x7777000000000000ULL, key.hi}, &got));
    /* Eight keys of another bucket fill it; a ninth replaces the entry in the slot its
     * low key bits pick, and only that one: its key.lo ends in 5 (below the check
     * bits), so slot 5 (the sixth key). */
    uint64_t other = 0x8000000000000000ULL;
    for (uint64_t i = 1; i <= TABLE_NARROW_ENTRIES; i++)
        table_store(t, (Key128){key.lo + (i << 16), other}, 100 * i, &counters);
    cr_assert(table_probe(t, (Key128){key.lo + (1 << 16), other}, &got) && got == 100);
    Key128 ninth = {key.lo + (99ULL << 16) + 5, other};
    const int victim = 5;
    table_store(t, ninth, 5000, &counters);
    cr_assert(table_probe(t, ninth, &got) && got == 5000);
    for (uint64_t i = 1; i <= TABLE_NARROW_ENTRIES; i++)
        cr_assert_eq(table_probe(t, (Key128){key.lo + (i << 16), other}, &got), (int)i - 1 != victim,
                     "slot %d: only the picked slot is replaced", (int)i - 1);
    cr_assert(table_probe(t, key, &got) && got == 9467, "the first bucket is untouched");
    uint64_t before = counters.stores;
    table_store(t, (Key128){key.lo + (7ULL << 16), other}, 1 << 16, &counters);
    cr_assert_eq(counters.stores, before, "a count too wide for 16 bits is not stored");
    table_set_destroy(&set);
}

/* Depth 3: seven 8-byte entries (the key bits above a 24-bit count) and, in the
 * bucket's last word, a 9-bit tag for each (the key bits just below): 49 bits checked. */
Test(driver, tagged_entries_check_key_bits_in_the_entry_and_its_tag) {
    TableSet set;
    cr_assert(table_set_create(&set, 1 << 20, NULL, 0));
    const Table *t = table_for(&set, 3);
    cr_assert_eq(t->count_bits, 24);
    cr_assert_eq(t->tag_bits, 9, "seven 9-bit tags fill the last word");
    cr_assert_eq(table_slots(t), t->bucket_count * 7);
    TableCounters counters = {0, 0, 0, 0};
    Key128 key = {0x1234567890ABCDEFULL, 0x42};
    uint64_t got;
    cr_assert_not(table_probe(t, key, &got));
    table_store(t, key, 97862, &counters);
    cr_assert(table_probe(t, key, &got) && got == 97862);
    table_store(t, key, 89890, &counters);
    cr_assert(table_probe(t, key, &got) && got == 89890, "the same key is overwritten in place");
    cr_assert_eq(counters.stores, 2);
    cr_assert_not(table_probe(t, (Key128){key.lo ^ (1ULL << 40), key.hi}, &got), "an entry's check bit differs");
    cr_assert_not(table_probe(t, (Key128){key.lo ^ (1ULL << 15), key.hi}, &got), "a tag bit differs");
    cr_assert(table_probe(t, (Key128){key.lo ^ (1ULL << 14), key.hi}, &got), "bits below the tag are not checked");
    /* A key that differs only in its tag gets an entry of its own. */
    Key128 twin = {key.lo ^ (1ULL << 23), key.hi};
    table_store(t, twin, 2039, &counters);
    cr_assert(table_probe(t, twin, &got) && got == 2039);
    cr_assert(table_probe(t, key, &got) && got == 89890, "the twin did not overwrite the key");
    /* An entry read with another write's tag (a torn pair) is a miss. */
    _Atomic uint64_t *tags = &table_narrow_bucket(t, key)->word[7];
    uint64_t saved = atomic_load(tags);
    atomic_store(tags, saved ^ 1);
    cr_assert_not(table_probe(t, key, &got), "slot 0 with a changed tag must read as a miss");
    atomic_store(tags, saved);
    cr_assert(table_probe(t, key, &got) && got == 89890);
    uint64_t before = counters.stores;
    table_store(t, (Key128){0x777, key.hi}, 1 << 24, &counters);
    cr_assert_eq(counters.stores, before, "a count too wide for 24 bits is not stored");
    /* Seven keys of another bucket fill it; an eighth replaces the entry in the slot
     * key.lo modulo 7 picks, and only that one (the other tags survive its tag's
     * swap): its key.lo, 0x12345678F3ABCDEF, is 5 modulo 7, so slot 5 (the sixth key). */
    uint64_t other = 0x8000000000000000ULL;
    for (uint64_t i = 1; i <= 7; i++)
        table_store(t, (Key128){key.lo + (i << 24), other}, 100 * i, &counters);
    cr_assert_eq(counters.replacements, 0);
    Key128 eighth = {key.lo + (99ULL << 24), other};
    const int victim = 5;
    table_store(t, eighth, 5000, &counters);
    cr_assert_eq(counters.replacements, 1);
    cr_assert(table_probe(t, eighth, &got) && got == 5000);
    for (uint64_t i = 1; i <= 7; i++)
        cr_assert_eq(table_probe(t, (Key128){key.lo + (i << 24), other}, &got), (int)i - 1 != victim,
                     "slot %d: only the picked slot is replaced", (int)i - 1);
    cr_assert_eq(table_used_slots(t), 2 + 7, "two entries in the first bucket, seven in the other");
    table_set_destroy(&set);
}

/* Tables large enough to have regions: every sibling reached by a quiet move lands in
 * one region (or the next, where key.hi carries over), the check bits stay key.lo's,
 * and a small table or a side of few men keeps key.hi as it is. */
Test(driver, siblings_share_a_region_of_a_large_table) {
    TableSet set;
    cr_assert(table_set_create(&set, (size_t)256 << 20, NULL, 0));
    const Table *t = table_for(&set, 2);
    cr_assert_geq(t->region_bits, 6, "128 MB of narrow buckets hold 64 regions or more");
    uint64_t region = t->bucket_count >> t->region_bits;
    static const char *const fens[] = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    };
    for (size_t f = 0; f < sizeof fens / sizeof fens[0]; f++) {
        Position pos = position_of(fens[f], false);
        MoveList list;
        gen_legal(&pos, &list);
        uint64_t lowest = UINT64_MAX, highest = 0;
        int quiet = 0;
        for (int i = 0; i < list.count; i++) {
            Position child = pos;
            Undo undo;
            pos_make_move(&child, list.moves[i], &undo);
            Key128 stored = table_key(t, child.key, child.by_color[child.side]);
            cr_assert_eq(stored.lo, child.key.lo, "the check comes from key.lo unchanged");
            if (pos.board[move_to(list.moves[i])] != NO_PIECE || move_kind(list.moves[i]) == MOVE_EN_PASSANT)
                continue;
            uint64_t bucket = table_index(t, stored);
            lowest = bucket < lowest ? bucket : lowest;
            highest = bucket > highest ? bucket : highest;
            quiet++;
        }
        cr_assert_gt(quiet, 10);
        cr_assert_lt(highest - lowest, 2 * region, "%s: %d quiet children over %llu buckets (a region is %llu)",
                     fens[f], quiet, (unsigned long long)(highest - lowest), (unsigned long long)region);
    }
    /* A lone king spreads over 2^10 regions: in this table, all of them (key.hi kept). */
    Position lone = position_of("8/8/8/4k3/8/8/8/RR2K3 b - - 0 1", false);
    cr_assert(zob_equal(table_key(t, lone.key, lone.by_color[lone.side]), lone.key));
    cr_assert_eq(table_region_spread_bits(1), 10);
    cr_assert_eq(table_region_spread_bits(5), 0);
    table_set_destroy(&set);
    cr_assert(table_set_create(&set, 1 << 20, NULL, 0));
    Position start = position_of(fens[0], false);
    cr_assert_eq(table_for(&set, 2)->region_bits, 0, "a 1 MB set has no regions");
    cr_assert(zob_equal(table_key(table_for(&set, 2), start.key, start.by_color[WHITE]), start.key));
    table_set_destroy(&set);
}

/* CPU seconds of the whole process. */
static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Issue 9: the node limit was checked only as whole units finished, so a deep run went
 * on for seconds, and forever at depth 32. */
Test(driver, node_limit_stops_a_deep_run_at_once, .timeout = 60) {
    Driver driver;
    cr_assert(driver_create(&driver, 1, 1 << 20, NULL, 0));
    Position pos = position_of(FEN_STARTPOS, false);
    int depths[] = {8, 32};
    for (int i = 0; i < 2; i++) {
        RunLimits limits = {0, i == 0 ? 1000 : 5, NULL};
        RunReport run;
        double cpu = cpu_seconds();
        driver_run(&driver, &pos, depths[i], &limits, NULL, &run);
        cpu = cpu_seconds() - cpu;
        cr_assert_eq(run.status, RUN_NODE_LIMIT, "depth %d", depths[i]);
        cr_assert_not(run.complete);
        cr_assert_lt(cpu, 0.5 * slowdown(), "depth %d stopped after %.3f s of CPU", depths[i], cpu);
    }
    driver_destroy(&driver);
}

/* "About N leaves": a limit in the middle of a long run stops near it. */
Test(driver, node_limit_stops_near_the_limit) {
    Driver driver;
    cr_assert(driver_create(&driver, 2, 0, NULL, 0));
    Position pos = position_of(FEN_STARTPOS, false);
    RunLimits limits = {0, 300000000, NULL};
    RunReport run;
    double cpu = cpu_seconds();
    driver_run(&driver, &pos, 7, &limits, NULL, &run);
    cpu = cpu_seconds() - cpu;
    cr_assert_eq(run.status, RUN_NODE_LIMIT);
    cr_assert(run.total < 300000000 + 100000000, "finished units stay near the limit");
    cr_assert_lt(cpu, 8.0, "perft 7 is 3.2e9 leaves: stopping near 3e8 takes a tenth of it");
    driver_destroy(&driver);
}

/* Issue 9: the report said two threads where a small run used one. */
Test(driver, report_says_how_many_threads_counted) {
    Driver driver;
    cr_assert(driver_create(&driver, 2, 0, NULL, 0));
    Position pos = position_of(FEN_STARTPOS, false);
    RunReport run;
    driver_run(&driver, &pos, 3, NULL, NULL, &run);
    cr_assert_eq(run.threads, 1, "below parallel_depth one thread counts");
    cr_assert(run.total == 8902);
    driver_run(&driver, &pos, 5, NULL, NULL, &run);
    cr_assert_eq(run.threads, 2);
    cr_assert_eq(run.split_ply, 2);
    cr_assert_eq(run.units, 400);
    driver_destroy(&driver);
}

Test(driver, default_split_ply_follows_depth_and_threads) {
    Driver one, two;
    cr_assert(driver_create(&one, 1, 0, NULL, 0));
    cr_assert(driver_create(&two, 2, 0, NULL, 0));
    static const int by_depth_one[] = {0, 1, 1, 1, 1, 1, 1, 2, 3, 4, 4, 4};
    static const int by_depth_two[] = {0, 1, 1, 1, 1, 2, 2, 2, 3, 4, 4, 4};
    for (int depth = 1; depth <= 11; depth++) {
        cr_expect_eq(driver_split_ply(&one, depth), by_depth_one[depth], "depth %d, one thread", depth);
        cr_expect_eq(driver_split_ply(&two, depth), by_depth_two[depth], "depth %d, two threads", depth);
    }
    two.split_ply = 6;
    cr_assert_eq(driver_split_ply(&two, 9), 6, "an explicit ply is kept");
    cr_assert_eq(driver_split_ply(&two, 4), 4, "but never below the leaves");
    driver_destroy(&one);
    driver_destroy(&two);
}

/* What the progress hook saw. */
typedef struct Seen {
    int calls, last_calls;
    RunProgress latest;
    bool leaves_grew, units_counted;
} Seen;

static void see_progress(void *context, const RunProgress *p) {
    Seen *seen = context;
    if (p->last) {
        seen->last_calls++;
        return;
    }
    seen->leaves_grew |= seen->calls > 0 && p->leaves > seen->latest.leaves;
    seen->units_counted |= p->units_done > 0;
    seen->calls++;
    seen->latest = *p;
}

/* Issue 9: progress counted only finished root moves, so a deep run showed 0/20 and no
 * ETA for seconds; the library drew the line itself. */
Test(driver, progress_hook_sees_units_leaves_and_an_eta) {
    Driver driver;
    cr_assert(driver_create(&driver, 2, 16 << 20, NULL, 0));
    Position pos = position_of(FEN_STARTPOS, false);
    Seen seen = {0};
    RunHooks hooks = {.progress = see_progress, .context = &seen};
    RunLimits limits = {1.5, 0, NULL};
    RunReport run;
    driver_run(&driver, &pos, 8, &limits, &hooks, &run);
    cr_assert_eq(run.status, RUN_TIME_LIMIT);
    cr_assert_geq(seen.calls, 2, "four calls a second from half a second on");
    cr_assert_eq(seen.last_calls, 1, "one last call to clear the line");
    cr_assert_eq(seen.latest.depth, 8);
    cr_assert_eq(seen.latest.units, 5362, "perft 8 splits at ply 3");
    cr_assert(seen.units_counted && seen.latest.units_done < 5362);
    cr_assert(seen.leaves_grew, "leaves grow between calls");
    cr_assert_geq(seen.latest.eta, 0, "an ETA once units finished");
    cr_assert_gt(seen.latest.elapsed, 0.4);
    driver_destroy(&driver);
}

/* The count of every configuration: split plies 1..4, one and two threads, hashed or
 * not, against the suite's count and the serial divide, at every depth up to the suite
 * count nearest 1,000,000 nodes. */
typedef struct Case {
    const char *file;
    int record;
    bool chess960;
} Case;

static EpdRecord record_of(Case c) {
    char path[1024], line[4096], why[EPD_ERROR_SIZE];
    FILE *file = fopen(suite_path(c.file, path, sizeof path), "r");
    cr_assert(file, "%s", path);
    EpdRecord record;
    for (int seen = 0; fgets(line, sizeof line, file);)
        if (epd_parse_line(line, &record, why, sizeof why) == EPD_RECORD && seen++ == c.record) {
            fclose(file);
            return record;
        }
    cr_assert_fail("%s has no record %d", c.file, c.record);
    return record;
}

Test(driver, counts_are_identical_at_every_split_ply_thread_count_and_table) {
    static const Case cases[] = {
        {"cpw_perft_results.epd", 0, false}, /* the start position */
        {"cpw_perft_results.epd", 1, false}, /* Kiwipete: castling, e.p., promotions */
        {"cpw_perft_results.epd", 2, false}, /* position 3: e.p. and pins along the rank */
        {"cpw_perft_results.epd", 3, false}, /* position 4: promotions and castling */
        {"cpw_perft_results.epd", 5, false}, /* position 5 */
        {"ethereal_fischer960.epd", 0, true},
        {"ethereal_fischer960.epd", 7, true},
    };
    Driver drivers[4];
    for (int d = 0; d < 4; d++) {
        cr_assert(driver_create(&drivers[d], 1 + d % 2, d < 2 ? 0 : 16 << 20, NULL, 0));
        drivers[d].parallel_depth = 1;
    }
    int checked = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        EpdRecord record = record_of(cases[c]);
        Position pos = position_of(record.fen, cases[c].chess960);
        for (int i = 0; i < record.expectation_count && record.expect[i].nodes <= 1000000; i++) {
            int depth = record.expect[i].depth;
            PerftDivision divide[MAX_MOVES];
            int moves = perft_divide(&pos, depth, divide);
            for (int ply = 1; ply <= 4; ply++)
                for (int d = 0; d < 4; d++) {
                    drivers[d].split_ply = ply;
                    RunReport run;
                    driver_run(&drivers[d], &pos, depth, NULL, NULL, &run);
                    cr_assert(run.complete && run.total == record.expect[i].nodes,
                              "%s #%d depth %d, split ply %d, driver %d: %llu", cases[c].file, cases[c].record, depth,
                              ply, d, (unsigned long long)run.total);
                    cr_assert_eq(run.split_ply, ply < depth ? ply : depth);
                    cr_assert_eq(run.root_moves, moves);
                    for (int m = 0; m < moves; m++)
                        cr_assert(run.roots[m].complete && run.roots[m].move == divide[m].move
                                      && run.roots[m].count == divide[m].count,
                                  "%s #%d depth %d, split ply %d, driver %d: root move %d", cases[c].file,
                                  cases[c].record, depth, ply, d, m);
                    checked++;
                }
        }
    }
    for (int d = 0; d < 4; d++)
        driver_destroy(&drivers[d]);
    cr_assert_gt(checked, 300);
}

/* What the unit hook saw, in order. */
typedef struct Journal {
    UnitResult done[8192];
    size_t count;
    int concurrent, inside;
} Journal;

static pthread_mutex_t journal_guard = PTHREAD_MUTEX_INITIALIZER;

static void note_unit(void *context, const UnitResult *done) {
    Journal *j = context;
    pthread_mutex_lock(&journal_guard);
    j->concurrent += j->inside++ > 0;
    pthread_mutex_unlock(&journal_guard);
    cr_assert_lt(j->count, 8192);
    j->done[j->count++] = *done;
    pthread_mutex_lock(&journal_guard);
    j->inside--;
    pthread_mutex_unlock(&journal_guard);
}

/* The journal's building blocks: the unit hook sees each unit once, one call at a time,
 * and a run given the finished units counts only the rest, to the same exact total. */
Test(driver, stopped_run_resumed_from_its_finished_units_counts_exactly) {
    Driver driver;
    cr_assert(driver_create(&driver, 2, 16 << 20, NULL, 0));
    Position pos = position_of("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false);
    char error[160];
    driver.split_ply = 2;
    UnitSet *units = driver_plan(&driver, &pos, 5, error, sizeof error);
    cr_assert(units, "%s", error);
    static Journal journal;
    RunHooks hooks = {.unit_done = note_unit, .context = &journal, .units = units};
    RunLimits limits = {0, 60000000, NULL};
    RunReport run;
    driver_run(&driver, &pos, 5, &limits, &hooks, &run);
    cr_assert_eq(run.status, RUN_NODE_LIMIT);
    cr_assert_eq(journal.count, run.units_done);
    cr_assert_eq(journal.concurrent, 0, "the hook is called one call at a time");
    Count weighted = 0;
    for (size_t i = 0; i < journal.count; i++) {
        Position p;
        unit_position(units, journal.done[i].unit, &p);
        cr_assert(journal.done[i].count == perft_count(&p, 3), "unit %zu", journal.done[i].unit);
        weighted += journal.done[i].count * unit_paths(units, journal.done[i].unit);
    }
    cr_assert(weighted == run.total);

    static Journal rest;
    RunHooks resume = {.unit_done = note_unit, .context = &rest, .units = units, .finished = journal.done,
                       .finished_count = journal.count};
    table_set_clear(&driver.tables);
    driver_run(&driver, &pos, 5, NULL, &resume, &run);
    cr_assert(run.complete && run.total == 193690690, "got %llu", (unsigned long long)run.total);
    cr_assert_eq(run.units_resumed, journal.count);
    cr_assert(run.resumed_leaves == weighted, "the resumed leaves are the journal's, apart from this run's");
    cr_assert_eq(rest.count + journal.count, unit_set_count(units), "the rest, and only the rest, counted");
    unit_set_destroy(units);
    driver_destroy(&driver);
}

Test(driver, units_that_do_not_fit_the_run_count_nothing) {
    Driver driver;
    cr_assert(driver_create(&driver, 2, 0, NULL, 0));
    Position start = position_of(FEN_STARTPOS, false), other = position_of(FEN_STARTPOS, false);
    Undo undo;
    pos_make_move(&other, move_parse_uci(&other, "e2e4"), &undo);
    char error[160];
    UnitSet *units = unit_set_create(&start, 3, 0, error, sizeof error);
    cr_assert(units);
    RunReport run;
    RunHooks hooks = {.units = units};
    driver_run(&driver, &other, 4, NULL, &hooks, &run);
    cr_assert_eq(run.status, RUN_BAD_UNITS, "units of another root");
    driver_run(&driver, &start, 2, NULL, &hooks, &run);
    cr_assert_eq(run.status, RUN_BAD_UNITS, "units below the leaves");
    cr_assert_not(run.complete);
    UnitResult twice[2] = {{0, 1}, {0, 1}}, outside[1] = {{5362, 1}};
    hooks.finished = twice;
    hooks.finished_count = 2;
    driver_run(&driver, &start, 4, NULL, &hooks, &run);
    cr_assert_eq(run.status, RUN_BAD_UNITS, "a unit finished twice");
    hooks.finished = outside;
    hooks.finished_count = 1;
    driver_run(&driver, &start, 4, NULL, &hooks, &run);
    cr_assert_eq(run.status, RUN_BAD_UNITS, "a unit that is not in the list");
    cr_assert(run.total == 0);
    cr_assert_str_eq(run_status_text(run.status), "units do not fit the run");
    hooks.finished_count = 0;
    driver_run(&driver, &start, 4, NULL, &hooks, &run);
    cr_assert(run.complete && run.total == 197281);
    unit_set_destroy(units);
    driver_destroy(&driver);
}

/* Issue 9: `count -d 32 --max-time 1` ran 2.25 s, faulting in a gigabyte of tables it
 * could never fill. The default table follows what the time limit lets the run fill. */
Test(driver, cli_default_tables_follow_the_time_limit, .timeout = 60) {
    const char *bin = getenv("PERFTKIT_BIN");
    cr_assert(bin, "PERFTKIT_BIN is not set (run the tests through meson test)");
    Run run = run_command("'%s' count -d 32 --max-time 0.5 --json", bin);
    cr_assert_eq(run.status, 3, "%s", run.out);
    cr_assert(strstr(run.out, "\"hash_mb\": 32,"), "%s", run.out);
    run = run_command("'%s' count -d 3 -t 2 --json", bin);
    cr_assert(strstr(run.out, "\"threads\": 1,"), "%s", run.out);
}
