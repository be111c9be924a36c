/* makemove.c — make and unmake, composed of the three board primitives. Make keeps
 * the key incremental; unmake restores it from the Undo the caller kept. */
#include "position.h"

void pos_make_move(Position *pos, Move m, Undo *undo) {
    const ZobristKeys *keys = pos->keys;
    Color us = pos->side, them = !us;
    Square from = move_from(m), to = move_to(m);
    int kind = move_kind(m);

    undo->key = pos->key;
    undo->halfmove = pos->halfmove;
    undo->fullmove = pos->fullmove;
    undo->castling = pos->castling;
    undo->ep_square = pos->ep_square;
    undo->captured = NO_PIECE;

    if (pos_ep_capturable(pos))
        zob_toggle(&pos->key, zob_ep_file(keys, sq_file(pos->ep_square)));
    pos->ep_square = SQ_NONE;
    pos->halfmove += pos->halfmove < UINT16_MAX; /* the clocks stop at FEN's limit rather than wrap */

    if (kind == MOVE_CASTLING) {
        /* King takes own rook: both leave first, so overlapping squares are safe. */
        int index = 2 * us + (to < from);
        Piece king = pos->board[from], rook = pos->board[to];
        pos_remove_piece(pos, from, true);
        pos_remove_piece(pos, to, true);
        pos_put_piece(pos, king, castle_king_to(index), true);
        pos_put_piece(pos, rook, castle_rook_to(index), true);
    } else {
        Piece moved = pos->board[from];
        Square captured_on = kind == MOVE_EN_PASSANT ? to - forward_step(us) : to;
        if (pos->board[captured_on] != NO_PIECE) {
            undo->captured = pos->board[captured_on];
            pos_remove_piece(pos, captured_on, true);
            pos->halfmove = 0;
        }
        pos_move_piece(pos, from, to, true);
        if (piece_type(moved) == PAWN) {
            pos->halfmove = 0;
            if ((from ^ to) == 16) {
                Square ep = (from + to) / 2;
                /* Recorded only where a pawn could take, so equal positions share a key. */
                if (atk_pawn(us, ep) & pos_pieces(pos, them, PAWN)) {
                    pos->ep_square = (uint8_t)ep;
                    zob_toggle(&pos->key, zob_ep_file(keys, sq_file(ep)));
                }
            } else if (kind == MOVE_PROMOTION) {
                pos_remove_piece(pos, to, true);
                pos_put_piece(pos, piece_make(us, move_promotion(m)), to, true);
            }
        }
    }

    int lost = pos->castling & (pos->castle_spoil[from] | pos->castle_spoil[to]);
    pos->castling &= (uint8_t)~lost;
    while (lost) {
        int index = __builtin_ctz((unsigned)lost);
        lost &= lost - 1;
        zob_toggle(&pos->key, zob_castling(keys, index, pos->castle_rook[index]));
    }
    pos->fullmove += us == BLACK && pos->fullmove < UINT16_MAX;
    pos->side = (uint8_t)them;
    zob_toggle(&pos->key, zob_side(keys));
}

Key128 pos_key_after(const Position *pos, Move m) {
    const ZobristKeys *keys = pos->keys;
    Color us = pos->side, them = !us;
    Square from = move_from(m), to = move_to(m);
    int kind = move_kind(m);
    Key128 key = pos->key;
    if (pos_ep_capturable(pos))
        zob_toggle(&key, zob_ep_file(keys, sq_file(pos->ep_square)));
    if (kind == MOVE_CASTLING) {
        int index = 2 * us + (to < from);
        Piece king = pos->board[from], rook = pos->board[to];
        zob_toggle(&key, zob_psq(keys, king, from));
        zob_toggle(&key, zob_psq(keys, rook, to));
        zob_toggle(&key, zob_psq(keys, king, castle_king_to(index)));
        zob_toggle(&key, zob_psq(keys, rook, castle_rook_to(index)));
    } else {
        Piece moved = pos->board[from];
        Square captured_on = kind == MOVE_EN_PASSANT ? to - forward_step(us) : to;
        if (pos->board[captured_on] != NO_PIECE)
            zob_toggle(&key, zob_psq(keys, pos->board[captured_on], captured_on));
        zob_toggle(&key, zob_psq(keys, moved, from));
        zob_toggle(&key, zob_psq(keys, kind == MOVE_PROMOTION ? piece_make(us, move_promotion(m)) : moved, to));
        if (piece_type(moved) == PAWN && (from ^ to) == 16
            && (atk_pawn(us, (from + to) / 2) & pos_pieces(pos, them, PAWN)))
            zob_toggle(&key, zob_ep_file(keys, sq_file(from)));
    }
    int lost = pos->castling & (pos->castle_spoil[from] | pos->castle_spoil[to]);
    while (lost) {
        int index = __builtin_ctz((unsigned)lost);
        lost &= lost - 1;
        zob_toggle(&key, zob_castling(keys, index, pos->castle_rook[index]));
    }
    zob_toggle(&key, zob_side(keys));
    return key;
}

void pos_unmake_move(Position *pos, Move m, const Undo *undo) {
    Color us = !pos->side;
    Square from = move_from(m), to = move_to(m);
    int kind = move_kind(m);

    pos->side = (uint8_t)us;

    if (kind == MOVE_CASTLING) {
        int index = 2 * us + (to < from);
        Square king_to = castle_king_to(index), rook_to = castle_rook_to(index);
        Piece king = pos->board[king_to], rook = pos->board[rook_to];
        pos_remove_piece(pos, king_to, false);
        pos_remove_piece(pos, rook_to, false);
        pos_put_piece(pos, king, from, false);
        pos_put_piece(pos, rook, to, false);
    } else {
        if (kind == MOVE_PROMOTION) {
            pos_remove_piece(pos, to, false);
            pos_put_piece(pos, piece_make(us, PAWN), to, false);
        }
        pos_move_piece(pos, to, from, false);
        if (undo->captured != NO_PIECE)
            pos_put_piece(pos, undo->captured, kind == MOVE_EN_PASSANT ? to - forward_step(us) : to, false);
    }

    pos->key = undo->key;
    pos->halfmove = undo->halfmove;
    pos->fullmove = undo->fullmove;
    pos->castling = undo->castling;
    pos->ep_square = undo->ep_square;
}
