/* test_bench.c — the benchmark and the stored results: the built-in workload's counts,
 * a run's JSON (written whole, in the documented shape), a wrong count failing the run,
 * the baseline check failing on a planted slowdown, `perft results` comparing stored
 * results, its page checked in a real headless browser, and the hyperfine export. */
#include "support.h"

#include <dirent.h>
#include <jansson.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../bench/bench.h"
#include "../perft/driver.h"

TestSuite(bench, .init = core_setup, .timeout = 900);

/* A workload of two positions with known counts (roce_perftsuite.epd, CPW Kiwipete):
 * about 4 million leaves, milliseconds, so that timing jitter stays small. */
static const char *tiny_workload(char *path) {
    strcpy(path, "/tmp/perftkit-workload-XXXXXX");
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fputs("# tiny: a test workload\n4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;id rook ;D4 7059 ;D5 133987\n"
          "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - ;id kiwipete ;D3 97862 ;D4 4085603\n",
          f);
    fclose(f);
    return path;
}

static char *temporary_folder(char *path) {
    strcpy(path, "/tmp/perftkit-results-XXXXXX");
    cr_assert(mkdtemp(path));
    return path;
}

/* The one .json file under dir/machine, or "" when there is not exactly one. */
static const char *stored_result(const char *dir, const char *machine, char *out, size_t size) {
    char folder[1024];
    snprintf(folder, sizeof folder, "%s/%s", dir, machine);
    DIR *d = opendir(folder);
    cr_assert(d, "no folder %s", folder);
    int found = 0;
    out[0] = '\0';
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        cr_assert_null(strstr(e->d_name, ".tmp."), "a temporary file was left: %s", e->d_name);
        if (n > 5 && !strcmp(e->d_name + n - 5, ".json")) {
            snprintf(out, size, "%s/%s", folder, e->d_name);
            found++;
        }
    }
    closedir(d);
    cr_assert_eq(found, 1);
    return out;
}

Test(bench, the_built_in_workload_has_its_counts_right) {
    char path[1024], error[256];
    BenchWorkload *w = malloc(sizeof *w);
    cr_assert(bench_load_workload_file(w, suite_path("bench.epd", path, sizeof path), error, sizeof error), "%s",
              error);
    cr_assert_str_eq(w->name, "bench-v1");
    cr_assert_eq(w->count, 12);
    Driver driver;
    cr_assert(driver_create(&driver, 2, 16 << 20, error, sizeof error));
    for (int i = 0; i < w->count; i++) { /* the full-mode depth: about 16 million leaves each */
        Position pos = position_of(w->positions[i].fen, false);
        RunReport run;
        driver_run(&driver, &pos, w->positions[i].full_depth, NULL, NULL, &run);
        cr_assert(run.total == w->positions[i].full_nodes, "%s depth %d", w->positions[i].id, w->positions[i].full_depth);
        cr_assert_eq(w->positions[i].depth, w->positions[i].full_depth + 1);
    }
    driver_destroy(&driver);
    free(w);
}

Test(bench, a_run_stores_one_whole_json_result) {
    char workload[64], dir[64], file[2048];
    Run run = run_command("'%s' bench --workload %s --repeat 2 --json --results %s --machine testbox -q 2>&1",
                        getenv("PERFTKIT_BIN"), tiny_workload(workload), temporary_folder(dir));
    cr_assert_eq(run.status, 0, "%s", run.out);
    cr_assert(strstr(run.out, "workload tiny (2 positions)"), "%s", run.out);
    static const char *const rows[] = {"bulk          1", "full          1", "hashed        1"};
    for (int i = 0; i < 3; i++)
        cr_assert(strstr(run.out, rows[i]), "no %s row: %s", rows[i], run.out);
    json_error_t error;
    json_t *doc = json_load_file(stored_result(dir, "testbox", file, sizeof file), 0, &error);
    cr_assert(doc, "%s", error.text);
    cr_assert_eq(json_integer_value(json_object_get(doc, "schema")), 1);
    cr_assert_str_eq(json_string_value(json_object_get(doc, "kind")), "perftkit-bench");
    json_t *workload_doc = json_object_get(doc, "workload");
    cr_assert_str_eq(json_string_value(json_object_get(workload_doc, "name")), "tiny");
    cr_assert_eq(json_integer_value(json_object_get(workload_doc, "positions")), 2);
    json_t *machine = json_object_get(doc, "machine");
    cr_assert_str_eq(json_string_value(json_object_get(machine, "name")), "testbox");
    cr_assert(json_integer_value(json_object_get(machine, "cores")) >= 1);
    cr_assert(json_is_boolean(json_object_get(json_object_get(machine, "flags"), "bmi2")));
    json_t *build = json_object_get(doc, "build");
    cr_assert(json_string_value(json_object_get(build, "commit")));
    cr_assert(strstr(json_string_value(json_object_get(build, "options")), "pext="));
    json_t *setups = json_object_get(doc, "setups");
    cr_assert_geq(json_array_size(setups), 3);
    size_t i;
    json_t *s;
    json_array_foreach(setups, i, s) {
        const char *mode = json_string_value(json_object_get(s, "mode"));
        /* Known counts: bulk and hashed 133987 + 4085603, full 7059 + 97862. */
        cr_assert_str_eq(json_string_value(json_object_get(s, "leaves")), !strcmp(mode, "full") ? "104921" : "4219590");
        cr_assert_eq(json_array_size(json_object_get(s, "seconds")), 2);
        double median = json_number_value(json_object_get(s, "median_leaves_per_second"));
        cr_assert(json_number_value(json_object_get(s, "min_leaves_per_second")) <= median);
        cr_assert(json_number_value(json_object_get(s, "max_leaves_per_second")) >= median);
    }
    json_decref(doc);
}

Test(bench, a_wrong_count_fails_the_benchmark) {
    char path[] = "/tmp/perftkit-workload-XXXXXX";
    int fd = mkstemp(path);
    dprintf(fd, "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;id planted ;D3 1197 ;D4 7060\n");
    close(fd);
    Run run = run_command("'%s' bench --workload %s --repeat 1 -q 2>&1", getenv("PERFTKIT_BIN"), path);
    unlink(path);
    cr_assert_eq(run.status, 1, "%s", run.out);
    cr_assert(strstr(run.out, "wrong count for planted in bulk mode on 1 threads at depth 4: expected 7060, got 7059"),
              "%s", run.out);
}

/* Rewrites the medians of a stored result multiplied by `factor`, into `out`. */
static void planted_baseline(const char *from, const char *out, double factor) {
    json_error_t error;
    json_t *doc = json_load_file(from, 0, &error);
    cr_assert(doc, "%s", error.text);
    size_t i;
    json_t *s;
    json_array_foreach(json_object_get(doc, "setups"), i, s) {
        double median = json_number_value(json_object_get(s, "median_leaves_per_second"));
        json_object_set_new(s, "median_leaves_per_second", json_real(median * factor));
    }
    cr_assert_eq(json_dump_file(doc, out, JSON_INDENT(2)), 0);
    json_decref(doc);
}

Test(bench, the_baseline_check_fails_on_a_planted_slowdown) {
    char workload[64], dir[64], file[2048], fast[2100], slow[2100];
    const char *bin = getenv("PERFTKIT_BIN");
    Run run = run_command("'%s' bench --workload %s --repeat 3 --modes bulk -t 1 --json --results %s --machine box -q",
                        bin, tiny_workload(workload), temporary_folder(dir));
    cr_assert_eq(run.status, 0, "%s", run.out);
    stored_result(dir, "box", file, sizeof file);
    /* Speeds are not asserted: a baseline a hundred times faster or slower than this
     * machine is, whatever else runs beside the test. */
    snprintf(fast, sizeof fast, "%s/hundred-times-faster.json", dir);
    snprintf(slow, sizeof slow, "%s/hundred-times-slower.json", dir);
    planted_baseline(file, fast, 100);
    planted_baseline(file, slow, 0.01);
    run = run_command("'%s' bench --workload %s --repeat 3 --modes bulk -t 1 --baseline %s --max-regression 10 -q", bin,
                    workload, fast);
    cr_assert_eq(run.status, 1, "a baseline a hundred times faster must fail the check: %s", run.out);
    cr_assert(strstr(run.out, "REGRESSION (more than 10% slower)"), "%s", run.out);
    run = run_command("'%s' bench --workload %s --repeat 3 --modes bulk -t 1 --baseline %s --max-regression 10 -q", bin,
                    workload, slow);
    cr_assert_eq(run.status, 0, "a baseline a hundred times slower must pass: %s", run.out);
    cr_assert_null(strstr(run.out, "REGRESSION"), "%s", run.out);
    /* Another workload is not comparable. */
    char other[] = "/tmp/perftkit-workload-XXXXXX";
    int fd = mkstemp(other);
    dprintf(fd, "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 ;D2 71 ;D3 1287\n");
    close(fd);
    run = run_command("'%s' bench --modes bulk -t 1 --repeat 1 -q --workload %s --baseline %s 2>&1", bin, other, fast);
    unlink(other);
    cr_assert_eq(run.status, 2, "%s", run.out);
    cr_assert(strstr(run.out, "not comparable"), "%s", run.out);
}

Test(bench, refuses_an_unwritable_results_folder_before_running) {
    Run run = run_command("'%s' bench --json --results /proc/perftkit-nope 2>&1", getenv("PERFTKIT_BIN"));
    cr_assert_eq(run.status, 2, "%s", run.out);
    cr_assert(strstr(run.out, "cannot write results under '/proc/perftkit-nope'"), "%s", run.out);
    cr_assert_null(strstr(run.out, "bulk"), "nothing ran: %s", run.out);
}

/* Two stored results (machines alpha and beta), a hyperfine-like JSON and a broken file. */
static void stored_results(char *dir) {
    char workload[64];
    const char *bin = getenv("PERFTKIT_BIN");
    temporary_folder(dir);
    tiny_workload(workload);
    for (int i = 0; i < 2; i++) {
        Run run = run_command("'%s' bench --workload %s --repeat 1 --json --results %s --machine %s -q", bin, workload,
                            dir, i ? "beta" : "alpha");
        cr_assert_eq(run.status, 0, "%s", run.out);
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/beta/hyperfine-export.json", dir);
    FILE *f = fopen(path, "w");
    fputs("{\"results\": []}\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/broken.json", dir);
    f = fopen(path, "w");
    fputs("{\"kind\": \"perftkit-bench\",", f);
    fclose(f);
}

Test(bench, results_compare_stored_runs_and_write_the_page) {
    char dir[64];
    stored_results(dir);
    Run run = run_command("'%s' results %s --reference alpha 2>&1", getenv("PERFTKIT_BIN"), dir);
    cr_assert_eq(run.status, 0, "%s", run.out);
    cr_assert(strstr(run.out, "2 results under"), "%s", run.out);
    cr_assert(strstr(run.out, "1 other JSON file passed over"), "%s", run.out);
    cr_assert(strstr(run.out, "broken.json: not JSON"), "%s", run.out);
    cr_assert(strstr(run.out, "ratio to alpha"), "%s", run.out);
    cr_assert(strstr(run.out, "\nalpha ") && strstr(run.out, "\nbeta "), "%s", run.out);
    cr_assert(strstr(run.out, "(1.00x)"), "%s", run.out);
    char page[1024];
    snprintf(page, sizeof page, "%s/index.html", dir);
    FILE *f = fopen(page, "r");
    cr_assert(f, "no page at %s", page);
    char html[1 << 16];
    size_t n = fread(html, 1, sizeof html - 1, f);
    html[n] = '\0';
    fclose(f);
    int bars = 0;
    for (const char *p = html; (p = strstr(p, "<rect class=\"bar\"")); p++)
        bars++;
    cr_assert_eq(bars, 12, "two results, six setups each");
    run = run_command("'%s' results %s --reference nobody 2>&1", getenv("PERFTKIT_BIN"), dir);
    cr_assert(run.status == 2 && strstr(run.out, "no result of machine 'nobody'"), "%s", run.out);
}

Test(bench, the_page_draws_one_bar_per_result_and_setup_in_a_browser) {
    const char *chromium = "/usr/bin/chromium";
    if (access(chromium, X_OK) != 0)
        cr_skip_test("chromium is not installed (apt-get install chromium; .ci/run does): the results page was "
                     "not checked in a browser");
    char dir[64];
    stored_results(dir);
    Run run = run_command("'%s' results %s", getenv("PERFTKIT_BIN"), dir);
    cr_assert_eq(run.status, 0, "%s", run.out);
    /* The page's one line of script records how many bars the browser rendered. */
    run = run_command("timeout 120 %s --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
                    "--disable-background-networking --disable-component-update --disable-sync "
                    "--user-data-dir=%s/profile --dump-dom file://%s/index.html 2>/dev/null",
                    chromium, dir, dir);
    cr_assert(strstr(run.out, "<svg"), "the browser did not load the page: %.400s", run.out);
    cr_assert(strstr(run.out, "data-rendered-bars=\"12\""), "the browser rendered another number of bars: %.400s",
              run.out);
}

Test(bench, hyperfine_exports_json_and_markdown) {
    if (system("command -v hyperfine >/dev/null") != 0)
        cr_skip_test("hyperfine is not installed (apt-get install hyperfine; scripts/setup.sh does)");
    char workload[64], dir[64];
    Run run = run_command("'%s' --runs 2 --results %s --workload %s '%s' 2>&1", getenv("PERFTKIT_HYPERFINE_SCRIPT"),
                        temporary_folder(dir), tiny_workload(workload), getenv("PERFTKIT_BIN"));
    cr_assert_eq(run.status, 0, "%s", run.out);
    char *json = strstr(run.out, "hyperfine results: ");
    cr_assert(json, "%s", run.out);
    json += strlen("hyperfine results: ");
    *strchr(json, ',') = '\0';
    json_error_t error;
    json_t *doc = json_load_file(json, 0, &error);
    cr_assert(doc, "%s: %s", json, error.text);
    /* 2 positions x 2 thread counts x 2 table sizes. */
    cr_assert_eq(json_array_size(json_object_get(doc, "results")), 8);
    json_decref(doc);
    char md[2048];
    snprintf(md, sizeof md, "%.*smd", (int)(strlen(json) - 4), json);
    cr_assert_eq(access(md, R_OK), 0, "no Markdown export at %s", md);
}
