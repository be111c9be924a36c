/* perft.c — the recursive count. Invariants: a count is stored only when it is
 * complete (never after the stop flag cut it short), and only when it fits the 64-bit
 * table entry; the children's buckets are prefetched together before the first child
 * is made, so their cache misses overlap, and three plies above the leaves a whole
 * node's counting ahead of their probes (search_four). */
#include "perft.h"

/* Remaining depth at and above which the stop flag is polled: deep enough that the
 * poll costs nothing, shallow enough to stop within milliseconds. */
enum { STOP_POLL_DEPTH = 4 };

/* Adds to the leaves this thread has published: a relaxed load and store, as only this
 * thread writes them (readers may see a slightly old value). */
static inline void publish(PerftSearch *s, Count nodes) {
    if (s->leaves)
        atomic_store_explicit(s->leaves, atomic_load_explicit(s->leaves, memory_order_relaxed) + (uint64_t)nodes,
                              memory_order_relaxed);
}

/* Remaining depth at which a subtree with no table below it goes whole to the
 * generator's bulk counter (no move made, no key kept): below the stop poll depth, so
 * stopping stays as prompt as before. */
enum { BULK_DEPTH = 3 };

/* The men of the side to move after legal move `m`: ours are theirs, less what m takes
 * (castling's "capture" is of our own rook, so it takes nothing of theirs). */
static inline Bitboard men_after(const Position *pos, Move m) {
    Square taken = move_kind(m) == MOVE_EN_PASSANT ? (Square)(move_to(m) ^ 8) : move_to(m);
    return pos->by_color[!pos->side] & ~bb_square(taken);
}

/* The key of `pos` in table `t` (table_key). */
static inline Key128 key_in(const Table *t, const Position *pos) {
    return table_key(t, pos->key, pos->by_color[pos->side]);
}

/* The key in table `t` of the child `m` leads to, without making m. */
static inline Key128 key_after_in(const Table *t, const Position *pos, Move m) {
    return table_key(t, pos_key_after(pos, m), men_after(pos, m));
}

/* A node three plies above the leaves, its table probe missed, made ready to count:
 * a copy of it, its moves and its children's keys in the depth-2 table. */
typedef struct Pending {
    Position pos;
    MoveList list;
    Key128 keys[MAX_MOVES];
} Pending;

static inline void pending_prefetch(const Table *table2, const Pending *p) {
    for (int i = 0; i < p->list.count; i++)
        table_prefetch(table2, p->keys[i]);
}

/* Counts perft(3) of a pending node from its children's depth-2 entries, counting the
 * missing ones together (the node's bitboards read once), and stores it. The buckets
 * of the next pending node (`ahead`, or NULL) are prefetched once this node's probes
 * are done (they no longer wait behind them), so that they load during its counting.
 * (Prefetches issued together overlap; spread one or two per child they were slower.) */
static Count count_pending(PerftSearch *s, Pending *p, const Pending *ahead, const Table *table3,
                           const Table *table2) {
    Count nodes = 0;
    Move missed[MAX_MOVES];
    uint8_t missed_index[MAX_MOVES];
    uint64_t counts[MAX_MOVES];
    int misses = 0;
    for (int i = 0; i < p->list.count; i++) {
        uint64_t stored;
        s->counters[2].probes++;
        if (table_probe(table2, p->keys[i], &stored)) {
            s->counters[2].hits++;
            nodes += stored;
            continue;
        }
        missed[misses] = p->list.moves[i];
        missed_index[misses++] = (uint8_t)i;
    }
    if (ahead)
        pending_prefetch(table2, ahead);
    gen_count_replies_after(&p->pos, missed, misses, counts);
    for (int j = 0; j < misses; j++) {
        table_store(table2, p->keys[missed_index[j]], counts[j], &s->counters[2]);
        nodes += counts[j];
    }
    publish(s, nodes);
    table_store(table3, key_in(table3, &p->pos), (uint64_t)nodes, &s->counters[3]);
    return nodes;
}

/* The children of a node four plies above the leaves, with tables at depths 3 and 2:
 * each child missing from its table is made ready (moves and keys), then the one before
 * it is counted while the new one's buckets load. Depth-2 children found in their table
 * are never made. */
static Count search_four(PerftSearch *s, Position *pos, const MoveList *list, const Table *table3,
                         const Table *table2) {
    Pending slots[2];
    Pending *pending = NULL;
    int next = 0;
    Count nodes = 0;
    Undo undo;
    for (int i = 0; i < list->count; i++) {
        pos_make_move(pos, list->moves[i], &undo);
        uint64_t stored;
        s->counters[3].probes++;
        if (table_probe(table3, key_in(table3, pos), &stored)) {
            s->counters[3].hits++;
            publish(s, stored);
            nodes += stored;
            pos_unmake_move(pos, list->moves[i], &undo);
            continue;
        }
        Pending *ready = &slots[next];
        next ^= 1;
        ready->pos = *pos;
        pos_unmake_move(pos, list->moves[i], &undo);
        gen_legal(&ready->pos, &ready->list);
        for (int m = 0; m < ready->list.count; m++)
            ready->keys[m] = key_after_in(table2, &ready->pos, ready->list.moves[m]);
        if (pending)
            nodes += count_pending(s, pending, ready, table3, table2);
        else
            pending_prefetch(table2, ready);
        pending = ready;
    }
    if (pending)
        nodes += count_pending(s, pending, NULL, table3, table2);
    return nodes;
}

static Count search(PerftSearch *s, Position *pos, int depth) {
    const Table *table = table_for(s->tables, depth);
    uint64_t stored;
    if (table) {
        s->counters[depth].probes++;
        if (table_probe(table, key_in(table, pos), &stored)) {
            s->counters[depth].hits++;
            if (depth >= PERFT_PUBLISH_DEPTH)
                publish(s, stored);
            return stored;
        }
    }
    Count nodes = 0;
    if (depth == 2) {
        nodes = gen_count_replies(pos);
    } else if (depth == BULK_DEPTH && !table_for(s->tables, depth - 1)) {
        nodes = gen_count_perft(pos, depth);
    } else {
        if (depth >= STOP_POLL_DEPTH && s->stop && atomic_load_explicit(s->stop, memory_order_relaxed)) {
            s->stopped = true;
            return 0;
        }
        MoveList list;
        Undo undo;
        gen_legal(pos, &list);
        const Table *below = table_for(s->tables, depth - 1);
        if (below)
            for (int i = 0; i < list.count; i++)
                table_prefetch(below, key_after_in(below, pos, list.moves[i]));
        if (depth == 4 && below && table_for(s->tables, 2)) {
            nodes = search_four(s, pos, &list, below, table_for(s->tables, 2));
        } else {
            for (int i = 0; i < list.count && !s->stopped; i++) {
                pos_make_move(pos, list.moves[i], &undo);
                nodes += search(s, pos, depth - 1);
                pos_unmake_move(pos, list.moves[i], &undo);
            }
        }
        if (s->stopped)
            return 0;
    }
    if (depth == PERFT_PUBLISH_DEPTH)
        publish(s, nodes);
    if (table && nodes <= UINT64_MAX)
        table_store(table, key_in(table, pos), (uint64_t)nodes, &s->counters[depth]);
    return nodes;
}

/* Every move made and unmade, down to the leaves themselves. */
static uint64_t count_full(Position *pos, int depth) {
    MoveList list;
    Undo undo;
    uint64_t nodes = 0;
    gen_legal(pos, &list);
    for (int i = 0; i < list.count; i++) {
        pos_make_move(pos, list.moves[i], &undo);
        nodes += depth == 1 ? 1 : count_full(pos, depth - 1);
        pos_unmake_move(pos, list.moves[i], &undo);
    }
    return nodes;
}

Count perft_search(PerftSearch *s, Position *pos, int depth) {
    if (depth <= 0)
        return 1;
    if (s->full)
        return count_full(pos, depth);
    if (depth == 1)
        return (Count)gen_count_legal(pos);
    return search(s, pos, depth);
}

Count perft_count(Position *pos, int depth) {
    PerftSearch s = {NULL, NULL, NULL, false, false, NULL};
    return perft_search(&s, pos, depth);
}

int perft_divide(Position *pos, int depth, PerftDivision out[MAX_MOVES]) {
    MoveList list;
    Undo undo;
    gen_legal(pos, &list);
    for (int i = 0; i < list.count; i++) {
        pos_make_move(pos, list.moves[i], &undo);
        out[i].move = list.moves[i];
        out[i].count = perft_count(pos, depth - 1);
        pos_unmake_move(pos, list.moves[i], &undo);
    }
    return list.count;
}
