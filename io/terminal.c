/* terminal.c — terminals, TERM=dumb and NO_COLOR (https://no-color.org). */
#include "terminal.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool terminal_redraws(FILE *stream) {
    int fd = fileno(stream);
    const char *term = getenv("TERM");
    return fd >= 0 && isatty(fd) && !(term && !strcmp(term, "dumb"));
}

bool terminal_colour(FILE *stream) { return terminal_redraws(stream) && !getenv("NO_COLOR"); }
