/* cli.c — shared command-line helpers. */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int cli_fail(const char *command, const char *format, ...) {
    va_list args;
    va_start(args, format);
    fprintf(stderr, "perft%s%s: ", command ? " " : "", command ? command : "");
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    return EXIT_BAD_INPUT;
}

bool cli_parse_long(const char *command, const char *option, const char *text, long min, long max, long *out) {
    char *end;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (end == text || *end != '\0' || text[0] == ' ' || text[0] == '+') {
        cli_fail(command, "%s '%s' is not a whole number", option, text);
        return false;
    }
    if (errno == ERANGE || value < min || value > max) {
        cli_fail(command, "%s %s is out of range %ld..%ld", option, text, min, max);
        return false;
    }
    *out = value;
    return true;
}

bool cli_setup_position(const char *command, const PositionOptions *options, Position *pos) {
    char error[FEN_ERROR_SIZE];
    const char *fen = options->fen ? options->fen : FEN_STARTPOS;
    if (!fen_parse(pos, fen, options->chess960, error, sizeof error)) {
        cli_fail(command, "bad FEN '%s': %s", fen, error);
        return false;
    }
    if (!options->moves)
        return true;
    const char *p = options->moves;
    for (int ply = 1;; ply++) {
        while (*p == ' ' || *p == ',' || *p == '\t')
            p++;
        if (!*p)
            return true;
        size_t length = strcspn(p, " ,\t");
        char token[32];
        if (length >= sizeof token) {
            cli_fail(command, "--moves: move %d '%.*s...' is too long to be a move", ply, 20, p);
            return false;
        }
        memcpy(token, p, length);
        token[length] = '\0';
        const char *why = NULL;
        Move m = move_parse_uci(pos, token);
        if (m == MOVE_NONE)
            m = move_parse_san(pos, token, &why);
        if (m == MOVE_NONE) {
            char current[FEN_BUFFER_SIZE];
            cli_fail(command, "--moves: move %d '%s' is not legal in %s (%s)", ply, token, fen_write(pos, current),
                     why ? why : "no legal move matches");
            return false;
        }
        Undo undo;
        pos_make_move(pos, m, &undo);
        p += length;
    }
}

double cli_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void cli_print_rate(FILE *out, Count leaves, double seconds) {
    double n = count_to_double(leaves);
    if (seconds <= 0 || n <= 0) {
        fprintf(out, "time %.3f s\n", seconds);
        return;
    }
    fprintf(out, "time %.3f s   rate %.1f Mleaves/s   period %.3f ns/leaf\n", seconds, n / seconds / 1e6,
            seconds * 1e9 / n);
}
