/* table.h — fixed-length hash tables of perft subtree counts, one per remaining depth
 * (so within one run, one per ply), shared by all threads without locks.
 *
 * Three kinds of entry, by remaining depth. At depth 2, where most distinct positions
 * are, an entry is one 64-bit word: the count in its low 16 bits (perft(2) < 218^2 <
 * 2^16 in every legal position) and the high 48 bits of key.lo as the check, so the
 * table holds twice the positions of wide entries and a read can never be torn. The
 * price is the check: a probe of an absent position matches one of a bucket's eight
 * entries by chance at a rate of 8 x 2^-48 = 2^-45 (about one in 3.5e13 probes; perft
 * 10 makes some 1e9 such probes), where a 16-byte entry checks all 64 bits of key.lo
 * (4 x 2^-64). Record runs therefore verify with a second key set (--verify). At depth
 * 3 an entry is a word too, tagged: the count in 24 bits (perft(3) < 218^3 < 2^24), the
 * high 40 bits of key.lo above it, and the next 9 bits of key.lo in the entry's tag, in
 * the bucket's last word (seven tags of 9 bits). So 49 bits are checked (a chance match
 * at 7 x 2^-49 = 2^-46 a probe) and the table holds 1.75 times the positions of wide
 * entries: deep runs (perft 11 and up) outgrow their depth-3 tables, and each depth-3
 * miss costs some thirty depth-2 probes. An entry and its tag are two words; a reader
 * who sees them from different writes compares another key's tag, so reads a miss (or
 * the true count, when the entry is its own key's). Deeper, an entry is 16 bytes:
 * `check` = key.lo XOR count, and `count`, written and read as two separate relaxed
 * 64-bit atomics, so a reader may see halves of two different writes (a torn entry);
 * then check XOR count is not the probing key, and the entry reads as a miss. The
 * bucket comes from key.hi, in a table of several 2 MiB regions from an address of the
 * side to move's men and key.hi (table_key), by multiply-shift (so a table may have any
 * number of buckets), and the check from key.lo, so no key.lo bit picks a bucket. A
 * torn entry can therefore never yield a wrong count.
 *
 * A bucket is one 64-byte cache line: eight narrow, seven tagged or four wide entries. A store
 * replaces the entry of the same key, else an empty entry, else the entry table_victim
 * picks, in effect at random (table_victim says why). Tables are keyed by the full position,
 * including castling rooks, so they stay valid across runs, depths and root positions
 * and are never cleared. */
#ifndef PERFTKIT_TABLE_H
#define PERFTKIT_TABLE_H

#include <stdatomic.h>
#include <stddef.h>

#include "../core/core.h"

/* Wide entries per bucket; override with -DPERFTKIT_BUCKET_ENTRIES=1 (or 2) to measure
 * what the buckets buy (bench/README.md). Narrow buckets hold twice as many. */
#ifndef PERFTKIT_BUCKET_ENTRIES
#define PERFTKIT_BUCKET_ENTRIES 4
#endif
enum {
    TABLE_MAX_DEPTH = 32,
    TABLE_BUCKET_ENTRIES = PERFTKIT_BUCKET_ENTRIES,
    TABLE_NARROW_ENTRIES = 2 * PERFTKIT_BUCKET_ENTRIES,
    TABLE_NARROW_DEPTH = 2,     /* narrow entries of a 16-bit count */
    TABLE_NARROW_COUNT_BITS = 16,
    TABLE_TAGGED_DEPTH = 3,     /* tagged narrow entries of a 24-bit count */
    TABLE_TAGGED_COUNT_BITS = 24, /* perft(3) < 218^3 < 2^24 in every legal position */
    TABLE_MIN_BUCKETS = 64,
    TABLE_REGION_BUCKETS = 32768, /* 2 MiB: one huge page */
};

typedef struct TableEntry {
    _Atomic uint64_t check; /* key.lo ^ count; 0 together with count 0 means empty */
    _Atomic uint64_t count;
} TableEntry;

typedef struct TableBucket {
    _Alignas(16 * TABLE_BUCKET_ENTRIES) TableEntry entry[TABLE_BUCKET_ENTRIES];
} TableBucket;

/* A bucket of narrow entries: check bits above, count below; 0 means empty (a stored
 * check is never 0). */
typedef struct NarrowBucket {
    _Alignas(16 * TABLE_BUCKET_ENTRIES) _Atomic uint64_t word[TABLE_NARROW_ENTRIES];
} NarrowBucket;

/* The table of one remaining depth; buckets == NULL when that depth is not hashed. */
typedef struct Table {
    void *buckets;       /* TableBucket[], or NarrowBucket[] when count_bits > 0 */
    uint64_t bucket_count;
    int count_bits;      /* narrow entries: bits of the count; 0: wide entries */
    int tag_bits;        /* tagged narrow entries: bits of each entry's tag in the bucket's
                            last word; 0: untagged */
    int region_bits;     /* the table has 2^region_bits regions of TABLE_REGION_BUCKETS to
                            twice that (table_key); 0 in a table smaller than two */
} Table;

/* What one thread saw of one table during one run. */
typedef struct TableCounters {
    uint64_t probes, hits, stores, replacements;
} TableCounters;

/* Adds one thread's counters of `depths` depths (rows 0 .. depths - 1) into `sum`. */
void table_counters_add(TableCounters *sum, const TableCounters *add, int depths);

/* `bytes` rounded up to whole huge pages (a region, TABLE_REGION_BUCKETS buckets): the
 * length of a set's memory in the reserved pool, whether private or shared. */
static inline size_t table_huge_page_round(size_t bytes) {
    const size_t page = (size_t)TABLE_REGION_BUCKETS * sizeof(TableBucket);
    return (bytes + page - 1) / page * page;
}

/* Where a set's memory came from. */
typedef enum TableMemory {
    TABLE_MEMORY_NONE,        /* not mapped: no depth is hashed */
    TABLE_MEMORY_ORDINARY,    /* private, transparent huge pages asked for */
    TABLE_MEMORY_POOL,        /* private, from the reserved huge-page pool */
    TABLE_MEMORY_SHARED,      /* shared with other processes (table_set_adopt) */
    TABLE_MEMORY_SHARED_POOL, /* shared, in pages of the reserved pool */
} TableMemory;

/* The tables of every remaining depth, in one allocation laid out from depth 2 up. */
typedef struct TableSet {
    Table by_depth[TABLE_MAX_DEPTH + 1];
    void *memory;
    size_t span;  /* bytes the tables take */
    size_t bytes; /* bytes mapped: span, rounded up to whole huge pages from the pool */
    TableMemory kind;
} TableSet;

/* Spreads `bytes` over remaining depths 2, 3, ...: depth 2 (the deepest hashed ply,
 * where most distinct positions are) takes half the memory, depth 3 half of what is
 * left, and so on while TABLE_MIN_BUCKETS still fit. Not more to depth 2: once a run
 * outgrows its tables, a depth-3 entry saves a node's every probe and count, a depth-2
 * entry one count (bench/README.md: halves ran 8-17% faster than two thirds on an
 * overfull run, the same on one that fits). Depth 1 is never hashed: counting it is
 * cheaper than a cache miss. The memory comes from the reserved huge-page pool when it
 * has room for all of it, else huge pages are requested. Returns false, with the reason,
 * when the memory is refused. */
bool table_set_create(TableSet *set, size_t bytes, char *error, size_t error_size);
void table_set_destroy(TableSet *set);

/* Entries in one bucket of the table of remaining depth `depth` (2 or more). */
int table_entries_per_bucket(int depth);

/* Lays an EMPTY set out again in the same span for a run whose table of remaining depth
 * k wants want[k] buckets: from depth 3 up each table gets its want once all of them
 * fit in half the span or less, and depth 2 the rest; where they do not fit, each depth
 * still takes at least half of what is left, as table_set_create lays them out (on an
 * overfull run, a depth-3 entry saves a node's every probe, a depth-2 entry one count).
 * A set whose tables hold anything must be cleared first. */
void table_set_fit(TableSet *set, const uint64_t want[TABLE_MAX_DEPTH + 1]);

/* Gives the set's memory back and keeps its layout: no depth is hashed until
 * table_set_map or table_set_adopt places the tables again (empty). */
void table_set_unmap(TableSet *set);

/* Maps private memory for an unmapped set's layout, as table_set_create does. */
bool table_set_map(TableSet *set, char *error, size_t error_size);

/* Moves a set's tables (empty) to `memory`: `bytes` (at least set->span) of zeroed
 * memory mapped by the caller, in pages of the reserved pool when `pool` — a mapping
 * other processes share: the tables are lockless, so they may. The set's own memory is
 * unmapped; the new memory is the set's, unmapped on destroy. */
void table_set_adopt(TableSet *set, void *memory, size_t bytes, bool pool);

/* Where the memory of a set of kind `kind` lives, in words ("reserved huge pages"). */
const char *table_memory_name(TableMemory kind);

/* Empties every table (for runs that must not profit from earlier ones). */
void table_set_clear(TableSet *set);

/* The table of remaining depth `depth`, or NULL when it is not hashed (or set is NULL). */
static inline const Table *table_for(const TableSet *set, int depth) {
    if (!set || depth > TABLE_MAX_DEPTH || !set->by_depth[depth].buckets)
        return NULL;
    return &set->by_depth[depth];
}

/* How many regions (a power of two) the positions that share one set of men of the
 * side to move spread over, by the number of those men: the fewer the men, the fewer
 * their sets (a lone king has 64), so the wider each spreads, for every region to
 * fill. From five men on, one region. */
static inline int table_region_spread_bits(int men) { return men >= 5 ? 0 : 10 - 3 * (men - 1); }

/* The key a position is stored under in table `t`: key.lo as it is (the check), and in
 * place of key.hi an address whose top bits (the region, 2 to 4 MiB of buckets) come
 * from the men of the side to move and whose lower bits from key.hi. Siblings (the
 * children of one node) differ only in the men of the side that just moved, so,
 * captures aside, they share a region instead of landing on thirty random pages: on a
 * virtual machine a random probe misses the TLB and costs a nested page walk, which
 * stalls even a prefetch (bench/README.md). A table of few regions keeps key.hi. */
static inline Key128 table_key(const Table *t, Key128 key, Bitboard side_men) {
    int shift = t->region_bits - table_region_spread_bits(bb_count(side_men));
    if (shift <= 0)
        return key;
    uint64_t men = (side_men ^ (side_men >> 31)) * 0x9E3779B97F4A7C15ULL;
    men = (men ^ (men >> 29)) * 0xBF58476D1CE4E5B9ULL;
    return (Key128){key.lo, men + (key.hi >> shift)};
}

/* The bucket of `key`: key.hi scaled onto the bucket count. */
static inline uint64_t table_index(const Table *t, Key128 key) {
    return (uint64_t)(__extension__((unsigned __int128)key.hi * t->bucket_count) >> 64);
}

static inline TableBucket *table_bucket(const Table *t, Key128 key) {
    return &((TableBucket *)t->buckets)[table_index(t, key)];
}

static inline NarrowBucket *table_narrow_bucket(const Table *t, Key128 key) {
    return &((NarrowBucket *)t->buckets)[table_index(t, key)];
}

/* The check bits of `key` in a narrow table: never 0, so 0 stays "empty". */
static inline uint64_t table_narrow_check(const Table *t, Key128 key) {
    uint64_t check = key.lo >> t->count_bits << t->count_bits;
    return check ? check : (uint64_t)1 << t->count_bits;
}

/* Entries of a narrow bucket: a tagged one gives its last word to the tags. */
static inline int table_narrow_entries(const Table *t) {
    return t->tag_bits ? TABLE_NARROW_ENTRIES - 1 : TABLE_NARROW_ENTRIES;
}

/* The tag of `key` in a tagged table: the key.lo bits just below the check's. */
static inline uint64_t table_tag(const Table *t, Key128 key) {
    return key.lo >> (t->count_bits - t->tag_bits) & (((uint64_t)1 << t->tag_bits) - 1);
}

/* The tag of entry `slot` in tag word `tags`. */
static inline uint64_t table_tag_of(const Table *t, uint64_t tags, int slot) {
    return tags >> (slot * t->tag_bits) & (((uint64_t)1 << t->tag_bits) - 1);
}

/* Starts loading the bucket of `key`, to be probed soon. */
static inline void table_prefetch(const Table *t, Key128 key) { __builtin_prefetch(table_bucket(t, key)); }

/* The stored count of `key` in a tagged table: its entry's check and its tag must
 * both match. A reader may see an entry and a tag of different writes; then the tag
 * is another key's, and the entry reads as a miss (or, when the entry is the probing
 * key's own, as its true count). */
static inline bool table_probe_tagged(const Table *t, Key128 key, uint64_t *count) {
    _Atomic uint64_t *w = table_narrow_bucket(t, key)->word;
    uint64_t check = table_narrow_check(t, key), mask = ((uint64_t)1 << t->count_bits) - 1;
    for (int i = 0; i < TABLE_NARROW_ENTRIES - 1; i++) {
        uint64_t word = atomic_load_explicit(&w[i], memory_order_relaxed);
        if ((word & ~mask) == check &&
            table_tag_of(t, atomic_load_explicit(&w[TABLE_NARROW_ENTRIES - 1], memory_order_relaxed), i) ==
                table_tag(t, key)) {
            *count = word & mask;
            return true;
        }
    }
    return false;
}

/* The stored count of `key`, when there is one. */
static inline bool table_probe(const Table *t, Key128 key, uint64_t *count) {
    if (t->tag_bits)
        return table_probe_tagged(t, key, count);
    if (t->count_bits) {
        _Atomic uint64_t *w = table_narrow_bucket(t, key)->word;
        uint64_t check = table_narrow_check(t, key), mask = ((uint64_t)1 << t->count_bits) - 1;
        for (int i = 0; i < TABLE_NARROW_ENTRIES; i++) {
            uint64_t word = atomic_load_explicit(&w[i], memory_order_relaxed);
            if ((word & ~mask) == check) {
                *count = word & mask;
                return true;
            }
        }
        return false;
    }
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

/* The entry a store of `key` replaces in a full bucket of `entries`: one picked by
 * key.lo modulo the entries (for eight or four, low bits no narrow check holds), so in
 * effect at random. An overfull
 * table then keeps what was stored lately, where the depth-first walk finds its
 * transpositions; keeping the largest counts instead left stale entries in the slots
 * (bench/README.md: 10-15% more misses at two plies above the leaves). */
static inline int table_victim(Key128 key, int entries) { return (int)(key.lo % (uint64_t)entries); }

/* Stores `count` in a narrow table of `entries` a bucket (it must fit count_bits).
 * In a tagged table the entry goes first, then its tag, which shares a word with the
 * other entries' tags, so it is swapped in whole. (Untagged, every tag reads as 0.) */
static inline void table_store_narrow(const Table *t, Key128 key, uint64_t count, int entries,
                                      TableCounters *counters) {
    _Atomic uint64_t *w = table_narrow_bucket(t, key)->word, *tags = &w[TABLE_NARROW_ENTRIES - 1];
    uint64_t check = table_narrow_check(t, key), mask = ((uint64_t)1 << t->count_bits) - 1, tag = table_tag(t, key);
    uint64_t old = t->tag_bits ? atomic_load_explicit(tags, memory_order_relaxed) : 0;
    int victim = table_victim(key, entries);
    bool replacing = true;
    for (int i = 0; i < entries; i++) {
        uint64_t word = atomic_load_explicit(&w[i], memory_order_relaxed);
        if (word == 0 || ((word & ~mask) == check && table_tag_of(t, old, i) == tag)) {
            victim = i;
            replacing = false;
            break;
        }
    }
    counters->stores++;
    counters->replacements += replacing;
    atomic_store_explicit(&w[victim], check | count, memory_order_relaxed);
    if (!t->tag_bits)
        return;
    int shift = victim * t->tag_bits;
    uint64_t field = (((uint64_t)1 << t->tag_bits) - 1) << shift;
    while ((old & field) != tag << shift &&
           !atomic_compare_exchange_weak_explicit(tags, &old, (old & ~field) | tag << shift, memory_order_relaxed,
                                                  memory_order_relaxed)) {
    }
}

/* Stores the count of `key` by the replacement rule above; a count too large for a
 * narrow entry (impossible in a legal position) is not stored. */
static inline void table_store(const Table *t, Key128 key, uint64_t count, TableCounters *counters) {
    if (t->count_bits) {
        if (count >> t->count_bits != 0)
            return;
        if (t->tag_bits)
            table_store_narrow(t, key, count, TABLE_NARROW_ENTRIES - 1, counters);
        else
            table_store_narrow(t, key, count, TABLE_NARROW_ENTRIES, counters);
        return;
    }
    TableEntry *e = table_bucket(t, key)->entry;
    int victim = table_victim(key, TABLE_BUCKET_ENTRIES);
    bool replacing = true;
    for (int i = 0; i < TABLE_BUCKET_ENTRIES; i++) {
        uint64_t n = atomic_load_explicit(&e[i].count, memory_order_relaxed);
        uint64_t check = atomic_load_explicit(&e[i].check, memory_order_relaxed);
        if ((check ^ n) == key.lo || (check | n) == 0) {
            victim = i;
            replacing = false;
            break;
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

/* Slots (entries) of a table, and how many hold an entry (a scan: call after the run). */
uint64_t table_slots(const Table *t);
uint64_t table_used_slots(const Table *t);

#endif
