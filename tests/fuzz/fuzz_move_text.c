/* fuzz_move_text.c — one move as text, read as UCI and as SAN (core/notation.c) against
 * a position the first byte picks. What is read is legal; UCI read back is written as
 * the text (castling also as king takes rook outside Chess960); a SAN read is written as
 * a SAN that reads back as the same move; a refused SAN has a one-line reason. */
#include "fuzz_positions.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    FuzzPick pick;
    Position pos = fuzz_pick_position(&data, &size, &pick), before = pos;
    char *text = fuzz_string(data, size), written[SAN_MOVE_SIZE];

    Move m = move_parse_uci(&pos, text);
    if (m != MOVE_NONE) {
        FUZZ_CHECK(gen_is_legal(&pos, m), "UCI '%s' read as an illegal move", text);
        move_to_uci(&pos, m, written);
        bool king_takes_rook = move_kind(m) == MOVE_CASTLING && !pos.chess960 && strlen(text) == 4
                            && text[0] == 'a' + sq_file(move_from(m)) && text[2] == 'a' + sq_file(move_to(m))
                            && text[1] == text[3];
        FUZZ_CHECK(!strcmp(written, text) || king_takes_rook, "UCI '%s' read as %s", text, written);
    }

    const char *why = NULL;
    m = move_parse_san(&pos, text, &why);
    if (m == MOVE_NONE) {
        FUZZ_CHECK(fuzz_one_line(why), "SAN '%s' refused without a one-line reason", text);
    } else {
        FUZZ_CHECK(gen_is_legal(&pos, m), "SAN '%s' read as an illegal move", text);
        move_to_san(&pos, m, written);
        FUZZ_CHECK(move_parse_san(&pos, written, &why) == m, "SAN '%s' read, written '%s', reads back otherwise",
                   text, written);
    }
    FUZZ_CHECK(pos_equal(&pos, &before), "reading a move changed the position");
    free(text);
    return 0;
}
