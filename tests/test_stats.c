/* test_stats.c — perft statistics against the chessprogramming wiki's tables
 * (suites/cpw_initial_position_stats.tsv, suites/cpw_perft_stats.tsv): every row within
 * the node window [PERFTKIT_MIN_NODES, PERFTKIT_MAX_NODES] (default 1 .. 20,000,000),
 * every column the file gives ('-' marks a figure left unchecked). */
#include "support.h"

#include "../perft/stats.h"

TestSuite(stats, .init = core_setup, .timeout = 3600);

/* Compares one row: `fields` holds the nine columns as text. */
static int check_row(StatsTables *tables, const char *fen, int depth, char *fields[STATS_FIELDS], const char *where) {
    Position pos = position_of(fen, false);
    LeafStats got;
    cr_assert_eq(stats_run(&pos, depth, 2, tables, NULL, &got), RUN_COMPLETED);
    int checked = 0;
    for (int i = 0; i < STATS_FIELDS; i++) {
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
        if (n != first + 1 + STATS_FIELDS) /* rows with node counts only */
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
