/* core.c — the one start-up call that builds the core's read-only tables: the attack
 * tables and the default Zobrist key set, whose storage is here so that their only
 * writer is in sight. Every other module sees them through const pointers. */
#include "core.h"

static AttackTables tables;
static ZobristKeys default_keys;
static bool built;

const AttackTables *const atk_tables = &tables;

void core_init(void) {
    if (built)
        return;
    atk_tables_make(&tables);
    zob_keys_make(&default_keys, ZOB_DEFAULT_SEED);
    built = true;
}

const ZobristKeys *zob_default_keys(void) { return &default_keys; }
