/* epd.h — one line of a perft suite: "<FEN> ;D1 20 ;D2 400 ..." with a 4- or 6-field
 * FEN, optional "id <name>" operation, depths strictly increasing (gaps allowed).
 * Lines that are blank or start with '#' are not records. The FEN is not judged
 * here; fen_parse() does that. Error messages quote the line with text_quote(). */
#ifndef PERFTKIT_EPD_H
#define PERFTKIT_EPD_H

#include "../io/text.h"
#include "../perft/count.h"

/* An error is a reason and a quotation of the line (text_quote: one line, escaped). */
enum { EPD_MAX_DEPTHS = 32, EPD_FEN_SIZE = 256, EPD_ID_SIZE = 64, EPD_ERROR_SIZE = TEXT_QUOTE_SIZE + 96 };

typedef struct EpdExpectation {
    int depth;
    Count nodes;
} EpdExpectation;

typedef struct EpdRecord {
    char fen[EPD_FEN_SIZE];
    char id[EPD_ID_SIZE];          /* empty when the line names none */
    int expectation_count;
    EpdExpectation expect[EPD_MAX_DEPTHS];
} EpdRecord;

typedef enum { EPD_RECORD, EPD_NOT_A_RECORD, EPD_MALFORMED } EpdStatus;

/* Reads one line (trailing CR/LF allowed). On EPD_MALFORMED the reason is in `error`. */
EpdStatus epd_parse_line(const char *line, EpdRecord *out, char *error, size_t error_size);

#endif
