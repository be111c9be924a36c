/* test_epd.c — perft suite lines: records, comments, and every malformed shape. */
#include "support.h"

#include "../suites/epd.h"

static EpdStatus parse(const char *line, EpdRecord *record, char *error) {
    return epd_parse_line(line, record, error, EPD_ERROR_SIZE);
}

Test(epd, reads_fen_depths_and_counts) {
    EpdRecord r;
    char error[EPD_ERROR_SIZE];
    cr_assert_eq(parse("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - ;D1 14 ;D2 191 ;D7 178633661\r\n", &r, error),
                 EPD_RECORD);
    cr_assert_str_eq(r.fen, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -");
    cr_assert_eq(r.expectation_count, 3);
    cr_assert_eq(r.expect[2].depth, 7);
    cr_assert(r.expect[2].nodes == 178633661);
    cr_assert_str_eq(r.id, "");
}

Test(epd, reads_an_id_and_counts_past_64_bits) {
    EpdRecord r;
    char error[EPD_ERROR_SIZE];
    cr_assert_eq(parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;id \"start\" ;D15 "
                       "2015099950053364471960", &r, error), EPD_RECORD);
    cr_assert_str_eq(r.id, "start");
    char text[COUNT_TEXT_SIZE];
    cr_assert_str_eq(count_format(r.expect[0].nodes, false, text), "2015099950053364471960");
}

Test(epd, comments_and_blank_lines_are_not_records) {
    EpdRecord r;
    char error[EPD_ERROR_SIZE];
    cr_assert_eq(parse("# source: somewhere", &r, error), EPD_NOT_A_RECORD);
    cr_assert_eq(parse("   \t\r\n", &r, error), EPD_NOT_A_RECORD);
    cr_assert_eq(parse("", &r, error), EPD_NOT_A_RECORD);
}

Test(epd, malformed_lines_say_why) {
    static const struct {
        const char *line, *reason;
    } cases[] = {
        {"8/8/8/8/8/8/8/8 w - - ;D1", "without a count"},
        {"8/8/8/8/8/8/8/8 w - - ;D1 2x", "not a whole number"},
        {"8/8/8/8/8/8/8/8 w - - ;D0 1", "out of range"},
        {"8/8/8/8/8/8/8/8 w - - ;D33 1", "out of range"},
        {"8/8/8/8/8/8/8/8 w - - ;D2 5 ;D1 1", "must increase"},
        {"8/8/8/8/8/8/8/8 w - - ;D1 99999999999999999999999999999999999999999", "not a whole number"},
        {"8/8/8/8/8/8/8/8 w - - ;bm e4", "unknown operation"},
        {" ;D1 20", "no FEN"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        EpdRecord r;
        char error[EPD_ERROR_SIZE] = "";
        cr_assert_eq(parse(cases[i].line, &r, error), EPD_MALFORMED, "accepted '%s'", cases[i].line);
        cr_assert(strstr(error, cases[i].reason), "'%s' gave '%s', expected to mention '%s'", cases[i].line, error,
                  cases[i].reason);
    }
}

Test(epd, reasons_quote_the_text_escaped_and_cut) {
    EpdRecord r;
    char error[EPD_ERROR_SIZE], line[600];
    snprintf(line, sizeof line, "8/8/8/8/8/8/8/8 w - - ;bm \x01%0500d", 7);
    cr_assert_eq(parse(line, &r, error), EPD_MALFORMED);
    cr_assert(strstr(error, "unknown operation 'bm \\x01000"), "%s", error);
    cr_assert(strstr(error, "... (504 bytes)'"), "%s", error);
    cr_assert_lt(strlen(error), 200, "%s", error);
}
