/* fuzz_epd.c — one suite line "<FEN> ;D1 20 ;D2 400 ;id NAME" (suites/epd.c) over any
 * bytes. A malformed line gets a one-line reason; a record has a FEN, at most 32 depths
 * in 1..32, strictly increasing, and writing it back as a line reads back the same
 * record. Its FEN, when fen_parse accepts it, has every property of an accepted position. */
#include "fuzz_support.h"

#include "../../suites/epd.h"

static bool same_record(const EpdRecord *a, const EpdRecord *b) {
    if (strcmp(a->fen, b->fen) || strcmp(a->id, b->id) || a->expectation_count != b->expectation_count)
        return false;
    for (int i = 0; i < a->expectation_count; i++)
        if (a->expect[i].depth != b->expect[i].depth || a->expect[i].nodes != b->expect[i].nodes)
            return false;
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *line = fuzz_string(data, size), error[EPD_ERROR_SIZE] = "";
    EpdRecord record;
    EpdStatus status = epd_parse_line(line, &record, error, sizeof error);
    if (status == EPD_MALFORMED) {
        FUZZ_CHECK(fuzz_one_line(error), "malformed line without a one-line reason: '%s'", error);
    } else if (status == EPD_RECORD) {
        FUZZ_CHECK(record.fen[0] && strlen(record.fen) < EPD_FEN_SIZE && !strchr(record.fen, ';'), "bad FEN field");
        FUZZ_CHECK(record.expectation_count >= 0 && record.expectation_count <= EPD_MAX_DEPTHS, "%d depths",
                   record.expectation_count);
        for (int i = 0; i < record.expectation_count; i++)
            FUZZ_CHECK(record.expect[i].depth >= 1 && record.expect[i].depth <= EPD_MAX_DEPTHS
                           && (i == 0 || record.expect[i].depth > record.expect[i - 1].depth),
                       "depth %d at %d", record.expect[i].depth, i);
        /* Written back: the FEN, each depth, the id quoted. */
        size_t room = EPD_FEN_SIZE + EPD_ID_SIZE + EPD_MAX_DEPTHS * (COUNT_TEXT_SIZE + 8) + 16, used = 0;
        char *again = malloc(room), count[COUNT_TEXT_SIZE];
        FUZZ_CHECK(again, "out of memory");
        used += (size_t)snprintf(again + used, room - used, "%s", record.fen);
        for (int i = 0; i < record.expectation_count; i++)
            used += (size_t)snprintf(again + used, room - used, " ;D%d %s", record.expect[i].depth,
                                     count_format(record.expect[i].nodes, false, count));
        if (record.id[0])
            used += (size_t)snprintf(again + used, room - used, " ;id \"%s\"", record.id);
        EpdRecord back;
        FUZZ_CHECK(epd_parse_line(again, &back, error, sizeof error) == EPD_RECORD, "'%s' is rejected: %s", again,
                   error);
        FUZZ_CHECK(same_record(&record, &back), "'%s' reads back as another record", again);
        free(again);

        Position pos;
        if (fen_parse(&pos, record.fen, false, error, sizeof error))
            fuzz_check_position(&pos);
        else
            FUZZ_CHECK(fuzz_one_line(error), "FEN rejected without a one-line reason: '%s'", error);
    } else {
        FUZZ_CHECK(status == EPD_NOT_A_RECORD, "unknown status %d", (int)status);
    }
    free(line);
    return 0;
}
