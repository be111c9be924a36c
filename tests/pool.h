/* pool.h — the machine's pool of reserved huge pages (vm.nr_hugepages) for the tests
 * that need a known number of free pages in it: sized by a test (root only: skipped
 * elsewhere) and given back by its .fini. The pool is the machine's, so such tests run
 * alone (meson: is_parallel false) and one at a time. */
#ifndef PERFTKIT_TEST_POOL_H
#define PERFTKIT_TEST_POOL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* A line of /proc/meminfo, such as "HugePages_Free", or -1. */
static long meminfo(const char *field) {
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    long value = -1;
    size_t n = strlen(field);
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, field, n) && line[n] == ':')
            value = strtol(line + n + 1, NULL, 10);
    if (f)
        fclose(f);
    return value;
}

static long pool_free_pages(void) { return meminfo("HugePages_Free"); }

/* Sizes the pool so that exactly `pages` 2 MiB pages of it are free, whatever the
 * machine had reserved before (pages in use stay), or skips the test where it cannot;
 * nothing is changed when exactly that many are free already. */
static void pool_make_free(long pages) {
    long before = pool_pages(), free_pages = pool_free_pages();
    if (free_pages == pages)
        return;
    if (before < 0 || free_pages < 0 || !pool_set(before - free_pages + pages)) {
        cr_skip_test("cannot size the pool of huge pages here (%s needs root and hugetlbfs)", POOL_PATH);
        return;
    }
    pool_before = before;
    long now_free = pool_free_pages();
    cr_assert_eq(now_free, pages, "the pool has %ld free huge pages, not %ld (memory fragmented?)", now_free, pages);
}

/* A .fini: the pool back to its size before pool_make_free. */
static void pool_give_back(void) {
    if (pool_before >= 0)
        pool_set(pool_before);
    pool_before = -1;
}

#endif
