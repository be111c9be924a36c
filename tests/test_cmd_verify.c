/* test_cmd_verify.c — `perft verify` in-process: one position or suite files, the
 * option table, JSON, and the summary's words. */
#include "cli_support.h"

#include <jansson.h>
#include <unistd.h>

TestSuite(cmd_verify, .init = core_setup);

#define KIWIPETE "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"

Test(cmd_verify, checks_one_position_given_with_fen) {
    CliRun run = cli_run("verify -d 2 -t 1 --fen '" KIWIPETE "'");
    cr_assert_eq(run.status, 0, "%s%s", run.out, run.err);
    static const char *const checks[] = {"checks", "split", "mirror", "hash", "keys", "notation"};
    for (int i = 0; i < 6; i++) {
        char line[64];
        snprintf(line, sizeof line, "\n%s: 1 passed, 0 failed (", checks[i]);
        cr_assert(strstr(run.out, line), "no '%s' in %s", line + 1, run.out);
    }
    /* Kiwipete: perft 1 and 2 are 48 and 2,039 (the wiki), summed by the mirror check. */
    cr_assert(strstr(run.out, "mirror: 1 passed, 0 failed (2,087 leaves counted, "), "%s", run.out);
    cr_assert(strstr(run.out, "pass  position                     " KIWIPETE " 0 1\n"), "%s", run.out);
    cr_assert(strstr(run.out, "verify: all 6 checks passed on 1 position ("), "%s", run.out);
    cr_assert_str_eq(run.err, "");
    cli_run_free(&run);
}

Test(cmd_verify, one_check_on_a_position_after_moves_says_it_in_the_singular) {
    CliRun run = cli_run("verify -d 3 --moves 'e4 e5' --check mirror");
    cr_assert_eq(run.status, 0, "%s%s", run.out, run.err);
    cr_assert(strstr(run.out, "pass  position                     rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq"),
              "%s", run.out);
    cr_assert(strstr(run.out, "verify: 1 check passed on 1 position ("), "%s", run.out);
    cr_assert_null(strstr(run.out, "== checks"), "only mirror ran: %s", run.out);
    cli_run_free(&run);
}

Test(cmd_verify, json_has_every_check_and_position_and_a_summary) {
    CliRun run = cli_run("verify -d 2 --startpos --check checks,hash --json -t 1");
    cr_assert_eq(run.status, 0, "%s", run.err);
    json_error_t error;
    json_t *doc = json_loads(run.out, 0, &error);
    cr_assert(doc, "not JSON (%s): %s", error.text, run.out);
    cr_assert_eq(json_integer_value(json_object_get(doc, "schema")), 1);
    cr_assert_str_eq(json_string_value(json_object_get(doc, "command")), "verify");
    json_t *options = json_object_get(doc, "options");
    cr_assert_eq(json_integer_value(json_object_get(options, "depth")), 2);
    cr_assert_eq(json_integer_value(json_object_get(options, "hash_mb")), 16);
    cr_assert_eq(json_integer_value(json_object_get(options, "threads")), 1);
    cr_assert_eq(json_array_size(json_object_get(options, "checks")), 2);
    json_t *checks = json_object_get(doc, "checks");
    cr_assert_eq(json_array_size(checks), 2);
    json_t *hash = json_array_get(checks, 1);
    cr_assert_str_eq(json_string_value(json_object_get(hash, "name")), "hash");
    cr_assert(json_is_true(json_object_get(hash, "pass")));
    cr_assert_eq(json_integer_value(json_object_get(hash, "passed")), 1);
    cr_assert_eq(json_integer_value(json_object_get(hash, "failed")), 0);
    json_t *position = json_array_get(json_object_get(hash, "positions"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(position, "fen")), FEN_STARTPOS);
    cr_assert(json_is_true(json_object_get(position, "pass")));
    cr_assert(json_is_null(json_object_get(position, "detail")));
    cr_assert(json_is_null(json_object_get(position, "file")));
    cr_assert(json_is_string(json_object_get(json_array_get(checks, 0), "nodes")));
    json_t *summary = json_object_get(doc, "summary");
    cr_assert(json_is_true(json_object_get(summary, "pass")));
    cr_assert_eq(json_integer_value(json_object_get(summary, "checks")), 2);
    cr_assert_eq(json_integer_value(json_object_get(summary, "failed_checks")), 0);
    cr_assert_eq(json_integer_value(json_object_get(summary, "positions")), 1);
    cr_assert_eq(json_integer_value(json_object_get(summary, "malformed")), 0);
    json_decref(doc);
    cli_run_free(&run);
}

Test(cmd_verify, reads_files_as_suite_does_and_names_malformed_lines) {
    char path[] = "/tmp/perftkit-cmd-verify-XXXXXX";
    int fd = mkstemp(path);
    static const char text[] = "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;id rook\n"
                               "\0garbage\n"
                               "id queen-side\nepd 4k3/8/8/8/8/8/8/R3K3 w Q -\nperft 1 16\n";
    cr_assert_eq(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    close(fd);
    CliRun run = cli_run("verify -d 2 --check split,keys -q %s", path);
    cr_assert_eq(run.status, 2, "a malformed line: %s", run.out);
    char expected[128];
    snprintf(expected, sizeof expected, "perft verify: %s:2: a NUL byte at column 1 in '\\x00garbage'\n",
             strrchr(path, '/') + 1);
    cr_assert_str_eq(run.err, expected);
    cr_assert(strstr(run.out, "split: 2 passed, 0 failed"), "the other lines still run: %s", run.out);
    cr_assert(strstr(run.out, "verify: all 2 checks passed on 2 positions ("), "%s", run.out);
    cr_assert_null(strstr(run.out, "pass  "), "-q prints no pass lines: %s", run.out);
    cli_run_free(&run);

    run = cli_run("verify --fen '" KIWIPETE "' %s", path);
    cr_assert_eq(run.status, 2);
    cr_assert_str_eq(run.err, "perft verify: a position (--fen, --startpos, --moves) and FILE both given; choose one\n");
    cli_run_free(&run);
    unlink(path);
}

Test(cmd_verify, the_quick_selection_without_files) {
    CliRun run = cli_run("verify -d 1 --check mirror");
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert(strstr(run.out, "mirror: 61 passed, 0 failed ("), "%s", run.out);
    cr_assert(strstr(run.out, "verify: 1 check passed on 61 positions ("), "%s", run.out);
    cli_run_free(&run);
}

Test(cmd_verify, options_are_checked_by_the_table) {
    static const struct {
        const char *args, *message;
    } cases[] = {
        {"verify --check keys,frobs", "perft verify: --check: 'frobs' is not checks, split, mirror, hash, keys or notation\n"},
        {"verify -d 0", "perft verify: --depth 0 is out of range 1..32\n"},
        {"verify -d 33", "perft verify: --depth 33 is out of range 1..32\n"},
        {"verify -t 0", "perft verify: --threads 0 is out of range 1..1024\n"},
        {"verify --fen '8/8/8/8 w - - 0 1'", NULL},
        {"verify /nonexistent/file.epd", "perft verify: cannot read '/nonexistent/file.epd': No such file or directory\n"},
        {"verify --max-nodes 5", "perft verify: unknown option '--max-nodes' (try perft verify --help)\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CliRun run = cli_run("%s", cases[i].args);
        cr_assert_eq(run.status, 2, "%s: %d", cases[i].args, run.status);
        if (cases[i].message)
            cr_assert_str_eq(run.err, cases[i].message, "%s", cases[i].args);
        else
            cr_assert(strstr(run.err, "perft verify: bad FEN '8/8/8/8 w - - 0 1'"), "%s", run.err);
        cr_assert_str_eq(run.out, "", "%s", cases[i].args);
        cli_run_free(&run);
    }
}
