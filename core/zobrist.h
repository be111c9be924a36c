/* zobrist.h — 128-bit Zobrist keys: two independent 64-bit halves drawn from a
 * fixed-seed generator, one key per (piece, square), castling right and the square of
 * its rook (so Chess960 positions that castle with different rooks differ), e.p. file
 * and side to move. The tables are filled once by zob_init() and only read afterwards. */
#ifndef PERFTKIT_ZOBRIST_H
#define PERFTKIT_ZOBRIST_H

#include "types.h"

typedef struct Key128 {
    uint64_t lo, hi;
} Key128;

/* The seed used unless a caller asks for another (only to check that counts do
 * not depend on the keys). */
#define ZOB_DEFAULT_SEED 0x5045524654CAFE01ULL

/* Read-only after zob_init(); exposed only so the updates below can inline. */
extern Key128 zob_psq_table[PIECE_NB][SQUARE_NB];
extern Key128 zob_castling_table[4][SQUARE_NB];
extern Key128 zob_ep_file_table[8];
extern Key128 zob_side_key;

/* Fills the tables from `seed`. Call once before any other zob_ function. */
void zob_init(uint64_t seed);

static inline void zob_toggle(Key128 *key, Key128 k) {
    key->lo ^= k.lo;
    key->hi ^= k.hi;
}
static inline Key128 zob_psq(Piece p, Square s) { return zob_psq_table[p][s]; }
/* The key of castling right number `index` (0 = WHITE_OO .. 3 = BLACK_OOO) with its
 * rook on `rook`. */
static inline Key128 zob_castling(int index, Square rook) { return zob_castling_table[index][rook]; }
static inline Key128 zob_ep_file(int file) { return zob_ep_file_table[file]; }
static inline Key128 zob_side(void) { return zob_side_key; }
static inline bool zob_equal(Key128 a, Key128 b) { return a.lo == b.lo && a.hi == b.hi; }

#endif
