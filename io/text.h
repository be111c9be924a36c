/* text.h — outside text made safe to quote in a one-line message: at most a fixed
 * number of characters, control bytes, quotes and non-ASCII bytes escaped (\xNN), so
 * nothing from the input reaches the terminal raw or breaks the line. */
#ifndef PERFTKIT_TEXT_H
#define PERFTKIT_TEXT_H

#include <stddef.h>

/* Input characters a quotation shows before it is cut with "...". */
enum { TEXT_QUOTE_CHARS = 60, TEXT_QUOTE_SIZE = 4 * TEXT_QUOTE_CHARS + 48 };

/* Writes `text` (NULL-terminated) escaped and cut into `out`; returns `out`. A cut
 * quotation ends "... (N bytes)". */
char *text_quote(const char *text, char out[TEXT_QUOTE_SIZE]);

/* The same for `length` bytes that may hold NUL bytes. */
char *text_quote_bytes(const char *bytes, size_t length, char out[TEXT_QUOTE_SIZE]);

/* The length of the UTF-8 byte-order mark that opens `text` (some editors write one
 * at the start of a file; it is not part of the text): 3, or 0 when there is none. */
static inline size_t text_bom_length(const char *text, size_t length) {
    return length >= 3 && text[0] == '\xEF' && text[1] == '\xBB' && text[2] == '\xBF' ? 3 : 0;
}

#endif
