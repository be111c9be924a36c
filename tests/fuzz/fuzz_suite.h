/* fuzz_suite.h — the suite reader (suites/suite.c) over a whole input, for the targets
 * of its formats: every item is a record, a malformed line with a one-line reason, or
 * the end, which comes after at most one item per line (and one for a read error);
 * records have a FEN and an id of printable ASCII (tabs allowed), depths that
 * increase, and a line number that was read. The first record's FEN is judged as the runner would. */
#ifndef PERFTKIT_FUZZ_SUITE_H
#define PERFTKIT_FUZZ_SUITE_H

#include "fuzz_support.h"

#include "../../suites/suite.h"

/* What one input held, for a target's own properties. */
typedef struct SuiteTally {
    int records, malformed, with_counts, lines;
} SuiteTally;

/* Printable ASCII or tabs, as a suite line may hold. */
static bool text_only(const char *text) {
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        if ((*p < 0x20 && *p != '\t') || *p > 0x7e)
            return false;
    return true;
}

static SuiteTally fuzz_read_suite(const uint8_t *data, size_t size) {
    char path[600], error[EPD_ERROR_SIZE + 64];
    fuzz_write_file(fuzz_path("suite.epd", path, sizeof path), data, size);
    SuiteReader reader;
    FUZZ_CHECK(suite_open(&reader, path, error, sizeof error), "cannot open %s: %s", path, error);
    long long lines = 1;
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n';
    SuiteTally tally = {0, 0, 0, 0};
    for (;;) {
        EpdRecord record;
        int line = -1;
        error[0] = '\0';
        SuiteItem item = suite_next(&reader, &record, &line, error, sizeof error);
        if (item == SUITE_END)
            break;
        FUZZ_CHECK(tally.records + tally.malformed < lines + 1, "more items than lines (%lld)", lines);
        if (item == SUITE_MALFORMED) {
            FUZZ_CHECK(fuzz_one_line(error), "line %d is malformed without a one-line reason: '%s'",
                       reader.line_number, error);
            tally.malformed++;
            continue;
        }
        FUZZ_CHECK(item == SUITE_RECORD, "unknown item %d", (int)item);
        FUZZ_CHECK(line >= 1 && line <= reader.line_number, "record on line %d, %d lines read", line,
                   reader.line_number);
        FUZZ_CHECK(record.fen[0] && text_only(record.fen), "record of line %d has a FEN that is not printable ASCII",
                   line);
        FUZZ_CHECK(text_only(record.id), "record of line %d has an id that is not printable ASCII", line);
        FUZZ_CHECK(record.expectation_count >= 0 && record.expectation_count <= EPD_MAX_DEPTHS, "%d depths",
                   record.expectation_count);
        for (int i = 0; i < record.expectation_count; i++)
            FUZZ_CHECK(record.expect[i].depth >= 1 && record.expect[i].depth <= EPD_MAX_DEPTHS
                           && (i == 0 || record.expect[i].depth > record.expect[i - 1].depth),
                       "line %d: depth %d at %d", line, record.expect[i].depth, i);
        char label[SUITE_LABEL_SIZE];
        FUZZ_CHECK(text_only(suite_label(&reader, record.id, line, label)) && label[0], "label '%s'", label);
        if (tally.records < 1) { /* the FEN target checks positions in depth */
            Position pos;
            char why[FEN_ERROR_SIZE] = "";
            if (fen_parse(&pos, record.fen, false, why, sizeof why))
                fuzz_check_position(&pos);
            else
                FUZZ_CHECK(fuzz_one_line(why), "FEN rejected without a one-line reason: '%s'", why);
        }
        tally.records++;
        tally.with_counts += record.expectation_count > 0;
    }
    tally.lines = reader.line_number;
    FUZZ_CHECK(reader.line_number <= lines, "%d lines read of %lld", reader.line_number, lines);
    suite_close(&reader);
    return tally;
}

#endif
