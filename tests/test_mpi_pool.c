/* test_mpi_pool.c — perft-mpi's ranks on one machine share one set of tables, in the
 * reserved huge-page pool when it has room for one set (even though each rank's own
 * tables took pool pages first), else in /dev/shm; counts exact either way. It raises
 * the machine's pool (vm.nr_hugepages, root only; skipped elsewhere), so it runs alone
 * and gives back what it reserved; its tests run one at a time (CRITERION_JOBS=1). */
#include "support.h"

#define POOL_PATH "/proc/sys/vm/nr_hugepages"

TestSuite(mpi_pool, .init = core_setup, .timeout = 300);

static long pool_before = -1;

static long read_pool(void) {
    FILE *f = fopen(POOL_PATH, "r");
    long value = -1;
    if (f) {
        if (fscanf(f, "%ld", &value) != 1)
            value = -1;
        fclose(f);
    }
    return value;
}

static bool write_pool(long pages) {
    FILE *f = fopen(POOL_PATH, "w");
    if (!f)
        return false;
    bool ok = fprintf(f, "%ld\n", pages) > 0;
    return fclose(f) == 0 && ok;
}

static void give_back_pool(void) {
    if (pool_before >= 0)
        write_pool(pool_before);
    pool_before = -1;
}

/* Raises the pool by `pages` free 2 MiB pages, or skips the test where it cannot. */
static void reserve(long pages) {
    long before = read_pool();
    if (before < 0 || !write_pool(before + pages)) {
        cr_skip_test("cannot reserve huge pages here (%s needs root and hugetlbfs)", POOL_PATH);
        return;
    }
    pool_before = before;
    cr_assert_eq(read_pool(), before + pages, "the kernel reserved fewer huge pages (memory fragmented?)");
}

/* `mpirun -np 2 perft-mpi count -d 6 --hash 64 --json`: exact, and where its tables were. */
static void expect_tables_in(const char *where) {
    Run r = run_command("%s --allow-run-as-root --oversubscribe -np 2 %s count -d 6 -t 1 --hash 64 --json 2>&1",
                        getenv("PERFTKIT_MPIRUN"), getenv("PERFTKIT_MPI_BIN"));
    cr_assert_eq(r.status, 0, "exit %d:\n%s", r.status, r.out);
    cr_expect(strstr(r.out, "\"total\": \"119060324\""), "%s", r.out);
    char field[96];
    snprintf(field, sizeof field, "\"table_memory\": \"%s\"", where);
    cr_expect(strstr(r.out, field), "expected %s in:\n%s", field, r.out);
}

Test(mpi_pool, two_ranks_share_one_set_in_a_pool_that_holds_one, .fini = give_back_pool) {
    /* 64 MB of tables are 32 pages: the first rank's own tables take them, the second
     * rank's do not fit beside them, and the shared set must get them back. */
    reserve(40);
    expect_tables_in("shared reserved huge pages");
}

Test(mpi_pool, a_short_pool_leaves_the_shared_set_in_dev_shm, .fini = give_back_pool) {
    reserve(8);
    expect_tables_in("shared memory");
}
