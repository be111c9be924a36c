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

/* Builds every table, and the default Zobrist key set from ZOB_DEFAULT_SEED. Call
 * once, first; nothing global is written after it. Other key sets are values made with
 * zob_keys_make() and given to positions with pos_set_keys(). */
void core_init(void);

#endif
