/* dist.c — the MPI side of a run. Messages are arrays of 64-bit words: a worker's
 * request carries the results of its last batch (each the unit index and its values:
 * a count's low and high words, or a statistics vector's STATS_FIELDS words), rank 0's
 * answer the indices of its next batch (none: the run is over for that rank). A worker
 * stopped by a signal or at the time limit sends its last results with one more word,
 * why it stopped, and leaves without an answer: rank 0 stops the run.
 * Only the main thread of a rank calls MPI (MPI_THREAD_FUNNELED): on rank 0 it serves
 * requests, watches the limits and draws progress while a second thread counts
 * rank 0's own batches; a worker rank's main thread asks, counts, and asks again.
 * Batches shrink as the queue empties (a share of what is left per rank), so every
 * rank is busy to the end; units are handed out in the plan's order (units.h). */
#define _GNU_SOURCE /* memfd_create */
#include "dist.h"

#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "../perft/clock.h"

enum {
    TAG_REQUEST = 1, TAG_BATCH = 2, MAX_BATCH = 256,
    COUNT_WORDS = 2,                                    /* a count's values: low and high words */
    MESSAGE_WORDS = MAX_BATCH * (1 + COUNT_WORDS) + 1,  /* a request at most: results and a stop word */
};
/* Statistics are handed out one unit at a time (dist_stats_run_units). */
_Static_assert(1 + STATS_FIELDS + 1 <= MESSAGE_WORDS, "a statistics result fits a request");
/* Shared tables from this size on are told when /dev/shm gives them small pages. */
#define SHM_HUGE_NOTE_BYTES ((size_t)512 << 20)

bool dist_init(int *argc, char ***argv, char *error, size_t error_size) {
    int provided = 0;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        snprintf(error, error_size, "MPI did not start");
        return false;
    }
    if (provided < MPI_THREAD_FUNNELED) {
        snprintf(error, error_size, "this MPI cannot run threads beside MPI calls (level %d)", provided);
        MPI_Finalize();
        return false;
    }
    return true;
}

/* Whether some rank has left the job's runs: every run of this rank from then on is
 * abandoned. Written by the main thread only, as MPI's own session state is. */
static bool runs_over;

/* Every run starts with every rank's word that it takes part: a rank whose command
 * ended first (rank 0 refusing a journal, a rank without memory for its tables) gives
 * its word from dist_finish instead, and then no rank runs it, so no rank waits in a
 * collective for one that is gone. Collective; false: the run is abandoned. */
static bool all_ranks_start(void) {
    if (runs_over)
        return false;
    int mine = 1, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    runs_over = all == 0;
    return !runs_over;
}

void dist_finish(void) {
    if (!runs_over) { /* the word for the runs the other ranks may still start */
        int none = 0, all = 0;
        MPI_Allreduce(&none, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    }
    MPI_Finalize();
}

int dist_rank(void) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

int dist_size(void) {
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return size;
}

/* Where a rank hands a finished unit's values (unweighted by its paths): COUNT_WORDS
 * for a count, STATS_FIELDS for statistics. */
typedef void (*ResultSink)(void *context, size_t unit, const uint64_t *values);

/* What a rank does with a batch of units: counts them in order, calling `done` with
 * each unit's values as it finishes; stops early, leaving the rest unreported, at
 * `limits` (an interrupt flag, and seconds from `start`; limits_now). `work` is the
 * count's or the statistics' own state. */
typedef void (*BatchWork)(void *work, const size_t *units, size_t n, ResultSink done, void *context,
                          const RunLimits *limits, double start);

/* Why a run with `limits` (NULL: none) started at `start` stops at `now` for a signal
 * or its time limit (the node limit is rank 0's alone); RUN_COMPLETED to go on. */
static RunStatus stop_reason(const RunLimits *limits, double start, double now) {
    if (!limits)
        return RUN_COMPLETED;
    if (run_interrupted(limits))
        return RUN_INTERRUPTED;
    if (limits->max_seconds > 0 && now - start >= limits->max_seconds)
        return RUN_TIME_LIMIT;
    return RUN_COMPLETED;
}

/* The limits a run started at `start` has left for a call made now, in *left (its
 * interrupt flag, the seconds left); false when it is to stop already. */
static bool limits_now(const RunLimits *limits, double start, RunLimits *left) {
    double now = clock_seconds();
    if (stop_reason(limits, start, now) != RUN_COMPLETED)
        return false;
    *left = (RunLimits){.interrupt = limits ? limits->interrupt : NULL};
    if (limits && limits->max_seconds > 0)
        left->max_seconds = limits->max_seconds - (now - start);
    return true;
}

/* Rank 0's sum of a statistics run, and the caller's hook for each unit. */
typedef struct StatsBooking {
    LeafStats sum;              /* weighted by the units' paths */
    StatsUnitDone unit_done;
    void *context;
} StatsBooking;

/* Adds a unit's statistics `s`, weighted by its `paths`, to rank 0's sum. */
static void stats_add_weighted(StatsBooking *booking, const LeafStats *s, uint64_t paths) {
    for (int f = 0; f < STATS_FIELDS; f++)
        booking->sum.field[f] += s->field[f] * paths;
}

/* What rank 0 keeps while the run goes on. The mutex guards the queue, the results
 * and the caller's hooks, which both of rank 0's threads reach. */
typedef struct Coordinator {
    pthread_mutex_t lock;
    BatchWork batch_work;       /* rank 0's own batches, as every rank's */
    void *work;
    int value_words;            /* per result: COUNT_WORDS, or STATS_FIELDS */
    StatsBooking *stats;        /* a statistics run's; NULL for a count */
    size_t batch_max;           /* units in a batch at most (<= MAX_BATCH) */
    int depth;
    const UnitSet *units;
    const RunHooks *hooks;      /* the caller's */
    size_t count, next;         /* units, and the next index the queue may hand out */
    size_t left;                /* units from `next` on still to hand out */
    bool *done;
    UnitResult *results;        /* the finished units, in the order they finished */
    size_t finished;
    Count leaves;               /* below the finished units, weighted by their paths */
    Count resumed_leaves;       /* of `leaves`, those below the units from the journal */
    double resumed_size;        /* the expected size of those units (progress's ETA) */
    int ranks;
    volatile sig_atomic_t stop; /* set by rank 0's main thread: hand out no more; atomic
                                   stores, as the local worker's monitor reads it */
    RunStatus stop_reason;
    bool local_over;
    double start;
} Coordinator;

/* The next batch, up to c->batch_max indices, into `out`; 0 when the queue is empty or
 * the run is stopping. Under the lock. */
static size_t take_batch(Coordinator *c, size_t *out) {
    if (c->stop)
        return 0;
    size_t want = c->left / (size_t)(4 * c->ranks) + 1;
    want = want > c->batch_max ? c->batch_max : want;
    size_t n = 0;
    while (n < want && c->next < c->count) {
        if (!c->done[c->next])
            out[n++] = c->next;
        c->next++;
    }
    c->left -= n;
    return n;
}

/* Books a unit's values from any rank; under the lock. */
static void book(Coordinator *c, size_t unit, const uint64_t *values) {
    if (unit >= c->count || c->done[unit])
        return;
    c->done[unit] = true;
    uint64_t paths = unit_paths(c->units, unit);
    Count count;
    if (!c->stats) {
        count = values[0] | (Count)values[1] << 64;
    } else {
        LeafStats s;
        memcpy(s.field, values, sizeof s.field);
        stats_add_weighted(c->stats, &s, paths);
        count = s.field[STAT_NODES];
        if (c->stats->unit_done)
            c->stats->unit_done(c->stats->context, unit, &s);
    }
    c->results[c->finished++] = (UnitResult){unit, count};
    c->leaves += count * (Count)paths;
    if (c->hooks && c->hooks->unit_done)
        c->hooks->unit_done(c->hooks->context, &c->results[c->finished - 1]);
}

/* A count's batches: one driver run over the batch's units, on this rank's threads. */
typedef struct CountWork {
    Driver *driver;
    const Position *root;
    int depth;
    const UnitSet *units;
} CountWork;

/* The driver's finished units, handed on as values. */
typedef struct CountSink {
    ResultSink done;
    void *context;
} CountSink;

static void count_unit_done(void *context, const UnitResult *r) {
    const CountSink *sink = context;
    uint64_t values[COUNT_WORDS] = {(uint64_t)r->count, (uint64_t)(r->count >> 64)};
    sink->done(sink->context, r->unit, values);
}

/* Counts the units `only` on this rank (BatchWork): one driver run. */
static void count_batch(void *work, const size_t *only, size_t n, ResultSink done, void *context,
                        const RunLimits *limits, double start) {
    const CountWork *w = work;
    CountSink sink = {done, context};
    RunHooks hooks = {.unit_done = count_unit_done, .context = &sink, .units = w->units, .only = only,
                      .only_count = n};
    RunLimits left;
    RunReport report;
    if (limits_now(limits, start, &left))
        driver_run(w->driver, w->root, w->depth, &left, &hooks, &report);
}

static void local_done(void *context, size_t unit, const uint64_t *values) {
    Coordinator *c = context;
    pthread_mutex_lock(&c->lock);
    book(c, unit, values);
    pthread_mutex_unlock(&c->lock);
}

/* Rank 0's own counting: batches from the same queue as the other ranks'. */
static void *local_worker(void *arg) {
    Coordinator *c = arg;
    size_t batch[MAX_BATCH];
    for (;;) {
        pthread_mutex_lock(&c->lock);
        size_t n = take_batch(c, batch);
        pthread_mutex_unlock(&c->lock);
        if (n == 0)
            break;
        c->batch_work(c->work, batch, n, local_done, c, &(RunLimits){.interrupt = &c->stop}, c->start);
    }
    pthread_mutex_lock(&c->lock);
    c->local_over = true;
    pthread_mutex_unlock(&c->lock);
    return NULL;
}

/* Answers one request: books its results, sends the next batch; returns true when the
 * answer was an empty batch (that rank is done). */
static bool serve(Coordinator *c, MPI_Status *probe) {
    uint64_t in[MESSAGE_WORDS]; /* a batch's results, and why the worker stopped */
    int words = 0, result = 1 + c->value_words;
    MPI_Recv(in, MESSAGE_WORDS, MPI_UINT64_T, probe->MPI_SOURCE, TAG_REQUEST, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Get_count(probe, MPI_UINT64_T, &words);
    size_t batch[MAX_BATCH];
    uint64_t out[MAX_BATCH];
    pthread_mutex_lock(&c->lock);
    for (int i = 0; i + result <= words; i += result)
        book(c, (size_t)in[i], &in[i + 1]);
    if (words % result == 1) { /* the worker stopped and left: the whole run stops */
        if (!c->stop) {
            c->stop_reason = (RunStatus)in[words - 1];
            __atomic_store_n(&c->stop, 1, __ATOMIC_RELAXED);
        }
        pthread_mutex_unlock(&c->lock);
        return true;
    }
    size_t n = take_batch(c, batch);
    pthread_mutex_unlock(&c->lock);
    for (size_t i = 0; i < n; i++)
        out[i] = batch[i];
    MPI_Send(out, (int)n, MPI_UINT64_T, probe->MPI_SOURCE, TAG_BATCH, MPI_COMM_WORLD);
    return n == 0;
}

/* Why rank 0 should stop handing out units, or RUN_COMPLETED to go on. */
static RunStatus limit_reached(Coordinator *c, const RunLimits *limits, double t) {
    RunStatus why = stop_reason(limits, c->start, t);
    if (why != RUN_COMPLETED || !limits)
        return why;
    if (limits->max_nodes && c->leaves - c->resumed_leaves >= limits->max_nodes) /* this run's, as --max-time */
        return RUN_NODE_LIMIT;
    return RUN_COMPLETED;
}

/* A unit's expected share of the run's leaves: its estimated size times its paths. */
static double unit_size(const UnitSet *units, size_t unit) {
    return (double)unit_estimate(units, unit) * (double)unit_paths(units, unit);
}

static void draw(Coordinator *c, double t, bool last) {
    if (!c->hooks || !c->hooks->progress)
        return;
    /* The ETA is from this run's pace: the units from the journal are left out. */
    double elapsed = t - c->start, share = -c->resumed_size, all = -c->resumed_size;
    for (size_t u = 0; u < c->count; u++) {
        double size = unit_size(c->units, u);
        all += size;
        share += c->done[u] ? size : 0;
    }
    RunProgress p = {.depth = c->depth, .units_done = c->finished, .units = c->count, .leaves = c->leaves,
                     .resumed = c->resumed_leaves, .elapsed = elapsed,
                     .eta = share > 0 ? elapsed * (all - share) / share : -1, .last = last};
    c->hooks->progress(c->hooks->context, &p);
}

static void coordinate(Coordinator *c, const RunLimits *limits) {
    int workers_over = 0;
    double last_drawn = c->start;
    bool drawn = false;
    pthread_t local;
    pthread_create(&local, NULL, local_worker, c);
    for (;;) {
        int flag = 0;
        MPI_Status probe;
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_REQUEST, MPI_COMM_WORLD, &flag, &probe);
        if (flag) {
            workers_over += serve(c, &probe);
            continue;
        }
        double t = clock_seconds();
        pthread_mutex_lock(&c->lock);
        RunStatus reason = c->stop ? RUN_COMPLETED : limit_reached(c, limits, t);
        if (reason != RUN_COMPLETED) {
            c->stop_reason = reason;
            __atomic_store_n(&c->stop, 1, __ATOMIC_RELAXED); /* the local worker's driver polls it */
        }
        bool local_over = c->local_over;
        if (t - last_drawn >= 0.25 && t - c->start >= 0.5) {
            draw(c, t, false);
            last_drawn = t;
            drawn = true;
        }
        pthread_mutex_unlock(&c->lock);
        if (local_over && workers_over == c->ranks - 1)
            break;
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    pthread_join(local, NULL);
    if (drawn)
        draw(c, clock_seconds(), true);
}

typedef struct Outbox {
    uint64_t words[MESSAGE_WORDS];
    int count;
    int value_words;
} Outbox;

static void outbox_done(void *context, size_t unit, const uint64_t *values) {
    Outbox *box = context;
    box->words[box->count++] = unit;
    for (int i = 0; i < box->value_words; i++)
        box->words[box->count++] = values[i];
}

/* A worker rank: asks for batches (handing in the last one's results, `value_words`
 * each) and does them with `batch_work` until it gets an empty one, or until a signal
 * or the time limit stops it (the run's `limits` from `start`): then it hands in what
 * it finished with why it stopped, at once, and leaves. */
static void work(BatchWork batch_work, void *state, int value_words, const RunLimits *limits, double start) {
    Outbox *box = malloc(sizeof *box);
    uint64_t in[MAX_BATCH];
    size_t batch[MAX_BATCH];
    if (!box)
        abort(); /* a few kilobytes: nothing sensible is left to do */
    box->count = 0;
    box->value_words = value_words;
    for (;;) {
        MPI_Send(box->words, box->count, MPI_UINT64_T, 0, TAG_REQUEST, MPI_COMM_WORLD);
        MPI_Status status;
        MPI_Recv(in, MAX_BATCH, MPI_UINT64_T, 0, TAG_BATCH, MPI_COMM_WORLD, &status);
        int n = 0;
        MPI_Get_count(&status, MPI_UINT64_T, &n);
        if (n == 0)
            break;
        for (int i = 0; i < n; i++)
            batch[i] = (size_t)in[i];
        box->count = 0;
        batch_work(state, batch, (size_t)n, outbox_done, box, limits, start);
        RunStatus why = stop_reason(limits, start, clock_seconds());
        if (why != RUN_COMPLETED) {
            box->words[box->count++] = (uint64_t)why;
            MPI_Send(box->words, box->count, MPI_UINT64_T, 0, TAG_REQUEST, MPI_COMM_WORLD);
            break;
        }
    }
    free(box);
}

/* Rank 0's bookkeeping for the units, allocated; false on every rank when rank 0 has
 * no memory for it (then nothing is counted, and no rank waits for rank 0). Collective. */
static bool coordinator_ready(Coordinator *c, int rank) {
    if (rank == 0) {
        c->done = calloc(c->count + 1, sizeof *c->done);
        c->results = malloc((c->count + 1) * sizeof *c->results);
    }
    int ready = rank != 0 || (c->done && c->results);
    MPI_Bcast(&ready, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!ready) {
        free(c->done);
        free(c->results);
        c->done = NULL;
        c->results = NULL;
    }
    return ready;
}

/* The digest and count of every rank's plan agree with rank 0's; collective. */
static bool plans_agree(const UnitSet *units) {
    uint64_t mine[2] = {unit_set_digest(units), unit_set_count(units)}, ranks0[2] = {mine[0], mine[1]};
    MPI_Bcast(ranks0, 2, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    int ok = mine[0] == ranks0[0] && mine[1] == ranks0[1], all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all == 1;
}

/* Allocates the whole of a new shared object now, not on first touch, so a full
 * /dev/shm is an error here rather than a SIGBUS in the middle of the run: by faulting
 * its pages in through `memory` after asking for huge pages (with /dev/shm mounted
 * huge=advise only a mapping that asks gets them), or where the kernel cannot
 * (before Linux 5.14) by posix_fallocate, in small pages. */
static bool populate_shared(int fd, void *memory, size_t length) {
#ifdef MADV_HUGEPAGE
    madvise(memory, length, MADV_HUGEPAGE);
#endif
#ifdef MADV_POPULATE_WRITE
    if (madvise(memory, length, MADV_POPULATE_WRITE) == 0)
        return true;
    if (errno != EINVAL)
        return false;
#endif
    return posix_fallocate(fd, 0, (off_t)length) == 0;
}

/* Whether /dev/shm, where the shared tables live, is mounted with huge pages (tmpfs's
 * huge= option other than never); false when it cannot be told. */
static bool shm_has_huge_pages(void) {
    FILE *mounts = fopen("/proc/self/mounts", "r");
    char line[1024];
    bool huge = false;
    while (mounts && fgets(line, sizeof line, mounts)) {
        char device[256], point[256], type[64], options[512];
        if (sscanf(line, "%255s %255s %63s %511s", device, point, type, options) == 4 && !strcmp(point, "/dev/shm"))
            huge = strstr(options, "huge=") && !strstr(options, "huge=never");
    }
    if (mounts)
        fclose(mounts);
    return huge;
}

/* Maps one shared object of `length` bytes on every rank of `node`: from the reserved
 * huge-page pool (`pool`: a memfd of hugetlb pages, which the node's first rank makes
 * and the others open through its /proc entry, so no hugetlbfs mount is needed), or
 * from /dev/shm. The pool's pages are reserved when the first rank maps them, so a
 * short pool fails here, never in the middle of the run. Returns the mapping when every
 * rank of the node has it, else MAP_FAILED on all of them; nothing is left behind
 * either way. Collective over `node`. */
static void *map_node_shared(MPI_Comm node, int node_rank, size_t length, bool pool) {
    char name[64] = "";
    int fd = -1, made = 0;
    void *memory = MAP_FAILED;
    if (node_rank == 0) {
        if (pool) {
#ifdef MFD_HUGETLB
            fd = memfd_create("perftkit-tables", MFD_HUGETLB | MFD_CLOEXEC);
            snprintf(name, sizeof name, "/proc/%ld/fd/%d", (long)getpid(), fd);
#endif
        } else {
            snprintf(name, sizeof name, "/perftkit-tables-%ld-%d", (long)getpid(), dist_rank());
            fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
        }
        if (fd >= 0 && ftruncate(fd, (off_t)length) == 0)
            memory = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        made = memory != MAP_FAILED && (pool || populate_shared(fd, memory, length));
    }
    MPI_Bcast(&made, 1, MPI_INT, 0, node);
    MPI_Bcast(name, sizeof name, MPI_CHAR, 0, node);
    if (made && node_rank != 0 && (fd = pool ? open(name, O_RDWR | O_CLOEXEC) : shm_open(name, O_RDWR, 0)) >= 0)
        memory = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (!made && memory != MAP_FAILED) {
        munmap(memory, length);
        memory = MAP_FAILED;
    }
    int mapped = memory != MAP_FAILED, all_mapped = 0;
    MPI_Allreduce(&mapped, &all_mapped, 1, MPI_INT, MPI_MIN, node);
    /* Only now: the memfd's /proc entry lives while the first rank holds it open. */
    if (fd >= 0)
        close(fd);
    if (node_rank == 0 && !pool && name[0])
        shm_unlink(name);
    if (!all_mapped && memory != MAP_FAILED) {
        munmap(memory, length);
        memory = MAP_FAILED;
    }
    return memory;
}

/* One shared object of `length` bytes mapped on every rank of `node`: from the pool
 * when it has room (*pool), else from /dev/shm; MAP_FAILED on every rank when neither
 * has room. Rank 0 says what the user should know: no room (each rank then keeps its
 * own tables), or /dev/shm's small pages. Collective over `node`. */
static void *map_set_for_node(MPI_Comm node, int node_rank, size_t length, bool *pool) {
    *pool = true;
    void *memory = map_node_shared(node, node_rank, length, true);
    if (memory == MAP_FAILED) {
        *pool = false;
        memory = map_node_shared(node, node_rank, length, false);
    }
    if (memory == MAP_FAILED && dist_rank() == 0)
        fprintf(stderr, "perft-mpi: no room for %zu MB of shared tables in the huge-page pool or /dev/shm: "
                        "each rank keeps its own\n", length >> 20);
    if (memory != MAP_FAILED && !*pool && dist_rank() == 0 && length >= SHM_HUGE_NOTE_BYTES && !shm_has_huge_pages())
        fprintf(stderr, "perft-mpi: /dev/shm gives the shared tables 4 KiB pages, which slows them by about "
                        "a third; for huge pages: mount -o remount,huge=advise /dev/shm, or reserve a pool "
                        "(vm.nr_hugepages)\n");
    return memory;
}

/* The ranks of this machine (*node, which the caller frees, and this rank's place in
 * it) and the size of tables every one of them offers to share: `mine` bytes (0: none
 * to share), or 0 when some rank offers none, the ranks made tables of different sizes
 * (their layouts differ: rank 0 says each keeps its own) or the rank is alone here.
 * Collective. */
static unsigned long long node_share_size(MPI_Comm *node, int *node_rank, unsigned long long mine,
                                          const char *what) {
    int node_size = 1;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, node);
    MPI_Comm_rank(*node, node_rank);
    MPI_Comm_size(*node, &node_size);
    unsigned long long shortest = 0, longest = 0;
    MPI_Allreduce(&mine, &shortest, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, *node);
    MPI_Allreduce(&mine, &longest, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, *node);
    if (node_size > 1 && shortest > 0 && shortest != longest && dist_rank() == 0)
        fprintf(stderr, "perft-mpi: the ranks on this machine made %s of %llu to %llu MB: each keeps its own\n", what,
                shortest >> 20, longest >> 20);
    return node_size > 1 && shortest == longest ? shortest : 0;
}

/* Ranks on one machine share one set of tables, as threads do: the node's first rank
 * makes a shared object of the size every rank asked for (--hash is then per machine,
 * not per rank), the others map the same object, and each rank's own tables are given
 * up first, so that the pool's pages they held can go to the shared set. The object
 * comes from the reserved huge-page pool when it has room, else from /dev/shm; where
 * neither has room, every rank maps its own tables again and rank 0 says so. Each rank
 * sized its tables itself (free memory, refusals): one layout for all, or every rank
 * keeps its own, as a longer layout than the object would fault. Collective. */
static void share_tables(Driver *driver) {
    MPI_Comm node;
    int node_rank = 0;
    TableMemory kind = driver->tables.kind;
    bool own = kind == TABLE_MEMORY_ORDINARY || kind == TABLE_MEMORY_POOL;
    if (node_share_size(&node, &node_rank, own ? driver->tables.span : 0, "tables") > 0) {
        size_t length = table_huge_page_round(driver->tables.span);
        table_set_unmap(&driver->tables);
        MPI_Barrier(node); /* every rank's pool pages are back before the first rank asks */
        bool pool;
        void *memory = map_set_for_node(node, node_rank, length, &pool);
        if (memory != MAP_FAILED) {
            table_set_adopt(&driver->tables, memory, length, pool);
        } else {
            char error[160];
            if (!table_set_map(&driver->tables, error, sizeof error))
                fprintf(stderr, "perft-mpi: rank %d: %s: it counts without tables\n", dist_rank(), error);
        }
    }
    MPI_Comm_free(&node);
}

/* The same for statistics tables, once (they stay shared): their own mapping, never
 * from the pool and untouched so far, is given up only when the shared one is there. */
static void share_stats_tables(StatsTables *tables) {
    MPI_Comm node;
    int node_rank = 0;
    size_t mine = stats_tables_shared(tables) ? 0 : stats_tables_bytes(tables);
    if (node_share_size(&node, &node_rank, mine, "statistics tables") > 0) {
        bool pool;
        size_t length = table_huge_page_round(mine);
        void *memory = map_set_for_node(node, node_rank, length, &pool);
        if (memory != MAP_FAILED)
            stats_tables_adopt(tables, memory, length);
    }
    MPI_Comm_free(&node);
}

/* Every rank learns how rank 0's run ended, so all take the same next step (a second
 * --verify pass, or none); collective. */
static void share_outcome(RunReport *report) {
    int words[2] = {(int)report->status, report->complete};
    MPI_Bcast(words, 2, MPI_INT, 0, MPI_COMM_WORLD);
    report->status = (RunStatus)words[0];
    report->complete = words[1];
}

void dist_run(Driver *driver, const Position *root, int depth, const RunLimits *limits, const RunHooks *hooks,
              RunReport *report) {
    int rank = dist_rank(), ranks = dist_size();
    if (!all_ranks_start()) {
        memset(report, 0, sizeof *report);
        report->depth = depth;
        report->status = RUN_ABANDONED;
        return;
    }
    if (ranks == 1 || depth < 2) { /* nothing to spread: rank 0 counts alone */
        if (rank == 0)
            driver_run(driver, root, depth, limits, hooks, report);
        else
            memset(report, 0, sizeof *report);
        share_outcome(report);
        return;
    }
    share_tables(driver);
    double start = clock_seconds();
    char error[160];
    /* Rank 0's plan rules (a resumed run plans at its journal's ply, which the other
     * ranks cannot read): the others plan at the ply it announces. */
    UnitSet *planned = NULL;
    const UnitSet *units = hooks ? hooks->units : NULL;
    if (rank == 0 && !units)
        units = planned = driver_plan(driver, root, depth, error, sizeof error);
    int ply = units ? unit_set_ply(units) : 0;
    MPI_Bcast(&ply, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank != 0 && ply > 0 && (!units || unit_set_ply(units) != ply)) {
        Driver at_ply = *driver;
        at_ply.split_ply = ply;
        units = planned = driver_plan(&at_ply, root, depth, error, sizeof error);
    }
    int have = units != NULL, all_have = 0;
    MPI_Allreduce(&have, &all_have, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_have || !plans_agree(units)) {
        memset(report, 0, sizeof *report);
        report->depth = depth;
        report->status = RUN_BAD_UNITS;
        unit_set_destroy(planned);
        return;
    }
    CountWork counting = {driver, root, depth, units};
    Coordinator c = {.batch_work = count_batch, .work = &counting, .value_words = COUNT_WORDS,
                     .batch_max = MAX_BATCH, .depth = depth,
                     .units = units, .hooks = hooks, .count = unit_set_count(units), .ranks = ranks, .start = start};
    if (!coordinator_ready(&c, rank)) {
        memset(report, 0, sizeof *report);
        report->depth = depth;
        report->status = RUN_NO_MEMORY;
        unit_set_destroy(planned);
        return;
    }
    if (rank != 0) {
        work(count_batch, &counting, COUNT_WORDS, limits, start);
        memset(report, 0, sizeof *report);
        report->depth = depth;
        share_outcome(report);
        unit_set_destroy(planned);
        return;
    }
    pthread_mutex_init(&c.lock, NULL);
    for (size_t i = 0; hooks && i < hooks->finished_count; i++) /* a resumed run's units: done, not booked again */
        if (hooks->finished[i].unit < c.count && !c.done[hooks->finished[i].unit]) {
            c.done[hooks->finished[i].unit] = true;
            c.results[c.finished++] = hooks->finished[i];
            c.leaves += hooks->finished[i].count * (Count)unit_paths(units, hooks->finished[i].unit);
            c.resumed_size += unit_size(units, hooks->finished[i].unit);
        }
    c.resumed_leaves = c.leaves;
    c.left = c.count - c.finished;
    coordinate(&c, limits);
    /* The report: a driver run that counts nothing and books every finished unit. */
    static const size_t none[1];
    RunHooks booking = {.root_done = hooks ? hooks->root_done : NULL, .context = hooks ? hooks->context : NULL,
                        .units = units, .finished = c.results, .finished_count = c.finished, .only = none,
                        .only_count = 0};
    driver_run(driver, root, depth, NULL, &booking, report);
    report->units_resumed = hooks ? hooks->finished_count : 0;
    report->resumed_leaves = c.resumed_leaves;
    if (!report->complete && c.stop_reason != RUN_COMPLETED)
        report->status = c.stop_reason;
    report->seconds = clock_seconds() - start;
    share_outcome(report);
    free(c.done);
    free(c.results);
    pthread_mutex_destroy(&c.lock);
    unit_set_destroy(planned);
}

/* A statistics run's batches: each unit's statistics, handed on unweighted;
 * `status` is the first thing that stopped a unit short. */
typedef struct StatsWork {
    const UnitSet *units;
    int depth;
    int threads;
    StatsTables *tables;
    RunStatus status;
} StatsWork;

static void stats_batch(void *work, const size_t *only, size_t n, ResultSink done, void *context,
                        const RunLimits *limits, double start) {
    StatsWork *w = work;
    for (size_t i = 0; i < n && w->status == RUN_COMPLETED; i++) {
        RunLimits left; /* each unit is a stats_run of its own: its seconds from now on */
        if (!limits_now(limits, start, &left))
            return;
        Position pos;
        LeafStats s;
        unit_position(w->units, only[i], &pos);
        RunStatus status = stats_run(&pos, w->depth - unit_set_ply(w->units), w->threads, w->tables, &left, &s);
        if (status == RUN_INTERRUPTED || status == RUN_TIME_LIMIT) /* a stop: the caller says why */
            return;
        if (status != RUN_COMPLETED) {
            w->status = status;
            return;
        }
        done(context, only[i], s.field);
    }
}

RunStatus dist_stats_run_units(const UnitSet *units, int depth, int threads, StatsTables *tables,
                               const RunLimits *limits, const bool *known, const LeafStats *known_stats,
                               StatsUnitDone unit_done, void *context, LeafStats *out) {
    int rank = dist_rank(), ranks = dist_size();
    memset(out, 0, sizeof *out);
    if (!all_ranks_start())
        return RUN_ABANDONED;
    if (ranks == 1)
        return stats_run_units(units, depth, threads, tables, limits, known, known_stats, unit_done, context, out);
    share_stats_tables(tables);
    if (!plans_agree(units))
        return RUN_BAD_UNITS;
    /* Units handed out one at a time, as each rank asks: a stop takes effect after the
     * unit each rank is counting, and no rank waits for another's larger units. */
    StatsWork stats = {units, depth, threads, tables, RUN_COMPLETED};
    StatsBooking booking = {{{0}}, unit_done, context};
    Coordinator c = {.batch_work = stats_batch, .work = &stats, .value_words = STATS_FIELDS, .stats = &booking,
                     .batch_max = 1, .depth = depth, .units = units, .count = unit_set_count(units), .ranks = ranks,
                     .start = clock_seconds()};
    int status = RUN_COMPLETED;
    if (!coordinator_ready(&c, rank)) {
        status = RUN_NO_MEMORY;
    } else if (rank != 0) {
        work(stats_batch, &stats, STATS_FIELDS, limits, c.start);
    } else {
        pthread_mutex_init(&c.lock, NULL);
        for (size_t u = 0; known && u < c.count; u++) /* a resumed run's units: summed, not counted */
            if (known[u]) {
                uint64_t paths = unit_paths(units, u);
                stats_add_weighted(&booking, &known_stats[u], paths);
                c.leaves += (Count)known_stats[u].field[STAT_NODES] * paths;
                c.done[u] = true;
                c.finished++;
            }
        c.resumed_leaves = c.leaves;
        c.left = c.count - c.finished;
        coordinate(&c, limits);
        status = c.finished == c.count ? RUN_COMPLETED : c.stop_reason;
        pthread_mutex_destroy(&c.lock);
    }
    free(c.done);
    free(c.results);
    /* A rank whose unit failed (out of memory) left it uncounted: every rank hears. */
    int mine = (int)(stats.status != RUN_COMPLETED ? stats.status : (RunStatus)status);
    MPI_Allreduce(&mine, &status, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (status == RUN_COMPLETED && rank == 0)
        *out = booking.sum;
    return (RunStatus)status;
}
