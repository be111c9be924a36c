/* attacks.h — attack sets of every piece from every square, and the geometry
 * between squares. One API whatever the backend: slider lookups index their table
 * with BMI2 PEXT when PERFTKIT_PEXT is set at compile time, with magic multiplication
 * otherwise. The tables are one value, built once by core_init() and read-only to
 * every other module: atk_tables is a const pointer to const. */
#ifndef PERFTKIT_ATTACKS_H
#define PERFTKIT_ATTACKS_H

#include <assert.h>

#include "bitboard.h"

#if PERFTKIT_PEXT
#include <immintrin.h>
#endif

/* Where the attacks of one slider on one square live, and how to index them. */
typedef struct SliderSlot {
    Bitboard mask;           /* relevant blockers: the rays without their edge squares */
    const Bitboard *attacks; /* this square's part of the shared attack table */
#if !PERFTKIT_PEXT
    Bitboard magic;
    unsigned shift;
#endif
} SliderSlot;

/* Rook tables need 102,400 entries and bishop tables 5,248 with one slot per blocker subset. */
enum { ATK_ROOK_ENTRIES = 102400, ATK_BISHOP_ENTRIES = 5248 };

/* Every attack table. The slots point into `slider` of the same value. */
typedef struct AttackTables {
    SliderSlot rook[SQUARE_NB];
    SliderSlot bishop[SQUARE_NB];
    Bitboard knight[SQUARE_NB];
    Bitboard king[SQUARE_NB];
    Bitboard pawn[COLOR_NB][SQUARE_NB];
    Bitboard between[SQUARE_NB][SQUARE_NB];
    Bitboard line[SQUARE_NB][SQUARE_NB];
    Bitboard slider[ATK_ROOK_ENTRIES + ATK_BISHOP_ENTRIES];
} AttackTables;

/* The tables every lookup reads, built by core_init() (storage in core.c beside it);
 * exposed only so the lookups below can inline. */
extern const AttackTables *const atk_tables;

/* Fills `t` (about 1 MB) and writes nothing else; core_init() makes the shared one. */
void atk_tables_make(AttackTables *t);

/* The slider table index: the only place the two backends differ. */
static inline unsigned atk_slot_index(const SliderSlot *slot, Bitboard occupied) {
#if PERFTKIT_PEXT
    return (unsigned)_pext_u64(occupied, slot->mask);
#else
    return (unsigned)(((occupied & slot->mask) * slot->magic) >> slot->shift);
#endif
}

/* Squares the slider of `slot` (&atk_tables->rook[s] or ->bishop[s]) attacks when
 * `occupied` holds the blockers: for code that keeps a slot per slider and so need not
 * branch on its kind. */
static inline Bitboard atk_slot_attacks(const SliderSlot *slot, Bitboard occupied) {
    return slot->attacks[atk_slot_index(slot, occupied)];
}
/* Squares a rook on s attacks when `occupied` holds the blockers. */
static inline Bitboard atk_rook(Square s, Bitboard occupied) {
    assert(s >= 0 && s < SQUARE_NB);
    return atk_slot_attacks(&atk_tables->rook[s], occupied);
}
/* Squares a bishop on s attacks when `occupied` holds the blockers. */
static inline Bitboard atk_bishop(Square s, Bitboard occupied) {
    assert(s >= 0 && s < SQUARE_NB);
    return atk_slot_attacks(&atk_tables->bishop[s], occupied);
}
/* Squares a rook or a bishop on s attacks on an empty board (index 0 in either backend). */
static inline Bitboard atk_rook_empty(Square s) {
    assert(s >= 0 && s < SQUARE_NB);
    return atk_tables->rook[s].attacks[0];
}
static inline Bitboard atk_bishop_empty(Square s) {
    assert(s >= 0 && s < SQUARE_NB);
    return atk_tables->bishop[s].attacks[0];
}
/* Squares a queen on s attacks. */
static inline Bitboard atk_queen(Square s, Bitboard occupied) {
    return atk_rook(s, occupied) | atk_bishop(s, occupied);
}
/* Squares a knight on s attacks. */
static inline Bitboard atk_knight(Square s) {
    assert(s >= 0 && s < SQUARE_NB);
    return atk_tables->knight[s];
}
/* Squares a king on s attacks. */
static inline Bitboard atk_king(Square s) {
    assert(s >= 0 && s < SQUARE_NB);
    return atk_tables->king[s];
}
/* Squares a pawn of colour c on s attacks (captures only, no pushes). */
static inline Bitboard atk_pawn(Color c, Square s) {
    assert(s >= 0 && s < SQUARE_NB && (c == WHITE || c == BLACK));
    return atk_tables->pawn[c][s];
}
/* Squares strictly between a and b on a shared rank, file or diagonal; empty otherwise. */
static inline Bitboard atk_between(Square a, Square b) {
    assert(a >= 0 && a < SQUARE_NB && b >= 0 && b < SQUARE_NB);
    return atk_tables->between[a][b];
}
/* The whole line (edge to edge) through a and b, or empty when they do not share one. */
static inline Bitboard atk_line(Square a, Square b) {
    assert(a >= 0 && a < SQUARE_NB && b >= 0 && b < SQUARE_NB);
    return atk_tables->line[a][b];
}
/* Attacks of a piece type other than pawn from s. */
static inline Bitboard atk_piece(PieceType pt, Square s, Bitboard occupied) {
    switch (pt) {
    case KNIGHT: return atk_knight(s);
    case BISHOP: return atk_bishop(s, occupied);
    case ROOK: return atk_rook(s, occupied);
    case QUEEN: return atk_queen(s, occupied);
    default: return atk_king(s);
    }
}

/* Slider attacks found by walking the rays; slow, the reference the tables are built from. */
Bitboard atk_rook_reference(Square s, Bitboard occupied);
Bitboard atk_bishop_reference(Square s, Bitboard occupied);

/* "pext" or "magic": the backend compiled in. */
const char *atk_backend_name(void);

#endif
