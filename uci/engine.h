/* engine.h — another engine as a child process speaking UCI. It is started through
 * /bin/sh ("exec CMD", so the shell's quoting works and the engine is the child), spoken
 * to over pipes with a deadline on every answer, and always reaped: engine_stop() ends
 * it (quit, then SIGKILL) whatever state it is in. Every failure leaves a one-line
 * reason in `error` naming the engine by its command and saying what it did, with
 * anything the engine printed quoted (io/text.h), so no engine output reaches a
 * message raw. */
#ifndef PERFTKIT_ENGINE_H
#define PERFTKIT_ENGINE_H

#include <signal.h>
#include <sys/types.h>

#include "../core/core.h"
#include "../io/text.h"
#include "../perft/count.h"

enum { ENGINE_MAX_LINES = 2 * MAX_MOVES };

typedef struct Engine {
    char command[512];
    char label[TEXT_QUOTE_SIZE]; /* the command, quoted: how messages name the engine */
    pid_t pid;               /* 0 when not running */
    int to_engine, from_engine;
    char buffer[1 << 16];    /* what was read and not yet handed out as lines */
    size_t used;
    double timeout;          /* seconds allowed for each answer */
    bool chess960_option;    /* the engine offered UCI_Chess960 */
    const volatile sig_atomic_t *interrupt; /* NULL, or a flag that abandons waiting */
    char error[1024];
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

/* "position fen FEN [moves MOVES]" then "go perft DEPTH"; reads the per-move lines
 * ("e2e4: 20", "e2e4 20") and the total ("Nodes searched: N", "Total: N", "Nodes: N"). */
bool engine_divide(Engine *engine, const char *fen, const char *moves, int depth, EngineDivide *out);

/* Ends the engine and reaps it; safe to call on an engine that never started or died. */
void engine_stop(Engine *engine);

#endif
