/* core.h — the chess core in one include: types, bitboards, attacks, Zobrist keys,
 * positions, FEN, move generation, make/unmake and notation. A library without I/O,
 * threads or mutable globals; its read-only tables are built by core_init(). */
#ifndef PERFTKIT_CORE_H
#define PERFTKIT_CORE_H

#include "attacks.h"
#include "bitboard.h"
#include "fen.h"
#include "movegen.h"
#include "notation.h"
#include "position.h"
#include "types.h"
#include "zobrist.h"

/* Builds every table, with Zobrist keys from ZOB_DEFAULT_SEED. Call once, first. */
void core_init(void);

/* As core_init(), with Zobrist keys from another seed (for checks that counts do not
 * depend on the keys). */
void core_init_seeded(uint64_t zobrist_seed);

#endif
