/* test_check.c — `perft check` (uci/check, uci/engine, cli/cmd_check) against engines
 * that agree (perftkit itself), against a test engine with one planted fault each
 * (which must be bisected to the exact position and move planted), and against engines
 * that misbehave (no handshake, crash, hang, garbage), which must end the check cleanly
 * with the engine reaped and one line naming it by its command. The commands run
 * in-process (tests/cli_support.h); the engines are real child processes. */
#include "cli_support.h"

#include <dirent.h>
#include <jansson.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../uci/engine.h"

TestSuite(check, .init = core_setup, .timeout = 600);

static const char *perft_bin(void) { return getenv("PERFTKIT_BIN"); }
static const char *faulty(void) { return getenv("PERFTKIT_FAULTY_ENGINE"); }

/* Runs `perft check --json` against the faulty engine with `fault`; returns the failure. */
static json_t *planted(const char *fault, const char *fen, int depth) {
    CliRun run = cli_run("check -t 1 --json --engine '%s %s' --fen '%s' -d %d", faulty(), fault, fen, depth);
    cr_assert_eq(run.status, 1, "a planted fault must be found: %s%s", run.out, run.err);
    json_error_t error;
    json_t *doc = json_loads(run.out, 0, &error);
    cr_assert(doc, "not JSON (%s): %s", error.text, run.out);
    cli_run_free(&run);
    json_t *position = json_array_get(json_object_get(doc, "positions"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(position, "status")), "differ");
    json_t *failure = json_incref(json_object_get(position, "failure"));
    json_decref(doc);
    return failure;
}

static void assert_moves(json_t *list, int count, const char *const *moves, const char *what) {
    cr_assert_eq(json_array_size(list), (size_t)count, "%s: %zu moves, expected %d", what, json_array_size(list), count);
    for (int i = 0; i < count; i++) {
        bool found = false;
        for (size_t j = 0; j < json_array_size(list); j++)
            found |= !strcmp(json_string_value(json_array_get(list, j)), moves[i]);
        cr_assert(found, "%s lacks %s", what, moves[i]);
    }
}

static void assert_path(json_t *failure, int length, const char *const *path, const char *fen) {
    json_t *p = json_object_get(failure, "path");
    cr_assert_eq(json_array_size(p), (size_t)length);
    for (int i = 0; i < length; i++)
        cr_assert_str_eq(json_string_value(json_array_get(p, (size_t)i)), path[i]);
    cr_assert_str_eq(json_string_value(json_object_get(failure, "fen")), fen);
    cr_assert_eq(json_integer_value(json_object_get(failure, "depth")), 1);
}

Test(check, missing_en_passant_is_found_where_the_pawn_just_advanced_two) {
    /* Only d2d4 lets the e4 pawn take e.p.; after it, the engine lacks exd3. */
    json_t *f = planted("no-ep", "4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1", 2);
    assert_path(f, 1, (const char *[]){"d2d4"}, "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1");
    assert_moves(json_object_get(f, "missing"), 1, (const char *[]){"e4d3"}, "missing");
    assert_moves(json_object_get(f, "extra"), 0, NULL, "extra");
    Position reached = position_of(json_string_value(json_object_get(f, "fen")), false);
    cr_assert_eq(move_kind(move_parse_uci(&reached, "e4d3")), MOVE_EN_PASSANT, "the missing move is an e.p. capture");
    json_decref(f);
}

Test(check, castling_through_an_attacked_square_is_found_as_an_illegal_move) {
    /* The f2 rook covers f1: after the first black move in UCI order (Kd7) the engine
     * castles king-side through f1 anyway. */
    json_t *f = planted("castle-through-check", "4k3/8/8/8/8/8/5r2/R3K2R b KQ - 0 1", 2);
    assert_path(f, 1, (const char *[]){"e8d7"}, "8/3k4/8/8/8/8/5r2/R3K2R w KQ - 1 2");
    assert_moves(json_object_get(f, "extra"), 1, (const char *[]){"e1g1"}, "extra");
    assert_moves(json_object_get(f, "missing"), 0, NULL, "missing");
    json_decref(f);
}

Test(check, missing_underpromotions_are_found_at_the_promotion) {
    json_t *f = planted("no-underpromotion", "8/8/P7/8/8/8/8/k6K w - - 0 1", 3);
    assert_path(f, 2, (const char *[]){"a6a7", "a1a2"}, "8/P7/8/8/8/8/k7/7K w - - 1 2");
    assert_moves(json_object_get(f, "missing"), 3, (const char *[]){"a7a8r", "a7a8b", "a7a8n"}, "missing");
    json_decref(f);
}

Test(check, a_move_listed_twice_is_found_as_duplicated) {
    json_t *f = planted("duplicate-king-captures", "4k3/8/8/8/8/4p3/8/4K3 b - - 0 1", 2);
    assert_path(f, 1, (const char *[]){"e3e2"}, "4k3/8/8/8/8/8/4p3/4K3 w - - 0 2");
    assert_moves(json_object_get(f, "duplicated"), 1, (const char *[]){"e1e2"}, "duplicated");
    assert_moves(json_object_get(f, "missing"), 0, NULL, "missing");
    assert_moves(json_object_get(f, "extra"), 0, NULL, "extra");
    json_decref(f);
}

Test(check, text_report_gives_the_case_and_how_to_reproduce_it) {
    CliRun run = cli_run("check --engine '%s no-ep' --fen '4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1' -d 2", faulty());
    cr_assert_eq(run.status, 1);
    char named[1024];
    snprintf(named, sizeof named, "the engine '%s no-ep' disagrees", faulty());
    cr_assert(strstr(run.out, named), "the engine is named by its command: %s", run.out);
    cr_assert_not(strstr(run.out, "faulty-no-ep"), "not by its id name: %s", run.out);
    cr_assert(strstr(run.out, "DIFFER  position"), "%s", run.out);
    cr_assert(strstr(run.out, "    moves      d2d4\n"), "%s", run.out);
    cr_assert(strstr(run.out, "    missing     e4d3"), "%s", run.out);
    cr_assert(strstr(run.out, "reproduce  perft divide -d 1 --fen \"4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1\" --moves \"d2d4\""),
              "%s", run.out);
    cr_assert(strstr(run.out, "      position fen 4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1 moves d2d4\n      go perft 1\n"),
              "%s", run.out);
    cr_assert(strstr(run.out, "0 agree, 1 differ, 0 errors"), "%s", run.out);
    cr_assert_str_eq(run.err, "");
    cli_run_free(&run);
}

Test(check, perftkit_agrees_with_itself_on_the_suites) {
    static const char *const files[] = {"pychess_tricky.epd", "pychess_tricky_960.epd", "peterellisjones_gist.epd",
                                        "roce_perftsuite.epd", "stockfish_perft_sh_960.epd"};
    static const int positions[] = {13, 5, 23, 126, 11};
    for (int i = 0; i < 5; i++) {
        char path[1024];
        CliRun run = cli_run("check -t 1 --engine '%s uci' '%s' -d 2", perft_bin(), suite_path(files[i], path, sizeof path));
        char summary[64];
        snprintf(summary, sizeof summary, "%d agree, 0 differ, 0 errors", positions[i]);
        cr_assert_eq(run.status, 0, "%s: %s", files[i], run.out);
        cr_assert(strstr(run.out, summary), "%s: %s", files[i], run.out);
        cli_run_free(&run);
    }
}

Test(check, a_suite_uses_its_deepest_depth_whose_known_count_is_under_max_known) {
    char path[1024];
    CliRun run = cli_run("check --engine '%s none' '%s' --max-known 100000 --json", faulty(),
                         suite_path("pychess_tricky_960.epd", path, sizeof path));
    cr_assert_eq(run.status, 0, "%s%s", run.out, run.err);
    json_error_t error;
    json_t *doc = json_loads(run.out, 0, &error);
    cr_assert(doc, "%s", error.text);
    json_t *first = json_array_get(json_object_get(doc, "positions"), 0);
    cr_assert_eq(json_integer_value(json_object_get(first, "depth")), 3, "12333 at D3, 285754 at D4");
    cr_assert_str_eq(json_string_value(json_object_get(first, "nodes")), "12333");
    cr_assert_eq(json_integer_value(json_object_get(json_object_get(doc, "summary"), "agree")), 5, "5 positions");
    json_decref(doc);
    cli_run_free(&run);
}

/* `text` is one line: no control byte but its final newline. */
static void assert_one_line(const char *text) {
    size_t n = strlen(text);
    cr_assert(n > 0 && text[n - 1] == '\n', "not a line: '%s'", text);
    for (size_t i = 0; i + 1 < n; i++)
        cr_assert((unsigned char)text[i] >= 0x20 && text[i] != 0x7f, "byte 0x%02x at %zu in: %s",
                  (unsigned char)text[i], i, text);
}

/* True when a process (not a zombie) whose command line holds `tag` still exists. */
static bool still_running(const char *tag) {
    DIR *proc = opendir("/proc");
    cr_assert(proc);
    bool found = false;
    for (struct dirent *d; !found && (d = readdir(proc));) {
        if (d->d_name[0] < '0' || d->d_name[0] > '9')
            continue;
        char path[300], text[4096], state = '?';
        snprintf(path, sizeof path, "/proc/%s/cmdline", d->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t n = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        for (size_t i = 0; i < n; i++) /* arguments are NUL-separated */
            if (!text[i])
                text[i] = ' ';
        text[n] = '\0';
        snprintf(path, sizeof path, "/proc/%s/stat", d->d_name);
        if ((f = fopen(path, "r"))) {
            if (fscanf(f, "%*d %*s %c", &state) != 1)
                state = '?';
            fclose(f);
        }
        found = strstr(text, tag) && state != 'Z';
    }
    closedir(proc);
    return found;
}

static void assert_broken(const char *fault, const char *expected, double timeout) {
    char tag[64];
    snprintf(tag, sizeof tag, "perftkit-tag-%d-%s", (int)getpid(), fault);
    time_t start = time(NULL);
    CliRun run = cli_run("check --engine '%s %s %s' -d 2 --timeout %g", faulty(), fault, tag, timeout);
    cr_assert_eq(run.status, 2, "%s: %s%s", fault, run.out, run.err);
    char *said = strstr(run.out, "ERROR ") ? strstr(run.out, "ERROR ") : run.err;
    said[strcspn(said, "\n") + 1] = '\0'; /* the ERROR line, or the message */
    cr_assert(strstr(said, expected), "%s said: %s", fault, said);
    cr_assert(strstr(said, "faulty_engine"), "the message names the engine by its command: %s", said);
    assert_one_line(said);
    cli_run_free(&run);
    cr_assert_leq(time(NULL) - start, (time_t)timeout + 5);
    cr_assert_not(still_running(tag), "the %s engine was left running", fault);
}

Test(check, a_crashing_engine_is_reported_and_reaped) {
    assert_broken("crash", "was killed by signal 6", 10);
}

Test(check, a_hanging_engine_is_stopped_at_the_timeout) {
    assert_broken("hang", "gave no total for 'go perft 2' within 1 s", 1);
}

Test(check, garbage_output_is_named) {
    assert_broken("garbage", "answered 'go perft 2' with 'xyzzy: 20', which is not a UCI move and a count", 10);
}

Test(check, an_engine_that_never_gives_a_total_times_out) {
    assert_broken("silent", "gave no total for 'go perft 2' within 1 s", 1);
}

Test(check, a_program_that_is_no_uci_engine_is_refused) {
    time_t start = time(NULL);
    CliRun run = cli_run("check --engine 'sleep 30' -d 2 --timeout 1");
    cr_assert_eq(run.status, 2);
    cr_assert_str_eq(run.err, "perft check: engine 'sleep 30' did not answer 'uci' with 'uciok' within 1 s: not a "
                              "UCI engine, or too slow\n");
    cr_assert_str_eq(run.out, "", "an engine that never started has its one line on stderr");
    cr_assert_leq(time(NULL) - start, 4);
    cr_assert_not(still_running("sleep 30"));
    cli_run_free(&run);
    run = cli_run("check --engine /no/such/engine -d 2");
    cr_assert_eq(run.status, 2);
    cr_assert_str_eq(run.err, "perft check: engine '/no/such/engine' could not be run (no such program?)\n");
    cli_run_free(&run);
    run = cli_run("check -d 2");
    cr_assert(run.status == 2 && strstr(run.err, "--engine \"CMD\" is needed"), "%s", run.err);
    cli_run_free(&run);
}

/* Defect 6: an engine that exits at once (before or after reading 'uci': a race) gave a
 * message with the raw newline of the command it could not be sent. */
Test(check, an_engine_that_exits_at_once_gets_one_line_naming_its_command) {
    for (int i = 0; i < 100; i++) {
        Engine *engine = calloc(1, sizeof *engine);
        cr_assert_not(engine_start(engine, "/bin/false", 5, NULL));
        cr_assert(strstr(engine->error, "engine '/bin/false' exited with status 1"), "%s", engine->error);
        cr_assert_not(strchr(engine->error, '\n'), "a raw newline in: %s", engine->error);
        engine_stop(engine);
        free(engine);
    }
    for (int i = 0; i < 10; i++) {
        CliRun run = cli_run("check --engine /bin/false -d 2");
        cr_assert_eq(run.status, 2);
        cr_assert(!strncmp(run.err, "perft check: engine '/bin/false' exited with status 1", 53), "%s", run.err);
        assert_one_line(run.err);
        cli_run_free(&run);
    }
}

Test(check, engine_output_is_quoted_in_messages) {
    assert_broken("escape", "answered 'go perft 2' with '\\x1B[2Jxyzzy\\x07: 20', which is not a UCI move", 10);
}

Test(check, files_are_operands_and_checked_in_turn) {
    char a[1024], b[1024];
    suite_path("pychess_tricky.epd", a, sizeof a);
    suite_path("pychess_tricky_960.epd", b, sizeof b);
    CliRun run = cli_run("check -t 1 --engine '%s none' '%s' '%s' -d 1", faulty(), a, b);
    cr_assert_eq(run.status, 0, "%s%s", run.out, run.err);
    cr_assert(strstr(run.out, "agree   pychess_tricky.epd:4"), "%s", run.out);
    cr_assert(strstr(run.out, "\n18 agree, 0 differ, 0 errors\n"), "13 and 5 positions: %s", run.out);
    cli_run_free(&run);
    run = cli_run("check --engine '%s none' '%s' /no/such.epd -d 1", faulty(), a);
    cr_assert_eq(run.status, 2, "an unreadable file is an error");
    cr_assert(strstr(run.err, "cannot read '/no/such.epd'"), "%s", run.err);
    cr_assert(strstr(run.out, "13 agree, 0 differ, 1 errors"), "%s", run.out);
    cli_run_free(&run);
    run = cli_run("check --engine '%s none' '%s' --fen '4k3/8/8/8/8/8/8/4K3 w - - 0 1'", faulty(), a);
    cr_assert_eq(run.status, 2);
    cr_assert(strstr(run.err, "FILE operands name the positions to check; drop --fen"), "%s", run.err);
    cli_run_free(&run);
    run = cli_run("check --engine '%s none' --max-nodes 1000", faulty());
    cr_assert_eq(run.status, 2, "--max-nodes is count's limit; check's is --max-known");
    cli_run_free(&run);
}

Test(check, json_document_names_the_engine_and_sums_up) {
    CliRun run = cli_run("check -t 1 --json --engine '%s none' --fen '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1' -d 3",
                         faulty());
    cr_assert_eq(run.status, 0, "%s%s", run.out, run.err);
    json_error_t error;
    json_t *doc = json_loads(run.out, 0, &error);
    cr_assert(doc, "not JSON (%s): %s", error.text, run.out);
    cr_assert_eq(json_integer_value(json_object_get(doc, "schema")), 1);
    cr_assert_str_eq(json_string_value(json_object_get(doc, "command")), "check");
    char engine[1024];
    snprintf(engine, sizeof engine, "%s none", faulty());
    cr_assert_str_eq(json_string_value(json_object_get(doc, "engine")), engine);
    cr_assert(json_number_value(json_object_get(doc, "timeout")) == 120);
    json_t *first = json_array_get(json_object_get(doc, "positions"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(first, "label")), "position");
    cr_assert_str_eq(json_string_value(json_object_get(first, "status")), "agree");
    cr_assert_str_eq(json_string_value(json_object_get(first, "nodes")), "2812", "the wiki's position 3 at depth 3");
    json_t *summary = json_object_get(doc, "summary");
    cr_assert_eq(json_integer_value(json_object_get(summary, "agree")), 1);
    cr_assert_eq(json_integer_value(json_object_get(summary, "differ")), 0);
    cr_assert_eq(json_integer_value(json_object_get(summary, "errors")), 0);
    json_decref(doc);
    cli_run_free(&run);
}
