/* zobrist.c — draws a key set from its seed. The default set's storage lives in core.c,
 * beside core_init(), its only writer. */
#include "zobrist.h"

/* splitmix64: every 64-bit state gives a well-mixed output, so any seed is usable. */
static uint64_t next_key(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static Key128 next_key128(uint64_t *lo_state, uint64_t *hi_state) {
    Key128 k = {next_key(lo_state), next_key(hi_state)};
    return k;
}

void zob_keys_make(ZobristKeys *keys, uint64_t seed) {
    /* Two streams from unrelated starting points make the halves independent. */
    uint64_t lo_state = seed, hi_state = ~seed * 0xD6E8FEB86659FD93ULL;
    for (Piece p = 0; p < PIECE_NB; p++)
        for (Square s = 0; s < SQUARE_NB; s++)
            keys->psq[p][s] = next_key128(&lo_state, &hi_state);
    for (int i = 0; i < 4; i++)
        for (Square s = 0; s < SQUARE_NB; s++)
            keys->castling[i][s] = next_key128(&lo_state, &hi_state);
    for (int f = 0; f < 8; f++)
        keys->ep_file[f] = next_key128(&lo_state, &hi_state);
    keys->side = next_key128(&lo_state, &hi_state);
    keys->seed = seed;
}

uint64_t zob_keys_seed(const ZobristKeys *keys) { return keys->seed; }
