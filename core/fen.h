/* fen.h — Forsyth-Edwards Notation in and out. Reading accepts 6 fields, or 4 (EPD
 * style, clocks 0 and 1); castling as KQkq, Shredder-FEN rook files (HAha, Dbd) or
 * X-FEN (KQkq = outermost rook, a file letter for an inner one: Ekq); rejects every
 * malformed or impossible position with a one-line reason. Writing gives back the text read for canonical input (6 fields,
 * rights in KQkq order) and always text that reads back to the same position. */
#ifndef PERFTKIT_FEN_H
#define PERFTKIT_FEN_H

#include <stddef.h>

#include "position.h"

#define FEN_STARTPOS "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

/* Room for any FEN written by fen_write(), terminator included. */
enum { FEN_BUFFER_SIZE = 128, FEN_ERROR_SIZE = 160 };

/* Reads `fen` into `pos`, keyed with the default set (pos_set_keys() for another).
 * `chess960` forces Chess960 mode; without it the castling field decides (Shredder
 * letters, or KQkq naming rooks off a1/h1 or a king off e1). On failure returns false,
 * leaves `pos` unspecified and, when `error` is not NULL, writes the reason there (at
 * most error_size bytes, terminated). */
bool fen_parse(Position *pos, const char *fen, bool chess960, char *error, size_t error_size);

/* Writes the FEN of `pos` into `out` (FEN_BUFFER_SIZE bytes); returns `out`. */
char *fen_write(const Position *pos, char *out);

#endif
