/* test_cmd_unique.c — `perft unique` in-process: the published counts (OEIS A083276),
 * the same output at any thread count, the memory bound of --hash, JSON and bad input. */
#include "cli_support.h"

#include <jansson.h>

TestSuite(cmd_unique, .init = core_setup, .timeout = 600);

/* The output without its last line (peak memory and time, which vary). */
static void drop_last_line(char *text) {
    char *last = strstr(text, "peak memory");
    cr_assert(last, "%s", text);
    *last = '\0';
}

Test(cmd_unique, prints_the_published_counts_the_same_at_any_thread_count) {
    CliRun one = cli_run("unique -d 5 -t 1");
    cr_assert_eq(one.status, 0, "%s", one.err);
    static const char *const rows[] = {"ply           positions   set memory\n", "\n1                    20 ",
                                       "\n2                   400 ", "\n3                  5362 ",
                                       "\n4                 72078 ", "\n5                822518 "};
    for (int i = 0; i < 6; i++)
        cr_assert(strstr(one.out, rows[i]), "no '%s' in %s", rows[i], one.out);
    cr_assert(strstr(one.out, "peak memory "), "%s", one.out);
    drop_last_line(one.out);
    CliRun two = cli_run("unique -d 5 -t 2 --key-seed 99");
    cr_assert_eq(two.status, 0, "%s", two.err);
    drop_last_line(two.out);
    cr_assert_str_eq(two.out, one.out, "the sets hold the same positions and memory on two threads");
    cli_run_free(&one);
    cli_run_free(&two);
}

Test(cmd_unique, json_has_the_documented_fields) {
    CliRun run = cli_run("unique -d 5 -t 2 --json --key-seed 0x2a --moves e2e4");
    cr_assert_eq(run.status, 0, "%s", run.err);
    json_t *doc = parse_json(&run);
    cr_assert_eq(json_integer_value(json_object_get(doc, "schema")), 1);
    cr_assert_str_eq(json_string_value(json_object_get(doc, "command")), "unique");
    cr_assert_str_eq(json_string_value(json_object_get(json_object_get(doc, "position"), "fen")),
                     "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    cr_assert_eq(json_integer_value(json_object_get(doc, "depth")), 5);
    json_t *options = json_object_get(doc, "options");
    cr_assert_eq(json_integer_value(json_object_get(options, "threads")), 2);
    cr_assert_str_eq(json_string_value(json_object_get(options, "key_seed")), "0x2a");
    cr_assert(json_integer_value(json_object_get(options, "hash_mb")) > 0, "the bound used");
    json_t *plies = json_object_get(doc, "plies");
    cr_assert_eq(json_array_size(plies), 5);
    /* After 1. e4: 20 replies (perft 1); Stockfish's divide gives e2e4 600 at depth 3. */
    cr_assert_eq(json_integer_value(json_object_get(json_array_get(plies, 0), "positions")), 20);
    cr_assert_eq(json_integer_value(json_object_get(json_array_get(plies, 0), "ply")), 1);
    cr_assert_leq(json_integer_value(json_object_get(json_array_get(plies, 1), "positions")), 600);
    size_t sum = 0;
    for (size_t i = 0; i < 5; i++)
        sum += (size_t)json_integer_value(json_object_get(json_array_get(plies, i), "set_bytes"));
    cr_assert_geq((size_t)json_integer_value(json_object_get(doc, "peak_bytes")), sum);
    cr_assert(json_is_number(json_object_get(doc, "seconds")));
    json_decref(doc);
    cli_run_free(&run);
}

Test(cmd_unique, more_than_hash_allows_is_one_line_and_exit_2) {
    /* Ply 4 of the start position needs about 2 MB of sets. */
    CliRun run = cli_run("unique -d 4 --hash 1");
    cr_assert_eq(run.status, 2);
    cr_assert_str_eq(run.out, "");
    cr_assert(strstr(run.err, "perft unique: -d 4 --hash 1: the position sets need more than 1 MB"), "%s", run.err);
    cr_assert(strstr(run.err, "ply 4"), "%s", run.err);
    cr_assert_eq(strchr(run.err, '\n'), run.err + strlen(run.err) - 1, "more than one line: %s", run.err);
    cli_run_free(&run);
    run = cli_run("unique -d 4 --hash 3");
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert(strstr(run.out, "\n4                 72078 "), "%s", run.out);
    cli_run_free(&run);
    run = cli_run("unique -d 6 -t 2 --hash 16");
    cr_assert_eq(run.status, 2, "ply 6 needs far more than 16 MB");
    cr_assert(strstr(run.err, "need more than 16 MB"), "%s", run.err);
    cli_run_free(&run);
}

static void assert_bad_input(const char *args, const char *reason) {
    CliRun run = cli_run("%s", args);
    cr_assert_eq(run.status, 2, "'perft %s' exited %d", args, run.status);
    cr_assert(strstr(run.err, reason), "'perft %s' said '%s', expected '%s'", args, run.err, reason);
    cr_assert(!strncmp(run.err, "perft unique: ", 14), "%s", run.err);
    cr_assert_eq(strchr(run.err, '\n'), run.err + strlen(run.err) - 1, "more than one line: %s", run.err);
    cli_run_free(&run);
}

Test(cmd_unique, bad_input_gets_one_line_and_exit_status_2) {
    assert_bad_input("unique -d 0", "--depth 0 is out of range 1..12");
    assert_bad_input("unique -d 13", "--depth 13 is out of range 1..12");
    assert_bad_input("unique -t 2000", "--threads 2000 is out of range 1..1024");
    assert_bad_input("unique --hash lots", "--hash 'lots' is not a whole number");
    assert_bad_input("unique --hash 999999999", "more than this machine's memory");
    assert_bad_input("unique --max-nodes 5", "unknown option '--max-nodes'");
    assert_bad_input("unique --moves e2e5", "move 1 'e2e5' is not legal");
}

Test(cmd_unique, help_says_why_the_depth_bound_and_what_hash_means) {
    CliRun run = cli_run("unique --help");
    cr_assert_eq(run.status, 0);
    static const char *const parts[] = {"-t, --threads N", "--hash MB", "--key-seed N", "--json", "(1..12; default 5)",
                                        "memory ends a run", "position sets may use", "9417681"};
    for (int i = 0; i < 8; i++)
        cr_assert(strstr(run.out, parts[i]), "no '%s' in %s", parts[i], run.out);
    cli_run_free(&run);
}
