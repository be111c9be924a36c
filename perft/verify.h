/* verify.h — cross-checks that catch what plain node counts miss. Each check takes a
 * position and a depth and either passes or names the first thing found wrong:
 *   checks    the checking-move generator lists exactly the legal moves after which
 *             the other side is in check, at every node
 *   split     captures + promotions + quiet moves = the legal moves, without overlap or
 *             duplicates, at every node
 *   mirror    the colour-reversed position has the same perft at every depth
 *   hash      perft is the same hashed and unhashed, on one thread and on several, and
 *             with Zobrist keys from another seed
 *   keys      the incremental key equals the key recomputed from scratch after every
 *             move, pos_key_after() foretells it, and unmake restores the position
 *   notation  every legal move reads back from its SAN and UCI, and the FEN of every
 *             node reads back as the same position */
#ifndef PERFTKIT_VERIFY_H
#define PERFTKIT_VERIFY_H

#include "driver.h"

typedef enum {
    VERIFY_CHECKS, VERIFY_SPLIT, VERIFY_MIRROR, VERIFY_HASH, VERIFY_KEYS, VERIFY_NOTATION, VERIFY_NB
} VerifyCheck;

/* "checks", "split", ...; and one line saying what the check compares. */
const char *verify_name(VerifyCheck check);
const char *verify_description(VerifyCheck check);

/* The seed of the hash check's second key set. */
#define VERIFY_OTHER_SEED 0x1234ABCDULL

/* What the hash check counts with; made once, kept for every position, only read by
 * the checks (so any number of them may run at once). */
typedef struct VerifyDrivers {
    Driver plain;           /* one thread, no tables */
    Driver threaded;        /* several threads, tables */
    Driver rekeyed;         /* several threads, tables that only see other_keys */
    ZobristKeys other_keys; /* from VERIFY_OTHER_SEED */
} VerifyDrivers;

bool verify_drivers_create(VerifyDrivers *drivers, int threads, size_t hash_bytes, char *error, size_t error_size);
void verify_drivers_destroy(VerifyDrivers *drivers);

typedef struct VerifyResult {
    bool pass;
    uint64_t nodes;   /* positions examined (tree checks) or leaves counted (count checks) */
    char detail[512]; /* what was wrong, where, when not passed */
} VerifyResult;

/* Runs one check on the position given as `fen` (read with `chess960`) to `depth`.
 * Writes only `result`: checks may run in parallel with each other and other work. */
void verify_position(VerifyCheck check, const char *fen, bool chess960, int depth, VerifyDrivers *drivers,
                     VerifyResult *result);

#endif
