/* suite.h — reading suites of positions line by line, in any of three formats, mixed
 * freely in one file:
 *   EPD lines with counts:   <FEN> ;D1 20 ;D2 400 [;id NAME]
 *   python-chess .perft:     id NAME / epd <FEN> / perft 1 20 / perft 2 400 (blocks)
 *   plain FEN lists:         <FEN>   (positions without counts: counted, not checked)
 * A UTF-8 byte-order mark opening the file is skipped, and a line may end in LF or
 * CRLF. Blank lines and lines starting with '#' are skipped; a blank line also ends a .perft
 * block. Every other line is a record or malformed: a malformed line (one with a NUL,
 * control or non-ASCII byte too) is returned as such, with its number and a reason that
 * quotes it safely (text_quote), and reading goes on with the next line. */
#ifndef PERFTKIT_SUITE_H
#define PERFTKIT_SUITE_H

#include <stdio.h>

#include "../io/text.h"
#include "epd.h"

typedef enum { SUITE_RECORD, SUITE_MALFORMED, SUITE_END } SuiteItem;

typedef struct SuiteReader {
    const char *name;                /* file name as given, or "built-in" */
    FILE *file;                      /* NULL when reading built-in lines */
    const char *const *lines;        /* built-in lines, when file is NULL */
    size_t line_count;
    int line_number;                 /* of the last line read */
    size_t last_length;              /* its length as read: it may hold NUL bytes */
    int read_error;                  /* errno of a failed read, then the end */
    bool read_error_told;
    char *buffer;
    size_t capacity;
    const char *last;                /* the last line read */
    bool replay;                     /* hand `last` out again on the next read */
    bool pending;                    /* a .perft block is being collected */
    EpdRecord block;
    int block_line;                  /* where its `epd` line was */
    char next_id[EPD_ID_SIZE];       /* an `id` line read ahead, for the next block */
    bool has_next_id;
} SuiteReader;

/* Opens a file; false, with the reason from the system, when it cannot be read. */
bool suite_open(SuiteReader *reader, const char *path, char *error, size_t error_size);
/* Reads lines held in memory (the built-in quick selection). */
void suite_open_lines(SuiteReader *reader, const char *name, const char *const *lines, size_t count);
void suite_close(SuiteReader *reader);

/* The next record (with the number of the line it starts on), a malformed line (with
 * its number, reader->line_number, and the reason), or the end. A read error is one
 * last malformed item before the end. */
SuiteItem suite_next(SuiteReader *reader, EpdRecord *record, int *line, char *error, size_t error_size);

enum { SUITE_LABEL_SIZE = TEXT_QUOTE_SIZE + 16 };

/* How reports name a position: its id, else "FILE:LINE" with the file's name without
 * its folders (quoted with text_quote, as names are outside text). */
const char *suite_label(const SuiteReader *reader, const char *id, int line, char out[SUITE_LABEL_SIZE]);

#endif
