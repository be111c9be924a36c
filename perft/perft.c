/* perft.c — the serial recursive count. The last two plies are the hot path and
 * belong to the generator: gen_count_replies() counts them without making a move. */
#include "perft.h"

/* Depth 3 and more: make each move and count below it. */
static uint64_t count_below(Position *pos, int depth) {
    MoveList list;
    Undo undo;
    uint64_t nodes = 0;
    gen_legal(pos, &list);
    for (int i = 0; i < list.count; i++) {
        pos_make_move(pos, list.moves[i], &undo);
        nodes += depth == 3 ? gen_count_replies(pos) : count_below(pos, depth - 1);
        pos_unmake_move(pos, list.moves[i], &undo);
    }
    return nodes;
}

uint64_t perft_count(Position *pos, int depth) {
    if (depth <= 0)
        return 1;
    if (depth == 1)
        return (uint64_t)gen_count_legal(pos);
    if (depth == 2)
        return gen_count_replies(pos);
    return count_below(pos, depth);
}

int perft_divide(Position *pos, int depth, PerftDivision out[MAX_MOVES]) {
    MoveList list;
    Undo undo;
    gen_legal(pos, &list);
    for (int i = 0; i < list.count; i++) {
        pos_make_move(pos, list.moves[i], &undo);
        out[i].move = list.moves[i];
        out[i].count = perft_count(pos, depth - 1);
        pos_unmake_move(pos, list.moves[i], &undo);
    }
    return list.count;
}
