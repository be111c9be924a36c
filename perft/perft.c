/* perft.c — the recursive count. Invariants: a count is stored only when it is
 * complete (never after the stop flag cut it short), and only when it fits the 64-bit
 * table entry; the children's buckets are prefetched before the first child is made,
 * so their cache misses overlap. */
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

static Count search(PerftSearch *s, Position *pos, int depth) {
    const Table *table = table_for(s->tables, depth);
    uint64_t stored;
    if (table) {
        s->counters[depth].probes++;
        if (table_probe(table, pos->key, &stored)) {
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
                table_prefetch(below, pos_key_after(pos, list.moves[i]));
        for (int i = 0; i < list.count && !s->stopped; i++) {
            pos_make_move(pos, list.moves[i], &undo);
            nodes += search(s, pos, depth - 1);
            pos_unmake_move(pos, list.moves[i], &undo);
        }
        if (s->stopped)
            return 0;
    }
    if (depth == PERFT_PUBLISH_DEPTH)
        publish(s, nodes);
    if (table && nodes <= UINT64_MAX)
        table_store(table, pos->key, (uint64_t)nodes, &s->counters[depth]);
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
