/* support.h — what the test files share: start-up, positions from FEN, the location
 * of the suites, and running a shell command. Small static helpers only. */
#ifndef PERFTKIT_TEST_SUPPORT_H
#define PERFTKIT_TEST_SUPPORT_H

#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/wait.h>

#include "core.h"

static void core_setup(void) { core_init(); }

/* True when `text` begins with the whole of `prefix`. */
static bool starts_with(const char *text, const char *prefix) { return !strncmp(text, prefix, strlen(prefix)); }

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

/* How many times slower than a release build this one counts (PERFTKIT_SLOWDOWN, set by
 * the ThreadSanitizer stage of scripts/test.sh), for bounds on the time a given amount of
 * counting takes. */
static double slowdown(void) { return (double)env_number("PERFTKIT_SLOWDOWN", 1); }

/* What a shell command printed (stdout, truncated to fit) and its exit status. */
typedef struct Run {
    int status;
    char out[1 << 17];
} Run;

/* Runs the printf-formatted shell command; -1 status when it did not exit normally.
 * Built in static storage, as the buffer is too big for every caller's frame twice. */
static Run run_command(const char *format, ...) __attribute__((format(printf, 1, 2)));
static Run run_command(const char *format, ...) {
    char command[8192];
    va_list args;
    va_start(args, format);
    int length = vsnprintf(command, sizeof command, format, args);
    va_end(args);
    cr_assert(length >= 0 && (size_t)length < sizeof command, "command too long: %s", command);
    FILE *pipe = popen(command, "r");
    cr_assert(pipe, "cannot run: %s", command);
    static Run run;
    size_t n = fread(run.out, 1, sizeof run.out - 1, pipe);
    run.out[n] = '\0';
    int status = pclose(pipe);
    run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return run;
}

#endif
