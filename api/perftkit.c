/* perftkit.c — the public API as a thin layer over core/ (positions, FEN, moves,
 * notation), perft/ (the driver: threads, tables, limits) and suites/ (EPD lines).
 * Invariants: a PerftkitPosition's history holds exactly the moves made since its FEN
 * was set, each with the Undo that takes it back; every PerftkitMove taken from the
 * caller is checked with gen_is_legal before the core sees it (the core trusts its
 * moves); the only global is the init flag, written once under pthread_once. */
#include "../include/perftkit/perftkit.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/core.h"
#include "../perft/driver.h"
#include "../suites/epd.h"

/* The public sizes promise to suffice: they must follow the core's (as ints: the
 * enums are of different types). */
_Static_assert((int)PERFTKIT_MAX_DEPTH == (int)PERFT_MAX_DEPTH, "PERFTKIT_MAX_DEPTH follows PERFT_MAX_DEPTH");
_Static_assert((int)PERFTKIT_MAX_MOVES >= (int)MAX_MOVES, "PERFTKIT_MAX_MOVES holds every move list");
_Static_assert((int)PERFTKIT_FEN_SIZE >= (int)FEN_BUFFER_SIZE, "PERFTKIT_FEN_SIZE holds every FEN");
_Static_assert((int)PERFTKIT_UCI_SIZE >= (int)UCI_MOVE_SIZE && (int)PERFTKIT_SAN_SIZE >= (int)SAN_MOVE_SIZE,
               "move texts fit");

struct PerftkitPosition {
    Position pos;
    struct Played {
        Move move;
        Undo undo;
    } *history;        /* malloc'd, grown by doubling */
    size_t made, room; /* moves made and taken back yet; capacity of history */
};

struct PerftkitCounter {
    Driver driver;
    RunLimits limits;
    RunReport report; /* the last run's: large, so kept here rather than on the stack */
};

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static atomic_bool initialised;

static void init_tables(void) {
    core_init();
    atomic_store(&initialised, true);
}

PerftkitStatus perftkit_init(void) {
    pthread_once(&init_once, init_tables);
    return PERFTKIT_OK;
}

const char *perftkit_version(void) { return PERFTKIT_VERSION; }

const char *perftkit_status_text(PerftkitStatus status) {
    switch (status) {
    case PERFTKIT_OK: return "ok";
    case PERFTKIT_ERROR_ARGUMENT: return "invalid argument";
    case PERFTKIT_ERROR_UNINITIALISED: return "perftkit_init() has not been called";
    case PERFTKIT_ERROR_MEMORY: return "out of memory";
    case PERFTKIT_ERROR_BUFFER: return "output buffer too small";
    case PERFTKIT_ERROR_FEN: return "invalid FEN";
    case PERFTKIT_ERROR_MOVE: return "not a legal move";
    case PERFTKIT_ERROR_NO_MOVE_MADE: return "no move to take back";
    case PERFTKIT_ERROR_EPD: return "malformed suite line";
    case PERFTKIT_MISMATCH: return "count differs from the expected one";
    case PERFTKIT_STOPPED_TIME: return "stopped by the time limit";
    case PERFTKIT_STOPPED_NODES: return "stopped by the node limit";
    case PERFTKIT_STOPPED_INTERRUPT: return "interrupted";
    }
    return "unknown status";
}

/* Writes the reason into the caller's buffer (which may be NULL); returns `status`. */
static PerftkitStatus fail(PerftkitStatus status, char *error, size_t size, const char *format, ...)
    __attribute__((format(printf, 4, 5)));
static PerftkitStatus fail(PerftkitStatus status, char *error, size_t size, const char *format, ...) {
    if (error && size > 0) {
        va_list args;
        va_start(args, format);
        vsnprintf(error, size, format, args);
        va_end(args);
    }
    return status;
}

/* Copies `text` whole into out, or nothing when it does not fit. */
static PerftkitStatus put_text(const char *text, char *out, size_t size) {
    size_t length = strlen(text);
    if (!out || length >= size)
        return PERFTKIT_ERROR_BUFFER;
    memcpy(out, text, length + 1);
    return PERFTKIT_OK;
}

static PerftkitCount to_public(Count n) { return (PerftkitCount){(uint64_t)n, (uint64_t)(n >> 64)}; }
static Count from_public(PerftkitCount n) { return (Count)n.hi << 64 | n.lo; }

PerftkitStatus perftkit_count_text(PerftkitCount count, char *out, size_t size) {
    char text[COUNT_TEXT_SIZE];
    return put_text(count_format(from_public(count), false, text), out, size);
}

/* ---- Positions ---- */

PerftkitStatus perftkit_position_new(PerftkitPosition **out) {
    if (!out)
        return PERFTKIT_ERROR_ARGUMENT;
    *out = NULL;
    if (!atomic_load(&initialised))
        return PERFTKIT_ERROR_UNINITIALISED;
    PerftkitPosition *p = calloc(1, sizeof *p);
    if (!p)
        return PERFTKIT_ERROR_MEMORY;
    pos_set_startpos(&p->pos);
    *out = p;
    return PERFTKIT_OK;
}

PerftkitStatus perftkit_position_copy(const PerftkitPosition *pos, PerftkitPosition **out) {
    if (out)
        *out = NULL;
    if (!pos || !out)
        return PERFTKIT_ERROR_ARGUMENT;
    PerftkitPosition *p = malloc(sizeof *p);
    if (!p)
        return PERFTKIT_ERROR_MEMORY;
    *p = *pos;
    p->history = NULL;
    p->room = 0;
    if (pos->made) {
        p->history = malloc(pos->made * sizeof *p->history);
        if (!p->history) {
            free(p);
            return PERFTKIT_ERROR_MEMORY;
        }
        memcpy(p->history, pos->history, pos->made * sizeof *p->history);
        p->room = pos->made;
    }
    *out = p;
    return PERFTKIT_OK;
}

void perftkit_position_free(PerftkitPosition *pos) {
    if (pos)
        free(pos->history);
    free(pos);
}

PerftkitStatus perftkit_position_set_fen(PerftkitPosition *pos, const char *fen, unsigned flags, char *error,
                                         size_t error_size) {
    if (!pos || !fen || (flags & ~(unsigned)PERFTKIT_CHESS960))
        return fail(PERFTKIT_ERROR_ARGUMENT, error, error_size, "%s", !pos || !fen ? "no position or no FEN"
                                                                                   : "unknown flags");
    Position parsed;
    char reason[FEN_ERROR_SIZE];
    if (!fen_parse(&parsed, fen, flags & PERFTKIT_CHESS960, reason, sizeof reason))
        return fail(PERFTKIT_ERROR_FEN, error, error_size, "%s", reason);
    pos->pos = parsed;
    pos->made = 0;
    return PERFTKIT_OK;
}

PerftkitStatus perftkit_position_fen(const PerftkitPosition *pos, char *out, size_t size) {
    if (!pos)
        return PERFTKIT_ERROR_ARGUMENT;
    char fen[FEN_BUFFER_SIZE];
    return put_text(fen_write(&pos->pos, fen), out, size);
}

bool perftkit_position_white_to_move(const PerftkitPosition *pos) { return pos && pos_side(&pos->pos) == WHITE; }

bool perftkit_position_in_check(const PerftkitPosition *pos) { return pos && pos_in_check(&pos->pos); }

/* ---- Moves ---- */

/* The core's move for `move` when it is legal in `pos`, else MOVE_NONE. */
static Move legal(const Position *pos, PerftkitMove move) {
    if (move == 0 || move > UINT16_MAX)
        return MOVE_NONE;
    return gen_is_legal(pos, (Move)move) ? (Move)move : MOVE_NONE;
}

size_t perftkit_legal_moves(const PerftkitPosition *pos, PerftkitMove *moves, size_t capacity) {
    if (!pos)
        return 0;
    MoveList list;
    size_t n = (size_t)gen_legal(&pos->pos, &list);
    for (size_t i = 0; i < n && i < capacity && moves; i++)
        moves[i] = list.moves[i];
    return n;
}

PerftkitStatus perftkit_make_move(PerftkitPosition *pos, PerftkitMove move) {
    if (!pos)
        return PERFTKIT_ERROR_ARGUMENT;
    Move m = legal(&pos->pos, move);
    if (m == MOVE_NONE)
        return PERFTKIT_ERROR_MOVE;
    if (pos->made == pos->room) {
        size_t room = pos->room ? 2 * pos->room : 64;
        struct Played *grown = realloc(pos->history, room * sizeof *grown);
        if (!grown)
            return PERFTKIT_ERROR_MEMORY;
        pos->history = grown;
        pos->room = room;
    }
    struct Played *played = &pos->history[pos->made++];
    played->move = m;
    pos_make_move(&pos->pos, m, &played->undo);
    return PERFTKIT_OK;
}

PerftkitStatus perftkit_unmake_move(PerftkitPosition *pos) {
    if (!pos)
        return PERFTKIT_ERROR_ARGUMENT;
    if (pos->made == 0)
        return PERFTKIT_ERROR_NO_MOVE_MADE;
    const struct Played *played = &pos->history[--pos->made];
    pos_unmake_move(&pos->pos, played->move, &played->undo);
    return PERFTKIT_OK;
}

PerftkitStatus perftkit_move_from_uci(const PerftkitPosition *pos, const char *text, PerftkitMove *move,
                                      char *error, size_t error_size) {
    if (!pos || !text || !move)
        return fail(PERFTKIT_ERROR_ARGUMENT, error, error_size, "no position, text or move");
    char shown[TEXT_QUOTE_SIZE];
    *move = move_parse_uci(&pos->pos, text);
    if (*move == MOVE_NONE)
        return fail(PERFTKIT_ERROR_MOVE, error, error_size, "'%s' is not a legal move here in UCI notation",
                    text_quote(text, shown));
    return PERFTKIT_OK;
}

PerftkitStatus perftkit_move_from_san(const PerftkitPosition *pos, const char *text, PerftkitMove *move,
                                      char *error, size_t error_size) {
    if (!pos || !text || !move)
        return fail(PERFTKIT_ERROR_ARGUMENT, error, error_size, "no position, text or move");
    char shown[TEXT_QUOTE_SIZE];
    const char *why = "not a legal move";
    *move = move_parse_san(&pos->pos, text, &why);
    if (*move == MOVE_NONE)
        return fail(PERFTKIT_ERROR_MOVE, error, error_size, "'%s': %s", text_quote(text, shown), why);
    return PERFTKIT_OK;
}

PerftkitStatus perftkit_move_uci(const PerftkitPosition *pos, PerftkitMove move, char *out, size_t size) {
    if (!pos)
        return PERFTKIT_ERROR_ARGUMENT;
    Move m = legal(&pos->pos, move);
    if (m == MOVE_NONE)
        return PERFTKIT_ERROR_MOVE;
    char text[UCI_MOVE_SIZE];
    return put_text(move_to_uci(&pos->pos, m, text), out, size);
}

PerftkitStatus perftkit_move_san(const PerftkitPosition *pos, PerftkitMove move, char *out, size_t size) {
    if (!pos)
        return PERFTKIT_ERROR_ARGUMENT;
    Move m = legal(&pos->pos, move);
    if (m == MOVE_NONE)
        return PERFTKIT_ERROR_MOVE;
    char text[SAN_MOVE_SIZE];
    return put_text(move_to_san(&pos->pos, m, text), out, size);
}

/* ---- Counting ---- */

enum { MAX_THREADS = 1024 };

PerftkitStatus perftkit_counter_new(int threads, size_t hash_mb, PerftkitCounter **out, char *error,
                                    size_t error_size) {
    if (!out)
        return fail(PERFTKIT_ERROR_ARGUMENT, error, error_size, "no place for the counter");
    *out = NULL;
    if (!atomic_load(&initialised))
        return fail(PERFTKIT_ERROR_UNINITIALISED, error, error_size, "perftkit_init() has not been called");
    if (threads < 0 || threads > MAX_THREADS)
        return fail(PERFTKIT_ERROR_ARGUMENT, error, error_size, "threads %d is out of range 0..%d", threads,
                    MAX_THREADS);
    if (hash_mb > (SIZE_MAX >> 20))
        return fail(PERFTKIT_ERROR_ARGUMENT, error, error_size, "hash %zu MB is more than the address space",
                    hash_mb);
    PerftkitCounter *c = calloc(1, sizeof *c);
    if (!c)
        return fail(PERFTKIT_ERROR_MEMORY, error, error_size, "no memory for a counter");
    char reason[160];
    if (!driver_create(&c->driver, threads, hash_mb << 20, reason, sizeof reason)) {
        free(c);
        return fail(PERFTKIT_ERROR_MEMORY, error, error_size, "hash %zu MB: %s", hash_mb, reason);
    }
    *out = c;
    return PERFTKIT_OK;
}

void perftkit_counter_free(PerftkitCounter *counter) {
    if (counter)
        driver_destroy(&counter->driver);
    free(counter);
}

PerftkitStatus perftkit_counter_set_limits(PerftkitCounter *counter, double max_seconds, uint64_t max_nodes) {
    if (!counter || !(max_seconds >= 0) || isinf(max_seconds))
        return PERFTKIT_ERROR_ARGUMENT;
    counter->limits.max_seconds = max_seconds;
    counter->limits.max_nodes = max_nodes;
    return PERFTKIT_OK;
}

void perftkit_counter_set_interrupt(PerftkitCounter *counter, const volatile sig_atomic_t *flag) {
    if (counter)
        counter->limits.interrupt = flag;
}

/* Runs perft(depth) into counter->report; the status of the run. */
static PerftkitStatus run(PerftkitCounter *counter, const PerftkitPosition *pos, int depth) {
    RunReport *report = &counter->report;
    driver_run(&counter->driver, &pos->pos, depth, &counter->limits, NULL, report);
    switch (report->status) {
    case RUN_COMPLETED:
    case RUN_NO_MOVES: return PERFTKIT_OK;
    case RUN_TIME_LIMIT: return PERFTKIT_STOPPED_TIME;
    case RUN_NODE_LIMIT: return PERFTKIT_STOPPED_NODES;
    case RUN_INTERRUPTED: return PERFTKIT_STOPPED_INTERRUPT;
    case RUN_BAD_UNITS: return PERFTKIT_ERROR_MEMORY; /* no memory even for the root moves' units */
    case RUN_NO_MEMORY: return PERFTKIT_ERROR_MEMORY;
    case RUN_ABANDONED: break; /* distributed runs only */
    }
    return PERFTKIT_ERROR_MEMORY;
}

PerftkitStatus perftkit_perft(PerftkitCounter *counter, const PerftkitPosition *pos, int depth,
                              PerftkitCount *total) {
    if (!counter || !pos || depth < 0 || depth > PERFTKIT_MAX_DEPTH)
        return PERFTKIT_ERROR_ARGUMENT;
    PerftkitStatus status = run(counter, pos, depth);
    if (total)
        *total = to_public(counter->report.total);
    return status;
}

PerftkitStatus perftkit_divide(PerftkitCounter *counter, const PerftkitPosition *pos, int depth,
                               PerftkitDivision *out, size_t capacity, size_t *moves, PerftkitCount *total) {
    if (!counter || !pos || depth < 1 || depth > PERFTKIT_MAX_DEPTH || (capacity && !out))
        return PERFTKIT_ERROR_ARGUMENT;
    PerftkitStatus status = run(counter, pos, depth);
    const RunReport *report = &counter->report;
    for (size_t i = 0; i < (size_t)report->root_moves && i < capacity; i++)
        out[i] = (PerftkitDivision){report->roots[i].move, report->roots[i].complete,
                                    to_public(report->roots[i].count)};
    if (moves)
        *moves = (size_t)report->root_moves;
    if (total)
        *total = to_public(report->total);
    return status;
}

/* ---- Suites ---- */

PerftkitStatus perftkit_epd_run(PerftkitCounter *counter, const char *line, unsigned flags, int max_depth,
                                PerftkitEpdResult *result, char *error, size_t error_size) {
    PerftkitEpdResult ignored;
    if (!result)
        result = &ignored;
    memset(result, 0, sizeof *result);
    if (!counter || !line || max_depth < 0 || (flags & ~(unsigned)PERFTKIT_CHESS960))
        return fail(PERFTKIT_ERROR_ARGUMENT, error, error_size, "%s",
                    max_depth < 0 ? "max_depth is negative" : "no counter or line, or unknown flags");
    EpdRecord record;
    char reason[EPD_ERROR_SIZE];
    switch (epd_parse_line(line, &record, reason, sizeof reason)) {
    case EPD_NOT_A_RECORD: return PERFTKIT_OK;
    case EPD_MALFORMED: return fail(PERFTKIT_ERROR_EPD, error, error_size, "%s", reason);
    case EPD_RECORD: break;
    }
    PerftkitPosition pos = {.history = NULL};
    char fen_reason[FEN_ERROR_SIZE], shown[TEXT_QUOTE_SIZE];
    if (!fen_parse(&pos.pos, record.fen, flags & PERFTKIT_CHESS960, fen_reason, sizeof fen_reason))
        return fail(PERFTKIT_ERROR_FEN, error, error_size, "bad FEN '%s': %s", text_quote(record.fen, shown),
                    fen_reason);
    for (int i = 0; i < record.expectation_count; i++) {
        const EpdExpectation *e = &record.expect[i];
        if (max_depth && e->depth > max_depth)
            break; /* depths increase */
        PerftkitStatus status = run(counter, &pos, e->depth);
        if (status != PERFTKIT_OK)
            return fail(status, error, error_size, "depth %d: %s", e->depth, perftkit_status_text(status));
        result->depths++;
        if (counter->report.total != e->nodes) {
            char expected[COUNT_TEXT_SIZE], got[COUNT_TEXT_SIZE];
            result->failed_depth = e->depth;
            result->expected = to_public(e->nodes);
            result->got = to_public(counter->report.total);
            return fail(PERFTKIT_MISMATCH, error, error_size, "depth %d: expected %s, got %s", e->depth,
                        count_format(e->nodes, false, expected), count_format(counter->report.total, false, got));
        }
    }
    return PERFTKIT_OK;
}
