/* support.h — what the test files share: start-up, positions from FEN, and the
 * location of the suites. Small static helpers only. */
#ifndef PERFTKIT_TEST_SUPPORT_H
#define PERFTKIT_TEST_SUPPORT_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

static void core_setup(void) { core_init(); }

/* The position of `fen`, which the test expects to be valid. */
static Position position_of(const char *fen, bool chess960) {
    Position pos;
    char error[FEN_ERROR_SIZE];
    cr_assert(fen_parse(&pos, fen, chess960, error, sizeof error), "rejected valid FEN '%s': %s", fen, error);
    return pos;
}

/* The path of a file in the project's suites/ folder. */
static const char *suite_path(const char *name, char *out, size_t size) {
    const char *dir = getenv("PERFTKIT_SUITES");
    cr_assert(dir, "PERFTKIT_SUITES is not set (run the tests through meson test)");
    snprintf(out, size, "%s/%s", dir, name);
    return out;
}

/* A whole number from the environment, or `fallback`. */
static unsigned long long env_number(const char *name, unsigned long long fallback) {
    const char *text = getenv(name);
    return text && *text ? strtoull(text, NULL, 10) : fallback;
}

#endif
