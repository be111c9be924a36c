/* check.c — the bisection. The engine is always given the start FEN and the moves
 * played so far, so what it is asked is exactly what a user would paste into it. */
#include "check.h"

#include <stdio.h>
#include <string.h>

static void add_move(char list[][8], int *count, const char *move) {
    snprintf(list[*count], 8, "%s", move);
    (*count)++;
}

/* Compares the two move lists of one divide; true when they hold the same moves once. */
static bool same_moves(const Position *pos, const RunReport *ours, const EngineDivide *theirs, CheckFailure *f) {
    f->missing_count = f->extra_count = f->duplicated_count = 0;
    int seen[MAX_MOVES] = {0};
    for (int i = 0; i < theirs->count; i++) {
        Move m = move_parse_uci(pos, theirs->lines[i].move);
        int index = -1;
        for (int r = 0; r < ours->root_moves && m != MOVE_NONE; r++)
            if (ours->roots[r].move == m)
                index = r;
        if (index < 0)
            add_move(f->extra, &f->extra_count, theirs->lines[i].move);
        else if (++seen[index] == 2)
            add_move(f->duplicated, &f->duplicated_count, theirs->lines[i].move);
    }
    for (int r = 0; r < ours->root_moves; r++) {
        if (!seen[r]) {
            char uci[UCI_MOVE_SIZE];
            add_move(f->missing, &f->missing_count, move_to_uci(pos, ours->roots[r].move, uci));
        }
    }
    return !f->missing_count && !f->extra_count && !f->duplicated_count;
}

/* The engine's count for our root move `m` (the lists agree, so there is exactly one). */
static Count engine_count(const Position *pos, const EngineDivide *theirs, Move m) {
    for (int i = 0; i < theirs->count; i++)
        if (move_parse_uci(pos, theirs->lines[i].move) == m)
            return theirs->lines[i].nodes;
    return 0;
}

static int compare_moves_by_uci(const Position *pos, Move a, Move b) {
    char x[UCI_MOVE_SIZE], y[UCI_MOVE_SIZE];
    return strcmp(move_to_uci(pos, a, x), move_to_uci(pos, b, y));
}

CheckOutcome check_position(Engine *engine, Driver *driver, const char *fen, bool chess960, int depth,
                            CheckFailure *f) {
    memset(f, 0, sizeof *f);
    Position pos;
    if (!fen_parse(&pos, fen, chess960, engine->error, sizeof engine->error))
        return CHECK_BROKEN;
    /* The start FEN as perftkit writes it: what both sides are given, and what is reported. */
    const char *start = fen_write(&pos, f->start_fen);
    for (int d = depth;; d--) {
        RunReport ours;
        EngineDivide theirs;
        driver_run(driver, &pos, d, NULL, NULL, &ours);
        f->divides++;
        if (!engine_divide(engine, start, f->path, d, &theirs))
            return CHECK_BROKEN;
        fen_write(&pos, f->reached_fen);
        f->depth = d;
        if (!same_moves(&pos, &ours, &theirs, f))
            return CHECK_DIFFER;
        /* The lists agree: find the first root move, in UCI order, whose count differs. */
        Move first = MOVE_NONE;
        Count sum = 0;
        for (int r = 0; r < ours.root_moves; r++) {
            Count mine = ours.roots[r].count, its = engine_count(&pos, &theirs, ours.roots[r].move);
            sum += its;
            if (mine != its && (first == MOVE_NONE || compare_moves_by_uci(&pos, ours.roots[r].move, first) < 0))
                first = ours.roots[r].move;
        }
        char text[COUNT_TEXT_SIZE], other[COUNT_TEXT_SIZE];
        if (theirs.has_total && theirs.total != sum) {
            snprintf(f->note, sizeof f->note, "the engine's total %s is not the sum of its move lines, %s",
                     count_format(theirs.total, false, text), count_format(sum, false, other));
            return CHECK_DIFFER;
        }
        if (first == MOVE_NONE) {
            if (d == depth)
                return CHECK_AGREE;
            snprintf(f->note, sizeof f->note,
                     "the engine's count for the last move differs from the sum of its own divide one ply "
                     "deeper (it answers the same subtree differently)");
            return CHECK_DIFFER;
        }
        char uci[UCI_MOVE_SIZE];
        move_to_uci(&pos, first, uci);
        if (d == 1) { /* the same moves, yet a count other than 1 */
            snprintf(f->note, sizeof f->note, "at depth 1 the engine counts %s as %s, not 1", uci,
                     count_format(engine_count(&pos, &theirs, first), false, text));
            return CHECK_DIFFER;
        }
        size_t used = strlen(f->path);
        snprintf(f->path + used, sizeof f->path - used, "%s%s", used ? " " : "", uci);
        Undo undo;
        pos_make_move(&pos, first, &undo);
    }
}
