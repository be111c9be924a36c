/* position.c — setting up, comparing, mirroring and judging positions. The key is
 * always recomputed here from the whole position; make and unmake keep it equal to
 * that incrementally. */
#include "position.h"

#include <stdio.h>
#include <string.h>

void pos_clear(Position *pos) {
    memset(pos, 0, sizeof *pos);
    pos->side = WHITE;
    pos->ep_square = SQ_NONE;
    pos->fullmove = 1;
    for (int i = 0; i < 4; i++)
        pos->castle_rook[i] = SQ_NONE;
    pos->keys = zob_default_keys();
    pos->key = pos_compute_key(pos);
}

void pos_set_keys(Position *pos, const ZobristKeys *keys) {
    pos->keys = keys;
    pos->key = pos_compute_key(pos);
}

void pos_set_startpos(Position *pos) {
    static const PieceType back_rank[8] = {ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK};
    pos_clear(pos);
    for (int f = 0; f < 8; f++) {
        pos_put_piece(pos, piece_make(WHITE, back_rank[f]), sq_make(f, RANK_1), false);
        pos_put_piece(pos, piece_make(WHITE, PAWN), sq_make(f, RANK_2), false);
        pos_put_piece(pos, piece_make(BLACK, PAWN), sq_make(f, RANK_7), false);
        pos_put_piece(pos, piece_make(BLACK, back_rank[f]), sq_make(f, RANK_8), false);
    }
    pos->castling = WHITE_OO | WHITE_OOO | BLACK_OO | BLACK_OOO;
    const Square rooks[4] = {SQ_H1, SQ_A1, SQ_H8, SQ_A8};
    pos_set_castling(pos, rooks);
    pos->key = pos_compute_key(pos);
}

void pos_set_castling(Position *pos, const Square rook_squares[4]) {
    memset(pos->castle_spoil, 0, sizeof pos->castle_spoil);
    for (int i = 0; i < 4; i++) {
        pos->castle_rook[i] = SQ_NONE;
        pos->castle_empty[i] = pos->castle_safe[i] = 0;
        int right = 1 << i;
        if (!(pos->castling & right))
            continue;
        Square king = pos_king(pos, i < 2 ? WHITE : BLACK), rook = rook_squares[i];
        Square king_to = castle_king_to(i), rook_to = castle_rook_to(i);
        Bitboard movers = bb_square(king) | bb_square(rook);
        pos->castle_rook[i] = (uint8_t)rook;
        pos->castle_safe[i] = (atk_between(king, king_to) | bb_square(king_to)) & ~bb_square(king);
        pos->castle_empty[i] = (pos->castle_safe[i] | atk_between(rook, rook_to) | bb_square(rook_to))
                             & ~movers;
        pos->castle_spoil[king] |= (uint8_t)right;
        pos->castle_spoil[rook] |= (uint8_t)right;
    }
}

Key128 pos_compute_key(const Position *pos) {
    const ZobristKeys *keys = pos->keys;
    Key128 key = {0, 0};
    for (Square s = 0; s < SQUARE_NB; s++)
        if (pos->board[s] != NO_PIECE)
            zob_toggle(&key, zob_psq(keys, pos->board[s], s));
    for (int i = 0; i < 4; i++)
        if (pos->castling & (1 << i))
            zob_toggle(&key, zob_castling(keys, i, pos->castle_rook[i]));
    if (pos_ep_capturable(pos))
        zob_toggle(&key, zob_ep_file(keys, sq_file(pos->ep_square)));
    if (pos->side == BLACK)
        zob_toggle(&key, zob_side(keys));
    return key;
}

bool pos_equal(const Position *a, const Position *b) {
    if (memcmp(a->board, b->board, sizeof a->board) != 0 || a->side != b->side
        || a->castling != b->castling || a->ep_square != b->ep_square || a->halfmove != b->halfmove
        || a->fullmove != b->fullmove || a->chess960 != b->chess960
        || memcmp(a->by_type, b->by_type, sizeof a->by_type) != 0
        || memcmp(a->by_color, b->by_color, sizeof a->by_color) != 0)
        return false;
    for (int i = 0; i < 4; i++)
        if ((a->castling & (1 << i)) && a->castle_rook[i] != b->castle_rook[i])
            return false;
    /* Keys of different sets differ by design: compare them only within one set. */
    return zob_keys_seed(a->keys) != zob_keys_seed(b->keys) || zob_equal(a->key, b->key);
}

void pos_mirror(const Position *pos, Position *out) {
    Position m;
    pos_clear(&m);
    m.keys = pos->keys;
    for (Square s = 0; s < SQUARE_NB; s++) {
        Piece p = pos->board[s];
        if (p != NO_PIECE)
            pos_put_piece(&m, piece_make(!piece_color(p), piece_type(p)), sq_flip(s), false);
    }
    m.side = (uint8_t)!pos->side;
    m.halfmove = pos->halfmove;
    m.fullmove = pos->fullmove;
    m.chess960 = pos->chess960;
    m.castling_notation = pos->castling_notation;
    m.ep_square = pos->ep_square == SQ_NONE ? SQ_NONE : (uint8_t)sq_flip(pos->ep_square);
    /* Rights swap colours: bits 0,1 (white) trade places with bits 2,3 (black). */
    m.castling = (uint8_t)(((pos->castling & 3) << 2) | ((pos->castling >> 2) & 3));
    Square rooks[4];
    for (int i = 0; i < 4; i++) {
        Square r = pos->castle_rook[i ^ 2];
        rooks[i] = r == SQ_NONE ? SQ_NONE : sq_flip(r);
    }
    pos_set_castling(&m, rooks);
    m.key = pos_compute_key(&m);
    *out = m;
}

const char *pos_impossibility(const Position *pos) {
    static const char *const why_kings[2][2] = {
        {"white has no king", "black has no king"},
        {"white has more than one king", "black has more than one king"}};
    for (Color c = WHITE; c <= BLACK; c++) {
        int kings = bb_count(pos_pieces(pos, c, KING));
        if (kings != 1)
            return why_kings[kings > 1][c];
    }
    if (pos->by_type[PAWN] & (BB_RANK_1 | BB_RANK_8))
        return "a pawn stands on the first or eighth rank";
    static const char *const why_men[2] = {"white has more than 16 men", "black has more than 16 men"};
    static const char *const why_pawns[2] = {"white has more than 8 pawns", "black has more than 8 pawns"};
    for (Color c = WHITE; c <= BLACK; c++) {
        if (bb_count(pos->by_color[c]) > 16)
            return why_men[c];
        if (bb_count(pos_pieces(pos, c, PAWN)) > 8)
            return why_pawns[c];
    }
    Color them = !pos->side;
    Bitboard occupied = pos_occupied(pos);
    if (pos_attackers_to(pos, pos_king(pos, them), occupied) & pos->by_color[pos->side])
        return pos->side == WHITE ? "black, not to move, is in check" : "white, not to move, is in check";
    if (bb_count(pos_checkers(pos)) > 2)
        return pos->side == WHITE ? "white is in check from more than two pieces"
                                  : "black is in check from more than two pieces";
    return NULL;
}
