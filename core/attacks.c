/* attacks.c — builds a value of attack tables. Slider attacks are first computed by
 * walking rays (the reference), then stored per square under a PEXT index or under
 * a magic index found by a seeded search, so every run builds the same tables. Nothing
 * here keeps state: the builder writes only the value it is given. */
#include "attacks.h"

#include <string.h>

static const int rook_steps[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int bishop_steps[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

static bool on_board(int file, int rank) { return file >= 0 && file < 8 && rank >= 0 && rank < 8; }

static Bitboard walk_rays(const int steps[4][2], Square s, Bitboard occupied) {
    Bitboard attacks = 0;
    for (int d = 0; d < 4; d++) {
        int f = sq_file(s) + steps[d][0], r = sq_rank(s) + steps[d][1];
        for (; on_board(f, r); f += steps[d][0], r += steps[d][1]) {
            attacks |= bb_square(sq_make(f, r));
            if (bb_has(occupied, sq_make(f, r)))
                break;
        }
    }
    return attacks;
}

Bitboard atk_rook_reference(Square s, Bitboard occupied) { return walk_rays(rook_steps, s, occupied); }
Bitboard atk_bishop_reference(Square s, Bitboard occupied) { return walk_rays(bishop_steps, s, occupied); }

/* The squares whose occupancy changes a slider's attacks: its rays minus the last square. */
static Bitboard relevant_blockers(const int steps[4][2], Square s) {
    Bitboard mask = 0;
    for (int d = 0; d < 4; d++) {
        int f = sq_file(s) + steps[d][0], r = sq_rank(s) + steps[d][1];
        for (; on_board(f + steps[d][0], r + steps[d][1]); f += steps[d][0], r += steps[d][1])
            mask |= bb_square(sq_make(f, r));
    }
    return mask;
}

#if !PERFTKIT_PEXT
/* xorshift64*: a fixed-seed generator, so the magics found are the same every run. */
static uint64_t next_random(uint64_t *state) {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717ULL;
}

/* The slots a magic candidate has filled, by the number of the attempt (the caller's,
 * so the search keeps no state of its own). */
typedef struct MagicScratch {
    int epoch_of[4096];
    int epoch;
} MagicScratch;

/* Finds a multiplier that maps every blocker subset to a slot without a destructive
 * collision (two subsets may share a slot only when their attacks agree). */
static void find_magic(SliderSlot *slot, Bitboard *table, const Bitboard *subsets,
                       const Bitboard *attacks, int count, uint64_t *rng, MagicScratch *scratch) {
    int *epoch_of = scratch->epoch_of;
    slot->shift = 64 - (unsigned)bb_count(slot->mask);
    for (;;) {
        Bitboard magic = next_random(rng) & next_random(rng) & next_random(rng);
        if (bb_count((slot->mask * magic) >> 56) < 6)
            continue;
        slot->magic = magic;
        int epoch = ++scratch->epoch;
        int i = 0;
        for (; i < count; i++) {
            unsigned index = atk_slot_index(slot, subsets[i]);
            if (epoch_of[index] != epoch) {
                epoch_of[index] = epoch;
                table[index] = attacks[i];
            } else if (table[index] != attacks[i]) {
                break;
            }
        }
        if (i == count)
            return;
    }
}
#endif

/* Fills one slider's slots, each square taking the next free part of `table`. */
static Bitboard *build_slider(SliderSlot slots[SQUARE_NB], const int steps[4][2], Bitboard *table) {
#if !PERFTKIT_PEXT
    uint64_t rng = 0x9E3779B97F4A7C15ULL ^ (uint64_t)(steps == rook_steps);
    MagicScratch scratch = {{0}, 0};
#endif
    for (Square s = 0; s < SQUARE_NB; s++) {
        Bitboard subsets[4096], attacks[4096];
        SliderSlot *slot = &slots[s];
        slot->mask = relevant_blockers(steps, s);
        slot->attacks = table;
        int count = 0;
        Bitboard subset = 0;
        do { /* every subset of the mask, by the carry-rippler trick */
            subsets[count] = subset;
            attacks[count] = walk_rays(steps, s, subset);
            count++;
            subset = (subset - slot->mask) & slot->mask;
        } while (subset);
#if PERFTKIT_PEXT
        for (int i = 0; i < count; i++)
            table[atk_slot_index(slot, subsets[i])] = attacks[i];
#else
        find_magic(slot, table, subsets, attacks, count, &rng, &scratch);
#endif
        table += count;
    }
    return table;
}

static Bitboard leaper_attacks(Square s, const int (*jumps)[2], int n) {
    Bitboard attacks = 0;
    for (int i = 0; i < n; i++) {
        int f = sq_file(s) + jumps[i][0], r = sq_rank(s) + jumps[i][1];
        if (on_board(f, r))
            attacks |= bb_square(sq_make(f, r));
    }
    return attacks;
}

void atk_tables_make(AttackTables *t) {
    static const int knight_jumps[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2},
                                           {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int king_steps[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1},
                                         {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    static const int pawn_captures[2][2][2] = {{{-1, 1}, {1, 1}}, {{-1, -1}, {1, -1}}};

    for (Square s = 0; s < SQUARE_NB; s++) {
        t->knight[s] = leaper_attacks(s, knight_jumps, 8);
        t->king[s] = leaper_attacks(s, king_steps, 8);
        for (Color c = WHITE; c <= BLACK; c++)
            t->pawn[c][s] = leaper_attacks(s, pawn_captures[c], 2);
    }

    Bitboard *end = build_slider(t->rook, rook_steps, t->slider);
    end = build_slider(t->bishop, bishop_steps, end);
    assert(end == t->slider + ATK_ROOK_ENTRIES + ATK_BISHOP_ENTRIES);
    (void)end;

    memset(t->between, 0, sizeof t->between);
    memset(t->line, 0, sizeof t->line);
    for (Square a = 0; a < SQUARE_NB; a++) {
        for (Square b = 0; b < SQUARE_NB; b++) {
            if (a == b)
                continue;
            Bitboard ab = bb_square(a) | bb_square(b);
            Bitboard (*ray)(Square, Bitboard) = NULL;
            if (bb_has(walk_rays(rook_steps, a, 0), b))
                ray = atk_rook_reference;
            else if (bb_has(walk_rays(bishop_steps, a, 0), b))
                ray = atk_bishop_reference;
            if (!ray)
                continue;
            t->between[a][b] = ray(a, bb_square(b)) & ray(b, bb_square(a));
            t->line[a][b] = (ray(a, 0) & ray(b, 0)) | ab;
        }
    }
}

const char *atk_backend_name(void) { return PERFTKIT_PEXT ? "pext" : "magic"; }
