/* test_journal.c — the journal of a long run: header and units read back exactly (counts
 * past 2^64 too), a torn last line cut at any byte is dropped and reported, damage before
 * the last line is an error naming file:line, headers of another run name the field that
 * differs, write errors name the path and reason, and a resumed journal reads back whole.
 * The counts are the start position's perft 1..15, the values a deep run journals. */
#include "support.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../io/journal.h"

/* Start position perft 1..15 (perft 14 and 15 exceed 2^64). */
static Count perft_count(int depth) {
    static const char *const text[16] = {"1", "20", "400", "8902", "197281", "4865609", "119060324", "3195901860",
                                          "84998978956", "2439530234167", "69352859712417", "2097651003696806",
                                          "62854969236701747", "1981066775000396239", "61885021521585529237",
                                          "2015099950053364471960"};
    Count n;
    cr_assert(count_parse(text[depth], strlen(text[depth]), &n));
    return n;
}

/* The unit count a test journals for unit i: a perft figure, distinct per unit. */
static Count unit_count(uint64_t i) { return perft_count((int)(i % 16)) + i / 16; }

static JournalHeader start_header(uint64_t units) {
    JournalHeader h = {.chess960 = false, .depth = 8, .split_ply = 3, .key_seed = 18446744073709551557u,
                       .units = units, .digest = 0x0123456789abcdefu, .pass = 1};
    strcpy(h.tool, "perftkit 0.1.0 (test)");
    strcpy(h.fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    return h;
}

/* A path in a fresh directory; `dir` receives the directory. */
static const char *scratch(char dir[64], char path[128], const char *name) {
    strcpy(dir, "/tmp/perftkit-journal-XXXXXX");
    cr_assert(mkdtemp(dir));
    snprintf(path, 128, "%s/%s", dir, name);
    return path;
}

static void remove_scratch(const char *dir, const char *path) {
    unlink(path);
    cr_assert_eq(rmdir(dir), 0, "scratch directory %s is not empty", dir);
}

/* Writes a journal of `units` units, all finished, appended in batches of 1, 2, 3, ... */
static void write_journal(const char *path, uint64_t units) {
    char error[JOURNAL_ERROR_SIZE];
    JournalHeader h = start_header(units);
    Journal *j = journal_create(path, &h, false, error, sizeof error);
    cr_assert(j, "%s", error);
    JournalUnit batch[64];
    int size = 1;
    for (uint64_t next = 0; next < units; size = size % 64 + 1) {
        int n = 0;
        for (; n < size && next < units; n++, next++)
            batch[n] = (JournalUnit){.index = units - 1 - next, .count = unit_count(units - 1 - next)};
        cr_assert(journal_append(j, batch, n, error, sizeof error), "%s", error);
    }
    cr_assert(journal_close(j, error, sizeof error), "%s", error);
}

static long long file_size(const char *path) {
    struct stat st;
    cr_assert_eq(stat(path, &st), 0, "%s", path);
    return (long long)st.st_size;
}

static size_t read_bytes(const char *path, char *out, size_t size) {
    FILE *f = fopen(path, "rb");
    cr_assert(f, "%s", path);
    size_t n = fread(out, 1, size, f);
    cr_assert(feof(f), "%s is larger than the test expects", path);
    fclose(f);
    return n;
}

static void write_bytes(const char *path, const char *bytes, size_t n) {
    FILE *f = fopen(path, "wb");
    cr_assert(f, "%s", path);
    cr_assert_eq(fwrite(bytes, 1, n, f), n);
    cr_assert_eq(fclose(f), 0);
}

static void expect_same_header(const JournalHeader *a, const JournalHeader *b) {
    char error[JOURNAL_ERROR_SIZE];
    cr_expect(journal_check_header(a, b, error, sizeof error), "%s", error);
    cr_expect_str_eq(a->tool, b->tool);
}

/* The read-back error for `path` holding `text`. */
static const char *read_error(const char *path, const char *text, char error[JOURNAL_ERROR_SIZE]) {
    write_bytes(path, text, strlen(text));
    JournalContents c;
    cr_assert_not(journal_read(path, &c, error, JOURNAL_ERROR_SIZE), "'%s' was read without an error", text);
    journal_contents_free(&c);
    cr_expect_null(strchr(error, '\n'), "a message of one line: %s", error);
    return error;
}

static const char *header_line =
    "{\"journal\": \"perftkit\", \"schema\": 1, \"tool\": \"t\", \"fen\": \"8/8/8/8/8/8/8/K6k w - - 0 1\", "
    "\"chess960\": false, \"depth\": 5, \"split_ply\": 2, \"key_seed\": \"7\", \"units\": 10, "
    "\"digest\": \"00000000000000ff\", \"pass\": 2}\n";

Test(journal, header_and_many_units_read_back_exactly) {
    char dir[64], path[128], error[JOURNAL_ERROR_SIZE];
    scratch(dir, path, "run.jsonl");
    const uint64_t units = 5000;
    write_journal(path, units);
    JournalContents c;
    cr_assert(journal_read(path, &c, error, sizeof error), "%s", error);
    JournalHeader h = start_header(units);
    expect_same_header(&c.header, &h);
    cr_expect_eq(c.header.key_seed, 18446744073709551557u, "the key seed keeps all 64 bits");
    cr_expect_eq(c.finished, units);
    cr_expect_not(c.torn);
    cr_expect_eq(c.valid_size, file_size(path));
    for (uint64_t i = 0; i < units; i++) {
        cr_assert(c.done[i], "unit %llu is missing", (unsigned long long)i);
        cr_assert(c.counts[i] == unit_count(i), "unit %llu has another count", (unsigned long long)i);
    }
    journal_contents_free(&c);
    remove_scratch(dir, path);
}

/* A statistics journal: the start position's depth-5 vector (the wiki's and the Grand
 * Chess Tree's 17 figures) for unit 1 and all 64-bit values for unit 2; read back
 * exactly, listed in the header as "stats", and refused where a value is not a number. */
Test(journal, a_statistics_journal_keeps_every_value_of_its_units) {
    char dir[64], path[128], error[JOURNAL_ERROR_SIZE];
    scratch(dir, path, "stats.jsonl");
    static const uint64_t depth5[17] = {4865609, 82719, 258, 0, 0, 27351, 6, 0, 347, 26998, 6, 0, 0, 347, 0, 0, 0};
    uint64_t top[17];
    for (int v = 0; v < 17; v++)
        top[v] = UINT64_MAX - (uint64_t)v;
    JournalHeader h = start_header(4);
    h.stats = 17;
    Journal *j = journal_create(path, &h, false, error, sizeof error);
    cr_assert(j, "%s", error);
    JournalUnit units[2] = {{1, 0, depth5}, {2, 0, top}};
    cr_assert(journal_append(j, units, 2, error, sizeof error), "%s", error);
    JournalUnit bare = {3, 5, NULL};
    cr_assert_not(journal_append(j, &bare, 1, error, sizeof error), "a unit without its statistics is refused");
    cr_expect(strstr(error, "unit 3 comes without its statistics"), "%s", error);
    journal_close(j, NULL, 0);
    JournalContents c;
    cr_assert(journal_read(path, &c, error, sizeof error), "%s", error);
    cr_expect_eq(c.header.stats, 17);
    cr_expect_null(c.counts);
    cr_expect(c.done[1] && c.done[2] && !c.done[0] && !c.done[3] && c.finished == 2);
    cr_expect(!memcmp(journal_unit_stats(&c, 1), depth5, sizeof depth5));
    cr_expect(!memcmp(journal_unit_stats(&c, 2), top, sizeof top));
    JournalHeader counts = start_header(4);
    cr_expect_not(journal_check_header(&counts, &c.header, error, sizeof error));
    cr_expect(strstr(error, "journal header: stats is 17, this run has 0"), "%s", error);
    journal_contents_free(&c);

    char text[4096];
    size_t n = read_bytes(path, text, sizeof text - 64);
    cr_assert(strstr(text, ", \"stats\": 17}\n"), "%.*s", (int)n, text);
    strcpy(text + n, "{\"units\": [[0, [\"1\", \"2\"]]]}\n{\"units\": []}\n");
    write_bytes(path, text, strlen(text));
    cr_assert_not(journal_read(path, &c, error, sizeof error));
    cr_expect(strstr(error, ":3: unit 1 of the line is not [index, [\"value\", ...]]"), "%s", error);
    strcpy(text + n, "{\"units\": [[0, [\"1\", \"2\", \"3\", \"4\", \"5\", \"6\", \"7\", \"8\", \"9\", \"10\", \"11\", "
                     "\"12\", \"13\", \"14\", \"15\", \"16\", \"18446744073709551616\"]]]}\n{\"units\": []}\n");
    write_bytes(path, text, strlen(text));
    cr_assert_not(journal_read(path, &c, error, sizeof error));
    cr_expect(strstr(error, "the value '18446744073709551616' of unit 0 is not a decimal number below 2^64"), "%s",
              error);
    remove_scratch(dir, path);
}

Test(journal, counts_above_two_to_the_64_round_trip) {
    char dir[64], path[128], error[JOURNAL_ERROR_SIZE], text[4096];
    scratch(dir, path, "deep.jsonl");
    JournalHeader h = start_header(3);
    Journal *j = journal_create(path, &h, false, error, sizeof error);
    cr_assert(j, "%s", error);
    JournalUnit deep[3] = {{0, perft_count(14), NULL}, {1, perft_count(15), NULL}, {2, ~(Count)0, NULL}};
    cr_assert(journal_append(j, deep, 3, error, sizeof error), "%s", error);
    cr_assert(journal_close(j, error, sizeof error), "%s", error);
    text[read_bytes(path, text, sizeof text - 1)] = '\0';
    cr_expect(strstr(text, "[[0, \"61885021521585529237\"], [1, \"2015099950053364471960\"], "
                           "[2, \"340282366920938463463374607431768211455\"]]"),
              "the counts are written in full: %s", text);
    JournalContents c;
    cr_assert(journal_read(path, &c, error, sizeof error), "%s", error);
    for (int i = 0; i < 3; i++)
        cr_expect(c.done[i] && c.counts[i] == deep[i].count, "unit %d", i);
    journal_contents_free(&c);
    remove_scratch(dir, path);
}

Test(journal, a_last_line_cut_at_any_byte_is_dropped_and_reported) {
    char dir[64], path[128], error[JOURNAL_ERROR_SIZE], whole[8192];
    scratch(dir, path, "torn.jsonl");
    write_journal(path, 40); /* batches of 1..8 units: the last line holds 4 */
    size_t length = read_bytes(path, whole, sizeof whole);
    size_t last = length - 1;
    while (last > 0 && whole[last - 1] != '\n')
        last--;
    JournalContents full;
    cr_assert(journal_read(path, &full, error, sizeof error), "%s", error);
    for (size_t cut = last; cut < length; cut++) {
        write_bytes(path, whole, cut);
        JournalContents c;
        cr_assert(journal_read(path, &c, error, sizeof error), "cut at byte %zu: %s", cut, error);
        cr_expect_eq(c.torn, cut > last, "cut at byte %zu", cut);
        cr_expect_eq(c.torn_bytes, (long long)(cut - last), "cut at byte %zu", cut);
        cr_expect_eq(c.lines, full.lines - 1, "cut at byte %zu: the whole lines only", cut);
        cr_expect_eq(c.valid_size, (long long)last);
        if (c.torn)
            cr_expect_eq(c.torn_line, full.lines, "cut at byte %zu", cut);
        cr_expect_eq(c.finished, 36, "cut at byte %zu: the units of the whole lines", cut);
        for (uint64_t i = 0; i < 40; i++)
            cr_assert_eq(c.done[i], i >= 4, "cut at byte %zu: unit %llu", cut, (unsigned long long)i);
        journal_contents_free(&c);
    }
    journal_contents_free(&full);
    remove_scratch(dir, path);
}

Test(journal, a_last_line_that_does_not_parse_is_torn_even_with_its_newline) {
    char dir[64], path[128], error[JOURNAL_ERROR_SIZE], text[1024];
    scratch(dir, path, "torn.jsonl");
    snprintf(text, sizeof text, "%s{\"units\": [[1, \"20\"]]}\n{\"units\": [[3, \"40\n", header_line);
    write_bytes(path, text, strlen(text));
    JournalContents c;
    cr_assert(journal_read(path, &c, error, sizeof error), "%s", error);
    cr_expect(c.torn);
    cr_expect_eq(c.torn_line, 3);
    cr_expect_eq(c.finished, 1);
    cr_expect(c.done[1] && c.counts[1] == 20 && !c.done[3]);
    cr_expect_eq(c.header.pass, 2);
    journal_contents_free(&c);
    remove_scratch(dir, path);
}

Test(journal, a_malformed_line_before_the_last_is_an_error_naming_file_and_line) {
    char dir[64], path[128], error[JOURNAL_ERROR_SIZE], text[1024], expected[256];
    scratch(dir, path, "bad.jsonl");
    snprintf(text, sizeof text, "%s{\"units\": [[1, \"20\"]]}\n{\"units\": [[2, \"4\n{\"units\": [[3, \"40\"]]}\n",
             header_line);
    read_error(path, text, error);
    snprintf(expected, sizeof expected, "journal %s:3: not valid JSON", path);
    cr_expect(strstr(error, expected), "%s", error);
    cr_expect(strstr(error, "'{\"units\": [[2, \"4'"), "quotes the line: %s", error);

    snprintf(text, sizeof text, "%s\n{\"units\": [[3, \"40\"]]}\n", header_line);
    snprintf(expected, sizeof expected, "journal %s:2: the line is empty", path);
    cr_expect_str_eq(read_error(path, text, error), expected);

    snprintf(text, sizeof text, "%s{\"unit\": [[3, \"40\"]]}\n", header_line);
    snprintf(expected, sizeof expected, "journal %s:2: not a line of units", path);
    cr_expect(strstr(read_error(path, text, error), expected), "a valid JSON line of another shape: %s", error);

    snprintf(text, sizeof text, "%s{\"units\": [[3, 40]]}\n", header_line);
    cr_expect(strstr(read_error(path, text, error), "unit 1 of the line is not [index, \"count\"]"), "%s", error);

    snprintf(text, sizeof text, "%s{\"units\": [[3, \"-40\"]]}\n", header_line);
    cr_expect(strstr(read_error(path, text, error), "the count '-40' of unit 3 is not a decimal number"), "%s", error);
    unlink(path);
    rmdir(dir);
}

Test(journal, units_out_of_range_or_listed_twice_with_different_counts_are_errors) {
    char dir[64], path[128], error[JOURNAL_ERROR_SIZE], text[1024], expected[256];
    scratch(dir, path, "units.jsonl");
    snprintf(text, sizeof text, "%s{\"units\": [[1, \"20\"], [10, \"5\"]]}\n", header_line);
    snprintf(expected, sizeof expected, "journal %s:2: unit 10 is out of range (the journal has 10 units)", path);
    cr_expect_str_eq(read_error(path, text, error), expected);

    snprintf(text, sizeof text, "%s{\"units\": [[-1, \"20\"]]}\n", header_line);
    cr_expect(strstr(read_error(path, text, error), "unit -1 is out of range"), "%s", error);

    snprintf(text, sizeof text, "%s{\"units\": [[4, \"20\"]]}\n{\"units\": [[4, \"21\"]]}\n", header_line);
    snprintf(expected, sizeof expected, "journal %s:3: unit 4 is listed twice with different counts (20, then 21)",
             path);
    cr_expect_str_eq(read_error(path, text, error), expected);

    /* The same count twice (a unit journaled again after a resume) is the same fact. */
    snprintf(text, sizeof text, "%s{\"units\": [[4, \"20\"]]}\n{\"units\": [[4, \"20\"], [5, \"0\"]]}\n", header_line);
    write_bytes(path, text, strlen(text));
    JournalContents c;
    cr_assert(journal_read(path, &c, error, sizeof error), "%s", error);
    cr_expect_eq(c.finished, 2);
    cr_expect(c.done[5] && c.counts[5] == 0, "a count of zero is a finished unit");
    journal_contents_free(&c);
    remove_scratch(dir, path);
}

Test(journal, headers_that_are_missing_or_of_another_kind_are_errors) {
    char dir[64], path[128], error[JOURNAL_ERROR_SIZE], expected[256];
    scratch(dir, path, "header.jsonl");
    snprintf(expected, sizeof expected, "journal %s is empty", path);
    cr_expect_str_eq(read_error(path, "", error), expected);
    cr_expect(strstr(read_error(path, "{\"journal\": \"perftkit\", \"sch", error), "has no complete header line"),
              "%s", error);
    cr_expect(strstr(read_error(path, "{\"journal\": \"other\"}\n", error), "is not a perftkit journal (line 1: "),
              "%s", error);
    cr_expect(strstr(read_error(path, "{\"journal\": \"perftkit\", \"schema\": 2}\n", error),
                     "has schema 2; this build reads schema 1"),
              "%s", error);
    cr_expect(strstr(read_error(path, "{\"journal\": \"perftkit\", \"schema\": 1, \"depth\": 5}\n", error),
                     "header field 'tool' is missing"),
              "%s", error);

    char text[1024];
    strcpy(text, header_line);
    memcpy(strstr(text, "\"depth\": 5"), "\"depth\": 1", 10); /* below the split ply */
    cr_expect(strstr(read_error(path, text, error), ":1: header field 'split_ply' must be a whole number in 0..depth"),
              "%s", error);
    strcpy(text, header_line);
    memcpy(strstr(text, "ff\""), "fg\"", 3);
    cr_expect(strstr(read_error(path, text, error), "header field 'digest' must be a string of 16 hex digits"), "%s",
              error);
    strcpy(text, header_line);
    memcpy(strstr(text, "\"7\""), "\"x\"", 3);
    cr_expect(strstr(read_error(path, text, error), "header field 'key_seed' must be a decimal string"), "%s", error);
    strcpy(text, header_line);
    memcpy(strstr(text, "\"pass\": 2"), "\"pass\": 3", 9);
    cr_expect(strstr(read_error(path, text, error), "header field 'pass' must be 1 or 2"), "%s", error);
    remove_scratch(dir, path);
}

Test(journal, a_header_of_another_run_names_the_first_field_that_differs) {
    char error[JOURNAL_ERROR_SIZE];
    JournalHeader run = start_header(100), found;

    found = run;
    found.depth = 7;
    run.depth = 8;
    cr_assert_not(journal_check_header(&run, &found, error, sizeof error));
    cr_expect_str_eq(error, "journal header: depth is 7, this run has 8");
    run = start_header(100);

    found = run;
    strcpy(found.fen, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    cr_assert_not(journal_check_header(&run, &found, error, sizeof error));
    cr_expect_str_eq(error, "journal header: fen is 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQ... (68 bytes)', "
                            "this run has 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'");

    found = run;
    found.chess960 = true;
    cr_assert_not(journal_check_header(&run, &found, error, sizeof error));
    cr_expect_str_eq(error, "journal header: chess960 is true, this run has false");

    found = run;
    found.split_ply = 4;
    found.key_seed = 1;
    cr_assert_not(journal_check_header(&run, &found, error, sizeof error));
    cr_expect_str_eq(error, "journal header: split_ply is 4, this run has 3", "the first field that differs");

    found = run;
    found.key_seed = 1;
    cr_assert_not(journal_check_header(&run, &found, error, sizeof error));
    cr_expect_str_eq(error, "journal header: key_seed is 1, this run has 18446744073709551557");

    found = run;
    found.units = 99;
    cr_assert_not(journal_check_header(&run, &found, error, sizeof error));
    cr_expect_str_eq(error, "journal header: units is 99, this run has 100");

    found = run;
    found.digest = 0xff;
    cr_assert_not(journal_check_header(&run, &found, error, sizeof error));
    cr_expect_str_eq(error, "journal header: digest is 00000000000000ff, this run has 0123456789abcdef");

    found = run;
    found.pass = 2;
    cr_assert_not(journal_check_header(&run, &found, error, sizeof error));
    cr_expect_str_eq(error, "journal header: pass is 2, this run has 1");

    found = run;
    strcpy(found.tool, "perftkit 9.9.9");
    cr_expect(journal_check_header(&run, &found, error, sizeof error), "the tool is not compared: %s", error);
}

Test(journal, writing_to_a_full_disk_fails_with_the_path_and_reason) {
    char error[JOURNAL_ERROR_SIZE];
    JournalHeader h = start_header(10);
    cr_assert_null(journal_create("/dev/full", &h, false, error, sizeof error));
    cr_expect_str_eq(error, "cannot write journal '/dev/full': No space left on device");
}

/* The message of journal_create in a directory this process may not write: as root the
 * attempt runs in a child that has given up root, since root writes anywhere. */
static void unwritable_directory_message(const char *path, char *error, size_t size) {
    int channel[2];
    cr_assert_eq(pipe(channel), 0);
    pid_t child = fork();
    cr_assert(child >= 0);
    if (child == 0) {
        close(channel[0]);
        if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
            _exit(3);
        char message[JOURNAL_ERROR_SIZE] = "";
        JournalHeader h = start_header(10);
        Journal *j = journal_create(path, &h, false, message, sizeof message);
        _exit(j || write(channel[1], message, strlen(message)) < 0 ? 1 : 0);
    }
    close(channel[1]);
    ssize_t n = read(channel[0], error, size - 1);
    error[n > 0 ? n : 0] = '\0';
    close(channel[0]);
    int status;
    waitpid(child, &status, 0);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child failed (status %d): %s", status, error);
}

Test(journal, an_unwritable_directory_fails_with_the_path_and_reason) {
    char dir[64], path[128], error[JOURNAL_ERROR_SIZE], expected[256];
    scratch(dir, path, "run.jsonl");
    cr_assert_eq(chmod(dir, 0555), 0);
    unwritable_directory_message(path, error, sizeof error);
    snprintf(expected, sizeof expected, "cannot create journal '%s': Permission denied", path);
    cr_expect_str_eq(error, expected);
    cr_expect_neq(access(path, F_OK), 0, "nothing was created");

    JournalHeader h = start_header(10);
    cr_assert_null(journal_create("/nonexistent-perftkit-dir/run.jsonl", &h, false, error, sizeof error));
    cr_expect_str_eq(error, "cannot create journal '/nonexistent-perftkit-dir/run.jsonl': No such file or directory");
    chmod(dir, 0755);
    rmdir(dir);
}

Test(journal, a_pipe_without_reader_is_a_write_error_not_a_signal) {
    char dir[64], path[128], error[JOURNAL_ERROR_SIZE], expected[256];
    scratch(dir, path, "fifo");
    cr_assert_eq(mkfifo(path, 0600), 0);
    int reader = open(path, O_RDONLY | O_NONBLOCK);
    cr_assert(reader >= 0);
    JournalHeader h = start_header(10);
    Journal *j = journal_create(path, &h, false, error, sizeof error);
    cr_assert(j, "%s", error);
    close(reader);
    JournalUnit u = {3, 8902, NULL};
    cr_assert_not(journal_append(j, &u, 1, error, sizeof error));
    snprintf(expected, sizeof expected, "cannot write journal '%s': Broken pipe", path);
    cr_expect_str_eq(error, expected);
    sigset_t pending;
    sigpending(&pending);
    cr_expect_not(sigismember(&pending, SIGPIPE), "no SIGPIPE is left pending");
    cr_assert_not(journal_append(j, &u, 1, error, sizeof error), "a failed journal stays failed");
    cr_expect_str_eq(error, expected);
    cr_expect_not(journal_close(j, error, sizeof error));
    remove_scratch(dir, path);
}

Test(journal, an_existing_journal_is_kept_unless_overwriting_and_locked_while_open) {
    char dir[64], path[128], error[JOURNAL_ERROR_SIZE], expected[256];
    scratch(dir, path, "run.jsonl");
    write_journal(path, 10);
    long long size = file_size(path);
    JournalHeader h = start_header(3);
    cr_assert_null(journal_create(path, &h, false, error, sizeof error));
    snprintf(expected, sizeof expected, "cannot create journal '%s': it exists and is not empty (not overwriting a journal)",
             path);
    cr_expect_str_eq(error, expected);
    cr_expect_eq(file_size(path), size, "the old journal is untouched");

    Journal *j = journal_create(path, &h, true, error, sizeof error);
    cr_assert(j, "%s", error);
    cr_expect_null(journal_create(path, &h, true, error, sizeof error));
    snprintf(expected, sizeof expected, "cannot create journal '%s': it is in use by another run", path);
    cr_expect_str_eq(error, expected);
    cr_assert(journal_close(j, error, sizeof error), "%s", error);
    JournalContents c;
    cr_assert(journal_read(path, &c, error, sizeof error), "%s", error);
    cr_expect_eq(c.header.units, 3);
    cr_expect_eq(c.finished, 0);
    journal_contents_free(&c);
    remove_scratch(dir, path);
}

Test(journal, appending_an_index_out_of_range_is_refused) {
    char dir[64], path[128], error[JOURNAL_ERROR_SIZE], expected[256];
    scratch(dir, path, "run.jsonl");
    JournalHeader h = start_header(10);
    Journal *j = journal_create(path, &h, false, error, sizeof error);
    cr_assert(j, "%s", error);
    JournalUnit u = {10, 20, NULL};
    cr_assert_not(journal_append(j, &u, 1, error, sizeof error));
    snprintf(expected, sizeof expected, "journal '%s': unit 10 is out of range (the run has 10 units)", path);
    cr_expect_str_eq(error, expected);
    u.index = 9;
    cr_expect_not(journal_append(j, &u, 1, error, sizeof error), "the journal stops at the first mistake");
    cr_expect_str_eq(error, expected);
    journal_close(j, NULL, 0);
    JournalContents c;
    cr_assert(journal_read(path, &c, error, sizeof error), "%s", error);
    cr_expect_eq(c.finished, 0);
    journal_contents_free(&c);
    remove_scratch(dir, path);
}

Test(journal, resuming_after_a_torn_tail_gives_a_journal_that_reads_back_whole) {
    char dir[64], path[128], error[JOURNAL_ERROR_SIZE], whole[8192];
    scratch(dir, path, "resume.jsonl");
    write_journal(path, 40);
    size_t length = read_bytes(path, whole, sizeof whole);
    write_bytes(path, whole, length - 7); /* killed inside the last line (units 3..0) */
    JournalContents c;
    cr_assert(journal_read(path, &c, error, sizeof error), "%s", error);
    cr_assert(c.torn);
    JournalHeader h = start_header(40);
    cr_assert(journal_check_header(&h, &c.header, error, sizeof error), "%s", error);
    Journal *j = journal_open_append(path, &c, error, sizeof error);
    cr_assert(j, "%s", error);
    JournalUnit rest[40];
    int n = 0;
    for (uint64_t i = 0; i < 40; i++)
        if (!c.done[i])
            rest[n++] = (JournalUnit){i, unit_count(i), NULL};
    cr_expect_eq(n, 4);
    cr_assert(journal_append(j, rest, n, error, sizeof error), "%s", error);
    cr_assert(journal_close(j, error, sizeof error), "%s", error);
    long long lines = c.lines;
    journal_contents_free(&c);

    cr_assert(journal_read(path, &c, error, sizeof error), "%s", error);
    cr_expect_not(c.torn);
    cr_expect_eq(c.lines, lines + 1);
    cr_expect_eq(c.finished, 40);
    for (uint64_t i = 0; i < 40; i++)
        cr_expect(c.done[i] && c.counts[i] == unit_count(i), "unit %llu", (unsigned long long)i);
    cr_expect_eq(c.valid_size, file_size(path));

    /* A journal changed between reading and appending is not continued. */
    FILE *f = fopen(path, "a");
    fputs("{\"units\": []}\n", f);
    fclose(f);
    cr_expect_null(journal_open_append(path, &c, error, sizeof error));
    cr_expect(strstr(error, "it changed since it was read"), "%s", error);
    journal_contents_free(&c);
    remove_scratch(dir, path);
}

Test(journal, messages_quote_little_and_escape_control_and_non_ascii_bytes) {
    char dir[64], path[128], error[JOURNAL_ERROR_SIZE], text[4096];
    scratch(dir, path, "noise.jsonl");
    int n = snprintf(text, sizeof text, "%s\x01\x1b[31m\xc3\xa9", header_line);
    memset(text + n, 'x', 1000);
    strcpy(text + n + 1000, "\n{\"units\": []}\n");
    read_error(path, text, error);
    cr_expect(strstr(error, "'\\x01\\x1B[31m\\xC3\\xA9xxxxxxxx"), "%s", error);
    cr_expect(strstr(error, "x... (1008 bytes)'"), "cut short: %s", error);
    for (const char *p = error; *p; p++)
        cr_assert((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f, "a raw byte 0x%02X in: %s", (unsigned char)*p,
                  error);
    cr_expect_lt(strlen(error), 200, "%s", error);

    JournalContents c;
    cr_assert_not(journal_read("/tmp/no\nsuch\tjournal", &c, error, sizeof error));
    cr_expect_str_eq(error, "cannot read journal '/tmp/no\\x0Asuch\\x09journal': No such file or directory");
    remove_scratch(dir, path);
}
