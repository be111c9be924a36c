/* test_cmd_bench.c — `perft bench` in-process: --json prints one document on stdout and
 * nothing else, --save and --results store it (and say where), every target and the
 * baseline are checked before the run, the exit status of a wrong count and of a
 * regression, and one-line errors. Workloads are tiny (about 240 thousand leaves). */
#include "cli_support.h"

#include <dirent.h>
#include <jansson.h>
#include <unistd.h>

TestSuite(cmd_bench, .init = core_setup, .timeout = 300);

/* Two positions with known counts (roce_perftsuite.epd, CPW Kiwipete). */
static const char *small_workload(char *path) {
    strcpy(path, "/tmp/perftkit-workload-XXXXXX");
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    dprintf(fd, "# small: a test workload\n4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;id rook ;D4 7059 ;D5 133987\n"
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - ;id kiwipete ;D2 2039 ;D3 97862\n");
    close(fd);
    return path;
}

static char *temporary_folder(char *path) {
    strcpy(path, "/tmp/perftkit-cmd-bench-XXXXXX");
    cr_assert(mkdtemp(path));
    return path;
}

/* The .json files under `folder`; the last one's path in `out`. */
static int json_files(const char *folder, char *out, size_t size) {
    DIR *d = opendir(folder);
    cr_assert(d, "no folder %s", folder);
    int found = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        cr_assert_null(strstr(e->d_name, ".tmp."), "a temporary file was left: %s", e->d_name);
        if (n > 5 && !strcmp(e->d_name + n - 5, ".json")) {
            snprintf(out, size, "%s/%s", folder, e->d_name);
            found++;
        }
    }
    closedir(d);
    return found;
}

static void assert_one_line_error(const CliRun *run, const char *reason) {
    cr_assert_eq(run->status, 2, "exit %d: %s", run->status, run->err);
    cr_assert(strstr(run->err, reason), "said '%s', expected '%s'", run->err, reason);
    cr_assert(!strncmp(run->err, "perft bench: ", 13), "%s", run->err);
    cr_assert_eq(strchr(run->err, '\n'), run->err + strlen(run->err) - 1, "more than one line: %s", run->err);
    cr_assert_str_eq(run->out, "", "nothing ran");
}

Test(cmd_bench, json_prints_one_document_on_stdout_and_nothing_else) {
    char workload[64];
    CliRun run =
        cli_run("bench --workload %s --repeat 2 -t 1 --hash 8 --key-seed 0x2a --json", small_workload(workload));
    unlink(workload);
    cr_assert_eq(run.status, 0, "%s", run.err);
    json_error_t error;
    json_t *doc = json_loads(run.out, 0, &error); /* the whole of stdout, or it fails */
    cr_assert(doc, "stdout is not one JSON document (%s): %s", error.text, run.out);
    cr_assert_eq(json_integer_value(json_object_get(doc, "schema")), 1);
    cr_assert_str_eq(json_string_value(json_object_get(doc, "command")), "bench");
    cr_assert_str_eq(json_string_value(json_object_get(doc, "kind")), "perftkit-bench");
    cr_assert_str_eq(json_string_value(json_object_get(json_object_get(doc, "workload"), "name")), "small");
    json_t *options = json_object_get(doc, "options");
    cr_assert_eq(json_integer_value(json_object_get(options, "threads")), 1);
    cr_assert_eq(json_integer_value(json_object_get(options, "hash_mb")), 8);
    cr_assert_str_eq(json_string_value(json_object_get(options, "key_seed")), "0x2a");
    json_t *setups = json_object_get(doc, "setups");
    cr_assert_eq(json_array_size(setups), 3, "-t 1: one setup per mode");
    /* bulk and hashed 133987 + 97862, full 7059 + 2039 */
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(setups, 0), "leaves")), "231849");
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(setups, 1), "leaves")), "9098");
    json_decref(doc);
    cr_assert(strstr(run.err, "bench: run hashed on 1 thread: "), "progress goes to stderr: %s", run.err);
    cli_run_free(&run);
}

Test(cmd_bench, quiet_text_shows_the_table_and_stores_nothing_unasked) {
    char workload[64], dir[64];
    char *cwd = getcwd(NULL, 0);
    cr_assert_eq(chdir(temporary_folder(dir)), 0);
    CliRun run = cli_run("bench --workload %s --repeat 1 --modes bulk,full -q", small_workload(workload));
    unlink(workload);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert_str_eq(run.err, "", "-q: nothing on stderr");
    cr_assert(strstr(run.out, "perftkit bench: workload small (2 positions), 1 timed runs per setup"), "%s", run.out);
    cr_assert(strstr(run.out, "\nbulk          1         231849 "), "%s", run.out);
    cr_assert(strstr(run.out, "\nfull          1           9098 "), "%s", run.out);
    cr_assert_null(strstr(run.out, "hashed"), "%s", run.out);
    cr_assert_null(strstr(run.out, "result:"), "%s", run.out);
    cr_assert_neq(access("results", F_OK), 0, "no results folder made without --results");
    cr_assert_eq(chdir(cwd), 0);
    free(cwd);
    cli_run_free(&run);
}

Test(cmd_bench, save_and_results_store_the_json_and_say_where) {
    char workload[64], dir[64], file[256], folder[256], stored[512];
    small_workload(workload);
    snprintf(file, sizeof file, "%s/mine.json", temporary_folder(dir));
    CliRun run = cli_run("bench --workload %s --repeat 1 -t 1 --modes bulk -q --save %s --results %s --machine box",
                         workload, file, dir);
    cr_assert_eq(run.status, 0, "%s", run.err);
    snprintf(folder, sizeof folder, "%s/box", dir);
    cr_assert_eq(json_files(folder, stored, sizeof stored), 1);
    char line[700];
    snprintf(line, sizeof line, "result: %s\n", file);
    cr_assert(strstr(run.out, line), "%s", run.out);
    snprintf(line, sizeof line, "result: %s\n", stored);
    cr_assert(strstr(run.out, line), "%s", run.out);
    json_error_t error;
    json_t *doc = json_load_file(file, 0, &error);
    cr_assert(doc, "%s", error.text);
    cr_assert_str_eq(json_string_value(json_object_get(json_object_get(doc, "machine"), "name")), "box");
    json_decref(doc);
    cli_run_free(&run);
    /* Again, with --json: stdout is the document, the stored file's name goes to stderr,
     * and the second result of the day gets -2. */
    run = cli_run("bench --workload %s --repeat 1 -t 1 --modes bulk -q --json --results %s --machine box", workload,
                  dir);
    unlink(workload);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert_eq(json_files(folder, stored, sizeof stored), 2);
    doc = json_loads(run.out, 0, &error);
    cr_assert(doc, "stdout is not one JSON document (%s): %s", error.text, run.out);
    json_decref(doc);
    cr_assert(strstr(run.err, "result: ") && strstr(run.err, "-2.json\n"), "%s", run.err);
    cli_run_free(&run);
}

Test(cmd_bench, unwritable_targets_are_refused_before_the_run) {
    CliRun run = cli_run("bench --results /proc/perftkit-nope");
    assert_one_line_error(&run, "cannot write results under '/proc/perftkit-nope'");
    cli_run_free(&run);
    run = cli_run("bench --json --save /proc/perftkit-nope/result.json");
    assert_one_line_error(&run, "cannot write '/proc/perftkit-nope/result.json'");
    cli_run_free(&run);
}

Test(cmd_bench, a_baseline_is_checked_before_the_run_and_compared_after_it) {
    char workload[64], dir[64], file[256], fast[256], other[64];
    small_workload(workload);
    snprintf(file, sizeof file, "%s/run.json", temporary_folder(dir));
    CliRun run = cli_run("bench --workload %s --repeat 1 -t 1 --modes bulk -q --save %s", workload, file);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cli_run_free(&run);
    /* A baseline a hundred times faster than this machine, whatever runs beside the test. */
    json_error_t error;
    json_t *doc = json_load_file(file, 0, &error);
    cr_assert(doc, "%s", error.text);
    json_t *setup = json_array_get(json_object_get(doc, "setups"), 0);
    json_object_set_new(setup, "median_leaves_per_second",
                        json_real(100 * json_number_value(json_object_get(setup, "median_leaves_per_second"))));
    snprintf(fast, sizeof fast, "%s/fast.json", dir);
    cr_assert_eq(json_dump_file(doc, fast, JSON_INDENT(2)), 0);
    json_decref(doc);
    run = cli_run("bench --workload %s --repeat 1 -t 1 --modes bulk -q --baseline %s --max-regression 10", workload,
                  fast);
    cr_assert_eq(run.status, 1, "a baseline a hundred times faster fails the check: %s %s", run.out, run.err);
    cr_assert(strstr(run.out, "REGRESSION (more than 10% slower)"), "%s", run.out);
    cr_assert(strstr(run.out, "1 setup slower than the baseline by more than 10%"), "%s", run.out);
    cli_run_free(&run);
    run = cli_run("bench --workload %s --repeat 1 -t 1 --modes bulk -q --baseline %s", workload, file);
    cr_assert(run.status == 0 || run.status == 1, "%s", run.err);
    cr_assert(strstr(run.out, "compared with "), "%s", run.out);
    cli_run_free(&run);
    /* Another workload: refused before anything runs. */
    strcpy(other, "/tmp/perftkit-workload-XXXXXX");
    int fd = mkstemp(other);
    dprintf(fd, "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 ;D2 71 ;D3 1287\n");
    close(fd);
    run = cli_run("bench --modes bulk -t 1 --repeat 1 -q --workload %s --baseline %s", other, fast);
    unlink(other);
    unlink(workload);
    assert_one_line_error(&run, "not comparable");
    cli_run_free(&run);
    run = cli_run("bench --baseline %s/nothing.json", dir);
    assert_one_line_error(&run, "cannot read baseline '");
    cli_run_free(&run);
}

Test(cmd_bench, a_wrong_count_fails_with_exit_status_1) {
    char path[] = "/tmp/perftkit-workload-XXXXXX";
    int fd = mkstemp(path);
    dprintf(fd, "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;id planted ;D3 1197 ;D4 7060\n");
    close(fd);
    CliRun run = cli_run("bench --workload %s --repeat 1 -q", path);
    unlink(path);
    cr_assert_eq(run.status, 1, "%s", run.err);
    cr_assert_str_eq(run.err, "perft bench: wrong count for planted in bulk mode on 1 threads at depth 4: "
                              "expected 7060, got 7059\n");
    cli_run_free(&run);
}

Test(cmd_bench, bad_input_gets_one_line_and_exit_status_2) {
    static const struct {
        const char *args, *reason;
    } cases[] = {
        {"bench --repeat 0", "--repeat 0 is out of range 1..100"},
        {"bench --modes bulk,frobs", "--modes: 'frobs' is not bulk, full or hashed"},
        {"bench --hash 0", "--hash 0 leaves the hashed mode without tables"},
        {"bench -t 0", "--threads 0 is out of range 1..1024"},
        {"bench --machine ../up", "--machine '../up' must be a plain folder name"},
        {"bench --max-regression 100", "--max-regression 100 is out of range 0..99"},
        {"bench --workload /nonexistent/w.epd", "cannot read '/nonexistent/w.epd'"},
        {"bench --frobnicate", "unknown option '--frobnicate'"},
        {"bench extra", "unexpected argument 'extra'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CliRun run = cli_run("%s", cases[i].args);
        assert_one_line_error(&run, cases[i].reason);
        cli_run_free(&run);
    }
    CliRun run = cli_run("bench --machine 'a\x01/b'");
    assert_one_line_error(&run, "--machine 'a\\x01/b'");
    cli_run_free(&run);
}

Test(cmd_bench, fingerprint_prints_the_machine_as_text_or_json) {
    CliRun run = cli_run("bench --fingerprint --machine box");
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert(!strncmp(run.out, "box\ncpu: ", 9), "%s", run.out);
    cr_assert(strstr(run.out, "\nperftkit: "), "%s", run.out);
    cli_run_free(&run);
    run = cli_run("bench --fingerprint --json");
    cr_assert_eq(run.status, 0, "%s", run.err);
    json_error_t error;
    json_t *doc = json_loads(run.out, 0, &error);
    cr_assert(doc, "%s: %s", error.text, run.out);
    cr_assert_str_eq(json_string_value(json_object_get(doc, "kind")), "perftkit-fingerprint");
    cr_assert(json_integer_value(json_object_get(json_object_get(doc, "machine"), "cores")) >= 1);
    cr_assert(json_string_value(json_object_get(json_object_get(doc, "build"), "commit")));
    json_decref(doc);
    cli_run_free(&run);
}

Test(cmd_bench, help_says_which_option_writes_where) {
    CliRun run = cli_run("bench --help");
    cr_assert_eq(run.status, 0);
    cr_assert(strstr(run.out, "usage: perft bench [OPTIONS]"), "%s", run.out);
    cr_assert(strstr(run.out, "--json             one JSON document on stdout"), "%s", run.out);
    cr_assert(strstr(run.out, "--save FILE        also store the result's JSON in FILE"), "%s", run.out);
    cr_assert(strstr(run.out, "--results DIR      also store the result's JSON in DIR/MACHINE/DATE-COMMIT.json"),
              "%s", run.out);
    cr_assert(strstr(run.out, "--hash MB          tables of the hashed mode (default 64)"), "%s", run.out);
    cr_assert(strstr(run.out, "  -t, --threads N"), "%s", run.out);
    cr_assert(strstr(run.out, "--key-seed N"), "%s", run.out);
    cli_run_free(&run);
}
