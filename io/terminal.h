/* terminal.h — what perftkit may do on a stream that may be a terminal: redraw a line in
 * place (progress: "\r" and an erase-line sequence) only on a terminal that is not
 * TERM=dumb; colour only where it may redraw and NO_COLOR is not set (whatever its
 * value). The one place these are decided; it reads the environment each time. */
#ifndef PERFTKIT_TERMINAL_H
#define PERFTKIT_TERMINAL_H

#include <stdbool.h>
#include <stdio.h>

/* True when `stream` is a terminal that takes terminal control (TERM is not "dumb"). */
bool terminal_redraws(FILE *stream);

/* True when text for `stream` may carry ANSI colour: terminal_redraws, and NO_COLOR
 * unset. */
bool terminal_colour(FILE *stream);

#endif
