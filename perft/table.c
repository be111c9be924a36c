/* table.c — laying out, allocating and scanning the tables. The memory comes from
 * mmap, so it starts zeroed (every entry empty) and costs nothing until touched; huge
 * pages cut the TLB misses of random probes. */
#include "table.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

/* The table of `buckets` at `depth`, unplaced: narrow entries at depth 2, tagged ones
 * at depth 3 (their tags share the bucket's last word, at most as wide as the count,
 * since they are key bits the count's place leaves out of the check), wide deeper. */
static Table table_layout(int depth, uint64_t buckets) {
    Table t = {.bucket_count = buckets};
    if (depth == TABLE_NARROW_DEPTH) {
        t.count_bits = TABLE_NARROW_COUNT_BITS;
    } else if (depth == TABLE_TAGGED_DEPTH) {
        t.count_bits = TABLE_TAGGED_COUNT_BITS;
        t.tag_bits = 63 / (TABLE_NARROW_ENTRIES - 1);
        t.tag_bits = t.tag_bits > t.count_bits ? t.count_bits : t.tag_bits;
    }
    return t;
}

/* The region bits of a table of `buckets` (table_key): the most regions of at least
 * TABLE_REGION_BUCKETS each. */
static int region_bits(uint64_t buckets) {
    int r = 0;
    while (buckets >> (r + 1) >= TABLE_REGION_BUCKETS)
        r++;
    return r;
}

/* `*length` bytes (rounded up to whole huge pages) from the kernel's pool of reserved
 * huge pages (vm.nr_hugepages), or NULL when the pool has too few free. Pool pages are
 * never handed back to the system when a run ends, so on a virtual machine whose host
 * takes freed memory back (free page reporting) the next run does not pay the host's
 * faults again: up to a quarter of a perft 9 with 4 GiB (bench/README.md). Without
 * MAP_NORESERVE the pages are reserved at once, so a short pool fails here, never later. */
static void *map_reserved_huge_pages(size_t *length) {
#ifdef MAP_HUGETLB
    size_t rounded = table_huge_page_round(*length);
    void *memory = mmap(NULL, rounded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
    if (memory != MAP_FAILED) {
        *length = rounded;
        return memory;
    }
#else
    (void)length;
#endif
    return NULL;
}

/* Lays the tables out in `memory`, depth 2 first, each the size the layout gave it. */
static void place(TableSet *set, void *memory) {
    TableBucket *next = memory;
    for (int depth = 2; depth <= TABLE_MAX_DEPTH && set->by_depth[depth].bucket_count; depth++) {
        set->by_depth[depth].buckets = next;
        next += set->by_depth[depth].bucket_count;
    }
    set->memory = memory;
}

/* Lays out `budget` buckets from depth 2 up. Depth k takes half of what is left, or
 * more when the deeper depths' wanted buckets (want, NULL: unknown) leave it more: all
 * but those, so that once every table's want fits, the shallower ones get their want
 * and depth 2, where most distinct positions are, the rest. Returns the buckets laid out. */
static uint64_t lay_out(TableSet *set, uint64_t budget, const uint64_t want[TABLE_MAX_DEPTH + 1]) {
    uint64_t total = 0;
    for (int depth = 2; depth <= TABLE_MAX_DEPTH; depth++) {
        uint64_t left = budget - total, n = left / 2;
        if (want) {
            uint64_t rest = 0;
            for (int deeper = depth + 1; deeper <= TABLE_MAX_DEPTH && rest < left; deeper++)
                rest += want[deeper];
            n = rest < left && left - rest > n ? left - rest : n;
        }
        if (n < TABLE_MIN_BUCKETS)
            break;
        set->by_depth[depth] = table_layout(depth, n);
        set->by_depth[depth].region_bits = region_bits(n);
        total += n;
    }
    return total;
}

bool table_set_create(TableSet *set, size_t bytes, char *error, size_t error_size) {
    memset(set, 0, sizeof *set);
    _Static_assert(sizeof(TableBucket) == sizeof(NarrowBucket), "one bucket size for both kinds");
    uint64_t total = lay_out(set, bytes / sizeof(TableBucket), NULL);
    set->span = (size_t)total * sizeof(TableBucket);
    return total == 0 || table_set_map(set, error, error_size); /* no room for a table: counting runs unhashed */
}

int table_entries_per_bucket(int depth) {
    Table t = table_layout(depth, 1);
    return t.tag_bits ? TABLE_NARROW_ENTRIES - 1 : t.count_bits ? TABLE_NARROW_ENTRIES : TABLE_BUCKET_ENTRIES;
}

void table_set_fit(TableSet *set, const uint64_t want[TABLE_MAX_DEPTH + 1]) {
    if (set->span == 0)
        return;
    for (int depth = 0; depth <= TABLE_MAX_DEPTH; depth++)
        set->by_depth[depth] = (Table){0};
    lay_out(set, set->span / sizeof(TableBucket), want);
    if (set->memory)
        place(set, set->memory);
}

bool table_set_map(TableSet *set, char *error, size_t error_size) {
    size_t length = set->span;
    void *memory = map_reserved_huge_pages(&length);
    TableMemory kind = TABLE_MEMORY_POOL;
    if (!memory) {
        memory = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (memory == MAP_FAILED) {
            snprintf(error, error_size, "cannot allocate %zu MB of hash tables: %s", length >> 20, strerror(errno));
            return false;
        }
#ifdef MADV_HUGEPAGE
        madvise(memory, length, MADV_HUGEPAGE);
#endif
        kind = TABLE_MEMORY_ORDINARY;
    }
    set->kind = kind;
    set->bytes = length;
    place(set, memory);
    return true;
}

void table_set_unmap(TableSet *set) {
    if (set->memory)
        munmap(set->memory, set->bytes);
    for (int depth = 0; depth <= TABLE_MAX_DEPTH; depth++)
        set->by_depth[depth].buckets = NULL;
    set->memory = NULL;
    set->bytes = 0;
    set->kind = TABLE_MEMORY_NONE;
}

void table_set_adopt(TableSet *set, void *memory, size_t bytes, bool pool) {
    table_set_unmap(set);
#ifdef MADV_HUGEPAGE
    if (!pool)
        madvise(memory, bytes, MADV_HUGEPAGE);
#endif
    set->bytes = bytes;
    set->kind = pool ? TABLE_MEMORY_SHARED_POOL : TABLE_MEMORY_SHARED;
    place(set, memory);
}

void table_set_destroy(TableSet *set) {
    table_set_unmap(set);
    memset(set, 0, sizeof *set);
}

const char *table_memory_name(TableMemory kind) {
    switch (kind) {
    case TABLE_MEMORY_ORDINARY: return "ordinary memory";
    case TABLE_MEMORY_POOL: return "reserved huge pages";
    case TABLE_MEMORY_SHARED: return "shared memory";
    case TABLE_MEMORY_SHARED_POOL: return "shared reserved huge pages";
    default: return "none";
    }
}

void table_set_clear(TableSet *set) {
    if (set->memory)
        memset(set->memory, 0, set->bytes);
}

uint64_t table_slots(const Table *t) {
    return t->buckets ? t->bucket_count * (uint64_t)(t->count_bits ? table_narrow_entries(t) : TABLE_BUCKET_ENTRIES)
                      : 0;
}

uint64_t table_used_slots(const Table *t) {
    uint64_t used = 0;
    for (uint64_t b = 0; t->buckets && b < t->bucket_count; b++)
        if (t->count_bits) {
            const NarrowBucket *n = &((const NarrowBucket *)t->buckets)[b];
            for (int i = 0; i < table_narrow_entries(t); i++)
                used += atomic_load_explicit(&n->word[i], memory_order_relaxed) != 0;
        } else {
            const TableBucket *w = &((const TableBucket *)t->buckets)[b];
            for (int i = 0; i < TABLE_BUCKET_ENTRIES; i++)
                used += (atomic_load_explicit(&w->entry[i].check, memory_order_relaxed)
                         | atomic_load_explicit(&w->entry[i].count, memory_order_relaxed)) != 0;
        }
    return used;
}

void table_counters_add(TableCounters *sum, const TableCounters *add, int depths) {
    for (int d = 0; d < depths; d++) {
        sum[d].probes += add[d].probes;
        sum[d].hits += add[d].hits;
        sum[d].stores += add[d].stores;
        sum[d].replacements += add[d].replacements;
    }
}
