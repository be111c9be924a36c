/* perftkit.h — perftkit's public C API: chess and Chess960 positions from and to FEN,
 * legal moves, make and unmake, moves as UCI and SAN text, exact perft counts and divides
 * with hash tables, threads and limits, and one EPD suite line checked. Link with
 * `pkg-config --cflags --libs perftkit`.
 *
 * Contract, for every call below:
 * - Errors come back as values: a PerftkitStatus, and where there is more to say a
 *   one-line reason written into the caller's `error` buffer (at most error_size bytes,
 *   always terminated when error_size > 0; error may be NULL). No call prints, exits,
 *   aborts or raises a signal on any input; outside text quoted in a reason is escaped.
 * - Ownership: handles are opaque. What a *_new or *_copy call makes, the caller owns and
 *   gives back to the matching *_free (NULL is accepted). No call keeps a pointer to the
 *   caller's memory after it returns, except the interrupt flag of
 *   perftkit_counter_set_interrupt().
 * - Threads: perftkit_init() may be called from any thread, any number of times. After
 *   it, calls on different handles may run at the same time on any threads. Calls that
 *   take a const handle may share it between threads; a call that takes a non-const
 *   handle needs it to itself while it runs. A counter runs one count at a time.
 * - Moves (PerftkitMove) are values that mean something only in the position they were
 *   made for; every call that takes one checks that it is legal there.
 * - Stability (SemVer, see README "Using perftkit as a library"): within one major
 *   version (one soname) the calls, types and constants here keep their meaning and
 *   layout; a later minor version may only add. Everything not declared in this header
 *   and perftkit_version.h is internal and not exported from the shared library. */
#ifndef PERFTKIT_PERFTKIT_H
#define PERFTKIT_PERFTKIT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <perftkit/perftkit_version.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum PerftkitStatus {
    PERFTKIT_OK = 0,
    PERFTKIT_ERROR_ARGUMENT,      /* a NULL pointer, a depth or a number out of range */
    PERFTKIT_ERROR_UNINITIALISED, /* perftkit_init() has not been called */
    PERFTKIT_ERROR_MEMORY,        /* memory refused (hash tables, positions, work units) */
    PERFTKIT_ERROR_BUFFER,        /* an output buffer too small for the text: nothing written */
    PERFTKIT_ERROR_FEN,           /* a FEN rejected: malformed or an impossible position */
    PERFTKIT_ERROR_MOVE,          /* not a legal move of the position */
    PERFTKIT_ERROR_NO_MOVE_MADE,  /* unmake with no move made since the FEN was set */
    PERFTKIT_ERROR_EPD,           /* a suite line that is not "<FEN> ;D1 n ;D2 n ..." */
    PERFTKIT_MISMATCH,            /* a suite line's count differs from the one counted */
    PERFTKIT_STOPPED_TIME,        /* a count stopped by its time limit: partial */
    PERFTKIT_STOPPED_NODES,       /* a count stopped by its node limit: partial */
    PERFTKIT_STOPPED_INTERRUPT,   /* a count stopped by its interrupt flag: partial */
} PerftkitStatus;

/* Sizes: room for any text of each kind, terminator included, and the longest move list. */
enum {
    PERFTKIT_MAX_MOVES = 256,  /* no chess position has more than 218 legal moves */
    PERFTKIT_MAX_DEPTH = 32,   /* the deepest perft a counter runs */
    PERFTKIT_FEN_SIZE = 128,
    PERFTKIT_UCI_SIZE = 6,     /* "e7e8q" */
    PERFTKIT_SAN_SIZE = 12,    /* "Qh4xe1+", "exd8=Q#" */
    PERFTKIT_COUNT_SIZE = 40,  /* the decimal digits of any PerftkitCount */
    PERFTKIT_ERROR_SIZE = 512, /* enough for every reason; shorter buffers get it cut */
};

/* Flags of the calls that read a position. */
enum {
    PERFTKIT_CHESS960 = 1, /* Chess960 castling, whatever the castling field says (without
                              it, Shredder-FEN letters or KQkq naming rooks or a king off
                              their standard squares still mean Chess960) */
};

/* A move of one position: 0 is no move. */
typedef uint32_t PerftkitMove;

/* A node count: 128 bits, as perft 14 and beyond pass 2^64. value = hi * 2^64 + lo. */
typedef struct PerftkitCount {
    uint64_t lo, hi;
} PerftkitCount;

typedef struct PerftkitPosition PerftkitPosition;
typedef struct PerftkitCounter PerftkitCounter;

/* ---- Start-up and versions ---- */

/* Builds perftkit's read-only tables (attacks, the Zobrist keys). Call it before any
 * other call that makes a handle; any thread, any number of times (only the first does
 * the work, and later callers wait for it). PERFTKIT_OK. */
PerftkitStatus perftkit_init(void);

/* The library's version as "MAJOR.MINOR.PATCH" (compare with PERFTKIT_VERSION, the
 * header's); a static string. Needs no init. */
const char *perftkit_version(void);

/* A short English description of a status ("not a legal move"); a static string. */
const char *perftkit_status_text(PerftkitStatus status);

/* The decimal digits of `count` into `out`; PERFTKIT_ERROR_BUFFER when size is below
 * what they need (PERFTKIT_COUNT_SIZE always suffices). */
PerftkitStatus perftkit_count_text(PerftkitCount count, char *out, size_t size);

/* ---- Positions ---- */

/* A new position, the standard start position, into *out. UNINITIALISED, MEMORY. */
PerftkitStatus perftkit_position_new(PerftkitPosition **out);

/* A new position equal to `pos`, the moves it can take back included (to give each
 * thread its own). */
PerftkitStatus perftkit_position_copy(const PerftkitPosition *pos, PerftkitPosition **out);

void perftkit_position_free(PerftkitPosition *pos);

/* Sets `pos` from a FEN of 6 fields, or 4 (EPD style: clocks 0 and 1); castling as KQkq,
 * Shredder-FEN (HAha) or X-FEN; `flags` 0 or PERFTKIT_CHESS960. Malformed text or a
 * position that cannot arise (king counts, pawns on the back ranks, the side not to move
 * in check, ...) is PERFTKIT_ERROR_FEN with the reason, and leaves `pos` as it was. On
 * success the moves made before can no longer be taken back. */
PerftkitStatus perftkit_position_set_fen(PerftkitPosition *pos, const char *fen, unsigned flags, char *error,
                                         size_t error_size);

/* The FEN of `pos` (6 fields; castling in the notation it was read in) into `out`;
 * PERFTKIT_ERROR_BUFFER when size is below what it needs (PERFTKIT_FEN_SIZE suffices). */
PerftkitStatus perftkit_position_fen(const PerftkitPosition *pos, char *out, size_t size);

/* True when white is to move. */
bool perftkit_position_white_to_move(const PerftkitPosition *pos);

/* True when the side to move is in check. */
bool perftkit_position_in_check(const PerftkitPosition *pos);

/* ---- Moves ---- */

/* The legal moves of `pos`, in perftkit's generation order (the order of
 * perftkit_divide): writes the first `capacity` of them into `moves` (which may be NULL
 * when capacity is 0) and returns how many there are (0: mate or stalemate).
 * PERFTKIT_MAX_MOVES always suffices. */
size_t perftkit_legal_moves(const PerftkitPosition *pos, PerftkitMove *moves, size_t capacity);

/* Plays legal move `move`. PERFTKIT_ERROR_MOVE (pos unchanged) when it is not one. The
 * moves made since the FEN was set can all be taken back, in reverse order. */
PerftkitStatus perftkit_make_move(PerftkitPosition *pos, PerftkitMove move);

/* Takes back the last move made; PERFTKIT_ERROR_NO_MOVE_MADE when there is none. */
PerftkitStatus perftkit_unmake_move(PerftkitPosition *pos);

/* The legal move written `text` in UCI long algebraic notation ("e2e4", "e7e8q"; castling
 * as e1g1, or king takes rook as in Chess960, e1h1), into *move. PERFTKIT_ERROR_MOVE,
 * with the reason, when it is not one. */
PerftkitStatus perftkit_move_from_uci(const PerftkitPosition *pos, const char *text, PerftkitMove *move,
                                      char *error, size_t error_size);

/* The legal move written `text` in SAN ("Nf3", "exd6", "O-O", "e8=Q+"; 0-0, a missing
 * '=' and trailing + # ! ? are tolerated), into *move. PERFTKIT_ERROR_MOVE, with the
 * reason (ambiguous, no such piece, ...), when it is not one. */
PerftkitStatus perftkit_move_from_san(const PerftkitPosition *pos, const char *text, PerftkitMove *move,
                                      char *error, size_t error_size);

/* Legal move `move` of `pos` as UCI text (PERFTKIT_UCI_SIZE) or SAN with + or # when it
 * checks or mates (PERFTKIT_SAN_SIZE), into `out`. PERFTKIT_ERROR_MOVE when it is not a
 * legal move of `pos`, PERFTKIT_ERROR_BUFFER when size is too small. */
PerftkitStatus perftkit_move_uci(const PerftkitPosition *pos, PerftkitMove move, char *out, size_t size);
PerftkitStatus perftkit_move_san(const PerftkitPosition *pos, PerftkitMove move, char *out, size_t size);

/* ---- Counting ---- */

/* A counter: threads and hash tables kept from count to count (the tables stay valid
 * across positions and depths, so later counts may profit from earlier ones; counts are
 * exact whatever the threads and table size). `threads` 0 means every processor, else
 * 1..1024 (one thread in a build without OpenMP; counts below depth 5 always use one);
 * `hash_mb` megabytes of tables, allocated now (0: no tables). MEMORY, with the reason,
 * when the memory is refused; ARGUMENT when a number is out of range. */
PerftkitStatus perftkit_counter_new(int threads, size_t hash_mb, PerftkitCounter **out, char *error,
                                    size_t error_size);

void perftkit_counter_free(PerftkitCounter *counter);

/* Limits for the counts that follow: stop after about `max_seconds` of counting (0:
 * none) or about `max_nodes` leaves (0: none). A limit takes effect within milliseconds
 * at any depth. ARGUMENT when max_seconds is negative or not a number. */
PerftkitStatus perftkit_counter_set_limits(PerftkitCounter *counter, double max_seconds, uint64_t max_nodes);

/* A flag that stops the counts that follow when it becomes non-zero (set it from a
 * signal handler, e.g. for Ctrl-C); NULL for none. The flag must outlive those counts. */
void perftkit_counter_set_interrupt(PerftkitCounter *counter, const volatile sig_atomic_t *flag);

/* perft(depth) of `pos`, 0 <= depth <= PERFTKIT_MAX_DEPTH: the number of legal move
 * sequences of `depth` plies, into *total. PERFTKIT_OK: exact. PERFTKIT_STOPPED_*: a limit
 * or the interrupt flag stopped it, and *total is a lower bound (the leaves below the
 * work that finished). */
PerftkitStatus perftkit_perft(PerftkitCounter *counter, const PerftkitPosition *pos, int depth,
                              PerftkitCount *total);

/* One root move and perft(depth - 1) after it. */
typedef struct PerftkitDivision {
    PerftkitMove move;
    bool complete;       /* false when a stop came before this move's count finished */
    PerftkitCount count; /* exact when complete, else 0 */
} PerftkitDivision;

/* perft(depth) of `pos` per legal root move, 1 <= depth <= PERFTKIT_MAX_DEPTH: writes the
 * first `capacity` root moves in generation order into `out` (PERFTKIT_MAX_MOVES always
 * suffices), their number into *moves, and the total into *total (either may be NULL).
 * Statuses as perftkit_perft; after a stop the complete moves' counts are exact. */
PerftkitStatus perftkit_divide(PerftkitCounter *counter, const PerftkitPosition *pos, int depth,
                               PerftkitDivision *out, size_t capacity, size_t *moves, PerftkitCount *total);

/* ---- Suites ---- */

/* What perftkit_epd_run found. */
typedef struct PerftkitEpdResult {
    int depths;                  /* depths counted and compared (0: a comment or blank line) */
    int failed_depth;            /* 0, or the depth whose count differed */
    PerftkitCount expected, got; /* the counts at failed_depth */
} PerftkitEpdResult;

/* Checks one line of a perft suite, "<FEN> ;D1 20 ;D2 400 ..." (a FEN of 6 or 4 fields,
 * depths in increasing order, an optional ";id NAME"): counts every depth listed up to
 * `max_depth` (0: all), in order, with `counter`, until one differs. `flags` 0 or
 * PERFTKIT_CHESS960. A blank or '#' comment line is PERFTKIT_OK with no depth counted.
 * PERFTKIT_MISMATCH: the first depth that differed, with "depth D: expected E, got G" as
 * the reason; PERFTKIT_ERROR_EPD or _FEN: a malformed line or FEN, with the reason;
 * PERFTKIT_STOPPED_*: a limit stopped the count (the depths before it matched). `result`
 * may be NULL. */
PerftkitStatus perftkit_epd_run(PerftkitCounter *counter, const char *line, unsigned flags, int max_depth,
                                PerftkitEpdResult *result, char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
