/* test_faults.c — perftkit when the machine fails it: memory refused (every allocation
 * of perftkit's own code failed in turn, tables refused, huge pages refused, --hash
 * beyond the free memory or an address-space limit), files and stdout that cannot be
 * written, a pipe closed early, SIGTERM and SIGHUP, and outside text with a byte-order
 * mark, CRLF line ends or control bytes. Failures are injected at link time: this
 * program is linked with --wrap for malloc, calloc, realloc, aligned_alloc, mmap and
 * madvise (tests/meson.build), so the libraries' calls come here first, and jansson is
 * handed the wrapped malloc (faults_setup); production code has no hook. */
#include "cli_support.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void *__real_malloc(size_t size);
void *__wrap_malloc(size_t size);

/* jansson allocates through libc, past the link-time wrapping of perftkit's objects:
 * it is given the wrapped malloc, so its allocations fail in turn too, except where
 * its reader runs. jansson 2.14's reader is not safe when an allocation fails inside
 * it (upstream issue akheron/jansson#362: lex_save drops the failure, and the lexer
 * then reads past its buffer), so a resume, which reads the journal with it, leaves
 * jansson's allocations alone. */
static bool jansson_may_fail = true;

static void *jansson_malloc(size_t size) { return jansson_may_fail ? __wrap_malloc(size) : __real_malloc(size); }

static void faults_setup(void) {
    core_setup();
    json_set_alloc_funcs(jansson_malloc, free);
}

TestSuite(faults, .init = faults_setup, .timeout = 900);

/* ---- Injected failures ---- */

static bool armed;         /* count and fail allocations only inside armed_run */
static long allocations;   /* allocations seen while armed */
static long fail_at;       /* the allocation that fails (1-based); 0: none */
static bool refuse_mmap;   /* every mmap fails, as under a tight limit */
static bool refuse_madvise; /* every madvise fails, as without transparent huge pages,
                               and so does a map from the reserved pool, as without one */
static long madvise_calls;

void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *old, size_t size);
void *__real_aligned_alloc(size_t alignment, size_t size);
void *__real_mmap(void *address, size_t length, int protection, int flags, int fd, off_t offset);
void *__real_mmap64(void *address, size_t length, int protection, int flags, int fd, off_t offset);
int __real_madvise(void *address, size_t length, int advice);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *old, size_t size);
void *__wrap_aligned_alloc(size_t alignment, size_t size);
void *__wrap_mmap(void *address, size_t length, int protection, int flags, int fd, off_t offset);
void *__wrap_mmap64(void *address, size_t length, int protection, int flags, int fd, off_t offset);
int __wrap_madvise(void *address, size_t length, int advice);

/* True when this allocation is the one to fail. */
static bool injected(void) {
    if (!armed || ++allocations != fail_at)
        return false;
    errno = ENOMEM;
    return true;
}

void *__wrap_malloc(size_t size) { return injected() ? NULL : __real_malloc(size); }
void *__wrap_calloc(size_t count, size_t size) { return injected() ? NULL : __real_calloc(count, size); }
void *__wrap_realloc(void *old, size_t size) { return injected() ? NULL : __real_realloc(old, size); }
void *__wrap_aligned_alloc(size_t alignment, size_t size) {
    return injected() ? NULL : __real_aligned_alloc(alignment, size);
}

void *__wrap_mmap(void *address, size_t length, int protection, int flags, int fd, off_t offset) {
    if (armed && (refuse_mmap || (refuse_madvise && (flags & MAP_HUGETLB)))) {
        errno = ENOMEM;
        return MAP_FAILED;
    }
    return __real_mmap(address, length, protection, flags, fd, offset);
}

/* What mmap is called under with 64-bit file offsets (meson's default). */
void *__wrap_mmap64(void *address, size_t length, int protection, int flags, int fd, off_t offset) {
    if (armed && (refuse_mmap || (refuse_madvise && (flags & MAP_HUGETLB)))) {
        errno = ENOMEM;
        return MAP_FAILED;
    }
    return __real_mmap64(address, length, protection, flags, fd, offset);
}

int __wrap_madvise(void *address, size_t length, int advice) {
    if (armed && refuse_madvise) {
        madvise_calls++;
        errno = EINVAL;
        return -1;
    }
    return __real_madvise(address, length, advice);
}

/* `perft ARGS` in-process with the injections armed; allocation number `fail` fails. */
static CliRun armed_run(long fail, const char *args) {
    allocations = 0;
    fail_at = fail;
    armed = true;
    CliRun run = cli_run("%s", args);
    armed = false;
    return run;
}

static int line_count(const char *text) {
    int n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

/* Lines that differ from run to run: times, rates, and the threads a run fell back to. */
static bool varies(const char *line, size_t length) {
    static const char *const words[] = {"time", "second", "rate", "ns_per_leaf", "threads", " s)", NULL};
    char copy[512];
    snprintf(copy, sizeof copy, "%.*s", (int)(length < sizeof copy ? length : sizeof copy - 1), line);
    for (int i = 0; words[i]; i++)
        if (strstr(copy, words[i]))
            return true;
    return false;
}

/* Every line of `part` is a line of `whole` (apart from the varying ones): what a
 * failed run printed is true. */
static void assert_lines_within(const char *part, const char *whole, const char *args, long fail) {
    for (const char *line = part; *line;) {
        size_t n = strcspn(line, "\n");
        if (!varies(line, n)) {
            bool found = false;
            for (const char *w = whole; *w && !found;) {
                size_t m = strcspn(w, "\n");
                found = m == n && !strncmp(w, line, n);
                w += m + (w[m] == '\n');
            }
            cr_assert(found, "'perft %s' with allocation %ld failing printed '%.*s', not in the output of a whole run",
                      args, fail, (int)n, line);
        }
        line += n + (line[n] == '\n');
    }
}

/* The members of `part` and `whole`, JSON values, and the lengths of their arrays are the
 * same (apart from the tables a run may have fallen back from): nothing left out. */
static void assert_same_shape(json_t *part, json_t *whole, const char *where, const char *args, long fail) {
    bool same_kind = json_is_number(part) || json_is_null(part) ? json_is_number(whole) || json_is_null(whole)
                   : json_is_boolean(part) ? json_is_boolean(whole) : json_typeof(part) == json_typeof(whole);
    cr_assert(same_kind, "'perft %s' with allocation %ld failing: %s is of another type", args, fail, where);
    if (json_is_object(whole)) {
        cr_assert_eq(json_object_size(part), json_object_size(whole), "'perft %s' with allocation %ld failing: %s "
                     "has %zu members, not %zu", args, fail, where, json_object_size(part), json_object_size(whole));
        const char *key;
        json_t *value;
        json_object_foreach(whole, key, value) {
            json_t *mine = json_object_get(part, key);
            cr_assert(mine, "'perft %s' with allocation %ld failing: %s lacks \"%s\"", args, fail, where, key);
            if (strcmp(key, "tables"))
                assert_same_shape(mine, value, key, args, fail);
        }
    } else if (json_is_array(whole)) {
        cr_assert_eq(json_array_size(part), json_array_size(whole), "'perft %s' with allocation %ld failing: %s has "
                     "%zu items, not %zu", args, fail, where, json_array_size(part), json_array_size(whole));
        for (size_t i = 0; i < json_array_size(whole); i++)
            assert_same_shape(json_array_get(part, i), json_array_get(whole, i), where, args, fail);
    }
}

/* A JSON document printed by a run with an allocation failing, in whole. */
static void assert_same_document(const char *part, const char *whole, const char *args, long fail) {
    json_error_t why;
    json_t *a = json_loads(part, 0, &why), *b = json_loads(whole, 0, NULL);
    cr_assert(b, "'perft %s' printed what is not one JSON document: %s", args, whole);
    cr_assert(a, "'perft %s' with allocation %ld failing printed what is not one JSON document (%s): %s", args, fail,
              why.text, part);
    assert_same_shape(a, b, "the document", args, fail);
    json_decref(a);
    json_decref(b);
}

/* `err` is one line of error, after any of the lines a resumed run says anyway. */
static void assert_one_error_line(const char *err, const char *args, long fail) {
    const char *line = err;
    while (strstr(line, " units from journal '") && strchr(line, '\n'))
        line = strchr(line, '\n') + 1;
    cr_assert_eq(line_count(line), 1, "'perft %s', allocation %ld failing: not one line: %s", args, fail, err);
    cr_assert(!strncmp(line, "perft ", 6), "%s", err);
}

/* Fails each allocation of `perft ARGS` in turn, the first, then the second, ... until
 * a run makes no more: every run either succeeds with the output of an undisturbed run
 * (`expect` in it) or exits 2 with one line on stderr, and whatever it printed on stdout
 * is part of the undisturbed output. `before` (may be NULL) prepares each run. */
static void each_allocation_fails_cleanly(const char *args, const char *expect, void (*before)(void)) {
    if (before)
        before();
    CliRun whole = armed_run(0, args);
    long total = allocations;
    cr_assert_eq(whole.status, 0, "'perft %s': %s", args, whole.err);
    cr_assert(strstr(whole.out, expect), "'perft %s' printed %s", args, whole.out);
    cr_assert_gt(total, 0, "'perft %s' made no allocation: is the link-time hook in place?", args);
    for (long fail = 1; fail <= total; fail++) {
        if (before)
            before();
        CliRun run = armed_run(fail, args);
        if (run.status == 0) {
            cr_assert(strstr(run.out, expect), "'perft %s' with allocation %ld failing exited 0 with %s", args, fail,
                      run.out);
            if (whole.out[0] == '{')
                assert_same_document(run.out, whole.out, args, fail);
        } else {
            cr_assert_eq(run.status, 2, "'perft %s' with allocation %ld failing exited %d: %s", args, fail,
                         run.status, run.err);
            assert_one_error_line(run.err, args, fail);
            assert_lines_within(run.out, whole.out, args, fail);
        }
        cli_run_free(&run);
    }
    cli_run_free(&whole);
}

Test(faults, every_allocation_of_a_threaded_hashed_count_may_fail) {
    each_allocation_fails_cleanly("count -q -d 5 -t 2 --hash 4", "4865609\n", NULL);
}

Test(faults, every_allocation_of_a_divide_in_json_may_fail) {
    each_allocation_fails_cleanly("divide -d 4 -t 2 --hash 1 --split-ply 2 --json", "\"total\": \"197281\"", NULL);
}

Test(faults, every_allocation_of_a_statistics_run_may_fail) {
    /* Depth 5 runs on two threads; the finished depths are printed as they finish. */
    each_allocation_fails_cleanly("stats -d 5 -t 2 --hash 2", "4865609", NULL);
    each_allocation_fails_cleanly("divide -d 4 --stats --hash 1", "197281", NULL);
}

/* `perft uci` given `go perft 4` with allocation `fail` failing, counted on stdin. */
static CliRun armed_uci_run(long fail, const char *input) {
    allocations = 0;
    fail_at = fail;
    armed = true;
    CliRun run = cli_run_input(input, "uci");
    armed = false;
    return run;
}

Test(faults, every_allocation_of_a_uci_perft_may_fail_and_no_total_is_wrong) {
    const char *input = "setoption name Threads value 2\ngo perft 4\nisready\nquit\n";
    CliRun whole = armed_uci_run(0, input);
    cr_assert_eq(whole.status, 0, "%s", whole.err);
    cr_assert(strstr(whole.out, "Nodes searched: 197281\n"), "%s", whole.out);
    long total = allocations, not_started = 0;
    cr_assert(total > 0);
    for (long fail = 1; fail <= total; fail++) {
        CliRun run = armed_uci_run(fail, input);
        const char *nodes = strstr(run.out, "Nodes searched: ");
        bool refused = strstr(run.out, "info string error: ") != NULL;
        /* the server goes on (isready is answered), unless it could not start at all:
         * then it says so and exits 2 */
        bool started = strstr(run.out, "readyok\n") != NULL;
        cr_assert(started || !strcmp(run.out, "info string error: out of memory\n"), "allocation %ld failing: %s",
                  fail, run.out);
        cr_assert(started || (run.status == 2 && strstr(run.err, "the server could not start")),
                  "allocation %ld failing: the server did not start, yet exited %d: %s", fail, run.status, run.err);
        not_started += !started;
        cr_assert(!nodes || !strncmp(nodes, "Nodes searched: 197281\n", 23), "allocation %ld failing: %s", fail,
                  run.out);
        cr_assert(nodes || refused || run.status != 0, "allocation %ld failing: neither a total nor an error: %s",
                  fail, run.out);
        cli_run_free(&run);
    }
    cr_assert_eq(not_started, 1, "%ld of %ld failing allocations kept the server from starting", not_started, total);
    cli_run_free(&whole);
}

static char journal_path[256];

static void fresh_journal(void) { unlink(journal_path); }

Test(faults, every_allocation_of_a_journaled_count_may_fail) {
    char dir[] = "/tmp/perftkit-faults-XXXXXX";
    cr_assert(mkdtemp(dir));
    snprintf(journal_path, sizeof journal_path, "%s/run.jsonl", dir);
    char args[400];
    snprintf(args, sizeof args, "count -q -d 5 -t 2 --hash 2 --split-ply 2 --journal %s", journal_path);
    each_allocation_fails_cleanly(args, "4865609\n", fresh_journal);
    unlink(journal_path);
    rmdir(dir);
}

static char partial_path[256];

/* The journal of a run stopped early, copied afresh before each resume. */
static void partial_journal(void) {
    char command[700];
    snprintf(command, sizeof command, "cp %s %s", partial_path, journal_path);
    cr_assert_eq(system(command), 0);
}

Test(faults, every_allocation_of_a_resumed_count_may_fail) {
    char dir[] = "/tmp/perftkit-faults-XXXXXX";
    cr_assert(mkdtemp(dir));
    snprintf(journal_path, sizeof journal_path, "%s/run.jsonl", dir);
    snprintf(partial_path, sizeof partial_path, "%s/partial.jsonl", dir);
    CliRun stopped = cli_run("count -q -d 5 -t 1 --hash 0 --split-ply 2 --max-nodes 1000000 --journal %s", partial_path);
    cr_assert_eq(stopped.status, 3, "%s", stopped.err);
    cli_run_free(&stopped);
    char args[400];
    snprintf(args, sizeof args, "count -q -d 5 -t 2 --hash 2 --split-ply 2 --resume %s", journal_path);
    jansson_may_fail = false; /* its reader (see faults_setup) */
    each_allocation_fails_cleanly(args, "4865609\n", partial_journal);
    jansson_may_fail = true;
    unlink(journal_path);
    unlink(partial_path);
    rmdir(dir);
}

Test(faults, tables_the_system_refuses_give_way_to_a_run_without_them) {
    refuse_mmap = true;
    CliRun run = armed_run(0, "count -q -d 5 -t 2 --hash 64");
    refuse_mmap = false;
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert_str_eq(run.out, "4865609\n");
    cr_assert_eq(line_count(run.err), 1, "one line says the tables shrank: %s", run.err);
    cr_assert(strstr(run.err, "perft count: --hash 64: cannot allocate "), "%s", run.err);
    cr_assert(strstr(run.err, "; using 0 MB\n"), "%s", run.err);
    cli_run_free(&run);
    refuse_mmap = true;
    run = armed_run(0, "stats -d 4 --hash 16 --json");
    refuse_mmap = false;
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert(strstr(run.out, "\"nodes\": \"197281\""), "%s", run.out);
    cr_assert(strstr(run.err, "perft stats: --hash 16: cannot allocate "), "%s", run.err);
    cli_run_free(&run);
}

Test(faults, refused_huge_pages_leave_the_tables_and_the_count_alone) {
    refuse_madvise = true;
    madvise_calls = 0;
    CliRun run = armed_run(0, "count -q -d 5 -t 2 --hash 16");
    refuse_madvise = false;
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert_str_eq(run.out, "4865609\n");
    cr_assert_str_eq(run.err, "", "normal pages serve silently");
    cr_assert_gt(madvise_calls, 0, "huge pages were asked for");
    cli_run_free(&run);
}

Test(faults, hash_beyond_the_free_memory_shrinks_to_fit_and_says_so) {
    long total = cli_memory_mb(false), available = cli_memory_mb(true);
    cr_assert_gt(total, 0);
    if (available > total * 7 / 8)
        cr_skip_test("almost all memory is free: --hash cannot exceed it and stay within the machine");
    /* Depth 2 touches no table: the mapping costs no memory. */
    CliRun run = cli_run("count -q -d 2 --hash %ld --json", total);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert(strstr(run.out, "\"total\": \"400\""), "%s", run.out);
    char said[128];
    snprintf(said, sizeof said, "perft count: --hash %ld: more than the free memory allows (", total);
    cr_assert(!strncmp(run.err, said, strlen(said)), "%s", run.err);
    cr_assert_eq(line_count(run.err), 1, "%s", run.err);
    const char *used = strstr(run.out, "\"hash_mb\": ");
    cr_assert(used && atol(used + 11) < total, "the tables used are reported: %s", run.out);
    cli_run_free(&run);
    run = cli_run("count -q -d 2 --hash %ld", total + 1);
    cr_assert_eq(run.status, 2, "beyond the whole machine is an error");
    cr_assert(strstr(run.err, "is more than this machine's memory"), "%s", run.err);
    cli_run_free(&run);
}

/* ---- The binary, in a shell ---- */

static const char *binary(void) {
    const char *bin = getenv("PERFTKIT_BIN");
    cr_assert(bin, "PERFTKIT_BIN is not set (run the tests through meson test)");
    return bin;
}

Test(faults, hash_beyond_an_address_space_limit_shrinks_to_fit) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    cr_skip_test("sanitizers reserve terabytes of address space: ulimit -v cannot apply");
#endif
    Run run = run_command("sh -c 'ulimit -v 600000; exec \"$0\" count -q -d 5 -t 2 --hash 4096 2>&1' '%s'", binary());
    cr_assert_eq(run.status, 0, "%s", run.out);
    cr_assert(strstr(run.out, "perft count: --hash 4096: more than the address-space limit (ulimit -v) allows ("),
              "%s", run.out);
    cr_assert(strstr(run.out, "MB\n4865609\n"), "%s", run.out);
    run = run_command("sh -c 'ulimit -v 400000; exec \"$0\" stats -d 4 --hash 2000 2>&1' '%s'", binary());
    cr_assert_eq(run.status, 0, "%s", run.out);
    cr_assert(strstr(run.out, "197281"), "%s", run.out);
}

Test(faults, stdout_on_a_full_disk_is_one_line_and_exit_2) {
    static const char *const commands[] = {"count -d 3", "divide -d 3", "count -d 3 --json", "stats -d 3",
                                           "units -d 3 --split-ply 2", "unique -d 3", "suite", "verify -d 2", NULL};
    for (int i = 0; commands[i]; i++) {
        Run run = run_command("'%s' %s 2>&1 >/dev/full", binary(), commands[i]);
        cr_assert_eq(run.status, 2, "%s: %s", commands[i], run.out);
        const char *said = strstr(run.out, ": cannot write the output: ");
        cr_assert(said, "%s: %s", commands[i], run.out);
        cr_assert_null(strstr(said + strlen(": cannot write"), "cannot write"), "said once: %s", run.out);
    }
}

/* `perft ARGS` with stdout a pipe whose reader has gone; stderr into `err`. Returns
 * the wait status. */
static int run_into_closed_pipe(char *const args[], char *err, size_t size) {
    int out[2], errors[2];
    cr_assert_eq(pipe(out), 0);
    cr_assert_eq(pipe(errors), 0);
    close(out[0]); /* the reader goes before anything is written */
    pid_t child = fork();
    cr_assert(child >= 0);
    if (child == 0) {
        dup2(out[1], STDOUT_FILENO);
        dup2(errors[1], STDERR_FILENO);
        close(errors[0]);
        signal(SIGPIPE, SIG_IGN); /* as a careless parent leaves it: perft restores the default */
        char *argv[32] = {(char *)binary()};
        for (int i = 0; args[i] && i < 30; i++)
            argv[i + 1] = args[i];
        execv(argv[0], argv);
        _exit(127);
    }
    close(out[1]);
    close(errors[1]);
    size_t n = 0;
    ssize_t got;
    while ((got = read(errors[0], err + n, size - 1 - n)) > 0)
        n += (size_t)got;
    err[n] = '\0';
    close(errors[0]);
    int status;
    cr_assert_eq(waitpid(child, &status, 0), child);
    return status;
}

/* Ended by SIGPIPE, or by exit status 141 after catching it (count and divide). */
static bool ended_by_closed_pipe(int status) {
    return (WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE) || (WIFEXITED(status) && WEXITSTATUS(status) == 141);
}

Test(faults, a_pipe_closed_early_ends_quietly) {
    Run run = run_command("{ '%s' divide -d 6 | head -1; } 2>&1", binary());
    cr_assert(strstr(run.out, "a2a3: 4463267\n"), "%s", run.out);
    cr_assert_null(strstr(run.out, "cannot write"), "%s", run.out);
    cr_assert_null(strstr(run.out, "Broken pipe"), "%s", run.out);
    char err[4096];
    char *divide[] = {"divide", "-d", "4", NULL};
    int status = run_into_closed_pipe(divide, err, sizeof err);
    cr_assert(ended_by_closed_pipe(status), "status %d: %s", status, err);
    cr_assert_null(strstr(err, "cannot write"), "%s", err);
    char *suite[] = {"suite", NULL};
    status = run_into_closed_pipe(suite, err, sizeof err);
    cr_assert(ended_by_closed_pipe(status), "status %d: %s", status, err);
    cr_assert_str_eq(err, "");
}

Test(faults, a_pipe_closed_under_a_journaled_run_stops_it_resumably) {
    char dir[] = "/tmp/perftkit-faults-XXXXXX", path[128], err[8192];
    cr_assert(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/run.jsonl", dir);
    char *args[] = {"count", "-d", "6", "-t", "2", "--hash", "16", "--trace", "pz", "--journal", path, NULL};
    int status = run_into_closed_pipe(args, err, sizeof err);
    /* The first trace line raises SIGPIPE: the run stops as on Ctrl-C (unless it was
     * about done), the journal is closed whole, and the end is quiet. */
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 141, "status %d: %s", status, err);
    cr_assert_null(strstr(err, "cannot write"), "%s", err);
    CliRun run = cli_run("count -q -d 6 -t 2 --resume %s", path);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert_str_eq(run.out, "119060324\n");
    cli_run_free(&run);
    unlink(path);
    rmdir(dir);
}

Test(faults, a_pipe_closed_under_an_in_process_command_is_status_141_and_silent) {
    signal(SIGPIPE, SIG_IGN);
    int ends[2];
    cr_assert_eq(pipe(ends), 0);
    close(ends[0]);
    FILE *out = fdopen(ends[1], "w"), *in = fopen("/dev/null", "r");
    char *err_text = NULL;
    size_t err_size;
    FILE *err = open_memstream(&err_text, &err_size);
    char *argv[] = {"perft", "divide", "-d", "3", NULL};
    int status = cli_main(in, out, err, 4, argv);
    fclose(err);
    cr_assert_eq(status, 141);
    cr_assert_null(strstr(err_text, "cannot write"), "%s", err_text);
    free(err_text);
    fclose(in);
    fclose(out);
    signal(SIGPIPE, SIG_DFL);
}

/* A regular file's path with a folder under it: no file can be made there, even by root. */
static void path_under_a_file(char *out, size_t size, char *file, const char *name) {
    int fd = mkstemp(file);
    cr_assert(fd >= 0);
    close(fd);
    snprintf(out, size, "%s/%s", file, name);
}

Test(faults, files_that_cannot_be_written_are_named_with_the_reason) {
    char file[] = "/tmp/perftkit-file-XXXXXX", path[128];
    path_under_a_file(path, sizeof path, file, "out");
    CliRun run = cli_run("count -d 3 --journal %s", path);
    cr_assert_eq(run.status, 2);
    cr_assert(strstr(run.err, "cannot create journal '") && strstr(run.err, ": Not a directory"), "%s", run.err);
    cr_assert_str_eq(run.out, "");
    cli_run_free(&run);
    run = cli_run("suite --junit %s", path);
    cr_assert_eq(run.status, 2);
    cr_assert(strstr(run.err, "cannot write '") && strstr(run.err, ": Not a directory"), "%s", run.err);
    cli_run_free(&run);
    run = cli_run("suite --junit /dev/full");
    cr_assert_eq(run.status, 2, "%s", run.err);
    cr_assert(strstr(run.err, "cannot write '/dev/full': No space left on device"), "%s", run.err);
    cli_run_free(&run);
    unlink(file);
}

/* Writes `text` to a new temporary file named after `pattern`. */
static void write_file(char *pattern, const char *text, size_t length) {
    int fd = mkstemp(pattern);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, text, length), (ssize_t)length);
    close(fd);
}

Test(faults, a_file_limit_leaves_the_old_junit_file_whole_and_no_temporary) {
    char dir[] = "/tmp/perftkit-faults-XXXXXX", junit[128], command[1024];
    cr_assert(mkdtemp(dir));
    snprintf(junit, sizeof junit, "%s/junit.xml", dir);
    FILE *f = fopen(junit, "w");
    fputs("<old/>\n", f);
    fclose(f);
    /* ulimit -f 1: at most 512 bytes per file (SIGXFSZ ignored, so a write fails with
     * EFBIG); the quick selection's JUnit document is longer. */
    snprintf(command, sizeof command, "sh -c 'trap \"\" XFSZ; ulimit -f 1; exec \"$0\" suite --junit %s 2>&1' '%s'",
             junit, binary());
    Run run = run_command("%s", command);
    cr_assert_eq(run.status, 2, "%s", run.out);
    cr_assert(strstr(run.out, "cannot write '") && strstr(run.out, "junit.xml': File too large"), "%s", run.out);
    f = fopen(junit, "r");
    char old[64] = "";
    cr_assert(fgets(old, sizeof old, f));
    fclose(f);
    cr_assert_str_eq(old, "<old/>\n", "the old file is whole");
    snprintf(command, sizeof command, "ls -A %s", dir);
    run = run_command("%s", command);
    cr_assert_str_eq(run.out, "junit.xml\n", "no temporary file is left");
    unlink(junit);
    rmdir(dir);
}

Test(faults, a_file_limit_under_a_journal_stops_the_run_and_it_resumes_exactly) {
    char dir[] = "/tmp/perftkit-faults-XXXXXX", path[128], command[1024];
    cr_assert(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/run.jsonl", dir);
    /* 1 or 2 KB: the header, then EFBIG at the first line of 256 units. */
    snprintf(command, sizeof command,
             "sh -c 'trap \"\" XFSZ; ulimit -f 2; exec \"$0\" count -d 6 -t 2 --hash 16 --split-ply 3 --journal %s 2>&1' "
             "'%s'",
             path, binary());
    Run run = run_command("%s", command);
    cr_assert_eq(run.status, 2, "%s", run.out);
    cr_assert(strstr(run.out, "cannot write journal '") && strstr(run.out, "File too large"), "%s", run.out);
    cr_assert(strstr(run.out, "resume it with --resume"), "%s", run.out);
    cr_assert_null(strstr(run.out, "perft(6) ="), "no total is claimed: %s", run.out);
    CliRun resumed = cli_run("count -q -d 6 -t 2 --split-ply 3 --resume %s", path);
    cr_assert_eq(resumed.status, 0, "%s", resumed.err);
    cr_assert_str_eq(resumed.out, "119060324\n");
    cli_run_free(&resumed);
    unlink(path);
    rmdir(dir);
}

Test(faults, the_results_page_on_a_full_disk_is_an_error) {
    char dir[] = "/tmp/perftkit-faults-XXXXXX";
    cr_assert(mkdtemp(dir));
    char workload[] = "/tmp/perftkit-workload-XXXXXX";
    const char *text = "# tiny: a test workload\n4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;id rook ;D3 1197 ;D4 7059\n";
    write_file(workload, text, strlen(text));
    CliRun run = cli_run("bench --workload %s --repeat 1 -q --save /dev/full", workload);
    cr_assert_eq(run.status, 2, "%s", run.err);
    cr_assert(strstr(run.err, "cannot write '/dev/full': No space left on device"), "%s", run.err);
    cli_run_free(&run);
    run = cli_run("bench --workload %s --repeat 1 -q --results %s --machine m", workload, dir);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cli_run_free(&run);
    run = cli_run("results %s --html /dev/full", dir);
    cr_assert_eq(run.status, 2, "%s", run.err);
    cr_assert(strstr(run.err, "cannot write '/dev/full': No space left on device"), "%s", run.err);
    cli_run_free(&run);
    unlink(workload);
    char command[256];
    snprintf(command, sizeof command, "rm -r %s", dir);
    cr_assert_eq(system(command), 0);
}

/* ---- Signals ---- */

/* Runs a journaled count -d 7, sends `signal_number` once its journal has a unit line,
 * and checks that it printed what it finished and exits 130; then resumes it. */
static void stop_signal_leaves_a_resumable_journal(int signal_number) {
    char dir[] = "/tmp/perftkit-faults-XXXXXX", path[128], outputs[2][160];
    cr_assert(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/run.jsonl", dir);
    snprintf(outputs[0], sizeof outputs[0], "%s/out", dir);
    snprintf(outputs[1], sizeof outputs[1], "%s/err", dir);
    pid_t child = fork();
    cr_assert(child >= 0);
    if (child == 0) {
        freopen(outputs[0], "w", stdout);
        freopen(outputs[1], "w", stderr);
        execl(binary(), binary(), "count", "-d", "7", "-t", "2", "--hash", "32", "--journal", path, (char *)NULL);
        _exit(127);
    }
    for (int waited = 0;; waited++) { /* until the journal holds a line of units after its header */
        cr_assert(waited < 6000, "no units journaled after a minute");
        Run lines = run_command("cat %s 2>/dev/null | wc -l", path);
        if (atoi(lines.out) >= 2)
            break;
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    }
    kill(child, signal_number);
    int status;
    cr_assert_eq(waitpid(child, &status, 0), child);
    Run out = run_command("cat %s", outputs[0]);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 130, "signal %d: status %d: %s", signal_number, status,
              out.out);
    cr_assert(strstr(out.out, "status: interrupted\n"), "%s", out.out);
    cr_assert(strstr(out.out, "perft(7) >= "), "%s", out.out);
    Run err = run_command("cat %s", outputs[1]);
    cr_assert(strstr(err.out, "continue with --resume"), "%s", err.out);
    CliRun run = cli_run("count -q -d 7 -t 2 --hash 32 --resume %s", path);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert_str_eq(run.out, "3195901860\n");
    cli_run_free(&run);
    unlink(path);
    unlink(outputs[0]);
    unlink(outputs[1]);
    rmdir(dir);
}

Test(faults, sigterm_stops_like_ctrl_c_and_the_journal_resumes) { stop_signal_leaves_a_resumable_journal(SIGTERM); }

Test(faults, sighup_stops_like_ctrl_c_and_the_journal_resumes) { stop_signal_leaves_a_resumable_journal(SIGHUP); }

/* ---- Text input ---- */

Test(faults, a_suite_file_with_a_byte_order_mark_and_crlf_line_ends_reads_as_plain) {
    char path[] = "/tmp/perftkit-bom-XXXXXX";
    const char text[] = "\xEF\xBB\xBFrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D3 8902 ;id start\r\n"
                        "# a comment\r\n"
                        "\r\n"
                        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1 ;D4 43238 ;id cpw3\r\n";
    write_file(path, text, sizeof text - 1);
    CliRun run = cli_run("suite %s", path);
    cr_assert_eq(run.status, 0, "%s%s", run.out, run.err);
    cr_assert(strstr(run.out, "pass  start "), "%s", run.out);
    cr_assert(strstr(run.out, "pass  cpw3 "), "%s", run.out);
    cr_assert(strstr(run.out, "2 passed, 0 failed"), "%s", run.out);
    cr_assert_str_eq(run.err, "");
    cli_run_free(&run);
    run = cli_run("verify -d 2 %s", path);
    cr_assert_eq(run.status, 0, "%s%s", run.out, run.err);
    cli_run_free(&run);
    unlink(path);
    /* A plain FEN list, and a python-chess .perft block, the same way. */
    char list[] = "/tmp/perftkit-bom-XXXXXX";
    const char fens[] = "\xEF\xBB\xBF""8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1\r\n";
    write_file(list, fens, sizeof fens - 1);
    run = cli_run("suite -d 3 %s", list);
    cr_assert_eq(run.status, 0, "%s%s", run.out, run.err);
    cr_assert(strstr(run.out, "2812"), "%s", run.out);
    cli_run_free(&run);
    unlink(list);
    char block[] = "/tmp/perftkit-bom-XXXXXX";
    const char perft[] = "\xEF\xBB\xBFid kiwipete\r\nepd r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -\r\n"
                         "perft 1 48\r\nperft 2 2039\r\n";
    write_file(block, perft, sizeof perft - 1);
    run = cli_run("suite %s", block);
    cr_assert_eq(run.status, 0, "%s%s", run.out, run.err);
    cr_assert(strstr(run.out, "pass  kiwipete "), "%s", run.out);
    cli_run_free(&run);
    unlink(block);
}

Test(faults, a_journal_with_crlf_line_ends_resumes) {
    char dir[] = "/tmp/perftkit-faults-XXXXXX", path[128], command[512];
    cr_assert(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/run.jsonl", dir);
    CliRun run = cli_run("count -q -d 5 -t 1 --hash 0 --split-ply 2 --max-nodes 1000000 --journal %s", path);
    cr_assert_eq(run.status, 3, "%s", run.err);
    cli_run_free(&run);
    snprintf(command, sizeof command, "sed -i 's/$/\\r/' %s", path); /* as an editor on Windows saves it */
    cr_assert_eq(system(command), 0);
    run = cli_run("count -q -d 5 -t 2 --split-ply 2 --resume %s", path);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert_str_eq(run.out, "4865609\n");
    cli_run_free(&run);
    unlink(path);
    rmdir(dir);
}

/* No byte below 0x20 but the line ends, and no DEL, in `text`. */
static void assert_no_control_bytes(const char *text) {
    for (const char *p = text; *p; p++)
        cr_assert(((unsigned char)*p >= 0x20 && *p != 0x7f) || *p == '\n', "raw byte 0x%02X in: %s",
                  (unsigned char)*p, text);
}

Test(faults, control_bytes_of_the_input_reach_no_message_raw) {
    CliRun run = cli_run("'\x1b[2Jcount'");
    cr_assert_eq(run.status, 2);
    cr_assert(strstr(run.err, "no command '\\x1B[2Jcount'"), "%s", run.err);
    assert_no_control_bytes(run.err);
    cli_run_free(&run);
    static const char *const inputs[] = {
        "count --fen '8/8/8/\x1b]0;pwned\x07/8/8/8/K6k w - - 0 1'",
        "count --moves 'e2e4 \x1b[31me7e5'",
        "count -d '\x1b[1m'",
        "count --\x1b[1m",
        "count --trace 'it,\x1b'",
        "count --resume '/tmp/\x1b[31m'",
        NULL,
    };
    for (int i = 0; inputs[i]; i++) {
        run = cli_run("%s", inputs[i]);
        cr_assert_eq(run.status, 2, "%s", inputs[i]);
        cr_assert(strstr(run.err, "\\x1B"), "%s", run.err);
        cr_assert_eq(line_count(run.err), 1, "%s", run.err);
        assert_no_control_bytes(run.err);
        cli_run_free(&run);
    }
    char path[] = "/tmp/perftkit-escape-XXXXXX";
    const char text[] = "\x1b[2J\x1b[31mrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20\n"
                        "8/8/8/8/8/8/8/K6k w - - ;D1 3 ;id \x1b]0;title\x07\n"
                        "id \x1b[5m\nepd 8/8/8/8/8/8/8/K6k w - -\nperft 1 \x1b[1m3\n";
    write_file(path, text, sizeof text - 1);
    run = cli_run("suite %s", path);
    cr_assert_neq(run.status, 0);
    assert_no_control_bytes(run.out);
    assert_no_control_bytes(run.err);
    cli_run_free(&run);
    run = cli_run("verify -d 1 %s", path);
    assert_no_control_bytes(run.out);
    assert_no_control_bytes(run.err);
    cli_run_free(&run);
    unlink(path);
}

Test(faults, control_bytes_in_stored_results_reach_no_table_raw) {
    char dir[] = "/tmp/perftkit-faults-XXXXXX", workload[] = "/tmp/perftkit-workload-XXXXXX", command[512];
    cr_assert(mkdtemp(dir));
    const char *text = "# tiny: a test workload\n4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;id rook ;D3 1197 ;D4 7059\n";
    write_file(workload, text, strlen(text));
    CliRun run = cli_run("bench --workload %s --repeat 1 -q --results %s --machine m", workload, dir);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cli_run_free(&run);
    /* The stored machine name and CPU get escape sequences, as a hostile file could. */
    snprintf(command, sizeof command, "sed -i 's/\"name\": \"m\"/\"name\": \"\\\\u001b[2Jm\"/; s/\"cpu\": \"/\"cpu\": \"\\\\u001b]0;x\\\\u0007/' %s/m/*.json",
             dir);
    cr_assert_eq(system(command), 0);
    run = cli_run("results %s --no-html", dir);
    cr_assert_eq(run.status, 0, "%s", run.err);
    cr_assert(strstr(run.out, "\\x1B[2Jm"), "%s", run.out);
    assert_no_control_bytes(run.out);
    assert_no_control_bytes(run.err);
    cli_run_free(&run);
    unlink(workload);
    snprintf(command, sizeof command, "rm -r %s", dir);
    cr_assert_eq(system(command), 0);
}
