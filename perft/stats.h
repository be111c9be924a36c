/* stats.h — perft statistics for the last move into each leaf: the chessprogramming
 * wiki's columns — captures (e.p. included), e.p. captures, castles, promotions, checks
 * (mates included), discovery checks (single checks given by a man other than the one
 * that moved; for castling, the rook counts as moved), double checks (all), mates — and
 * the Grand Chess Tree's finer classes, which split every check by who gives it and by
 * whether it mates: direct (the man that moved, alone), single discovered (one other
 * man), direct and discovered (the man that moved and another), double discovered (two
 * others), each as a check that is not mate and as a mate. The wiki's four check columns
 * are sums of these eight: the search counts the eight, and the four are made from them.
 * Hashed: a table per remaining depth holds each position's whole statistics vector, so
 * every distinct position is expanded once per remaining depth; entries carry a check
 * word over the key and the whole vector, so a torn entry reads as a miss. */
#ifndef PERFTKIT_STATS_H
#define PERFTKIT_STATS_H

#include "driver.h"

/* The counters: the wiki's columns in its order (STATS_CPW_FIELDS of them), then the
 * Grand Chess Tree's eight classes: checks that do not mate, then mates. */
enum {
    STAT_NODES, STAT_CAPTURES, STAT_EP, STAT_CASTLES, STAT_PROMOTIONS, STAT_CHECKS, STAT_DISCOVERY_CHECKS,
    STAT_DOUBLE_CHECKS, STAT_CHECKMATES,
    STAT_DIRECT_CHECKS, STAT_SINGLE_DISCOVERED_CHECKS, STAT_DIRECT_DISCOVERED_CHECKS,
    STAT_DOUBLE_DISCOVERED_CHECKS,
    STAT_DIRECT_MATES, STAT_SINGLE_DISCOVERED_MATES, STAT_DIRECT_DISCOVERED_MATES, STAT_DOUBLE_DISCOVERED_MATES,
    STATS_FIELDS,
    STATS_CPW_FIELDS = STAT_DIRECT_CHECKS
};
enum { STATS_MAX_DEPTH = 12 };

/* Counts of the leaves of a subtree; 64 bits suffice to STATS_MAX_DEPTH. */
typedef struct LeafStats {
    uint64_t field[STATS_FIELDS];
} LeafStats;

/* Field names for JSON ("nodes", "captures", ..., "direct_checks", ...: the Grand Chess
 * Tree's own names for its classes), indexed like LeafStats.field. */
extern const char *const stats_field_names[STATS_FIELDS];

/* Tables of statistics vectors, one per remaining depth 1..STATS_MAX_DEPTH. */
typedef struct StatsTables StatsTables;

/* bytes 0: no hashing. Returns NULL, with the reason, when the memory is refused. */
StatsTables *stats_tables_create(size_t bytes, char *error, size_t error_size);
void stats_tables_destroy(StatsTables *tables);

/* The bytes of the tables' one mapping (0: no tables), and whether it is one that
 * other processes share (stats_tables_adopt). */
size_t stats_tables_bytes(const StatsTables *tables);
bool stats_tables_shared(const StatsTables *tables);

/* Moves the tables, empty, into `memory`: a zeroed shared mapping of `bytes` >=
 * stats_tables_bytes() that other processes of the same layout use too (perft-mpi's
 * ranks on one machine), as threads share one set. The tables' own mapping is given
 * back; stats_tables_destroy unmaps `memory`. */
void stats_tables_adopt(StatsTables *tables, void *memory, size_t bytes);

/* The threads a count at `depth` runs on when given `threads` (0: every processor):
 * one below depth 5, where the whole count takes about a millisecond. */
int stats_threads(int depth, int threads);

/* The statistics of the leaves `depth` plies below `root` (1 <= depth <= STATS_MAX_DEPTH),
 * counted on `threads` threads with `tables` (may be NULL), within `limits` (NULL: none;
 * max_seconds from this call, max_nodes in leaves of this depth). From depth 2 on the
 * work is the units of stats_split_ply, as in stats_run_units. Every thread checks
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

/* The ply whose distinct positions are the units of every statistics run of `depth`
 * (>= 2), in one process or spread over MPI ranks: depth - 5, at least 1, at most 3 (the
 * start position's ply 3 has 5,362 units), so each unit holds a perft(5) or more. It
 * depends on the depth alone, so a resumed run finds the same units. */
int stats_split_ply(int depth);

/* A unit's statistics (all STATS_FIELDS filled), not weighted by its paths. */
typedef void (*StatsUnitDone)(void *context, size_t unit, const LeafStats *unit_stats);

/* The statistics of the leaves `depth` plies below the root of `units` (a unit set of
 * ply < depth), unit by unit: threads (as stats_threads says) take the units in the
 * list's order, and each unit is counted to depth - ply once and weighted by its paths.
 * A unit with known[u] (known may be NULL) is not counted: its statistics are
 * known_stats[u], as unit_done gave them before. unit_done (may be NULL) is called, one
 * call at a time, as each unit is counted. Returns as stats_run does, with `out` filled
 * only when RUN_COMPLETED; a stopped run's finished units have been reported. */
RunStatus stats_run_units(const UnitSet *units, int depth, int threads, StatsTables *tables, const RunLimits *limits,
                          const bool *known, const LeafStats *known_stats, StatsUnitDone unit_done, void *context,
                          LeafStats *out);

/* The statistics of the tables of plies 1..depth-1 of a run at `depth`; returns how many. */
int stats_ply_stats(const StatsTables *tables, int depth, const TableCounters *counters,
                    PlyStats out[STATS_MAX_DEPTH]);

#endif
