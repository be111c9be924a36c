/* test_suites.c — every public suite in suites/ through `perft suite`, as users run it
 * (threads, tables kept from position to position), with TAP output parsed here: every
 * count up to PERFTKIT_MAX_NODES (default 1,000,000) must be a passing test point, and
 * the points must be exactly the counts of the file in that window. */
#include "support.h"

#include <sys/wait.h>

#include "../suites/epd.h"
#include "../suites/suite.h"

TestSuite(suites, .init = core_setup, .timeout = 3600);

/* The counts of a suite file at or below `max_nodes`, read with the library. */
static int counts_in_window(const char *path, unsigned long long max_nodes) {
    SuiteReader reader;
    char error[EPD_ERROR_SIZE + 64];
    cr_assert(suite_open(&reader, path, error, sizeof error), "%s", error);
    EpdRecord record;
    int line, counts = 0;
    SuiteItem item;
    while ((item = suite_next(&reader, &record, &line, error, sizeof error)) != SUITE_END) {
        cr_assert_eq(item, SUITE_RECORD, "%s: %s", path, error);
        for (int i = 0; i < record.expectation_count; i++)
            counts += record.expect[i].nodes <= max_nodes;
    }
    suite_close(&reader);
    return counts;
}

static void run_suite(const char *name) {
    unsigned long long max_nodes = env_number("PERFTKIT_MAX_NODES", 1000000);
    char path[1024], command[2048], line[4096];
    suite_path(name, path, sizeof path);
    snprintf(command, sizeof command, "'%s' suite --tap --max-known %llu '%s'", getenv("PERFTKIT_BIN"), max_nodes, path);
    FILE *pipe = popen(command, "r");
    cr_assert(pipe);
    int ok = 0, not_ok = 0, plan = -1, skipped = 0;
    while (fgets(line, sizeof line, pipe)) {
        if (!strncmp(line, "ok ", 3)) {
            ok++;
            skipped += strstr(line, "# SKIP") != NULL;
        } else if (!strncmp(line, "not ok ", 7)) {
            not_ok++;
            cr_expect_fail("%s: %s", name, line);
        } else if (!strncmp(line, "1..", 3)) {
            plan = atoi(line + 3);
        }
    }
    int status = pclose(pipe);
    int expected = counts_in_window(path, max_nodes);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "perft suite exited %d on %s", status, name);
    cr_assert_eq(not_ok, 0);
    cr_assert_eq(plan, ok + not_ok, "%s: the TAP plan must match the test points", name);
    /* Positions with no count in the window show as one skipped point each. */
    cr_assert_eq(ok - skipped, expected, "%s: %d passing points for %d counts up to %llu nodes", name, ok - skipped,
                 expected, max_nodes);
    cr_log_info("%s: %d counts up to %llu nodes passed", name, expected, max_nodes);
}

Test(suites, cpw_perft_results_pass) { run_suite("cpw_perft_results.epd"); }
Test(suites, roce_perftsuite_passes) { run_suite("roce_perftsuite.epd"); }
Test(suites, ethereal_standard_passes) { run_suite("ethereal_standard.epd"); }
Test(suites, ethereal_fischer960_passes) { run_suite("ethereal_fischer960.epd"); }
Test(suites, kervinck_random_positions_pass) { run_suite("kervinck_perft_random.epd"); }
Test(suites, pychess_tricky_passes) { run_suite("pychess_tricky.epd"); }
Test(suites, pychess_tricky_960_passes) { run_suite("pychess_tricky_960.epd"); }
Test(suites, peterellisjones_gist_passes) { run_suite("peterellisjones_gist.epd"); }
Test(suites, stockfish_perft_sh_passes) { run_suite("stockfish_perft_sh.epd"); }
Test(suites, stockfish_perft_sh_960_passes) { run_suite("stockfish_perft_sh_960.epd"); }
Test(suites, quick_selection_passes) { run_suite("quick.epd"); }
