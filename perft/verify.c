/* verify.c — the cross-checks. Tree checks walk every node to the depth and stop at the
 * first disagreement; count checks compare perft totals depth by depth. */
#include "verify.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *verify_name(VerifyCheck check) {
    static const char *const names[VERIFY_NB] = {"checks", "split", "mirror", "hash", "keys", "notation"};
    return names[check];
}

const char *verify_description(VerifyCheck check) {
    static const char *const descriptions[VERIFY_NB] = {
        "the checking-move generator lists exactly the legal moves that give check, at every node",
        "captures + promotions + quiet moves = the legal moves, no overlap, no duplicates, at every node",
        "the colour-reversed position has the same perft at every depth",
        "perft hashed = unhashed, 1 thread = several, default Zobrist seed = another seed",
        "incremental key = key from scratch and = pos_key_after() after every move; unmake restores",
        "every move reads back from its SAN and its UCI; every node's FEN reads back the same"};
    return descriptions[check];
}

bool verify_drivers_create(VerifyDrivers *d, int threads, size_t hash_bytes, char *error, size_t error_size) {
    memset(d, 0, sizeof *d);
    if (!driver_create(&d->plain, 1, 0, error, error_size))
        return false;
    if (!driver_create(&d->threaded, threads, hash_bytes, error, error_size)) {
        driver_destroy(&d->plain);
        return false;
    }
    if (!driver_create(&d->rekeyed, threads, hash_bytes, error, error_size)) {
        driver_destroy(&d->plain);
        driver_destroy(&d->threaded);
        return false;
    }
    d->threaded.parallel_depth = d->rekeyed.parallel_depth = 1; /* every run on every thread */
    zob_keys_make(&d->other_keys, VERIFY_OTHER_SEED);
    return true;
}

void verify_drivers_destroy(VerifyDrivers *d) {
    driver_destroy(&d->plain);
    driver_destroy(&d->threaded);
    driver_destroy(&d->rekeyed);
}

typedef struct Walk {
    VerifyCheck check;
    VerifyResult *result;
} Walk;

static void fail(Walk *w, const Position *pos, const char *format, ...) __attribute__((format(printf, 3, 4)));
static void fail(Walk *w, const Position *pos, const char *format, ...) {
    char fen[FEN_BUFFER_SIZE], what[300];
    va_list args;
    va_start(args, format);
    vsnprintf(what, sizeof what, format, args);
    va_end(args);
    snprintf(w->result->detail, sizeof w->result->detail, "at %s: %s", fen_write(pos, fen), what);
    w->result->pass = false;
}

static bool in_list(const MoveList *list, Move m) {
    for (int i = 0; i < list->count; i++)
        if (list->moves[i] == m)
            return true;
    return false;
}

static void check_checks(Walk *w, Position *pos, const MoveList *legal) {
    MoveList checks;
    char uci[UCI_MOVE_SIZE];
    gen_checks(pos, &checks);
    int giving = 0;
    for (int i = 0; i < legal->count && w->result->pass; i++) {
        Undo undo;
        pos_make_move(pos, legal->moves[i], &undo);
        bool check = pos_in_check(pos);
        pos_unmake_move(pos, legal->moves[i], &undo);
        giving += check;
        if (check != in_list(&checks, legal->moves[i]))
            fail(w, pos, "%s %s check but the checks generator %s it", move_to_uci(pos, legal->moves[i], uci),
                 check ? "gives" : "does not give", check ? "misses" : "lists");
    }
    if (w->result->pass && giving != checks.count)
        fail(w, pos, "the checks generator lists %d moves, %d legal moves give check", checks.count, giving);
}

static void check_split(Walk *w, Position *pos, const MoveList *legal) {
    MoveList parts[3];
    static const char *const names[3] = {"captures", "promotions", "quiet moves"};
    char uci[UCI_MOVE_SIZE];
    gen_captures(pos, &parts[0]);
    gen_promotions(pos, &parts[1]);
    gen_quiets(pos, &parts[2]);
    for (int i = 0; i < legal->count && w->result->pass; i++) {
        int found = 0;
        for (int p = 0; p < 3; p++)
            found += in_list(&parts[p], legal->moves[i]);
        for (int j = 0; j < i; j++)
            if (legal->moves[j] == legal->moves[i])
                fail(w, pos, "the legal moves list %s twice", move_to_uci(pos, legal->moves[i], uci));
        if (found != 1 && w->result->pass)
            fail(w, pos, "%s is in %d of captures, promotions and quiet moves, not 1",
                 move_to_uci(pos, legal->moves[i], uci), found);
    }
    for (int p = 0; p < 3 && w->result->pass; p++)
        for (int i = 0; i < parts[p].count && w->result->pass; i++)
            if (!in_list(legal, parts[p].moves[i]))
                fail(w, pos, "%s lists %s, which is not a legal move", names[p],
                     move_to_uci(pos, parts[p].moves[i], uci));
    if (w->result->pass && parts[0].count + parts[1].count + parts[2].count != legal->count)
        fail(w, pos, "the parts hold %d moves, the legal moves %d",
             parts[0].count + parts[1].count + parts[2].count, legal->count);
}

static void check_notation(Walk *w, Position *pos, const MoveList *legal) {
    char fen[FEN_BUFFER_SIZE], san[SAN_MOVE_SIZE], uci[UCI_MOVE_SIZE], why[FEN_ERROR_SIZE];
    Position again;
    if (!fen_parse(&again, fen_write(pos, fen), pos->chess960, why, sizeof why))
        fail(w, pos, "its own FEN does not read back: %s", why);
    else if (!pos_equal(pos, &again))
        fail(w, pos, "its own FEN reads back as another position");
    for (int i = 0; i < legal->count && w->result->pass; i++) {
        Move m = legal->moves[i];
        const char *reason = NULL;
        if (move_parse_san(pos, move_to_san(pos, m, san), &reason) != m)
            fail(w, pos, "%s written as SAN %s reads back %s", move_to_uci(pos, m, uci), san,
                 reason ? reason : "as another move");
        else if (move_parse_uci(pos, move_to_uci(pos, m, uci)) != m)
            fail(w, pos, "%s does not read back from its UCI", uci);
    }
}

/* Walks every node to `depth` below `pos`, checking each on the way. */
static void walk(Walk *w, Position *pos, int depth) {
    MoveList legal;
    gen_legal(pos, &legal);
    w->result->nodes++;
    switch (w->check) {
    case VERIFY_CHECKS: check_checks(w, pos, &legal); break;
    case VERIFY_SPLIT: check_split(w, pos, &legal); break;
    case VERIFY_NOTATION: check_notation(w, pos, &legal); break;
    default: break;
    }
    for (int i = 0; i < legal.count && w->result->pass; i++) {
        Position before = *pos;
        Undo undo;
        Move m = legal.moves[i];
        Key128 foretold = pos_key_after(pos, m);
        pos_make_move(pos, m, &undo);
        if (w->check == VERIFY_KEYS) {
            char uci[UCI_MOVE_SIZE];
            if (!zob_equal(pos->key, pos_compute_key(pos)))
                fail(w, &before, "after %s the incremental key differs from the key from scratch",
                     move_to_uci(&before, m, uci));
            else if (!zob_equal(pos->key, foretold))
                fail(w, &before, "after %s the key differs from pos_key_after()", move_to_uci(&before, m, uci));
        }
        if (depth > 1 && w->result->pass)
            walk(w, pos, depth - 1);
        pos_unmake_move(pos, m, &undo);
        if (w->check == VERIFY_KEYS && w->result->pass && !pos_equal(pos, &before)) {
            char uci[UCI_MOVE_SIZE];
            fail(w, &before, "unmaking %s does not restore the position", move_to_uci(&before, m, uci));
        }
    }
}

static void check_mirror(const Position *pos, int depth, VerifyResult *result) {
    Position mirrored, back;
    pos_mirror(pos, &mirrored);
    pos_mirror(&mirrored, &back);
    if (!pos_equal(pos, &back)) {
        snprintf(result->detail, sizeof result->detail, "mirroring twice does not give the position back");
        result->pass = false;
        return;
    }
    for (int d = 1; d <= depth && result->pass; d++) {
        Position a = *pos, b = mirrored;
        Count original = perft_count(&a, d), reversed = perft_count(&b, d);
        result->nodes += (uint64_t)original;
        if (original != reversed) {
            char x[COUNT_TEXT_SIZE], y[COUNT_TEXT_SIZE], fen[FEN_BUFFER_SIZE];
            snprintf(result->detail, sizeof result->detail, "depth %d: %s, colour-reversed (%s) %s", d,
                     count_format(original, false, x), fen_write(&mirrored, fen), count_format(reversed, false, y));
            result->pass = false;
        }
    }
}

static void check_hash(const Position *pos, int depth, VerifyDrivers *drivers, VerifyResult *result) {
    /* The same position under the other key set; its tables never see default keys. */
    Position rekeyed = *pos;
    pos_set_keys(&rekeyed, &drivers->other_keys);
    for (int d = 1; d <= depth && result->pass; d++) {
        RunReport plain, threaded, other;
        driver_run(&drivers->plain, pos, d, NULL, NULL, &plain);
        driver_run(&drivers->threaded, pos, d, NULL, NULL, &threaded);
        driver_run(&drivers->rekeyed, &rekeyed, d, NULL, NULL, &other);
        result->nodes += (uint64_t)plain.total;
        if (plain.total != threaded.total || plain.total != other.total) {
            char a[COUNT_TEXT_SIZE], b[COUNT_TEXT_SIZE], c[COUNT_TEXT_SIZE];
            snprintf(result->detail, sizeof result->detail,
                     "depth %d: 1 thread unhashed %s, %d threads hashed %s, seed %#llx %s", d,
                     count_format(plain.total, false, a), threaded.threads, count_format(threaded.total, false, b),
                     (unsigned long long)zob_keys_seed(rekeyed.keys), count_format(other.total, false, c));
            result->pass = false;
        }
    }
}

void verify_position(VerifyCheck check, const char *fen, bool chess960, int depth, VerifyDrivers *drivers,
                     VerifyResult *result) {
    memset(result, 0, sizeof *result);
    result->pass = true;
    Position pos;
    if (!fen_parse(&pos, fen, chess960, result->detail, sizeof result->detail)) {
        result->pass = false;
        return;
    }
    if (check == VERIFY_MIRROR) {
        check_mirror(&pos, depth, result);
    } else if (check == VERIFY_HASH) {
        check_hash(&pos, depth, drivers, result);
    } else {
        Walk w = {check, result};
        walk(&w, &pos, depth);
    }
}
