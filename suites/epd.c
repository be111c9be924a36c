/* epd.c — perft suite lines. Every operation is checked; anything not understood is
 * an error, never skipped, so a typo cannot silently drop a count. */
#include "epd.h"

#include <stdio.h>
#include <string.h>

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

static EpdStatus malformed(char *error, size_t size, const char *what, const char *text, size_t length) {
    char shown[TEXT_QUOTE_SIZE];
    snprintf(error, size, "%s '%s'", what, text_quote_bytes(text, length, shown));
    return EPD_MALFORMED;
}

/* Trims blanks from both ends of [*start, *end). */
static void trim(const char **start, const char **end) {
    while (*start < *end && is_blank(**start))
        (*start)++;
    while (*end > *start && is_blank((*end)[-1]))
        (*end)--;
}

static EpdStatus parse_operation(const char *op, const char *end, EpdRecord *out, char *error, size_t size) {
    size_t length = (size_t)(end - op);
    if (length > 3 && !strncmp(op, "id", 2) && is_blank(op[2])) {
        const char *name = op + 3, *name_end = end;
        trim(&name, &name_end);
        if (name_end - name >= 2 && name[0] == '"' && name_end[-1] == '"') {
            name++;
            name_end--;
        }
        if ((size_t)(name_end - name) >= EPD_ID_SIZE)
            return malformed(error, size, "id longer than 63 characters:", name, (size_t)(name_end - name));
        memcpy(out->id, name, (size_t)(name_end - name));
        out->id[name_end - name] = '\0';
        return EPD_RECORD;
    }
    if (length < 2 || op[0] != 'D' || op[1] < '0' || op[1] > '9')
        return malformed(error, size, "unknown operation", op, length);
    const char *p = op + 1;
    int depth = 0;
    while (p < end && *p >= '0' && *p <= '9' && depth < 1000)
        depth = depth * 10 + (*p++ - '0');
    if (p == end || !is_blank(*p))
        return malformed(error, size, "depth operation without a count:", op, length);
    if (depth < 1 || depth > EPD_MAX_DEPTHS)
        return malformed(error, size, "depth out of range 1..32 in", op, length);
    while (p < end && is_blank(*p))
        p++;
    Count nodes;
    if (!count_parse(p, (size_t)(end - p), &nodes))
        return malformed(error, size, "count is not a whole number in", op, length);
    if (out->expectation_count && out->expect[out->expectation_count - 1].depth >= depth)
        return malformed(error, size, "depths must increase; out of order:", op, length);
    out->expect[out->expectation_count].depth = depth;
    out->expect[out->expectation_count].nodes = nodes;
    out->expectation_count++;
    return EPD_RECORD;
}

EpdStatus epd_parse_line(const char *line, EpdRecord *out, char *error, size_t size) {
    const char *start = line, *end = line + strlen(line);
    trim(&start, &end);
    out->fen[0] = out->id[0] = '\0';
    out->expectation_count = 0;
    if (start == end || *start == '#')
        return EPD_NOT_A_RECORD;

    const char *semicolon = memchr(start, ';', (size_t)(end - start));
    const char *fen_end = semicolon ? semicolon : end;
    trim(&start, &fen_end);
    if (start == fen_end)
        return malformed(error, size, "no FEN before the operations in", line, strlen(line));
    if ((size_t)(fen_end - start) >= EPD_FEN_SIZE)
        return malformed(error, size, "FEN longer than 255 characters:", start, (size_t)(fen_end - start));
    memcpy(out->fen, start, (size_t)(fen_end - start));
    out->fen[fen_end - start] = '\0';

    while (semicolon) {
        const char *op = semicolon + 1;
        semicolon = memchr(op, ';', (size_t)(end - op));
        const char *op_end = semicolon ? semicolon : end;
        trim(&op, &op_end);
        if (op == op_end)
            continue;
        EpdStatus status = parse_operation(op, op_end, out, error, size);
        if (status != EPD_RECORD)
            return status;
    }
    return EPD_RECORD;
}
