/* units.h — the work units of a deep run: the DISTINCT positions a fixed number of
 * plies below the root, each with its multiplicity (the number of move paths that reach
 * it) per root move. perft(root, d) = sum over units of paths(unit) x perft(unit, d - ply),
 * so a position reached by many paths is counted once. A unit set is built once,
 * read-only afterwards (threads may share it), and its order is a function of the root
 * and the ply alone: not of the Zobrist keys, threads or tables. */
#ifndef PERFTKIT_UNITS_H
#define PERFTKIT_UNITS_H

#include <stddef.h>

#include "../core/core.h"

/* Deepest split ply: multiplicities stay within 64 bits (218^8 < 2^64). */
enum { UNIT_MAX_PLY = 8 };

/* Lists of at most this many units are ordered by expected size alone. */
enum { UNIT_ORDER_SORTED = 64 };

typedef struct UnitSet UnitSet;

/* How many move paths reach a unit from one root move. */
typedef struct UnitRoot {
    int root;       /* the root move, its index in generation order */
    uint64_t paths; /* >= 1 */
} UnitRoot;

/* The distinct positions `ply` plies below `root` (1 <= ply <= UNIT_MAX_PLY). Positions
 * are told apart by their full 128-bit key; one reached from several root moves is one
 * unit with a multiplicity for each. Units are listed in order of discovery (breadth
 * first, moves in generation order: the order of each unit's first path), which keeps
 * siblings and cousins together, so the positions they share a few plies further down
 * are still in the tables when the next one needs them. Only the smallest expected
 * eighth of the list (all of a list of at most UNIT_ORDER_SORTED units) comes last,
 * largest expected first, so the threads finish together. A unit's expected size is
 * its number of legal moves (perft(1): cheap next to perft(2), which would cost more
 * than the enumeration); ties keep the order of discovery. With `max_pairs` > 0 the
 * enumeration stops at the deepest ply not above `ply` whose distinct (position, root
 * move) pairs number at most `max_pairs` (at least ply 1), which bounds the memory;
 * unit_set_ply() says where it stopped. Memory grows with the distinct pairs (about
 * 100 bytes each at the peak), never with the paths: the start position's ply 5
 * (4,865,609 paths, 1,747,260 pairs, 822,518 units) takes about 180 MB and a second.
 * Positions differing only in an e.p. square that no pawn can legally take (pinned)
 * have different keys, so they stay two units.
 * Returns NULL, with the reason, when memory runs out or the ply is out of range. */
UnitSet *unit_set_create(const Position *root, int ply, size_t max_pairs, char *error, size_t error_size);
void unit_set_destroy(UnitSet *set);

/* The root the set was made for, its ply, and the number of units (0 when every path
 * ends in mate or stalemate above the ply). */
const Position *unit_set_root(const UnitSet *set);
int unit_set_ply(const UnitSet *set);
size_t unit_set_count(const UnitSet *set);

/* The position of unit `unit` (< unit_set_count), reached by its first path found. */
void unit_position(const UnitSet *set, size_t unit, Position *out);

/* Move paths from the root to the unit, over all root moves. */
uint64_t unit_paths(const UnitSet *set, size_t unit);

/* The unit's multiplicity per root move, by ascending root index, into *roots; returns
 * how many (>= 1). */
int unit_roots(const UnitSet *set, size_t unit, const UnitRoot **roots);

/* perft(1) of the unit's position: its expected size, which orders the list. */
uint64_t unit_estimate(const UnitSet *set, size_t unit);

/* A 64-bit digest of the list: ply, and for every unit in order its position (pieces,
 * side, castling rights with their rooks, e.p. square when capturable) and its
 * multiplicities. It hashes the positions themselves, not the Zobrist keys, so it is
 * the same under every key seed, thread count and build: two lists with one digest
 * describe the same work, unit for unit. */
uint64_t unit_set_digest(const UnitSet *set);

#endif
