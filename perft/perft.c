/* perft.c — the serial recursive count. The last two plies are the hot path: at
 * depth 2 every move is made and its replies are bulk-counted. */
#include "perft.h"

static uint64_t count_below(Position *pos, int depth) {
    MoveList list;
    Undo undo;
    uint64_t nodes = 0;
    gen_legal(pos, &list);
    if (depth == 2) {
        for (int i = 0; i < list.count; i++)
            nodes += (uint64_t)gen_count_after(pos, list.moves[i]);
        return nodes;
    }
    for (int i = 0; i < list.count; i++) {
        pos_make_move(pos, list.moves[i], &undo);
        nodes += count_below(pos, depth - 1);
        pos_unmake_move(pos, list.moves[i], &undo);
    }
    return nodes;
}

uint64_t perft_count(Position *pos, int depth) {
    if (depth <= 0)
        return 1;
    if (depth == 1)
        return (uint64_t)gen_count_legal(pos);
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
