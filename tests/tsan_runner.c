/* tsan_runner.c — runs Criterion test programs under ThreadSanitizer, in place of
 * libcriterion. Criterion's runner cannot start under TSan: its sandbox (BoxFort) maps an
 * arena at fixed addresses that fall in the ranges TSan reserves for its shadow memory
 * ("Could not initialize inheritable arena", Criterion issue #274). The test files stay
 * as they are: their Test() and TestSuite() records sit in the sections cr_tst and
 * cr_sts, and this file supplies the few functions their assertions call. Each test runs
 * in a child process of its own, as under Criterion; the parent never starts a thread, so
 * forking is safe under TSan. A TSan report ends the child with TSan's exit code, which
 * fails the test. Only the TSan build links it (tests/meson.build). */
#define _GNU_SOURCE /* vasprintf */
#include <criterion/criterion.h>
#include <criterion/logging.h>

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { SKIPPED = 77 }; /* a child's exit status: the test skipped itself */

struct criterion_options criterion_options; /* all off: asserts are reported only when they fail */

/* The linker's bounds of the two sections; weak, as a program without TestSuite() has
 * no cr_sts section (both bounds are then NULL). */
extern struct criterion_test *__start_cr_tst[] __attribute__((weak)), *__stop_cr_tst[] __attribute__((weak));
extern struct criterion_suite *__start_cr_sts[] __attribute__((weak)), *__stop_cr_sts[] __attribute__((weak));

static const struct criterion_test *current;        /* the test this child runs */
static const struct criterion_suite *current_suite; /* its TestSuite, or NULL */
static bool expectation_failed;                     /* a cr_expect failed: the test fails at its end */

int cr_asprintf(char **strp, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    int n = vasprintf(strp, fmt, args);
    va_end(args);
    if (n < 0)
        *strp = NULL;
    return n;
}

void cr_asprintf_free(char *buf) { free(buf); }

char *cr_translate_assert_msg(int msg_index, ...) {
    va_list args;
    va_start(args, msg_index);
    const char *expression = msg_index == CRITERION_ASSERT_MSG_EXPR_FALSE ? va_arg(args, const char *) : NULL;
    va_end(args);
    char *text = NULL;
    if (expression)
        cr_asprintf(&text, "The expression %s is false.", expression);
    else
        cr_asprintf(&text, "The assertion failed (message %d).", msg_index);
    return text;
}

void cri_asserts_passed_incr(void) {}

void criterion_send_assert(struct criterion_assert_stats *stats) {
    if (!stats->passed) {
        fprintf(stderr, "%s:%u: Assertion failed: %s\n", stats->file, stats->line, stats->message ? stats->message : "");
        expectation_failed = true;
    }
}

void criterion_abort_test(void) {
    fflush(NULL);
    _exit(1);
}

void criterion_continue_test(void) {}

void criterion_skip_test(const char *format, ...) {
    va_list args;
    va_start(args, format);
    fprintf(stderr, "skipped: ");
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    fflush(NULL);
    _exit(SKIPPED);
}

void criterion_test_die(const char *msg, ...) {
    va_list args;
    va_start(args, msg);
    vfprintf(stderr, msg, args);
    fputc('\n', stderr);
    va_end(args);
    fflush(NULL);
    _exit(1);
}

void cr_log(enum criterion_severity severity, const char *msg, ...) {
    (void)severity;
    va_list args;
    va_start(args, msg);
    vfprintf(stderr, msg, args);
    fputc('\n', stderr);
    va_end(args);
}

void criterion_internal_test_setup(void) {
    if (current_suite && current_suite->data && current_suite->data->init)
        current_suite->data->init();
    if (current->data->init)
        current->data->init();
}

void criterion_internal_test_main(void (*fn)(void)) { fn(); }

void criterion_internal_test_teardown(void) {
    if (current->data->fini)
        current->data->fini();
    if (current_suite && current_suite->data && current_suite->data->fini)
        current_suite->data->fini();
}

static const struct criterion_suite *suite_of(const struct criterion_test *test) {
    for (struct criterion_suite **s = __start_cr_sts; s < __stop_cr_sts; s++)
        if (*s && !strcmp((*s)->name, test->category))
            return *s;
    return NULL;
}

static double seconds_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Runs one test in a child; 0 passed, 1 failed, 2 skipped. */
static int run_one(const struct criterion_test *test) {
    const struct criterion_suite *suite = suite_of(test);
    if (test->data->disabled || (suite && suite->data && suite->data->disabled))
        return 2;
    double timeout = test->data->timeout > 0 ? test->data->timeout : suite && suite->data ? suite->data->timeout : 0;
    fflush(NULL);
    pid_t child = fork();
    if (child < 0) {
        perror("fork");
        return 1;
    }
    if (child == 0) {
        current = test;
        current_suite = suite;
        if (timeout > 0)
            alarm((unsigned)(timeout * 4) + 1); /* the sanitizer slows the tests down */
        test->test();
        fflush(NULL);
        exit(expectation_failed ? 1 : 0);
    }
    int status;
    while (waitpid(child, &status, 0) < 0)
        ;
    if (WIFEXITED(status) && WEXITSTATUS(status) == SKIPPED)
        return 2;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    if (WIFSIGNALED(status))
        fprintf(stderr, "%s::%s: killed by signal %d (%s)\n", test->category, test->name, WTERMSIG(status),
                strsignal(WTERMSIG(status)));
    else
        fprintf(stderr, "%s::%s: exit status %d\n", test->category, test->name, WEXITSTATUS(status));
    return 1;
}

int main(void) {
    int counts[3] = {0, 0, 0};
    for (struct criterion_test **t = __start_cr_tst; t < __stop_cr_tst; t++) {
        if (!*t)
            continue;
        double start = seconds_now();
        int outcome = run_one(*t);
        counts[outcome]++;
        fprintf(stderr, "[%s] %s::%s: (%.2fs)\n", outcome == 0 ? "PASS" : outcome == 1 ? "FAIL" : "SKIP",
                (*t)->category, (*t)->name, seconds_now() - start);
    }
    fprintf(stderr, "[====] Synthesis: Tested: %d | Passing: %d | Failing: %d | Skipped: %d (under ThreadSanitizer)\n",
            counts[0] + counts[1], counts[0], counts[1], counts[2]);
    return counts[1] ? 1 : 0;
}
