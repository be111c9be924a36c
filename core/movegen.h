/* movegen.h — the legal move generator. Checkers and pins are computed once per node;
 * legality is then tested only for king moves, castling and e.p., every other move
 * being legal by construction (pinned pieces stay on their pin ray, evasions land on
 * the check ray). Every function returns legal moves only. */
#ifndef PERFTKIT_MOVEGEN_H
#define PERFTKIT_MOVEGEN_H

#include "position.h"

struct MoveList {
    Move moves[MAX_MOVES];
    int count;
};

/* Fills `list` with every legal move; returns their number. */
int gen_legal(const Position *pos, MoveList *list);

/* The number of legal moves, found without listing them (perft's bulk count). */
int gen_count_legal(const Position *pos);

/* True when `m` is in the legal moves of `pos`. */
bool gen_is_legal(const Position *pos, Move m);

#endif
