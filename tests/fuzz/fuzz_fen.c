/* fuzz_fen.c — FEN reading (core/fen.c), with and without --chess960, over any bytes:
 * castling as KQkq, Shredder-FEN rook files and X-FEN alike. A rejected FEN gets a
 * one-line reason; an accepted one has every property of fuzz_check_position (FEN ->
 * position -> FEN the identity: parse(write(parse(x))) == parse(x) and write a fixpoint;
 * the key recomputed; make/unmake, SAN and UCI of every legal move), and the two modes
 * agree on everything but the Chess960 flag. */
#include "fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *fen = fuzz_string(data, size);
    Position pos[2];
    bool accepted[2];
    for (int chess960 = 0; chess960 < 2; chess960++) {
        char error[FEN_ERROR_SIZE] = "";
        accepted[chess960] = fen_parse(&pos[chess960], fen, chess960, error, sizeof error);
        if (!accepted[chess960]) {
            FUZZ_CHECK(fuzz_one_line(error), "rejected without a one-line reason: '%s'", error);
            continue;
        }
        FUZZ_CHECK(!chess960 || pos[chess960].chess960, "--chess960 did not make a Chess960 position");
        fuzz_check_position(&pos[chess960]);
    }
    FUZZ_CHECK(accepted[0] == accepted[1], "accepted in one mode only (standard: %d, Chess960: %d)", accepted[0],
               accepted[1]);
    if (accepted[0]) {
        const Position *a = &pos[0], *b = &pos[1];
        FUZZ_CHECK(!memcmp(a->board, b->board, sizeof a->board) && a->side == b->side && a->castling == b->castling
                       && a->ep_square == b->ep_square && !memcmp(a->castle_rook, b->castle_rook, sizeof a->castle_rook)
                       && zob_equal(a->key, b->key),
                   "the two modes read different positions");
        FUZZ_CHECK(gen_count_legal(a) == gen_count_legal(b), "the two modes count different moves");
    }
    free(fen);
    return 0;
}
