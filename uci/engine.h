/* engine.h — another engine as a child process speaking UCI. It is started through
 * /bin/sh ("exec CMD", so the shell's quoting works and the engine is the child) in a
 * process group of its own, spoken to over pipes with a deadline on every answer and on
 * every command sent, and always reaped: engine_stop() ends the whole group (quit, then
 * SIGTERM, then SIGKILL) whatever it does. Memory stays bounded whatever the engine
 * writes: a line longer than ENGINE_LINE_MAX bytes, or an answer of more than
 * ENGINE_MAX_OTHER_LINES lines of other text, ends the conversation at once. Every
 * failure leaves a one-line reason in `error` naming the engine by its command (with its
 * `id name`, once known) and saying what it did, with anything the engine printed quoted
 * (io/text.h), so no engine output reaches a message raw. */
#ifndef PERFTKIT_ENGINE_H
#define PERFTKIT_ENGINE_H

#include <signal.h>
#include <sys/types.h>

#include "../core/core.h"
#include "../io/text.h"
#include "../perft/count.h"

enum {
    ENGINE_MAX_LINES = 2 * MAX_MOVES, /* move lines one `go perft` answer may hold */
    ENGINE_LINE_MAX = 1 << 14,        /* bytes of one line of engine output */
    ENGINE_MAX_OTHER_LINES = 10000,   /* lines of other text one answer may hold */
    ENGINE_COUNT_DIGITS = 40,         /* digits a count may have (2^128 has 39) */
    ENGINE_REASON_SIZE = TEXT_QUOTE_SIZE + 80,
};

/* What one line of an engine's `go perft` answer is. */
typedef enum {
    ENGINE_OUTPUT_BLANK, /* empty (blanks only) or an `info` line: skipped */
    ENGINE_OUTPUT_MOVE,  /* a UCI move and its count: "e2e4: 20", "e2e4 20" */
    ENGINE_OUTPUT_TOTAL, /* "Nodes searched: N", "Total nodes: N", "Total: N", "Nodes: N" */
    ENGINE_OUTPUT_OTHER, /* text that holds no count ("Perft 3 took 5 ms"): tolerated */
    ENGINE_OUTPUT_BAD,   /* a count line that cannot be right: a negative count, one of more
                          * than 40 digits or past 2^128 - 1, or a count after a word that is
                          * no UCI move */
} EngineOutputKind;

typedef struct EngineOutput {
    EngineOutputKind kind;
    char move[6];                    /* MOVE: the move as written, NUL-terminated */
    Count nodes;                     /* MOVE and TOTAL */
    char reason[ENGINE_REASON_SIZE]; /* OTHER and BAD: the line quoted and what it is, one
                                      * line of printable ASCII ("'xyzzy: 20', which is not
                                      * a UCI move and a count"); "" otherwise */
} EngineOutput;

/* Reads one line of engine output: `length` bytes (any bytes, NUL included; no newline
 * expected, blanks and a carriage return at either end ignored). A pure function: the
 * same bytes always give the same result, and it keeps no state. Returns out->kind. */
EngineOutputKind engine_parse_output(const char *line, size_t length, EngineOutput *out);

typedef struct Engine {
    char command[512];
    char label[TEXT_QUOTE_SIZE];   /* the command, quoted: how messages name the engine */
    char id_name[TEXT_QUOTE_SIZE]; /* its `id name`, quoted; "" until it says one */
    pid_t pid;                     /* 0 when not running; also the id of its process group */
    bool ended;                    /* the child has ended (seen, not yet reaped) */
    char how[96];                  /* when ended: "exited with status 3", "was killed by ..." */
    int to_engine, from_engine;
    char buffer[ENGINE_LINE_MAX];  /* what was read and not yet handed out as lines */
    size_t used, consumed;         /* bytes in buffer; bytes of it already handed out */
    double timeout;                /* seconds allowed for each answer */
    bool chess960_option;          /* the engine offered UCI_Chess960 */
    const volatile sig_atomic_t *interrupt; /* NULL, or a flag that abandons waiting */
    char error[1536];
} Engine;

/* One line of an engine's `go perft` answer, as the engine wrote the move. */
typedef struct EngineLine {
    char move[8];
    Count nodes;
} EngineLine;

typedef struct EngineDivide {
    int count;
    EngineLine lines[ENGINE_MAX_LINES];
    Count total;
    bool has_total;
} EngineDivide;

/* Starts `command` (at most 511 bytes) and shakes hands (uci ... uciok, isready ...
 * readyok). */
bool engine_start(Engine *engine, const char *command, double timeout, const volatile sig_atomic_t *interrupt);

/* Sends "setoption name UCI_Chess960 value true|false" and waits until it is ready. */
bool engine_set_chess960(Engine *engine, bool on);

/* "position fen FEN [moves MOVES]" then "go perft DEPTH"; reads the per-move lines and
 * the total (engine_parse_output), then resynchronises with isready ... readyok. Fails
 * as soon as a line is BAD, too long, or the engine dies (even while a process it
 * forked still holds its output open). */
bool engine_divide(Engine *engine, const char *fen, const char *moves, int depth, EngineDivide *out);

/* Ends the engine and its whole process group and reaps them: "quit", half a second,
 * SIGTERM to the group, a fifth of a second, SIGKILL to the group. Safe to call on an
 * engine that never started or died; keeps `error` as it was. */
void engine_stop(Engine *engine);

#endif
