/* notation.c — UCI and SAN writing and reading. Reading matches the text against the
 * legal moves of the position, so whatever it returns is legal. */
#include "notation.h"

#include <string.h>

#include "movegen.h"

static const char piece_letters[] = "  NBRQK";

static char *put_square(char *p, Square s) {
    *p++ = (char)('a' + sq_file(s));
    *p++ = (char)('1' + sq_rank(s));
    return p;
}

/* Castling is king-takes-rook inside; standard chess writes the king's destination. */
static char *uci_text(const Position *pos, Move m, bool king_takes_rook, char *out) {
    if (m == MOVE_NONE) {
        memcpy(out, "0000", 5);
        return out;
    }
    Square from = move_from(m), to = move_to(m);
    if (move_kind(m) == MOVE_CASTLING && !king_takes_rook)
        to = castle_king_to(2 * pos->side + (to < from));
    char *p = put_square(put_square(out, from), to);
    if (move_kind(m) == MOVE_PROMOTION)
        *p++ = "  nbrq"[move_promotion(m)];
    *p = '\0';
    return out;
}

char *move_to_uci(const Position *pos, Move m, char out[UCI_MOVE_SIZE]) {
    return uci_text(pos, m, pos->chess960, out);
}

Move move_parse_uci(const Position *pos, const char *text) {
    size_t length = strlen(text);
    if (length < 4 || length > 5)
        return MOVE_NONE;
    MoveList list;
    gen_legal(pos, &list);
    char written[UCI_MOVE_SIZE];
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        if (strcmp(move_to_uci(pos, m, written), text) == 0)
            return m;
        if (move_kind(m) == MOVE_CASTLING && !pos->chess960 && strcmp(uci_text(pos, m, true, written), text) == 0)
            return m;
    }
    return MOVE_NONE;
}

char *move_to_san(const Position *pos, Move m, char out[SAN_MOVE_SIZE]) {
    Square from = move_from(m), to = move_to(m);
    PieceType pt = piece_type(pos->board[from]);
    char *p = out;
    if (move_kind(m) == MOVE_CASTLING) {
        const char *text = to > from ? "O-O" : "O-O-O";
        memcpy(p, text, strlen(text));
        p += strlen(text);
    } else if (pt == PAWN) {
        if (sq_file(from) != sq_file(to)) {
            *p++ = (char)('a' + sq_file(from));
            *p++ = 'x';
        }
        p = put_square(p, to);
        if (move_kind(m) == MOVE_PROMOTION) {
            *p++ = '=';
            *p++ = piece_letters[move_promotion(m)];
        }
    } else {
        *p++ = piece_letters[pt];
        MoveList list;
        list.count = 0;
        /* Only a man of the same kind that reaches `to` can be a rival; the legal moves
         * are listed (to leave out pinned ones) only when there is one. */
        Bitboard others = pos_pieces(pos, pos->side, pt) & ~bb_square(from);
        if (atk_piece(pt, to, pos_occupied(pos)) & others)
            gen_legal(pos, &list);
        bool rival = false, rival_on_file = false, rival_on_rank = false;
        for (int i = 0; i < list.count; i++) {
            Move o = list.moves[i];
            Square other = move_from(o);
            if (o == m || move_to(o) != to || other == from || move_kind(o) == MOVE_CASTLING
                || piece_type(pos->board[other]) != pt)
                continue;
            rival = true;
            rival_on_file |= sq_file(other) == sq_file(from);
            rival_on_rank |= sq_rank(other) == sq_rank(from);
        }
        if (rival && (!rival_on_file || rival_on_rank))
            *p++ = (char)('a' + sq_file(from));
        if (rival && rival_on_file)
            *p++ = (char)('1' + sq_rank(from));
        if (pos->board[to] != NO_PIECE)
            *p++ = 'x';
        p = put_square(p, to);
    }
    Position after = *pos;
    Undo undo;
    pos_make_move(&after, m, &undo);
    if (pos_in_check(&after))
        *p++ = gen_count_legal(&after) ? '+' : '#';
    *p = '\0';
    return out;
}

static const char *set_why(const char **why, const char *reason) {
    if (why)
        *why = reason;
    return reason;
}

static PieceType piece_from_letter(char c) {
    const char *at = c ? strchr("NBRQK", c) : NULL;
    return at ? KNIGHT + (PieceType)(at - "NBRQK") : NO_PIECE_TYPE;
}

Move move_parse_san(const Position *pos, const char *text, const char **why) {
    char buf[16];
    size_t length = strlen(text);
    while (length && strchr("+#!?", text[length - 1]))
        length--;
    if (length < 2 || length >= sizeof buf) {
        set_why(why, "not a SAN move");
        return MOVE_NONE;
    }
    memcpy(buf, text, length);
    buf[length] = '\0';

    MoveList list;
    gen_legal(pos, &list);

    bool king_side = !strcmp(buf, "O-O") || !strcmp(buf, "0-0");
    if (king_side || !strcmp(buf, "O-O-O") || !strcmp(buf, "0-0-0")) {
        for (int i = 0; i < list.count; i++) {
            Move m = list.moves[i];
            if (move_kind(m) == MOVE_CASTLING && (move_to(m) > move_from(m)) == king_side)
                return m;
        }
        set_why(why, "castling is not legal here");
        return MOVE_NONE;
    }

    size_t end = length;
    PieceType promotion = NO_PIECE_TYPE;
    if (end >= 3 && ((buf[end - 2] >= '1' && buf[end - 2] <= '8') || buf[end - 2] == '=')) {
        char c = buf[end - 1];
        promotion = piece_from_letter(c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c);
        if (promotion == KING)
            promotion = NO_PIECE_TYPE;
        if (promotion != NO_PIECE_TYPE)
            end -= buf[end - 2] == '=' ? 2 : 1;
    }
    if (end < 2 || buf[end - 2] < 'a' || buf[end - 2] > 'h' || buf[end - 1] < '1' || buf[end - 1] > '8') {
        set_why(why, "not a SAN move");
        return MOVE_NONE;
    }
    Square to = sq_make(buf[end - 2] - 'a', buf[end - 1] - '1');
    end -= 2;
    if (end > 0 && (buf[end - 1] == 'x' || buf[end - 1] == ':'))
        end--;
    size_t at = 0;
    PieceType pt = piece_from_letter(buf[0]);
    if (pt != NO_PIECE_TYPE && end > 0)
        at = 1;
    else
        pt = PAWN;
    int from_file = -1, from_rank = -1;
    if (at < end && buf[at] >= 'a' && buf[at] <= 'h')
        from_file = buf[at++] - 'a';
    if (at < end && buf[at] >= '1' && buf[at] <= '8')
        from_rank = buf[at++] - '1';
    if (at != end) {
        set_why(why, "not a SAN move");
        return MOVE_NONE;
    }

    Move found = MOVE_NONE;
    int matches = 0;
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        Square from = move_from(m);
        if (move_kind(m) == MOVE_CASTLING || move_to(m) != to || piece_type(pos->board[from]) != pt
            || (from_file >= 0 && sq_file(from) != from_file) || (from_rank >= 0 && sq_rank(from) != from_rank))
            continue;
        if ((move_kind(m) == MOVE_PROMOTION) != (promotion != NO_PIECE_TYPE)
            || (promotion != NO_PIECE_TYPE && move_promotion(m) != promotion))
            continue;
        found = m;
        matches++;
    }
    if (matches == 1)
        return found;
    set_why(why, matches ? "ambiguous: more than one legal move matches" : "no legal move matches");
    return MOVE_NONE;
}
