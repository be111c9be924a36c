/* unique.c — each ply's set is split into shards by the key's top bits, each shard an
 * open-addressed table with linear probing, doubled at three quarters full, under its
 * own lock when several threads run (one insert holds one shard's lock for a probe, so
 * threads rarely meet; growing one shard at a time also keeps the peak memory near the
 * sets' own). The all-zero key marks an empty slot; a real all-zero key (a 2^-128
 * chance) is kept in a flag beside the slots, so even it is not lost.
 *
 * Threads: the walk first expands, on one thread, the distinct positions down to a
 * split ply; those (distinct) positions are the units that driver_for_each_unit hands
 * to the threads, each walking its unit's subtree into the shared sets. Whichever
 * thread inserts a position first expands it, so each distinct position is still
 * expanded once, and the counts (set sizes) do not depend on the order. */
#include "unique.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"

enum {
    SHARD_BITS = 6,
    SHARDS = 1 << SHARD_BITS,
    FIRST_CAPACITY = 16, /* slots of a new shard */
    SPLIT_PLY = 3,       /* units at most this deep; 5,362 distinct positions at ply 3 */
    PARALLEL_DEPTH = 5,  /* below, the whole walk takes milliseconds: one thread */
};

typedef struct Shard {
    pthread_mutex_t lock;
    Key128 *slots;
    uint64_t mask; /* capacity - 1, a power of two */
    uint64_t count;
    bool has_zero;
} Shard;

typedef struct PlySet {
    Shard shards[SHARDS];
} PlySet;

typedef struct Walk {
    PlySet sets[UNIQUE_MAX_DEPTH + 1];
    int depth;
    bool locking;              /* several threads share the sets */
    size_t max_bytes;
    _Atomic size_t bytes, peak;
    atomic_bool stop;          /* a set could not grow: every thread stops */
    _Atomic int failed_ply;    /* the first ply whose set could not grow; 0 none, -1 the
                                  unit list */
    _Atomic size_t failed_need; /* the bytes that set asked for */
    bool no_memory;            /* the system refused (not the budget); set with failed_ply */
    UnitList units;            /* the distinct positions of the split ply */
    size_t unit_capacity;
} Walk;

/* Records that ply `ply`'s set could not take `need` more bytes, and stops the walk. */
static void fail(Walk *walk, int ply, size_t need, bool no_memory) {
    int none = 0;
    if (atomic_compare_exchange_strong(&walk->failed_ply, &none, ply)) {
        atomic_store(&walk->failed_need, need);
        walk->no_memory = no_memory;
    }
    atomic_store(&walk->stop, true);
}

/* Slots for a shard of `capacity`, within the budget; NULL (after fail()) otherwise. */
static Key128 *reserve(Walk *walk, int ply, uint64_t capacity) {
    size_t need = capacity * sizeof(Key128);
    size_t now = atomic_fetch_add(&walk->bytes, need) + need;
    if (now > walk->max_bytes) {
        atomic_fetch_sub(&walk->bytes, need);
        fail(walk, ply, need, false);
        return NULL;
    }
    Key128 *slots = calloc(capacity, sizeof(Key128));
    if (!slots) {
        atomic_fetch_sub(&walk->bytes, need);
        fail(walk, ply, need, true);
        return NULL;
    }
    size_t peak = atomic_load(&walk->peak);
    while (now > peak && !atomic_compare_exchange_weak(&walk->peak, &peak, now)) {
    }
    return slots;
}

static void place(Shard *shard, Key128 key) {
    uint64_t i = key.hi & shard->mask;
    while (shard->slots[i].lo | shard->slots[i].hi)
        i = (i + 1) & shard->mask;
    shard->slots[i] = key;
}

static bool grow(Walk *walk, int ply, Shard *shard) {
    uint64_t capacity = (shard->mask + 1) * 2;
    Key128 *bigger = reserve(walk, ply, capacity);
    if (!bigger)
        return false;
    Shard old = *shard;
    shard->slots = bigger;
    shard->mask = capacity - 1;
    for (uint64_t i = 0; i <= old.mask; i++)
        if (old.slots[i].lo | old.slots[i].hi)
            place(shard, old.slots[i]);
    free(old.slots);
    atomic_fetch_sub(&walk->bytes, (old.mask + 1) * sizeof(Key128));
    return true;
}

/* Adds `key` to the set of `ply`; true when it was not there before (and the set could
 * keep it). */
static bool insert(Walk *walk, int ply, Key128 key) {
    Shard *shard = &walk->sets[ply].shards[key.lo >> (64 - SHARD_BITS)];
    bool fresh = true;
    if (walk->locking)
        pthread_mutex_lock(&shard->lock);
    if (!(key.lo | key.hi)) {
        fresh = !shard->has_zero;
        shard->has_zero = true;
        shard->count += fresh;
    } else {
        uint64_t i = key.hi & shard->mask;
        for (; shard->slots[i].lo | shard->slots[i].hi; i = (i + 1) & shard->mask)
            if (zob_equal(shard->slots[i], key)) {
                fresh = false;
                break;
            }
        if (fresh) {
            shard->slots[i] = key;
            shard->count++;
            if (shard->count * 4 > (shard->mask + 1) * 3 && !grow(walk, ply, shard))
                fresh = false;
        }
    }
    if (walk->locking)
        pthread_mutex_unlock(&shard->lock);
    return fresh;
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

/* Keeps `pos` as a unit of the parallel walk. */
static void add_unit(Walk *walk, const Position *pos) {
    if ((size_t)walk->units.count == walk->unit_capacity) {
        size_t capacity = walk->unit_capacity ? walk->unit_capacity * 2 : 256;
        Unit *grown = realloc(walk->units.items, capacity * sizeof(Unit));
        if (!grown) {
            fail(walk, -1, capacity * sizeof(Unit), true);
            return;
        }
        walk->units.items = grown;
        walk->unit_capacity = capacity;
    }
    walk->units.items[walk->units.count++] = (Unit){*pos, 0};
}

/* Inserts the children of `pos` (at `ply`) into their set and expands those seen for
 * the first time, down to ply `last`; with `collect`, keeps the new positions of ply
 * `last` as units instead. */
static void visit(Walk *walk, Position *pos, int ply, int last, bool collect) {
    MoveList list;
    Undo undo;
    gen_legal(pos, &list);
    for (int i = 0; i < list.count && !atomic_load_explicit(&walk->stop, memory_order_relaxed); i++) {
        pos_make_move(pos, list.moves[i], &undo);
        if (insert(walk, ply + 1, unique_key(pos))) {
            if (ply + 1 < last)
                visit(walk, pos, ply + 1, last, collect);
            else if (collect && ply + 1 < walk->depth)
                add_unit(walk, pos);
        }
        pos_unmake_move(pos, list.moves[i], &undo);
    }
}

static void walk_unit(void *context, int thread, const Unit *unit, int remaining) {
    (void)thread;
    Walk *walk = context;
    Position pos = unit->pos;
    visit(walk, &pos, walk->depth - remaining, walk->depth, false);
}

bool unique_count(const Position *root, int depth, int threads, size_t max_bytes, UniqueReport *report,
                  char *error, size_t error_size) {
    memset(report, 0, sizeof *report);
    report->depth = depth;
    Walk *walk = calloc(1, sizeof *walk);
    if (!walk) {
        snprintf(error, error_size, "out of memory");
        return false;
    }
    threads = threads > 0 ? threads : driver_available_threads();
    threads = depth >= PARALLEL_DEPTH ? threads : 1;
    walk->depth = depth;
    walk->locking = threads > 1;
    walk->max_bytes = max_bytes;
    atomic_init(&walk->bytes, 0);
    atomic_init(&walk->peak, 0);
    atomic_init(&walk->stop, false);
    atomic_init(&walk->failed_ply, 0);
    atomic_init(&walk->failed_need, 0);
    for (int ply = 1; ply <= depth; ply++)
        for (int s = 0; s < SHARDS; s++) {
            Shard *shard = &walk->sets[ply].shards[s];
            pthread_mutex_init(&shard->lock, NULL);
            shard->mask = FIRST_CAPACITY - 1;
            if (!atomic_load(&walk->stop))
                shard->slots = reserve(walk, ply, FIRST_CAPACITY);
        }
    if (!atomic_load(&walk->stop)) {
        Position pos = *root;
        if (threads == 1) {
            visit(walk, &pos, 0, depth, false);
        } else { /* the split ply's distinct positions, then their subtrees in parallel */
            int split = depth - 1 < SPLIT_PLY ? depth - 1 : SPLIT_PLY;
            visit(walk, &pos, 0, split, true);
            driver_for_each_unit(threads, &walk->units, depth - split, &walk->stop, walk_unit, walk);
        }
    }
    int failed = atomic_load(&walk->failed_ply);
    if (failed == 0) {
        report->threads = threads;
        report->positions[0] = 1;
        for (int ply = 1; ply <= depth; ply++)
            for (int s = 0; s < SHARDS; s++) {
                report->positions[ply] += walk->sets[ply].shards[s].count;
                report->bytes[ply] += (walk->sets[ply].shards[s].mask + 1) * sizeof(Key128);
            }
        report->peak_bytes = atomic_load(&walk->peak);
    } else if (failed < 0) {
        snprintf(error, error_size, "out of memory for the list of ply-%d positions to share among threads",
                 depth - 1 < SPLIT_PLY ? depth - 1 : SPLIT_PLY);
    } else {
        double used = (double)atomic_load(&walk->bytes) / 1048576.0;
        double need = (double)atomic_load(&walk->failed_need) / 1048576.0;
        if (walk->no_memory)
            snprintf(error, error_size, "out of memory: the set of ply %d could not grow by %.1f MB (%.1f MB held)",
                     failed, need, used);
        else
            snprintf(error, error_size,
                     "the position sets need more than %.0f MB (they held %.1f MB when the set of ply %d had to grow)",
                     (double)max_bytes / 1048576.0, used, failed);
    }
    for (int ply = 1; ply <= depth; ply++)
        for (int s = 0; s < SHARDS; s++) {
            free(walk->sets[ply].shards[s].slots);
            pthread_mutex_destroy(&walk->sets[ply].shards[s].lock);
        }
    free(walk->units.items);
    free(walk);
    return failed == 0;
}
