/* fuzz_perft_blocks.c — python-chess .perft blocks ("id NAME", "epd FEN", "perft D N"
 * lines, blocks ended by a blank line or the next block) through the suite reader, over
 * any bytes (seeds: blocks in the style of python-chess, mixed with EPD lines as files may be):
 * the reader's properties of fuzz_suite.h. */
#include "fuzz_suite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_read_suite(data, size);
    return 0;
}
