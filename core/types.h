/* types.h — the small value types every core module shares: squares, colours,
 * pieces, moves and their counts. Squares run a1 = 0 .. h8 = 63 (file + 8 * rank);
 * a piece packs its colour and type as (colour << 3) | type, so it fits one byte. */
#ifndef PERFTKIT_TYPES_H
#define PERFTKIT_TYPES_H

#include <stdbool.h>
#include <stdint.h>

typedef uint64_t Bitboard;
typedef int Square;   /* 0..63, or SQ_NONE */
typedef int Color;    /* WHITE or BLACK */
typedef int PieceType;
typedef int Piece;
typedef uint16_t Move;

typedef struct Position Position;
typedef struct Undo Undo;
typedef struct MoveList MoveList;

enum { WHITE, BLACK, COLOR_NB };

enum { NO_PIECE_TYPE, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, PIECE_TYPE_NB = 8 };

enum {
    NO_PIECE,
    W_PAWN = PAWN, W_KNIGHT, W_BISHOP, W_ROOK, W_QUEEN, W_KING,
    B_PAWN = PAWN + 8, B_KNIGHT, B_BISHOP, B_ROOK, B_QUEEN, B_KING,
    PIECE_NB = 16
};

enum { SQ_A1 = 0, SQ_H1 = 7, SQ_A8 = 56, SQ_H8 = 63, SQUARE_NB = 64, SQ_NONE = 64 };

enum { FILE_A, FILE_B, FILE_C, FILE_D, FILE_E, FILE_F, FILE_G, FILE_H };
enum { RANK_1, RANK_2, RANK_3, RANK_4, RANK_5, RANK_6, RANK_7, RANK_8 };

/* Castling rights, one bit per (colour, side). */
enum {
    WHITE_OO = 1, WHITE_OOO = 2, BLACK_OO = 4, BLACK_OOO = 8,
    CASTLING_RIGHTS_NB = 16
};

/* Move layout: bits 0-5 destination, 6-11 origin, 12-13 promotion piece
 * (KNIGHT..QUEEN minus KNIGHT), 14-15 kind. Castling is encoded king-takes-rook
 * (destination = the rook's square), which serves standard chess and Chess960 alike. */
enum {
    MOVE_NONE = 0,
    MOVE_NORMAL = 0,
    MOVE_PROMOTION = 1 << 14,
    MOVE_EN_PASSANT = 2 << 14,
    MOVE_CASTLING = 3 << 14,
    MOVE_KIND_MASK = 3 << 14
};

/* The largest number of legal moves in any chess position is 218. */
enum { MAX_MOVES = 256, MAX_PLY = 128 };

static inline Square sq_make(int file, int rank) { return file + 8 * rank; }
static inline int sq_file(Square s) { return s & 7; }
static inline int sq_rank(Square s) { return s >> 3; }
/* The square seen from the other side of the board (a1 <-> a8). */
static inline Square sq_flip(Square s) { return s ^ 56; }
/* Rank counted from `c`'s own side: RANK_1 is the back rank of either colour. */
static inline int rank_relative(Color c, int rank) { return c == WHITE ? rank : 7 - rank; }

static inline Piece piece_make(Color c, PieceType pt) { return (c << 3) | pt; }
static inline PieceType piece_type(Piece p) { return p & 7; }
static inline Color piece_color(Piece p) { return p >> 3; }

static inline Square move_from(Move m) { return (m >> 6) & 63; }
static inline Square move_to(Move m) { return m & 63; }
static inline int move_kind(Move m) { return m & MOVE_KIND_MASK; }
static inline PieceType move_promotion(Move m) { return ((m >> 12) & 3) + KNIGHT; }

static inline Move move_make(Square from, Square to) { return (Move)((from << 6) | to); }
static inline Move move_make_kind(Square from, Square to, int kind) {
    return (Move)(kind | (from << 6) | to);
}
static inline Move move_make_promotion(Square from, Square to, PieceType pt) {
    return (Move)(MOVE_PROMOTION | ((pt - KNIGHT) << 12) | (from << 6) | to);
}

#endif
