/* test_units.c — the work units: the distinct positions a few plies below the root,
 * with exact path counts per root move, in an order and with a digest that depend on
 * the position and the ply alone. */
#include "support.h"

#include "../perft/perft.h"
#include "../perft/units.h"

TestSuite(units, .init = core_setup, .timeout = 600);

static const char *const kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

static UnitSet *units_of(const Position *root, int ply, size_t max_pairs) {
    char error[160];
    UnitSet *set = unit_set_create(root, ply, max_pairs, error, sizeof error);
    cr_assert(set, "ply %d: %s", ply, error);
    return set;
}

static uint64_t all_paths(const UnitSet *set) {
    uint64_t paths = 0;
    for (size_t u = 0; u < unit_set_count(set); u++)
        paths += unit_paths(set, u);
    return paths;
}

/* OEIS A083276 (distinct positions) and A048987 (paths) for plies 1..5. */
Test(units, start_position_has_822518_distinct_positions_but_4865609_paths_at_ply_5) {
    static const size_t distinct[] = {0, 20, 400, 5362, 72078, 822518};
    static const uint64_t paths[] = {0, 20, 400, 8902, 197281, 4865609};
    Position start = position_of(FEN_STARTPOS, false);
    for (int ply = 1; ply <= 5; ply++) {
        UnitSet *set = units_of(&start, ply, 0);
        cr_expect_eq(unit_set_ply(set), ply);
        cr_expect_eq(unit_set_count(set), distinct[ply], "ply %d: %zu units", ply, unit_set_count(set));
        cr_expect_eq(all_paths(set), paths[ply], "ply %d: %llu paths", ply, (unsigned long long)all_paths(set));
        unit_set_destroy(set);
    }
}

static int by_key(const void *a, const void *b) {
    const Key128 *x = a, *y = b;
    if (x->hi != y->hi)
        return x->hi < y->hi ? -1 : 1;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Each unit's position has its own key, and the key is the one its moves give. */
Test(units, every_unit_is_a_distinct_position_with_a_consistent_key) {
    Position pos = position_of(kiwipete, false);
    UnitSet *set = units_of(&pos, 3, 0);
    size_t n = unit_set_count(set);
    cr_assert_gt(n, 1000);
    Key128 *keys = malloc(n * sizeof *keys);
    for (size_t u = 0; u < n; u++) {
        Position p;
        unit_position(set, u, &p);
        keys[u] = p.key;
        cr_assert(zob_equal(p.key, pos_compute_key(&p)), "unit %zu", u);
    }
    qsort(keys, n, sizeof *keys, by_key);
    for (size_t u = 1; u < n; u++)
        cr_assert_not(zob_equal(keys[u - 1], keys[u]), "two units are one position");
    free(keys);
    unit_set_destroy(set);
}

/* Summed per root move, the multiplicities are the paths below each root move, and the
 * weighted counts are its divide. */
Test(units, multiplicities_per_root_move_give_the_exact_divide) {
    Position pos = position_of(FEN_STARTPOS, false);
    UnitSet *set = units_of(&pos, 3, 0);
    Count per_root[MAX_MOVES] = {0};
    uint64_t paths[MAX_MOVES] = {0};
    int shared = 0;
    for (size_t u = 0; u < unit_set_count(set); u++) {
        Position p;
        unit_position(set, u, &p);
        Count below = perft_count(&p, 1);
        const UnitRoot *roots;
        int n = unit_roots(set, u, &roots);
        uint64_t sum = 0;
        for (int i = 0; i < n; i++) {
            cr_assert(i == 0 || roots[i - 1].root < roots[i].root, "roots listed in order, once each");
            cr_assert_geq(roots[i].paths, 1);
            per_root[roots[i].root] += roots[i].paths * below;
            paths[roots[i].root] += roots[i].paths;
            sum += roots[i].paths;
        }
        cr_assert_eq(sum, unit_paths(set, u));
        shared += n > 1;
    }
    cr_assert_gt(shared, 0, "1.e3 e6 2.d3 and 1.d3 e6 2.e3 are one unit of two root moves");
    PerftDivision divide[MAX_MOVES], two[MAX_MOVES];
    int moves = perft_divide(&pos, 4, divide);
    perft_divide(&pos, 3, two);
    for (int m = 0; m < moves; m++) {
        cr_expect(per_root[m] == divide[m].count, "root move %d", m);
        cr_expect(paths[m] == two[m].count, "root move %d: %llu paths", m, (unsigned long long)paths[m]);
    }
    unit_set_destroy(set);
}

/* Where a path ends, and its rank among all paths in generation order. */
typedef struct PathEnd {
    Key128 key;
    size_t rank;
} PathEnd;

/* Every path `plies` deep below `pos`, depth first, moves in generation order. */
static void walk(Position *pos, int plies, PathEnd *ends, size_t *count) {
    if (plies == 0) {
        ends[*count] = (PathEnd){pos->key, *count};
        ++*count;
        return;
    }
    MoveList list;
    gen_legal(pos, &list);
    for (int m = 0; m < list.count; m++) {
        Undo undo;
        pos_make_move(pos, list.moves[m], &undo);
        walk(pos, plies - 1, ends, count);
        pos_unmake_move(pos, list.moves[m], &undo);
    }
}

static int by_key_then_rank(const void *a, const void *b) {
    const PathEnd *x = a, *y = b;
    if (x->key.hi != y->key.hi)
        return x->key.hi < y->key.hi ? -1 : 1;
    if (x->key.lo != y->key.lo)
        return x->key.lo < y->key.lo ? -1 : 1;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* The rank of the first path (in generation order) that ends at `key`. */
static size_t first_path(const PathEnd *ends, size_t count, Key128 key) {
    size_t low = 0, high = count; /* the first end not below key */
    while (low < high) {
        size_t mid = (low + high) / 2;
        if (by_key_then_rank(&ends[mid], &(PathEnd){key, 0}) < 0)
            low = mid + 1;
        else
            high = mid;
    }
    cr_assert(low < count && zob_equal(ends[low].key, key), "a unit no path reaches");
    return ends[low].rank;
}

/* Checked against a depth-first walk: the bulk of the list in the order of each unit's
 * first path, then the smallest expected eighth (or all, up to 64 units), largest first. */
static void check_order(const char *fen, int ply, size_t paths) {
    Position pos = position_of(fen, false);
    UnitSet *set = units_of(&pos, ply, 0);
    PathEnd *ends = malloc(paths * sizeof *ends);
    size_t count = 0;
    walk(&pos, ply, ends, &count);
    cr_assert_eq(count, paths);
    qsort(ends, count, sizeof *ends, by_key_then_rank);
    size_t n = unit_set_count(set), tail = n <= 64 ? n : n / 8 > 64 ? n / 8 : 64, bulk = n - tail;
    uint64_t bulk_smallest = UINT64_MAX;
    size_t previous = 0;
    for (size_t u = 0; u < n; u++) {
        Position p;
        unit_position(set, u, &p);
        uint64_t estimate = unit_estimate(set, u);
        size_t rank = first_path(ends, count, p.key);
        cr_assert_eq(estimate, (uint64_t)gen_count_legal(&p));
        if (u < bulk) {
            cr_assert(u == 0 || rank > previous, "ply %d: unit %zu is out of the order of discovery", ply, u);
            bulk_smallest = estimate < bulk_smallest ? estimate : bulk_smallest;
        } else {
            cr_assert(estimate <= bulk_smallest, "ply %d: unit %zu is larger than one before the tail", ply, u);
            uint64_t before = u > bulk ? unit_estimate(set, u - 1) : UINT64_MAX;
            cr_assert(estimate < before || (estimate == before && rank > previous),
                      "ply %d: unit %zu is out of order in the tail", ply, u);
        }
        previous = rank;
    }
    free(ends);
    unit_set_destroy(set);
}

Test(units, listed_in_order_of_discovery_then_the_smallest_largest_first) {
    check_order(kiwipete, 3, 97862); /* 1/8 of the units last */
    check_order(FEN_STARTPOS, 2, 400); /* 64 of 400 last */
    check_order(FEN_STARTPOS, 1, 20); /* all by size */
}

Test(units, the_same_list_every_time) {
    Position pos = position_of(kiwipete, false);
    UnitSet *a = units_of(&pos, 3, 0), *b = units_of(&pos, 3, 0);
    cr_assert_eq(unit_set_digest(a), unit_set_digest(b));
    UnitSet *c = units_of(&pos, 2, 0);
    cr_assert_neq(unit_set_digest(a), unit_set_digest(c), "another ply, another list");
    Position start = position_of(FEN_STARTPOS, false);
    UnitSet *d = units_of(&start, 3, 0);
    cr_assert_neq(unit_set_digest(a), unit_set_digest(d), "another root, another list");
    unit_set_destroy(a);
    unit_set_destroy(b);
    unit_set_destroy(c);
    unit_set_destroy(d);
}

/* The same list, unit for unit, and the same digest under other Zobrist keys. */
Test(units, order_and_digest_do_not_depend_on_the_keys) {
    Position pos = position_of(kiwipete, false);
    UnitSet *set = units_of(&pos, 3, 0);
    uint64_t digest = unit_set_digest(set);
    size_t n = unit_set_count(set);
    char first[FEN_BUFFER_SIZE], last[FEN_BUFFER_SIZE];
    Position p;
    unit_position(set, 0, &p);
    fen_write(&p, first);
    unit_position(set, n - 1, &p);
    fen_write(&p, last);
    unit_set_destroy(set);

    static ZobristKeys other;
    zob_keys_make(&other, 0x1234567);
    pos = position_of(kiwipete, false);
    pos_set_keys(&pos, &other);
    set = units_of(&pos, 3, 0);
    unit_position(set, 0, &p);
    cr_assert_eq(p.keys, &other, "the units are keyed as their root");
    cr_assert_eq(unit_set_count(set), n);
    cr_assert_eq(unit_set_digest(set), digest);
    char text[FEN_BUFFER_SIZE];
    unit_position(set, 0, &p);
    cr_assert_str_eq(fen_write(&p, text), first);
    unit_position(set, n - 1, &p);
    cr_assert_str_eq(fen_write(&p, text), last);
    unit_set_destroy(set);
}

Test(units, pair_budget_keeps_wide_positions_shallower) {
    Position pos = position_of(kiwipete, false);
    UnitSet *set = units_of(&pos, 4, 1 << 17);
    cr_assert_eq(unit_set_ply(set), 3, "Kiwipete's ply 4 has more than 131072 pairs");
    cr_assert_eq(all_paths(set), 97862);
    unit_set_destroy(set);
    set = units_of(&pos, 4, 20);
    cr_assert_eq(unit_set_ply(set), 1, "at least ply 1, whatever the budget");
    cr_assert_eq(unit_set_count(set), 48);
    unit_set_destroy(set);
}

/* Paths that end in mate above the split ply leave no unit. */
Test(units, mates_above_the_ply_leave_no_units) {
    /* White to move; Rd8 mates. */
    Position pos = position_of("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", false);
    UnitSet *set = units_of(&pos, 2, 0);
    uint64_t paths = all_paths(set);
    PerftDivision divide[MAX_MOVES];
    int moves = perft_divide(&pos, 2, divide);
    uint64_t expected = 0;
    for (int m = 0; m < moves; m++)
        expected += (uint64_t)divide[m].count;
    cr_assert_eq(paths, expected, "Rd8# has no replies and so no units below it");
    const UnitRoot *roots;
    bool below_mate = false;
    for (size_t u = 0; u < unit_set_count(set); u++) {
        int n = unit_roots(set, u, &roots);
        for (int i = 0; i < n; i++)
            below_mate |= divide[roots[i].root].count == 0;
    }
    cr_assert_not(below_mate);
    unit_set_destroy(set);
}

Test(units, ply_out_of_range_is_refused_with_a_reason) {
    Position pos = position_of(FEN_STARTPOS, false);
    char error[160];
    cr_assert_null(unit_set_create(&pos, 0, 0, error, sizeof error));
    cr_assert_str_eq(error, "split ply 0 is out of range 1..8");
    cr_assert_null(unit_set_create(&pos, UNIT_MAX_PLY + 1, 0, error, sizeof error));
}
