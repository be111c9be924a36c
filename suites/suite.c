/* suite.c — the line-by-line suite reader. A .perft block becomes one record when the
 * next block starts, a blank line comes, or the input ends. Every line is judged by its
 * length as read (getline's), not by strlen, so a NUL byte cannot hide the rest of a
 * line; a line is either a record, a comment or blank, or reported as malformed. */
#include "suite.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../io/text.h"

bool suite_open(SuiteReader *reader, const char *path, char *error, size_t error_size) {
    memset(reader, 0, sizeof *reader);
    reader->name = path;
    reader->file = fopen(path, "r");
    struct stat info;
    int why = !reader->file ? errno : fstat(fileno(reader->file), &info) ? errno : S_ISDIR(info.st_mode) ? EISDIR : 0;
    if (why) {
        char shown[TEXT_QUOTE_SIZE];
        snprintf(error, error_size, "cannot read '%s': %s", text_quote(path, shown), strerror(why));
        if (reader->file)
            fclose(reader->file);
        reader->file = NULL;
        return false;
    }
    return true;
}

void suite_open_lines(SuiteReader *reader, const char *name, const char *const *lines, size_t count) {
    memset(reader, 0, sizeof *reader);
    reader->name = name;
    reader->lines = lines;
    reader->line_count = count;
}

void suite_close(SuiteReader *reader) {
    if (reader->file)
        fclose(reader->file);
    free(reader->buffer);
    reader->file = NULL;
    reader->buffer = NULL;
}

/* The next line without its end, or NULL at the end of the input. */
static const char *read_line(SuiteReader *reader) {
    if (reader->replay) {
        reader->replay = false;
        return reader->last;
    }
    if (!reader->file) {
        if ((size_t)reader->line_number >= reader->line_count)
            return NULL;
        reader->last = reader->lines[reader->line_number++];
        reader->last_length = strlen(reader->last);
        return reader->last;
    }
    errno = 0;
    ssize_t n = getline(&reader->buffer, &reader->capacity, reader->file);
    if (n < 0) {
        if (ferror(reader->file))
            reader->read_error = errno ? errno : EIO;
        return NULL;
    }
    reader->line_number++;
    size_t bom = reader->line_number == 1 ? text_bom_length(reader->buffer, (size_t)n) : 0;
    if (bom) {
        n -= (ssize_t)bom;
        memmove(reader->buffer, reader->buffer + bom, (size_t)n + 1);
    }
    while (n > 0 && (reader->buffer[n - 1] == '\n' || reader->buffer[n - 1] == '\r'))
        reader->buffer[--n] = '\0';
    reader->last_length = (size_t)n;
    return reader->last = reader->buffer;
}

static bool starts_with_word(const char *line, const char *word) {
    size_t n = strlen(word);
    return !strncmp(line, word, n) && (line[n] == ' ' || line[n] == '\t');
}

static const char *after_word(const char *line) {
    while (*line && *line != ' ' && *line != '\t')
        line++;
    while (*line == ' ' || *line == '\t')
        line++;
    return line;
}

/* Copies `text` without trailing blanks into `out` of `size` bytes; false if too long. */
static bool copy_trimmed(char *out, size_t size, const char *text) {
    size_t n = strlen(text);
    while (n && (text[n - 1] == ' ' || text[n - 1] == '\t'))
        n--;
    if (n >= size)
        return false;
    memcpy(out, text, n);
    out[n] = '\0';
    return true;
}

static void start_block(SuiteReader *reader) {
    memset(&reader->block, 0, sizeof reader->block);
    reader->pending = true;
    reader->block_line = reader->line_number;
    if (reader->has_next_id) {
        memcpy(reader->block.id, reader->next_id, sizeof reader->next_id);
        reader->has_next_id = false;
    }
}

/* Hands over the collected block, if it has a position. */
static bool flush_block(SuiteReader *reader, EpdRecord *record, int *line) {
    bool ready = reader->pending && reader->block.fen[0];
    if (ready) {
        *record = reader->block;
        *line = reader->block_line;
    }
    reader->pending = false;
    return ready;
}

/* The reason, with `text` quoted where the format has its %s. */
static SuiteItem malformed(char *error, size_t size, const char *format, const char *text) {
    char shown[TEXT_QUOTE_SIZE];
    snprintf(error, size, format, text_quote(text, shown));
    return SUITE_MALFORMED;
}

/* A suite is ASCII text: a NUL byte anywhere, or a control or non-ASCII byte outside a
 * comment, makes the line malformed (said with the byte's column), never skipped. */
static bool check_bytes(const char *line, size_t length, char *error, size_t size) {
    const char *p = line;
    while (p < line + length && (*p == ' ' || *p == '\t'))
        p++;
    bool comment = p < line + length && *p == '#';
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)line[i];
        if (c == '\0' || (!comment && (c >= 0x7f || (c < 0x20 && c != '\t')))) {
            char shown[TEXT_QUOTE_SIZE];
            char byte[32] = "a NUL byte";
            if (c)
                snprintf(byte, sizeof byte, "%s byte 0x%02X", c >= 0x80 ? "a non-ASCII" : "a control", c);
            snprintf(error, size, "%s at column %zu in '%s'", byte, i + 1, text_quote_bytes(line, length, shown));
            return false;
        }
    }
    return true;
}

SuiteItem suite_next(SuiteReader *reader, EpdRecord *record, int *line, char *error, size_t error_size) {
    for (;;) {
        const char *text = read_line(reader);
        if (!text) {
            if (flush_block(reader, record, line))
                return SUITE_RECORD;
            if (reader->read_error && !reader->read_error_told) {
                reader->read_error_told = true;
                snprintf(error, error_size, "cannot read on after this line: %s", strerror(reader->read_error));
                return SUITE_MALFORMED;
            }
            return SUITE_END;
        }
        if (!check_bytes(text, reader->last_length, error, error_size))
            return SUITE_MALFORMED;
        while (*text == ' ' || *text == '\t')
            text++;
        if (*text == '\0') { /* a blank line ends a .perft block */
            if (flush_block(reader, record, line))
                return SUITE_RECORD;
            continue;
        }
        if (*text == '#')
            continue;
        if (starts_with_word(text, "id")) {
            char id[EPD_ID_SIZE];
            if (!copy_trimmed(id, sizeof id, after_word(text)))
                return malformed(error, error_size, "id longer than 63 characters: '%s'", after_word(text));
            bool ready = flush_block(reader, record, line);
            memcpy(reader->next_id, id, sizeof id);
            reader->has_next_id = true;
            if (ready)
                return SUITE_RECORD;
            continue;
        }
        if (starts_with_word(text, "epd")) {
            EpdRecord ready_block;
            int ready_line = 0;
            bool ready = reader->pending && reader->block.fen[0] && flush_block(reader, &ready_block, &ready_line);
            start_block(reader);
            if (!copy_trimmed(reader->block.fen, sizeof reader->block.fen, after_word(text))) {
                reader->pending = false;
                return malformed(error, error_size, "FEN longer than 255 characters: '%s'", after_word(text));
            }
            if (ready) {
                *record = ready_block;
                *line = ready_line;
                return SUITE_RECORD;
            }
            continue;
        }
        if (starts_with_word(text, "perft")) {
            char operation[96], op[sizeof operation + 8];
            if (!reader->pending || !reader->block.fen[0])
                return malformed(error, error_size, "'%s' comes before any epd line", text);
            if (reader->block.expectation_count == EPD_MAX_DEPTHS)
                return malformed(error, error_size, "too many perft lines for one position: '%s'", text);
            /* Whole or refused: cut short, "perft 1 20 <blanks> junk" would read as "perft 1 20". */
            if (!copy_trimmed(operation, sizeof operation, after_word(text)))
                return malformed(error, error_size, "'%s' is not 'perft DEPTH COUNT'", text);
            snprintf(op, sizeof op, "x ;D%s", operation); /* "perft 3 8902" reads as ";D3 8902" */
            EpdRecord one;
            if (epd_parse_line(op, &one, error, error_size) != EPD_RECORD || one.expectation_count != 1)
                return malformed(error, error_size, "'%s' is not 'perft DEPTH COUNT'", text);
            EpdRecord *b = &reader->block;
            if (b->expectation_count && b->expect[b->expectation_count - 1].depth >= one.expect[0].depth)
                return malformed(error, error_size, "perft depths must increase: '%s'", text);
            b->expect[b->expectation_count++] = one.expect[0];
            continue;
        }
        /* An EPD line, with or without counts; it also ends a .perft block. */
        bool ready = flush_block(reader, record, line);
        EpdRecord epd;
        EpdStatus status = epd_parse_line(text, &epd, error, error_size);
        if (ready) { /* hand over the block now, and this line again next time */
            reader->replay = true;
            return SUITE_RECORD;
        }
        if (status == EPD_MALFORMED)
            return SUITE_MALFORMED;
        if (status == EPD_NOT_A_RECORD)
            continue;
        *record = epd;
        *line = reader->line_number;
        return SUITE_RECORD;
    }
}

const char *suite_label(const SuiteReader *reader, const char *id, int line, char out[SUITE_LABEL_SIZE]) {
    if (id && id[0]) {
        snprintf(out, SUITE_LABEL_SIZE, "%s", id); /* ASCII without control bytes: checked when read */
        return out;
    }
    const char *slash = strrchr(reader->name, '/');
    char shown[TEXT_QUOTE_SIZE];
    snprintf(out, SUITE_LABEL_SIZE, "%s:%d", text_quote(slash ? slash + 1 : reader->name, shown), line);
    return out;
}
