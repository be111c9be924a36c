/* pool.h — the machine's pool of reserved huge pages (vm.nr_hugepages) for the tests
 * that need one: raised by a test (root only: skipped elsewhere) and given back by its
 * .fini. The pool is the machine's, so such tests run alone (meson: is_parallel false)
 * and one at a time. */
#ifndef PERFTKIT_TEST_POOL_H
#define PERFTKIT_TEST_POOL_H

#include "support.h"

#define POOL_PATH "/proc/sys/vm/nr_hugepages"

/* The pool's size before a test raised it, or -1 when the test left it alone. */
static long pool_before = -1;

static long pool_pages(void) {
    FILE *f = fopen(POOL_PATH, "r");
    long value = -1;
    if (f) {
        if (fscanf(f, "%ld", &value) != 1)
            value = -1;
        fclose(f);
    }
    return value;
}

static bool pool_set(long pages) {
    FILE *f = fopen(POOL_PATH, "w");
    if (!f)
        return false;
    bool ok = fprintf(f, "%ld\n", pages) > 0;
    return fclose(f) == 0 && ok;
}

/* Raises the pool by `pages` 2 MiB pages, or skips the test where it cannot. */
static void pool_raise(long pages) {
    long before = pool_pages();
    if (before < 0 || !pool_set(before + pages)) {
        cr_skip_test("cannot reserve huge pages here (%s needs root and hugetlbfs)", POOL_PATH);
        return;
    }
    pool_before = before;
    cr_assert_eq(pool_pages(), before + pages, "the kernel reserved fewer huge pages (memory fragmented?)");
}

/* A .fini: the pool back to its size before pool_raise. */
static void pool_give_back(void) {
    if (pool_before >= 0)
        pool_set(pool_before);
    pool_before = -1;
}

#endif
