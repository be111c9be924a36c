/* core.c — the one start-up call that builds the core's read-only tables: the attack
 * tables and the default Zobrist key set, whose storage is here so that its only
 * writer is in sight. */
#include "core.h"

static ZobristKeys default_keys;

void core_init(void) {
    atk_init();
    zob_keys_make(&default_keys, ZOB_DEFAULT_SEED);
}

const ZobristKeys *zob_default_keys(void) { return &default_keys; }
