/* text.c — quoting outside bytes. Printable ASCII passes as it is; everything else,
 * and the backslash, becomes \xNN, so a quotation is always one line of ASCII. */
#include "text.h"

#include <stdio.h>
#include <string.h>

char *text_quote_bytes(const char *bytes, size_t length, char out[TEXT_QUOTE_SIZE]) {
    size_t n = 0, shown = length < TEXT_QUOTE_CHARS ? length : TEXT_QUOTE_CHARS;
    for (size_t i = 0; i < shown; i++) {
        unsigned char c = (unsigned char)bytes[i];
        if (c >= 0x20 && c < 0x7f && c != '\\')
            out[n++] = (char)c;
        else
            n += (size_t)snprintf(out + n, TEXT_QUOTE_SIZE - n, "\\x%02X", c);
    }
    if (shown < length)
        snprintf(out + n, TEXT_QUOTE_SIZE - n, "... (%zu bytes)", length);
    else
        out[n] = '\0';
    return out;
}

char *text_quote(const char *text, char out[TEXT_QUOTE_SIZE]) {
    return text_quote_bytes(text ? text : "", text ? strlen(text) : 0, out);
}
