/* fuzz_fen_list.c — plain FEN lists (one FEN a line, no counts; comments and blank
 * lines between) through the suite reader, over any bytes: the reader's properties of
 * fuzz_suite.h, and a list whose every line is a FEN without ';' gives records without
 * counts only. */
#include "fuzz_suite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    SuiteTally tally = fuzz_read_suite(data, size);
    /* Counts come only from ";D" operations or "perft" lines. */
    if (!memchr(data, ';', size) && !memchr(data, 'p', size))
        FUZZ_CHECK(tally.with_counts == 0, "%d records with counts from a list without ';' or perft lines",
                   tally.with_counts);
    return 0;
}
