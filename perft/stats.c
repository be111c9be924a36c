/* stats.c — the statistics count. Leaves are classified by making each last move and
 * looking at the position after it: which pieces check the king (none, one, two), whether
 * the man that moved is among them, whether any reply exists. Every remaining
 * depth from 1 up is hashed, since even classifying one position's moves costs more
 * than a cache miss. Limits are checked inside the search, by every thread every
 * thousand nodes or so; a subtree abandoned on a stop is neither stored nor added, so
 * the tables only ever hold exact vectors and the next run may use them. */
#include "stats.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "clock.h"
#include "units.h"

const char *const stats_field_names[STATS_FIELDS] = {
    "nodes", "captures", "ep", "castles", "promotions", "checks", "discovery_checks", "double_checks", "checkmates",
    "direct_checks", "single_discovered_checks", "direct_discovered_checks", "double_discovered_checks",
    "direct_mates", "single_discovered_mates", "direct_discovered_mates", "double_discovered_mates"};

/* The fields the search counts and a table entry stores: all but the wiki's four check
 * columns, which are sums of the eight classes, made once at the end (derive() below),
 * so an entry is 112 bytes, not 144. */
enum { STATS_STORED = STATS_FIELDS - 4 };
static const uint8_t stored_field[STATS_STORED] = {
    STAT_NODES, STAT_CAPTURES, STAT_EP, STAT_CASTLES, STAT_PROMOTIONS,
    STAT_DIRECT_CHECKS, STAT_SINGLE_DISCOVERED_CHECKS, STAT_DIRECT_DISCOVERED_CHECKS, STAT_DOUBLE_DISCOVERED_CHECKS,
    STAT_DIRECT_MATES, STAT_SINGLE_DISCOVERED_MATES, STAT_DIRECT_DISCOVERED_MATES, STAT_DOUBLE_DISCOVERED_MATES};

/* 112 bytes: a check word and the stored fields. check = key.lo ^ mix(stored fields). */
typedef struct StatsEntry {
    _Atomic uint64_t check;
    _Atomic uint64_t field[STATS_STORED];
} StatsEntry;

struct StatsTables {
    StatsEntry *table[STATS_MAX_DEPTH + 1]; /* by remaining depth; NULL when not hashed */
    uint64_t mask[STATS_MAX_DEPTH + 1];
    void *memory;
    size_t bytes;
    bool shared;
};

/* Mixes the whole vector into one word, so that any torn mixture of two writes fails
 * the check but for a 2^-64 chance. */
static uint64_t mix(const uint64_t field[STATS_STORED]) {
    uint64_t h = 0x243F6A8885A308D3ULL;
    for (int i = 0; i < STATS_STORED; i++) {
        h ^= field[i];
        h *= 0x9E3779B97F4A7C15ULL;
        h ^= h >> 29;
    }
    return h;
}

static uint64_t floor_power_of_two(uint64_t n) { return n ? 1ULL << (63 - __builtin_clzll(n)) : 0; }

StatsTables *stats_tables_create(size_t bytes, char *error, size_t error_size) {
    StatsTables *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    uint64_t budget = bytes / sizeof(StatsEntry), total = 0, entries[STATS_MAX_DEPTH + 1] = {0};
    for (int depth = 1; depth <= STATS_MAX_DEPTH; depth++) { /* two thirds to the deepest, two thirds of the rest above */
        uint64_t n = floor_power_of_two((budget - total) * 2 / 3);
        if (n < 256)
            break;
        entries[depth] = n;
        total += n;
    }
    if (total == 0)
        return t;
    t->bytes = total * sizeof(StatsEntry);
    t->memory = mmap(NULL, t->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (t->memory == MAP_FAILED) {
        snprintf(error, error_size, "cannot allocate %zu MB of statistics tables: %s", t->bytes >> 20,
                 strerror(errno));
        free(t);
        return NULL;
    }
#ifdef MADV_HUGEPAGE
    madvise(t->memory, t->bytes, MADV_HUGEPAGE);
#endif
    StatsEntry *next = t->memory;
    for (int depth = 1; depth <= STATS_MAX_DEPTH && entries[depth]; depth++) {
        t->table[depth] = next;
        t->mask[depth] = entries[depth] - 1;
        next += entries[depth];
    }
    return t;
}

size_t stats_tables_bytes(const StatsTables *t) { return t && t->memory ? t->bytes : 0; }

bool stats_tables_shared(const StatsTables *t) { return t && t->shared; }

void stats_tables_adopt(StatsTables *t, void *memory, size_t bytes) {
    for (int depth = 1; depth <= STATS_MAX_DEPTH; depth++)
        if (t->table[depth])
            t->table[depth] = (StatsEntry *)memory + (t->table[depth] - (StatsEntry *)t->memory);
    munmap(t->memory, t->bytes);
    t->memory = memory;
    t->bytes = bytes;
    t->shared = true;
}

void stats_tables_destroy(StatsTables *t) {
    if (!t)
        return;
    if (t->memory)
        munmap(t->memory, t->bytes);
    free(t);
}

/* An entry is in use once anything was stored there. */
static bool entry_used(StatsEntry *e) {
    if (atomic_load_explicit(&e->check, memory_order_relaxed))
        return true;
    for (int i = 0; i < STATS_STORED; i++)
        if (atomic_load_explicit(&e->field[i], memory_order_relaxed))
            return true;
    return false;
}

/* The wiki's check columns from the eight classes they are made of: the one place they
 * are counted. */
static void derive(LeafStats *s) {
    uint64_t *f = s->field;
    f[STAT_CHECKMATES] = f[STAT_DIRECT_MATES] + f[STAT_SINGLE_DISCOVERED_MATES] + f[STAT_DIRECT_DISCOVERED_MATES]
                       + f[STAT_DOUBLE_DISCOVERED_MATES];
    f[STAT_CHECKS] = f[STAT_DIRECT_CHECKS] + f[STAT_SINGLE_DISCOVERED_CHECKS] + f[STAT_DIRECT_DISCOVERED_CHECKS]
                   + f[STAT_DOUBLE_DISCOVERED_CHECKS] + f[STAT_CHECKMATES];
    f[STAT_DISCOVERY_CHECKS] = f[STAT_SINGLE_DISCOVERED_CHECKS] + f[STAT_SINGLE_DISCOVERED_MATES];
    f[STAT_DOUBLE_CHECKS] = f[STAT_DIRECT_DISCOVERED_CHECKS] + f[STAT_DOUBLE_DISCOVERED_CHECKS]
                          + f[STAT_DIRECT_DISCOVERED_MATES] + f[STAT_DOUBLE_DISCOVERED_MATES];
}

static bool probe(const StatsTables *t, int depth, Key128 key, LeafStats *out) {
    StatsEntry *e = &t->table[depth][key.hi & t->mask[depth]];
    uint64_t check = atomic_load_explicit(&e->check, memory_order_relaxed), field[STATS_STORED];
    for (int i = 0; i < STATS_STORED; i++)
        field[i] = atomic_load_explicit(&e->field[i], memory_order_relaxed);
    if (check != (key.lo ^ mix(field)))
        return false;
    memset(out, 0, sizeof *out);
    for (int i = 0; i < STATS_STORED; i++)
        out->field[stored_field[i]] = field[i];
    return true;
}

static void store(const StatsTables *t, int depth, Key128 key, const LeafStats *s, TableCounters *counters) {
    StatsEntry *e = &t->table[depth][key.hi & t->mask[depth]];
    LeafStats old;
    uint64_t field[STATS_STORED];
    counters->stores++;
    counters->replacements += entry_used(e) && !probe(t, depth, key, &old);
    for (int i = 0; i < STATS_STORED; i++) {
        field[i] = s->field[stored_field[i]];
        atomic_store_explicit(&e->field[i], field[i], memory_order_relaxed);
    }
    atomic_store_explicit(&e->check, key.lo ^ mix(field), memory_order_relaxed);
}

static void add(LeafStats *to, const LeafStats *from) {
    for (int i = 0; i < STATS_FIELDS; i++)
        to->field[i] += from->field[i];
}

/* Classifies legal move `m` of `pos` as the last move into a leaf. */
static void classify(Position *pos, Move m, LeafStats *s) {
    Color us = pos->side;
    Square from = move_from(m), to = move_to(m);
    int kind = move_kind(m);
    s->field[STAT_NODES]++;
    s->field[STAT_CAPTURES] += kind == MOVE_EN_PASSANT || (kind != MOVE_CASTLING && pos->board[to] != NO_PIECE);
    s->field[STAT_EP] += kind == MOVE_EN_PASSANT;
    s->field[STAT_CASTLES] += kind == MOVE_CASTLING;
    s->field[STAT_PROMOTIONS] += kind == MOVE_PROMOTION;
    /* The man that moved stands on `to`, or for castling the rook on its new square. */
    Square mover = kind == MOVE_CASTLING ? castle_rook_to(2 * us + (to < from)) : to;
    Undo undo;
    pos_make_move(pos, m, &undo);
    Bitboard checkers = pos_checkers(pos);
    if (checkers) {
        bool direct = bb_has(checkers, mover), twice = bb_several(checkers), mate = gen_count_legal(pos) == 0;
        /* The class, 0..3 in the order of the enum: direct, single discovered, direct and
         * discovered, double discovered; the mates' four follow the checks' four. */
        int which = twice ? (direct ? 2 : 3) : (direct ? 0 : 1);
        s->field[(mate ? STAT_DIRECT_MATES : STAT_DIRECT_CHECKS) + which]++;
    }
    pos_unmake_move(pos, m, &undo);
}

/* What the threads of one run share to stop together: the first limit reached sets
 * `stop` (and `reason`); leaves are summed here as the threads check in. */
typedef struct StatsStop {
    atomic_bool stop;
    _Atomic int reason;        /* a RunStatus: RUN_COMPLETED until a limit is reached */
    _Atomic uint64_t leaves;   /* leaves counted by the threads, as of their last check */
    const RunLimits *limits;   /* NULL: none */
    double start;
} StatsStop;

/* One thread's search. */
typedef struct StatsSearch {
    const StatsTables *tables;
    TableCounters *counters;   /* this thread's row, by remaining depth */
    StatsStop *control;
    unsigned ticks;            /* nodes since the last check */
    uint64_t leaves;           /* leaves counted since the last check */
} StatsSearch;

/* Nodes between two checks of the limits: each costs about a microsecond at most
 * (a depth-1 node classifies its few dozen moves), so a check every millisecond or so. */
enum { STATS_CHECK_INTERVAL = 1024 };

static void stop_init(StatsStop *c, const RunLimits *limits) {
    atomic_init(&c->stop, false);
    atomic_init(&c->reason, RUN_COMPLETED);
    atomic_init(&c->leaves, 0);
    c->limits = limits;
    c->start = clock_seconds();
}

static void request_stop(StatsStop *c, RunStatus reason) {
    int none = RUN_COMPLETED;
    atomic_compare_exchange_strong(&c->reason, &none, (int)reason);
    atomic_store_explicit(&c->stop, true, memory_order_relaxed);
}

/* Books this thread's leaves and checks the limits; false once the run must stop. */
static bool check_limits(StatsSearch *s) {
    StatsStop *c = s->control;
    uint64_t leaves = atomic_fetch_add_explicit(&c->leaves, s->leaves, memory_order_relaxed) + s->leaves;
    s->leaves = 0;
    s->ticks = 0;
    const RunLimits *limits = c->limits;
    if (limits) {
        if (run_interrupted(limits))
            request_stop(c, RUN_INTERRUPTED);
        else if (limits->max_seconds > 0 && clock_seconds() - c->start >= limits->max_seconds)
            request_stop(c, RUN_TIME_LIMIT);
        else if (limits->max_nodes && leaves >= limits->max_nodes)
            request_stop(c, RUN_NODE_LIMIT);
    }
    return !atomic_load_explicit(&c->stop, memory_order_relaxed);
}

/* The statistics of the leaves `depth` plies below `pos` (depth >= 1), added to `out`.
 * False when the run stopped: `out` then holds part of the subtree, and nothing of it
 * was stored. */
static bool search(StatsSearch *s, Position *pos, int depth, LeafStats *out) {
    if (++s->ticks >= STATS_CHECK_INTERVAL && !check_limits(s))
        return false;
    const StatsTables *t = s->tables;
    bool hashed = t && t->table[depth];
    LeafStats here;
    if (hashed) {
        s->counters[depth].probes++;
        if (probe(t, depth, pos->key, &here)) {
            s->counters[depth].hits++;
            s->leaves += here.field[STAT_NODES];
            add(out, &here);
            return true;
        }
    }
    memset(&here, 0, sizeof here);
    MoveList list;
    gen_legal(pos, &list);
    for (int i = 0; i < list.count; i++) {
        if (depth == 1) {
            classify(pos, list.moves[i], &here);
        } else {
            Undo undo;
            pos_make_move(pos, list.moves[i], &undo);
            bool finished = search(s, pos, depth - 1, &here);
            pos_unmake_move(pos, list.moves[i], &undo);
            if (!finished)
                return false;
        }
    }
    if (depth == 1)
        s->leaves += (uint64_t)list.count;
    if (hashed)
        store(t, depth, pos->key, &here, &s->counters[depth]);
    add(out, &here);
    return true;
}

int stats_threads(int depth, int threads) {
    return depth < 5 ? 1 : threads > 0 ? threads : driver_available_threads();
}

int stats_split_ply(int depth) { return depth - 5 < 1 ? 1 : depth - 5 > 3 ? 3 : depth - 5; }

/* A run over distinct units: what the threads share. */
typedef struct UnitsWork {
    pthread_mutex_t lock;
    const StatsTables *tables;
    StatsStop control;
    const UnitSet *units;
    int remaining;                              /* plies below each unit */
    const bool *known;
    StatsUnitDone unit_done;
    void *context;
    LeafStats sum;                              /* under lock: weighted by paths */
    LeafStats *roots;                           /* NULL, or under lock: by root move */
    size_t units_done;                          /* under lock */
    TableCounters (*rows)[STATS_MAX_DEPTH + 1]; /* one row per thread */
} UnitsWork;

/* Adds `s` weighted by the unit's paths to the sum, and to each root move it descends from. */
static void add_weighted(UnitsWork *w, size_t unit, const LeafStats *s) {
    const UnitRoot *roots;
    int n = unit_roots(w->units, unit, &roots);
    for (int r = 0; r < n; r++)
        for (int f = 0; f < STATS_FIELDS; f++) {
            uint64_t part = s->field[f] * roots[r].paths;
            w->sum.field[f] += part;
            if (w->roots)
                w->roots[roots[r].root].field[f] += part;
        }
    w->units_done++;
}

static void count_stats_unit(void *context, int thread, size_t unit) {
    UnitsWork *w = context;
    if (w->known && w->known[unit])
        return;
    StatsSearch search_state = {w->tables, w->rows[thread], &w->control, 0, 0};
    Position pos;
    unit_position(w->units, unit, &pos);
    LeafStats here;
    memset(&here, 0, sizeof here);
    bool finished = search(&search_state, &pos, w->remaining, &here);
    check_limits(&search_state); /* books the unit's last leaves */
    if (!finished)
        return;
    derive(&here);
    pthread_mutex_lock(&w->lock);
    add_weighted(w, unit, &here);
    if (w->unit_done)
        w->unit_done(w->context, unit, &here);
    pthread_mutex_unlock(&w->lock);
}

/* stats_run_units, with the sums by root move (`roots`: NULL, or MAX_MOVES of them,
 * zeroed here) and the table counters (`counters`: NULL, or added to). */
static RunStatus run_units(const UnitSet *units, int depth, int threads, StatsTables *tables, const RunLimits *limits,
                           const bool *known, const LeafStats *known_stats, StatsUnitDone unit_done, void *context,
                           LeafStats *out, LeafStats *roots, TableCounters *counters) {
    memset(out, 0, sizeof *out);
    if (roots)
        memset(roots, 0, sizeof *roots * MAX_MOVES);
    size_t count = unit_set_count(units);
    if (run_interrupted(limits))
        return RUN_INTERRUPTED;
    threads = stats_threads(depth, threads);
    UnitsWork w = {.lock = PTHREAD_MUTEX_INITIALIZER,
                   .tables = tables && tables->memory ? tables : NULL,
                   .units = units,
                   .remaining = depth - unit_set_ply(units),
                   .known = known,
                   .unit_done = unit_done,
                   .context = context,
                   .roots = roots,
                   .rows = calloc((size_t)threads, sizeof *w.rows)};
    if (!w.rows)
        return RUN_NO_MEMORY;
    stop_init(&w.control, limits);
    for (size_t u = 0; known && u < count; u++)
        if (known[u])
            add_weighted(&w, u, &known_stats[u]);
    driver_parallel_for(threads, count, &w.control.stop, count_stats_unit, &w);
    for (int t = 0; counters && t < threads; t++)
        table_counters_add(counters, w.rows[t], STATS_MAX_DEPTH + 1);
    free(w.rows);
    pthread_mutex_destroy(&w.lock);
    if (w.units_done != count) /* complete when every unit finished, even at a limit */
        return (RunStatus)atomic_load(&w.control.reason);
    *out = w.sum;
    derive(out);
    for (int r = 0; roots && r < MAX_MOVES; r++)
        derive(&roots[r]);
    return RUN_COMPLETED;
}

RunStatus stats_run_units(const UnitSet *units, int depth, int threads, StatsTables *tables, const RunLimits *limits,
                          const bool *known, const LeafStats *known_stats, StatsUnitDone unit_done, void *context,
                          LeafStats *out) {
    return run_units(units, depth, threads, tables, limits, known, known_stats, unit_done, context, out, NULL, NULL);
}

/* The statistics of `root` at `depth`, in total and by root move (generation order;
 * the moves in `moves`, their number in *root_moves): at depth 1 each root move
 * classified, deeper the units of stats_split_ply. */
static RunStatus divide_within(const Position *root, int depth, int threads, StatsTables *tables,
                               const RunLimits *limits, Move moves[MAX_MOVES], LeafStats out[MAX_MOVES],
                               int *root_moves, LeafStats *total, TableCounters *counters) {
    MoveList list;
    gen_legal(root, &list);
    *root_moves = list.count;
    memset(out, 0, sizeof(LeafStats) * MAX_MOVES);
    memset(total, 0, sizeof *total);
    for (int i = 0; i < list.count; i++)
        moves[i] = list.moves[i];
    if (run_interrupted(limits))
        return RUN_INTERRUPTED;
    if (depth == 1) {
        Position pos = *root;
        for (int i = 0; i < list.count; i++) {
            classify(&pos, list.moves[i], &out[i]);
            derive(&out[i]);
            add(total, &out[i]);
        }
        return RUN_COMPLETED;
    }
    char error[160];
    UnitSet *units = unit_set_create(root, stats_split_ply(depth), 0, error, sizeof error);
    if (!units) /* the only way it fails at these plies: memory */
        return RUN_NO_MEMORY;
    RunStatus status = run_units(units, depth, threads, tables, limits, NULL, NULL, NULL, NULL, total, out, counters);
    unit_set_destroy(units);
    return status;
}

int stats_divide(const Position *root, int depth, int threads, StatsTables *tables, Move moves[MAX_MOVES],
                 LeafStats out[MAX_MOVES], TableCounters *counters) {
    int n;
    LeafStats total;
    return divide_within(root, depth, threads, tables, NULL, moves, out, &n, &total, counters) == RUN_COMPLETED ? n
                                                                                                               : -1;
}

int stats_ply_stats(const StatsTables *tables, int depth, const TableCounters *counters,
                    PlyStats out[STATS_MAX_DEPTH]) {
    int n = 0;
    for (int ply = 1; tables && ply < depth; ply++) {
        int remaining = depth - ply;
        if (!tables->table[remaining])
            continue;
        uint64_t slots = tables->mask[remaining] + 1, used = 0;
        for (uint64_t i = 0; i < slots; i++)
            used += entry_used(&tables->table[remaining][i]);
        const TableCounters *c = &counters[remaining];
        out[n++] = (PlyStats){ply, remaining, slots, c->probes, c->hits, c->stores, used, c->replacements};
    }
    return n;
}

RunStatus stats_run(const Position *root, int depth, int threads, StatsTables *tables, const RunLimits *limits,
                    LeafStats *out) {
    Move moves[MAX_MOVES];
    LeafStats roots[MAX_MOVES];
    int n; /* divide_within leaves `out` zeroed unless it completes */
    return divide_within(root, depth, threads, tables, limits, moves, roots, &n, out, NULL);
}
