/* stats.h — perft statistics as the chessprogramming wiki tabulates them, for the last
 * move into each leaf: captures (e.p. included), e.p. captures, castles, promotions,
 * checks (mates included), discovery checks (single checks given by a man other than
 * the one that moved; for castling, the rook counts as moved), double checks, mates.
 * Hashed: a table per remaining depth holds each position's whole statistics vector, so
 * every distinct position is expanded once per remaining depth; entries carry a check
 * word over the key and the whole vector, so a torn entry reads as a miss. */
#ifndef PERFTKIT_STATS_H
#define PERFTKIT_STATS_H

#include "driver.h"

/* The counters, in the order of the wiki's columns. */
enum {
    STAT_NODES, STAT_CAPTURES, STAT_EP, STAT_CASTLES, STAT_PROMOTIONS, STAT_CHECKS, STAT_DISCOVERY_CHECKS,
    STAT_DOUBLE_CHECKS, STAT_CHECKMATES, STATS_FIELDS
};
enum { STATS_MAX_DEPTH = 12 };

/* Counts of the leaves of a subtree; 64 bits suffice to STATS_MAX_DEPTH. */
typedef struct LeafStats {
    uint64_t field[STATS_FIELDS];
} LeafStats;

/* Field names for JSON ("nodes", "captures", ...), indexed like LeafStats.field. */
extern const char *const stats_field_names[STATS_FIELDS];

/* Tables of statistics vectors, one per remaining depth 1..STATS_MAX_DEPTH. */
typedef struct StatsTables StatsTables;

/* bytes 0: no hashing. Returns NULL, with the reason, when the memory is refused. */
StatsTables *stats_tables_create(size_t bytes, char *error, size_t error_size);
void stats_tables_destroy(StatsTables *tables);

/* The threads a count at `depth` runs on when given `threads` (0: every processor):
 * one below depth 5, where the whole count takes about a millisecond. */
int stats_threads(int depth, int threads);

/* The statistics of the leaves `depth` plies below `root` (1 <= depth <= STATS_MAX_DEPTH),
 * counted on `threads` threads with `tables` (may be NULL), within `limits` (NULL: none;
 * max_seconds from this call, max_nodes in leaves of this depth). Every thread checks
 * the limits every thousand or so nodes, so a run stops within milliseconds of them.
 * Returns RUN_COMPLETED with `out` filled, or why it stopped (RUN_INTERRUPTED,
 * RUN_TIME_LIMIT, RUN_NODE_LIMIT, RUN_NO_MEMORY) with `out` zero: statistics of part of a tree are
 * no one's figures, and nothing of an abandoned subtree reaches the tables. */
RunStatus stats_run(const Position *root, int depth, int threads, StatsTables *tables, const RunLimits *limits,
                    LeafStats *out);

/* The same statistics for each legal root move, in generation order (`out` has room
 * for MAX_MOVES); returns the number of root moves, or -1 when memory ran out (nothing
 * was counted). `counters` (NULL, or room for
 * STATS_MAX_DEPTH + 1) receives the table probes, matches, stores and replacements by
 * remaining depth. */
int stats_divide(const Position *root, int depth, int threads, StatsTables *tables, Move moves[MAX_MOVES],
                 LeafStats out[MAX_MOVES], TableCounters *counters);

/* The statistics of the tables of plies 1..depth-1 of a run at `depth`; returns how many. */
int stats_ply_stats(const StatsTables *tables, int depth, const TableCounters *counters,
                    PlyStats out[STATS_MAX_DEPTH]);

#endif
