/* test_cmd_units.c — `perft units` in-process: the distinct positions of the start
 * position at plies 3 and 4 (OEIS A083276) with their paths (perft 3 and 4), a digest
 * independent of threads and keys, per-root multiplicities in JSON, bad input. */
#include "cli_support.h"

#include <jansson.h>

TestSuite(cmd_units, .init = core_setup, .timeout = 600);

static const char *summary_line(const CliRun *run) {
    const char *line = strstr(run->out, "split ply ");
    cr_assert(line, "no summary: %.300s", run->out);
    return line;
}

Test(cmd_units, lists_the_distinct_positions_with_their_paths) {
    CliRun three = cli_run("units -d 7 --split-ply 3");
    cr_assert_eq(three.status, 0, "%s", three.err);
    cr_assert(strstr(summary_line(&three), "split ply 3: 5362 units, 8902 paths, digest "), "%s", summary_line(&three));
    cr_assert(!strncmp(three.out, "0 ", 2), "the list starts at unit 0: %.100s", three.out);
    cr_assert(strstr(three.out, "\n5361 "), "the last unit is 5361");
    CliRun four = cli_run("units -d 8 --split-ply 4");
    cr_assert_eq(four.status, 0, "%s", four.err);
    cr_assert(strstr(summary_line(&four), "split ply 4: 72078 units, 197281 paths, digest "), "%s", summary_line(&four));
    cli_run_free(&three);
    cli_run_free(&four);
}

Test(cmd_units, the_digest_is_the_same_for_any_threads_and_key_seed) {
    CliRun one = cli_run("units -d 6 --split-ply 3 -t 1");
    CliRun two = cli_run("units -d 6 --split-ply 3 -t 2 --key-seed 0x1234");
    cr_assert_eq(one.status, 0, "%s", one.err);
    cr_assert_eq(two.status, 0, "%s", two.err);
    cr_assert_str_eq(one.out, two.out, "the list and digest depend on the root and ply only");
    CliRun other = cli_run("units -d 6 --split-ply 3 --moves e2e4");
    cr_assert_str_neq(summary_line(&other), summary_line(&one));
    cli_run_free(&one);
    cli_run_free(&two);
    cli_run_free(&other);
}

Test(cmd_units, the_default_split_ply_is_count_s) {
    CliRun run = cli_run("units -d 7 -t 2");
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert(strstr(run.out, "split ply 2: 400 units, 400 paths, digest "), "%s", summary_line(&run));
    CliRun count = cli_run("count -d 5 -t 2 --json"); /* 5 - 5 = 0, at least 2 on two threads */
    cr_assert(strstr(count.out, "\"split_ply\": 2"), "%s", count.out);
    cli_run_free(&run);
    cli_run_free(&count);
}

Test(cmd_units, json_gives_the_multiplicity_per_root_move) {
    CliRun run = cli_run("units -d 5 --split-ply 3 --json");
    cr_assert_eq(run.status, 0, "%s", run.err);
    json_error_t error;
    json_t *doc = json_loads(run.out, 0, &error);
    cr_assert(doc, "not JSON (%s)", error.text);
    cr_assert_str_eq(json_string_value(json_object_get(doc, "command")), "units");
    cr_assert_eq(json_integer_value(json_object_get(doc, "units")), 5362);
    cr_assert_str_eq(json_string_value(json_object_get(doc, "paths")), "8902");
    cr_assert_eq(strlen(json_string_value(json_object_get(doc, "digest"))), 16);
    json_t *list = json_object_get(doc, "list");
    cr_assert_eq(json_array_size(list), 5362);
    unsigned long long paths = 0, e2e4 = 0;
    size_t i;
    json_t *unit;
    json_array_foreach(list, i, unit) {
        cr_assert_eq(json_integer_value(json_object_get(unit, "index")), (json_int_t)i);
        unsigned long long per_unit = strtoull(json_string_value(json_object_get(unit, "paths")), NULL, 10), sum = 0;
        size_t r;
        json_t *root;
        json_array_foreach(json_object_get(unit, "roots"), r, root) {
            unsigned long long n = strtoull(json_string_value(json_object_get(root, "paths")), NULL, 10);
            sum += n;
            if (!strcmp(json_string_value(json_object_get(root, "move")), "e2e4"))
                e2e4 += n;
        }
        cr_assert_eq(sum, per_unit, "unit %zu: its roots' paths add up to its paths", i);
        paths += per_unit;
    }
    cr_assert_eq(paths, 8902);
    cr_assert_eq(e2e4, 600, "perft 3 below 1. e4 is 600 (Stockfish's divide)");
    json_decref(doc);
    cli_run_free(&run);
}

Test(cmd_units, refuses_bad_input) {
    CliRun run = cli_run("units -d 2 --split-ply 3");
    cr_assert_eq(run.status, 2);
    cr_assert(strstr(run.err, "perft units: --split-ply 3 is deeper than the depth 2"), "%s", run.err);
    cli_run_free(&run);
    run = cli_run("units -d 5 --split-ply 9");
    cr_assert_eq(run.status, 2);
    cr_assert(strstr(run.err, "split-ply"), "%s", run.err);
    cli_run_free(&run);
}
