/* dist.h — one run's work units spread over MPI ranks. Every rank parses the same
 * command line, so every rank plans the same units (their order and digest depend on
 * the root and the split ply alone); only unit indices and counts cross the network,
 * and rank 0 checks at the start that every rank planned the same list. Rank 0 hands
 * out batches of units on request in the list's order, counts batches itself too,
 * sums in 128 bits, calls the caller's hooks (journal, progress) and reports; the
 * other ranks count what they are given with their own threads and tables, and report
 * nothing.
 * dist_run() has driver_run()'s contract, so a command runs unchanged under MPI;
 * dist_stats_run_units() likewise has stats_run_units()'s. */
#ifndef PERFTKIT_DIST_H
#define PERFTKIT_DIST_H

#include "../perft/driver.h"
#include "../perft/stats.h"

/* Starts MPI (threads funnelled through the main thread); call once, first. False,
 * with the reason, when MPI cannot start. */
bool dist_init(int *argc, char ***argv, char *error, size_t error_size);
/* Ends MPI; every rank calls it once, last, however its command ended. A run that
 * another rank starts after this rank's command ended is abandoned on every rank
 * (RUN_ABANDONED, nothing counted), so a command rank 0 refuses before its first run
 * (a journal of another run) ends the job instead of leaving the others waiting. */
void dist_finish(void);

/* This process's rank, and the number of ranks. */
int dist_rank(void);
int dist_size(void);

/* Counts perft(depth) of `root` over every rank; collective: every rank calls it with
 * the same root, depth and hooks->units (NULL: the driver's plan; with a journal,
 * hooks->finished lists the units done before, on rank 0 — the other ranks ignore it).
 * On rank 0 the report is the run's, as driver_run would give; on the others it holds
 * only how rank 0's run ended (status, complete), so every rank takes the same next
 * step. */
void dist_run(Driver *driver, const Position *root, int depth, const RunLimits *limits, const RunHooks *hooks,
              RunReport *report);

/* The statistics of `units` over every rank, with stats_run_units()'s contract;
 * collective: every rank calls it with the same units (planned alike on every rank:
 * rank 0 checks their digest), depth, threads and limits. `known`, `known_stats`,
 * `unit_done` and `context` are rank 0's (a journal's); the other ranks' are ignored.
 * Rank 0 hands the units out one at a time, in their order, to whichever rank asks
 * (rank 0 counts too), so a faster rank takes more; each rank counts its units with its
 * own threads (the ranks of one machine share one set of tables, as for dist_run, from
 * the first call on) and sends each unit's statistics to rank 0, which weights them by
 * the units' paths, calls unit_done and sums (the other ranks' `out` is zero). Rank 0
 * applies the limits (max_nodes to the leaves this call counts) and Ctrl-C: every rank
 * stops after the unit it is counting, rank 0 at once. A unit a rank could not count
 * (out of memory) makes the run RUN_NO_MEMORY on every rank. */
RunStatus dist_stats_run_units(const UnitSet *units, int depth, int threads, StatsTables *tables,
                               const RunLimits *limits, const bool *known, const LeafStats *known_stats,
                               StatsUnitDone unit_done, void *context, LeafStats *out);

#endif
