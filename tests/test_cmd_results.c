/* test_cmd_results.c — `perft results` in-process: the table and the page from stored
 * results, a corrupt file named (quoted) on one line of stderr and passed over, the
 * page options, and one-line errors. The stored results come from `perft bench` on a
 * tiny workload. */
#include "cli_support.h"

#include <unistd.h>

TestSuite(cmd_results, .init = core_setup, .timeout = 300);

/* DIR with results of machines alpha and beta, a hyperfine-like JSON and a corrupt file. */
static void stored_results(char *dir) {
    char workload[] = "/tmp/perftkit-workload-XXXXXX";
    int fd = mkstemp(workload);
    dprintf(fd, "# tiny: a test workload\n4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;id rook ;D3 1197 ;D4 7059\n");
    close(fd);
    strcpy(dir, "/tmp/perftkit-cmd-results-XXXXXX");
    cr_assert(mkdtemp(dir));
    for (int i = 0; i < 2; i++) {
        CliRun run = cli_run("bench --workload %s --repeat 1 -q --results %s --machine %s", workload, dir,
                             i ? "beta" : "alpha");
        cr_assert_eq(run.status, 0, "%s", run.err);
        cli_run_free(&run);
    }
    unlink(workload);
    char path[256];
    snprintf(path, sizeof path, "%s/beta/hyperfine-export.json", dir);
    FILE *f = fopen(path, "w");
    fputs("{\"results\": []}\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/corrupt.json", dir);
    f = fopen(path, "w");
    fputs("{\"kind\": \"perftkit-bench\",\n\x1b[31m", f);
    fclose(f);
}

Test(cmd_results, compares_stored_runs_and_writes_the_page) {
    char dir[64], page[128];
    stored_results(dir);
    CliRun run = cli_run("results %s --reference alpha", dir);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert(strstr(run.out, "2 results under "), "%s", run.out);
    cr_assert(strstr(run.out, "(and 1 other JSON file passed over)"), "%s", run.out);
    cr_assert(strstr(run.out, "ratio to alpha"), "%s", run.out);
    cr_assert(strstr(run.out, "\nalpha ") && strstr(run.out, "\nbeta "), "%s", run.out);
    cr_assert(strstr(run.out, "(1.00x)"), "%s", run.out);
    snprintf(page, sizeof page, "page: %s/index.html\n", dir);
    cr_assert(strstr(run.out, page), "%s", run.out);
    snprintf(page, sizeof page, "%s/index.html", dir);
    cr_assert_eq(access(page, R_OK), 0);
    /* The corrupt file: one line, its name quoted, the escape byte shown as \x1B. */
    cr_assert(!strncmp(run.err, "perft results: '", 16), "%s", run.err);
    cr_assert(strstr(run.err, "/corrupt.json' is not JSON: "), "%s", run.err);
    cr_assert(strstr(run.err, "\\x1B"), "%s", run.err);
    cr_assert_null(strchr(run.err, '\x1b'), "no raw escape byte reaches the terminal");
    cr_assert_eq(strchr(run.err, '\n'), run.err + strlen(run.err) - 1, "more than one line: %s", run.err);
    cli_run_free(&run);
}

Test(cmd_results, page_options_choose_where_or_whether) {
    char dir[64], page[128];
    stored_results(dir);
    snprintf(page, sizeof page, "%s/elsewhere.html", dir);
    CliRun run = cli_run("results %s --html %s", dir, page);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert_eq(access(page, R_OK), 0);
    cli_run_free(&run);
    snprintf(page, sizeof page, "%s/index.html", dir);
    run = cli_run("results %s --no-html", dir);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert_null(strstr(run.out, "page: "), "%s", run.out);
    cr_assert_neq(access(page, F_OK), 0, "--no-html writes no page");
    cli_run_free(&run);
}

static void assert_one_line_error(const CliRun *run, const char *reason) {
    cr_assert_eq(run->status, 2, "exit %d: %s", run->status, run->err);
    cr_assert(strstr(run->err, reason), "said '%s', expected '%s'", run->err, reason);
    cr_assert(!strncmp(run->err, "perft results: ", 15), "%s", run->err);
    cr_assert_eq(strchr(run->err, '\n'), run->err + strlen(run->err) - 1, "more than one line: %s", run->err);
}

Test(cmd_results, bad_input_gets_one_line_and_exit_status_2) {
    char dir[64], empty[64], args[256];
    stored_results(dir);
    CliRun run = cli_run("results %s --reference nobody --no-html", dir);
    cr_assert_eq(run.status, 2);
    cr_assert(strstr(run.err, "perft results: --reference: no result of machine 'nobody' under '"), "%s", run.err);
    cli_run_free(&run);
    strcpy(empty, "/tmp/perftkit-cmd-results-XXXXXX");
    cr_assert(mkdtemp(empty));
    run = cli_run("results %s", empty);
    assert_one_line_error(&run, "no perft bench result under '");
    cr_assert(strstr(run.err, "(perft bench --results DIR stores one)"), "%s", run.err);
    cli_run_free(&run);
    run = cli_run("results /nonexistent/perftkit");
    assert_one_line_error(&run, "cannot read '/nonexistent/perftkit': No such file or directory");
    cli_run_free(&run);
    run = cli_run("results %s --no-html --html x.html", dir);
    assert_one_line_error(&run, "--html and --no-html both given");
    cli_run_free(&run);
    run = cli_run("results %s %s", dir, empty);
    assert_one_line_error(&run, "unexpected argument '");
    cli_run_free(&run);
    snprintf(args, sizeof args, "results %s --html /proc/perftkit-nope/index.html", dir);
    run = cli_run("%s", args);
    cr_assert_eq(run.status, 2, "%s", run.err);
    cr_assert(strstr(run.err, "perft results: cannot write '/proc/perftkit-nope/index.html'"), "%s", run.err);
    cli_run_free(&run);
}

Test(cmd_results, help_comes_from_the_option_table) {
    CliRun run = cli_run("results --help");
    cr_assert_eq(run.status, 0);
    cr_assert(strstr(run.out, "usage: perft results [OPTIONS] [DIR]"), "%s", run.out);
    cr_assert(strstr(run.out, "--reference MACHINE"), "%s", run.out);
    cr_assert(strstr(run.out, "--no-html          the table only"), "%s", run.out);
    cli_run_free(&run);
}
