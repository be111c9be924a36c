/* driver.h — one perft run: a position, a depth, any number of threads, the shared
 * tables, and limits. The work below the root is split into units (positions one to
 * three plies down, grouped by root move) that OpenMP threads take dynamically; each
 * root move's count is the sum of its units, so the counts are identical for every
 * thread count and table size. A run stopped by a limit or Ctrl-C keeps the exact
 * counts of the root moves it finished and marks the total partial. */
#ifndef PERFTKIT_DRIVER_H
#define PERFTKIT_DRIVER_H

#include <signal.h>

#include "perft.h"

typedef enum RunStatus {
    RUN_COMPLETED,
    RUN_INTERRUPTED,
    RUN_TIME_LIMIT,
    RUN_NODE_LIMIT,
    RUN_NO_MOVES,
} RunStatus;

/* "completed", "interrupted", "resource exhaustion: time", "resource exhaustion:
 * nodes", "no moves available". */
const char *run_status_text(RunStatus status);

typedef struct RootCount {
    Move move;
    Count count;   /* exact when complete, 0 otherwise */
    bool complete;
} RootCount;

typedef struct RunReport {
    int depth;
    RunStatus status;
    bool complete;                  /* every root move counted: total is perft(depth) */
    int root_moves;
    RootCount roots[MAX_MOVES];     /* in generation order */
    Count total;                    /* the sum of the complete root moves */
    double seconds;
    int threads;
    TableCounters counters[PERFT_MAX_DEPTH + 1]; /* by remaining depth, summed over threads */
} RunReport;

typedef struct RunLimits {
    double max_seconds;                     /* 0: none */
    Count max_nodes;                        /* 0: none; checked as units finish */
    const volatile sig_atomic_t *interrupt; /* NULL, or set (by a signal handler) to stop */
} RunLimits;

/* Called, one call at a time, as each root move completes. */
typedef void (*RootDoneHook)(void *context, const Position *root, const RootCount *done);

typedef struct RunHooks {
    RootDoneHook root_done;
    void *context;
    bool progress; /* a progress line on stderr, a few times a second */
} RunHooks;

/* Threads and tables, kept from run to run (the tables stay valid across runs). */
typedef struct Driver {
    TableSet tables;
    int threads;
    int parallel_depth; /* runs of a smaller depth use one thread (default 5: below, the
                           whole run takes about a millisecond) */
    bool full;          /* make and unmake every leaf move (perft bench's full mode) */
} Driver;

/* hash_bytes 0: no tables. threads 0: every processor. */
bool driver_create(Driver *driver, int threads, size_t hash_bytes, char *error, size_t error_size);
void driver_destroy(Driver *driver);

/* Counts perft(depth) of `root`. `limits` and `hooks` may be NULL. */
void driver_run(Driver *driver, const Position *root, int depth, const RunLimits *limits, const RunHooks *hooks,
                RunReport *report);

/* A position below the root, and the root move (index in generation order) it
 * descends from. */
typedef struct Unit {
    Position pos;
    int root;
} Unit;

typedef struct UnitList {
    Unit *items; /* malloc'd; free() it */
    int count;
} UnitList;

/* The units of a run and the ply they sit at (*ply): deep enough for 32 units per
 * thread (at most 3 plies down), shallow enough that every unit keeps two plies or more
 * below it. Root moves without units were mated or stalemated above the split ply. */
UnitList driver_split(const Position *root, const MoveList *root_moves, int depth, int threads, int *ply);

/* Work on one unit, `remaining` plies above the leaves, on thread number `thread`. */
typedef void (*UnitWork)(void *context, int thread, const Unit *unit, int remaining);

/* Calls `work` for every unit on `threads` threads, units taken one at a time; skips the
 * units left once `stop` (when not NULL) is set. The only parallel loop of perftkit. */
void driver_for_each_unit(int threads, const UnitList *units, int remaining, const atomic_bool *stop, UnitWork work,
                          void *context);

/* Processors OpenMP would use; 1 without OpenMP. */
int driver_available_threads(void);

#endif
