/* test_cmd_stats.c — `perft stats` in-process: the wiki's tables through the command
 * (suites/cpw_perft_stats.tsv), limits that stop a run with the finished depths exact,
 * Ctrl-C, SIGTERM and SIGHUP, JSON, journals resumed and refused, and bad input. */
#include "cli_support.h"

#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

TestSuite(cmd_stats, .init = core_setup, .timeout = 600);

static double seconds_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The start position rows: the wiki's columns (depth, nodes, captures, e.p., castles,
 * promotions, checks, discovery checks, double checks, mates), then the Grand Chess
 * Tree's classes (checks that do not mate: direct, discovered, direct and discovered,
 * double discovered; then the same four for mates), as both publish them. */
static const char *const start_rows[] = {
    "1                     20             0             0             0             0             0             0             0             0             0             0             0             0             0             0             0             0\n",
    "2                    400             0             0             0             0             0             0             0             0             0             0             0             0             0             0             0             0\n",
    "3                   8902            34             0             0             0            12             0             0             0            12             0             0             0             0             0             0             0\n",
    "4                 197281          1576             0             0             0           469             0             0             8           461             0             0             0             8             0             0             0\n",
    "5                4865609         82719           258             0             0         27351             6             0           347         26998             6             0             0           347             0             0             0\n",
};

Test(cmd_stats, prints_the_wiki_table_of_the_start_position) {
    CliRun run = cli_run("stats -d 5 -t 2 --hash 16");
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert(!strncmp(run.out, "depth              nodes      captures          e.p.       castles    promotions", 80),
              "%s", run.out);
    cr_assert(strstr(run.out, "         mates    chk direct      chk disc  chk dir+disc  chk dbl disc   mate direct     "
                              "mate disc mate dir+disc mate dbl disc\n"),
              "%s", run.out);
    for (int d = 0; d < 5; d++)
        cr_assert(strstr(run.out, start_rows[d]), "no depth %d row in %s", d + 1, run.out);
    cr_assert_null(strstr(run.out, "partial"), "%s", run.out);
    cr_assert(strstr(run.err, "status: completed\n"), "%s", run.err);
    cli_run_free(&run);
}

/* Splits a tab-separated line in place. */
static int split_tabs(char *line, char *out[], int room) {
    int n = 0;
    for (char *save = NULL, *f = strtok_r(line, "\t\r\n", &save); f && n < room; f = strtok_r(NULL, "\t\r\n", &save))
        out[n++] = f;
    return n;
}

Test(cmd_stats, json_of_every_wiki_position_matches_the_tables) {
    /* For each FEN of cpw_perft_stats.tsv: `stats --json` to the deepest depth of at
     * most 5M nodes, every column of every depth checked against the file. */
    enum { FIELDS = 9, MAX_NODES = 5000000 };
    static const char *const names[FIELDS] = {"nodes",  "captures",         "ep",           "castles",   "promotions",
                                              "checks", "discovery_checks", "double_checks", "checkmates"};
    char path[1024], line[1024];
    FILE *file = fopen(suite_path("cpw_perft_stats.tsv", path, sizeof path), "r");
    cr_assert(file, "cannot open %s", path);
    char fens[8][128], expected[8][12][FIELDS][24];
    int depths[8] = {0}, positions = 0;
    while (fgets(line, sizeof line, file)) {
        char *f[12];
        if (line[0] == '#' || !strncmp(line, "fen", 3) || split_tabs(line, f, 12) != 2 + FIELDS)
            continue;
        if (strtoull(f[2], NULL, 10) > MAX_NODES)
            continue;
        if (positions == 0 || strcmp(fens[positions - 1], f[0])) {
            cr_assert_lt(positions, 8);
            snprintf(fens[positions++], sizeof fens[0], "%s", f[0]);
        }
        int p = positions - 1, d = atoi(f[1]);
        cr_assert_eq(d, depths[p] + 1, "depths in order");
        depths[p] = d;
        for (int i = 0; i < FIELDS; i++)
            snprintf(expected[p][d][i], sizeof expected[p][d][i], "%s", f[2 + i]);
    }
    fclose(file);
    cr_assert_eq(positions, 4, "Kiwipete and positions 3, 4 and 5");
    int checked = 0;
    for (int p = 0; p < positions; p++) {
        CliRun run = cli_run("stats --json -d %d --hash 32 --fen '%s'", depths[p], fens[p]);
        cr_assert_eq(run.status, 0, "%s", run.err);
        json_t *doc = parse_json(&run);
        cr_assert_eq(json_integer_value(json_object_get(doc, "schema")), 1);
        cr_assert_str_eq(json_string_value(json_object_get(doc, "command")), "stats");
        cr_assert_str_eq(json_string_value(json_object_get(doc, "status")), "completed");
        cr_assert(json_is_true(json_object_get(doc, "complete")));
        json_t *rows = json_object_get(doc, "depths");
        cr_assert_eq(json_array_size(rows), (size_t)depths[p]);
        for (int d = 1; d <= depths[p]; d++) {
            json_t *row = json_array_get(rows, (size_t)d - 1);
            cr_assert_eq(json_integer_value(json_object_get(row, "depth")), d);
            cr_assert(json_is_number(json_object_get(row, "seconds")));
            for (int i = 0; i < FIELDS; i++) {
                if (!strcmp(expected[p][d][i], "-"))
                    continue;
                const char *got = json_string_value(json_object_get(row, names[i]));
                cr_expect(got && !strcmp(got, expected[p][d][i]), "%s depth %d %s: expected %s, got %s", fens[p], d,
                          names[i], expected[p][d][i], got ? got : "nothing");
                checked++;
            }
        }
        json_decref(doc);
        cli_run_free(&run);
    }
    cr_assert_gt(checked, 100);
}

Test(cmd_stats, json_carries_the_grand_chess_tree_classes) {
    /* The Grand Chess Tree's start position, depth 6, and Kiwipete, depth 4
     * (suites/gct_stats.tsv): the classes as JSON members named as the GCT names them. */
    static const struct {
        const char *args;
        int depth;
        const char *members[8][2];
    } cases[] = {
        {"-d 6", 6, {{"direct_checks", "797896"}, {"single_discovered_checks", "329"},
                     {"direct_discovered_checks", "46"}, {"double_discovered_checks", "0"},
                     {"direct_mates", "10828"}, {"single_discovered_mates", "0"},
                     {"direct_discovered_mates", "0"}, {"double_discovered_mates", "0"}}},
        {"-d 4 --fen 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -'", 4,
         {{"direct_checks", "25432"}, {"single_discovered_checks", "42"},
          {"direct_discovered_checks", "6"}, {"double_discovered_checks", "0"},
          {"direct_mates", "43"}, {"single_discovered_mates", "0"},
          {"direct_discovered_mates", "0"}, {"double_discovered_mates", "0"}}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        CliRun run = cli_run("stats --json -t 2 --hash 64 %s", cases[c].args);
        cr_assert_eq(run.status, 0, "%s", run.err);
        json_t *doc = parse_json(&run);
        cr_assert_eq(json_integer_value(json_object_get(doc, "schema")), 1, "new members, same schema");
        json_t *row = json_array_get(json_object_get(doc, "depths"), (size_t)cases[c].depth - 1);
        cr_assert_eq(json_integer_value(json_object_get(row, "depth")), cases[c].depth);
        for (int i = 0; i < 8; i++) {
            const char *got = json_string_value(json_object_get(row, cases[c].members[i][0]));
            cr_expect(got && !strcmp(got, cases[c].members[i][1]), "%s %s: expected %s, got %s", cases[c].args,
                      cases[c].members[i][0], cases[c].members[i][1], got ? got : "nothing");
        }
        json_decref(doc);
        cli_run_free(&run);
    }
}

Test(cmd_stats, a_node_limit_prints_the_finished_depths_and_exits_3) {
    /* Depths 1-4 make 206,603 leaves; depth 5 alone 4,865,609: the limit falls in it. */
    CliRun run = cli_run("stats -d 8 -t 2 --hash 16 --max-nodes 1000000");
    cr_assert_eq(run.status, 3, "%s%s", run.out, run.err);
    for (int d = 0; d < 4; d++)
        cr_assert(strstr(run.out, start_rows[d]), "no depth %d row in %s", d + 1, run.out);
    cr_assert_null(strstr(run.out, "\n5 "), "depth 5 was not finished: %s", run.out);
    cr_assert(strstr(run.out, "partial: depths 1..4 of 1..8 (resource exhaustion: nodes)\n"), "%s", run.out);
    cr_assert(strstr(run.err, "status: resource exhaustion: nodes\n"), "%s", run.err);
    cli_run_free(&run);
    /* A limit the finished depths reach exactly stops before the next depth. */
    run = cli_run("stats -d 6 -t 1 --hash 0 --max-nodes 206603");
    cr_assert_eq(run.status, 3);
    cr_assert(strstr(run.out, start_rows[3]) && strstr(run.out, "partial: depths 1..4 of 1..6"), "%s", run.out);
    cli_run_free(&run);
}

Test(cmd_stats, a_time_limit_stops_within_the_search) {
    /* Before the limits reached the search, stats -d 12 ran for days. */
    double start = seconds_now();
    CliRun run = cli_run("stats -d 12 -t 2 --hash 16 --max-time 0.3");
    double took = seconds_now() - start;
    cr_assert_eq(run.status, 3, "%s%s", run.out, run.err);
    cr_assert_lt(took, 1.5, "stopped %.3f s after the start, the limit is 0.3 s", took);
    cr_assert(strstr(run.out, start_rows[2]), "depth 3 takes milliseconds: %s", run.out);
    cr_assert(strstr(run.out, "(resource exhaustion: time)\n"), "%s", run.out);
    cli_run_free(&run);
}

Test(cmd_stats, a_stopped_run_in_json_says_so_and_keeps_the_finished_depths) {
    CliRun run = cli_run("stats -d 7 -t 1 --hash 0 --max-nodes 300000 --json");
    cr_assert_eq(run.status, 3, "%s", run.err);
    json_t *doc = parse_json(&run);
    cr_assert_str_eq(json_string_value(json_object_get(doc, "status")), "resource exhaustion: nodes");
    cr_assert(json_is_false(json_object_get(doc, "complete")));
    cr_assert_eq(json_integer_value(json_object_get(doc, "depth")), 7);
    json_t *rows = json_object_get(doc, "depths");
    cr_assert_eq(json_array_size(rows), 4);
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(rows, 3), "checkmates")), "8");
    json_t *options = json_object_get(doc, "options");
    cr_assert_str_eq(json_string_value(json_object_get(options, "max_nodes")), "300000");
    cr_assert(json_is_null(json_object_get(options, "max_time")));
    cr_assert_eq(json_integer_value(json_object_get(options, "threads")), 1);
    cr_assert_eq(json_integer_value(json_object_get(options, "hash_mb")), 0);
    json_decref(doc);
    cli_run_free(&run);
}

static void *signal_later(void *signal_number) {
    nanosleep(&(struct timespec){0, 400 * 1000 * 1000}, NULL);
    kill(getpid(), *(const int *)signal_number);
    return NULL;
}

/* A deep stats run stopped by `signal_number` 0.4 s in: the finished depths, exact,
 * and "interrupted", at once. */
static void expect_stopped_by(int signal_number) {
    pthread_t thread;
    cr_assert_eq(pthread_create(&thread, NULL, signal_later, &signal_number), 0);
    double start = seconds_now();
    CliRun run = cli_run("stats -d 12 -t 2 --hash 16");
    double took = seconds_now() - start;
    pthread_join(thread, NULL);
    cr_assert_eq(run.status, 130, "signal %d: %s%s", signal_number, run.out, run.err);
    cr_assert_lt(took, 2.0);
    cr_assert(strstr(run.out, start_rows[2]), "%s", run.out);
    cr_assert(strstr(run.out, "(interrupted)\n"), "%s", run.out);
    cr_assert(strstr(run.err, "status: interrupted\n"), "%s", run.err);
    cli_run_free(&run);
}

Test(cmd_stats, ctrl_c_prints_the_finished_depths_and_interrupted) {
    /* Defect 5: an interrupted stats printed no summary. */
    expect_stopped_by(SIGINT);
}

Test(cmd_stats, sigterm_and_sighup_stop_it_as_ctrl_c_does) {
    /* They ended the process with nothing printed: a scheduler's SIGTERM lost the
     * finished depths. */
    expect_stopped_by(SIGTERM);
    expect_stopped_by(SIGHUP);
}

Test(cmd_stats, key_seed_threads_and_hash_leave_the_counts_alone) {
    static const char *const setups[] = {"-t 1 --hash 0", "-t 2 --hash 1", "-t 2 --hash 64 --key-seed 12345",
                                         "--key-seed 0xfeedbeef"};
    for (int i = 0; i < 4; i++) {
        CliRun run = cli_run("stats -d 5 %s", setups[i]);
        cr_assert_eq(run.status, 0, "%s: %s", setups[i], run.err);
        cr_assert(strstr(run.out, start_rows[4]), "%s: %s", setups[i], run.out);
        cli_run_free(&run);
    }
    CliRun run = cli_run("stats -d 2 --key-seed 0x10 --json");
    json_t *doc = parse_json(&run);
    cr_assert_str_eq(json_string_value(json_object_get(json_object_get(doc, "options"), "key_seed")), "0x10");
    json_decref(doc);
    cli_run_free(&run);
}

static void assert_bad_input(const char *args, const char *reason) {
    CliRun run = cli_run("%s", args);
    cr_assert_eq(run.status, 2, "'perft %s' exited %d", args, run.status);
    cr_assert(strstr(run.err, reason), "'perft %s' said '%s', expected '%s'", args, run.err, reason);
    cr_assert(!strncmp(run.err, "perft stats: ", 13), "%s", run.err);
    cr_assert_eq(strchr(run.err, '\n'), run.err + strlen(run.err) - 1, "more than one line: %s", run.err);
    cr_assert_str_eq(run.out, "");
    cli_run_free(&run);
}

Test(cmd_stats, bad_input_gets_one_line_and_exit_status_2) {
    assert_bad_input("stats -d 13", "--depth 13 is out of range 1..12");
    assert_bad_input("stats -d 0", "--depth 0 is out of range 1..12");
    assert_bad_input("stats --max-nodes 0", "--max-nodes '0' is not a whole number of at least 1");
    assert_bad_input("stats --max-time -1", "--max-time '-1' is not a number of seconds above 0");
    assert_bad_input("stats -t 0", "--threads 0 is out of range 1..1024");
    assert_bad_input("stats --key-seed x", "--key-seed 'x' is not a whole number");
    assert_bad_input("stats --fen 'rnbqkbnr/pppppppp w'", "bad FEN");
    assert_bad_input("stats -d 3 extra", "unexpected argument 'extra'");
    assert_bad_input("stats -d 1 --journal /tmp/x", "--journal and --resume need a depth of 2 or more");
    assert_bad_input("stats -d 3 --journal /tmp/x --resume /tmp/y", "--journal and --resume name different files");
}

Test(cmd_stats, help_comes_from_the_option_table) {
    CliRun run = cli_run("stats --help");
    cr_assert_eq(run.status, 0);
    static const char *const options[] = {"-d, --depth N", "--fen FEN", "-t, --threads N", "--hash MB",
                                          "--key-seed N",  "--max-time S", "--max-nodes N", "--json", "(1..12; default 5)"};
    for (int i = 0; i < 9; i++)
        cr_assert(strstr(run.out, options[i]), "no '%s' in %s", options[i], run.out);
    cr_assert(strstr(run.out, "130 interrupted"), "%s", run.out);
    cli_run_free(&run);
}

/* The start position's depth-6 row: the wiki's columns and the Grand Chess Tree's classes. */
static const char start_row_6[] =
    "6              119060324       2812008          5248             0             0        809099           329"
    "            46         10828        797896           329            46             0         10828             0"
    "             0             0\n";

Test(cmd_stats, a_journaled_run_stopped_by_a_limit_resumes_to_the_exact_table) {
    char path[512];
    temp_journal(path, sizeof path);
    /* Stopped inside depth 6 (depths 1-5 hold 5.1 M leaves). */
    CliRun run = cli_run("stats -d 6 -t 2 --hash 16 --max-nodes 40000000 --journal %s", path);
    cr_assert_eq(run.status, 3, "%s", run.err);
    cr_assert(strstr(run.out, start_rows[4]), "%s", run.out);
    cr_assert(strstr(run.out, "partial: depths 1..5 of 1..6 (resource exhaustion: nodes)\n"), "%s", run.out);
    cr_assert(strstr(run.err, " of 100 units; continue with --resume '"), "%s", run.err);
    cli_run_free(&run);
    run = cli_run("stats -d 6 -t 2 --hash 16 --resume %s", path);
    cr_assert_eq(run.status, 0, "%s", run.err);
    for (int d = 0; d < 5; d++)
        cr_assert(strstr(run.out, start_rows[d]), "no depth %d row in %s", d + 1, run.out);
    cr_assert(strstr(run.out, start_row_6), "%s", run.out);
    unsigned long long from_journal = 0;
    cr_assert(sscanf(run.err, "perft stats: %llu of 100 units from journal", &from_journal) == 1, "%s", run.err);
    cr_assert(from_journal >= 80 && from_journal < 100, "depths 2-5 are 80 units, depth 6 20 more: %s", run.err);
    cr_assert(strstr(run.err, "resumed: "), "%s", run.err);
    cli_run_free(&run);
    /* All of it in the journal now: nothing is counted again, and JSON says so. */
    run = cli_run("stats -d 6 --hash 16 --json --resume %s", path);
    cr_assert_eq(run.status, 0, "%s", run.err);
    json_t *doc = parse_json(&run);
    cr_assert_eq(json_integer_value(json_object_get(doc, "units_resumed")), 100);
    json_t *six = json_array_get(json_object_get(doc, "depths"), 5);
    cr_assert_str_eq(json_string_value(json_object_get(six, "nodes")), "119060324");
    cr_assert_str_eq(json_string_value(json_object_get(six, "checkmates")), "10828");
    json_decref(doc);
    cli_run_free(&run);
    remove_journal(path);
}

Test(cmd_stats, a_journal_of_another_run_is_refused_naming_the_field) {
    char path[512], counts[512];
    temp_journal(path, sizeof path);
    temp_journal(counts, sizeof counts);
    CliRun run = cli_run("stats -d 4 --journal %s", path);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cli_run_free(&run);
    static const char *const cases[][2] = {
        {"stats -d 5 --resume %s", "journal header: depth is 4, this run has 5"},
        {"stats -d 4 --moves e2e4 --resume %s", "journal header: fen is "},
        {"stats -d 4 --key-seed 7 --resume %s", "journal header: key_seed is "},
        {"count -d 4 --resume %s", "journal header: stats is 17, this run has 0 (a journal of perft stats, not of "
                                   "count or divide)"},
        {"stats -d 4 --journal %s", "it exists and is not empty"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run = cli_run(cases[i][0], path);
        cr_assert_eq(run.status, 2, "%s: %s", cases[i][0], run.err);
        cr_assert(strstr(run.err, cases[i][1]), "%s: %s", cases[i][0], run.err);
        cr_assert_str_eq(run.out, "", "nothing counted");
        cli_run_free(&run);
    }
    run = cli_run("count -d 4 -q --journal %s", counts);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cli_run_free(&run);
    run = cli_run("stats -d 4 --resume %s", counts);
    cr_assert_eq(run.status, 2, "%s", run.err);
    cr_assert(strstr(run.err, "journal header: stats is 0, this run has 17 (a journal of count or divide, not of "
                              "perft stats)"),
              "%s", run.err);
    cli_run_free(&run);
    remove_journal(path);
    remove_journal(counts);
}

Test(cmd_stats, an_unwritable_journal_is_a_clear_error) {
    CliRun run = cli_run("stats -d 3 --journal /dev/full");
    cr_assert_eq(run.status, 2);
    cr_assert_str_eq(run.err, "perft stats: cannot write journal '/dev/full': No space left on device\n");
    cr_assert_str_eq(run.out, "", "nothing is counted");
    cli_run_free(&run);
    run = cli_run("stats -d 3 --journal /nonexistent/dir/run.jsonl");
    cr_assert_eq(run.status, 2);
    cr_assert(strstr(run.err, "cannot create journal '/nonexistent/dir/run.jsonl': No such file or directory"), "%s",
              run.err);
    cli_run_free(&run);
}
