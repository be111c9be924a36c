/* count.c — decimal conversion of 128-bit counts. */
#include "count.h"

#include <string.h>

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
