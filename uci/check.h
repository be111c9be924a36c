/* check.h — an engine's `go perft` against perftkit's own divide, bisected down to the
 * first wrong move path. At each step both divide the same position; when their move
 * lists differ the failure is here (moves the engine lacks, moves it has that are not
 * legal, moves it lists twice); when only counts differ, the walk goes one ply down the
 * first differing root move (in UCI order), until the lists differ or depth 1 is
 * reached. The result is the minimal failing case. */
#ifndef PERFTKIT_CHECK_H
#define PERFTKIT_CHECK_H

#include "../perft/driver.h"
#include "engine.h"
#include "../suites/epd.h"

enum { CHECK_PATH_SIZE = 8 * PERFT_MAX_DEPTH + 8 };

typedef enum { CHECK_AGREE, CHECK_DIFFER, CHECK_BROKEN } CheckOutcome;

typedef struct CheckFailure {
    char start_fen[EPD_FEN_SIZE];
    char path[CHECK_PATH_SIZE];   /* UCI moves from the start, blank-separated; "" at the start */
    char reached_fen[FEN_BUFFER_SIZE];
    int depth;                    /* the depth divided where the difference shows */
    int missing_count, extra_count, duplicated_count;
    char missing[MAX_MOVES][8];   /* legal moves the engine lacks */
    char extra[ENGINE_MAX_LINES][8]; /* moves the engine lists that are not legal */
    char duplicated[MAX_MOVES][8];   /* legal moves the engine lists more than once */
    char note[256];               /* other disagreements, in words ("" when none) */
    int divides;                  /* how many divides the bisection took */
} CheckFailure;

/* Compares `engine` with perftkit on `fen` (read with `chess960`) at `depth`, and on
 * disagreement bisects into `failure`. CHECK_BROKEN leaves the reason in engine->error. */
CheckOutcome check_position(Engine *engine, Driver *driver, const char *fen, bool chess960, int depth,
                            CheckFailure *failure);

#endif
