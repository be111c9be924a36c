/* zobrist.h — 128-bit Zobrist keys: two independent 64-bit halves drawn from a seeded
 * generator, one key per (piece, square), castling right and the square of its rook
 * (so Chess960 positions that castle with different rooks differ), e.p. file and side
 * to move. A ZobristKeys value holds the keys of one seed and is only read once made;
 * each Position points to the set it is keyed with (the default set unless told). */
#ifndef PERFTKIT_ZOBRIST_H
#define PERFTKIT_ZOBRIST_H

#include "types.h"

typedef struct Key128 {
    uint64_t lo, hi;
} Key128;

/* The seed of the default key set (zob_default_keys()); another seed gives other keys
 * and the same counts. */
#define ZOB_DEFAULT_SEED 0x5045524654CAFE01ULL

/* The keys of one seed (about 20 KB). Fields are read by the inline accessors below. */
typedef struct ZobristKeys {
    Key128 psq[PIECE_NB][SQUARE_NB];
    Key128 castling[4][SQUARE_NB]; /* [right index][its rook's square] */
    Key128 ep_file[8];
    Key128 side;
    uint64_t seed;
} ZobristKeys;

/* Fills `keys` from `seed`: equal seeds give equal sets. Writes nothing else, so any
 * number of sets may be made at any time, by any thread, into memory the caller owns
 * (and keeps for as long as positions point to it). */
void zob_keys_make(ZobristKeys *keys, uint64_t seed);

/* The set made from ZOB_DEFAULT_SEED by core_init(); read-only, shared by every thread. */
const ZobristKeys *zob_default_keys(void);

/* The seed `keys` were made from. */
uint64_t zob_keys_seed(const ZobristKeys *keys);

static inline void zob_toggle(Key128 *key, Key128 k) {
    key->lo ^= k.lo;
    key->hi ^= k.hi;
}
static inline Key128 zob_psq(const ZobristKeys *keys, Piece p, Square s) { return keys->psq[p][s]; }
/* The key of castling right number `index` (0 = WHITE_OO .. 3 = BLACK_OOO) with its
 * rook on `rook`. */
static inline Key128 zob_castling(const ZobristKeys *keys, int index, Square rook) {
    return keys->castling[index][rook];
}
static inline Key128 zob_ep_file(const ZobristKeys *keys, int file) { return keys->ep_file[file]; }
static inline Key128 zob_side(const ZobristKeys *keys) { return keys->side; }
static inline bool zob_equal(Key128 a, Key128 b) { return a.lo == b.lo && a.hi == b.hi; }

#endif
