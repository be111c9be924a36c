/* units.c — enumerating the distinct positions below a root, breadth first. Each ply
 * is a set of distinct (position, root move) pairs, found with an open-addressing index
 * over their keys that doubles when half full; a pair keeps the number of paths that
 * reach it, and only its parent's index and the move from there, so positions are
 * replayed from the root when needed and memory follows the distinct pairs, not the
 * paths. The last ply is then grouped by key alone into units. Invariant: every
 * array's order comes from the move generator's order, never from the index. */
#include "units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The moves of one ply: for each node, its parent's index at the ply above (the root
 * is node 0 of ply 0) and the move from there. */
typedef struct Level {
    uint32_t *parent;
    Move *move;
} Level;

struct UnitSet {
    Position root;
    int ply;
    size_t count;
    Level levels[UNIT_MAX_PLY + 1]; /* [1..ply] */
    uint32_t *node;                 /* per unit: a node of the last ply that is it */
    uint64_t *paths, *estimate;     /* per unit */
    size_t *first;                  /* per unit, and one past the end: its range in roots */
    UnitRoot *roots;
};

/* A growing set of distinct (key, root) nodes with their paths: one ply being built. */
typedef struct Frontier {
    uint32_t *parent;
    Move *move;
    uint8_t *root;
    uint64_t *paths;
    Key128 *key;
    size_t count, capacity;
    uint32_t *slots; /* node index + 1; 0 is empty */
    size_t mask;     /* slots - 1; a power of two, at least twice count */
} Frontier;

static void frontier_free(Frontier *f) {
    free(f->parent);
    free(f->move);
    free(f->root);
    free(f->paths);
    free(f->key);
    free(f->slots);
    memset(f, 0, sizeof *f);
}

static size_t slot_of(const Frontier *f, Key128 key, int root) {
    return (size_t)((key.hi ^ key.lo >> 32) + (uint64_t)root * 0x9E3779B97F4A7C15ULL) & f->mask;
}

static bool frontier_grow_index(Frontier *f) {
    size_t size = f->slots ? (f->mask + 1) * 2 : 1024;
    uint32_t *slots = calloc(size, sizeof *slots);
    if (!slots)
        return false;
    free(f->slots);
    f->slots = slots;
    f->mask = size - 1;
    for (size_t i = 0; i < f->count; i++) {
        size_t s = slot_of(f, f->key[i], f->root[i]);
        while (f->slots[s])
            s = (s + 1) & f->mask;
        f->slots[s] = (uint32_t)(i + 1);
    }
    return true;
}

#define GROW(array, capacity) ((array) = realloc_or_keep((array), (capacity) * sizeof *(array), &ok))
static void *realloc_or_keep(void *old, size_t bytes, bool *ok) {
    void *grown = realloc(old, bytes);
    if (!grown)
        *ok = false;
    return grown ? grown : old;
}

static bool frontier_grow_arrays(Frontier *f) {
    size_t capacity = f->capacity ? f->capacity * 2 : 256;
    bool ok = true;
    GROW(f->parent, capacity);
    GROW(f->move, capacity);
    GROW(f->root, capacity);
    GROW(f->paths, capacity);
    GROW(f->key, capacity);
    if (ok)
        f->capacity = capacity;
    return ok;
}

/* Adds `paths` to the node (key, root), made first when new (with parent and move);
 * its index goes to *index. False when memory runs out. */
static bool frontier_add(Frontier *f, Key128 key, int root, uint32_t parent, Move move, uint64_t paths,
                         size_t *index) {
    if ((f->count + 1) * 2 > (f->slots ? f->mask + 1 : 0) && !frontier_grow_index(f))
        return false;
    size_t s = slot_of(f, key, root);
    for (; f->slots[s]; s = (s + 1) & f->mask) {
        size_t i = f->slots[s] - 1;
        if (f->root[i] == root && zob_equal(f->key[i], key)) {
            f->paths[i] += paths;
            *index = i;
            return true;
        }
    }
    if (f->count == UINT32_MAX - 1 || (f->count == f->capacity && !frontier_grow_arrays(f)))
        return false;
    size_t i = f->count++;
    f->parent[i] = parent;
    f->move[i] = move;
    f->root[i] = (uint8_t)root;
    f->paths[i] = paths;
    f->key[i] = key;
    f->slots[s] = (uint32_t)(i + 1);
    *index = i;
    return true;
}

/* The position of node `node` of ply `ply`: its moves replayed from the root. */
static void replay(const UnitSet *set, int ply, uint32_t node, Position *out) {
    Move path[UNIT_MAX_PLY];
    for (int p = ply; p >= 1; p--) {
        path[p - 1] = set->levels[p].move[node];
        node = set->levels[p].parent[node];
    }
    *out = set->root;
    Undo undo;
    for (int p = 0; p < ply; p++)
        pos_make_move(out, path[p], &undo);
}

void unit_set_destroy(UnitSet *set) {
    if (!set)
        return;
    for (int p = 0; p <= UNIT_MAX_PLY; p++) {
        free(set->levels[p].parent);
        free(set->levels[p].move);
    }
    free(set->node);
    free(set->paths);
    free(set->estimate);
    free(set->first);
    free(set->roots);
    free(set);
}

/* Ply `ply` from the nodes of the ply above (`above`, whose moves are already in set):
 * false when memory runs out or the ply would pass max_pairs (then *over is set). */
static bool expand(UnitSet *set, int ply, const Frontier *above, Frontier *next, size_t max_pairs, bool *over) {
    for (size_t i = 0; i < above->count; i++) {
        Position pos;
        MoveList list;
        replay(set, ply - 1, (uint32_t)i, &pos);
        gen_legal(&pos, &list);
        for (int m = 0; m < list.count; m++) {
            size_t index;
            int root = ply == 1 ? m : above->root[i];
            if (!frontier_add(next, pos_key_after(&pos, list.moves[m]), root, (uint32_t)i, list.moves[m],
                              above->paths[i], &index))
                return false;
            if (max_pairs && next->count > max_pairs && ply > 1) {
                *over = true;
                return false;
            }
        }
    }
    return true;
}

typedef struct Ranked {
    uint64_t estimate;
    size_t unit; /* in order of discovery */
} Ranked;

/* Smallest expected first; among equals, the later discovered first. */
static int smallest_first(const void *a, const void *b) {
    const Ranked *x = a, *y = b;
    if (x->estimate != y->estimate)
        return x->estimate < y->estimate ? -1 : 1;
    return x->unit < y->unit ? 1 : x->unit > y->unit ? -1 : 0;
}

/* Orders `n` units, given in order of discovery in `found`, into `order`: the bulk in
 * order of discovery, so a unit's siblings and cousins (which share many positions a
 * few plies further down) are counted one after another while those positions are
 * still in the tables; then the smallest expected eighth (all of a list of at most
 * UNIT_ORDER_SORTED), largest first, so the threads finish together. `sorted` is
 * scratch. */
static void order_units(const Ranked *found, size_t n, Ranked *sorted, Ranked *order) {
    memcpy(sorted, found, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, smallest_first);
    size_t tail = n <= UNIT_ORDER_SORTED ? n : n / 8 > UNIT_ORDER_SORTED ? n / 8 : (size_t)UNIT_ORDER_SORTED;
    size_t r = 0;
    for (size_t u = 0; u < n; u++) /* the bulk: every unit that sorts above the tail */
        if (smallest_first(&found[u], &sorted[tail - 1]) > 0)
            order[r++] = found[u];
    for (size_t i = tail; i > 0; i--)
        order[r++] = sorted[i - 1];
}

/* Groups the last ply's nodes by key into units, ranks and orders them. */
static bool group(UnitSet *set, const Frontier *last) {
    Frontier units = {0};
    uint32_t *unit_of = malloc((last->count + 1) * sizeof *unit_of);
    bool ok = unit_of != NULL;
    for (size_t j = 0; ok && j < last->count; j++) {
        size_t u;
        ok = frontier_add(&units, last->key[j], 0, (uint32_t)j, 0, last->paths[j], &u);
        unit_of[j] = (uint32_t)u;
    }
    size_t n = units.count;
    uint32_t *rank = NULL, *fill = NULL;
    Ranked *found = NULL, *sorted = NULL, *ranked = NULL;
    if (ok) {
        free(units.slots);
        units.slots = NULL;
        rank = malloc((n + 1) * sizeof *rank);
        fill = calloc(n + 1, sizeof *fill);
        found = malloc((n + 1) * sizeof *found);
        sorted = malloc((n + 1) * sizeof *sorted);
        ranked = malloc((n + 1) * sizeof *ranked);
        set->node = malloc((n + 1) * sizeof *set->node);
        set->paths = malloc((n + 1) * sizeof *set->paths);
        set->estimate = malloc((n + 1) * sizeof *set->estimate);
        set->first = malloc((n + 1) * sizeof *set->first);
        set->roots = malloc((last->count + 1) * sizeof *set->roots);
        ok = rank && fill && found && sorted && ranked && set->node && set->paths && set->estimate && set->first
             && set->roots;
    }
    if (ok) {
        for (size_t u = 0; u < n; u++) {
            Position pos;
            replay(set, set->ply, units.parent[u], &pos);
            found[u] = (Ranked){(uint64_t)gen_count_legal(&pos), u};
        }
        order_units(found, n, sorted, ranked);
        for (size_t j = 0; j < last->count; j++)
            fill[unit_of[j]]++; /* pairs per unit, for now */
        size_t next = 0;
        for (size_t r = 0; r < n; r++) {
            size_t u = ranked[r].unit;
            rank[u] = (uint32_t)r;
            set->node[r] = units.parent[u];
            set->paths[r] = units.paths[u];
            set->estimate[r] = ranked[r].estimate;
            set->first[r] = next;
            next += fill[u];
        }
        set->first[n] = next;
        memset(fill, 0, (n + 1) * sizeof *fill);
        for (size_t j = 0; j < last->count; j++) {
            size_t r = rank[unit_of[j]];
            set->roots[set->first[r] + fill[r]++] = (UnitRoot){last->root[j], last->paths[j]};
        }
        for (size_t r = 0; r < n; r++) /* by root: an insertion sort, as most units have one */
            for (size_t k = set->first[r] + 1; k < set->first[r + 1]; k++)
                for (size_t i = k; i > set->first[r] && set->roots[i - 1].root > set->roots[i].root; i--) {
                    UnitRoot swap = set->roots[i];
                    set->roots[i] = set->roots[i - 1];
                    set->roots[i - 1] = swap;
                }
        set->count = n;
    }
    frontier_free(&units);
    free(unit_of);
    free(rank);
    free(fill);
    free(found);
    free(sorted);
    free(ranked);
    return ok;
}

UnitSet *unit_set_create(const Position *root, int ply, size_t max_pairs, char *error, size_t error_size) {
    if (ply < 1 || ply > UNIT_MAX_PLY) {
        snprintf(error, error_size, "split ply %d is out of range 1..%d", ply, UNIT_MAX_PLY);
        return NULL;
    }
    UnitSet *set = calloc(1, sizeof *set);
    Frontier above = {0}, next = {0};
    size_t dummy;
    bool ok = set && frontier_add(&above, root->key, 0, 0, 0, 1, &dummy);
    if (ok)
        set->root = *root;
    int reached = 0;
    while (ok && reached < ply) {
        bool over = false;
        ok = expand(set, reached + 1, &above, &next, max_pairs, &over);
        if (!ok) {
            frontier_free(&next);
            ok = over; /* too many pairs: keep the ply reached */
            break;
        }
        reached++;
        /* The moves are kept for replaying: trimmed to size (a failed trim keeps them). */
        Move *move = realloc(next.move, (next.count + 1) * sizeof *move);
        uint32_t *parent = realloc(next.parent, (next.count + 1) * sizeof *parent);
        set->levels[reached] = (Level){parent ? parent : next.parent, move ? move : next.move};
        next.parent = NULL;
        next.move = NULL;
        frontier_free(&above);
        above = next;
        memset(&next, 0, sizeof next);
    }
    if (ok) {
        set->ply = reached;
        free(above.slots); /* grouping needs the nodes, not their index */
        above.slots = NULL;
        ok = group(set, &above);
    }
    if (!ok) {
        snprintf(error, error_size, "out of memory enumerating the positions %d plies down (%zu found)", ply,
                 above.count + next.count);
        unit_set_destroy(set);
        set = NULL;
    }
    frontier_free(&above);
    frontier_free(&next);
    return set;
}

const Position *unit_set_root(const UnitSet *set) { return &set->root; }

int unit_set_ply(const UnitSet *set) { return set->ply; }

size_t unit_set_count(const UnitSet *set) { return set->count; }

void unit_position(const UnitSet *set, size_t unit, Position *out) { replay(set, set->ply, set->node[unit], out); }

uint64_t unit_paths(const UnitSet *set, size_t unit) { return set->paths[unit]; }

int unit_roots(const UnitSet *set, size_t unit, const UnitRoot **roots) {
    *roots = set->roots + set->first[unit];
    return (int)(set->first[unit + 1] - set->first[unit]);
}

uint64_t unit_estimate(const UnitSet *set, size_t unit) { return set->estimate[unit]; }

/* SplitMix64's finaliser over the running hash and one more word. */
static uint64_t mix(uint64_t h, uint64_t word) {
    uint64_t z = h ^ word;
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

uint64_t unit_set_digest(const UnitSet *set) {
    uint64_t h = mix(0x756E697473ULL, (uint64_t)set->ply);
    h = mix(h, set->count);
    for (size_t u = 0; u < set->count; u++) {
        Position pos;
        unit_position(set, u, &pos);
        for (int quarter = 0; quarter < 4; quarter++) { /* 16 squares of 4 bits per word */
            uint64_t word = 0;
            for (int s = 0; s < 16; s++)
                word |= (uint64_t)pos.board[quarter * 16 + s] << (4 * s);
            h = mix(h, word);
        }
        uint64_t state = pos.side | (uint64_t)(pos_ep_capturable(&pos) ? pos.ep_square : SQ_NONE) << 8;
        for (int i = 0; i < 4; i++)
            if (pos.castling & (1 << i))
                state |= (uint64_t)(pos.castle_rook[i] + 1) << (16 + 8 * i);
        h = mix(h, state);
        const UnitRoot *roots;
        int n = unit_roots(set, u, &roots);
        for (int i = 0; i < n; i++)
            h = mix(mix(h, (uint64_t)roots[i].root), roots[i].paths);
    }
    return h;
}
