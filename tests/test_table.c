/* test_table.c — where the tables' memory comes from: the kernel's pool of reserved
 * huge pages when it has room (vm.nr_hugepages; counts exact there), ordinary memory
 * with transparent huge pages otherwise. The pool is the machine's, so this program
 * runs alone (meson: is_parallel false), one test at a time, and gives back what it
 * reserved (pool.h). */
#include "pool.h"

#include <stdint.h>

#include "../perft/driver.h"

TestSuite(table, .init = core_setup, .timeout = 300);

/* The kernel page size, in kB, of the mapping that holds `address` (/proc/self/smaps),
 * or 0 when no mapping holds it. */
static long page_kb_at(const void *address) {
    FILE *f = fopen("/proc/self/smaps", "r");
    cr_assert(f, "cannot read /proc/self/smaps");
    char line[512];
    bool inside = false;
    long kb = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long low, high;
        if (sscanf(line, "%lx-%lx ", &low, &high) == 2) {
            inside = (uintptr_t)address >= low && (uintptr_t)address < high;
            continue;
        }
        if (inside && sscanf(line, "KernelPageSize: %ld kB", &kb) == 1)
            break;
    }
    fclose(f);
    return kb;
}

/* Start position perft 6 and Kiwipete perft 4 on 2 threads with the driver's tables. */
static void counts_exact(Driver *driver) {
    static const struct {
        const char *fen;
        int depth;
        uint64_t nodes;
    } cases[] = {
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, 119060324},
        {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", 4, 4085603},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Position pos = position_of(cases[i].fen, false);
        RunReport run;
        driver_run(driver, &pos, cases[i].depth, NULL, NULL, &run);
        cr_assert(run.complete, "%s", run_status_text(run.status));
        cr_assert_eq((uint64_t)run.total, cases[i].nodes, "%s depth %d: got %llu", cases[i].fen, cases[i].depth,
                     (unsigned long long)run.total);
    }
}

Test(table, takes_reserved_huge_pages_when_the_pool_has_room, .fini = pool_give_back) {
    pool_make_free(64);
    Driver driver;
    char error[160];
    cr_assert(driver_create(&driver, 2, (size_t)64 << 20, error, sizeof error), "%s", error);
    cr_assert_eq(page_kb_at(driver.tables.memory), 2048, "the tables are not in the reserved 2 MiB pages");
    counts_exact(&driver);
    driver_destroy(&driver);
}

Test(table, falls_back_to_ordinary_memory_when_the_pool_is_short) {
    long free_pages = meminfo("HugePages_Free");
    size_t bytes = (size_t)((free_pages > 0 ? free_pages : 0) + 32) << 21; /* more than the pool holds */
    Driver driver;
    char error[160];
    cr_assert(driver_create(&driver, 2, bytes, error, sizeof error), "%s", error);
    cr_assert_eq(page_kb_at(driver.tables.memory), 4, "tables outside the pool are mapped in 4 KiB pages "
                                                      "(transparent huge pages come on top)");
    counts_exact(&driver);
    driver_destroy(&driver);
}
