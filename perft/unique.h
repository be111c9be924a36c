/* unique.h — the number of distinct positions at every ply below a root. Each ply has
 * its own exact set of full 128-bit keys, grown as needed (no entry is ever dropped,
 * unlike a hash table's), and the walk expands each distinct position once per ply:
 * a position seen again at the same ply has the same subtree. Two positions are the
 * same when they agree in placement, side to move, castling rights (with their rooks)
 * and the e.p. square, which counts only where a legal e.p. capture exists. */
#ifndef PERFTKIT_UNIQUE_H
#define PERFTKIT_UNIQUE_H

#include <stddef.h>

#include "perft.h"

enum { UNIQUE_MAX_DEPTH = 12 };

typedef struct UniqueReport {
    int depth;
    uint64_t positions[UNIQUE_MAX_DEPTH + 1]; /* [0] = 1, the root */
    size_t bytes[UNIQUE_MAX_DEPTH + 1];       /* memory of each ply's set at the end */
    size_t peak_bytes;                        /* all sets together, at the largest */
} UniqueReport;

/* Fills `report` for plies 1..depth. Returns false, with the reason, when memory runs
 * out (the plies counted so far are not reported: a partial set is not exact). */
bool unique_count(const Position *root, int depth, UniqueReport *report, char *error, size_t error_size);

#endif
