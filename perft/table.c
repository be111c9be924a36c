/* table.c — laying out, allocating and scanning the tables. The memory comes from
 * mmap, so it starts zeroed (every entry empty) and costs nothing until touched; huge
 * pages cut the TLB misses of random probes. */
#include "table.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

/* Bits of the count in a narrow entry at `depth`, 0 where entries are wide. */
static int narrow_count_bits(int depth) { return depth == TABLE_NARROW_DEPTH ? TABLE_NARROW_COUNT_BITS : 0; }

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
    const size_t huge = (size_t)TABLE_REGION_BUCKETS * sizeof(TableBucket);
    size_t rounded = (*length + huge - 1) / huge * huge;
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

bool table_set_create(TableSet *set, size_t bytes, char *error, size_t error_size) {
    memset(set, 0, sizeof *set);
    _Static_assert(sizeof(TableBucket) == sizeof(NarrowBucket), "one bucket size for both kinds");
    uint64_t budget = bytes / sizeof(TableBucket), total = 0;
    uint64_t buckets[TABLE_MAX_DEPTH + 1] = {0};
    for (int depth = 2; depth <= TABLE_MAX_DEPTH; depth++) {
        uint64_t n = (budget - total) / 2;
        if (n < TABLE_MIN_BUCKETS)
            break;
        buckets[depth] = n;
        total += n;
    }
    if (total == 0)
        return true; /* too little memory for any table: counting runs unhashed */
    size_t length = (size_t)total * sizeof(TableBucket);
    void *memory = map_reserved_huge_pages(&length);
    if (!memory) {
        memory = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (memory == MAP_FAILED) {
            snprintf(error, error_size, "cannot allocate %zu MB of hash tables: %s", length >> 20, strerror(errno));
            return false;
        }
#ifdef MADV_HUGEPAGE
        madvise(memory, length, MADV_HUGEPAGE);
#endif
    }
    TableBucket *next = memory;
    for (int depth = 2; depth <= TABLE_MAX_DEPTH && buckets[depth]; depth++) {
        set->by_depth[depth] = (Table){next, buckets[depth], narrow_count_bits(depth), region_bits(buckets[depth])};
        next += buckets[depth];
    }
    set->memory = memory;
    set->bytes = length;
    return true;
}

void table_set_adopt(TableSet *set, void *memory) {
    for (int depth = 0; depth <= TABLE_MAX_DEPTH; depth++)
        if (set->by_depth[depth].buckets)
            set->by_depth[depth].buckets =
                (char *)memory + ((char *)set->by_depth[depth].buckets - (char *)set->memory);
    if (set->memory && !set->adopted)
        munmap(set->memory, set->bytes);
#ifdef MADV_HUGEPAGE
    madvise(memory, set->bytes, MADV_HUGEPAGE);
#endif
    set->memory = memory;
    set->adopted = true;
}

void table_set_destroy(TableSet *set) {
    if (set->memory)
        munmap(set->memory, set->bytes);
    memset(set, 0, sizeof *set);
}

void table_set_clear(TableSet *set) {
    if (set->memory)
        memset(set->memory, 0, set->bytes);
}

uint64_t table_slots(const Table *t) {
    return t->buckets ? t->bucket_count * (t->count_bits ? TABLE_NARROW_ENTRIES : TABLE_BUCKET_ENTRIES) : 0;
}

uint64_t table_used_slots(const Table *t) {
    uint64_t used = 0;
    for (uint64_t b = 0; t->buckets && b < t->bucket_count; b++)
        if (t->count_bits) {
            const NarrowBucket *n = &((const NarrowBucket *)t->buckets)[b];
            for (int i = 0; i < TABLE_NARROW_ENTRIES; i++)
                used += atomic_load_explicit(&n->word[i], memory_order_relaxed) != 0;
        } else {
            const TableBucket *w = &((const TableBucket *)t->buckets)[b];
            for (int i = 0; i < TABLE_BUCKET_ENTRIES; i++)
                used += (atomic_load_explicit(&w->entry[i].check, memory_order_relaxed)
                         | atomic_load_explicit(&w->entry[i].count, memory_order_relaxed)) != 0;
        }
    return used;
}
