/* bulk.c — the bulk-counting generator behind gen_count_legal, gen_count_after,
 * gen_count_replies, gen_count_replies_after and gen_count_perft: perft without listing, making or unmaking a
 * move. Invariants it relies on:
 *  - a Board is bitboards only (no mailbox, no key); a child is its parent copied with
 *    the move's squares toggled, and is thrown away after it is counted;
 *  - each generator instance is compiled for one side to move and one board status
 *    (castling rights present, an e.p. square present), chosen by a small switch, so
 *    the hot code tests none of those at run time;
 *  - check mask and the straight and diagonal pin rays are computed once per node with
 *    the same contract as movegen.c: every square when not in check, checker and ray
 *    in single check; a pinned piece's targets masked by the union of its kind's rays
 *    stay on its own ray;
 *  - at the last ply moves are counted by popcounts of destination sets, never listed;
 *  - a leaf's parent takes its opponent's pawn, knight and king attacks (`guarded`)
 *    from its own parent: no move of the side to move there changes them. */
#include <stddef.h>
#include <string.h>

#include "movegen.h"
#include "threats.h"

/* A node as the bulk counter sees it: bitboards, side, rights, e.p.; the castling
 * geometry stays in the root's Position, which every call carries along. */
typedef struct BulkBoard {
    Bitboard color[COLOR_NB];
    Bitboard pawns, knights;
    Bitboard diagonal; /* bishops and queens */
    Bitboard straight; /* rooks and queens */
    Bitboard kings;
    uint8_t side;
    uint8_t castling;  /* rights of both sides */
    uint8_t ep;        /* the e.p. square, or SQ_NONE */
} BulkBoard;

#define ALWAYS_INLINE inline __attribute__((always_inline))
#define NOINLINE __attribute__((noinline))

/* What is done with the legal moves of a node: count them (the node is a leaf's
 * parent), count each child's moves (perft 2), or count each child's subtree. */
typedef enum { MODE_COUNT, MODE_REPLIES, MODE_SUBTREE } Mode;

/* The side to move's view of a node, computed once: checkers and check mask, pins. */
static ALWAYS_INLINE Threats find_threats(const BulkBoard *b, Color us, Square king) {
    return gen_threats(us, king, b->color[WHITE] | b->color[BLACK], b->color[!us], b->knights, b->pawns, b->straight,
                       b->diagonal);
}

/* The squares the knights of `knights` attack. */
static ALWAYS_INLINE Bitboard knight_attacks(Bitboard knights) {
    Bitboard attacked = 0;
    while (knights)
        attacked |= atk_knight(bb_pop(&knights));
    return attacked;
}

/* The squares colour `c`'s pawns, knights and king attack: the part of its attacks
 * that no move of the other side changes, so a parent can hand it to its children. */
static ALWAYS_INLINE Bitboard leaper_attacks(const BulkBoard *b, Color c) {
    Bitboard mine = b->color[c];
    return bb_pawn_attacks(c, b->pawns & mine) | atk_king(bb_first(b->kings & mine)) | knight_attacks(b->knights & mine);
}

/* The squares of `need` that colour `them` does not attack once our king has left
 * `king`: `guarded` (their leaper_attacks) taken out first, then sliders square by
 * square or all at once, whichever takes fewer lookups. */
static ALWAYS_INLINE Bitboard safe_squares(const BulkBoard *b, Color us, Square king, Bitboard need,
                                           Bitboard guarded) {
    Color them = !us;
    Bitboard theirs = b->color[them], attacked;
    need &= ~guarded;
    if (!need)
        return 0;
    Bitboard occupied = (b->color[WHITE] | b->color[BLACK]) ^ bb_square(king);
    Bitboard diagonal = b->diagonal & theirs, straight = b->straight & theirs;
    if (2 * bb_count(need) <= bb_count(diagonal) + bb_count(straight)) {
        Bitboard safe = 0, left = need;
        while (left) {
            Square s = bb_pop(&left);
            if (!(atk_bishop(s, occupied) & diagonal) && !(atk_rook(s, occupied) & straight))
                safe |= bb_square(s);
        }
        return safe;
    }
    attacked = 0;
    while (diagonal)
        attacked |= atk_bishop(bb_pop(&diagonal), occupied);
    while (straight)
        attacked |= atk_rook(bb_pop(&straight), occupied);
    return need & ~attacked;
}

/* ---- Children: a copy of the parent with one move's squares toggled ---- */

/* The part common to every move but castling and e.p.: the mover's colour, a capture
 * on `to`, the e.p. square cleared and (when the board has any) the rights spoilt. */
static ALWAYS_INLINE void child_begin(BulkBoard *c, const BulkBoard *b, const Position *geo, Color us, bool rights,
                                      Square from, Square to) {
    *c = *b;
    Bitboard from_to = bb_square(from) | bb_square(to), taken = bb_square(to) & b->color[!us];
    c->color[us] ^= from_to;
    c->color[!us] ^= taken;
    c->pawns &= ~taken;
    c->knights &= ~taken;
    c->diagonal &= ~taken;
    c->straight &= ~taken;
    c->ep = SQ_NONE;
    c->side = (uint8_t)!us;
    if (rights)
        c->castling &= (uint8_t)~(geo->castle_spoil[from] | geo->castle_spoil[to]);
}

/* The child of a move that is not castling, e.p. or a promotion, by whichever man
 * stands on `from`. */
static ALWAYS_INLINE void child_plain(BulkBoard *c, const BulkBoard *b, const Position *geo, Color us, bool rights,
                                      Square from, Square to) {
    child_begin(c, b, geo, us, rights, from, to);
    Bitboard from_bb = bb_square(from), from_to = from_bb | bb_square(to);
    c->pawns ^= c->pawns & from_bb ? from_to : 0;
    c->knights ^= c->knights & from_bb ? from_to : 0;
    c->diagonal ^= c->diagonal & from_bb ? from_to : 0;
    c->straight ^= c->straight & from_bb ? from_to : 0;
    c->kings ^= c->kings & from_bb ? from_to : 0;
}

/* ---- Null-count reuse at a leaf's grandparent ---- */

/* The opponent's move count on the unchanged board (as if we passed), split into parts
 * (each slider, the knights, the pawns, the king), and for each part the squares where
 * a move of ours could change it. A quiet move of ours that gives no check, leaves no
 * e.p. square and leaves their pins as they were (a move on or off the lines from their
 * king up to the second man is tested on the child's lines: lines_kept) changes only
 * the parts whose squares it touches (from or to): those are recounted on the child,
 * the rest reused; when it touches none, and keeps off those lines, the whole count is
 * reused. The parts' squares:
 *  - a slider's: the squares it attacks (blockers included);
 *  - the pawns': the squares they attack and the squares they would push over;
 *  - the king's: the lines from each of its steps and castling squares to the first
 *    man, the knight, king and pawn squares around them, castling's empty squares
 *    and (Chess960) the line on which the castling rook shields the king's destination;
 *  - the knights': none (their targets are every square not theirs).
 * A capture giving no check, keeping their pins and taking no castling rook of theirs,
 * changes their parts the same way, and also drops the taken man's part and makes its
 * square a target for the parts that attack it (reuse_capture); other captures and
 * checks by the moved knight or pawn are counted in full. Off when we are in check (the
 * unchanged board would let them take our king). */
enum { REUSE_MAX_SLIDERS = 30 }; /* 15 men, each queen twice: fits the bits of a uint32_t */

typedef struct Reuse {
    bool active;            /* false: every child is counted in full (we are in check) */
    Bitboard lines;         /* their king's lines up to the second man: a move from or to
                               here may change their pins or check them (lines_kept) */
    Bitboard castle_rooks;  /* their castling rooks: a capture here is counted in full */
    Bitboard knight_checks; /* where a knight of ours would give check */
    Bitboard pawn_checks;   /* where a pawn of ours would give check */
    Bitboard any;           /* theirs, `lines` and every part's squares: a quiet move
                               outside changes nothing */
    Bitboard pawn_squares;
    Bitboard king_squares;
    Bitboard king_steps;    /* their king's steps, not onto their own men */
    Bitboard castle_block;  /* the squares their castlings need empty */
    bool king_steps_only;   /* no castling of theirs is open: their king's part is its
                               steps alone while no move touches castle_block */
    uint8_t their_king;
    int steps;              /* king_steps_only: the steps, each with its lines to the
                               first man both ways (their king not counted as one) */
    uint8_t step_square[8];
    Bitboard step_lines[8];
    int sliders;
    uint8_t slider_square[REUSE_MAX_SLIDERS];
    uint8_t slider_straight[REUSE_MAX_SLIDERS]; /* the part is the queen's or rook's straight moves */
    const SliderSlot *slider_slot[REUSE_MAX_SLIDERS]; /* its attack lookup, either kind: no branch on it */
    Bitboard slider_attacks[REUSE_MAX_SLIDERS];
    /* Filled on first use (count >= 0): */
    Bitboard slider_mask[REUSE_MAX_SLIDERS];    /* every square, or the pin rays it must keep to */
    int slider_count[REUSE_MAX_SLIDERS];
    uint32_t sliders_at[SQUARE_NB];             /* bit i: the square is in slider_attacks[i] */
    Bitboard pin_straight, pin_diagonal;        /* their pins, as in the child */
    Bitboard king_safe;                         /* king_steps_only: the safe steps */
    int pawn_count, king_count;
    int count;              /* their moves on the unchanged board; -1 until needed */
    /* Our pawns', knights' and king's attacks, set in every node that visits children
     * (reuse or not): a child's count takes them as its `guarded`, changed only where
     * the move changes one of those men. */
    Bitboard guard_pawns, guard_knights, guard_king;
} Reuse;

static ALWAYS_INLINE void reuse_setup(Reuse *r, const BulkBoard *b, const Position *geo, Color us, bool rights) {
    Color them = !us;
    Bitboard theirs = b->color[them], occupied = b->color[WHITE] | b->color[BLACK];
    Square king = bb_first(b->kings & theirs);
    r->count = -1;
    r->knight_checks = atk_knight(king);
    r->pawn_checks = atk_pawn(them, king);
    r->active = true;
    r->lines = atk_rook(king, occupied & ~atk_rook(king, occupied))
             | atk_bishop(king, occupied & ~atk_bishop(king, occupied));
    r->castle_rooks = 0;
    r->castle_block = 0;
    r->king_steps_only = true;
    r->their_king = (uint8_t)king;
    Bitboard any = theirs | r->lines;
    int n = 0;
    Bitboard sliders = b->diagonal & theirs;
    while (sliders) {
        Square s = bb_pop(&sliders);
        r->slider_square[n] = (uint8_t)s;
        r->slider_straight[n] = 0;
        r->slider_slot[n] = &atk_tables->bishop[s];
        any |= r->slider_attacks[n++] = atk_bishop(s, occupied);
    }
    sliders = b->straight & theirs;
    while (sliders) {
        Square s = bb_pop(&sliders);
        r->slider_square[n] = (uint8_t)s;
        r->slider_straight[n] = 1;
        r->slider_slot[n] = &atk_tables->rook[s];
        any |= r->slider_attacks[n++] = atk_rook(s, occupied);
    }
    r->sliders = n;
    Bitboard pawns = b->pawns & theirs;
    r->pawn_squares = bb_pawn_attacks(them, pawns) | bb_forward(them, pawns)
                    | bb_forward(them, bb_forward(them, pawns & bb_rank_relative(them, RANK_2)));
    Bitboard zone = atk_king(king) & ~theirs, squares = 0;
    r->king_steps = zone;
    if (rights && (b->castling & castling_of(them))) {
        for (int j = 0; j < 2; j++) {
            int index = 2 * them + j;
            if (b->castling & (1 << index)) {
                squares |= geo->castle_empty[index];
                r->castle_block |= geo->castle_empty[index];
                r->castle_rooks |= bb_square(geo->castle_rook[index]);
                if (!(occupied & geo->castle_empty[index])) {
                    zone |= geo->castle_safe[index];
                    r->king_steps_only = false;
                }
                /* Chess960: the line along which the castling rook shields its king's
                 * destination. */
                if (geo->chess960)
                    squares |= atk_rook(castle_king_to(index), occupied ^ bb_square(geo->castle_rook[index]));
            }
        }
    }
    Bitboard without_king = occupied ^ bb_square(king);
    int steps = 0;
    while (zone) {
        Square z = bb_pop(&zone);
        Bitboard lines = atk_bishop(z, without_king) | atk_rook(z, without_king);
        if (steps < 8) {
            r->step_square[steps] = (uint8_t)z;
            r->step_lines[steps++] = lines;
        }
        squares |= lines | atk_knight(z) | atk_king(z) | atk_pawn(them, z);
    }
    r->steps = steps;
    r->king_squares = squares;
    r->any = any | r->pawn_squares | squares;
}

static int count_side(const BulkBoard *b, const Position *geo, Color us, bool rights, bool may_ep,
                      Bitboard guarded);
static int king_count(const BulkBoard *b, const Position *geo, Color us, bool rights, Bitboard guarded);

/* The pawn moves of side `us`, counted: promotions four times. */
static ALWAYS_INLINE int pawn_count(Color us, Bitboard pawns, Bitboard occupied, Bitboard enemies, Bitboard pin_s,
                                    Bitboard pin_d, Bitboard check_mask) {
    Bitboard free = pawns & ~(pin_s | pin_d), empty = ~occupied;
    Bitboard single = (bb_forward(us, free) | (bb_forward(us, pawns & pin_s) & pin_s)) & empty;
    Bitboard twice = bb_forward(us, single & bb_rank_relative(us, RANK_3)) & empty & check_mask;
    single &= check_mask;
    Bitboard west = (bb_forward_west(us, free) | (bb_forward_west(us, pawns & pin_d) & pin_d)) & enemies & check_mask;
    Bitboard east = (bb_forward_east(us, free) | (bb_forward_east(us, pawns & pin_d) & pin_d)) & enemies & check_mask;
    int count = bb_count(single) + bb_count(west) + bb_count(east) + bb_count(twice);
    if (pawns & bb_rank_relative(us, RANK_7)) {
        Bitboard last = bb_rank_relative(us, RANK_8);
        count += 3 * (bb_count(single & last) + bb_count(west & last) + bb_count(east & last));
    }
    return count;
}

/* Splits their count on the unchanged board into its parts (first use only). */
static NOINLINE void reuse_fill(Reuse *r, const BulkBoard *b, const Position *geo, Color us, bool rights) {
    Color them = !us;
    BulkBoard null = *b;
    null.side = (uint8_t)them;
    null.ep = SQ_NONE;
    Bitboard theirs = b->color[them], occupied = b->color[WHITE] | b->color[BLACK];
    Threats t = find_threats(&null, them, bb_first(b->kings & theirs));
    Bitboard pin_s = t.pin_straight, pin_d = t.pin_diagonal;
    r->pin_straight = pin_s;
    r->pin_diagonal = pin_d;
    int count = 0;
    memset(r->sliders_at, 0, sizeof r->sliders_at);
    for (int i = 0; i < r->sliders; i++) {
        for (Bitboard attacks = r->slider_attacks[i]; attacks;)
            r->sliders_at[bb_pop(&attacks)] |= 1u << i;
        Bitboard from = bb_square(r->slider_square[i]);
        Bitboard own = r->slider_straight[i] ? pin_s : pin_d, other = r->slider_straight[i] ? pin_d : pin_s;
        r->slider_mask[i] = from & other ? 0 : from & own ? own : BB_ALL;
        count += r->slider_count[i] = bb_count(r->slider_attacks[i] & ~theirs & r->slider_mask[i]);
    }
    Bitboard knights = b->knights & theirs & ~(pin_s | pin_d);
    while (knights)
        count += bb_count(atk_knight(bb_pop(&knights)) & ~theirs);
    r->pawn_count = pawn_count(them, b->pawns & theirs, occupied, b->color[us], pin_s, pin_d, BB_ALL);
    Bitboard guarded = r->guard_pawns | r->guard_knights | r->guard_king;
    if (r->king_steps_only) {
        r->king_safe = safe_squares(&null, them, r->their_king, r->king_steps, guarded);
        r->king_count = bb_count(r->king_safe);
    } else {
        r->king_count = king_count(&null, geo, them, rights, guarded);
    }
    r->count = count + r->pawn_count + r->king_count;
}

/* `n` children whose opponent's count is the unchanged board's. */
static ALWAYS_INLINE uint64_t reuse_take(Reuse *r, const BulkBoard *b, const Position *geo, Color us, bool rights,
                                         int n) {
    if (!n)
        return 0;
    if (r->count < 0)
        reuse_fill(r, b, geo, us, rights);
    return (uint64_t)n * (uint64_t)r->count;
}

/* Our leaper_attacks() after our move from `from` to `to` (not a promotion): the
 * parent's, with the moved man's kind recomputed. */
static ALWAYS_INLINE Bitboard guard_after(const Reuse *r, const BulkBoard *b, Color us, Square from, Square to) {
    Bitboard from_bb = bb_square(from), from_to = from_bb | bb_square(to), mine = b->color[us];
    if (b->pawns & from_bb)
        return bb_pawn_attacks(us, (b->pawns & mine) ^ from_to) | r->guard_knights | r->guard_king;
    if (b->knights & from_bb)
        return knight_attacks((b->knights & mine) ^ from_to) | r->guard_pawns | r->guard_king;
    if (b->kings & from_bb)
        return atk_king(to) | r->guard_pawns | r->guard_knights;
    return r->guard_pawns | r->guard_knights | r->guard_king;
}

/* How their king's count changes with our move from `from` to `to` (not a promotion),
 * recounted on the child: the general case (a capture, or a castling of theirs open or
 * touched by the move). */
static NOINLINE int reuse_king_delta(const Reuse *r, const BulkBoard *b, const Position *geo, Color us, bool rights,
                                     Square from, Square to) {
    BulkBoard c;
    child_plain(&c, b, geo, us, rights, from, to);
    return king_count(&c, geo, !us, rights, guard_after(r, b, us, from, to)) - r->king_count;
}

/* How their king's count changes with our quiet move from `from` to `to` (not a
 * promotion) when it is its steps alone (r->king_steps_only, the move off
 * castle_block): only the steps whose attackers the move can change are tested again,
 * those where our pawns', knights' or king's attacks change and those on a line through
 * `from` or `to` (sliding attacks are symmetric, so a line from the step to a slider of
 * ours changes only if it holds `from` or `to`). */
static NOINLINE int king_steps_delta(const Reuse *r, const BulkBoard *b, Color us, Square from, Square to) {
    Bitboard from_bb = bb_square(from), from_to = from_bb | bb_square(to), ours = b->color[us];
    Bitboard guarded = r->guard_pawns | r->guard_knights | r->guard_king;
    Bitboard guarded_after = guard_after(r, b, us, from, to);
    Bitboard recheck = r->king_steps & (guarded ^ guarded_after);
    /* Branch-free: which lines the move touches is not predictable. */
    for (int k = 0; k < r->steps; k++)
        recheck |= bb_square(r->step_square[k]) & -(Bitboard)((r->step_lines[k] & from_to) != 0);
    if (!recheck)
        return 0;
    Bitboard occupied = (b->color[WHITE] | b->color[BLACK]) ^ bb_square(r->their_king) ^ from_to;
    Bitboard diagonal = b->diagonal & ours, straight = b->straight & ours, safe = 0;
    diagonal ^= diagonal & from_bb ? from_to : 0;
    straight ^= straight & from_bb ? from_to : 0;
    for (Bitboard left = recheck & ~guarded_after; left;) {
        Square s = bb_pop(&left);
        if (!(atk_bishop(s, occupied) & diagonal) && !(atk_rook(s, occupied) & straight))
            safe |= bb_square(s);
    }
    return bb_count(safe) - bb_count(recheck & r->king_safe);
}

/* Their count after our quiet move from `from` to `to`, giving no check and keeping
 * their pins: the parts the move touches recounted on the child, the others reused.
 * The parts are filled (r->count >= 0). */
static NOINLINE int reuse_partial(const Reuse *r, const BulkBoard *b, const Position *geo, Color us, bool rights,
                                  Square from, Square to) {
    Color them = !us;
    Bitboard from_bb = bb_square(from), from_to = from_bb | bb_square(to);
    Bitboard theirs = b->color[them], occupied = (b->color[WHITE] | b->color[BLACK]) ^ from_to;
    int count = r->count;
    /* Only the sliders whose attacks hold `from` or `to` see the move. */
    for (uint32_t touched = r->sliders_at[from] | r->sliders_at[to]; touched; touched &= touched - 1) {
        int i = __builtin_ctz(touched);
        Bitboard attacks = atk_slot_attacks(r->slider_slot[i], occupied);
        count += bb_count(attacks & ~theirs & r->slider_mask[i]) - r->slider_count[i];
    }
    if (from_to & r->pawn_squares)
        count += pawn_count(them, b->pawns & theirs, occupied, b->color[us] ^ from_to, r->pin_straight,
                            r->pin_diagonal, BB_ALL) - r->pawn_count;
    if (from_to & r->king_squares)
        count += r->king_steps_only && !(from_to & r->castle_block) ? king_steps_delta(r, b, us, from, to)
                                                                    : reuse_king_delta(r, b, geo, us, rights, from, to);
    return count;
}

/* Their count after our capture from `from` on `to`, giving no check, keeping their
 * pins and taking no castling rook: the sliders that see `from` or `to` recounted (`to` is now a target
 * of theirs, `from` empty), the taken man's part dropped, the knights that attack `to`
 * given it as a move, the pawns and king recounted when the move touches their squares
 * (`to` stays occupied, so their pushes see only `from` change). */
static NOINLINE int reuse_capture(Reuse *r, const BulkBoard *b, const Position *geo, Color us, bool rights,
                                  Square from, Square to) {
    if (r->count < 0)
        reuse_fill(r, b, geo, us, rights);
    Color them = !us;
    Bitboard from_bb = bb_square(from), to_bb = bb_square(to), from_to = from_bb | to_bb;
    Bitboard theirs = b->color[them] ^ to_bb, occupied = (b->color[WHITE] | b->color[BLACK]) ^ from_bb;
    int count = r->count;
    uint32_t taken = 0; /* the taken man's slider parts (two for a queen) */
    if (to_bb & (b->diagonal | b->straight))
        for (int i = 0; i < r->sliders; i++)
            if (r->slider_square[i] == to) {
                taken |= 1u << i;
                count -= r->slider_count[i];
            }
    for (uint32_t touched = (r->sliders_at[from] | r->sliders_at[to]) & ~taken; touched; touched &= touched - 1) {
        int i = __builtin_ctz(touched);
        Bitboard attacks = atk_slot_attacks(r->slider_slot[i], occupied);
        count += bb_count(attacks & ~theirs & r->slider_mask[i]) - r->slider_count[i];
    }
    Bitboard pinned = r->pin_straight | r->pin_diagonal;
    count += bb_count(atk_knight(to) & b->knights & theirs & ~pinned);
    if (to_bb & b->knights)
        count -= bb_count(atk_knight(to) & ~b->color[them]);
    if ((from_to & r->pawn_squares) || (to_bb & b->pawns))
        count += pawn_count(them, b->pawns & theirs, occupied, b->color[us] ^ from_to, r->pin_straight,
                            r->pin_diagonal, BB_ALL) - r->pawn_count;
    /* A man taken next to their king leaves a man of ours it may take. */
    if ((from_to & r->king_squares) || (to_bb & atk_king(bb_first(b->kings & b->color[them]))))
        count += reuse_king_delta(r, b, geo, us, rights, from, to);
    return count;
}

/* Whether our move from `from` to `to` (a capture or not) leaves their king unchecked
 * and their pin rays exactly as on the unchanged board (r->pin_*, so filled first):
 * then the parts' recount holds on and next to their king's lines. */
static ALWAYS_INLINE bool lines_kept(const Reuse *r, const BulkBoard *b, const Position *geo, Color us, bool rights,
                                     Square from, Square to) {
    BulkBoard c;
    child_plain(&c, b, geo, us, rights, from, to);
    Threats t = find_threats(&c, !us, bb_first(c.kings & c.color[!us]));
    return !t.checkers && t.pin_straight == r->pin_straight && t.pin_diagonal == r->pin_diagonal;
}

/* The children of one man's quiet moves and captures to `targets` that reuse can count:
 * quiet ones wholly outside every part's squares and their king's lines in bulk, other
 * quiet ones and captures not of a castling rook one by one, those from or to their
 * king's lines only when lines_kept. Returns what they add; removes them from
 * *targets. `checks`: squares where the man would check. */
static ALWAYS_INLINE uint64_t reuse_moves(Reuse *r, const BulkBoard *b, const Position *geo, Color us, bool rights,
                                          Square from, Bitboard *targets, Bitboard checks) {
    if (!r->active)
        return 0;
    Bitboard from_bb = bb_square(from), theirs = b->color[!us];
    uint64_t sum = 0;
    if (!(from_bb & r->any)) {
        Bitboard same = *targets & ~(r->any | checks);
        sum += reuse_take(r, b, geo, us, rights, bb_count(same));
        *targets ^= same;
    }
    Bitboard quiet = *targets & ~(theirs | checks);
    Bitboard captures = *targets & theirs & ~(r->castle_rooks | checks);
    if (!(quiet | captures))
        return sum;
    if (r->count < 0)
        reuse_fill(r, b, geo, us, rights);
    Bitboard tested = from_bb & r->lines ? quiet | captures : (quiet | captures) & r->lines;
    for (Bitboard left = tested; left;) {
        Square to = bb_pop(&left);
        if (!lines_kept(r, b, geo, us, rights, from, to)) {
            quiet &= ~bb_square(to);
            captures &= ~bb_square(to);
        }
    }
    *targets ^= quiet | captures;
    while (quiet)
        sum += (uint64_t)reuse_partial(r, b, geo, us, rights, from, bb_pop(&quiet));
    while (captures)
        sum += (uint64_t)reuse_capture(r, b, geo, us, rights, from, bb_pop(&captures));
    return sum;
}

/* The child of castling with right `index`: king from `king`, rook from `rook`. */
static ALWAYS_INLINE void child_castle(BulkBoard *c, const BulkBoard *b, Color us, int index, Square king,
                                       Square rook) {
    Bitboard king_move = bb_square(king) ^ bb_square(castle_king_to(index));
    Bitboard rook_move = bb_square(rook) ^ bb_square(castle_rook_to(index));
    *c = *b;
    c->kings ^= king_move;
    c->straight ^= rook_move;
    c->color[us] ^= king_move ^ rook_move;
    c->ep = SQ_NONE;
    c->side = (uint8_t)!us;
    c->castling &= (uint8_t)~castling_of(us);
}

/* The child of the e.p. capture from `from` onto `ep`. */
static ALWAYS_INLINE void child_en_passant(BulkBoard *c, const BulkBoard *b, Color us, Square from, Square ep) {
    Bitboard from_to = bb_square(from) | bb_square(ep), victim = bb_square(ep - forward_step(us));
    *c = *b;
    c->color[us] ^= from_to;
    c->color[!us] ^= victim;
    c->pawns ^= from_to | victim;
    c->ep = SQ_NONE;
    c->side = (uint8_t)!us;
}

/* Forward declaration of the dispatcher of deeper subtrees, defined after the generator. */
static uint64_t subtree(const BulkBoard *b, const Position *geo, int depth);

/* What a child is worth to its parent in `mode`: its own legal moves (REPLIES) or its
 * perft(depth - 1) (SUBTREE). `may_ep` says whether the child can have an e.p. square;
 * `guarded`: our leaper_attacks() in the child (REPLIES only). */
static ALWAYS_INLINE uint64_t visit(const BulkBoard *c, const Position *geo, Color us, bool rights, bool may_ep,
                                    Mode mode, int depth, Bitboard guarded) {
    if (mode == MODE_REPLIES)
        return (uint64_t)count_side(c, geo, !us, rights, may_ep, guarded);
    return subtree(c, geo, depth - 1);
}

/* The moves of a non-king piece of kind `moved` (KNIGHT, BISHOP for any diagonal
 * mover, ROOK for any straight mover) from `from` to each of `targets`. */
static ALWAYS_INLINE uint64_t emit_piece(const BulkBoard *b, const Position *geo, Color us, bool rights, Mode mode,
                                         int depth, Reuse *r, PieceType moved, Square from, Bitboard targets) {
    uint64_t sum = 0;
    Bitboard from_bb = bb_square(from);
    if (mode == MODE_REPLIES)
        sum += reuse_moves(r, b, geo, us, rights, from, &targets, moved == KNIGHT ? r->knight_checks : 0);
    /* A queen moves in both of its sets. */
    Bitboard queen = moved == BISHOP ? (b->straight & from_bb ? BB_ALL : 0)
                   : moved == ROOK ? (b->diagonal & from_bb ? BB_ALL : 0) : 0;
    if (!targets)
        return sum;
    Bitboard guarded = r->guard_pawns | r->guard_king;
    if (moved == KNIGHT)
        guarded |= knight_attacks(b->knights & b->color[us] & ~from_bb);
    else
        guarded |= r->guard_knights;
    while (targets) {
        Square to = bb_pop(&targets);
        Bitboard from_to = from_bb | bb_square(to);
        BulkBoard c;
        child_begin(&c, b, geo, us, rights, from, to);
        if (moved == KNIGHT) {
            c.knights ^= from_to;
        } else if (moved == BISHOP) {
            c.diagonal ^= from_to;
            c.straight ^= from_to & queen;
        } else {
            c.straight ^= from_to;
            c.diagonal ^= from_to & queen;
        }
        sum += visit(&c, geo, us, rights, false, mode, depth, moved == KNIGHT ? guarded | atk_knight(to) : guarded);
    }
    return sum;
}

/* The moves of every man of `movers`, all moving as `moved` (as in emit_piece), to
 * `targets`: counted (COUNT) or visited. */
static ALWAYS_INLINE uint64_t men_of_kind(const BulkBoard *b, const Position *geo, Color us, bool rights, Mode mode,
                                          int depth, Reuse *r, PieceType moved, Bitboard movers, Bitboard occupied,
                                          Bitboard targets) {
    uint64_t sum = 0;
    while (movers) {
        Square from = bb_pop(&movers);
        Bitboard to = atk_piece(moved, from, occupied) & targets;
        sum += mode == MODE_COUNT ? (uint64_t)bb_count(to)
                                  : emit_piece(b, geo, us, rights, mode, depth, r, moved, from, to);
    }
    return sum;
}

/* Pawn moves onto `targets`, each made by the step `step`; those reaching the last
 * rank become four promotions. `twice`: double pushes, which may leave an e.p. square. */
static ALWAYS_INLINE uint64_t emit_pawns(const BulkBoard *b, const Position *geo, Color us, bool rights, Mode mode,
                                         int depth, const Reuse *r, Bitboard targets, int step, bool twice) {
    uint64_t sum = 0;
    Bitboard others = r->guard_knights | r->guard_king, pawns = b->pawns & b->color[us];
    Bitboard last_rank = twice ? 0 : bb_rank_relative(us, RANK_8);
    Bitboard promotions = targets & last_rank;
    targets &= ~last_rank;
    while (targets) {
        Square to = bb_pop(&targets), from = to - step;
        BulkBoard c;
        child_begin(&c, b, geo, us, rights, from, to);
        c.pawns ^= bb_square(from) | bb_square(to);
        if (twice) {
            Square passed = from + step / 2;
            if (atk_pawn(us, passed) & b->pawns & b->color[!us])
                c.ep = (uint8_t)passed;
        }
        Bitboard guarded = others | bb_pawn_attacks(us, pawns ^ bb_square(from) ^ bb_square(to));
        sum += visit(&c, geo, us, rights, twice, mode, depth, guarded);
    }
    while (promotions) {
        Square to = bb_pop(&promotions), from = to - step;
        BulkBoard c;
        child_begin(&c, b, geo, us, rights, from, to);
        c.pawns ^= bb_square(from);
        Bitboard to_bb = bb_square(to), guarded = others | bb_pawn_attacks(us, pawns ^ bb_square(from));
        BulkBoard q = c;
        q.diagonal |= to_bb;
        q.straight |= to_bb;
        sum += visit(&q, geo, us, rights, false, mode, depth, guarded);
        q = c;
        q.straight |= to_bb;
        sum += visit(&q, geo, us, rights, false, mode, depth, guarded);
        q = c;
        q.diagonal |= to_bb;
        sum += visit(&q, geo, us, rights, false, mode, depth, guarded);
        c.knights |= to_bb;
        sum += visit(&c, geo, us, rights, false, mode, depth, guarded | atk_knight(to));
    }
    return sum;
}

/* The pawn moves of `offered` (a subset of *targets), each made by the step `step`,
 * offered to reuse one at a time; those it cannot count stay in *targets. */
static ALWAYS_INLINE uint64_t reuse_pawn_moves(Reuse *r, const BulkBoard *b, const Position *geo, Color us,
                                               bool rights, Bitboard *targets, Bitboard offered, int step) {
    uint64_t sum = 0;
    *targets ^= offered;
    while (offered) {
        Square to = bb_pop(&offered);
        Bitboard one = bb_square(to);
        sum += reuse_moves(r, b, geo, us, rights, to - step, &one, 0);
        *targets |= one;
    }
    return sum;
}

/* Pawn moves onto `targets` counted: four for each promotion. */
static ALWAYS_INLINE int count_pawns(Color us, Bitboard targets, bool promote) {
    return bb_count(targets) + (promote ? 3 * bb_count(targets & bb_rank_relative(us, RANK_8)) : 0);
}

/* The moves of every man but the king, counted (COUNT) or visited, under check mask
 * `check_mask` (BB_ALL, a constant, out of check). */
static ALWAYS_INLINE uint64_t men_moves(const BulkBoard *b, const Position *geo, Color us, bool rights, bool has_ep,
                                        Mode mode, int depth, Reuse *r, Square king, const Threats *t,
                                        Bitboard check_mask) {
    Color them = !us;
    uint64_t sum = 0;
    Bitboard ours = b->color[us], theirs = b->color[them], occupied = ours | theirs;
    Bitboard targets = ~ours & check_mask;
    Bitboard pin_s = t->pin_straight, pin_d = t->pin_diagonal, pinned = pin_s | pin_d;

    sum += men_of_kind(b, geo, us, rights, mode, depth, r, KNIGHT, b->knights & ours & ~pinned, occupied, targets);
    /* Queens are met twice, once per direction kind; a pinned slider keeps to its ray. */
    Bitboard diagonal = b->diagonal & ours & ~pin_s, straight = b->straight & ours & ~pin_d;
    sum += men_of_kind(b, geo, us, rights, mode, depth, r, BISHOP, diagonal & ~pin_d, occupied, targets);
    sum += men_of_kind(b, geo, us, rights, mode, depth, r, BISHOP, diagonal & pin_d, occupied, targets & pin_d);
    sum += men_of_kind(b, geo, us, rights, mode, depth, r, ROOK, straight & ~pin_s, occupied, targets);
    sum += men_of_kind(b, geo, us, rights, mode, depth, r, ROOK, straight & pin_s, occupied, targets & pin_s);

    /* Pawns: unpinned pawns move freely; a file-pinned pawn may only push along its
     * pin, a diagonally pinned one may only capture along its pin. */
    Bitboard pawns = b->pawns & ours, free = pawns & ~pinned, empty = ~occupied;
    Bitboard single = (bb_forward(us, free) | (bb_forward(us, pawns & pin_s) & pin_s)) & empty;
    Bitboard twice = bb_forward(us, single & bb_rank_relative(us, RANK_3)) & empty & check_mask;
    single &= check_mask;
    Bitboard west = (bb_forward_west(us, free) | (bb_forward_west(us, pawns & pin_d) & pin_d)) & theirs & check_mask;
    Bitboard east = (bb_forward_east(us, free) | (bb_forward_east(us, pawns & pin_d) & pin_d)) & theirs & check_mask;
    if (mode == MODE_COUNT) {
        if (pawns & bb_rank_relative(us, RANK_7))
            sum += (uint64_t)(count_pawns(us, single, true) + count_pawns(us, west, true) + count_pawns(us, east, true));
        else
            sum += (uint64_t)(bb_count(single) + bb_count(west) + bb_count(east));
        sum += (uint64_t)bb_count(twice);
    } else {
        if (mode == MODE_REPLIES && r->active) {
            /* Quiet pushes, giving no check and (double pushes) leaving no e.p. square. */
            Bitboard their_pawns = b->pawns & theirs;
            Bitboard quiet_single = single & ~r->pawn_checks & ~bb_rank_relative(us, RANK_8);
            Bitboard quiet_twice = twice & ~r->pawn_checks & ~(bb_east(their_pawns) | bb_west(their_pawns));
            sum += reuse_pawn_moves(r, b, geo, us, rights, &single, quiet_single, forward_step(us));
            sum += reuse_pawn_moves(r, b, geo, us, rights, &twice, quiet_twice, 2 * forward_step(us));
            /* Captures giving no check and promoting nothing. */
            Bitboard plain = ~r->pawn_checks & ~r->castle_rooks & ~bb_rank_relative(us, RANK_8);
            sum += reuse_pawn_moves(r, b, geo, us, rights, &west, west & plain, forward_west_step(us));
            sum += reuse_pawn_moves(r, b, geo, us, rights, &east, east & plain, forward_east_step(us));
        }
        sum += emit_pawns(b, geo, us, rights, mode, depth, r, single, forward_step(us), false);
        sum += emit_pawns(b, geo, us, rights, mode, depth, r, twice, 2 * forward_step(us), true);
        sum += emit_pawns(b, geo, us, rights, mode, depth, r, west, forward_west_step(us), false);
        sum += emit_pawns(b, geo, us, rights, mode, depth, r, east, forward_east_step(us), false);
    }

    /* En passant removes two men from one line at once: test it on the board after. */
    if (has_ep && b->ep != SQ_NONE) {
        Square ep = b->ep, victim = ep - forward_step(us);
        Bitboard takers = atk_pawn(them, ep) & pawns;
        Bitboard leaper_checks = t->checkers & (b->knights | b->pawns) & ~bb_square(victim);
        while (takers && !leaper_checks) {
            Square from = bb_pop(&takers);
            Bitboard after = occupied ^ bb_square(from) ^ bb_square(ep) ^ bb_square(victim);
            if ((atk_rook(king, after) & b->straight & theirs) || (atk_bishop(king, after) & b->diagonal & theirs))
                continue;
            if (mode == MODE_COUNT) {
                sum++;
            } else {
                BulkBoard c;
                child_en_passant(&c, b, us, from, ep);
                Bitboard from_to = bb_square(from) | bb_square(ep);
                Bitboard guarded = r->guard_knights | r->guard_king | bb_pawn_attacks(us, pawns ^ from_to);
                sum += visit(&c, geo, us, rights, false, mode, depth, guarded);
            }
        }
    }
    return sum;
}

/* King moves and castling, counted (COUNT) or visited. */
static ALWAYS_INLINE uint64_t king_moves(const BulkBoard *b, const Position *geo, Color us, bool castles, bool rights,
                                         Mode mode, int depth, Reuse *r, Square king, Bitboard checkers,
                                         Bitboard guarded) {
    Bitboard ours = b->color[us], occupied = b->color[WHITE] | b->color[BLACK];
    Bitboard steps = atk_king(king) & ~ours, need = steps;
    int viable = 0; /* castling right indices whose squares are empty */
    if (castles && !checkers) {
        for (int j = 0; j < 2; j++) {
            int index = 2 * us + j;
            if ((b->castling & (1 << index)) && !(occupied & geo->castle_empty[index])) {
                viable |= 1 << index;
                need |= geo->castle_safe[index];
            }
        }
    }
    if (!need)
        return 0;
    Bitboard safe = safe_squares(b, us, king, need, guarded);
    uint64_t sum = 0;
    steps &= safe;
    if (mode == MODE_COUNT) {
        sum = (uint64_t)bb_count(steps);
    } else {
        if (mode == MODE_REPLIES && !checkers)
            sum += reuse_moves(r, b, geo, us, rights, king, &steps, 0);
        while (steps) {
            Square to = bb_pop(&steps);
            BulkBoard c;
            child_begin(&c, b, geo, us, rights, king, to);
            c.kings ^= bb_square(king) | bb_square(to);
            sum += visit(&c, geo, us, rights, false, mode, depth, r->guard_pawns | r->guard_knights | atk_king(to));
        }
    }
    if (castles) {
        for (int j = 0; j < 2; j++) {
            int index = 2 * us + j;
            if (!(viable & (1 << index)) || (geo->castle_safe[index] & ~safe))
                continue;
            Square rook = geo->castle_rook[index];
            /* Chess960: the castling rook may have been shielding the king's destination
             * (never so with rooks in the corners). */
            if (geo->chess960 && (atk_rook(castle_king_to(index), occupied ^ bb_square(rook))
                                  & b->straight & b->color[!us]))
                continue;
            if (mode == MODE_COUNT) {
                sum++;
            } else {
                BulkBoard c;
                child_castle(&c, b, us, index, king, rook);
                Bitboard mine = r->guard_pawns | r->guard_knights | atk_king(castle_king_to(index));
                sum += visit(&c, geo, us, rights, false, mode, depth, mine);
            }
        }
    }
    return sum;
}

/* Every legal move of the node, counted or visited. `castles`: the side to move has a
 * castling right; `rights`: the board has any (children lose them); `has_ep`: an e.p.
 * square is set. Out of check, the men's moves are compiled with a constant mask.
 * `guarded`: their leaper_attacks(), given when counting (the parent had them). */
static ALWAYS_INLINE uint64_t generate(const BulkBoard *b, const Position *geo, Color us, bool castles, bool rights,
                                       bool has_ep, Mode mode, int depth, Bitboard guarded) {
    Square king = bb_first(b->kings & b->color[us]);
    Threats t = find_threats(b, us, king);
    Reuse r;
    if (mode != MODE_COUNT) {
        Bitboard ours = b->color[us];
        guarded = leaper_attacks(b, !us);
        r.guard_pawns = bb_pawn_attacks(us, b->pawns & ours);
        r.guard_knights = knight_attacks(b->knights & ours);
        r.guard_king = atk_king(king);
    }
    /* Reuse needs us out of check: else the unchanged board lets them take our king. */
    r.active = false;
    r.any = r.lines = r.castle_rooks = BB_ALL;
    if (mode == MODE_REPLIES && !t.checkers)
        reuse_setup(&r, b, geo, us, rights);
    uint64_t sum = king_moves(b, geo, us, castles, rights, mode, depth, &r, king, t.checkers, guarded);
    if (!t.checkers)
        return sum + men_moves(b, geo, us, rights, has_ep, mode, depth, &r, king, &t, BB_ALL);
    if (bb_several(t.checkers))
        return sum;
    return sum + men_moves(b, geo, us, rights, has_ep, mode, depth, &r, king, &t, t.check_mask);
}

/* ---- The instances and their dispatch ---- */

/* Counting a leaf's parent: one instance per side, castling right and e.p. square. */
#define COUNT_INSTANCE(name, us, castles, ep)                                                              \
    static NOINLINE int name(const BulkBoard *b, const Position *geo, Bitboard guarded) {                  \
        return (int)generate(b, geo, us, castles, castles, ep, MODE_COUNT, 1, guarded);                      \
    }
COUNT_INSTANCE(count_w, WHITE, false, false)
COUNT_INSTANCE(count_w_c, WHITE, true, false)
COUNT_INSTANCE(count_w_e, WHITE, false, true)
COUNT_INSTANCE(count_w_ce, WHITE, true, true)
COUNT_INSTANCE(count_b, BLACK, false, false)
COUNT_INSTANCE(count_b_c, BLACK, true, false)
COUNT_INSTANCE(count_b_e, BLACK, false, true)
COUNT_INSTANCE(count_b_ce, BLACK, true, true)

/* King steps and castling of side `us` (not in check), counted; `guarded` as in generate(). */
static NOINLINE int king_count_w(const BulkBoard *b, const Position *geo, bool castles, Bitboard guarded) {
    Square king = bb_first(b->kings & b->color[WHITE]);
    return (int)king_moves(b, geo, WHITE, castles, castles, MODE_COUNT, 1, NULL, king, 0, guarded);
}
static NOINLINE int king_count_b(const BulkBoard *b, const Position *geo, bool castles, Bitboard guarded) {
    Square king = bb_first(b->kings & b->color[BLACK]);
    return (int)king_moves(b, geo, BLACK, castles, castles, MODE_COUNT, 1, NULL, king, 0, guarded);
}
static int king_count(const BulkBoard *b, const Position *geo, Color us, bool rights, Bitboard guarded) {
    bool castles = rights && (b->castling & castling_of(us));
    return us == WHITE ? king_count_w(b, geo, castles, guarded) : king_count_b(b, geo, castles, guarded);
}

/* The legal moves of side `us` on `b`; `rights` false and `may_ep` false promise that
 * the board has no castling rights and no e.p. square; `guarded`: the other side's
 * leaper_attacks(). */
static ALWAYS_INLINE int count_side(const BulkBoard *b, const Position *geo, Color us, bool rights, bool may_ep,
                                    Bitboard guarded) {
    bool castles = rights && (b->castling & castling_of(us));
    bool ep = may_ep && b->ep != SQ_NONE;
    Bitboard g = guarded;
    if (us == WHITE)
        return castles ? (ep ? count_w_ce(b, geo, g) : count_w_c(b, geo, g))
                       : (ep ? count_w_e(b, geo, g) : count_w(b, geo, g));
    return castles ? (ep ? count_b_ce(b, geo, g) : count_b_c(b, geo, g)) : (ep ? count_b_e(b, geo, g) : count_b(b, geo, g));
}

static int count_node(const BulkBoard *b, const Position *geo) {
    return count_side(b, geo, b->side, true, true, leaper_attacks(b, !b->side));
}

/* perft(2) of a node: one instance per side, castling rights (any) and e.p. square. */
#define REPLIES_INSTANCE(name, us, rights, ep)                                                             \
    static NOINLINE uint64_t name(const BulkBoard *b, const Position *geo) {                               \
        return generate(b, geo, us, rights && (b->castling & castling_of(us)), rights, ep, MODE_REPLIES, 2, 0); \
    }
REPLIES_INSTANCE(replies_w, WHITE, false, false)
REPLIES_INSTANCE(replies_w_c, WHITE, true, false)
REPLIES_INSTANCE(replies_w_e, WHITE, false, true)
REPLIES_INSTANCE(replies_w_ce, WHITE, true, true)
REPLIES_INSTANCE(replies_b, BLACK, false, false)
REPLIES_INSTANCE(replies_b_c, BLACK, true, false)
REPLIES_INSTANCE(replies_b_e, BLACK, false, true)
REPLIES_INSTANCE(replies_b_ce, BLACK, true, true)

static uint64_t replies(const BulkBoard *b, const Position *geo) {
    bool rights = b->castling != 0, ep = b->ep != SQ_NONE;
    if (b->side == WHITE)
        return rights ? (ep ? replies_w_ce(b, geo) : replies_w_c(b, geo)) : (ep ? replies_w_e(b, geo) : replies_w(b, geo));
    return rights ? (ep ? replies_b_ce(b, geo) : replies_b_c(b, geo)) : (ep ? replies_b_e(b, geo) : replies_b(b, geo));
}

/* perft(depth >= 3) of a node: one instance per side and castling rights (any). */
#define SUBTREE_INSTANCE(name, us, rights)                                                                 \
    static NOINLINE uint64_t name(const BulkBoard *b, const Position *geo, int depth) {                    \
        return generate(b, geo, us, rights && (b->castling & castling_of(us)), rights, b->ep != SQ_NONE,    \
                        MODE_SUBTREE, depth, 0);                                                           \
    }
SUBTREE_INSTANCE(subtree_w, WHITE, false)
SUBTREE_INSTANCE(subtree_w_c, WHITE, true)
SUBTREE_INSTANCE(subtree_b, BLACK, false)
SUBTREE_INSTANCE(subtree_b_c, BLACK, true)

static uint64_t subtree(const BulkBoard *b, const Position *geo, int depth) {
    if (depth == 1)
        return (uint64_t)count_node(b, geo);
    if (depth == 2)
        return replies(b, geo);
    bool rights = b->castling != 0;
    if (b->side == WHITE)
        return rights ? subtree_w_c(b, geo, depth) : subtree_w(b, geo, depth);
    return rights ? subtree_b_c(b, geo, depth) : subtree_b(b, geo, depth);
}

/* ---- The entry points ---- */

static BulkBoard board_of(const Position *pos) {
    BulkBoard b;
    b.color[WHITE] = pos->by_color[WHITE];
    b.color[BLACK] = pos->by_color[BLACK];
    b.pawns = pos->by_type[PAWN];
    b.knights = pos->by_type[KNIGHT];
    b.diagonal = pos->by_type[BISHOP] | pos->by_type[QUEEN];
    b.straight = pos->by_type[ROOK] | pos->by_type[QUEEN];
    b.kings = pos->by_type[KING];
    b.side = pos->side;
    b.castling = pos->castling;
    b.ep = pos->ep_square;
    return b;
}

int gen_count_legal(const Position *pos) {
    BulkBoard b = board_of(pos);
    return count_node(&b, pos);
}

/* The child legal move `m` of `pos` leads to, built from the parent's bitboards `b`
 * (board_of(pos)); a plain move toggles its squares without asking what moved. */
static ALWAYS_INLINE BulkBoard board_after(const BulkBoard *b, const Position *pos, Move m) {
    BulkBoard c;
    Color us = pos->side, them = !us;
    Square from = move_from(m), to = move_to(m);
    switch (move_kind(m)) {
    case MOVE_CASTLING: /* encoded as the king taking its own rook */
        child_castle(&c, b, us, 2 * us + (to < from), from, to);
        break;
    case MOVE_EN_PASSANT:
        child_en_passant(&c, b, us, from, to);
        break;
    case MOVE_PROMOTION: {
        child_begin(&c, b, pos, us, true, from, to);
        Bitboard to_bb = bb_square(to);
        c.pawns ^= bb_square(from);
        switch (move_promotion(m)) {
        case KNIGHT: c.knights |= to_bb; break;
        case BISHOP: c.diagonal |= to_bb; break;
        case ROOK: c.straight |= to_bb; break;
        default: c.diagonal |= to_bb; c.straight |= to_bb; break;
        }
        break;
    }
    default:
        child_plain(&c, b, pos, us, true, from, to);
        if ((b->pawns & bb_square(from)) && (from ^ to) == 16) {
            Square passed = (from + to) / 2;
            if (atk_pawn(us, passed) & b->pawns & b->color[them])
                c.ep = (uint8_t)passed;
        }
        break;
    }
    return c;
}

int gen_count_after(const Position *pos, Move m) {
    BulkBoard b = board_of(pos), c = board_after(&b, pos, m);
    return count_node(&c, pos);
}

void gen_count_replies_after(const Position *pos, const Move *moves, int n, uint64_t *counts) {
    BulkBoard b = board_of(pos);
    for (int i = 0; i < n; i++) {
        BulkBoard c = board_after(&b, pos, moves[i]);
        counts[i] = replies(&c, pos);
    }
}

uint64_t gen_count_replies(const Position *pos) {
    BulkBoard b = board_of(pos);
    return replies(&b, pos);
}

uint64_t gen_count_perft(const Position *pos, int depth) {
    if (depth <= 0)
        return 1;
    BulkBoard b = board_of(pos);
    return subtree(&b, pos, depth);
}
