/* server.h — perftkit as a UCI engine for perft, as a library: commands are read line
 * by line from one stream and answered on another, so `perft uci` and the tests run
 * the same server. Every bad command (an unknown one, a depth out of range, a bad FEN
 * or move, a line too long or holding a NUL byte) is answered with one line
 * "info string error: ..." quoting the input safely, and ignored: the server keeps
 * serving, and a rejected `position` leaves the position as it was. */
#ifndef PERFTKIT_UCI_SERVER_H
#define PERFTKIT_UCI_SERVER_H

#include <stdbool.h>
#include <stdio.h>

enum {
    UCI_MAX_LINE = 1 << 16,   /* bytes of one command line: about 13,000 moves of `position` */
    UCI_MAX_HASH_MB = 65536,
    UCI_DEFAULT_HASH_MB = 64,
};

/* How serving ended. */
typedef enum {
    UCI_SERVED,        /* `quit` or the end of the input */
    UCI_OUT_OF_MEMORY, /* the server could not start (said on `out` as an info string) */
    UCI_WRITE_FAILED,  /* writing to `out` failed */
} UciOutcome;

/* Serves the commands of `in` until `quit` or the end of the input, answering on
 * `out` (flushed after every answer). */
UciOutcome uci_serve(FILE *in, FILE *out);

#endif
