/* table.h — fixed-length hash tables of perft subtree counts, one per remaining depth
 * (so within one run, one per ply), shared by all threads without locks.
 *
 * An entry is 16 bytes: `check` = key.lo XOR count, and `count`. The bucket index comes
 * from key.hi and the check verifies all 64 bits of key.lo: no key bit is used twice,
 * so a false match needs a 64-bit coincidence. Entries are written and read as two
 * separate relaxed 64-bit atomics, so a reader may see halves of two different writes
 * (a torn entry); then check XOR count is not the probing key, and the entry reads as a
 * miss. A torn or colliding entry can therefore never yield a wrong count.
 *
 * A bucket is four entries in one 64-byte cache line. A store replaces the entry of the
 * same key, else an empty entry, else the entry with the smallest count (all entries of
 * a table have the same remaining depth, so the smallest count is the cheapest subtree
 * to recompute). Tables are keyed by the full position, including castling rooks, so
 * they stay valid across runs, depths and root positions and are never cleared. */
#ifndef PERFTKIT_TABLE_H
#define PERFTKIT_TABLE_H

#include <stdatomic.h>
#include <stddef.h>

#include "../core/core.h"

/* Entries per bucket; override with -DPERFTKIT_BUCKET_ENTRIES=1 (or 2) to measure
 * what the buckets buy (bench/README.md). */
#ifndef PERFTKIT_BUCKET_ENTRIES
#define PERFTKIT_BUCKET_ENTRIES 4
#endif
enum { TABLE_MAX_DEPTH = 32, TABLE_BUCKET_ENTRIES = PERFTKIT_BUCKET_ENTRIES, TABLE_MIN_BUCKETS = 64 };

typedef struct TableEntry {
    _Atomic uint64_t check; /* key.lo ^ count; 0 together with count 0 means empty */
    _Atomic uint64_t count;
} TableEntry;

typedef struct TableBucket {
    _Alignas(16 * TABLE_BUCKET_ENTRIES) TableEntry entry[TABLE_BUCKET_ENTRIES];
} TableBucket;

/* The table of one remaining depth; buckets == NULL when that depth is not hashed. */
typedef struct Table {
    TableBucket *buckets;
    uint64_t bucket_mask; /* bucket count - 1; the count is a power of two */
} Table;

/* What one thread saw of one table during one run. */
typedef struct TableCounters {
    uint64_t probes, hits, stores, replacements;
} TableCounters;

/* The tables of every remaining depth, in one allocation. */
typedef struct TableSet {
    Table by_depth[TABLE_MAX_DEPTH + 1];
    void *memory;
    size_t bytes;
} TableSet;

/* Spreads `bytes` over remaining depths 2, 3, ...: depth 2 (the deepest hashed ply,
 * where most distinct positions are) takes the largest power of two of buckets within
 * two thirds of the memory, depth 3 the same of what is left, and so on while
 * TABLE_MIN_BUCKETS still fit. Depth 1 is never hashed: counting it is cheaper than a
 * cache miss. Huge pages are requested. Returns false, with the reason, when the
 * memory is refused. */
bool table_set_create(TableSet *set, size_t bytes, char *error, size_t error_size);
void table_set_destroy(TableSet *set);

/* Empties every table (for runs that must not profit from earlier ones). */
void table_set_clear(TableSet *set);

/* The table of remaining depth `depth`, or NULL when it is not hashed (or set is NULL). */
static inline const Table *table_for(const TableSet *set, int depth) {
    if (!set || depth > TABLE_MAX_DEPTH || !set->by_depth[depth].buckets)
        return NULL;
    return &set->by_depth[depth];
}

static inline TableBucket *table_bucket(const Table *t, Key128 key) { return &t->buckets[key.hi & t->bucket_mask]; }

/* Starts loading the bucket of `key`, to be probed soon. */
static inline void table_prefetch(const Table *t, Key128 key) { __builtin_prefetch(table_bucket(t, key)); }

/* The stored count of `key`, when there is one. */
static inline bool table_probe(const Table *t, Key128 key, uint64_t *count) {
    TableEntry *e = table_bucket(t, key)->entry;
    for (int i = 0; i < TABLE_BUCKET_ENTRIES; i++) {
        uint64_t n = atomic_load_explicit(&e[i].count, memory_order_relaxed);
        uint64_t check = atomic_load_explicit(&e[i].check, memory_order_relaxed);
        if ((check ^ n) == key.lo) {
            *count = n;
            return true;
        }
    }
    return false;
}

/* Stores the count of `key` by the replacement rule above. */
static inline void table_store(const Table *t, Key128 key, uint64_t count, TableCounters *counters) {
    TableEntry *e = table_bucket(t, key)->entry;
    int victim = 0;
    bool replacing = true;
    uint64_t smallest = UINT64_MAX;
    for (int i = 0; i < TABLE_BUCKET_ENTRIES; i++) {
        uint64_t n = atomic_load_explicit(&e[i].count, memory_order_relaxed);
        uint64_t check = atomic_load_explicit(&e[i].check, memory_order_relaxed);
        if ((check ^ n) == key.lo || (check | n) == 0) {
            victim = i;
            replacing = false;
            break;
        }
        if (n < smallest) {
            smallest = n;
            victim = i;
        }
    }
    counters->stores++;
    counters->replacements += replacing;
    atomic_store_explicit(&e[victim].check, key.lo ^ count, memory_order_relaxed);
    atomic_store_explicit(&e[victim].count, count, memory_order_relaxed);
}

/* The statistics of the table of one ply, as the CIL Toolkit reports them. */
typedef struct PlyStats {
    int ply, remaining;
    uint64_t slots, probes, matches, stores, used, replacements;
} PlyStats;

/* Slots of a table, and how many hold an entry (a scan: call after the run). */
uint64_t table_slots(const Table *t);
uint64_t table_used_slots(const Table *t);

#endif
