/* notation.h — moves as text: UCI long algebraic (e2e4, e7e8q; Chess960 castling as
 * king takes rook, standard castling as e1g1) and SAN (Nbd7, exd6, e8=Q+, O-O#), both
 * ways. Text is always read against a position and only legal moves are returned. */
#ifndef PERFTKIT_NOTATION_H
#define PERFTKIT_NOTATION_H

#include "position.h"

/* Buffer sizes for one move, terminator included. */
enum { UCI_MOVE_SIZE = 6, SAN_MOVE_SIZE = 12 };

/* The UCI text of legal move `m` in `pos` ("0000" for MOVE_NONE); returns `out`. */
char *move_to_uci(const Position *pos, Move m, char out[UCI_MOVE_SIZE]);

/* The legal move of `pos` written as `text` in UCI, or MOVE_NONE. Outside Chess960,
 * castling is also accepted as king takes rook (e1h1). */
Move move_parse_uci(const Position *pos, const char *text);

/* The SAN of legal move `m` in `pos`, with + or # when it checks or mates. */
char *move_to_san(const Position *pos, Move m, char out[SAN_MOVE_SIZE]);

/* The legal move of `pos` written as `text` in SAN, or MOVE_NONE with the reason in
 * *why (when why is not NULL). Tolerates 0-0 for O-O, a missing or extra capture
 * mark, a missing '=' before the promotion piece, and trailing + # ! ?. */
Move move_parse_san(const Position *pos, const char *text, const char **why);

#endif
