/* driver.c — splitting, scheduling and bookkeeping of a run. The OpenMP pragmas all
 * live here. Bookkeeping of finished units takes a mutex: units are coarse (a subtree
 * of several plies each), so it is never contended in practice. A monitor thread, not
 * an OpenMP one, watches the clock and the interrupt flag and draws the progress line. */
#include "driver.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "config.h"

/* Split until there are this many units per thread (units are taken dynamically). */
enum { UNITS_PER_THREAD = 32, MAX_SPLIT_PLY = 3 };

const char *run_status_text(RunStatus status) {
    switch (status) {
    case RUN_COMPLETED: return "completed";
    case RUN_INTERRUPTED: return "interrupted";
    case RUN_TIME_LIMIT: return "resource exhaustion: time";
    case RUN_NODE_LIMIT: return "resource exhaustion: nodes";
    case RUN_NO_MOVES: return "no moves available";
    }
    return "unknown";
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

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
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

/* What the workers, the monitor and the bookkeeping share during one run. */
typedef struct Run {
    pthread_mutex_t lock;   /* guards everything below `stop` */
    pthread_cond_t ended;   /* signalled, under lock, when the counting is over */
    atomic_bool stop;
    bool finished;
    RunStatus stop_reason;
    const RunLimits *limits;
    const RunHooks *hooks;
    const Position *root;
    RunReport *report;
    int pending[MAX_MOVES]; /* units not yet counted, per root move */
    bool lost[MAX_MOVES];   /* a unit of this root move was abandoned */
    Count done_nodes;
    int units_done, units_total;
    double start;
} Run;

static void request_stop(Run *run, RunStatus reason) {
    if (!atomic_exchange(&run->stop, true))
        run->stop_reason = reason;
}

static void finish_root(Run *run, int root) {
    run->report->roots[root].complete = true;
    if (run->hooks && run->hooks->root_done)
        run->hooks->root_done(run->hooks->context, run->root, &run->report->roots[root]);
}

/* Books one unit; called by workers under the lock. */
static void book_unit(Run *run, int root, Count nodes, bool abandoned) {
    if (abandoned) {
        run->lost[root] = true;
        return;
    }
    run->report->roots[root].count += nodes;
    run->done_nodes += nodes;
    run->units_done++;
    if (--run->pending[root] == 0 && !run->lost[root])
        finish_root(run, root);
    if (run->limits && run->limits->max_nodes && run->done_nodes >= run->limits->max_nodes
        && run->units_done < run->units_total)
        request_stop(run, RUN_NODE_LIMIT);
}

static void draw_progress(Run *run, double t) {
    char nodes[COUNT_TEXT_SIZE];
    int roots_done = 0;
    for (int i = 0; i < run->report->root_moves; i++)
        roots_done += run->report->roots[i].complete;
    double elapsed = t - run->start, rate = elapsed > 0 ? count_to_double(run->done_nodes) / elapsed : 0;
    fprintf(stderr, "\r\033[Kperft %d: %d/%d root moves, %s leaves, %.0f Mleaves/s", run->report->depth, roots_done,
            run->report->root_moves, count_format(run->done_nodes, true, nodes), rate / 1e6);
    if (run->units_done > 0 && run->units_done < run->units_total)
        fprintf(stderr, ", ETA %.0f s", elapsed * (run->units_total - run->units_done) / run->units_done);
    fflush(stderr);
}

/* Wakes every 20 ms until the counting ends: stops the run on Ctrl-C or at the time
 * limit, and redraws the progress line every quarter second. */
static void *monitor(void *arg) {
    Run *run = arg;
    double last_drawn = run->start;
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
        double t = now();
        const RunLimits *limits = run->limits;
        if (limits && limits->interrupt && *limits->interrupt)
            request_stop(run, RUN_INTERRUPTED);
        if (limits && limits->max_seconds > 0 && t - run->start >= limits->max_seconds)
            request_stop(run, RUN_TIME_LIMIT);
        if (run->hooks && run->hooks->progress && t - last_drawn >= 0.25 && t - run->start >= 0.5) {
            draw_progress(run, t);
            last_drawn = t;
        }
    }
    pthread_mutex_unlock(&run->lock);
    if (run->hooks && run->hooks->progress && last_drawn > run->start)
        fputs("\r\033[K", stderr);
    return NULL;
}

/* A monitor is needed only for what it watches. */
static bool needs_monitor(const RunLimits *limits, const RunHooks *hooks) {
    return (limits && (limits->interrupt || limits->max_seconds > 0)) || (hooks && hooks->progress);
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

void driver_for_each_unit(int threads, const UnitList *units, int remaining, const atomic_bool *stop, UnitWork work,
                          void *context) {
    int count = units->count;
    const Unit *items = units->items;
#ifdef _OPENMP
#pragma omp parallel num_threads(threads) default(none) shared(items, count, remaining, stop, work, context)
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
        for (int u = 0; u < count; u++)
            if (!stop || !atomic_load_explicit(stop, memory_order_relaxed))
                work(context, me, &items[u], remaining);
    }
}

/* One row of table counters per thread, a cache line apart, summed afterwards. */
typedef struct CountWork {
    Run *run;
    const TableSet *tables;
    unsigned char *rows;
    size_t row;
    bool full;
} CountWork;

static void count_unit(void *context, int thread, const Unit *unit, int remaining) {
    CountWork *w = context;
    PerftSearch search = {w->tables, (TableCounters *)(void *)(w->rows + w->row * (size_t)thread), &w->run->stop,
                          false, w->full};
    Position pos = unit->pos;
    Count nodes = perft_search(&search, &pos, remaining);
    pthread_mutex_lock(&w->run->lock);
    book_unit(w->run, unit->root, nodes, search.stopped);
    pthread_mutex_unlock(&w->run->lock);
}

/* Counts every unit on the driver's threads, booking each as it finishes. */
static void count_units(Driver *driver, Run *run, const UnitList *units, int remaining, int threads) {
    CountWork w = {run, driver->tables.memory && !driver->full ? &driver->tables : NULL, NULL,
                   (sizeof(TableCounters) * (PERFT_MAX_DEPTH + 1) + 63) / 64 * 64, driver->full};
    w.rows = aligned_alloc(64, w.row * (size_t)threads);
    memset(w.rows, 0, w.row * (size_t)threads);
    driver_for_each_unit(threads, units, remaining, &run->stop, count_unit, &w);
    for (int t = 0; t < threads; t++) {
        const TableCounters *mine = (const TableCounters *)(const void *)(w.rows + w.row * (size_t)t);
        for (int d = 0; d <= PERFT_MAX_DEPTH; d++) {
            run->report->counters[d].probes += mine[d].probes;
            run->report->counters[d].hits += mine[d].hits;
            run->report->counters[d].stores += mine[d].stores;
            run->report->counters[d].replacements += mine[d].replacements;
        }
    }
    free(w.rows);
}

void driver_run(Driver *driver, const Position *root, int depth, const RunLimits *limits, const RunHooks *hooks,
                RunReport *report) {
    memset(report, 0, sizeof *report);
    report->depth = depth;
    report->threads = driver->threads;
    double start = now();
    MoveList list;
    gen_legal(root, &list);
    report->root_moves = list.count;
    for (int m = 0; m < list.count; m++)
        report->roots[m].move = list.moves[m];
    if (depth == 0 || list.count == 0) {
        report->total = depth == 0 ? 1 : 0;
        report->status = depth == 0 ? RUN_COMPLETED : RUN_NO_MOVES;
        report->complete = true;
        report->seconds = now() - start;
        return;
    }

    Run run = {.limits = limits, .hooks = hooks, .root = root, .report = report, .start = start};
    pthread_mutex_init(&run.lock, NULL);
    pthread_condattr_t monotonic;
    pthread_condattr_init(&monotonic);
    pthread_condattr_setclock(&monotonic, CLOCK_MONOTONIC);
    pthread_cond_init(&run.ended, &monotonic);
    pthread_condattr_destroy(&monotonic);
    atomic_init(&run.stop, false);
    int ply, threads = depth >= driver->parallel_depth ? driver->threads : 1;
    UnitList units = driver_split(root, &list, depth, threads, &ply);
    if (!units.items) /* out of memory while splitting deeper: units at the root moves */
        units = driver_split(root, &list, depth, 1, &ply);
    run.units_total = units.count;
    for (int u = 0; u < units.count; u++)
        run.pending[units.items[u].root]++;
    for (int m = 0; m < list.count; m++)
        if (run.pending[m] == 0) /* mated or stalemated above the split ply */
            finish_root(&run, m);

    pthread_t watcher;
    bool watching = needs_monitor(limits, hooks) && pthread_create(&watcher, NULL, monitor, &run) == 0;
    count_units(driver, &run, &units, depth - ply, threads);
    pthread_mutex_lock(&run.lock);
    run.finished = true;
    pthread_cond_signal(&run.ended);
    pthread_mutex_unlock(&run.lock);
    if (watching)
        pthread_join(watcher, NULL);

    report->complete = true;
    for (int m = 0; m < list.count; m++) {
        report->complete &= report->roots[m].complete;
        if (report->roots[m].complete)
            report->total += report->roots[m].count;
        else
            report->roots[m].count = 0;
    }
    report->status = report->complete ? RUN_COMPLETED : run.stop_reason;
    report->seconds = now() - start;
    pthread_cond_destroy(&run.ended);
    pthread_mutex_destroy(&run.lock);
    free(units.items);
}
