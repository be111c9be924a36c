/* count.h — node counts wide enough for any perft: start position perft 14 is
 * 61,885,021,521,585,529,237, past 2^64. Decimal text in and out, exact. */
#ifndef PERFTKIT_COUNT_H
#define PERFTKIT_COUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

__extension__ typedef unsigned __int128 Count;

/* Room for the decimal text of any Count (39 digits), with separators and terminator. */
enum { COUNT_TEXT_SIZE = 56 };

/* The decimal text of n; with `grouped`, thousands separated by commas. Returns `out`. */
char *count_format(Count n, bool grouped, char out[COUNT_TEXT_SIZE]);

/* Reads a decimal count of digits only; false on anything else or on overflow. */
bool count_parse(const char *text, size_t length, Count *out);

/* n in English words, British style, as the CIL Toolkit prints it: "three billion, one
 * hundred and ninety-five million, nine hundred and one thousand, eight hundred and
 * sixty". Short scale, up to undecillions. Returns `out` (COUNT_WORDS_SIZE bytes). */
enum { COUNT_WORDS_SIZE = 1024 };
char *count_words(Count n, char out[COUNT_WORDS_SIZE]);

/* n as a double, for rates. */
static inline double count_to_double(Count n) { return (double)n; }

#endif
