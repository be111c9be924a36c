/* test_stats.c — perft statistics against the chessprogramming wiki's tables
 * (suites/cpw_initial_position_stats.tsv, suites/cpw_perft_stats.tsv): every row within
 * the node window [PERFTKIT_MIN_NODES, PERFTKIT_MAX_NODES] (default 1 .. 20,000,000),
 * every column the file gives ('-' marks a figure left unchecked); the check classes
 * against the Grand Chess Tree's published figures (suites/gct_stats.tsv) within
 * [PERFTKIT_GCT_MIN_NODES, PERFTKIT_GCT_MAX_NODES] (default 1 .. 120,000,000: the start
 * position to depth 6, Kiwipete to 4; the slow suite goes on to depth 8 and 6); the
 * same figures on any number of threads, with and without tables; limits that stop
 * the search inside a depth, and tables that stay exact after a stopped count. */
#include "support.h"

#include <signal.h>
#include <time.h>

#include "../perft/stats.h"

TestSuite(stats, .init = core_setup, .timeout = 3600);

/* Compares one row: `fields` holds the wiki's nine columns as text. */
static int check_row(StatsTables *tables, const char *fen, int depth, char *fields[STATS_CPW_FIELDS],
                     const char *where) {
    Position pos = position_of(fen, false);
    LeafStats got;
    cr_assert_eq(stats_run(&pos, depth, 2, tables, NULL, &got), RUN_COMPLETED);
    int checked = 0;
    for (int i = 0; i < STATS_CPW_FIELDS; i++) {
        if (!strcmp(fields[i], "-"))
            continue;
        unsigned long long expected = strtoull(fields[i], NULL, 10);
        cr_expect_eq(got.field[i], expected, "%s depth %d %s: expected %llu, got %llu", where, depth,
                     stats_field_names[i], expected, (unsigned long long)got.field[i]);
        checked++;
    }
    return checked;
}

/* Splits a tab-separated line in place. */
static int split_tabs(char *line, char *out[], int room) {
    int n = 0;
    for (char *save = NULL, *f = strtok_r(line, "\t\r\n", &save); f && n < room; f = strtok_r(NULL, "\t\r\n", &save))
        out[n++] = f;
    return n;
}

static void check_file(const char *name, bool has_fen) {
    unsigned long long min_nodes = env_number("PERFTKIT_MIN_NODES", 1);
    unsigned long long max_nodes = env_number("PERFTKIT_MAX_NODES", 20000000);
    char path[1024], line[1024], error[160];
    FILE *file = fopen(suite_path(name, path, sizeof path), "r");
    cr_assert(file, "cannot open %s", path);
    StatsTables *tables = stats_tables_create(256 << 20, error, sizeof error);
    cr_assert(tables, "%s", error);
    int rows = 0, checked = 0, number = 0;
    while (fgets(line, sizeof line, file)) {
        number++;
        char *fields[12];
        if (line[0] == '#' || !strncmp(line, "depth", 5) || !strncmp(line, "fen", 3))
            continue;
        int n = split_tabs(line, fields, 12);
        int first = has_fen ? 1 : 0;
        if (n != first + 1 + STATS_CPW_FIELDS) /* rows with node counts only */
            continue;
        int depth = atoi(fields[first]);
        unsigned long long nodes = strtoull(fields[first + 1], NULL, 10);
        if (depth == 0 || nodes < min_nodes || nodes > max_nodes)
            continue;
        char where[64];
        snprintf(where, sizeof where, "%s:%d", name, number);
        checked += check_row(tables, has_fen ? fields[0] : FEN_STARTPOS, depth, fields + first + 1, where);
        rows++;
    }
    fclose(file);
    stats_tables_destroy(tables);
    cr_log_info("%s: %d rows, %d figures checked", name, rows, checked);
    cr_assert_gt(rows, 0, "no row of %s in the node window", name);
}

Test(stats, start_position_matches_the_wiki_table) { check_file("cpw_initial_position_stats.tsv", false); }
Test(stats, kiwipete_and_positions_3_to_5_match_the_wiki_tables) { check_file("cpw_perft_stats.tsv", true); }

/* The columns of gct_stats.tsv after the FEN and the depth, as LeafStats fields. */
static const int gct_columns[] = {STAT_NODES,
                                  STAT_CAPTURES,
                                  STAT_EP,
                                  STAT_CASTLES,
                                  STAT_PROMOTIONS,
                                  STAT_DIRECT_CHECKS,
                                  STAT_SINGLE_DISCOVERED_CHECKS,
                                  STAT_DIRECT_DISCOVERED_CHECKS,
                                  STAT_DOUBLE_DISCOVERED_CHECKS,
                                  STAT_DIRECT_MATES,
                                  STAT_SINGLE_DISCOVERED_MATES,
                                  STAT_DIRECT_DISCOVERED_MATES,
                                  STAT_DOUBLE_DISCOVERED_MATES};
enum { GCT_COLUMNS = sizeof gct_columns / sizeof gct_columns[0] };

/* The wiki's four check columns are sums of the eight classes: checks of all eight,
 * discovery checks of the single discovered ones, double checks of the two-checker
 * ones, mates of the four mates. */
static void assert_cpw_columns_sum_the_classes(const LeafStats *s, const char *where) {
    const uint64_t *f = s->field;
    uint64_t mates = f[STAT_DIRECT_MATES] + f[STAT_SINGLE_DISCOVERED_MATES] + f[STAT_DIRECT_DISCOVERED_MATES]
                   + f[STAT_DOUBLE_DISCOVERED_MATES];
    cr_expect_eq(f[STAT_CHECKMATES], mates, "%s: mates", where);
    cr_expect_eq(f[STAT_CHECKS],
                 mates + f[STAT_DIRECT_CHECKS] + f[STAT_SINGLE_DISCOVERED_CHECKS] + f[STAT_DIRECT_DISCOVERED_CHECKS]
                     + f[STAT_DOUBLE_DISCOVERED_CHECKS],
                 "%s: checks", where);
    cr_expect_eq(f[STAT_DISCOVERY_CHECKS], f[STAT_SINGLE_DISCOVERED_CHECKS] + f[STAT_SINGLE_DISCOVERED_MATES],
                 "%s: discovery checks", where);
    cr_expect_eq(f[STAT_DOUBLE_CHECKS],
                 f[STAT_DIRECT_DISCOVERED_CHECKS] + f[STAT_DOUBLE_DISCOVERED_CHECKS] + f[STAT_DIRECT_DISCOVERED_MATES]
                     + f[STAT_DOUBLE_DISCOVERED_MATES],
                 "%s: double checks", where);
}

Test(stats, check_classes_match_the_grand_chess_tree) {
    /* The Grand Chess Tree's start-position and Kiwipete tables (source in the file). */
    unsigned long long min_nodes = env_number("PERFTKIT_GCT_MIN_NODES", 1);
    unsigned long long max_nodes = env_number("PERFTKIT_GCT_MAX_NODES", 120000000);
    char path[1024], line[2048], error[160];
    FILE *file = fopen(suite_path("gct_stats.tsv", path, sizeof path), "r");
    cr_assert(file, "cannot open %s", path);
    StatsTables *tables = stats_tables_create((size_t)env_number("PERFTKIT_STATS_HASH_MB", 256) << 20, error,
                                              sizeof error);
    cr_assert(tables, "%s", error);
    int rows = 0, number = 0;
    while (fgets(line, sizeof line, file)) {
        number++;
        char *fields[2 + GCT_COLUMNS + 1];
        if (line[0] == '#' || !strncmp(line, "fen\t", 4))
            continue;
        cr_assert_eq(split_tabs(line, fields, 2 + GCT_COLUMNS + 1), 2 + GCT_COLUMNS, "gct_stats.tsv:%d", number);
        int depth = atoi(fields[1]);
        unsigned long long nodes = strtoull(fields[2], NULL, 10);
        if (depth == 0 || nodes < min_nodes || nodes > max_nodes)
            continue;
        Position pos = position_of(fields[0], false);
        LeafStats got;
        cr_assert_eq(stats_run(&pos, depth, 2, tables, NULL, &got), RUN_COMPLETED);
        char where[64];
        snprintf(where, sizeof where, "gct_stats.tsv:%d (depth %d)", number, depth);
        for (int i = 0; i < GCT_COLUMNS; i++) {
            unsigned long long expected = strtoull(fields[2 + i], NULL, 10);
            cr_expect_eq(got.field[gct_columns[i]], expected, "%s %s: expected %llu, got %llu", where,
                         stats_field_names[gct_columns[i]], expected, (unsigned long long)got.field[gct_columns[i]]);
        }
        assert_cpw_columns_sum_the_classes(&got, where);
        rows++;
    }
    fclose(file);
    stats_tables_destroy(tables);
    cr_log_info("gct_stats.tsv: %d rows checked", rows);
    cr_assert_gt(rows, 0, "no row of gct_stats.tsv in the node window");
}

Test(stats, kiwipete_double_checks_are_the_wiki_s_2637_and_8_mates) {
    /* The wiki's Kiwipete depth 5 "Double Checks" says 2,637; perftkit and others count
     * 2,645. The Grand Chess Tree's classes tell them apart: 2,637 direct-and-discovered
     * checks that do not mate, and 8 that mate. The wiki's column leaves the mates out.
     * 193,690,690 leaves: in the slow suite, with the Grand Chess Tree's deeper rows. */
    if (env_number("PERFTKIT_GCT_MAX_NODES", 120000000) < 193690690)
        cr_skip_test("Kiwipete depth 5 runs in the slow suite (stats-deep)");
    Position pos = position_of("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", false);
    char error[160];
    StatsTables *tables = stats_tables_create(64 << 20, error, sizeof error);
    cr_assert(tables, "%s", error);
    LeafStats got;
    cr_assert_eq(stats_run(&pos, 5, 2, tables, NULL, &got), RUN_COMPLETED);
    cr_assert_eq(got.field[STAT_DOUBLE_CHECKS], 2645);
    cr_assert_eq(got.field[STAT_DIRECT_DISCOVERED_CHECKS] + got.field[STAT_DOUBLE_DISCOVERED_CHECKS], 2637);
    cr_assert_eq(got.field[STAT_DIRECT_DISCOVERED_MATES] + got.field[STAT_DOUBLE_DISCOVERED_MATES], 8);
    stats_tables_destroy(tables);
}

Test(stats, hashed_and_unhashed_classes_agree_and_sum_to_the_wiki_columns) {
    /* Tables store the classes of whole subtrees; found again, they must give what
     * counting leaf by leaf gives (tiny tables: many replacements). */
    static const char *const fens[] = {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
                                       "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -",
                                       "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"};
    char error[160];
    StatsTables *tables = stats_tables_create(4 << 20, error, sizeof error);
    cr_assert(tables, "%s", error);
    for (int i = 0; i < 3; i++) {
        Position pos = position_of(fens[i], false);
        LeafStats plain, hashed;
        cr_assert_eq(stats_run(&pos, 4, 1, NULL, NULL, &plain), RUN_COMPLETED);
        cr_assert_eq(stats_run(&pos, 4, 1, tables, NULL, &hashed), RUN_COMPLETED);
        cr_assert_eq(memcmp(&plain, &hashed, sizeof plain), 0, "%s", fens[i]);
        assert_cpw_columns_sum_the_classes(&plain, fens[i]);
    }
    stats_tables_destroy(tables);
}

Test(stats, divide_by_root_move_adds_up_to_the_whole) {
    Position pos = position_of("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", false);
    Move moves[MAX_MOVES];
    LeafStats per_move[MAX_MOVES], whole, sum;
    memset(&sum, 0, sizeof sum);
    TableCounters counters[STATS_MAX_DEPTH + 1];
    memset(counters, 0, sizeof counters);
    int n = stats_divide(&pos, 3, 2, NULL, moves, per_move, counters);
    cr_assert_eq(n, 48);
    for (int i = 0; i < n; i++)
        for (int f = 0; f < STATS_FIELDS; f++)
            sum.field[f] += per_move[i].field[f];
    stats_run(&pos, 3, 1, NULL, NULL, &whole);
    cr_assert_eq(memcmp(&sum, &whole, sizeof sum), 0);
    cr_assert_eq(whole.field[STAT_NODES], 97862);
    cr_assert_eq(whole.field[STAT_CASTLES], 3162);
}

Test(stats, hashed_statistics_equal_unhashed_ones) {
    char error[160];
    StatsTables *tables = stats_tables_create(1 << 20, error, sizeof error); /* tiny: many replacements */
    cr_assert(tables);
    Position pos = position_of("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", false);
    LeafStats hashed, plain;
    stats_run(&pos, 4, 2, tables, NULL, &hashed);
    stats_run(&pos, 4, 2, NULL, NULL, &plain);
    cr_assert_eq(memcmp(&hashed, &plain, sizeof plain), 0);
    stats_tables_destroy(tables);
}

/* Limits: the search checks them as it goes, not only between depths or root moves. */

static double seconds_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

Test(stats, a_time_limit_stops_a_deep_count_inside_the_search) {
    /* Depth 9 of the start position takes minutes; a single root move, tens of seconds. */
    Position pos = position_of(FEN_STARTPOS, false);
    RunLimits limits = {.max_seconds = 0.2};
    LeafStats got;
    for (int threads = 1; threads <= 2; threads++) {
        double start = seconds_now();
        cr_assert_eq(stats_run(&pos, 9, threads, NULL, &limits, &got), RUN_TIME_LIMIT);
        double took = seconds_now() - start;
        cr_assert_lt(took, 1.2, "%d threads stopped %.3f s after a 0.2 s limit", threads, took);
        cr_assert_eq(got.field[STAT_NODES], 0, "a stopped count reports no part of a depth");
    }
}

Test(stats, a_node_limit_stops_near_the_limit) {
    Position pos = position_of(FEN_STARTPOS, false);
    RunLimits limits = {.max_nodes = 1000000};
    LeafStats got;
    double start = seconds_now();
    cr_assert_eq(stats_run(&pos, 8, 2, NULL, &limits, &got), RUN_NODE_LIMIT); /* perft 8: 84,998,978,956 */
    cr_assert_lt(seconds_now() - start, 2.0 * slowdown());
    /* A limit met by the last leaf is no stop: the depth is complete. */
    limits.max_nodes = 4865609;
    cr_assert_eq(stats_run(&pos, 5, 2, NULL, &limits, &got), RUN_COMPLETED);
    cr_assert_eq(got.field[STAT_NODES], 4865609);
    cr_assert_eq(got.field[STAT_CHECKMATES], 347);
}

Test(stats, an_interrupt_stops_the_count) {
    Position pos = position_of(FEN_STARTPOS, false);
    volatile sig_atomic_t flag = 1;
    RunLimits limits = {.interrupt = &flag};
    LeafStats got;
    cr_assert_eq(stats_run(&pos, 9, 2, NULL, &limits, &got), RUN_INTERRUPTED);
    cr_assert_eq(stats_run(&pos, 1, 2, NULL, &limits, &got), RUN_INTERRUPTED);
}

Test(stats, tables_stay_exact_after_a_stopped_count) {
    /* Subtrees abandoned on a stop must not be stored: the next count on the same
     * tables reproduces the wiki's row for position 3, depth 6. */
    char error[160];
    StatsTables *tables = stats_tables_create(64 << 20, error, sizeof error);
    cr_assert(tables, "%s", error);
    Position pos = position_of("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -", false);
    LeafStats got;
    for (uint64_t max = 1000; max <= 4000000; max *= 7) {
        RunLimits limits = {.max_nodes = max};
        cr_assert_eq(stats_run(&pos, 6, 2, tables, &limits, &got), RUN_NODE_LIMIT, "max %llu", (unsigned long long)max);
    }
    cr_assert_eq(stats_run(&pos, 6, 2, tables, NULL, &got), RUN_COMPLETED);
    static const uint64_t wiki[STATS_CPW_FIELDS] = {11030083, 940350, 33325, 0, 7552, 452473, 26067, 0, 2733};
    for (int i = 0; i < STATS_CPW_FIELDS; i++)
        cr_expect_eq(got.field[i], wiki[i], "%s: %llu", stats_field_names[i], (unsigned long long)got.field[i]);
    stats_tables_destroy(tables);
}

Test(stats, threads_and_tables_give_the_same_statistics) {
    Position pos = position_of("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", false);
    char error[160];
    StatsTables *tables = stats_tables_create(16 << 20, error, sizeof error);
    cr_assert(tables, "%s", error);
    LeafStats one, two, three;
    cr_assert_eq(stats_run(&pos, 5, 1, NULL, NULL, &one), RUN_COMPLETED);
    cr_assert_eq(stats_run(&pos, 5, 2, tables, NULL, &two), RUN_COMPLETED);
    cr_assert_eq(stats_run(&pos, 5, 3, tables, NULL, &three), RUN_COMPLETED);
    cr_assert_eq(memcmp(&one, &two, sizeof one), 0);
    cr_assert_eq(memcmp(&one, &three, sizeof one), 0);
    static const uint64_t wiki[STATS_CPW_FIELDS] = {15833292, 2046173, 6512, 0, 329464, 200568, 11621, 50, 50562};
    for (int i = 0; i < STATS_CPW_FIELDS; i++)
        cr_expect_eq(one.field[i], wiki[i], "%s: %llu", stats_field_names[i], (unsigned long long)one.field[i]);
    cr_assert_eq(stats_threads(4, 2), 1, "below depth 5, one thread");
    cr_assert_eq(stats_threads(5, 2), 2);
    stats_tables_destroy(tables);
}
