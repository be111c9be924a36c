/* server.c — the UCI server. Lines are read into a buffer of fixed size (a longer line
 * is consumed to its end and refused, so no input can make the server allocate
 * without bound); the driver and its tables are made at the first `go perft` and
 * remade only when Threads or Hash change. A command is checked whole before it
 * changes anything. */
#include "server.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../io/board.h"
#include "../io/terminal.h"
#include "../io/text.h"
#include "../perft/driver.h"
#include "config.h"

typedef struct Server {
    FILE *out;
    Position pos;
    bool chess960;
    long threads, hash_mb;
    Driver driver;
    bool driver_ready;
} Server;

static void say(Server *s, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void say(Server *s, const char *format, ...) {
    va_list args;
    va_start(args, format);
    vfprintf(s->out, format, args);
    va_end(args);
    fputc('\n', s->out);
    fflush(s->out);
}

/* One line "info string error: ...": the answer to every bad command. */
static void refuse(Server *s, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void refuse(Server *s, const char *format, ...) {
    va_list args;
    va_start(args, format);
    fputs("info string error: ", s->out);
    vfprintf(s->out, format, args);
    va_end(args);
    fputc('\n', s->out);
    fflush(s->out);
}

/* The next blank-separated word of *p, moved past; NULL at the end. */
static char *next_word(char **p) {
    while (**p == ' ' || **p == '\t')
        (*p)++;
    if (!**p)
        return NULL;
    char *word = *p;
    while (**p && **p != ' ' && **p != '\t')
        (*p)++;
    if (**p)
        *(*p)++ = '\0';
    return word;
}

/* Squares and an optional promotion letter: the shape of a UCI move. */
static bool looks_like_uci_move(const char *m) {
    size_t n = strlen(m);
    return (n == 4 || (n == 5 && strchr("qrbn", m[4]))) && m[0] >= 'a' && m[0] <= 'h' && m[1] >= '1' && m[1] <= '8'
        && m[2] >= 'a' && m[2] <= 'h' && m[3] >= '1' && m[3] <= '8';
}

/* Plays the UCI moves of `list` on `pos`; false, after saying which, at the first
 * malformed or illegal one. */
static bool play_moves(Server *s, Position *pos, char *list) {
    int ply = 0;
    for (char *move = next_word(&list); move; move = next_word(&list)) {
        char shown[TEXT_QUOTE_SIZE], fen[FEN_BUFFER_SIZE];
        ply++;
        if (!looks_like_uci_move(move)) {
            refuse(s, "move %d '%s' is not a UCI move (e2e4, e7e8q); position unchanged", ply, text_quote(move, shown));
            return false;
        }
        Move m = move_parse_uci(pos, move);
        if (m == MOVE_NONE) {
            refuse(s, "move %d '%s' is not legal in %s; position unchanged", ply, move, fen_write(pos, fen));
            return false;
        }
        Undo undo;
        pos_make_move(pos, m, &undo);
    }
    return true;
}

/* "position startpos|fen FEN [moves ...]". */
static void command_position(Server *s, char *args) {
    char *p = args, *kind = next_word(&p), *word = NULL, fen[256] = "", shown[TEXT_QUOTE_SIZE];
    if (!kind) {
        refuse(s, "position needs 'startpos' or 'fen FEN'; position unchanged");
        return;
    }
    if (!strcmp(kind, "startpos")) {
        snprintf(fen, sizeof fen, "%s", FEN_STARTPOS);
        word = next_word(&p);
    } else if (!strcmp(kind, "fen")) {
        size_t used = 0;
        while ((word = next_word(&p)) && strcmp(word, "moves")) {
            size_t length = strlen(word);
            if (used + length + 2 > sizeof fen) {
                refuse(s, "the FEN is longer than %zu bytes; position unchanged", sizeof fen - 1);
                return;
            }
            if (used)
                fen[used++] = ' ';
            memcpy(fen + used, word, length + 1);
            used += length;
        }
        if (!used) {
            refuse(s, "position fen needs a FEN; position unchanged");
            return;
        }
    } else {
        refuse(s, "position needs 'startpos' or 'fen FEN', not '%s'; position unchanged", text_quote(kind, shown));
        return;
    }
    if (word && strcmp(word, "moves")) {
        refuse(s, "'%s' after the position is not 'moves'; position unchanged", text_quote(word, shown));
        return;
    }
    Position next;
    char error[FEN_ERROR_SIZE];
    if (!fen_parse(&next, fen, s->chess960, error, sizeof error)) {
        refuse(s, "bad FEN '%s': %s; position unchanged", text_quote(fen, shown), error);
        return;
    }
    if (word && !play_moves(s, &next, p))
        return;
    s->pos = next;
}

static bool ensure_driver(Server *s) {
    if (s->driver_ready)
        return true;
    char error[160];
    if (!driver_create(&s->driver, (int)s->threads, (size_t)s->hash_mb << 20, error, sizeof error)) {
        refuse(s, "Hash %ld: %s", s->hash_mb, error);
        return false;
    }
    s->driver_ready = true;
    return true;
}

static void drop_driver(Server *s) {
    if (s->driver_ready)
        driver_destroy(&s->driver);
    s->driver_ready = false;
}

/* A whole number in [min, max] from `text`: 0 when it is one (into *out), 1 when it is
 * not a whole number, 2 when it is one out of the range. */
static int read_number(const char *text, long min, long max, long *out) {
    char *end;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (end == text || *end || text[0] == '+') {
        size_t digits = strspn(text + (text[0] == '-'), "0123456789");
        return digits > 0 && text[(text[0] == '-') + digits] == '\0' ? 2 : 1; /* too long for a long */
    }
    if (errno == ERANGE || value < min || value > max)
        return 2;
    *out = value;
    return 0;
}

static int compare_strings(const void *a, const void *b) { return strcmp(a, b); }

/* "go perft N": Stockfish's lines, sorted by move, a blank line and the total. */
static void command_go(Server *s, char *args) {
    char *p = args, *what = next_word(&p), *depth_text = next_word(&p), *extra = next_word(&p);
    char shown[TEXT_QUOTE_SIZE];
    long depth = 0;
    if (!what || strcmp(what, "perft")) {
        refuse(s, "perftkit only counts: use 'go perft N'");
        return;
    }
    if (!depth_text) {
        refuse(s, "go perft needs a depth 1..%d", PERFT_MAX_DEPTH);
        return;
    }
    switch (read_number(depth_text, 1, PERFT_MAX_DEPTH, &depth)) {
    case 1: refuse(s, "go perft: depth '%s' is not a whole number", text_quote(depth_text, shown)); return;
    case 2: refuse(s, "go perft: depth %s is out of range 1..%d", text_quote(depth_text, shown), PERFT_MAX_DEPTH); return;
    default: break;
    }
    if (extra) {
        refuse(s, "go perft takes only a depth, not '%s' after it", text_quote(extra, shown));
        return;
    }
    if (!ensure_driver(s))
        return;
    RunReport *run = malloc(sizeof *run);
    if (!run) {
        refuse(s, "out of memory");
        return;
    }
    driver_run(&s->driver, &s->pos, (int)depth, NULL, NULL, run);
    if (!run->complete) { /* no limits are set: only a failure (memory) stops a run */
        refuse(s, "go perft %ld did not finish: %s", depth, run_status_text(run->status));
        free(run);
        return;
    }
    char lines[MAX_MOVES][UCI_MOVE_SIZE + COUNT_TEXT_SIZE + 2], text[COUNT_TEXT_SIZE], uci[UCI_MOVE_SIZE];
    for (int i = 0; i < run->root_moves; i++)
        snprintf(lines[i], sizeof lines[i], "%s: %s", move_to_uci(&s->pos, run->roots[i].move, uci),
                 count_format(run->roots[i].count, false, text));
    qsort(lines, (size_t)run->root_moves, sizeof lines[0], compare_strings);
    for (int i = 0; i < run->root_moves; i++)
        fprintf(s->out, "%s\n", lines[i]);
    fprintf(s->out, "\nNodes searched: %s\n\n", count_format(run->total, false, text));
    fflush(s->out);
    free(run);
}

/* "setoption name NAME value VALUE" for UCI_Chess960, Threads and Hash. */
static void command_setoption(Server *s, char *args) {
    char *name = strstr(args, "name "), *value = strstr(args, " value ");
    char shown[TEXT_QUOTE_SIZE], shown_name[TEXT_QUOTE_SIZE];
    if (name != args || !value) {
        refuse(s, "setoption needs 'name NAME value VALUE'");
        return;
    }
    *value = '\0';
    name += 5;
    value += 7;
    while (*name == ' ')
        name++;
    for (char *e = name + strlen(name); e > name && e[-1] == ' ';)
        *--e = '\0';
    while (*value == ' ')
        value++;
    for (char *e = value + strlen(value); e > value && (e[-1] == ' ' || e[-1] == '\t');)
        *--e = '\0';
    text_quote(value, shown);
    long number;
    if (!strcasecmp(name, "UCI_Chess960")) {
        if (strcmp(value, "true") && strcmp(value, "false"))
            refuse(s, "UCI_Chess960 is true or false, not '%s'", shown);
        else
            s->chess960 = !strcmp(value, "true");
    } else if (!strcasecmp(name, "Threads")) {
        if (read_number(value, 1, 1024, &number)) {
            refuse(s, "Threads is 1..1024, not '%s'", shown);
        } else {
            s->threads = number;
            drop_driver(s);
        }
    } else if (!strcasecmp(name, "Hash")) {
        if (read_number(value, 0, UCI_MAX_HASH_MB, &number)) {
            refuse(s, "Hash is 0..%d MB, not '%s'", UCI_MAX_HASH_MB, shown);
        } else {
            s->hash_mb = number;
            drop_driver(s);
        }
    } else {
        refuse(s, "no option '%s' (UCI_Chess960, Threads, Hash)", text_quote(name, shown_name));
    }
}

typedef enum { LINE_READ, LINE_TOO_LONG, LINE_END } LineStatus;

/* Reads one line into `line` (UCI_MAX_LINE + 1 bytes) without its end of line; a longer
 * line is read to its end and its length put in *length. */
static LineStatus read_line(FILE *in, char *line, size_t *length) {
    size_t n = 0;
    int c;
    while ((c = getc(in)) != EOF && c != '\n') {
        if (n < UCI_MAX_LINE)
            line[n] = (char)c;
        n++;
    }
    if (c == EOF && n == 0)
        return LINE_END;
    *length = n;
    if (n > UCI_MAX_LINE) {
        line[UCI_MAX_LINE] = '\0';
        return LINE_TOO_LONG;
    }
    while (n > 0 && line[n - 1] == '\r')
        n--;
    line[n] = '\0';
    *length = n;
    return LINE_READ;
}

/* Answers one command line; false after `quit`. */
static bool serve_line(Server *s, char *line) {
    char *p = line, *command = next_word(&p), shown[TEXT_QUOTE_SIZE];
    if (!command)
        return true;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!strcmp(command, "uci")) {
        say(s, "id name perftkit %s", PERFTKIT_VERSION);
        say(s, "id author the perftkit developers");
        say(s, "option name UCI_Chess960 type check default false");
        say(s, "option name Threads type spin default %ld min 1 max 1024", s->threads);
        say(s, "option name Hash type spin default %ld min 0 max %d", s->hash_mb, UCI_MAX_HASH_MB);
        say(s, "uciok");
    } else if (!strcmp(command, "isready")) {
        say(s, "readyok");
    } else if (!strcmp(command, "ucinewgame") || !strcmp(command, "stop")) {
        /* nothing to forget: the tables stay valid, and go perft is never running */
    } else if (!strcmp(command, "position")) {
        command_position(s, p);
    } else if (!strcmp(command, "go")) {
        command_go(s, p);
    } else if (!strcmp(command, "setoption")) {
        command_setoption(s, p);
    } else if (!strcmp(command, "d")) { /* the board display of perft show, "Fen: " line included */
        board_print(s->out, &s->pos, terminal_colour(s->out) ? BOARD_COLOR : 0);
    } else if (!strcmp(command, "quit")) {
        return false;
    } else {
        refuse(s, "unknown command '%s'", text_quote(command, shown));
    }
    return true;
}

UciOutcome uci_serve(FILE *in, FILE *out) {
    Server s = {.out = out, .threads = driver_available_threads(), .hash_mb = UCI_DEFAULT_HASH_MB};
    pos_set_startpos(&s.pos);
    char *line = malloc(UCI_MAX_LINE + 1);
    if (!line) {
        refuse(&s, "out of memory");
        return UCI_OUT_OF_MEMORY;
    }
    while (!ferror(out)) { /* nobody reads the answers any more */
        size_t length;
        LineStatus status = read_line(in, line, &length);
        if (status == LINE_END)
            break;
        char shown[TEXT_QUOTE_SIZE];
        if (status == LINE_TOO_LONG) {
            refuse(&s, "a command line of %zu bytes, more than %d: '%s...'; ignored", length, UCI_MAX_LINE,
                   text_quote_bytes(line, TEXT_QUOTE_CHARS, shown));
            continue;
        }
        if (length != strlen(line)) {
            refuse(&s, "a command line holds a NUL byte: '%s'; ignored", text_quote_bytes(line, length, shown));
            continue;
        }
        if (!serve_line(&s, line))
            break;
    }
    free(line);
    drop_driver(&s);
    return fflush(out) == 0 && !ferror(out) ? UCI_SERVED : UCI_WRITE_FAILED;
}
