/* test_cmd_count.c — `perft count` and `perft divide` in-process: the same counts at
 * every split ply, journals written, refused and resumed (torn and malformed lines,
 * another run's header, unwritable files), and verification runs with two key sets. */
#include "cli_support.h"

#include <jansson.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

TestSuite(cmd_count, .init = core_setup, .timeout = 600);

#define KIWIPETE "'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'"

static void assert_count(const char *args, const char *expected) {
    CliRun run = cli_run("count -q %s", args);
    cr_assert_eq(run.status, 0, "count %s: %s", args, run.err);
    cr_assert_str_eq(run.out, expected, "count %s", args);
    cli_run_free(&run);
}

Test(cmd_count, counts_are_the_same_at_every_split_ply) {
    for (int ply = 0; ply <= 5; ply++) {
        char args[128];
        snprintf(args, sizeof args, "-d 5 -t %d --split-ply %d", ply % 2 + 1, ply);
        assert_count(args, "4865609\n");
    }
    for (int ply = 0; ply <= 3; ply++) {
        char args[256];
        snprintf(args, sizeof args, "-d 4 --split-ply %d --fen " KIWIPETE, ply);
        assert_count(args, "4085603\n");
    }
    assert_count("-d 6 --split-ply 4 --hash 0 --fen '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1'", "11030083\n");
    CliRun run = cli_run("divide -d 4 --split-ply 3 --fen " KIWIPETE);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert(strstr(run.out, "e2a6: 69334\n") && strstr(run.out, "\nNodes searched: 4085603\n"), "%s", run.out);
    cli_run_free(&run);
}

Test(cmd_count, divide_fan_writes_figurines_in_san_order) {
    /* The start position's divide 3 in SAN is Na3 400, Nc3 440, Nf3 440, Nh3 400, a3 380:
     * in FAN the same lines with white's knight figurine. */
    CliRun run = cli_run("divide -d 3 --fan");
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert(starts_with(run.out, "\u2658a3 400\n\u2658c3 440\n\u2658f3 440\n\u2658h3 400\na3 380\n"), "%s", run.out);
    cr_assert(strstr(run.out, "\nNodes searched: 8902\n"), "%s", run.out);
    cli_run_free(&run);
    /* Black to move: black's figurines; castling and pawn moves as in SAN. */
    run = cli_run("divide -d 1 --fan --moves e4");
    cr_assert(starts_with(run.out, "\u265Ea6 1\n\u265Ec6 1\n\u265Ef6 1\n\u265Eh6 1\na5 1\n"), "%s", run.out);
    cli_run_free(&run);
    /* Kiwipete: every FAN line is its SAN line with the piece letter made a figurine. */
    CliRun san = cli_run("divide -d 2 --san --fen " KIWIPETE), fan = cli_run("divide -d 2 --fan --fen " KIWIPETE);
    cr_assert(san.status == 0 && fan.status == 0, "%s%s", san.err, fan.err);
    cr_assert(strstr(fan.out, "\nO-O ") && strstr(fan.out, "\nO-O-O ") && strstr(fan.out, "\n\u2657xa6 "), "%s",
              fan.out);
    char *s = san.out, *f = fan.out;
    int lines = 0;
    for (; *s && *f; lines++) {
        size_t sn = strcspn(s, "\n"), fn = strcspn(f, "\n");
        char san_line[64], fan_line[64], expected[64];
        snprintf(san_line, sizeof san_line, "%.*s", (int)sn, s);
        snprintf(fan_line, sizeof fan_line, "%.*s", (int)fn, f);
        static const char *const figurine[] = {"\u2658", "\u2657", "\u2656", "\u2655", "\u2654"};
        const char *letter = strchr("NBRQK", san_line[0]);
        if (san_line[0] && letter && strncmp(san_line, "Nodes searched", 14))
            snprintf(expected, sizeof expected, "%s%s", figurine[letter - "NBRQK"], san_line + 1);
        else
            snprintf(expected, sizeof expected, "%s", san_line);
        cr_assert_str_eq(fan_line, expected);
        s += sn + (s[sn] == '\n');
        f += fn + (f[fn] == '\n');
    }
    cr_assert_eq(lines, 48 + 2, "48 root moves, a blank line and the total");
    cli_run_free(&san);
    cli_run_free(&fan);
    /* JSON keeps its uci and san fields. */
    run = cli_run("divide -d 1 --fan --json");
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert(strstr(run.out, "\"san\": \"Nf3\"") && !strstr(run.out, "\u2658"), "%s", run.out);
    cli_run_free(&run);
    /* divide --stats --fan: the figurine is one column, the counts stay aligned. */
    run = cli_run("divide -d 2 --stats --fan");
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert(strstr(run.out, "\n\u2658a3                   20             0             0 "), "%s", run.out);
    cli_run_free(&run);
}

Test(cmd_count, json_tells_the_units) {
    CliRun run = cli_run("count -d 5 --split-ply 3 --json");
    cr_assert_eq(run.status, 0, "%s", run.err);
    json_t *doc = parse_json(&run);
    cr_assert_eq(json_integer_value(json_object_get(doc, "split_ply")), 3);
    cr_assert_eq(json_integer_value(json_object_get(doc, "units")), 5362);
    cr_assert_eq(json_integer_value(json_object_get(doc, "units_done")), 5362);
    cr_assert_eq(json_integer_value(json_object_get(doc, "units_resumed")), 0);
    cr_assert_str_eq(json_string_value(json_object_get(doc, "total")), "4865609");
    json_decref(doc);
    cli_run_free(&run);
}

Test(cmd_count, split_ply_deeper_than_the_depth_is_refused) {
    CliRun run = cli_run("count -d 2 --split-ply 3");
    cr_assert_eq(run.status, 2);
    cr_assert_str_eq(run.err, "perft count: --split-ply 3 is deeper than the depth 2\n");
    cli_run_free(&run);
}

Test(cmd_count, a_journaled_run_resumes_to_the_same_total) {
    char path[512];
    temp_journal(path, sizeof path);
    CliRun run = cli_run("count -d 5 --split-ply 2 --journal %s", path);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert(strstr(run.out, "perft(5) = 4865609\n"), "%s", run.out);
    cli_run_free(&run);
    run = cli_run("count -d 5 --journal %s", path);
    cr_assert_eq(run.status, 2, "an existing journal is refused");
    cr_assert(strstr(run.err, "exists: continue it with --resume"), "%s", run.err);
    cli_run_free(&run);
    run = cli_run("count -d 5 -t 1 --resume %s --json", path);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert(strstr(run.err, "400 of 400 units from journal"), "%s", run.err);
    json_t *doc = parse_json(&run);
    cr_assert_str_eq(json_string_value(json_object_get(doc, "total")), "4865609");
    cr_assert_eq(json_integer_value(json_object_get(doc, "units_resumed")), 400);
    cr_assert_str_eq(json_string_value(json_object_get(doc, "resumed_leaves")), "4865609");
    cr_assert(json_number_value(json_object_get(doc, "leaves_per_second")) == 0.0
                  && json_is_null(json_object_get(doc, "ns_per_leaf")),
              "nothing counted by this run, so no rate");
    json_decref(doc);
    cli_run_free(&run);
    /* A run stopped by --max-nodes leaves a journal that the resumed run completes. */
    remove_journal(path);
    temp_journal(path, sizeof path);
    run = cli_run("divide -d 5 --split-ply 3 --max-nodes 100000 -t 1 --journal %s", path);
    cr_assert_eq(run.status, 3, "%s", run.err);
    cr_assert(strstr(run.err, "continue with --resume"), "%s", run.err);
    cli_run_free(&run);
    run = cli_run("divide -d 5 --resume %s", path);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert(strstr(run.out, "e2e4: 405385\n") && strstr(run.out, "\nNodes searched: 4865609\n"), "%s", run.out);
    const char *said = strstr(run.err, "perft divide: ");
    unsigned long from = 0, of = 0;
    cr_assert(said && sscanf(said, "perft divide: %lu of %lu units from journal", &from, &of) == 2 && from > 0
                  && of == 5362,
              "some units came from the journal: %s", run.err);
    cli_run_free(&run);
    remove_journal(path);
}

/* A count of a --json document (a decimal string), as a number. */
static unsigned long long json_total(json_t *doc, const char *field) {
    return strtoull(json_string_value(json_object_get(doc, field)), NULL, 10);
}

/* --max-nodes, like --max-time, bounds what one launch counts: a journal already
 * holding more leaves than the limit does not stop a resumed run at once. */
Test(cmd_count, a_resumed_run_counts_the_limit_and_the_rate_from_its_own_leaves) {
    char path[512];
    temp_journal(path, sizeof path);
    CliRun run = cli_run("count -d 6 -t 1 --hash 0 --split-ply 2 --max-nodes 30000000 --json --journal %s", path);
    cr_assert_eq(run.status, 3, "%s", run.err);
    json_t *doc = parse_json(&run);
    unsigned long long first = json_total(doc, "total");
    cr_assert(first >= 28000000 && first < 119060324, "got %llu", first);
    json_decref(doc);
    cli_run_free(&run);
    run = cli_run("count -d 6 -t 1 --hash 0 --max-nodes 20000000 --json --resume %s", path);
    cr_assert_eq(run.status, 3, "%s", run.err);
    doc = parse_json(&run);
    unsigned long long resumed = json_total(doc, "resumed_leaves"), second = json_total(doc, "total");
    cr_assert_eq(resumed, first, "the journal's leaves, as the first launch counted them");
    cr_assert(second - resumed >= 18000000, "this launch counted its own 20 M leaves: %llu", second - resumed);
    double rate = json_number_value(json_object_get(doc, "leaves_per_second"));
    double seconds = json_number_value(json_object_get(doc, "seconds"));
    cr_assert(rate > 0 && rate * seconds < 1.01 * (double)(second - resumed), "the rate is of this launch's leaves");
    json_decref(doc);
    cli_run_free(&run);
    run = cli_run("count -d 6 -t 1 --hash 0 --resume %s", path);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert(strstr(run.out, "perft(6) = 119060324\n"), "%s", run.out);
    cr_assert(strstr(run.out, "leaves below") && strstr(run.out, "units from the journal (not in the rate)\n"), "%s",
              run.out);
    cli_run_free(&run);
    remove_journal(path);
}

/* Cuts `bytes` off the end of the file. */
static void truncate_by(const char *path, long bytes) {
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_eq(truncate(path, st.st_size - bytes), 0);
}

Test(cmd_count, a_torn_last_line_is_dropped_and_its_units_counted_again) {
    char path[512];
    temp_journal(path, sizeof path);
    CliRun run = cli_run("count -d 5 --split-ply 3 -q --journal %s", path);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cli_run_free(&run);
    truncate_by(path, 7);
    run = cli_run("count -d 5 -q --resume %s", path);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert_str_eq(run.out, "4865609\n");
    cr_assert(strstr(run.err, "dropped a torn last line"), "%s", run.err);
    cli_run_free(&run);
    remove_journal(path);
}

Test(cmd_count, a_malformed_middle_line_is_an_error) {
    char path[512];
    temp_journal(path, sizeof path);
    CliRun made = cli_run("count -d 4 --split-ply 2 -q --journal %s", path);
    cr_assert_eq(made.status, 0, "%s", made.err);
    cli_run_free(&made);
    FILE *f = fopen(path, "a");
    fputs("{\"units\": [[0, \"x\"\n{\"units\": []}\n", f);
    fclose(f);
    CliRun run = cli_run("count -d 4 --resume %s", path);
    cr_assert_eq(run.status, 2, "%s", run.err);
    cr_assert(strstr(run.err, "perft count: --resume: journal "), "%s", run.err);
    cr_assert_eq(strchr(run.err, '\n'), run.err + strlen(run.err) - 1, "one line: %s", run.err);
    cli_run_free(&run);
    remove_journal(path);
}

Test(cmd_count, a_journal_of_another_run_is_refused_naming_the_field) {
    char path[512];
    temp_journal(path, sizeof path);
    CliRun run = cli_run("count -d 5 -q --journal %s", path);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cli_run_free(&run);
    run = cli_run("count -d 6 --resume %s", path);
    cr_assert_eq(run.status, 2);
    cr_assert(strstr(run.err, "journal header: depth is 5, this run has 6"), "%s", run.err);
    cr_assert_str_eq(run.out, "", "nothing counted");
    cli_run_free(&run);
    run = cli_run("count -d 5 --moves e2e4 --resume %s", path);
    cr_assert_eq(run.status, 2);
    cr_assert(strstr(run.err, "journal header: fen is "), "%s", run.err);
    cli_run_free(&run);
    run = cli_run("count -d 5 --key-seed 7 --resume %s", path);
    cr_assert_eq(run.status, 2);
    cr_assert(strstr(run.err, "key_seed"), "%s", run.err);
    cli_run_free(&run);
    run = cli_run("count -d 5 --split-ply 3 --resume %s", path);
    cr_assert_eq(run.status, 2);
    cr_assert(strstr(run.err, "split_ply"), "%s", run.err);
    cli_run_free(&run);
    remove_journal(path);
}

Test(cmd_count, an_unwritable_journal_is_a_clear_error) {
    CliRun run = cli_run("count -d 4 --journal /dev/full");
    cr_assert_eq(run.status, 2);
    cr_assert(strstr(run.err, "perft count: cannot write journal '/dev/full': No space left on device"), "%s", run.err);
    cr_assert_str_eq(run.out, "", "no count is printed");
    cli_run_free(&run);
    run = cli_run("count -d 4 --journal /nonexistent-folder/run.jsonl");
    cr_assert_eq(run.status, 2);
    cr_assert(strstr(run.err, "cannot create journal '/nonexistent-folder/run.jsonl'"), "%s", run.err);
    cr_assert_str_eq(run.out, "");
    cli_run_free(&run);
    run = cli_run("count -d 4 --resume /nonexistent-folder/run.jsonl");
    cr_assert_eq(run.status, 2);
    cr_assert(strstr(run.err, "perft count: --resume: "), "%s", run.err);
    cli_run_free(&run);
}

Test(cmd_count, verify_counts_twice_with_two_key_sets) {
    CliRun run = cli_run("count -d 4 --verify --fen " KIWIPETE);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert(strstr(run.out, "perft(4) = 4085603\n"), "%s", run.out);
    cr_assert(strstr(run.out, "verify: pass 1, key seed 0x5045524654cafe01: 4085603\n"), "%s", run.out);
    cr_assert(strstr(run.out, "verify: pass 2, key seed 0xce722bff2b808214: 4085603\n"), "%s", run.out);
    cr_assert(strstr(run.out, "verify: the two passes agree\n"), "%s", run.out);
    cli_run_free(&run);
    run = cli_run("divide -d 5 --verify --key-seed 42 --json");
    cr_assert_eq(run.status, 0, "%s", run.err);
    json_t *doc = parse_json(&run);
    json_t *verify = json_object_get(doc, "verify"), *passes = json_object_get(verify, "passes");
    cr_assert(json_is_true(json_object_get(verify, "agree")));
    cr_assert_eq(json_array_size(passes), 2);
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(passes, 0), "key_seed")), "0x2a");
    char second[24];
    snprintf(second, sizeof second, "0x%llx", 42ULL ^ 0x9E3779B97F4A7C15ULL);
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(passes, 1), "key_seed")), second);
    for (int p = 0; p < 2; p++)
        cr_assert_str_eq(json_string_value(json_object_get(json_array_get(passes, p), "total")), "4865609");
    json_decref(doc);
    cli_run_free(&run);
}

Test(cmd_count, verify_journals_each_pass_and_resumes_them) {
    char path[512], second[600];
    temp_journal(path, sizeof path);
    snprintf(second, sizeof second, "%s.pass2", path);
    CliRun run = cli_run("count -d 5 --verify -q --journal %s", path);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert_str_eq(run.out, "4865609\n");
    cli_run_free(&run);
    FILE *f = fopen(second, "r");
    cr_assert(f, "pass 2 journals to FILE.pass2");
    char header[512];
    cr_assert(fgets(header, sizeof header, f));
    fclose(f);
    cr_assert(strstr(header, "\"pass\": 2"), "%s", header);
    truncate_by(second, 5);
    run = cli_run("count -d 5 --verify --resume %s", path);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert(strstr(run.out, "verify: the two passes agree\n"), "%s", run.out);
    cr_assert(strstr(run.err, "dropped a torn last line"), "%s", run.err);
    cli_run_free(&run);
    remove_journal(path);
}

/* Review finding: `--trace tt` printed nothing unless `it` came with it. Ply 3 of the
 * start position holds its 5,362 distinct positions (OEIS A083276). */
Test(cmd_count, trace_tables_alone_prints_the_tables_after_the_run) {
    CliRun run = cli_run("count -d 5 -t 1 --hash 64 --trace tt");
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert(strstr(run.out, "perft(5) = 4865609\n"), "%s", run.out);
    cr_assert(strstr(run.out, "trace tt: depth 5\n"), "%s", run.out);
    const char *ply3 = strstr(run.out, "Ply:3 ");
    cr_assert(ply3 && strstr(ply3, " U:5362 ") && strstr(ply3, " U:5362 ") < strchr(ply3, '\n'), "%s", run.out);
    cli_run_free(&run);
}

/* Review finding: with --verify, an old FILE.pass2 was refused only after pass 1 had run;
 * it is refused before anything is counted. */
Test(cmd_count, a_verify_run_refuses_an_old_second_journal_before_counting) {
    char path[512], second[600];
    temp_journal(path, sizeof path);
    snprintf(second, sizeof second, "%s.pass2", path);
    FILE *f = fopen(second, "w");
    cr_assert(f);
    fputs("{}\n", f);
    fclose(f);
    CliRun run = cli_run("count -d 5 --verify --journal %s", path);
    cr_assert_eq(run.status, 2, "%s", run.err);
    cr_assert(strstr(run.err, ".pass2' exists: continue it with --resume '"), "%s", run.err);
    cr_assert_str_eq(run.out, "", "nothing was counted");
    cli_run_free(&run);
    remove_journal(path);
}
