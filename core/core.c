/* core.c — the one start-up call that builds the core's read-only tables. */
#include "core.h"

void core_init_seeded(uint64_t zobrist_seed) {
    atk_init();
    zob_init(zobrist_seed);
}

void core_init(void) { core_init_seeded(ZOB_DEFAULT_SEED); }
