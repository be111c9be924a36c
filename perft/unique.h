/* unique.h — the number of distinct positions at every ply below a root. Each ply has
 * its own exact set of full 128-bit keys, grown as needed (no entry is ever dropped,
 * unlike a hash table's), and the walk expands each distinct position once per ply:
 * a position seen again at the same ply has the same subtree. Two positions are the
 * same when they agree in placement, side to move, castling rights (with their rooks)
 * and the e.p. square, which counts only where a legal e.p. capture exists. The counts
 * are the sizes of the sets, so they are the same at any thread count. */
#ifndef PERFTKIT_UNIQUE_H
#define PERFTKIT_UNIQUE_H

#include <stddef.h>

#include "perft.h"

/* The plies a run may ask for: the range of perft stats. Memory ends a run long before
 * (about 2.4 GB of sets at ply 7, some 25 GB at ply 8), and counts to ply 12 fit in
 * 64 bits. */
enum { UNIQUE_MAX_DEPTH = 12 };

typedef struct UniqueReport {
    int depth;
    int threads;                              /* threads that ran */
    uint64_t positions[UNIQUE_MAX_DEPTH + 1]; /* [0] = 1, the root */
    size_t bytes[UNIQUE_MAX_DEPTH + 1];       /* memory of each ply's set at the end */
    size_t peak_bytes;                        /* all sets together, at the largest */
} UniqueReport;

/* Fills `report` for plies 1..depth (1 <= depth <= UNIQUE_MAX_DEPTH), on `threads`
 * threads (0: every processor), the sets together never holding more than
 * `max_bytes`. Returns false, with the reason, when a set would need more than that or
 * memory runs out (the plies counted so far are not reported: a partial set is not
 * exact). */
bool unique_count(const Position *root, int depth, int threads, size_t max_bytes, UniqueReport *report,
                  char *error, size_t error_size);

#endif
