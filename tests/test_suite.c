/* test_suite.c — the suite reader: three formats, mixed, and malformed lines reported
 * with their numbers while reading goes on. */
#include "support.h"

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
