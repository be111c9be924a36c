/* suite.c — the line-by-line suite reader. A .perft block becomes one record when the
 * next block starts, a blank line comes, or the input ends. */
#include "suite.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool suite_open(SuiteReader *reader, const char *path, char *error, size_t error_size) {
    memset(reader, 0, sizeof *reader);
    reader->name = path;
    reader->file = fopen(path, "r");
    if (!reader->file) {
        snprintf(error, error_size, "cannot read '%s': %s", path, strerror(errno));
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
        return reader->last = reader->lines[reader->line_number++];
    }
    ssize_t n = getline(&reader->buffer, &reader->capacity, reader->file);
    if (n < 0)
        return NULL;
    reader->line_number++;
    while (n > 0 && (reader->buffer[n - 1] == '\n' || reader->buffer[n - 1] == '\r'))
        reader->buffer[--n] = '\0';
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

static SuiteItem malformed(char *error, size_t size, const char *format, const char *text) {
    snprintf(error, size, format, text);
    return SUITE_MALFORMED;
}

SuiteItem suite_next(SuiteReader *reader, EpdRecord *record, int *line, char *error, size_t error_size) {
    for (;;) {
        const char *text = read_line(reader);
        if (!text)
            return flush_block(reader, record, line) ? SUITE_RECORD : SUITE_END;
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
                return malformed(error, error_size, "id longer than 63 characters: '%.40s'", after_word(text));
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
                return malformed(error, error_size, "FEN longer than 255 characters: '%.40s'", after_word(text));
            }
            if (ready) {
                *record = ready_block;
                *line = ready_line;
                return SUITE_RECORD;
            }
            continue;
        }
        if (starts_with_word(text, "perft")) {
            char op[128];
            if (!reader->pending || !reader->block.fen[0])
                return malformed(error, error_size, "'%.40s' comes before any epd line", text);
            if (reader->block.expectation_count == EPD_MAX_DEPTHS)
                return malformed(error, error_size, "too many perft lines for one position: '%.40s'", text);
            snprintf(op, sizeof op, "x ;D%s", after_word(text)); /* "perft 3 8902" reads as ";D3 8902" */
            EpdRecord one;
            if (epd_parse_line(op, &one, error, error_size) != EPD_RECORD || one.expectation_count != 1)
                return malformed(error, error_size, "'%.40s' is not 'perft DEPTH COUNT'", text);
            EpdRecord *b = &reader->block;
            if (b->expectation_count && b->expect[b->expectation_count - 1].depth >= one.expect[0].depth)
                return malformed(error, error_size, "perft depths must increase: '%.40s'", text);
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
