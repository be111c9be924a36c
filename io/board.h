/* board.h — a position shown as text for people: the board (piece letters, or Unicode
 * figurines with BOARD_FAN; ANSI colours with BOARD_COLOR), then what the FEN carries
 * (side to move, castling rights in the position's own notation, e.p. square, clocks),
 * the key, checkers, pinned pieces and the legal moves in SAN (FAN with BOARD_FAN).
 * Every figurine is one column wide in a monospaced terminal, and the text is laid out
 * by columns, never by bytes. Whether to colour is the caller's choice;
 * terminal_colour() (io/terminal.h) says what a stream and the environment allow. */
#ifndef PERFTKIT_BOARD_H
#define PERFTKIT_BOARD_H

#include <stdbool.h>
#include <stdio.h>

#include "../core/core.h"

/* Styles, or-ed together; 0 is plain letters without colour. */
enum { BOARD_COLOR = 1, BOARD_FAN = 2 };

/* Room for any rendering (the longest, 218 moves in FAN with colours, takes about 5 KB),
 * and for one move in FAN, terminator included. */
enum { BOARD_TEXT_SIZE = 8192, FAN_MOVE_SIZE = SAN_MOVE_SIZE + 4 };

/* Writes the display of `pos` in `style` into `out`; returns `out`. */
char *board_render(const Position *pos, unsigned style, char out[BOARD_TEXT_SIZE]);

/* The same, written to `stream`; false when the write failed. */
bool board_print(FILE *stream, const Position *pos, unsigned style);

/* Figurine Algebraic Notation: `san` (a move of `side`) with its piece letters, the
 * moving piece's and a promotion's, as the figurines of `side` ("Nf3" -> "♘f3",
 * "exd8=Q+" -> "exd8=♕+" for white); returns `out`. */
char *board_fan(const char *san, Color side, char out[FAN_MOVE_SIZE]);

/* The columns `text` (UTF-8) takes in a monospaced terminal: one per character, which
 * holds for ASCII and the chess figurines; for padding text that may hold figurines. */
size_t board_columns(const char *text);

#endif
