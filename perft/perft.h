/* perft.h — counting move paths. perft(d) of a position is the number of legal move
 * sequences of length d from it (its leaf nodes at depth d). Depth 1 is bulk-counted:
 * the number of legal moves is the answer and no move is made. Serial, no hashing. */
#ifndef PERFTKIT_PERFT_H
#define PERFTKIT_PERFT_H

#include "../core/core.h"

/* One root move and the leaves below it. */
typedef struct PerftDivision {
    Move move;
    uint64_t count;
} PerftDivision;

/* perft(depth) of `pos`; `pos` is used as scratch and restored before returning. */
uint64_t perft_count(Position *pos, int depth);

/* perft(depth - 1) below each legal root move, in generation order, into `out`
 * (room for MAX_MOVES); returns the number of root moves. Needs depth >= 1. */
int perft_divide(Position *pos, int depth, PerftDivision out[MAX_MOVES]);

#endif
