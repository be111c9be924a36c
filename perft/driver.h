/* driver.h — one perft run: a position, a depth, any number of threads, the shared
 * tables, and limits. The work is a set of units (units.h): the distinct positions a
 * few plies below the root, each counted once and weighted by the number of paths that
 * reach it. OpenMP threads take the units dynamically in the list's order; a root
 * move's count is the sum of its units' shares, so the counts are identical for every
 * thread count, split ply and table size. Limits take effect within milliseconds at any
 * depth; a stopped run keeps the exact counts of the units and root moves it finished. */
#ifndef PERFTKIT_DRIVER_H
#define PERFTKIT_DRIVER_H

#include <signal.h>

#include "perft.h"
#include "units.h"

typedef enum RunStatus {
    RUN_COMPLETED,
    RUN_INTERRUPTED,
    RUN_TIME_LIMIT,
    RUN_NODE_LIMIT,
    RUN_NO_MOVES,
    RUN_BAD_UNITS,
    RUN_NO_MEMORY,
    RUN_ABANDONED, /* a distributed run (dist.h) that some process of the job did not
                      start, having ended its command before it: nothing was counted */
} RunStatus;

/* "completed", "interrupted", "resource exhaustion: time", "resource exhaustion:
 * nodes", "no moves available", "units do not fit the run", "out of memory" (the run's
 * bookkeeping could not be allocated: nothing was counted), "abandoned: a process of
 * the job did not start the run". */
const char *run_status_text(RunStatus status);

/* Whether a run that ended so counted nothing at all (RUN_BAD_UNITS, RUN_NO_MEMORY,
 * RUN_ABANDONED): an error, not a partial result. */
bool run_counted_nothing(RunStatus status);

typedef struct RootCount {
    Move move;
    Count count;   /* exact when complete, 0 otherwise */
    bool complete;
} RootCount;

typedef struct RunReport {
    int depth;
    RunStatus status;
    bool complete;                  /* every unit counted: total is perft(depth) */
    int root_moves;
    RootCount roots[MAX_MOVES];     /* in generation order */
    Count total;                    /* perft(depth) when complete; else the leaves below
                                       the finished units (a lower bound) */
    double seconds;
    int threads;                    /* the threads that counted (1 below parallel_depth) */
    int split_ply;                  /* the units' ply; 0 when nothing was split (depth 0,
                                       no moves) */
    size_t units, units_done;       /* units of the run, and those counted (resumed ones
                                       included) */
    size_t units_resumed;           /* units whose counts came from RunHooks.finished */
    Count resumed_leaves;           /* the leaves below those units, in `total`: the rest is
                                       what this run counted */
    TableCounters counters[PERFT_MAX_DEPTH + 1]; /* by remaining depth, summed over threads */
} RunReport;

typedef struct RunLimits {
    double max_seconds;                     /* 0: none */
    Count max_nodes;                        /* 0: none; stop after about this many leaves */
    const volatile sig_atomic_t *interrupt; /* NULL, or set (by a signal handler) to stop;
                                               read with run_interrupted, and set with
                                               __atomic_store_n, since threads read it */
} RunLimits;

/* The interrupt flag of `limits` is set: a relaxed atomic load, so that worker threads
 * may poll a flag that a signal handler or another thread sets. */
bool run_interrupted(const RunLimits *limits);

/* What a progress hook is told, a few times a second. */
typedef struct RunProgress {
    int depth;
    size_t units_done, units; /* resumed units included */
    Count leaves;             /* below the finished units, and counted so far in the others */
    Count resumed;            /* of `leaves`, those below resumed units (not counted by this run) */
    double elapsed;           /* seconds since the counting started */
    double eta;               /* seconds to go, from the expected size of the finished
                                 units' share; < 0 until one finishes */
    bool last;                /* the run is over: clear whatever was drawn */
} RunProgress;

/* A unit's count: perft(depth - split ply) of its position, not yet weighted. */
typedef struct UnitResult {
    size_t unit; /* index in the unit set */
    Count count;
} UnitResult;

typedef void (*RootDoneHook)(void *context, const Position *root, const RootCount *done);
typedef void (*UnitDoneHook)(void *context, const UnitResult *done);
typedef void (*ProgressHook)(void *context, const RunProgress *progress);

/* How a caller takes part in a run. Every hook may be NULL; they are called one at a
 * time (under the run's lock, from worker threads or the monitor thread), so they need
 * no locking of their own, but should return quickly. */
typedef struct RunHooks {
    RootDoneHook root_done; /* as each root move completes */
    UnitDoneHook unit_done; /* as each unit is counted (not for the resumed ones) */
    ProgressHook progress;  /* four times a second, from half a second on, and once with
                               `last` at the end when it was called before */
    void *context;          /* passed to every hook */
    /* The units to count, made by the caller (e.g. with driver_plan, to write their
     * digest first); NULL: the driver plans them. They must be of this root with a ply
     * at most the depth, else the run ends with RUN_BAD_UNITS, counting nothing. */
    const UnitSet *units;
    /* Units already counted (a resumed run): skipped, their counts added. Each index at
     * most once and below the unit count, else RUN_BAD_UNITS. Needs `units`. */
    const UnitResult *finished;
    size_t finished_count;
    /* NULL: count every unit not finished. Else count exactly these (a batch of a
     * distributed run; none at all with only_count 0), leaving the others uncounted:
     * the report is then complete only when `finished` and `only` cover every unit.
     * Needs `units`; an index out of range, repeated or also finished: RUN_BAD_UNITS. */
    const size_t *only;
    size_t only_count;
} RunHooks;

/* Threads and tables, kept from run to run (the tables stay valid across runs). */
typedef struct Driver {
    TableSet tables;
    int threads;
    int parallel_depth; /* runs of a smaller depth use one thread (default 5: below, the
                           whole run takes about a millisecond) */
    int split_ply;      /* 0: the default rule of driver_split_ply */
    bool full;          /* make and unmake every leaf move (perft bench's full mode) */
} Driver;

/* hash_bytes 0: no tables. threads 0: every processor. */
bool driver_create(Driver *driver, int threads, size_t hash_bytes, char *error, size_t error_size);
void driver_destroy(Driver *driver);

/* Lays the driver's tables (empty: before its first run) out for counting perft(depth)
 * of `root`, which is what the default layout cannot know: how many distinct positions
 * each table will be offered. They are estimated from the root's distinct positions at
 * plies 2 and 3 and the start position's growth beyond (scaled by the root's own, never
 * slower), and table_set_fit gives the tables above depth 2 three times their
 * estimate's entries when all of them fit in half the memory, depth 2 the rest. So start
 * position perft 10 in 16 GiB keeps every position two plies above the leaves (988
 * million in 13 GiB) where halves left 8 GiB for them. The counts never depend on the
 * layout. */
void driver_fit_tables(Driver *driver, const Position *root, int depth);

/* The split ply of a run of `depth` (>= 1): driver->split_ply when set (at most the
 * depth), else the default rule: depth - 5, so that each unit counts perft(5) or more
 * and enumerating and booking the units costs little next to counting them; at least 2
 * when the run has several threads (hundreds of units to balance), at least 1, at most
 * 4 (72,078 units for the start position: beyond, the tables catch most transpositions
 * anyway and enumerating costs seconds), and never closer than 2 plies to the leaves
 * (at depth 3 or more). */
int driver_split_ply(const Driver *driver, int depth);

/* Distinct (position, root move) pairs the default rule lets one ply hold: the split
 * comes up shallower than driver_split_ply says where the ply would hold more (wide
 * positions: Kiwipete's ply 4 has 1.4 million units), which bounds the memory to about
 * 100 MB and the enumeration to about a second. An explicit split ply has no bound. */
enum { DRIVER_PLAN_MAX_PAIRS = 1 << 20 };

/* The units driver_run counts for `depth` (>= 1), at driver_split_ply. NULL, with the
 * reason, when memory runs out. */
UnitSet *driver_plan(const Driver *driver, const Position *root, int depth, char *error, size_t error_size);

/* Counts perft(depth) of `root`. `limits` and `hooks` may be NULL. */
void driver_run(Driver *driver, const Position *root, int depth, const RunLimits *limits, const RunHooks *hooks,
                RunReport *report);

/* Calls `work` for items 0 .. count-1 on `threads` threads, items taken one at a time
 * in order; skips the items left once `stop` (when not NULL) is set. The only parallel
 * loop of perftkit. */
typedef void (*ItemWork)(void *context, int thread, size_t item);
void driver_parallel_for(int threads, size_t count, const atomic_bool *stop, ItemWork work, void *context);

/* The simple split of perft stats and perft verify, which count per path: a position
 * below the root and the root move (index in generation order) it descends from. */
typedef struct Unit {
    Position pos;
    int root;
} Unit;

typedef struct UnitList {
    Unit *items; /* malloc'd; free() it */
    int count;
} UnitList;

/* The positions of every path to the ply they sit at (*ply): deep enough for 32 per
 * thread (at most 3 plies down), shallow enough that each keeps two plies or more below
 * it. Root moves without any were mated or stalemated above the split ply. */
UnitList driver_split(const Position *root, const MoveList *root_moves, int depth, int threads, int *ply);

/* Work on one unit, `remaining` plies above the leaves, on thread number `thread`. */
typedef void (*UnitWork)(void *context, int thread, const Unit *unit, int remaining);

/* driver_parallel_for over the items of a UnitList. */
void driver_for_each_unit(int threads, const UnitList *units, int remaining, const atomic_bool *stop, UnitWork work,
                          void *context);

/* Processors OpenMP would use; 1 without OpenMP. */
int driver_available_threads(void);

#endif
