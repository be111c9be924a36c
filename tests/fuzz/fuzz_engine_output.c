/* fuzz_engine_output.c — the engine client's reading of another engine's `go perft`
 * answer (uci/engine.h: engine_parse_output) over any bytes, line by line and as one
 * line. Properties: the same bytes always read the same; an accepted count is the number
 * the line ends with, at most 40 digits, not negative; an accepted move has the shape of a
 * UCI move and opens the line; a skipped line is blank or an `info` line; every other
 * line gets a reason of one printable line that quotes it. */
#include "fuzz_support.h"

#include "../../uci/engine.h"

static bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }

static bool digit(char c) { return c >= '0' && c <= '9'; }

/* Not empty, printable ASCII only. */
static bool one_line(const char *text) {
    if (!*text)
        return false;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        if (*p < 0x20 || *p > 0x7e)
            return false;
    return true;
}

static bool uci_move_shape(const char *m) {
    size_t n = strlen(m);
    return (n == 4 || (n == 5 && strchr("qrbnQRBN", m[4]))) && m[0] >= 'a' && m[0] <= 'h' && m[1] >= '1'
        && m[1] <= '8' && m[2] >= 'a' && m[2] <= 'h' && m[3] >= '1' && m[3] <= '8';
}

static void check_line(const char *line, size_t length) {
    EngineOutput o, again;
    EngineOutputKind kind = engine_parse_output(line, length, &o);
    FUZZ_CHECK(kind == o.kind, "returned %d, set %d", (int)kind, (int)o.kind);
    engine_parse_output(line, length, &again);
    FUZZ_CHECK(again.kind == o.kind && again.nodes == o.nodes && !strcmp(again.move, o.move)
              && !strcmp(again.reason, o.reason),
          "the same line read twice differs");
    const char *p = line;
    size_t n = length;
    while (n && blank(*p))
        p++, n--;
    while (n && blank(p[n - 1]))
        n--;
    switch (kind) {
    case ENGINE_OUTPUT_BLANK:
        FUZZ_CHECK(!o.reason[0] && !o.move[0], "a skipped line has a reason or a move");
        FUZZ_CHECK(n == 0 || (n >= 4 && (p[0] | 0x20) == 'i' && (p[1] | 0x20) == 'n' && (p[2] | 0x20) == 'f'
                         && (p[3] | 0x20) == 'o' && (n == 4 || blank(p[4]))),
              "a line skipped that is neither blank nor info");
        break;
    case ENGINE_OUTPUT_MOVE:
    case ENGINE_OUTPUT_TOTAL: {
        FUZZ_CHECK(!o.reason[0], "an accepted line has a reason: %s", o.reason);
        size_t digits = 0;
        while (digits < n && digit(p[n - 1 - digits]))
            digits++;
        FUZZ_CHECK(digits >= 1 && digits <= ENGINE_COUNT_DIGITS, "a count of %zu digits accepted", digits);
        FUZZ_CHECK(digits == n || p[n - 1 - digits] != '-', "a negative count accepted");
        const char *first = p + n - digits;
        while (digits > 1 && *first == '0')
            first++, digits--;
        char text[COUNT_TEXT_SIZE];
        count_format(o.nodes, false, text);
        FUZZ_CHECK(strlen(text) == digits && !memcmp(text, first, digits), "count %s is not the %.*s the line ends with",
              text, (int)digits, first);
        if (kind == ENGINE_OUTPUT_MOVE) {
            FUZZ_CHECK(uci_move_shape(o.move), "accepted move '%s' is not a UCI move", o.move);
            FUZZ_CHECK(!memcmp(p, o.move, strlen(o.move)), "move '%s' does not open the line", o.move);
        } else {
            FUZZ_CHECK(!o.move[0], "a total with a move");
        }
        break;
    }
    case ENGINE_OUTPUT_OTHER:
    case ENGINE_OUTPUT_BAD:
        FUZZ_CHECK(one_line(o.reason) && o.reason[0] == '\'', "a rejected line without a one-line reason: '%s'", o.reason);
        FUZZ_CHECK(strlen(o.reason) < sizeof o.reason, "reason too long");
        FUZZ_CHECK(!o.move[0], "a rejected line with a move");
        break;
    default:
        FUZZ_CHECK(false, "unknown kind %d", (int)kind);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data, *end = text + size;
    check_line(text, size); /* newlines inside are only blanks at its ends */
    while (text < end) {
        const char *newline = memchr(text, '\n', (size_t)(end - text));
        size_t length = newline ? (size_t)(newline - text) : (size_t)(end - text);
        check_line(text, length);
        text += length + (newline != NULL);
    }
    return 0;
}
