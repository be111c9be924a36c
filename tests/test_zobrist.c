/* test_zobrist.c — key sets: distinct keys, one set per seed, made without touching
 * the default set; positions keyed with another set keep their incremental key exact. */
#include "support.h"

TestSuite(zobrist, .init = core_setup);

static bool sets_equal(const ZobristKeys *a, const ZobristKeys *b) { return memcmp(a, b, sizeof *a) == 0; }

/* True when no key of `a` equals the key in the same place of `b`. */
static bool sets_differ_everywhere(const ZobristKeys *a, const ZobristKeys *b) {
    const Key128 *x = &a->psq[0][0], *y = &b->psq[0][0];
    size_t keys = (size_t)(&a->side - x) + 1;
    for (size_t i = 0; i < keys; i++)
        if (x[i].lo == y[i].lo || x[i].hi == y[i].hi)
            return false;
    return true;
}

Test(zobrist, piece_square_keys_are_distinct_in_both_halves) {
    const ZobristKeys *keys = zob_default_keys();
    for (Piece p = 1; p < PIECE_NB; p++)
        for (Square s = 0; s < SQUARE_NB; s++)
            for (Square t = 0; t < s; t++) {
                cr_assert_neq(zob_psq(keys, p, s).lo, zob_psq(keys, p, t).lo);
                cr_assert_neq(zob_psq(keys, p, s).hi, zob_psq(keys, p, t).hi);
            }
}

Test(zobrist, castling_keys_depend_on_the_right_and_the_rook_square) {
    const ZobristKeys *keys = zob_default_keys();
    cr_assert(!zob_equal(zob_castling(keys, 0, SQ_H1), zob_castling(keys, 1, SQ_H1)));
    cr_assert(!zob_equal(zob_castling(keys, 0, SQ_H1), zob_castling(keys, 0, SQ_H1 - 1)));
}

Test(zobrist, the_default_set_is_made_from_the_default_seed) {
    ZobristKeys made;
    zob_keys_make(&made, ZOB_DEFAULT_SEED);
    cr_assert(sets_equal(&made, zob_default_keys()));
    cr_assert_eq(zob_keys_seed(zob_default_keys()), ZOB_DEFAULT_SEED);
}

Test(zobrist, another_seed_gives_other_keys_and_the_same_seed_the_same) {
    static ZobristKeys a, b, again;
    zob_keys_make(&a, 42);
    zob_keys_make(&b, 43);
    zob_keys_make(&again, 42);
    cr_assert(sets_differ_everywhere(&a, &b), "seeds 42 and 43 share a key half");
    cr_assert(sets_differ_everywhere(&a, zob_default_keys()));
    cr_assert(sets_equal(&a, &again));
    cr_assert_eq(zob_keys_seed(&a), 42);
    cr_assert_eq(zob_keys_seed(&b), 43);
}

Test(zobrist, making_a_set_leaves_the_default_set_alone) {
    static ZobristKeys before, other;
    before = *zob_default_keys();
    zob_keys_make(&other, 7);
    cr_assert(sets_equal(&before, zob_default_keys()));
    Position pos = position_of(FEN_STARTPOS, false);
    cr_assert_eq(pos.keys, zob_default_keys(), "a position read from FEN uses the default set");
}

Test(zobrist, set_keys_recomputes_the_key_and_switching_back_restores_it) {
    static ZobristKeys other;
    zob_keys_make(&other, 0xDEADBEEF);
    Position pos = position_of("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false);
    Key128 by_default = pos.key;
    pos_set_keys(&pos, &other);
    cr_assert_eq(pos.keys, &other);
    cr_assert(zob_equal(pos.key, pos_compute_key(&pos)));
    cr_assert(!zob_equal(pos.key, by_default));
    pos_set_keys(&pos, zob_default_keys());
    cr_assert(zob_equal(pos.key, by_default));
}

static uint64_t next_random(uint64_t *state) {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* Random games under `keys`: after every make and unmake the incremental key equals
 * the key from scratch (and pos_key_after's), the set is inherited, and the key is not
 * the default set's key of the same position. */
static void playouts_under(const ZobristKeys *keys, const char *fen, bool chess960, int games, uint64_t rng) {
    for (int game = 0; game < games; game++) {
        Position pos = position_of(fen, chess960);
        pos_set_keys(&pos, keys);
        Move played[MAX_PLY];
        Undo undo[MAX_PLY];
        int ply = 0;
        for (; ply < 100; ply++) {
            MoveList list;
            if (!gen_legal(&pos, &list))
                break;
            Move m = list.moves[next_random(&rng) % (uint64_t)list.count];
            Key128 foretold = pos_key_after(&pos, m);
            pos_make_move(&pos, m, &undo[ply]);
            played[ply] = m;
            cr_assert_eq(pos.keys, keys, "the position left its key set at move %d", ply);
            cr_assert(zob_equal(pos.key, pos_compute_key(&pos)), "key drifted after move %d of game %d", ply, game);
            cr_assert(zob_equal(pos.key, foretold), "pos_key_after disagrees at move %d of game %d", ply, game);
            Position by_default = pos;
            pos_set_keys(&by_default, zob_default_keys());
            cr_assert(!zob_equal(pos.key, by_default.key), "the sets give one key at move %d", ply);
        }
        while (ply-- > 0) {
            pos_unmake_move(&pos, played[ply], &undo[ply]);
            cr_assert(zob_equal(pos.key, pos_compute_key(&pos)), "unmake of move %d in game %d", ply, game);
        }
    }
}

Test(zobrist, keys_of_another_set_stay_exact_through_make_and_unmake) {
    static ZobristKeys other;
    zob_keys_make(&other, 99);
    playouts_under(&other, FEN_STARTPOS, false, 100, 11);
    playouts_under(&other, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false, 100, 12);
    playouts_under(&other, "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", false, 100, 13);
    playouts_under(&other, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false, 100, 14);
    playouts_under(&other, "1rkr3b/1ppn3p/3pB1n1/6q1/R2P4/4N1P1/1P5P/2KRQ1B1 b Dbd - 0 14", true, 100, 15);
}
