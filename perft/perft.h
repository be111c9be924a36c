/* perft.h — counting move paths. perft(d) of a position is the number of legal move
 * sequences of length d from it (its leaf nodes at depth d). The last two plies belong
 * to the generator (bulk count at depth 1, one pass at depth 2); above them each node
 * may be looked up in, and stored to, the table of its remaining depth. Counts are
 * 128-bit. One PerftSearch per thread; the tables are shared. */
#ifndef PERFTKIT_PERFT_H
#define PERFTKIT_PERFT_H

#include <stdatomic.h>

#include "../core/core.h"
#include "count.h"
#include "table.h"

enum { PERFT_MAX_DEPTH = TABLE_MAX_DEPTH };

/* What one thread needs while counting. */
typedef struct PerftSearch {
    const TableSet *tables;         /* NULL: no hashing */
    TableCounters *counters;        /* [PERFT_MAX_DEPTH + 1], this thread's own; NULL with no tables */
    const atomic_bool *stop;        /* NULL, or a flag that abandons the count when set */
    bool stopped;                   /* the count was abandoned: its result means nothing */
    bool full;                      /* make and unmake every leaf move: no bulk counting,
                                       no tables (what an engine's search does) */
    _Atomic uint64_t *leaves;       /* NULL, or where the leaves counted so far are added as
                                       the count goes (each node PERFT_PUBLISH_DEPTH plies
                                       above the leaves, and each table hit above them), for
                                       progress and node limits; only this thread writes it */
} PerftSearch;

enum { PERFT_PUBLISH_DEPTH = 3 };

/* perft(depth) of `pos` (0 <= depth <= PERFT_MAX_DEPTH), looking `pos` itself up too;
 * `pos` is scratch and is restored before returning. When the stop flag cuts the count
 * short, search->stopped is set and the result must be ignored. What reaches
 * search->leaves is at most the result (and equal to it from depth PERFT_PUBLISH_DEPTH
 * on, unless stopped). */
Count perft_search(PerftSearch *search, Position *pos, int depth);

/* perft(depth), serial and unhashed. */
Count perft_count(Position *pos, int depth);

/* One root move and the leaves below it. */
typedef struct PerftDivision {
    Move move;
    Count count;
} PerftDivision;

/* perft(depth - 1) below each legal root move, serial and unhashed, in generation
 * order; returns the number of root moves. Needs depth >= 1. */
int perft_divide(Position *pos, int depth, PerftDivision out[MAX_MOVES]);

#endif
