/* position.h — a chess position as a plain value: bitboards and a mailbox that always
 * agree, side to move, castling rights with the geometry of any king and rook files
 * (Chess960), e.p. square, clocks, and a 128-bit Zobrist key kept equal to
 * pos_compute_key() by every change, under the key set it points to (the default set
 * unless pos_set_keys() says otherwise; copies and moves keep it). Copy it freely; it
 * owns no memory. */
#ifndef PERFTKIT_POSITION_H
#define PERFTKIT_POSITION_H

#include "attacks.h"
#include "zobrist.h"

/* How FEN writes Chess960 castling rights: rook files (Shredder-FEN, "HAha") or
 * KQkq for the outermost rook with a file letter only for an inner one (X-FEN). */
enum { CASTLING_NOTATION_STANDARD, CASTLING_NOTATION_SHREDDER, CASTLING_NOTATION_XFEN };

struct Position {
    Bitboard by_type[PIECE_TYPE_NB]; /* [0]: every occupied square; [PAWN..KING]: both colours */
    Bitboard by_color[COLOR_NB];
    uint8_t board[SQUARE_NB];        /* the piece on each square, NO_PIECE when empty */
    Key128 key;
    const ZobristKeys *keys;         /* the set `key` is made of; outlives the position */
    uint8_t side;                    /* colour to move */
    uint8_t castling;                /* set of WHITE_OO .. BLACK_OOO */
    uint8_t ep_square;               /* square behind a pawn that just advanced two, or SQ_NONE */
    uint16_t halfmove;               /* plies since the last capture or pawn move (at most 65535) */
    uint16_t fullmove;               /* starts at 1, grows after each black move (to 65535, FEN's limit) */

    /* Castling geometry, fixed for the game once the position is set up. Indexed by
     * the bit number of the right (0 = WHITE_OO .. 3 = BLACK_OOO). */
    bool chess960;
    uint8_t castling_notation;
    uint8_t castle_rook[4];          /* the rook's starting square */
    Bitboard castle_empty[4];        /* squares that must be empty (king and rook excepted) */
    Bitboard castle_safe[4];         /* squares the king passes or lands on, not to be attacked */
    uint8_t castle_spoil[SQUARE_NB]; /* rights lost when a move leaves or reaches the square */
};

/* What pos_unmake_move() needs and the move itself does not tell. Owned by the caller. */
struct Undo {
    Key128 key;
    uint16_t halfmove, fullmove;
    uint8_t castling;
    uint8_t ep_square;
    uint8_t captured;
};

/* Right bit number -> king destination and rook destination. */
static inline int castling_index(int right) { return __builtin_ctz((unsigned)right); }
static inline Square castle_king_to(int index) {
    static const uint8_t to[4] = {6, 2, 62, 58}; /* g1 c1 g8 c8 */
    return to[index];
}
static inline Square castle_rook_to(int index) {
    static const uint8_t to[4] = {5, 3, 61, 59}; /* f1 d1 f8 d8 */
    return to[index];
}
/* The two rights of colour c. */
static inline int castling_of(Color c) { return c == WHITE ? WHITE_OO | WHITE_OOO : BLACK_OO | BLACK_OOO; }

static inline Bitboard pos_occupied(const Position *pos) { return pos->by_type[0]; }
static inline Bitboard pos_color(const Position *pos, Color c) { return pos->by_color[c]; }
static inline Bitboard pos_type(const Position *pos, PieceType pt) { return pos->by_type[pt]; }
static inline Bitboard pos_pieces(const Position *pos, Color c, PieceType pt) {
    return pos->by_type[pt] & pos->by_color[c];
}
static inline Piece pos_piece_on(const Position *pos, Square s) { return pos->board[s]; }
static inline Square pos_king(const Position *pos, Color c) { return bb_first(pos_pieces(pos, c, KING)); }
static inline Color pos_side(const Position *pos) { return pos->side; }

/* Pieces of either colour attacking square s, with `occupied` as the blockers. */
static inline Bitboard pos_attackers_to(const Position *pos, Square s, Bitboard occupied) {
    return (atk_pawn(WHITE, s) & pos_pieces(pos, BLACK, PAWN))
         | (atk_pawn(BLACK, s) & pos_pieces(pos, WHITE, PAWN))
         | (atk_knight(s) & pos->by_type[KNIGHT])
         | (atk_bishop(s, occupied) & (pos->by_type[BISHOP] | pos->by_type[QUEEN]))
         | (atk_rook(s, occupied) & (pos->by_type[ROOK] | pos->by_type[QUEEN]))
         | (atk_king(s) & pos->by_type[KING]);
}
/* Enemy pieces giving check to the side to move. */
static inline Bitboard pos_checkers(const Position *pos) {
    Color us = pos->side;
    return pos_attackers_to(pos, pos_king(pos, us), pos_occupied(pos)) & pos->by_color[!us];
}
static inline bool pos_in_check(const Position *pos) { return pos_checkers(pos) != 0; }

/* True when the e.p. square can be taken by a pawn of the side to move (pins aside):
 * only then does it enter the key, so equal positions get equal keys. */
static inline bool pos_ep_capturable(const Position *pos) {
    return pos->ep_square != SQ_NONE
        && (atk_pawn(!pos->side, pos->ep_square) & pos_pieces(pos, pos->side, PAWN));
}

/* The three primitives that change the board; each keeps bitboards, mailbox and,
 * when asked (`keyed`), the key in step. Make and unmake are composed of them. */
static inline void pos_put_piece(Position *pos, Piece p, Square s, bool keyed) {
    Bitboard b = bb_square(s);
    pos->by_type[0] |= b;
    pos->by_type[piece_type(p)] |= b;
    pos->by_color[piece_color(p)] |= b;
    pos->board[s] = (uint8_t)p;
    if (keyed)
        zob_toggle(&pos->key, zob_psq(pos->keys, p, s));
}
static inline void pos_remove_piece(Position *pos, Square s, bool keyed) {
    Piece p = pos->board[s];
    Bitboard b = bb_square(s);
    pos->by_type[0] ^= b;
    pos->by_type[piece_type(p)] ^= b;
    pos->by_color[piece_color(p)] ^= b;
    pos->board[s] = NO_PIECE;
    if (keyed)
        zob_toggle(&pos->key, zob_psq(pos->keys, p, s));
}
static inline void pos_move_piece(Position *pos, Square from, Square to, bool keyed) {
    Piece p = pos->board[from];
    Bitboard b = bb_square(from) | bb_square(to);
    pos->by_type[0] ^= b;
    pos->by_type[piece_type(p)] ^= b;
    pos->by_color[piece_color(p)] ^= b;
    pos->board[from] = NO_PIECE;
    pos->board[to] = (uint8_t)p;
    if (keyed) {
        zob_toggle(&pos->key, zob_psq(pos->keys, p, from));
        zob_toggle(&pos->key, zob_psq(pos->keys, p, to));
    }
}

/* Plays a legal move; `undo` receives what pos_unmake_move() needs. */
void pos_make_move(Position *pos, Move m, Undo *undo);
/* Takes back the move last played with pos_make_move(pos, m, undo). */
void pos_unmake_move(Position *pos, Move m, const Undo *undo);

/* The key pos_make_move(pos, m) would give, without making the move (to prefetch a
 * hash bucket before going there). */
Key128 pos_key_after(const Position *pos, Move m);

/* The key recomputed from nothing but the position, under pos->keys. */
Key128 pos_compute_key(const Position *pos);

/* Keys the position with `keys` from now on (and its copies and the positions moves
 * lead to), recomputing its key. */
void pos_set_keys(Position *pos, const ZobristKeys *keys);

/* The empty board, white to move, no rights, clocks 0 and 1, the default key set. */
void pos_clear(Position *pos);
/* The standard start position. */
void pos_set_startpos(Position *pos);
/* Derives castle_rook/empty/safe/spoil for the rights in pos->castling, whose rooks
 * are given per right index in rook_squares (ignored where the right is absent). */
void pos_set_castling(Position *pos, const Square rook_squares[4]);

/* True when the two positions agree in everything that affects play and FEN, and in
 * their keys when both use the same key set. */
bool pos_equal(const Position *a, const Position *b);

/* Colour-reversed twin: board mirrored top to bottom, colours swapped, rights, e.p.
 * square and side to move following, keyed with the same set. Its perft equals the
 * original's at every depth. */
void pos_mirror(const Position *pos, Position *out);

/* Why the position could not arise in a game, as a sentence, or NULL when it is
 * acceptable: king counts, pawn ranks, men counts, checks. */
const char *pos_impossibility(const Position *pos);

#endif
