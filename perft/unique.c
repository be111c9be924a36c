/* unique.c — open-addressed key sets with linear probing, doubled at three quarters
 * full. The all-zero key marks an empty slot; a real all-zero key (a 2^-128 chance) is
 * kept in a flag beside the slots, so even it is not lost. */
#include "unique.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct KeySet {
    Key128 *slots;
    uint64_t mask; /* capacity - 1, a power of two */
    uint64_t count;
    bool has_zero;
} KeySet;

typedef struct Walk {
    KeySet sets[UNIQUE_MAX_DEPTH + 1];
    int depth;
    size_t bytes, peak;
    bool out_of_memory;
} Walk;

static bool set_init(KeySet *set, uint64_t capacity, Walk *walk) {
    set->slots = calloc(capacity, sizeof(Key128));
    if (!set->slots)
        return false;
    set->mask = capacity - 1;
    walk->bytes += capacity * sizeof(Key128);
    if (walk->bytes > walk->peak)
        walk->peak = walk->bytes;
    return true;
}

static void place(KeySet *set, Key128 key) {
    uint64_t i = key.hi & set->mask;
    while (set->slots[i].lo | set->slots[i].hi)
        i = (i + 1) & set->mask;
    set->slots[i] = key;
}

static bool grow(KeySet *set, Walk *walk) {
    KeySet bigger = {NULL, 0, set->count, set->has_zero};
    if (!set_init(&bigger, (set->mask + 1) * 2, walk))
        return false;
    for (uint64_t i = 0; i <= set->mask; i++)
        if (set->slots[i].lo | set->slots[i].hi)
            place(&bigger, set->slots[i]);
    walk->bytes -= (set->mask + 1) * sizeof(Key128);
    free(set->slots);
    *set = bigger;
    return true;
}

/* Adds `key`; true when it was not there before. */
static bool insert(KeySet *set, Key128 key, Walk *walk) {
    if (!(key.lo | key.hi)) {
        bool fresh = !set->has_zero;
        set->has_zero = true;
        set->count += fresh;
        return fresh;
    }
    uint64_t i = key.hi & set->mask;
    for (; set->slots[i].lo | set->slots[i].hi; i = (i + 1) & set->mask)
        if (zob_equal(set->slots[i], key))
            return false;
    set->slots[i] = key;
    set->count++;
    if (set->count * 4 > (set->mask + 1) * 3 && !grow(set, walk))
        walk->out_of_memory = true;
    return true;
}

/* The position's key, without its e.p. square when no legal move takes e.p.: the
 * position key counts a square a pawn attacks, the published unique-position counts
 * only one a legal capture uses. Both positions have the same moves, so the same
 * subtree. */
static Key128 unique_key(const Position *pos) {
    Key128 key = pos->key;
    if (!pos_ep_capturable(pos))
        return key;
    MoveList captures;
    gen_captures(pos, &captures);
    for (int i = 0; i < captures.count; i++)
        if (move_kind(captures.moves[i]) == MOVE_EN_PASSANT)
            return key;
    zob_toggle(&key, zob_ep_file(pos->keys, sq_file(pos->ep_square)));
    return key;
}

/* Inserts the children of `pos` (at `ply`) and expands those seen for the first time. */
static void visit(Walk *walk, Position *pos, int ply) {
    MoveList list;
    Undo undo;
    gen_legal(pos, &list);
    for (int i = 0; i < list.count && !walk->out_of_memory; i++) {
        pos_make_move(pos, list.moves[i], &undo);
        if (insert(&walk->sets[ply + 1], unique_key(pos), walk) && ply + 1 < walk->depth)
            visit(walk, pos, ply + 1);
        pos_unmake_move(pos, list.moves[i], &undo);
    }
}

bool unique_count(const Position *root, int depth, UniqueReport *report, char *error, size_t error_size) {
    Walk *walk = calloc(1, sizeof *walk);
    memset(report, 0, sizeof *report);
    report->depth = depth;
    bool ok = walk != NULL;
    if (ok) {
        walk->depth = depth;
        for (int ply = 1; ply <= depth && ok; ply++)
            ok = set_init(&walk->sets[ply], 1024, walk);
        if (ok) {
            Position pos = *root;
            visit(walk, &pos, 0);
            ok = !walk->out_of_memory;
        }
    }
    if (ok) {
        report->positions[0] = 1;
        for (int ply = 1; ply <= depth; ply++) {
            report->positions[ply] = walk->sets[ply].count;
            report->bytes[ply] = (walk->sets[ply].mask + 1) * sizeof(Key128);
        }
        report->peak_bytes = walk->peak;
    } else {
        snprintf(error, error_size, "out of memory after %zu MB of position sets", walk ? walk->bytes >> 20 : 0);
    }
    for (int ply = 1; walk && ply <= depth; ply++)
        free(walk->sets[ply].slots);
    free(walk);
    return ok;
}
