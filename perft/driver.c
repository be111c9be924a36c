/* driver.c — planning, scheduling and bookkeeping of a run. The OpenMP pragmas all
 * live here. Bookkeeping of finished units takes a mutex: a unit is a subtree of two
 * plies or more, so it is rarely contended. Between units, each thread publishes the
 * leaves of its current unit in its own cache line; a monitor thread, not an OpenMP
 * one, sums them with the finished units to enforce the node limit, watches the clock
 * and the interrupt flag, and calls the progress hook. */
#include "driver.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "clock.h"
#include "config.h"

/* The split of driver_split: until there are this many per thread (taken dynamically). */
enum { UNITS_PER_THREAD = 32, MAX_SPLIT_PLY = 3 };

/* The default split ply: units count perft(DEFAULT_UNIT_DEPTH) or more, from at most
 * ply DEFAULT_MAX_PLY; see driver_split_ply. */
enum { DEFAULT_UNIT_DEPTH = 5, DEFAULT_MAX_PLY = 4 };

const char *run_status_text(RunStatus status) {
    switch (status) {
    case RUN_COMPLETED: return "completed";
    case RUN_INTERRUPTED: return "interrupted";
    case RUN_TIME_LIMIT: return "resource exhaustion: time";
    case RUN_NODE_LIMIT: return "resource exhaustion: nodes";
    case RUN_NO_MOVES: return "no moves available";
    case RUN_BAD_UNITS: return "units do not fit the run";
    case RUN_NO_MEMORY: return "out of memory";
    case RUN_ABANDONED: return "abandoned: a process of the job did not start the run";
    }
    return "unknown";
}

bool run_counted_nothing(RunStatus status) {
    return status == RUN_BAD_UNITS || status == RUN_NO_MEMORY || status == RUN_ABANDONED;
}

bool run_interrupted(const RunLimits *limits) {
    return limits && limits->interrupt && __atomic_load_n(limits->interrupt, __ATOMIC_RELAXED);
}

int driver_available_threads(void) {
#ifdef _OPENMP
    return omp_get_num_procs();
#else
    return 1;
#endif
}

bool driver_create(Driver *driver, int threads, size_t hash_bytes, char *error, size_t error_size) {
    memset(driver, 0, sizeof *driver);
    driver->threads = threads > 0 ? threads : driver_available_threads();
    driver->parallel_depth = 5;
#ifndef _OPENMP
    driver->threads = 1;
#endif
    return hash_bytes == 0 || table_set_create(&driver->tables, hash_bytes, error, error_size);
}

void driver_destroy(Driver *driver) { table_set_destroy(&driver->tables); }

/* Distinct positions at plies 0..11 of the start position (OEIS A083276): the growth
 * with depth that driver_fit_tables expects of a root, scaled by the root's own. */
static const double start_distinct[] = {1, 20, 400, 5362, 72078, 822518, 9417681, 96400068, 988187354,
                                        9183421888.0, 85375278064.0, 726155461002.0};
enum { START_DISTINCT_PLIES = sizeof start_distinct / sizeof start_distinct[0] };

/* The distinct positions `ply` plies below `root`, or 0 when they cannot be enumerated
 * within the plan's bound (DRIVER_PLAN_MAX_PAIRS: about 100 MB and a second). */
static double distinct_at(const Position *root, int ply) {
    char error[160];
    UnitSet *set = unit_set_create(root, ply, DRIVER_PLAN_MAX_PAIRS, error, sizeof error);
    double n = set && unit_set_ply(set) == ply ? (double)unit_set_count(set) : 0;
    unit_set_destroy(set);
    return n;
}

/* The start position's distinct positions at `ply`, extended past the known plies by the
 * last known growth (x8.5 a ply). */
static double start_distinct_at(int ply) {
    if (ply < START_DISTINCT_PLIES)
        return start_distinct[ply];
    return start_distinct_at(ply - 1) * (start_distinct[START_DISTINCT_PLIES - 1] /
                                         start_distinct[START_DISTINCT_PLIES - 2]);
}

void driver_fit_tables(Driver *driver, const Position *root, int depth) {
    enum { PROBE_PLY = 3, SLACK = 3 }; /* three times the expected positions' entries: few replacements */
    if (!driver->tables.span || depth <= PROBE_PLY)
        return;
    double at2 = distinct_at(root, PROBE_PLY - 1), at3 = distinct_at(root, PROBE_PLY);
    if (at2 <= 0 || at3 <= 0)
        return;
    /* The root's growth against the start position's at ply 3, never taken as slower:
     * an estimate too large gives the layout of table_set_create, one too small would
     * starve the shallower tables. */
    double growth = (at3 / at2) / (start_distinct[PROBE_PLY] / start_distinct[PROBE_PLY - 1]);
    growth = growth < 1 ? 1 : growth;
    uint64_t want[TABLE_MAX_DEPTH + 1] = {0};
    for (int remaining = 2; remaining < depth && remaining <= TABLE_MAX_DEPTH; remaining++) {
        int ply = depth - remaining;
        double positions = ply < PROBE_PLY ? at2 : at3 * start_distinct_at(ply) / start_distinct[PROBE_PLY];
        for (int p = PROBE_PLY; p < ply; p++)
            positions *= growth;
        double buckets = positions * SLACK / table_entries_per_bucket(remaining) + 1;
        want[remaining] = buckets < 1e18 ? (uint64_t)buckets : (uint64_t)1e18;
    }
    table_set_fit(&driver->tables, want);
}

/* The threads a run of `depth` counts on. */
static int run_threads(const Driver *driver, int depth) {
    return depth >= driver->parallel_depth ? driver->threads : 1;
}

int driver_split_ply(const Driver *driver, int depth) {
    int ply = driver->split_ply;
    if (ply <= 0) {
        ply = depth - DEFAULT_UNIT_DEPTH;
        int least = run_threads(driver, depth) > 1 ? 2 : 1;
        ply = ply < least ? least : ply > DEFAULT_MAX_PLY ? DEFAULT_MAX_PLY : ply;
        if (depth >= 3 && ply > depth - 2)
            ply = depth - 2;
    }
    ply = ply > depth ? depth : ply;
    ply = ply > UNIT_MAX_PLY ? UNIT_MAX_PLY : ply;
    return ply < 1 ? 1 : ply;
}

UnitSet *driver_plan(const Driver *driver, const Position *root, int depth, char *error, size_t error_size) {
    return unit_set_create(root, driver_split_ply(driver, depth), driver->split_ply > 0 ? 0 : DRIVER_PLAN_MAX_PAIRS,
                           error, error_size);
}

/* The children of every unit, inheriting its root move. A unit without moves (mate or
 * stalemate above the split ply) leaves none: it contributes no leaves. NULL items when
 * memory runs out. */
static UnitList expand(const UnitList *parents) {
    size_t capacity = (size_t)parents->count * 48 + 64;
    UnitList children = {malloc(capacity * sizeof(Unit)), 0};
    for (int i = 0; i < parents->count && children.items; i++) {
        Position pos = parents->items[i].pos;
        MoveList list;
        Undo undo;
        gen_legal(&pos, &list);
        for (int m = 0; m < list.count; m++) {
            if ((size_t)children.count == capacity) {
                capacity *= 2;
                Unit *grown = realloc(children.items, capacity * sizeof(Unit));
                if (!grown) {
                    free(children.items);
                    children.items = NULL;
                    break;
                }
                children.items = grown;
            }
            Unit *child = &children.items[children.count++];
            child->pos = pos;
            child->root = parents->items[i].root;
            pos_make_move(&child->pos, list.moves[m], &undo);
        }
    }
    return children;
}

/* What one thread publishes while it counts a unit, and its table counters (summed
 * after the run), in cache lines of its own. */
typedef struct Slot {
    _Alignas(64) _Atomic uint64_t leaves; /* counted so far in the current unit */
    _Atomic uint64_t paths;               /* the current unit's multiplicity */
    TableCounters counters[PERFT_MAX_DEPTH + 1];
} Slot;

/* What the workers, the monitor and the bookkeeping share during one run. */
typedef struct Run {
    pthread_mutex_t lock;   /* guards everything below `stop`; the hooks are called under it */
    pthread_cond_t ended;   /* signalled, under lock, when the counting is over */
    atomic_bool stop;
    bool finished;
    RunStatus stop_reason;
    const RunLimits *limits;
    const RunHooks *hooks;
    const Position *root;
    RunReport *report;
    const UnitSet *units;
    size_t *todo;           /* the units to count, in list order */
    size_t todo_count;
    Slot *slots;            /* one per thread */
    int threads;
    int pending[MAX_MOVES]; /* units not yet counted, per root move */
    Count done_nodes;       /* leaves below the finished units, weighted */
    Count resumed_nodes;    /* of done_nodes, those below the resumed units */
    uint64_t done_estimate, todo_estimate; /* expected sizes counted in this run, and to count */
    double start;
} Run;

static void request_stop(Run *run, RunStatus reason) {
    if (!atomic_exchange(&run->stop, true))
        run->stop_reason = reason;
}

/* Leaves counted so far: finished units and the published parts of the others. Under
 * the lock, so that a unit being booked is not seen twice. */
static Count leaves_so_far(const Run *run) {
    Count leaves = run->done_nodes;
    for (int t = 0; t < run->threads; t++)
        leaves += (Count)atomic_load_explicit(&run->slots[t].leaves, memory_order_relaxed)
                * atomic_load_explicit(&run->slots[t].paths, memory_order_relaxed);
    return leaves;
}

/* --max-nodes, like --max-time, bounds what this run counts: a resumed run's units from
 * its journal do not count against it. */
static void check_node_limit(Run *run) {
    if (run->limits && run->limits->max_nodes && run->report->units_done < run->report->units
        && leaves_so_far(run) - run->resumed_nodes >= run->limits->max_nodes)
        request_stop(run, RUN_NODE_LIMIT);
}

/* Books the count of one unit under the lock: into its root moves, the total and the
 * progress; completes the root moves it was the last unit of. */
static void book_unit(Run *run, size_t unit, Count count) {
    const UnitRoot *roots;
    int n = unit_roots(run->units, unit, &roots);
    for (int i = 0; i < n; i++) {
        RootCount *r = &run->report->roots[roots[i].root];
        r->count += count * roots[i].paths;
        if (--run->pending[roots[i].root] == 0) {
            r->complete = true;
            if (run->hooks && run->hooks->root_done)
                run->hooks->root_done(run->hooks->context, run->root, r);
        }
    }
    run->done_nodes += count * unit_paths(run->units, unit);
    run->report->units_done++;
}

static void report_progress(Run *run, double t, bool last) {
    RunProgress p = {run->report->depth, run->report->units_done, run->report->units, leaves_so_far(run),
                     run->resumed_nodes, t - run->start, -1, last};
    if (run->done_estimate > 0 && run->todo_estimate > 0) {
        double share = (double)run->done_estimate / (double)run->todo_estimate;
        p.eta = share < 1 ? p.elapsed * (1 - share) / share : 0;
    }
    run->hooks->progress(run->hooks->context, &p);
}

/* Wakes every 20 ms until the counting ends: stops the run on Ctrl-C, at the time
 * limit or past the node limit, and reports progress every quarter second. */
static void *monitor(void *arg) {
    Run *run = arg;
    double last_reported = run->start;
    bool reported = false, reporting = run->hooks && run->hooks->progress;
    pthread_mutex_lock(&run->lock);
    while (!run->finished) {
        struct timespec wake;
        clock_gettime(CLOCK_MONOTONIC, &wake);
        wake.tv_nsec += 20 * 1000 * 1000;
        if (wake.tv_nsec >= 1000000000) {
            wake.tv_sec++;
            wake.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&run->ended, &run->lock, &wake);
        if (run->finished)
            break;
        double t = clock_seconds();
        const RunLimits *limits = run->limits;
        if (run_interrupted(limits))
            request_stop(run, RUN_INTERRUPTED);
        if (limits && limits->max_seconds > 0 && t - run->start >= limits->max_seconds)
            request_stop(run, RUN_TIME_LIMIT);
        check_node_limit(run);
        if (reporting && t - last_reported >= 0.25 && t - run->start >= 0.5) {
            report_progress(run, t, false);
            last_reported = t;
            reported = true;
        }
    }
    if (reported)
        report_progress(run, clock_seconds(), true);
    pthread_mutex_unlock(&run->lock);
    return NULL;
}

/* A monitor is needed only for what it watches. */
static bool needs_monitor(const RunLimits *limits, const RunHooks *hooks) {
    return (limits && (limits->interrupt || limits->max_seconds > 0 || limits->max_nodes))
        || (hooks && hooks->progress);
}

UnitList driver_split(const Position *root, const MoveList *root_moves, int depth, int threads, int *ply) {
    Undo undo;
    UnitList units = {malloc(((size_t)root_moves->count + 1) * sizeof(Unit)), 0};
    for (int m = 0; m < root_moves->count && units.items; m++) {
        units.items[units.count].pos = *root;
        units.items[units.count].root = m;
        pos_make_move(&units.items[units.count++].pos, root_moves->moves[m], &undo);
    }
    *ply = 1;
    while (*ply < MAX_SPLIT_PLY && *ply < depth - 2 && threads > 1 && units.items
           && units.count < UNITS_PER_THREAD * threads) {
        UnitList deeper = expand(&units);
        free(units.items);
        units = deeper;
        ++*ply;
    }
    return units;
}

void driver_parallel_for(int threads, size_t count, const atomic_bool *stop, ItemWork work, void *context) {
#ifdef _OPENMP
#pragma omp parallel num_threads(threads) default(none) shared(count, stop, work, context)
#endif
    {
#ifdef _OPENMP
        int me = omp_get_thread_num();
#else
        int me = 0;
#endif
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
        for (size_t i = 0; i < count; i++)
            if (!stop || !atomic_load_explicit(stop, memory_order_relaxed))
                work(context, me, i);
    }
}

/* driver_for_each_unit's loop, item by item. */
typedef struct EachUnit {
    const UnitList *units;
    int remaining;
    UnitWork work;
    void *context;
} EachUnit;

static void each_unit(void *context, int thread, size_t item) {
    EachUnit *e = context;
    e->work(e->context, thread, &e->units->items[item], e->remaining);
}

void driver_for_each_unit(int threads, const UnitList *units, int remaining, const atomic_bool *stop, UnitWork work,
                          void *context) {
    EachUnit e = {units, remaining, work, context};
    driver_parallel_for(threads, (size_t)units->count, stop, each_unit, &e);
}

typedef struct CountWork {
    Run *run;
    const TableSet *tables;
    int remaining;
    bool full;
} CountWork;

static void count_unit(void *context, int thread, size_t item) {
    CountWork *w = context;
    Run *run = w->run;
    size_t unit = run->todo[item];
    Slot *slot = &run->slots[thread];
    atomic_store_explicit(&slot->paths, unit_paths(run->units, unit), memory_order_relaxed);
    PerftSearch search = {w->tables, slot->counters, &run->stop, false, w->full, &slot->leaves};
    Position pos;
    unit_position(run->units, unit, &pos);
    Count nodes = perft_search(&search, &pos, w->remaining);
    pthread_mutex_lock(&run->lock);
    atomic_store_explicit(&slot->leaves, 0, memory_order_relaxed);
    if (!search.stopped) {
        book_unit(run, unit, nodes);
        run->done_estimate += unit_estimate(run->units, unit);
        if (run->hooks && run->hooks->unit_done)
            run->hooks->unit_done(run->hooks->context, &(UnitResult){unit, nodes});
        check_node_limit(run);
    }
    pthread_mutex_unlock(&run->lock);
}

/* Counts the units to do on run->threads threads, booking each as it finishes, and
 * sums the threads' table counters into the report. */
static void count_units(Driver *driver, Run *run, int remaining) {
    CountWork w = {run, driver->tables.memory && !driver->full ? &driver->tables : NULL, remaining, driver->full};
    driver_parallel_for(run->threads, run->todo_count, &run->stop, count_unit, &w);
    for (int t = 0; t < run->threads; t++)
        table_counters_add(run->report->counters, run->slots[t].counters, PERFT_MAX_DEPTH + 1);
}

/* Books the resumed units and lists the others; false when the units or the finished
 * ones do not fit the run (RUN_BAD_UNITS) or memory runs out (RUN_NO_MEMORY, in *why). */
static bool prepare(Run *run, const RunHooks *hooks, int depth, RunStatus *why) {
    *why = RUN_BAD_UNITS;
    const UnitSet *units = run->units;
    size_t n = unit_set_count(units);
    if (unit_set_ply(units) > depth || !zob_equal(unit_set_root(units)->key, run->root->key)
        || (hooks && hooks->finished_count && !hooks->finished) || (hooks && hooks->only && !hooks->units))
        return false;
    bool *skip = calloc(n + 1, sizeof *skip);
    run->todo = malloc((n + 1) * sizeof *run->todo);
    if (!skip || !run->todo) {
        free(skip);
        *why = RUN_NO_MEMORY;
        return false;
    }
    for (size_t u = 0; u < n; u++) {
        const UnitRoot *roots;
        int k = unit_roots(units, u, &roots);
        for (int i = 0; i < k; i++)
            run->pending[roots[i].root]++;
    }
    bool ok = true;
    for (size_t i = 0; ok && hooks && i < hooks->finished_count; i++) {
        size_t u = hooks->finished[i].unit;
        ok = u < n && !skip[u];
        if (ok) {
            skip[u] = true;
            book_unit(run, u, hooks->finished[i].count);
            run->report->units_resumed++;
        }
    }
    run->resumed_nodes = run->done_nodes;
    if (ok && hooks && hooks->only) { /* a batch: these units, once each, in this order */
        for (size_t i = 0; ok && i < hooks->only_count; i++) {
            size_t u = hooks->only[i];
            ok = u < n && !skip[u];
            if (ok) {
                skip[u] = true;
                run->todo[run->todo_count++] = u;
                run->todo_estimate += unit_estimate(units, u);
            }
        }
        free(skip);
        return ok;
    }
    for (size_t u = 0; ok && u < n; u++)
        if (!skip[u]) {
            run->todo[run->todo_count++] = u;
            run->todo_estimate += unit_estimate(units, u);
        }
    free(skip);
    return ok;
}

/* The end of a run that counted nothing: depth 0, no moves or units that do not fit. */
static void end_early(RunReport *report, RunStatus status, double start) {
    for (int m = 0; m < report->root_moves; m++)
        report->roots[m] = (RootCount){report->roots[m].move, 0, status == RUN_COMPLETED || status == RUN_NO_MOVES};
    report->status = status;
    report->complete = status == RUN_COMPLETED || status == RUN_NO_MOVES;
    report->seconds = clock_seconds() - start;
}

void driver_run(Driver *driver, const Position *root, int depth, const RunLimits *limits, const RunHooks *hooks,
                RunReport *report) {
    memset(report, 0, sizeof *report);
    report->depth = depth;
    report->threads = 1;
    double start = clock_seconds();
    MoveList list;
    gen_legal(root, &list);
    report->root_moves = list.count;
    for (int m = 0; m < list.count; m++)
        report->roots[m].move = list.moves[m];
    if (depth == 0 || list.count == 0) {
        report->total = depth == 0;
        end_early(report, depth == 0 ? RUN_COMPLETED : RUN_NO_MOVES, start);
        return;
    }

    UnitSet *planned = NULL;
    const UnitSet *units = hooks ? hooks->units : NULL;
    if (!units) {
        char error[160];
        planned = driver_plan(driver, root, depth, error, sizeof error);
        if (!planned) /* out of memory at the ply asked for: root moves need almost none */
            planned = unit_set_create(root, 1, 0, error, sizeof error);
        units = planned;
    }
    if (!units) { /* not even the root moves' units could be allocated */
        end_early(report, RUN_NO_MEMORY, start);
        return;
    }
    Run run = {.limits = limits, .hooks = hooks, .root = root, .report = report, .units = units, .start = start};
    report->split_ply = unit_set_ply(units);
    report->units = unit_set_count(units);
    RunStatus refused;
    if (!prepare(&run, hooks, depth, &refused)) {
        free(run.todo);
        unit_set_destroy(planned);
        end_early(report, refused, start);
        return;
    }
    for (int m = 0; m < list.count; m++)
        if (run.pending[m] == 0) /* mated or stalemated above the split ply, or resumed */
            report->roots[m].complete = true;

    int threads = run_threads(driver, depth);
    run.threads = run.todo_count < (size_t)threads ? (int)run.todo_count : threads;
    run.threads = run.threads < 1 ? 1 : run.threads;
    Slot one_slot;
    run.slots = run.threads > 1 ? aligned_alloc(64, sizeof(Slot) * (size_t)run.threads) : NULL;
    if (!run.slots) { /* one thread, or no memory for more slots */
        run.slots = &one_slot;
        run.threads = 1;
    }
    report->threads = run.threads;
    for (int t = 0; t < run.threads; t++) {
        atomic_init(&run.slots[t].leaves, 0);
        atomic_init(&run.slots[t].paths, 0);
        memset(run.slots[t].counters, 0, sizeof run.slots[t].counters);
    }
    pthread_mutex_init(&run.lock, NULL);
    pthread_condattr_t monotonic;
    pthread_condattr_init(&monotonic);
    pthread_condattr_setclock(&monotonic, CLOCK_MONOTONIC);
    pthread_cond_init(&run.ended, &monotonic);
    pthread_condattr_destroy(&monotonic);
    atomic_init(&run.stop, false);

    pthread_t watcher;
    bool watching = needs_monitor(limits, hooks) && pthread_create(&watcher, NULL, monitor, &run) == 0;
    count_units(driver, &run, depth - unit_set_ply(units));
    pthread_mutex_lock(&run.lock);
    run.finished = true;
    pthread_cond_signal(&run.ended);
    pthread_mutex_unlock(&run.lock);
    if (watching)
        pthread_join(watcher, NULL);

    report->complete = report->units_done == report->units;
    for (int m = 0; m < list.count; m++)
        if (!report->roots[m].complete)
            report->roots[m].count = 0;
    report->total = run.done_nodes;
    report->resumed_leaves = run.resumed_nodes;
    report->status = report->complete ? RUN_COMPLETED : run.stop_reason;
    report->seconds = clock_seconds() - start;
    pthread_cond_destroy(&run.ended);
    pthread_mutex_destroy(&run.lock);
    if (run.slots != &one_slot)
        free(run.slots);
    free(run.todo);
    unit_set_destroy(planned);
}
