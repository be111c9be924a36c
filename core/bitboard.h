/* bitboard.h — 64-bit square sets and the leaf operations on them.
 * Bit n stands for square n (a1 = bit 0). Every helper is branch-free or
 * nearly so; all are hot and therefore static inline. */
#ifndef PERFTKIT_BITBOARD_H
#define PERFTKIT_BITBOARD_H

#include "types.h"

#define BB_FILE_A 0x0101010101010101ULL
#define BB_FILE_H 0x8080808080808080ULL
#define BB_RANK_1 0x00000000000000FFULL
#define BB_RANK_8 0xFF00000000000000ULL
#define BB_ALL    0xFFFFFFFFFFFFFFFFULL

/* The set holding only square s. */
static inline Bitboard bb_square(Square s) { return 1ULL << s; }
/* The whole file of square-file f, or the whole rank r. */
static inline Bitboard bb_file(int f) { return BB_FILE_A << f; }
static inline Bitboard bb_rank(int r) { return BB_RANK_1 << (8 * r); }
/* Rank r as seen by colour c (bb_rank_relative(BLACK, RANK_1) is rank 8). */
static inline Bitboard bb_rank_relative(Color c, int r) { return bb_rank(rank_relative(c, r)); }

/* Number of squares in b. */
static inline int bb_count(Bitboard b) { return __builtin_popcountll(b); }
/* Lowest square of a non-empty set. */
static inline Square bb_first(Bitboard b) { return __builtin_ctzll(b); }
/* Removes and returns the lowest square of a non-empty set. */
static inline Square bb_pop(Bitboard *b) {
    Square s = __builtin_ctzll(*b);
    *b &= *b - 1;
    return s;
}
/* True when b holds two squares or more. */
static inline bool bb_several(Bitboard b) { return (b & (b - 1)) != 0; }
/* True when square s is in b. */
static inline bool bb_has(Bitboard b, Square s) { return (b >> s) & 1; }

/* One step in a direction; squares that would wrap around a board edge drop out. */
static inline Bitboard bb_north(Bitboard b) { return b << 8; }
static inline Bitboard bb_south(Bitboard b) { return b >> 8; }
static inline Bitboard bb_east(Bitboard b) { return (b & ~BB_FILE_H) << 1; }
static inline Bitboard bb_west(Bitboard b) { return (b & ~BB_FILE_A) >> 1; }

/* One step forward for colour c (north for white). */
static inline Bitboard bb_forward(Color c, Bitboard b) { return c == WHITE ? b << 8 : b >> 8; }
/* Diagonal steps forward for colour c, towards the a-file and the h-file. */
static inline Bitboard bb_forward_west(Color c, Bitboard b) {
    return c == WHITE ? (b & ~BB_FILE_A) << 7 : (b & ~BB_FILE_A) >> 9;
}
static inline Bitboard bb_forward_east(Color c, Bitboard b) {
    return c == WHITE ? (b & ~BB_FILE_H) << 9 : (b & ~BB_FILE_H) >> 7;
}
/* Squares attacked by all pawns of colour c in b. */
static inline Bitboard bb_pawn_attacks(Color c, Bitboard b) {
    return bb_forward_west(c, b) | bb_forward_east(c, b);
}
/* Signed square offsets matching the steps above. */
static inline int forward_step(Color c) { return c == WHITE ? 8 : -8; }
static inline int forward_west_step(Color c) { return c == WHITE ? 7 : -9; }
static inline int forward_east_step(Color c) { return c == WHITE ? 9 : -7; }

/* The board mirrored top to bottom (rank 1 <-> rank 8). */
static inline Bitboard bb_flip_vertical(Bitboard b) { return __builtin_bswap64(b); }

#endif
