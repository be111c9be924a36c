/* test_mpi_pool.c — perft-mpi's ranks on one machine share one set of tables, in the
 * reserved huge-page pool when it has room for one set (even though each rank's own
 * tables took pool pages first), else in /dev/shm, where large tables get a note when
 * /dev/shm gives them small pages; counts exact either way. It sizes the machine's pool
 * (vm.nr_hugepages, root only; skipped elsewhere) to a known number of free pages, so
 * it runs alone and gives the pool back as it found it; its tests run one at a time
 * (CRITERION_JOBS=1). */
#include "pool.h"

TestSuite(mpi_pool, .init = core_setup, .timeout = 300);

/* `mpirun -np 2 perft-mpi ARGS`, stdout and stderr together. */
static Run two_ranks(const char *args) {
    const char *mpirun = getenv("PERFTKIT_MPIRUN"), *mpi_bin = getenv("PERFTKIT_MPI_BIN");
    cr_assert(mpirun && mpi_bin, "PERFTKIT_MPIRUN and PERFTKIT_MPI_BIN are not set (run the tests through meson test)");
    return run_command("%s --allow-run-as-root --oversubscribe -np 2 %s %s 2>&1", mpirun, mpi_bin, args);
}

/* `mpirun -np 2 perft-mpi count -d 6 --hash 64 --json`: exact, and where its tables were. */
static void expect_tables_in(const char *where) {
    Run r = two_ranks("count -d 6 -t 1 --hash 64 --json");
    cr_assert_eq(r.status, 0, "exit %d:\n%s", r.status, r.out);
    cr_expect(strstr(r.out, "\"total\": \"119060324\""), "%s", r.out);
    char field[96];
    snprintf(field, sizeof field, "\"table_memory\": \"%s\"", where);
    cr_expect(strstr(r.out, field), "expected %s in:\n%s", field, r.out);
}

Test(mpi_pool, two_ranks_share_one_set_in_a_pool_that_holds_one, .fini = pool_give_back) {
    /* 64 MB of tables are 32 pages: the first rank's own tables take them, the second
     * rank's do not fit beside them, and the shared set must get them back. */
    pool_make_free(40);
    expect_tables_in("shared reserved huge pages");
}

Test(mpi_pool, a_short_pool_leaves_the_shared_set_in_dev_shm, .fini = pool_give_back) {
    pool_make_free(8);
    expect_tables_in("shared memory");
}

/* Whether this machine's /dev/shm is mounted with huge pages (tmpfs's huge= option). */
static bool dev_shm_has_huge_pages(void) {
    Run r = run_command("awk '$2 == \"/dev/shm\" { print $4 }' /proc/self/mounts");
    return strstr(r.out, "huge=") && !strstr(r.out, "huge=never");
}

Test(mpi_pool, large_shared_tables_say_when_dev_shm_gives_them_small_pages, .fini = pool_give_back) {
    pool_make_free(0); /* a 600 MB set in /dev/shm, not in the pool */
    Run r = two_ranks("count -q -d 4 -t 1 --hash 600");
    cr_assert_eq(r.status, 0, "%s", r.out);
    cr_expect(strstr(r.out, "197281\n"), "%s", r.out);
    const char *note = "perft-mpi: /dev/shm gives the shared tables 4 KiB pages";
    if (dev_shm_has_huge_pages())
        cr_expect(!strstr(r.out, note), "/dev/shm has huge pages, yet: %s", r.out);
    else
        cr_expect(strstr(r.out, note) && strstr(r.out, "mount -o remount,huge=advise /dev/shm"), "%s", r.out);
    Run small = two_ranks("count -q -d 4 -t 1 --hash 64");
    cr_expect_str_eq(small.out, "197281\n", "tables under 512 MB say nothing");
}
