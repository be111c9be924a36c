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

/* The legal moves of one class, which together make up gen_legal() without overlap:
 * captures (e.p. included, promotions excepted), promotions (capturing or not, four
 * pieces each), and quiet moves (the rest, castling included). */
int gen_captures(const Position *pos, MoveList *list);
int gen_promotions(const Position *pos, MoveList *list);
int gen_quiets(const Position *pos, MoveList *list);

/* The legal moves that give check: direct checks (check squares of each piece type,
 * promotions seeing through the square their pawn left), discovered checks (a man
 * leaving the line between one of our sliders and the enemy king), and e.p. and
 * castling tested on the board after the move. */
int gen_checks(const Position *pos, MoveList *list);

/* True when legal move `m` gives check, by the same rules as gen_checks(). */
bool gen_gives_check(const Position *pos, Move m);

/* The number of legal moves, found without listing them (perft's bulk count). */
int gen_count_legal(const Position *pos);

/* The number of legal replies to legal move `m`, found without making it: the child's
 * bitboards are built from the parent's. Equal to making m and calling gen_count_legal. */
int gen_count_after(const Position *pos, Move m);

/* perft(2) in one pass: the sum over the legal moves of the number of legal replies,
 * without listing or making any move. */
uint64_t gen_count_replies(const Position *pos);

/* perft(2) of the child each of the `n` legal moves `moves` leads to, into counts[i],
 * without making them (as gen_count_after): the parent's bitboards are read once. */
void gen_count_replies_after(const Position *pos, const Move *moves, int n, uint64_t *counts);

/* perft(depth) without hashing: the number of legal move sequences of length `depth`
 * (1 for depth 0), counted in bulk with no move listed or made (bulk.c). */
uint64_t gen_count_perft(const Position *pos, int depth);

/* The men of the side to move pinned to their king (the same pins the generators use). */
Bitboard gen_pinned(const Position *pos);

/* True when `m` is in the legal moves of `pos`. */
bool gen_is_legal(const Position *pos, Move m);

#endif
