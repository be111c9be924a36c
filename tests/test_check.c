/* test_check.c — `perft check` (uci/check, uci/engine, cli/cmd_check) against engines
 * that agree (perftkit itself), against a test engine with one planted fault each
 * (which must be bisected to the exact position and move planted), and against engines
 * that misbehave (no handshake, crash, hang, garbage), which must end the check cleanly
 * with the engine reaped and one line naming it by its command. The commands run
 * in-process (tests/cli_support.h); the engines are real child processes. */
#include "cli_support.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
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
    /* a sleep of this test's own (30.PID seconds), so that the scan for it cannot meet
     * another test's */
    char sleeper[64], expected[256];
    snprintf(sleeper, sizeof sleeper, "sleep 30.%d", (int)getpid());
    snprintf(expected, sizeof expected, "perft check: engine '%s' did not answer 'uci' with 'uciok' within 1 s: not "
             "a UCI engine, or too slow\n", sleeper);
    time_t start = time(NULL);
    CliRun run = cli_run("check --engine '%s' -d 2 --timeout 1", sleeper);
    cr_assert_eq(run.status, 2);
    cr_assert_str_eq(run.err, expected);
    cr_assert_str_eq(run.out, "", "an engine that never started has its one line on stderr");
    cr_assert_leq(time(NULL) - start, 4);
    cr_assert_not(still_running(sleeper));
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

/* ---- Hostile engines: small shell scripts written by the test ---------------------- */

/* A hostile engine: a shell script in a fresh directory that records its pid (which perft
 * check makes the id of its process group) in DIR/pid, answers `uci` with `on_uci` and
 * `isready` with readyok, runs `on_go` for `go` and `on_quit` for `quit`. */
typedef struct Hostile {
    char dir[64], script[96];
} Hostile;

static Hostile hostile(const char *prelude, const char *on_uci, const char *on_go, const char *on_quit) {
    Hostile h;
    snprintf(h.dir, sizeof h.dir, "/tmp/perftkit-engine-XXXXXX");
    cr_assert(mkdtemp(h.dir));
    snprintf(h.script, sizeof h.script, "%s/engine.sh", h.dir);
    FILE *f = fopen(h.script, "w");
    cr_assert(f);
    fprintf(f,
            "#!/bin/sh\necho $$ > %s/pid\n%s\n"
            "while read -r command rest; do\n"
            "  case \"$command\" in\n"
            "    uci) %s ;;\n"
            "    isready) echo readyok ;;\n"
            "    go) %s ;;\n"
            "    quit) %s ;;\n"
            "  esac\n"
            "done\n",
            h.dir, prelude, on_uci ? on_uci : "printf 'id name hostile\\nuciok\\n'", on_go, on_quit ? on_quit : "exit 0");
    fclose(f);
    cr_assert_eq(chmod(h.script, 0755), 0);
    return h;
}

static double seconds_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Live (not zombie) processes whose process group is `pgid`, from /proc. */
static int group_members(pid_t pgid) {
    DIR *proc = opendir("/proc");
    cr_assert(proc);
    int members = 0;
    for (struct dirent *d; (d = readdir(proc));) {
        if (d->d_name[0] < '0' || d->d_name[0] > '9')
            continue;
        char path[300], text[1024];
        snprintf(path, sizeof path, "/proc/%s/stat", d->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t n = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        text[n] = '\0';
        char *after = strrchr(text, ')'), state;
        int parent, group;
        if (after && sscanf(after + 1, " %c %d %d", &state, &parent, &group) == 3 && group == pgid && state != 'Z')
            members++;
    }
    closedir(proc);
    return members;
}

/* The engine's process group is gone: no process left in it, not even a zombie. */
static void assert_group_reaped(const Hostile *h) {
    char path[128];
    snprintf(path, sizeof path, "%s/pid", h->dir);
    FILE *f = fopen(path, "r");
    cr_assert(f, "the engine never started");
    int pgid = 0;
    cr_assert_eq(fscanf(f, "%d", &pgid), 1);
    fclose(f);
    cr_assert_gt(pgid, 1);
    for (int i = 0; i < 100 && (group_members(pgid) || kill(-pgid, 0) == 0); i++)
        nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
    cr_assert_eq(group_members(pgid), 0, "a process of the engine's group %d is still running", pgid);
    cr_assert(kill(-pgid, 0) != 0 && errno == ESRCH, "the engine's group %d is not reaped", pgid);
    unlink(path);
    unlink(h->script);
    rmdir(h->dir);
}

/* Runs check against `h` with `args`; asserts the exit status, one line saying `expected`
 * that names the engine by its command, the time bound, and the whole group reaped.
 * Returns the message line (static storage, overwritten by the next call). */
static const char *assert_hostile(const Hostile *h, const char *args, int status, const char *expected,
                                  double seconds) {
    static char said[4096];
    double start = seconds_now();
    CliRun run = cli_run("check -t 1 --engine '%s' %s", h->script, args);
    double took = seconds_now() - start;
    cr_assert_eq(run.status, status, "%s: %s%s", expected, run.out, run.err);
    const char *line = strstr(run.out, "ERROR ") ? strstr(run.out, "ERROR ") : run.err;
    snprintf(said, sizeof said, "%.*s", (int)strcspn(line, "\n") + 1, line);
    cli_run_free(&run);
    cr_assert(strstr(said, expected), "expected '%s' in: %s", expected, said);
    char named[160];
    snprintf(named, sizeof named, "engine '%s'", h->script);
    cr_assert(strstr(said, named), "the engine is named by its command: %s", said);
    assert_one_line(said);
    cr_assert_lt(took, seconds, "took %.2f s, more than %g s: %s", took, seconds, said);
    assert_group_reaped(h);
    return said;
}

Test(check, an_engine_writing_megabytes_without_a_newline_is_stopped_at_once) {
    Hostile h = hostile("", NULL, "head -c 5000000 /dev/zero | tr '\\000' x", NULL);
    assert_hostile(&h, "-d 2 --timeout 30", 2,
                   "wrote more than 16384 bytes without a newline while total for 'go perft 2' was awaited: "
                   "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'",
                   5);
    h = hostile("", "head -c 5000000 /dev/zero", "", NULL); /* and in the handshake */
    assert_hostile(&h, "-d 2 --timeout 30", 2, "wrote more than 16384 bytes without a newline while 'uciok' was awaited",
                   5);
}

Test(check, an_engine_printing_endless_garbage_is_stopped_at_once) {
    Hostile h = hostile("", NULL, "yes 'garbage garbage'", NULL);
    assert_hostile(&h, "-d 2 --timeout 30", 2,
                   "printed more than 10000 lines that are neither a move and its count nor a total for 'go perft 2'; "
                   "it printed 'garbage garbage', which is",
                   5);
    h = hostile("", "yes \"$(printf '\\033[2J\\007')\"", "", NULL);
    const char *said = assert_hostile(&h, "-d 2 --timeout 30", 2, "printed more than 10000 lines while 'uciok' was awaited", 5);
    cr_assert_not(strstr(said, "\x1b"), "%s", said);
}

Test(check, a_negative_total_is_reported_as_soon_as_it_is_seen) {
    Hostile h = hostile("", NULL, "printf 'a2a3: 1\\n\\nNodes searched: -5\\n'", NULL);
    assert_hostile(&h, "--startpos -d 1 --timeout 60", 2,
                   "answered 'go perft 1' with 'Nodes searched: -5', a negative count", 5);
    h = hostile("", NULL, "printf 'a2a3: -1\\n'", NULL);
    assert_hostile(&h, "--startpos -d 1 --timeout 60", 2, "answered 'go perft 1' with 'a2a3: -1', a negative count", 5);
}

Test(check, a_count_of_more_than_40_digits_is_refused) {
    Hostile h = hostile("", NULL, "printf 'a2a3: 12345678901234567890123456789012345678901234567890\\n'", NULL);
    assert_hostile(&h, "--startpos -d 1 --timeout 60", 2,
                   "answered 'go perft 1' with 'a2a3: 12345678901234567890123456789012345678901234567890', a count of "
                   "50 digits, more than 40",
                   5);
    h = hostile("", NULL, "printf 'Nodes searched: 340282366920938463463374607431768211456\\n'", NULL);
    assert_hostile(&h, "--startpos -d 1 --timeout 60", 2, "a count past 2^128 - 1", 5);
}

/* Listing moves twice is a move generator's fault like any other: found at the first
 * divide and reported as a difference (exit 1) with every move it lists twice. */
Test(check, an_engine_listing_each_move_twice_is_a_difference_found_at_once) {
    Hostile h = hostile("", NULL,
                        "for m in a2a3 a2a4 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f4 g2g3 g2g4 h2h3 h2h4 "
                        "b1a3 b1c3 g1f3 g1h3; do echo \"$m: 1\"; echo \"$m: 1\"; done; echo 'Nodes searched: 40'",
                        NULL);
    double start = seconds_now();
    CliRun run = cli_run("check -t 1 --json --engine '%s' --startpos -d 1 --timeout 60", h.script);
    cr_assert_eq(run.status, 1, "%s%s", run.out, run.err);
    cr_assert_lt(seconds_now() - start, 5);
    json_error_t error;
    json_t *doc = json_loads(run.out, 0, &error);
    cr_assert(doc, "not JSON (%s): %s", error.text, run.out);
    json_t *failure = json_object_get(json_array_get(json_object_get(doc, "positions"), 0), "failure");
    cr_assert_eq(json_array_size(json_object_get(failure, "duplicated")), 20, "all 20 moves, twice each");
    cr_assert_eq(json_array_size(json_object_get(failure, "missing")), 0);
    cr_assert_eq(json_array_size(json_object_get(failure, "path")), 0, "found at the root");
    json_decref(doc);
    cli_run_free(&run);
    assert_group_reaped(&h);
}

Test(check, an_engine_ignoring_quit_and_sigterm_is_killed_with_its_children) {
    Hostile h = hostile("trap '' TERM", NULL, "sleep 60", ":");
    assert_hostile(&h, "-d 2 --timeout 1", 2, "gave no total for 'go perft 2' within 1 s", 4);
}

Test(check, an_engine_dying_while_its_child_holds_the_pipe_is_seen_at_once) {
    Hostile h = hostile("", NULL, "sleep 60 & exit 3", NULL);
    assert_hostile(&h, "-d 2 --timeout 60", 2, "exited with status 3 while total for 'go perft 2' was awaited", 5);
    /* A child holding the pipe from the start, and an engine that quits when asked. */
    h = hostile("sleep 60 &", NULL, "printf 'Nodes searched: -1\\n'", NULL);
    assert_hostile(&h, "-d 2 --timeout 60", 2, "a negative count", 5);
}

Test(check, an_engine_is_named_by_its_command_with_its_id_name_quoted) {
    Hostile h = hostile("", "printf 'id name \\033[31m????\\nuciok\\n'", "printf 'xyzzy: 20\\n'", NULL);
    const char *said = assert_hostile(&h, "-d 2 --timeout 60", 2,
                                      "(id name '\\x1B[31m?\?\?\?') answered 'go perft 2' with 'xyzzy: 20', which is not a "
                                      "UCI move and a count",
                                      5);
    cr_assert(!strncmp(said, "ERROR   position", 16), "%s", said);
}

Test(check, debian_stockfish_agrees_on_kiwipete_and_chess960_positions) {
    const char *stockfish = "/usr/games/stockfish";
    if (access(stockfish, X_OK) != 0)
        cr_skip_test("no %s (Debian's stockfish package)", stockfish);
    CliRun run = cli_run("check -t 1 --engine %s --fen "
                         "'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1' -d 3",
                         stockfish);
    cr_assert_eq(run.status, 0, "%s%s", run.out, run.err);
    cr_assert(!strncmp(run.out, "agree ", 6) && strstr(run.out, " depth 3, 97862 nodes\n"), "%s", run.out);
    cli_run_free(&run);
    char path[1024];
    run = cli_run("check -t 1 --engine %s '%s' -d 2", stockfish, suite_path("stockfish_perft_sh_960.epd", path, sizeof path));
    cr_assert_eq(run.status, 0, "%s%s", run.out, run.err);
    cr_assert(strstr(run.out, "\n11 agree, 0 differ, 0 errors\n"), "%s", run.out);
    cli_run_free(&run);
}
