/* fuzz_uci_server.c — the UCI server (uci/server.c) fed any command lines through memory
 * streams, with a `d` after each position and go line and after each run of other
 * lines, so every step can be checked:
 *   - everything it writes is printable ASCII in lines; each error is one
 *     "info string error: ..." line that says something;
 *   - only an accepted `position` changes the position, and every position it holds is
 *     a valid one: its FEN is accepted, reads back as it, and gives a right key;
 *   - `go perft N` prints one line per legal move, and a total equal both to their sum
 *     and to the bulk counter's perft of the position.
 * To keep one input fast (a long run is counted in millions), only its first 24 lines
 * are read, and `go perft` deeper than 3, a third `go` line, a Hash above 16 MB, `d`
 * and all after `quit` are left out (replaced by `isready`). */
#include "fuzz_support.h"

#include <strings.h>

#include "../../perft/count.h"
#include "../../uci/server.h"

enum { MAX_INPUT_LINES = 24, MAX_GO = 2, MAX_GO_DEPTH = 3, MAX_HASH_MB = 16 };

typedef enum { LINE_OTHER, LINE_POSITION, LINE_GO } LineKind;

typedef struct Command {
    LineKind kind;
    long depth; /* of a go perft line */
} Command;

/* The blank-separated words of a line as the server splits them (blanks: space, tab). */
static int split_words(char *line, char *words[4]) {
    int n = 0;
    for (char *p = line; *p && n < 4;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        words[n++] = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        if (*p)
            *p++ = '\0';
    }
    return n;
}

/* How the harness treats one input line: as it is, as `isready`, or the end (quit). */
typedef enum { KEEP, REPLACE, STOP } Treatment;

static Treatment classify(const char *line, size_t length, int *go_lines, Command *command) {
    command->kind = LINE_OTHER;
    command->depth = 0;
    if (memchr(line, '\0', length))
        return KEEP; /* refused whole by the server */
    char *copy = malloc(length + 1), *words[4] = {0};
    FUZZ_CHECK(copy, "out of memory");
    memcpy(copy, line, length);
    copy[length] = '\0';
    while (length && copy[length - 1] == '\r')
        copy[--length] = '\0';
    Treatment t = KEEP;
    char *value = strstr(copy, " value ");
    int n = split_words(copy, words);
    if (n == 0) {
        t = KEEP;
    } else if (!strcmp(words[0], "quit")) {
        t = STOP;
    } else if (!strcmp(words[0], "d")) {
        t = REPLACE;
    } else if (!strcmp(words[0], "position")) {
        command->kind = LINE_POSITION;
    } else if (!strcmp(words[0], "go")) {
        command->kind = LINE_GO;
        if (++*go_lines > MAX_GO)
            t = REPLACE;
        else if (n >= 3) {
            command->depth = strtol(words[2], NULL, 10);
            if (command->depth > MAX_GO_DEPTH)
                t = REPLACE;
        }
    } else if (!strcmp(words[0], "setoption") && value && strtol(value + 7, NULL, 10) > MAX_HASH_MB) {
        t = REPLACE; /* Threads too, harmlessly */
    }
    free(copy);
    if (t == REPLACE)
        command->kind = LINE_OTHER;
    return t;
}

/* The next line of the output (without its newline), or NULL at the end. */
static char *next_line(char **p) {
    if (!**p)
        return NULL;
    char *line = *p, *end = strchr(line, '\n');
    FUZZ_CHECK(end, "the output does not end with a newline: '%s'", line);
    *end = '\0';
    *p = end + 1;
    return line;
}

static Position position_of(const char *fen) {
    Position pos;
    char error[FEN_ERROR_SIZE];
    FUZZ_CHECK(fen_parse(&pos, fen, false, error, sizeof error), "the server holds '%s', which is rejected: %s",
               fen, error);
    return pos;
}

/* Checks one command's answer: the lines after the last `d` up to this one's. */
static void check_answer(const Command *command, char **lines, int count, const char *before, const char *after) {
    bool refused = false;
    Count total = 0, sum = 0;
    bool has_total = false;
    int move_lines = 0;
    for (int i = 0; i < count; i++) {
        const char *line = lines[i];
        if (!strncmp(line, "info string error: ", 19)) {
            FUZZ_CHECK(line[19], "an empty error line");
            refused = true;
        } else if (command->kind == LINE_GO && !strncmp(line, "Nodes searched: ", 16)) {
            FUZZ_CHECK(count_parse(line + 16, strlen(line + 16), &total), "total '%s'", line);
            has_total = true;
        } else if (command->kind == LINE_GO && line[0] && strstr(line, ": ")) {
            const char *digits = strstr(line, ": ") + 2;
            Count n;
            FUZZ_CHECK(count_parse(digits, strlen(digits), &n), "move line '%s'", line);
            sum += n;
            move_lines++;
        }
    }
    if (command->kind != LINE_POSITION || refused)
        FUZZ_CHECK(!strcmp(before, after), "the position changed from '%s' to '%s' (%s)", before, after,
                   refused ? "a refused position" : "not a position command");
    else if (strcmp(before, after)) {
        /* A valid position: fen_parse accepts the server's FEN, with a key equal to one
         * recomputed, and it reads back as itself. The deeper properties of positions
         * are the fen and moves_option targets' to check. */
        Position pos = position_of(after);
        FUZZ_CHECK(zob_equal(pos.key, pos_compute_key(&pos)), "'%s': key differs from one recomputed", after);
        fuzz_check_fen_round_trip(&pos, "the server's position");
    }
    if (command->kind == LINE_GO) {
        FUZZ_CHECK(has_total != refused, "go perft answered with %s", refused ? "an error and a total" : "neither "
                   "a total nor an error");
        if (has_total) {
            Position pos = position_of(before);
            FUZZ_CHECK(command->depth >= 1 && command->depth <= MAX_GO_DEPTH, "a count for depth %ld",
                       command->depth);
            Count expected = gen_count_perft(&pos, (int)command->depth);
            char a[COUNT_TEXT_SIZE], b[COUNT_TEXT_SIZE];
            FUZZ_CHECK(total == expected, "'%s' perft %ld: the server says %s, the bulk counter %s", before,
                       command->depth, count_format(total, false, a), count_format(expected, false, b));
            FUZZ_CHECK(sum == total && move_lines == gen_count_legal(&pos), "'%s': %d move lines summing to %s",
                       before, move_lines, count_format(sum, false, a));
        }
    }
}

/* A line of the `d` display below its Fen line (io/board.c): a field, or the legal
 * moves, indented. */
static bool display_line(const char *line) {
    static const char *const fields[] = {"Variant: ", "Side to move: ", "Castling: ", "En passant: ", "Clocks: ",
                                         "Key: ", "Checkers: ", "Pinned: ", "Legal moves: ", "  "};
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
        if (!strncmp(line, fields[i], strlen(fields[i])))
            return true;
    return false;
}

/* A line of the board `d` draws above its Fen line: the file letters or a rank. */
static bool board_row(const char *line) {
    return !strcmp(line, "   a b c d e f g h") || (line[0] == ' ' && line[1] >= '1' && line[1] <= '8' && line[2] == ' ');
}

/* Appends bytes to the server's input (room was reserved for every line and `d`). */
static void append(char *input, size_t *used, const char *bytes, size_t length) {
    memcpy(input + *used, bytes, length);
    *used += length;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* The commands after a small table and a first `d`: each position and go line is
     * followed by a `d`, and so is each run of other lines (none of which may change
     * the position, nor have its errors judged), since drawing the board costs most. */
    static const char prologue[] = "setoption name Hash value 1\nd\n";
    size_t room = sizeof prologue + size + MAX_INPUT_LINES * 10 + 16, used = 0;
    char *input = malloc(room);
    Command commands[MAX_INPUT_LINES + 1], command;
    int count = 0, go_lines = 0, lines_read = 0;
    bool run_of_others = false;
    FUZZ_CHECK(input, "out of memory");
    append(input, &used, prologue, sizeof prologue - 1);
    for (size_t at = 0; at < size && lines_read < MAX_INPUT_LINES; lines_read++) {
        const uint8_t *end = memchr(data + at, '\n', size - at);
        size_t length = (end ? (size_t)(end - data) : size) - at;
        const char *line = (const char *)data + at;
        at += length + 1;
        Treatment t = classify(line, length, &go_lines, &command);
        if (t == STOP)
            break;
        if (t == REPLACE)
            line = "isready", length = 7;
        if (command.kind != LINE_OTHER && run_of_others) {
            append(input, &used, "d\n", 2);
            commands[count++] = (Command){LINE_OTHER, 0};
            run_of_others = false;
        }
        append(input, &used, line, length);
        append(input, &used, "\n", 1);
        if (command.kind == LINE_OTHER) {
            run_of_others = true;
        } else {
            append(input, &used, "d\n", 2);
            commands[count++] = command;
        }
    }
    if (run_of_others) {
        append(input, &used, "d\n", 2);
        commands[count++] = (Command){LINE_OTHER, 0};
    }

    FILE *in = fmemopen(input, used, "r");
    char *output = NULL;
    size_t output_size = 0;
    FILE *out = open_memstream(&output, &output_size);
    FUZZ_CHECK(in && out, "cannot open memory streams");
    FUZZ_CHECK(uci_serve(in, out) == UCI_SERVED, "the server could not start or write to memory");
    fclose(in);
    fclose(out);

    for (size_t i = 0; i < output_size; i++)
        FUZZ_CHECK(output[i] == '\n' || (output[i] >= 0x20 && output[i] <= 0x7e), "byte 0x%02X at %zu of the output",
                   (unsigned char)output[i], i);
    FUZZ_CHECK(strlen(output) == output_size, "a NUL byte in the output");

    char *p = output, *line, *before = NULL, **block = malloc((output_size + 1) * sizeof *block);
    int lines = 0, answered = -1;
    FUZZ_CHECK(block, "out of memory");
    while ((line = next_line(&p))) {
        if (strncmp(line, "Fen: ", 5)) {
            if (!display_line(line))
                block[lines++] = line;
            continue;
        }
        /* the board `d` draws above its Fen line, and the blank line under the board */
        if (lines > 0 && !block[lines - 1][0])
            lines--;
        while (lines > 0 && board_row(block[lines - 1]))
            lines--;
        if (answered >= 0)
            check_answer(&commands[answered], block, lines, before, line + 5);
        else
            FUZZ_CHECK(lines == 0, "the server said '%s' before anything was asked", block[0]);
        before = line + 5;
        lines = 0;
        answered++;
    }
    FUZZ_CHECK(answered == count, "%d commands, %d answered by the `d` after them", count, answered);
    free(block);
    free(output);
    free(input);
    return 0;
}
