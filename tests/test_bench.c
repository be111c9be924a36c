/* test_bench.c — the benchmark and results library (bench/): the built-in workload's
 * counts, a run's JSON (built with io/json.h, in the documented shape, stored whole), a
 * wrong count failing the run, the baseline check on planted speeds, the stored-result
 * names, reading stored results (the project's own under results/ too), the page checked
 * in a real headless browser, and the scripts beside it (their --help, hyperfine's
 * export). Workloads are tiny and repeats few: the tests take seconds. */
#include "support.h"

#include <dirent.h>
#include <jansson.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../bench/bench.h"
#include "../bench/results.h"
#include "../perft/driver.h"

TestSuite(bench, .init = core_setup, .timeout = 600);

/* Two positions with known counts (roce_perftsuite.epd, CPW Kiwipete): about 4 million
 * leaves in bulk mode, 105 thousand in full mode. */
static const char *const tiny_lines[] = {
    "# tiny: a test workload",
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;id rook ;D4 7059 ;D5 133987",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - ;id kiwipete ;D3 97862 ;D4 4085603",
};

static BenchWorkload *tiny_workload(void) {
    BenchWorkload *w = malloc(sizeof *w);
    char error[256];
    cr_assert(bench_load_workload(w, "tiny.epd", tiny_lines, 3, error, sizeof error), "%s", error);
    cr_assert_str_eq(w->name, "tiny");
    cr_assert_eq(w->count, 2);
    return w;
}

static BenchOptions options(int repeat, int threads) {
    return (BenchOptions){.repeat = repeat, .threads = threads, .modes = {true, true, true}, .hash_mb = 16,
                          .key_seed = 42, .progress = NULL};
}

/* One run of the tiny workload, for the tests that need a result. */
static BenchResult *tiny_result(const BenchWorkload *w, int repeat, int threads) {
    BenchResult *r = malloc(sizeof *r);
    BenchOptions o = options(repeat, threads);
    char error[256];
    cr_assert(bench_run(w, &o, r, error, sizeof error), "%s", error);
    return r;
}

static char *temporary_folder(char *path) {
    strcpy(path, "/tmp/perftkit-results-XXXXXX");
    cr_assert(mkdtemp(path));
    return path;
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

Test(bench, a_run_has_every_setup_with_checked_counts_and_ordered_speeds) {
    BenchWorkload *w = tiny_workload();
    BenchResult *r = tiny_result(w, 2, 2);
    cr_assert_eq(r->setup_count, 6, "three modes at 1 and 2 threads");
    for (int i = 0; i < r->setup_count; i++) {
        const BenchSetup *s = &r->setups[i];
        /* Known counts: bulk and hashed 133987 + 4085603, full 7059 + 97862. */
        cr_assert(s->leaves == (s->mode == BENCH_FULL ? 104921 : 4219590), "%s", bench_mode_name(s->mode));
        cr_assert_eq(s->threads, i % 2 ? 2 : 1);
        cr_assert_eq(s->runs, 2);
        cr_assert(s->min_lps <= s->median_lps && s->median_lps <= s->max_lps);
    }
    cr_assert_not(r->wrong_count);
    free(r);
    free(w);
}

Test(bench, the_json_is_one_document_of_schema_1_with_the_documented_fields) {
    BenchWorkload *w = tiny_workload();
    BenchResult *r = tiny_result(w, 2, 1);
    cr_assert_eq(r->setup_count, 3, "one thread: one setup per mode");
    char dir[64], path[128], error[512];
    snprintf(path, sizeof path, "%s/result.json", temporary_folder(dir));
    cr_assert(bench_save(path, w, r, error, sizeof error), "%s", error);
    json_error_t why;
    json_t *doc = json_load_file(path, 0, &why);
    cr_assert(doc, "%s", why.text);
    /* The members in the documented order: io/json.h's opening, then bench's own. */
    static const char *const members[] = {"schema", "tool",    "command", "kind",   "workload", "machine", "build",
                                          "options", "date",   "repeat",  "warmup", "setups",   "seconds"};
    const char *key;
    json_t *value;
    size_t k = 0;
    json_object_foreach(doc, key, value) {
        cr_assert(k < 13 && !strcmp(key, members[k]), "member %zu is %s", k, key);
        k++;
    }
    cr_assert_eq(k, 13);
    cr_assert_eq(json_integer_value(json_object_get(doc, "schema")), 1);
    cr_assert_str_eq(json_string_value(json_object_get(doc, "command")), "bench");
    cr_assert_str_eq(json_string_value(json_object_get(doc, "kind")), "perftkit-bench");
    json_t *workload = json_object_get(doc, "workload");
    cr_assert_str_eq(json_string_value(json_object_get(workload, "name")), "tiny");
    cr_assert_eq(json_integer_value(json_object_get(workload, "positions")), 2);
    cr_assert_eq(strlen(json_string_value(json_object_get(workload, "checksum"))), 16);
    json_t *machine = json_object_get(doc, "machine");
    cr_assert(json_integer_value(json_object_get(machine, "cores")) >= 1);
    cr_assert(json_is_boolean(json_object_get(json_object_get(machine, "flags"), "bmi2")));
    json_t *build = json_object_get(doc, "build");
    cr_assert(json_string_value(json_object_get(build, "commit")));
    cr_assert(strstr(json_string_value(json_object_get(build, "options")), "pext="));
    json_t *o = json_object_get(doc, "options");
    cr_assert_eq(json_integer_value(json_object_get(o, "threads")), 1);
    cr_assert_eq(json_integer_value(json_object_get(o, "hash_mb")), 16);
    cr_assert_str_eq(json_string_value(json_object_get(o, "key_seed")), "0x2a");
    size_t i;
    json_t *s;
    json_array_foreach(json_object_get(doc, "setups"), i, s) {
        const char *mode = json_string_value(json_object_get(s, "mode"));
        cr_assert_str_eq(json_string_value(json_object_get(s, "leaves")), !strcmp(mode, "full") ? "104921" : "4219590");
        cr_assert_eq(json_array_size(json_object_get(s, "seconds")), 2);
        double median = json_number_value(json_object_get(s, "median_leaves_per_second"));
        cr_assert(json_number_value(json_object_get(s, "min_leaves_per_second")) <= median);
        cr_assert(json_number_value(json_object_get(s, "max_leaves_per_second")) >= median);
        cr_assert(json_number_value(json_object_get(s, "median_ns_per_leaf")) > 0);
    }
    json_decref(doc);
    /* Written whole: no temporary left beside it. */
    DIR *d = opendir(dir);
    for (struct dirent *e; (e = readdir(d));)
        cr_assert_null(strstr(e->d_name, ".tmp."), "a temporary file was left: %s", e->d_name);
    closedir(d);
    free(r);
    free(w);
}

Test(bench, a_wrong_count_fails_the_run_and_names_position_mode_and_depth) {
    static const char *const planted[] = {"4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;id planted ;D3 1197 ;D4 7060"};
    BenchWorkload *w = malloc(sizeof *w);
    BenchResult *r = malloc(sizeof *r);
    char error[256];
    cr_assert(bench_load_workload(w, "planted.epd", planted, 1, error, sizeof error), "%s", error);
    BenchOptions o = options(1, 1);
    cr_assert_not(bench_run(w, &o, r, error, sizeof error));
    cr_assert(r->wrong_count);
    cr_assert_str_eq(error, "wrong count for planted in bulk mode on 1 threads at depth 4: expected 7060, got 7059");
    free(r);
    free(w);
}

Test(bench, a_workload_needs_two_depths_per_position) {
    static const char *const one_depth[] = {"4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D4 7059"};
    BenchWorkload *w = malloc(sizeof *w);
    char error[256];
    cr_assert_not(bench_load_workload(w, "one.epd", one_depth, 1, error, sizeof error));
    cr_assert(strstr(error, "workload one.epd:1: a position needs two depths"), "%s", error);
    free(w);
}

/* Writes `from`'s result into `out` with its medians multiplied by `factor`. */
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

Test(bench, the_baseline_check_counts_setups_slower_than_the_threshold) {
    BenchWorkload *w = tiny_workload();
    BenchResult *r = tiny_result(w, 1, 1);
    char dir[64], file[128], fast[128], slow[128], error[512];
    snprintf(file, sizeof file, "%s/run.json", temporary_folder(dir));
    cr_assert(bench_save(file, w, r, error, sizeof error), "%s", error);
    /* A baseline a hundred times faster or slower than this run, whatever runs beside it. */
    snprintf(fast, sizeof fast, "%s/hundred-times-faster.json", dir);
    snprintf(slow, sizeof slow, "%s/hundred-times-slower.json", dir);
    planted_baseline(file, fast, 100);
    planted_baseline(file, slow, 0.01);
    char *text;
    size_t size;
    FILE *out = open_memstream(&text, &size);
    cr_assert(bench_check_baseline(fast, w, error, sizeof error), "%s", error);
    cr_assert_eq(bench_compare(out, w, r, fast, 10, error, sizeof error), 3);
    fflush(out);
    cr_assert(strstr(text, "REGRESSION (more than 10% slower)"), "%s", text);
    cr_assert_eq(bench_compare(out, w, r, slow, 10, error, sizeof error), 0);
    fclose(out);
    free(text);
    /* Another workload is not comparable, and a file that is no result is refused. */
    static const char *const other[] = {"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 ;D2 71 ;D3 1287"};
    BenchWorkload *w2 = malloc(sizeof *w2);
    cr_assert(bench_load_workload(w2, "other.epd", other, 1, error, sizeof error), "%s", error);
    cr_assert_not(bench_check_baseline(fast, w2, error, sizeof error));
    cr_assert(strstr(error, "not comparable"), "%s", error);
    char bogus[128];
    snprintf(bogus, sizeof bogus, "%s/bogus.json", dir);
    FILE *f = fopen(bogus, "w");
    fputs("{\"results\": []}\n", f);
    fclose(f);
    cr_assert_not(bench_check_baseline(bogus, w, error, sizeof error));
    cr_assert(strstr(error, "is not a perft bench result"), "%s", error);
    free(w2);
    free(r);
    free(w);
}

Test(bench, stored_results_get_a_new_name_rather_than_overwrite) {
    BenchWorkload *w = tiny_workload();
    BenchResult *r = tiny_result(w, 1, 1);
    char dir[64], first[512], second[512], error[512];
    temporary_folder(dir);
    cr_assert(bench_result_path(dir, "box", first, sizeof first, error, sizeof error), "%s", error);
    cr_assert(bench_save(first, w, r, error, sizeof error), "%s", error);
    cr_assert(bench_result_path(dir, "box", second, sizeof second, error, sizeof error), "%s", error);
    cr_assert_str_neq(first, second);
    cr_assert(strstr(second, "-2.json"), "%s", second);
    cr_assert(strstr(first, "/box/"), "%s", first);
    cr_assert_not(bench_result_path("/proc/perftkit-nope", "box", first, sizeof first, error, sizeof error));
    cr_assert(strstr(error, "cannot write results under '/proc/perftkit-nope'"), "%s", error);
    cr_assert_not(bench_can_save("/proc/perftkit-nope/x.json", error, sizeof error));
    cr_assert(strstr(error, "cannot write '/proc/perftkit-nope/x.json'"), "%s", error);
    free(r);
    free(w);
}

/* Two stored results (machines alpha and beta), a hyperfine-like JSON and a broken
 * file with a control byte in it. */
static void stored_results(char *dir) {
    BenchWorkload *w = tiny_workload();
    BenchResult *r = tiny_result(w, 1, 2);
    char path[512], error[512];
    temporary_folder(dir);
    for (int i = 0; i < 2; i++) {
        snprintf(r->machine.name, sizeof r->machine.name, "%s", i ? "beta" : "alpha");
        cr_assert(bench_result_path(dir, r->machine.name, path, sizeof path, error, sizeof error), "%s", error);
        cr_assert(bench_save(path, w, r, error, sizeof error), "%s", error);
    }
    snprintf(path, sizeof path, "%s/beta/hyperfine-export.json", dir);
    FILE *f = fopen(path, "w");
    fputs("{\"results\": []}\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/broken.json", dir);
    f = fopen(path, "w");
    fputs("{\"kind\": \"perftkit-bench\",\x01", f);
    fclose(f);
    free(r);
    free(w);
}

typedef struct Warnings {
    int count;
    char last[512];
} Warnings;

static void collect(void *context, const char *message) {
    Warnings *w = context;
    w->count++;
    snprintf(w->last, sizeof w->last, "%s", message);
}

Test(bench, results_read_stored_runs_and_name_a_broken_file_quoted) {
    char dir[64], error[512];
    stored_results(dir);
    ResultSet set;
    Warnings warnings = {0};
    cr_assert(results_load(dir, &set, collect, &warnings, error, sizeof error), "%s", error);
    cr_assert_eq(set.count, 2);
    cr_assert_eq(set.other_json, 1);
    cr_assert_eq(set.unreadable, 1);
    cr_assert_eq(warnings.count, 1);
    cr_assert(strstr(warnings.last, "/broken.json' is not JSON: "), "%s", warnings.last);
    cr_assert(strstr(warnings.last, "\\x01"), "the control byte is escaped: %s", warnings.last);
    cr_assert_null(strchr(warnings.last, '\n'));
    cr_assert_str_eq(set.items[0].machine, "alpha");
    cr_assert_str_eq(set.items[1].machine, "beta");
    cr_assert_eq(set.items[0].setup_count, 6);
    int ref = results_reference(&set, "beta");
    cr_assert_eq(ref, 1);
    cr_assert_eq(results_reference(&set, "nobody"), -1);
    char *text;
    size_t size;
    FILE *out = open_memstream(&text, &size);
    cr_assert_eq(results_print_table(out, &set, ref), 2);
    fclose(out);
    cr_assert(strstr(text, "ratio to beta"), "%s", text);
    cr_assert(strstr(text, "\nalpha ") && strstr(text, "\nbeta "), "%s", text);
    cr_assert(strstr(text, "(1.00x)"), "%s", text);
    free(text);
    results_free(&set);
    cr_assert_not(results_load("/nonexistent/perftkit", &set, collect, &warnings, error, sizeof error));
    cr_assert_str_eq(error, "cannot read '/nonexistent/perftkit': No such file or directory");
}

Test(bench, the_stored_results_of_the_project_stay_readable) {
    char dir[1024], error[512];
    snprintf(dir, sizeof dir, "%s/../results", getenv("PERFTKIT_SUITES"));
    ResultSet set;
    Warnings warnings = {0};
    cr_assert(results_load(dir, &set, collect, &warnings, error, sizeof error), "%s", error);
    cr_assert_eq(warnings.count, 0, "%s", warnings.last);
    cr_assert_geq(set.count, 1);
    int ref = results_reference(&set, "amd-epyc-2c");
    cr_assert_geq(ref, 0);
    cr_assert_str_eq(set.items[ref].workload, "bench-v1");
    cr_assert_eq(set.items[ref].setup_count, 6);
    results_free(&set);
}

Test(bench, the_page_has_one_bar_per_result_and_setup) {
    char dir[64], page[128], error[512];
    stored_results(dir);
    ResultSet set;
    Warnings warnings = {0};
    cr_assert(results_load(dir, &set, collect, &warnings, error, sizeof error), "%s", error);
    snprintf(page, sizeof page, "%s/index.html", dir);
    cr_assert(results_write_html(page, &set, 0, error, sizeof error), "%s", error);
    results_free(&set);
    FILE *f = fopen(page, "r");
    cr_assert(f, "no page at %s", page);
    static char html[1 << 16];
    size_t n = fread(html, 1, sizeof html - 1, f);
    html[n] = '\0';
    fclose(f);
    int bars = 0;
    for (const char *p = html; (p = strstr(p, "<rect class=\"bar\"")); p++)
        bars++;
    cr_assert_eq(bars, 12, "two results, six setups each");
    cr_assert_not(results_write_html("/proc/perftkit-nope/index.html", &set, 0, error, sizeof error));
    cr_assert(strstr(error, "cannot write '/proc/perftkit-nope/index.html'"), "%s", error);
}

Test(bench, the_page_draws_one_bar_per_result_and_setup_in_a_browser) {
    const char *chromium = "/usr/bin/chromium";
    if (access(chromium, X_OK) != 0)
        cr_skip_test("chromium is not installed (apt-get install chromium; .ci/run does): the results page was "
                     "not checked in a browser");
    char dir[64], page[128], error[512];
    stored_results(dir);
    ResultSet set;
    Warnings warnings = {0};
    cr_assert(results_load(dir, &set, collect, &warnings, error, sizeof error), "%s", error);
    snprintf(page, sizeof page, "%s/index.html", dir);
    cr_assert(results_write_html(page, &set, 0, error, sizeof error), "%s", error);
    results_free(&set);
    /* The page's one line of script records how many bars the browser rendered. */
    Run run = run_command("timeout 120 %s --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
                          "--disable-background-networking --disable-component-update --disable-sync "
                          "--user-data-dir=%s/profile --dump-dom file://%s 2>/dev/null",
                          chromium, dir, page);
    cr_assert(strstr(run.out, "<svg"), "the browser did not load the page: %.400s", run.out);
    cr_assert(strstr(run.out, "data-rendered-bars=\"12\""), "the browser rendered another number of bars: %.400s",
              run.out);
}

/* Defect 7: `bench/hyperfine.sh --help` ended with a stray "t -euo pipefail" (it printed
 * a fixed range of lines, one too many); hashed.sh's stopped short of its usage line. */
Test(bench, the_scripts_help_is_their_comment_block_and_nothing_else) {
    static const char *const scripts[] = {"hyperfine.sh", "hashed.sh"};
    for (int i = 0; i < 2; i++) {
        Run run = run_command("'%s/%s' --help", getenv("PERFTKIT_BENCH_SCRIPTS"), scripts[i]);
        cr_assert_eq(run.status, 0, "%s: %s", scripts[i], run.out);
        char usage[64];
        snprintf(usage, sizeof usage, "usage: bench/%s [--runs N]", scripts[i]);
        cr_assert(strstr(run.out, usage), "%s: %s", scripts[i], run.out);
        cr_assert_null(strstr(run.out, "pipefail"), "%s: %s", scripts[i], run.out);
        cr_assert_null(strstr(run.out, "#"), "%s: %s", scripts[i], run.out);
        char *last = strrchr(run.out, '\n');
        cr_assert(last && last[1] == '\0', "%s: %s", scripts[i], run.out);
        *last = '\0';
        last = strrchr(run.out, '\n');
        cr_assert(last && !strncmp(last + 1, "usage: ", 7), "%s ends with another line: %s", scripts[i], run.out);
        run = run_command("'%s/%s' --frobnicate 2>&1", getenv("PERFTKIT_BENCH_SCRIPTS"), scripts[i]);
        cr_assert_eq(run.status, 2, "%s: %s", scripts[i], run.out);
        cr_assert(strstr(run.out, "unknown option '--frobnicate'"), "%s: %s", scripts[i], run.out);
        run = run_command("'%s/%s' --runs 2>&1", getenv("PERFTKIT_BENCH_SCRIPTS"), scripts[i]);
        cr_assert_eq(run.status, 2, "%s: %s", scripts[i], run.out);
        cr_assert(strstr(run.out, "--runs needs a value"), "%s: %s", scripts[i], run.out);
    }
}

Test(bench, hyperfine_exports_json_and_markdown) {
    if (system("command -v hyperfine >/dev/null") != 0)
        cr_skip_test("hyperfine is not installed (apt-get install hyperfine; scripts/setup.sh does)");
    char workload[] = "/tmp/perftkit-workload-XXXXXX", dir[64];
    int fd = mkstemp(workload);
    for (int i = 0; i < 3; i++)
        dprintf(fd, "%s\n", tiny_lines[i]);
    close(fd);
    Run run = run_command("'%s/hyperfine.sh' --runs 2 --results %s --workload %s '%s' 2>&1",
                          getenv("PERFTKIT_BENCH_SCRIPTS"), temporary_folder(dir), workload, getenv("PERFTKIT_BIN"));
    unlink(workload);
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

/* A folder holding one stored result whose JSON is `json`; returns the folder. */
static char *one_result(char *dir, const char *json) {
    char path[128];
    temporary_folder(dir);
    snprintf(path, sizeof path, "%s/r.json", dir);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs(json, f);
    fclose(f);
    return dir;
}

#define STORED_RESULT(machine, date, min, median, max)                                                              \
    "{\"kind\": \"perftkit-bench\", \"schema\": 1, \"workload\": {\"name\": \"w\", \"checksum\": \"c\"}, "          \
    "\"machine\": {\"name\": \"" machine "\", \"cpu\": \"c\"}, \"build\": {\"commit\": \"abc\"}, \"date\": \""    \
    date "\", \"setups\": [{\"mode\": \"bulk\", \"threads\": 1, \"median_leaves_per_second\": " median ", "      \
    "\"min_leaves_per_second\": " min ", \"max_leaves_per_second\": " max "}]}\n"

/* The page of the result in `dir`, read back (static storage). */
static const char *page_of(const char *dir, ResultSet *set) {
    char page[128], error[512];
    snprintf(page, sizeof page, "%s/index.html", dir);
    cr_assert(results_write_html(page, set, 0, error, sizeof error), "%s", error);
    static char html[1 << 16];
    FILE *f = fopen(page, "r");
    cr_assert(f);
    html[fread(html, 1, sizeof html - 1, f)] = '\0';
    fclose(f);
    return html;
}

/* Fuzzing finding (fuzz_results): the machine of the reference and the dates of the
 * legend went into the page unescaped. */
Test(bench, the_page_escapes_every_name_and_date) {
    char dir[64], error[512];
    one_result(dir, STORED_RESULT("<b>box</b>", "<i>2026</i>", "4e8", "5e8", "6e8"));
    ResultSet set;
    Warnings warnings = {0};
    cr_assert(results_load(dir, &set, collect, &warnings, error, sizeof error), "%s", error);
    cr_assert_eq(set.count, 1);
    const char *html = page_of(dir, &set);
    cr_assert_null(strstr(html, "<b>"), "%s", html);
    cr_assert_null(strstr(html, "<i>"), "%s", html);
    cr_assert(strstr(html, "Ratios are to &lt;b&gt;box&lt;/b&gt;, &lt;i&gt;2026&lt;/i&gt;."), "%s", html);
    cr_assert(strstr(html, "&lt;b&gt;box&lt;/b&gt; &lt;i&gt;2026&lt;/i</text>"), "the legend's date, cut at 10: %s",
              html);
    results_free(&set);
}

/* Fuzzing findings (fuzz_results): a speed far above the setup's max gave a bar height
 * beyond int (undefined behaviour), and a result without a usable setup vanished
 * without a word. */
Test(bench, speeds_out_of_order_are_passed_over_and_said) {
    char dir[64], error[512];
    one_result(dir, STORED_RESULT("box", "2026", "4e8", "6e18", "6e8"));
    ResultSet set;
    Warnings warnings = {0};
    cr_assert(results_load(dir, &set, collect, &warnings, error, sizeof error), "%s", error);
    cr_assert_eq(set.count, 0);
    cr_assert_eq(set.unreadable, 1);
    cr_assert_eq(warnings.count, 1);
    cr_assert(strstr(warnings.last, "/r.json' is a bench result without a readable setup; passed over"), "%s",
              warnings.last);
    results_free(&set);
}

/* Fuzzing finding (fuzz_results): control bytes of names reached the terminal raw in the
 * table; they are quoted (io/text.h), and a long name is cut short, all printable. */
Test(bench, names_reach_the_table_without_control_bytes) {
    char dir[64], error[512];
    one_result(dir, STORED_RESULT("box\\u001b[2J\\u007f", "2026", "4e8", "5e8", "6e8"));
    ResultSet set;
    Warnings warnings = {0};
    cr_assert(results_load(dir, &set, collect, &warnings, error, sizeof error), "%s", error);
    cr_assert_eq(set.count, 1);
    cr_assert(!strncmp(set.items[0].machine, "box\\x1B[2J", 10), "%s", set.items[0].machine);
    for (const char *c = set.items[0].machine; *c; c++)
        cr_assert(*c >= 0x20 && *c < 0x7f, "a raw byte 0x%02x in %s", (unsigned char)*c, set.items[0].machine);
    results_free(&set);
    char name[400] = "";
    for (int i = 0; i < 60; i++)
        strcat(name, "\\u00e9"); /* é: two bytes each, 120 in all: the quotation is cut at 60 */
    char json[2048];
    snprintf(json, sizeof json, STORED_RESULT("%s", "2026", "4e8", "5e8", "6e8"), name);
    one_result(dir, json);
    cr_assert(results_load(dir, &set, collect, &warnings, error, sizeof error), "%s", error);
    cr_assert(starts_with(set.items[0].machine, "\\xC3\\xA9\\xC3\\xA9"), "%s", set.items[0].machine);
    cr_assert(strstr(set.items[0].machine, "... (120 bytes)"), "cut as a quotation, whole: %s", set.items[0].machine);
    for (const char *c = set.items[0].machine; *c; c++)
        cr_assert(*c >= 0x20 && *c < 0x7f, "a raw byte 0x%02x in %s", (unsigned char)*c, set.items[0].machine);
    results_free(&set);
}
