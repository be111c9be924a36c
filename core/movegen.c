/* movegen.c — the listing generator, one generic body specialised at compile time by
 * colour and by the classes of moves asked (counting lives in bulk.c). Invariants it
 * relies on:
 *  - check_mask is every square when not in check, the checker and the squares
 *    between it and the king in single check, and empty in double check;
 *  - pin_straight / pin_diagonal (threats.h) hold, for every pinned piece, the ray from
 *    the king to its pinner (pinner included). A piece pinned along one ray can only
 *    reach squares of that ray inside these unions, so masking its targets with the
 *    union is exact. */
#include "movegen.h"
#include "threats.h"

#include <stddef.h>
#include <string.h>

#define ALWAYS_INLINE inline __attribute__((always_inline))

/* Checkers and pins; the check mask is every square out of check, none in double check. */
static ALWAYS_INLINE Threats find_threats(const Position *pos, Color us, Square king) {
    Threats t = gen_threats(us, king, pos->by_type[0], pos->by_color[!us], pos->by_type[KNIGHT], pos->by_type[PAWN],
                            pos->by_type[ROOK] | pos->by_type[QUEEN], pos->by_type[BISHOP] | pos->by_type[QUEEN]);
    t.check_mask = !t.checkers ? BB_ALL : bb_several(t.checkers) ? 0 : t.check_mask;
    return t;
}

/* True when colour `them` attacks s with `occupied` as the blockers. */
static ALWAYS_INLINE bool attacked_by(const Position *pos, Color them, Square s, Bitboard occupied) {
    Bitboard theirs = pos->by_color[them];
    if ((atk_knight(s) & pos->by_type[KNIGHT] & theirs) || (atk_pawn(!them, s) & pos->by_type[PAWN] & theirs)
        || (atk_king(s) & pos->by_type[KING] & theirs))
        return true;
    return (atk_bishop(s, occupied) & (pos->by_type[BISHOP] | pos->by_type[QUEEN]) & theirs)
        || (atk_rook(s, occupied) & (pos->by_type[ROOK] | pos->by_type[QUEEN]) & theirs);
}

/* Classes of moves, disjoint: captures (promotions excepted, e.p. included), promotions
 * (capturing or not), quiet moves (everything else, castling included). */
enum { GEN_CAPTURES = 1, GEN_PROMOTIONS = 2, GEN_QUIETS = 4, GEN_ALL = 7 };

/* One move written to the list. */
static ALWAYS_INLINE void emit(Move **out, Square from, Square to, int kind, PieceType promotion) {
    *(*out)++ = kind == MOVE_PROMOTION ? move_make_promotion(from, to, promotion) : move_make_kind(from, to, kind);
}

/* Adds the moves of the man on `from` to every square of `targets`. */
static ALWAYS_INLINE void emit_piece(Move **out, Square from, Bitboard targets) {
    while (targets)
        emit(out, from, bb_pop(&targets), MOVE_NORMAL, 0);
}

/* Adds the moves of every man of `movers`, all moving as `pt` (KNIGHT, or BISHOP and
 * ROOK for the diagonal and straight moves of sliders), to `targets`. */
static ALWAYS_INLINE void emit_men(Move **out, PieceType pt, Bitboard movers, Bitboard occupied, Bitboard targets) {
    while (movers) {
        Square from = bb_pop(&movers);
        emit_piece(out, from, atk_piece(pt, from, occupied) & targets);
    }
}

/* Adds the pawn moves landing on `targets`, each made by the step `step`; moves that
 * reach the last rank become four promotions. */
static ALWAYS_INLINE void emit_pawns(Move **out, Bitboard targets, int step, Bitboard last_rank) {
    Bitboard promotions = targets & last_rank;
    targets &= ~last_rank;
    while (targets) {
        Square to = bb_pop(&targets);
        emit(out, to - step, to, MOVE_NORMAL, 0);
    }
    while (promotions) {
        Square to = bb_pop(&promotions);
        for (PieceType pt = QUEEN; pt >= KNIGHT; pt--)
            emit(out, to - step, to, MOVE_PROMOTION, pt);
    }
}

static ALWAYS_INLINE void generate(const Position *pos, Color us, int classes, Move **out) {
    Color them = !us;
    Bitboard occupied = pos->by_type[0], ours = pos->by_color[us], theirs = pos->by_color[them];
    Square king = bb_first(pos->by_type[KING] & ours);
    Threats t = find_threats(pos, us, king);
    /* Squares pieces may move to for the classes asked; pawns are filtered below. */
    Bitboard class_targets = classes == GEN_ALL ? ~ours
                           : (classes & GEN_CAPTURES ? theirs : 0) | (classes & GEN_QUIETS ? ~occupied : 0);

    /* King: each destination checked with the king lifted, so it cannot hide behind itself. */
    Bitboard king_targets = atk_king(king) & class_targets;
    Bitboard without_king = occupied ^ bb_square(king);
    while (king_targets) {
        Square to = bb_pop(&king_targets);
        if (!attacked_by(pos, them, to, without_king))
            emit(out, king, to, MOVE_NORMAL, 0);
    }
    if (bb_several(t.checkers))
        return;

    Bitboard targets = class_targets & t.check_mask;
    Bitboard pin_s = t.pin_straight, pin_d = t.pin_diagonal, pinned = pin_s | pin_d;
    emit_men(out, KNIGHT, pos->by_type[KNIGHT] & ours & ~pinned, occupied, targets);

    /* Bishops and queens along diagonals, rooks and queens along lines; a pinned
     * slider keeps to its pin ray. Queens are met twice, once per direction kind. */
    Bitboard diagonal = (pos->by_type[BISHOP] | pos->by_type[QUEEN]) & ours & ~pin_s;
    emit_men(out, BISHOP, diagonal & ~pin_d, occupied, targets);
    emit_men(out, BISHOP, diagonal & pin_d, occupied, targets & pin_d);
    Bitboard straight = (pos->by_type[ROOK] | pos->by_type[QUEEN]) & ours & ~pin_d;
    emit_men(out, ROOK, straight & ~pin_s, occupied, targets);
    emit_men(out, ROOK, straight & pin_s, occupied, targets & pin_s);

    /* Pawns: unpinned pawns move freely; a file-pinned pawn may only push along its
     * pin, a diagonally pinned one may only capture its pinner. */
    Bitboard pawns = pos->by_type[PAWN] & ours;
    Bitboard free_pawns = pawns & ~pinned, empty = ~occupied;
    Bitboard last_rank = bb_rank_relative(us, RANK_8);
    Bitboard single = (bb_forward(us, free_pawns) | (bb_forward(us, pawns & pin_s) & pin_s)) & empty;
    Bitboard twice = bb_forward(us, single & bb_rank_relative(us, RANK_3)) & empty & t.check_mask;
    single &= t.check_mask;
    Bitboard diag_pawns = pawns & pin_d;
    Bitboard victims = theirs & t.check_mask;
    Bitboard west = (bb_forward_west(us, free_pawns) | (bb_forward_west(us, diag_pawns) & pin_d)) & victims;
    Bitboard east = (bb_forward_east(us, free_pawns) | (bb_forward_east(us, diag_pawns) & pin_d)) & victims;
    if (classes != GEN_ALL) {
        Bitboard pushes = (classes & GEN_QUIETS ? ~last_rank : 0) | (classes & GEN_PROMOTIONS ? last_rank : 0);
        Bitboard takes = (classes & GEN_CAPTURES ? ~last_rank : 0) | (classes & GEN_PROMOTIONS ? last_rank : 0);
        single &= pushes;
        twice &= classes & GEN_QUIETS ? BB_ALL : 0;
        west &= takes;
        east &= takes;
    }
    emit_pawns(out, single, forward_step(us), last_rank);
    emit_pawns(out, twice, 2 * forward_step(us), 0);
    emit_pawns(out, west, forward_west_step(us), last_rank);
    emit_pawns(out, east, forward_east_step(us), last_rank);

    /* En passant removes two men from one line at once: test it on the board after. */
    if ((classes & GEN_CAPTURES) && pos->ep_square != SQ_NONE) {
        Square ep = pos->ep_square, victim = ep - forward_step(us);
        Bitboard takers = atk_pawn(them, ep) & pawns;
        Bitboard their_hv = (pos->by_type[ROOK] | pos->by_type[QUEEN]) & theirs;
        Bitboard their_diag = (pos->by_type[BISHOP] | pos->by_type[QUEEN]) & theirs;
        Bitboard leaper_checks = t.checkers & (pos->by_type[KNIGHT] | pos->by_type[PAWN]) & ~bb_square(victim);
        while (takers) {
            Square from = bb_pop(&takers);
            Bitboard after = occupied ^ bb_square(from) ^ bb_square(ep) ^ bb_square(victim);
            if (leaper_checks || (atk_rook(king, after) & their_hv) || (atk_bishop(king, after) & their_diag))
                continue;
            emit(out, from, ep, MOVE_EN_PASSANT, 0);
        }
    }

    if ((classes & GEN_QUIETS) && !t.checkers) {
        int rights = pos->castling & castling_of(us);
        while (rights) {
            int index = __builtin_ctz((unsigned)rights);
            rights &= rights - 1;
            if (occupied & pos->castle_empty[index])
                continue;
            Square rook = pos->castle_rook[index];
            Bitboard path = pos->castle_safe[index];
            bool safe = true;
            while (path && safe)
                safe = !attacked_by(pos, them, bb_pop(&path), occupied);
            /* Chess960: the castling rook may have been shielding the king's destination
             * (never so with rooks in the corners). */
            if (!safe || (pos->chess960 && (atk_rook(castle_king_to(index), occupied ^ bb_square(rook))
                                                 & (pos->by_type[ROOK] | pos->by_type[QUEEN]) & theirs)))
                continue;
            emit(out, king, rook, MOVE_CASTLING, 0);
        }
    }
}

static ALWAYS_INLINE int list_moves(const Position *pos, MoveList *list, int classes) {
    Move *out = list->moves;
    if (pos->side == WHITE)
        generate(pos, WHITE, classes, &out);
    else
        generate(pos, BLACK, classes, &out);
    return list->count = (int)(out - list->moves);
}

int gen_legal(const Position *pos, MoveList *list) { return list_moves(pos, list, GEN_ALL); }
int gen_captures(const Position *pos, MoveList *list) { return list_moves(pos, list, GEN_CAPTURES); }
int gen_promotions(const Position *pos, MoveList *list) { return list_moves(pos, list, GEN_PROMOTIONS); }
int gen_quiets(const Position *pos, MoveList *list) { return list_moves(pos, list, GEN_QUIETS); }

/* What the side to move needs to tell quickly whether a move gives check. */
typedef struct CheckInfo {
    Square king;                       /* the enemy king */
    Bitboard squares[PIECE_TYPE_NB];   /* where a piece of each type would attack it now */
    Bitboard blockers;                 /* our men whose leaving a line uncovers one of our sliders */
    Bitboard occupied, straight, diagonal; /* our rook/queen and bishop/queen sets */
} CheckInfo;

static CheckInfo check_info(const Position *pos) {
    Color us = pos->side, them = !us;
    CheckInfo ci;
    memset(&ci, 0, sizeof ci);
    ci.king = pos_king(pos, them);
    ci.occupied = pos_occupied(pos);
    ci.straight = (pos->by_type[ROOK] | pos->by_type[QUEEN]) & pos->by_color[us];
    ci.diagonal = (pos->by_type[BISHOP] | pos->by_type[QUEEN]) & pos->by_color[us];
    ci.squares[PAWN] = atk_pawn(them, ci.king);
    ci.squares[KNIGHT] = atk_knight(ci.king);
    ci.squares[BISHOP] = atk_bishop(ci.king, ci.occupied);
    ci.squares[ROOK] = atk_rook(ci.king, ci.occupied);
    ci.squares[QUEEN] = ci.squares[BISHOP] | ci.squares[ROOK];
    Bitboard snipers = (atk_rook(ci.king, 0) & ci.straight) | (atk_bishop(ci.king, 0) & ci.diagonal);
    while (snipers) {
        Bitboard between = atk_between(ci.king, bb_pop(&snipers)) & ci.occupied;
        if (between && !bb_several(between) && (between & pos->by_color[us]))
            ci.blockers |= between;
    }
    return ci;
}

/* Whether our sliders attack the king once the occupancy is `occupied`. */
static bool sliders_check(const CheckInfo *ci, Bitboard occupied, Bitboard straight, Bitboard diagonal) {
    return (atk_rook(ci->king, occupied) & straight) || (atk_bishop(ci->king, occupied) & diagonal);
}

static bool gives_check(const Position *pos, const CheckInfo *ci, Move m) {
    Square from = move_from(m), to = move_to(m);
    bool discovered = bb_has(ci->blockers, from) && !bb_has(atk_line(from, ci->king), to);
    switch (move_kind(m)) {
    case MOVE_NORMAL: return discovered || bb_has(ci->squares[piece_type(pos->board[from])], to);
    case MOVE_PROMOTION:
        /* The new piece sees through the square its pawn just left. */
        return discovered || bb_has(atk_piece(move_promotion(m), to, ci->occupied ^ bb_square(from)), ci->king);
    case MOVE_EN_PASSANT: {
        Square victim = to - forward_step(pos->side);
        Bitboard after = ci->occupied ^ bb_square(from) ^ bb_square(to) ^ bb_square(victim);
        return bb_has(ci->squares[PAWN], to) || sliders_check(ci, after, ci->straight, ci->diagonal);
    }
    default: { /* castling: the rook checks, or the king and rook uncover a slider */
        int index = 2 * pos->side + (to < from);
        Square king_to = castle_king_to(index), rook_to = castle_rook_to(index);
        Bitboard after = (ci->occupied ^ bb_square(from) ^ bb_square(to)) | bb_square(king_to) | bb_square(rook_to);
        return sliders_check(ci, after, (ci->straight ^ bb_square(to)) | bb_square(rook_to), ci->diagonal);
    }
    }
}

bool gen_gives_check(const Position *pos, Move m) {
    CheckInfo ci = check_info(pos);
    return gives_check(pos, &ci, m);
}

int gen_checks(const Position *pos, MoveList *list) {
    CheckInfo ci = check_info(pos);
    gen_legal(pos, list);
    int kept = 0;
    for (int i = 0; i < list->count; i++)
        if (gives_check(pos, &ci, list->moves[i]))
            list->moves[kept++] = list->moves[i];
    return list->count = kept;
}

Bitboard gen_pinned(const Position *pos) {
    Color us = pos_side(pos);
    Threats t = find_threats(pos, us, pos_king(pos, us));
    return (t.pin_straight | t.pin_diagonal) & pos_color(pos, us);
}

bool gen_is_legal(const Position *pos, Move m) {
    MoveList list;
    gen_legal(pos, &list);
    for (int i = 0; i < list.count; i++)
        if (list.moves[i] == m)
            return true;
    return false;
}
