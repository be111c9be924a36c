/* cmd_uci.c — perftkit as a perft engine for other programs: `perft uci` speaks UCI on
 * stdin/stdout (position, go perft, options) and `perft perftree` answers the perftree
 * tool's script calls. Every line is read whole, however long; a malformed or unknown
 * command is reported on stdout as an `info string` and ignored. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "commands.h"
#include "config.h"
#include "../suites/epd.h"
#include "report.h"

enum { UCI_MAX_HASH_MB = 65536 };

typedef struct UciState {
    Position pos;
    bool chess960;
    long threads, hash_mb;
    Driver driver;
    bool driver_ready;
} UciState;

static void say(const char *format, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *format, ...) {
    va_list args;
    va_start(args, format);
    vprintf(format, args);
    va_end(args);
    putchar('\n');
    fflush(stdout);
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

/* Plays the UCI moves of `list` on `pos`; false, saying which, at the first illegal one. */
static bool play_moves(Position *pos, char *list, char *why, size_t size) {
    int ply = 0;
    for (char *move = next_word(&list); move; move = next_word(&list)) {
        ply++;
        Move m = move_parse_uci(pos, move);
        if (m == MOVE_NONE) {
            char fen[FEN_BUFFER_SIZE];
            snprintf(why, size, "move %d '%.20s' is not legal in %s", ply, move, fen_write(pos, fen));
            return false;
        }
        Undo undo;
        pos_make_move(pos, m, &undo);
    }
    return true;
}

/* "position startpos|fen FEN [moves ...]"; the position stays as it was on error. */
static void command_position(UciState *s, char *args) {
    char *p = args, *kind = next_word(&p), *word = NULL, fen[EPD_FEN_SIZE] = "", error[FEN_ERROR_SIZE];
    Position next;
    if (kind && !strcmp(kind, "startpos")) {
        snprintf(fen, sizeof fen, "%s", FEN_STARTPOS);
        word = next_word(&p);
    } else if (kind && !strcmp(kind, "fen")) {
        size_t used = 0;
        while ((word = next_word(&p)) && strcmp(word, "moves") && used < sizeof fen - 1)
            used += (size_t)snprintf(fen + used, sizeof fen - used, "%s%s", used ? " " : "", word);
    } else {
        say("info string error: position needs 'startpos' or 'fen FEN'; position unchanged");
        return;
    }
    if (word && strcmp(word, "moves")) {
        say("info string error: '%.20s' after the position is not 'moves'; position unchanged", word);
        return;
    }
    if (!fen_parse(&next, fen, s->chess960, error, sizeof error)) {
        say("info string error: bad FEN '%s': %s; position unchanged", fen, error);
        return;
    }
    if (word && !play_moves(&next, p, error, sizeof error)) {
        say("info string error: %s; position unchanged", error);
        return;
    }
    s->pos = next;
}

static bool ensure_driver(UciState *s) {
    if (s->driver_ready)
        return true;
    char error[160];
    if (!driver_create(&s->driver, (int)s->threads, (size_t)s->hash_mb << 20, error, sizeof error)) {
        say("info string error: Hash %ld: %s", s->hash_mb, error);
        return false;
    }
    s->driver_ready = true;
    return true;
}

static void drop_driver(UciState *s) {
    if (s->driver_ready)
        driver_destroy(&s->driver);
    s->driver_ready = false;
}

/* "go perft N": Stockfish's lines, sorted by move. */
static void command_go(UciState *s, char *args) {
    char *p = args, *what = next_word(&p), *depth_text = next_word(&p);
    long depth;
    char *end = NULL;
    if (!what || strcmp(what, "perft")) {
        say("info string error: perftkit only counts: use 'go perft N'");
        return;
    }
    if (depth_text)
        depth = strtol(depth_text, &end, 10);
    if (!depth_text || *end || depth < 1 || depth > PERFT_MAX_DEPTH) {
        say("info string error: go perft needs a depth 1..%d", PERFT_MAX_DEPTH);
        return;
    }
    if (!ensure_driver(s))
        return;
    RunReport run;
    driver_run(&s->driver, &s->pos, (int)depth, NULL, NULL, &run);
    MoveLine lines[MAX_MOVES];
    char text[COUNT_TEXT_SIZE];
    int n = report_move_lines(&s->pos, &run, false, lines);
    for (int i = 0; i < n; i++)
        printf("%s: %s\n", lines[i].move, count_format(lines[i].count, false, text));
    printf("\nNodes searched: %s\n\n", count_format(run.total, false, text));
    fflush(stdout);
}

/* "setoption name NAME value VALUE" for UCI_Chess960, Threads and Hash. */
static void command_setoption(UciState *s, char *args) {
    char *name = strstr(args, "name "), *value = strstr(args, " value ");
    if (!name || !value) {
        say("info string error: setoption needs 'name NAME value VALUE'");
        return;
    }
    *value = '\0';
    name += 5;
    value += 7;
    while (*name == ' ')
        name++;
    for (char *e = name + strlen(name); e > name && e[-1] == ' ';)
        *--e = '\0';
    char *end;
    long number = strtol(value, &end, 10);
    if (!strcasecmp(name, "UCI_Chess960")) {
        if (strcmp(value, "true") && strcmp(value, "false"))
            say("info string error: UCI_Chess960 is true or false, not '%s'", value);
        else
            s->chess960 = !strcmp(value, "true");
    } else if (!strcasecmp(name, "Threads")) {
        if (end == value || *end || number < 1 || number > 1024) {
            say("info string error: Threads is 1..1024, not '%s'", value);
        } else {
            s->threads = number;
            drop_driver(s);
        }
    } else if (!strcasecmp(name, "Hash")) {
        if (end == value || *end || number < 0 || number > UCI_MAX_HASH_MB) {
            say("info string error: Hash is 0..%d MB, not '%s'", UCI_MAX_HASH_MB, value);
        } else {
            s->hash_mb = number;
            drop_driver(s);
        }
    } else {
        say("info string error: no option '%s'", name);
    }
}

int cmd_uci(Cli *cli, int argc, char **argv) {
    (void)cli;
    if (argc > 1) {
        if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
            fputs("usage: perft uci\n\n"
                  "A UCI engine for perft on stdin/stdout: uci, isready, ucinewgame, setoption name\n"
                  "UCI_Chess960|Threads|Hash value V, position startpos|fen FEN [moves ...], go perft N\n"
                  "(\"e2e4: 20\" lines sorted by move, a blank line, \"Nodes searched: N\"), d (show the\n"
                  "position), quit. A malformed or unknown command gets an 'info string error' line and\n"
                  "is ignored; a bad position command leaves the position as it was.\n",
                  stdout);
            return EXIT_OK;
        }
        return cli_fail("uci", "unexpected argument '%s' (perft uci reads commands from stdin)", argv[1]);
    }
    UciState s;
    memset(&s, 0, sizeof s);
    pos_set_startpos(&s.pos);
    s.threads = driver_available_threads();
    s.hash_mb = 64;
    char *line = NULL;
    size_t capacity = 0;
    ssize_t length;
    while ((length = getline(&line, &capacity, stdin)) != -1) {
        while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r'))
            line[--length] = '\0';
        if ((size_t)length != strlen(line)) {
            say("info string error: a command line holds a NUL byte; ignored");
            continue;
        }
        char *p = line, *command = next_word(&p);
        if (!command)
            continue;
        while (*p == ' ' || *p == '\t')
            p++;
        if (!strcmp(command, "uci")) {
            say("id name perftkit %s", PERFTKIT_VERSION);
            say("id author the perftkit developers");
            say("option name UCI_Chess960 type check default false");
            say("option name Threads type spin default %ld min 1 max 1024", s.threads);
            say("option name Hash type spin default %ld min 0 max %d", s.hash_mb, UCI_MAX_HASH_MB);
            say("uciok");
        } else if (!strcmp(command, "isready")) {
            say("readyok");
        } else if (!strcmp(command, "ucinewgame") || !strcmp(command, "stop")) {
            /* nothing to forget: the tables stay valid, and go perft is never running */
        } else if (!strcmp(command, "position")) {
            command_position(&s, p);
        } else if (!strcmp(command, "go")) {
            command_go(&s, p);
        } else if (!strcmp(command, "setoption")) {
            command_setoption(&s, p);
        } else if (!strcmp(command, "d")) {
            char fen[FEN_BUFFER_SIZE];
            say("Fen: %s", fen_write(&s.pos, fen));
        } else if (!strcmp(command, "quit")) {
            break;
        } else {
            say("info string error: unknown command '%.40s'", command);
        }
    }
    free(line);
    drop_driver(&s);
    return EXIT_OK;
}

int cmd_perftree(Cli *cli, int argc, char **argv) {
    (void)cli;
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        fputs("usage: perft perftree DEPTH FEN [MOVES]\n\n"
              "The script interface of the perftree tool: counts perft(DEPTH) of FEN after the\n"
              "blank-separated UCI MOVES, and prints one \"move count\" line per root move, a blank\n"
              "line and the total. Use it as perftree's script: a file holding\n"
              "    #!/bin/sh\n    exec perft perftree \"$@\"\n",
              stdout);
        return EXIT_OK;
    }
    if (argc < 3 || argc > 4)
        return cli_fail("perftree", "usage: perft perftree DEPTH FEN [MOVES] (try perft perftree --help)");
    long depth;
    if (!cli_parse_long("perftree", "depth", argv[1], 1, PERFT_MAX_DEPTH, &depth))
        return EXIT_BAD_INPUT;
    PositionOptions position = {argv[2], argc == 4 ? argv[3] : NULL, false, false};
    Position pos;
    if (!cli_setup_position("perftree", &position, &pos))
        return EXIT_BAD_INPUT;
    Driver driver;
    LegacyRunSettings run;
    cli_default_run_settings(&run);
    if (!cli_create_driver("perftree", &run, (int)depth, &driver))
        return EXIT_BAD_INPUT;
    RunReport report;
    driver_run(&driver, &pos, (int)depth, NULL, NULL, &report);
    MoveLine lines[MAX_MOVES];
    char text[COUNT_TEXT_SIZE];
    int n = report_move_lines(&pos, &report, false, lines);
    for (int i = 0; i < n; i++)
        printf("%s %s\n", lines[i].move, count_format(lines[i].count, false, text));
    printf("\n%s\n", count_format(report.total, false, text));
    driver_destroy(&driver);
    return EXIT_OK;
}
