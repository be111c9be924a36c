/* threats.h — the checkers and pins of the side to move, found once per node, for the
 * two generators (movegen.c lists moves, bulk.c counts them); internal to core/, not
 * part of core.h. Invariants: pin_straight and pin_diagonal hold, for every pinned man,
 * the ray from its king to its pinner, pinner included; check_mask is the checkers and
 * the squares between a slider checker and the king (the evasion squares in single
 * check; callers out of check use every square instead). */
#ifndef PERFTKIT_THREATS_H
#define PERFTKIT_THREATS_H

#include "attacks.h"

typedef struct Threats {
    Bitboard checkers;
    Bitboard check_mask;
    Bitboard pin_straight;
    Bitboard pin_diagonal;
} Threats;

/* The enemy sliders of `snipers`, which see `king` on an empty board along their kind's
 * lines: with no man between they check (square into *checkers, ray into *check_ray),
 * with one they pin it (ray and pinner into *pins). */
static inline __attribute__((always_inline)) void gen_snipers(Square king, Bitboard snipers, Bitboard occupied,
                                                              Bitboard *checkers, Bitboard *check_ray, Bitboard *pins) {
    while (snipers) {
        Square s = bb_pop(&snipers);
        Bitboard ray = atk_between(king, s), blockers = ray & occupied;
        if (!blockers) {
            *checkers |= bb_square(s);
            *check_ray |= ray;
        } else if (!bb_several(blockers)) {
            *pins |= ray | bb_square(s);
        }
    }
}

/* The threats to colour `us`'s king on `king`. The man sets are of both colours
 * (`straight`: rooks and queens, `diagonal`: bishops and queens); `theirs` picks the
 * enemy's. */
static inline __attribute__((always_inline)) Threats gen_threats(Color us, Square king, Bitboard occupied,
                                                                 Bitboard theirs, Bitboard knights, Bitboard pawns,
                                                                 Bitboard straight, Bitboard diagonal) {
    Threats t = {((atk_knight(king) & knights) | (atk_pawn(us, king) & pawns)) & theirs, 0, 0, 0};
    Bitboard check_ray = 0;
    /* Looking through our own men finds checkers (no man between) and pinners (one);
     * the lookup is skipped when no slider of theirs is on the king's lines at all. */
    Bitboard snipers = atk_rook_empty(king) & straight & theirs;
    if (snipers)
        gen_snipers(king, atk_rook(king, theirs) & snipers, occupied, &t.checkers, &check_ray, &t.pin_straight);
    snipers = atk_bishop_empty(king) & diagonal & theirs;
    if (snipers)
        gen_snipers(king, atk_bishop(king, theirs) & snipers, occupied, &t.checkers, &check_ray, &t.pin_diagonal);
    t.check_mask = check_ray | t.checkers;
    return t;
}

#endif
