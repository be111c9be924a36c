/* count.c — decimal conversion of 128-bit counts. */
#include "count.h"

#include <stdio.h>

char *count_format(Count n, bool grouped, char out[COUNT_TEXT_SIZE]) {
    char reversed[COUNT_TEXT_SIZE];
    int length = 0, digits = 0;
    do {
        if (grouped && digits && digits % 3 == 0)
            reversed[length++] = ',';
        reversed[length++] = (char)('0' + (int)(n % 10));
        digits++;
        n /= 10;
    } while (n);
    for (int i = 0; i < length; i++)
        out[i] = reversed[length - 1 - i];
    out[length] = '\0';
    return out;
}

bool count_parse(const char *text, size_t length, Count *out) {
    const Count max = ~(Count)0;
    Count n = 0;
    if (length == 0)
        return false;
    for (size_t i = 0; i < length; i++) {
        if (text[i] < '0' || text[i] > '9')
            return false;
        unsigned digit = (unsigned)(text[i] - '0');
        if (n > (max - digit) / 10)
            return false;
        n = n * 10 + digit;
    }
    *out = n;
    return true;
}

static const char *const small_numbers[20] = {"zero", "one", "two", "three", "four", "five", "six", "seven",
                                              "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen",
                                              "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"};
static const char *const tens_names[10] = {"", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy",
                                           "eighty", "ninety"};
static const char *const scale_names[13] = {"", "thousand", "million", "billion", "trillion", "quadrillion",
                                            "quintillion", "sextillion", "septillion", "octillion", "nonillion",
                                            "decillion", "undecillion"};

/* Appends the words of 1..999 ("nine hundred and one"). */
static size_t append_group(char *out, size_t at, unsigned n) {
    if (n >= 100) {
        at += (size_t)snprintf(out + at, COUNT_WORDS_SIZE - at, "%s hundred", small_numbers[n / 100]);
        n %= 100;
        if (n)
            at += (size_t)snprintf(out + at, COUNT_WORDS_SIZE - at, " and ");
    }
    if (n >= 20) {
        at += (size_t)snprintf(out + at, COUNT_WORDS_SIZE - at, "%s", tens_names[n / 10]);
        if (n % 10)
            at += (size_t)snprintf(out + at, COUNT_WORDS_SIZE - at, "-%s", small_numbers[n % 10]);
    } else if (n) {
        at += (size_t)snprintf(out + at, COUNT_WORDS_SIZE - at, "%s", small_numbers[n]);
    }
    return at;
}

char *count_words(Count n, char out[COUNT_WORDS_SIZE]) {
    unsigned groups[13];
    int count = 0;
    if (n == 0) {
        snprintf(out, COUNT_WORDS_SIZE, "zero");
        return out;
    }
    for (; n; n /= 1000)
        groups[count++] = (unsigned)(n % 1000);
    size_t at = 0;
    out[0] = '\0';
    for (int g = count - 1; g >= 0; g--) {
        if (!groups[g])
            continue;
        if (at)  /* a last group below a hundred is joined by "and": "one thousand and five" */
            at += (size_t)snprintf(out + at, COUNT_WORDS_SIZE - at, g == 0 && groups[0] < 100 ? " and " : ", ");
        at = append_group(out, at, groups[g]);
        if (g)
            at += (size_t)snprintf(out + at, COUNT_WORDS_SIZE - at, " %s", scale_names[g]);
    }
    return out;
}
