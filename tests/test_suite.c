/* test_suite.c — the suite reader: three formats, mixed, and malformed lines reported
 * with their numbers while reading goes on. */
#include "support.h"

#include <unistd.h>

#include "../suites/suite.h"

typedef struct Item {
    SuiteItem kind;
    EpdRecord record;
    int line;
    char error[EPD_ERROR_SIZE + 64];
} Item;

static int read_all(const char *const *lines, size_t count, Item *items, int room) {
    SuiteReader reader;
    suite_open_lines(&reader, "test", lines, count);
    int n = 0;
    for (; n < room; n++) {
        items[n].kind = suite_next(&reader, &items[n].record, &items[n].line, items[n].error, sizeof items[n].error);
        if (items[n].kind == SUITE_END)
            break;
        if (items[n].kind == SUITE_MALFORMED)
            items[n].line = reader.line_number;
    }
    suite_close(&reader);
    return n;
}

Test(suite, reads_epd_lines_with_and_without_counts) {
    static const char *const lines[] = {
        "# a comment", "", "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66 ;id rook", "8/8/8/8/8/8/8/K6k w - -",
    };
    Item items[8];
    int n = read_all(lines, 4, items, 8);
    cr_assert_eq(n, 2);
    cr_assert_eq(items[0].kind, SUITE_RECORD);
    cr_assert_eq(items[0].line, 3);
    cr_assert_str_eq(items[0].record.id, "rook");
    cr_assert_eq(items[0].record.expectation_count, 2);
    cr_assert_eq(items[1].line, 4);
    cr_assert_eq(items[1].record.expectation_count, 0, "a bare FEN has no counts");
    cr_assert_str_eq(items[1].record.fen, "8/8/8/8/8/8/8/K6k w - -");
}

Test(suite, reads_python_chess_perft_blocks) {
    static const char *const lines[] = {
        "id gentest-1", "epd rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", "perft 1 20", "perft 2 400",
        "", "id gentest-2", "epd 4k3/8/8/8/8/8/8/4K2R w K -", "perft 1 15",
        "id gentest-3", "epd 4k3/8/8/8/8/8/8/R3K3 w Q -", "perft 3 1287",
    };
    Item items[8];
    int n = read_all(lines, sizeof lines / sizeof lines[0], items, 8);
    cr_assert_eq(n, 3);
    cr_assert_str_eq(items[0].record.id, "gentest-1");
    cr_assert_eq(items[0].line, 2, "a block is numbered by its epd line");
    cr_assert_eq(items[0].record.expectation_count, 2);
    cr_assert(items[0].record.expect[1].depth == 2 && items[0].record.expect[1].nodes == 400);
    cr_assert_str_eq(items[1].record.id, "gentest-2");
    cr_assert_str_eq(items[2].record.id, "gentest-3", "an id line ends the block before it");
    cr_assert(items[2].record.expect[0].depth == 3 && items[2].record.expect[0].nodes == 1287);
}

Test(suite, mixed_formats_and_malformed_lines_keep_their_numbers) {
    static const char *const lines[] = {
        "id one", "epd 4k3/8/8/8/8/8/8/4K2R w K -", "perft 1 15",
        "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 ;D1 16 ;D2 71",
        "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 ;D1 x",
        "perft 2 66",
        "epd 4k2r/8/8/8/8/8/8/4K3 w k -", "perft 2 many",
        "perft 1 5",
    };
    Item items[12];
    int n = read_all(lines, sizeof lines / sizeof lines[0], items, 12);
    cr_assert_eq(n, 6);
    cr_assert(items[0].kind == SUITE_RECORD && !strcmp(items[0].record.id, "one"), "the block ends at the EPD line");
    cr_assert(items[1].kind == SUITE_RECORD && items[1].line == 4);
    cr_assert(items[2].kind == SUITE_MALFORMED && items[2].line == 5, "%s", items[2].error);
    cr_assert(strstr(items[2].error, "not a whole number"), "%s", items[2].error);
    cr_assert(items[3].kind == SUITE_MALFORMED && items[3].line == 6, "a perft line without its epd line");
    cr_assert(items[4].kind == SUITE_MALFORMED && items[4].line == 8, "%s", items[4].error);
    cr_assert(items[5].kind == SUITE_RECORD && items[5].line == 7 && items[5].record.expectation_count == 1,
              "the block survives its bad perft line");
}

Test(suite, unreadable_files_say_why) {
    SuiteReader reader;
    char error[256];
    cr_assert_not(suite_open(&reader, "/nonexistent/suite.epd", error, sizeof error));
    cr_assert(strstr(error, "cannot read '/nonexistent/suite.epd'"), "%s", error);
}

Test(suite, public_suites_read_without_a_malformed_line) {
    static const char *const files[] = {"cpw_perft_results.epd", "roce_perftsuite.epd", "ethereal_standard.epd",
                                        "ethereal_fischer960.epd", "kervinck_perft_random.epd", "pychess_tricky.epd",
                                        "pychess_tricky_960.epd", "peterellisjones_gist.epd", "stockfish_perft_sh.epd",
                                        "stockfish_perft_sh_960.epd", "quick.epd"};
    static const int positions[] = {7, 126, 128, 960, 6838, 13, 5, 23, 7, 11, 61};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char path[1024], error[EPD_ERROR_SIZE + 64];
        SuiteReader reader;
        cr_assert(suite_open(&reader, suite_path(files[f], path, sizeof path), error, sizeof error), "%s", error);
        EpdRecord record;
        int line, records = 0;
        SuiteItem item;
        while ((item = suite_next(&reader, &record, &line, error, sizeof error)) != SUITE_END) {
            cr_assert_eq(item, SUITE_RECORD, "%s:%d: %s", files[f], reader.line_number, error);
            records++;
        }
        suite_close(&reader);
        cr_assert_eq(records, positions[f], "%s", files[f]);
    }
}

/* Writes `length` bytes to a new temporary file; returns its path in `path`. */
static const char *write_file(char path[64], const char *bytes, size_t length) {
    strcpy(path, "/tmp/perftkit-suite-XXXXXX");
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, bytes, length), (ssize_t)length);
    close(fd);
    return path;
}

/* Reads the file at `path` to its end. */
static int read_file_items(const char *path, Item *items, int room, SuiteReader *reader) {
    char error[256];
    cr_assert(suite_open(reader, path, error, sizeof error), "%s", error);
    int n = 0;
    for (; n < room; n++) {
        items[n].kind = suite_next(reader, &items[n].record, &items[n].line, items[n].error, sizeof items[n].error);
        if (items[n].kind == SUITE_END)
            break;
        if (items[n].kind == SUITE_MALFORMED)
            items[n].line = reader->line_number;
    }
    suite_close(reader);
    return n;
}

Test(suite, lines_with_nul_bytes_are_malformed_not_skipped) {
    /* Before the fix a line starting with NUL read as blank (strlen 0) and vanished, and
     * a NUL inside a line cut it short. */
    static const char bytes[] = "\0rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20\n"
                                "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15\0 ;D2 1\n"
                                "8/8/8/8/8/8/8/K6k w - - ;D1 3\n";
    char path[64];
    Item items[8];
    SuiteReader reader;
    int n = read_file_items(write_file(path, bytes, sizeof bytes - 1), items, 8, &reader);
    unlink(path);
    cr_assert_eq(n, 3);
    cr_assert(items[0].kind == SUITE_MALFORMED && items[0].line == 1);
    cr_assert(strstr(items[0].error, "a NUL byte at column 1 in '\\x00rnbqkbnr/"), "%s", items[0].error);
    cr_assert(items[1].kind == SUITE_MALFORMED && items[1].line == 2);
    cr_assert(strstr(items[1].error, "a NUL byte at column 38"), "%s", items[1].error);
    cr_assert(items[2].kind == SUITE_RECORD && items[2].line == 3, "reading goes on");
}

Test(suite, control_and_non_ascii_bytes_are_malformed_outside_comments) {
    static const char bytes[] = "# a comment may say caf\xc3\xa9\n"
                                "8/8/8/8/8/8/8/K6k w - - ;D1 3 ;id \x1b[31mred\n"
                                "8/8/8/8/8/8/8/K6k w - - ;id caf\xc3\xa9\n"
                                "8/8/8/8/8/8/8/K6k w - - ;D1 3\r\n";
    char path[64];
    Item items[8];
    SuiteReader reader;
    int n = read_file_items(write_file(path, bytes, sizeof bytes - 1), items, 8, &reader);
    unlink(path);
    cr_assert_eq(n, 3);
    cr_assert(items[0].kind == SUITE_MALFORMED && items[0].line == 2);
    cr_assert(strstr(items[0].error, "a control byte 0x1B at column 35 in '8/8/8/8/8/8/8/K6k w - - ;D1 3 ;id \\x1B[31mred'"),
              "%s", items[0].error);
    cr_assert(items[1].kind == SUITE_MALFORMED && strstr(items[1].error, "a non-ASCII byte 0xC3"), "%s", items[1].error);
    cr_assert(items[2].kind == SUITE_RECORD && items[2].line == 4, "a CRLF line end is fine");
}

Test(suite, a_huge_garbage_line_gives_a_short_one_line_reason) {
    enum { SIZE = 100 * 1024 };
    char *bytes = malloc(SIZE + 1);
    unsigned state = 12345;
    for (int i = 0; i < SIZE; i++) {
        state = state * 1103515245u + 12345u;
        char c = (char)(state >> 16);
        bytes[i] = c == '\n' ? 'x' : c;
    }
    bytes[SIZE] = '\n';
    char path[64];
    Item items[4];
    SuiteReader reader;
    int n = read_file_items(write_file(path, bytes, SIZE + 1), items, 4, &reader);
    unlink(path);
    free(bytes);
    cr_assert_eq(n, 1);
    cr_assert_eq(items[0].kind, SUITE_MALFORMED);
    cr_assert_lt(strlen(items[0].error), 300, "%zu bytes: %s", strlen(items[0].error), items[0].error);
    for (const char *p = items[0].error; *p; p++)
        cr_assert(*p >= 0x20 && *p < 0x7f, "a raw byte 0x%02X in the reason", (unsigned char)*p);
    cr_assert(strstr(items[0].error, "(102400 bytes)'"), "%s", items[0].error);
}

Test(suite, long_lines_are_quoted_short_and_escaped) {
    char line[400];
    memset(line, 'p', sizeof line - 1);
    line[sizeof line - 1] = '\0';
    const char *const lines[] = {line};
    Item items[2];
    cr_assert_eq(read_all(lines, 1, items, 2), 1);
    cr_assert(strstr(items[0].error, "FEN longer than 255 characters: 'pppp"), "%s", items[0].error);
    cr_assert(strstr(items[0].error, "... (399 bytes)'"), "%s", items[0].error);
}

Test(suite, a_directory_is_not_a_suite) {
    SuiteReader reader;
    char error[256];
    cr_assert_not(suite_open(&reader, "/tmp", error, sizeof error));
    cr_assert(strstr(error, "cannot read '/tmp': Is a directory"), "%s", error);
}

Test(suite, labels_are_the_id_or_the_file_and_line) {
    SuiteReader reader;
    char label[SUITE_LABEL_SIZE];
    suite_open_lines(&reader, "/some/folder/my.epd", NULL, 0);
    cr_assert_str_eq(suite_label(&reader, "kiwipete", 3, label), "kiwipete");
    cr_assert_str_eq(suite_label(&reader, "", 3, label), "my.epd:3");
    suite_open_lines(&reader, "odd\nname.epd", NULL, 0);
    cr_assert_str_eq(suite_label(&reader, NULL, 7, label), "odd\\x0Aname.epd:7");
}

/* Found in review for the fuzzing work: the perft line was cut at 128 bytes before it
 * was read, so junk past the cut was dropped and the count accepted. */
Test(suite, a_perft_line_with_junk_after_many_blanks_is_malformed_not_cut) {
    char junk[300];
    snprintf(junk, sizeof junk, "perft 1 15%*s junk", 200, "");
    const char *const lines[] = {"epd 4k3/8/8/8/8/8/8/4K2R w K -", junk, "perft 2 66   "};
    Item items[4];
    cr_assert_eq(read_all(lines, 3, items, 4), 2);
    cr_assert(items[0].kind == SUITE_MALFORMED && items[0].line == 2, "%s", items[0].error);
    cr_assert(strstr(items[0].error, "is not 'perft DEPTH COUNT'"), "%s", items[0].error);
    cr_assert(items[1].kind == SUITE_RECORD && items[1].record.expectation_count == 1, "trailing blanks are fine");
    cr_assert(items[1].record.expect[0].depth == 2 && items[1].record.expect[0].nodes == 66);
}

/* Reads the file holding `text` (length bytes) item by item. */
static int read_file_text(const char *text, size_t length, Item *items, int room) {
    char path[] = "/tmp/perftkit-suite-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, text, length), (ssize_t)length);
    close(fd);
    SuiteReader reader;
    char error[256];
    cr_assert(suite_open(&reader, path, error, sizeof error), "%s", error);
    int n = 0;
    for (; n < room; n++) {
        items[n].kind = suite_next(&reader, &items[n].record, &items[n].line, items[n].error, sizeof items[n].error);
        if (items[n].kind == SUITE_END)
            break;
    }
    suite_close(&reader);
    unlink(path);
    return n;
}

Test(suite, a_byte_order_mark_opening_the_file_is_skipped) {
    static const char text[] = "\xEF\xBB\xBF" "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66 ;id rook\n"
                               "\xEF\xBB\xBF" "8/8/8/8/8/8/8/K6k w - -\n";
    Item items[4];
    int n = read_file_text(text, sizeof text - 1, items, 4);
    cr_assert_eq(n, 2);
    cr_assert_eq(items[0].kind, SUITE_RECORD, "line 1: %s", items[0].error);
    cr_assert_str_eq(items[0].record.id, "rook");
    cr_assert(items[0].record.expect[1].depth == 2 && items[0].record.expect[1].nodes == 66);
    cr_assert_eq(items[1].kind, SUITE_MALFORMED, "a mark anywhere else is not skipped");
    cr_assert(strstr(items[1].error, "\\xEF\\xBB\\xBF"), "and is quoted: %s", items[1].error);
}

Test(suite, crlf_line_ends_read_as_lf_in_every_format) {
    static const char text[] = "# comment\r\n\r\n4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;id rook\r\n"
                               "id block\r\nepd 4k3/8/8/8/8/8/8/R3K3 w Q -\r\nperft 3 1287\r\n\r\n"
                               "8/8/8/8/8/8/8/K6k w - -\r\n";
    Item items[6];
    int n = read_file_text(text, sizeof text - 1, items, 6);
    cr_assert_eq(n, 3);
    for (int i = 0; i < 3; i++)
        cr_assert_eq(items[i].kind, SUITE_RECORD, "item %d: %s", i, items[i].error);
    cr_assert_str_eq(items[0].record.id, "rook");
    cr_assert_eq(items[0].line, 3);
    cr_assert_str_eq(items[1].record.id, "block");
    cr_assert(items[1].record.expect[0].depth == 3 && items[1].record.expect[0].nodes == 1287);
    cr_assert_str_eq(items[2].record.fen, "8/8/8/8/8/8/8/K6k w - -");
}
