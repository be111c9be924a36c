/* stats.c — the statistics count. Leaves are classified by making each last move and
 * looking at the position after it: which pieces check the king (none, one, two), whether
 * the one checker is the man that moved, whether any reply exists. Every remaining
 * depth from 1 up is hashed, since even classifying one position's moves costs more
 * than a cache miss. */
#include "stats.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

const char *const stats_field_names[STATS_FIELDS] = {"nodes",  "captures", "ep", "castles", "promotions",
                                                     "checks", "discovery_checks", "double_checks", "checkmates"};

/* 80 bytes: a check word and the vector. check = key.lo ^ mix(vector). */
typedef struct StatsEntry {
    _Atomic uint64_t check;
    _Atomic uint64_t field[STATS_FIELDS];
} StatsEntry;

struct StatsTables {
    StatsEntry *table[STATS_MAX_DEPTH + 1]; /* by remaining depth; NULL when not hashed */
    uint64_t mask[STATS_MAX_DEPTH + 1];
    void *memory;
    size_t bytes;
};

/* Mixes the whole vector into one word, so that any torn mixture of two writes fails
 * the check but for a 2^-64 chance. */
static uint64_t mix(const uint64_t field[STATS_FIELDS]) {
    uint64_t h = 0x243F6A8885A308D3ULL;
    for (int i = 0; i < STATS_FIELDS; i++) {
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
    for (int depth = 1; depth <= STATS_MAX_DEPTH; depth++) { /* as table.c: two thirds, deepest first */
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
    for (int i = 0; i < STATS_FIELDS; i++)
        if (atomic_load_explicit(&e->field[i], memory_order_relaxed))
            return true;
    return false;
}

static bool probe(const StatsTables *t, int depth, Key128 key, LeafStats *out) {
    StatsEntry *e = &t->table[depth][key.hi & t->mask[depth]];
    uint64_t check = atomic_load_explicit(&e->check, memory_order_relaxed), field[STATS_FIELDS];
    for (int i = 0; i < STATS_FIELDS; i++)
        field[i] = atomic_load_explicit(&e->field[i], memory_order_relaxed);
    if (check != (key.lo ^ mix(field)))
        return false;
    memcpy(out->field, field, sizeof field);
    return true;
}

static void store(const StatsTables *t, int depth, Key128 key, const LeafStats *s, TableCounters *counters) {
    StatsEntry *e = &t->table[depth][key.hi & t->mask[depth]];
    LeafStats old;
    counters->stores++;
    counters->replacements += entry_used(e) && !probe(t, depth, key, &old);
    for (int i = 0; i < STATS_FIELDS; i++)
        atomic_store_explicit(&e->field[i], s->field[i], memory_order_relaxed);
    atomic_store_explicit(&e->check, key.lo ^ mix(s->field), memory_order_relaxed);
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
        s->field[STAT_CHECKS]++;
        if (bb_several(checkers))
            s->field[STAT_DOUBLE_CHECKS]++;
        else if (bb_first(checkers) != mover)
            s->field[STAT_DISCOVERY_CHECKS]++;
        s->field[STAT_CHECKMATES] += gen_count_legal(pos) == 0;
    }
    pos_unmake_move(pos, m, &undo);
}

/* The statistics of the leaves `depth` plies below `pos` (depth >= 1), added to `out`;
 * `counters` is this thread's row, by remaining depth. */
static void search(Position *pos, int depth, const StatsTables *t, LeafStats *out, TableCounters *counters) {
    bool hashed = t && t->table[depth];
    LeafStats here;
    if (hashed) {
        counters[depth].probes++;
        if (probe(t, depth, pos->key, &here)) {
            counters[depth].hits++;
            add(out, &here);
            return;
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
            search(pos, depth - 1, t, &here, counters);
            pos_unmake_move(pos, list.moves[i], &undo);
        }
    }
    if (hashed)
        store(t, depth, pos->key, &here, &counters[depth]);
    add(out, &here);
}

typedef struct StatsWork {
    pthread_mutex_t lock;
    const StatsTables *tables;
    LeafStats *roots;
    TableCounters (*rows)[STATS_MAX_DEPTH + 1]; /* one row per thread */
} StatsWork;

static void stats_unit(void *context, int thread, const Unit *unit, int remaining) {
    StatsWork *w = context;
    Position pos = unit->pos;
    LeafStats here;
    memset(&here, 0, sizeof here);
    search(&pos, remaining, w->tables, &here, w->rows[thread]);
    pthread_mutex_lock(&w->lock);
    add(&w->roots[unit->root], &here);
    pthread_mutex_unlock(&w->lock);
}

int stats_divide(const Position *root, int depth, int threads, StatsTables *tables, Move moves[MAX_MOVES],
                 LeafStats out[MAX_MOVES], TableCounters *counters) {
    MoveList list;
    gen_legal(root, &list);
    memset(out, 0, sizeof(LeafStats) * (size_t)list.count);
    for (int i = 0; i < list.count; i++)
        moves[i] = list.moves[i];
    if (depth == 1) {
        Position pos = *root;
        for (int i = 0; i < list.count; i++)
            classify(&pos, list.moves[i], &out[i]);
        return list.count;
    }
    int ply;
    threads = depth >= 5 ? threads : 1; /* below, the whole count takes about a millisecond */
    UnitList units = driver_split(root, &list, depth, threads, &ply);
    if (!units.items)
        units = driver_split(root, &list, depth, 1, &ply);
    TableCounters one_row[1][STATS_MAX_DEPTH + 1];
    memset(one_row, 0, sizeof one_row);
    StatsWork w = {PTHREAD_MUTEX_INITIALIZER, tables && tables->memory ? tables : NULL, out,
                   threads > 1 ? calloc((size_t)threads, sizeof *w.rows) : NULL};
    if (!w.rows) { /* one thread, or no memory for more rows: count on one thread */
        w.rows = one_row;
        threads = 1;
    }
    driver_for_each_unit(threads, &units, depth - ply, NULL, stats_unit, &w);
    for (int t = 0; counters && t < threads; t++)
        for (int d = 0; d <= STATS_MAX_DEPTH; d++) {
            counters[d].probes += w.rows[t][d].probes;
            counters[d].hits += w.rows[t][d].hits;
            counters[d].stores += w.rows[t][d].stores;
            counters[d].replacements += w.rows[t][d].replacements;
        }
    if (w.rows != one_row)
        free(w.rows);
    pthread_mutex_destroy(&w.lock);
    free(units.items);
    return list.count;
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

void stats_run(const Position *root, int depth, int threads, StatsTables *tables, LeafStats *out) {
    Move moves[MAX_MOVES];
    LeafStats roots[MAX_MOVES];
    int n = stats_divide(root, depth, threads, tables, moves, roots, NULL);
    memset(out, 0, sizeof *out);
    for (int i = 0; i < n; i++)
        add(out, &roots[i]);
}
