/* test_mpi_pool.c — perft-mpi's ranks on one machine share one set of tables, in the
 * reserved huge-page pool when it has room for one set (even though each rank's own
 * tables took pool pages first), else in /dev/shm; counts exact either way. It raises
 * the machine's pool (vm.nr_hugepages, root only; skipped elsewhere), so it runs alone
 * and gives back what it reserved; its tests run one at a time (CRITERION_JOBS=1). */
#include "pool.h"

TestSuite(mpi_pool, .init = core_setup, .timeout = 300);

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

Test(mpi_pool, two_ranks_share_one_set_in_a_pool_that_holds_one, .fini = pool_give_back) {
    /* 64 MB of tables are 32 pages: the first rank's own tables take them, the second
     * rank's do not fit beside them, and the shared set must get them back. */
    pool_raise(40);
    expect_tables_in("shared reserved huge pages");
}

Test(mpi_pool, a_short_pool_leaves_the_shared_set_in_dev_shm, .fini = pool_give_back) {
    pool_raise(8);
    expect_tables_in("shared memory");
}
