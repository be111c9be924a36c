/* fen.c — FEN reading with full validation, and writing. Reading never trusts the
 * input: every byte is checked before it is used, and the first problem found is
 * reported in words that name the field and the offending text. */
#include "fen.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct Field {
    const char *text;
    size_t length;
} Field;

enum { MAX_FIELDS = 6 };

static bool fail(char *error, size_t size, const char *format, ...) {
    if (error && size) {
        va_list args;
        va_start(args, format);
        vsnprintf(error, size, format, args);
        va_end(args);
    }
    return false;
}

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

/* A field made printable and short enough for a message. */
static const char *show(Field f, char out[48]) {
    size_t n = 0, i = 0;
    for (; i < f.length && n < 32; i++) {
        unsigned char c = (unsigned char)f.text[i];
        if (c >= 0x20 && c < 0x7f)
            out[n++] = (char)c;
        else
            n += (size_t)snprintf(out + n, 48 - n, "\\x%02X", c);
    }
    if (i < f.length) {
        memcpy(out + n, "...", 3);
        n += 3;
    }
    out[n] = '\0';
    return out;
}

static const char *show_char(char c, char out[8]) {
    unsigned char u = (unsigned char)c;
    if (u > 0x20 && u < 0x7f)
        snprintf(out, 8, "'%c'", c);
    else
        snprintf(out, 8, "\\x%02X", u);
    return out;
}

/* Splits on blanks; returns the number of fields, or MAX_FIELDS + 1 when there are more. */
static int split_fields(const char *fen, Field fields[MAX_FIELDS]) {
    int n = 0;
    const char *p = fen;
    for (;;) {
        while (is_blank(*p))
            p++;
        if (!*p)
            return n;
        if (n == MAX_FIELDS)
            return MAX_FIELDS + 1;
        fields[n].text = p;
        while (*p && !is_blank(*p))
            p++;
        fields[n].length = (size_t)(p - fields[n].text);
        n++;
    }
}

static Piece piece_from_letter(char c) {
    static const char letters[] = "PNBRQKpnbrqk";
    const char *at = c ? strchr(letters, c) : NULL;
    if (!at)
        return NO_PIECE;
    int i = (int)(at - letters);
    return piece_make(i / 6, PAWN + i % 6);
}

static bool parse_placement(Position *pos, Field f, char *error, size_t size) {
    int rank = RANK_8, file = 0;
    bool digit_before = false;
    char shown[8];
    for (size_t i = 0; i < f.length; i++) {
        char c = f.text[i];
        if (c == '/') {
            if (file != 8)
                return fail(error, size, "rank %d of the piece placement has %d files, not 8", rank + 1, file);
            if (rank == RANK_1)
                return fail(error, size, "the piece placement has more than 8 ranks");
            rank--;
            file = 0;
            digit_before = false;
        } else if (c >= '1' && c <= '8') {
            if (digit_before)
                return fail(error, size, "rank %d of the piece placement has two digits in a row", rank + 1);
            file += c - '0';
            if (file > 8)
                return fail(error, size, "rank %d of the piece placement has more than 8 files", rank + 1);
            digit_before = true;
        } else {
            Piece p = piece_from_letter(c);
            if (p == NO_PIECE)
                return fail(error, size, "%s is not a piece letter or a digit 1-8 in the piece placement",
                            show_char(c, shown));
            if (file >= 8)
                return fail(error, size, "rank %d of the piece placement has more than 8 files", rank + 1);
            pos_put_piece(pos, p, sq_make(file, rank), false);
            file++;
            digit_before = false;
        }
    }
    if (rank != RANK_1)
        return fail(error, size, "the piece placement has %d ranks, not 8", 8 - rank);
    if (file != 8)
        return fail(error, size, "rank 1 of the piece placement has %d files, not 8", file);
    return true;
}

typedef struct CastlingField {
    int rights;
    Square rooks[4];
    bool file_letters; /* rook files were used: Shredder-FEN, or X-FEN for an inner rook */
    bool kq_letters;   /* K, Q, k or q were used (with file letters too: X-FEN) */
} CastlingField;

static bool parse_castling(const Position *pos, Field f, CastlingField *out, char *error, size_t size) {
    char shown[48], letter[8];
    out->rights = 0;
    out->file_letters = out->kq_letters = false;
    for (int i = 0; i < 4; i++)
        out->rooks[i] = SQ_NONE;
    if (f.length == 1 && f.text[0] == '-')
        return true;
    if (f.length > 4)
        return fail(error, size, "castling field '%s' has more than 4 letters", show(f, shown));
    for (size_t i = 0; i < f.length; i++) {
        char c = f.text[i];
        bool upper = c >= 'A' && c <= 'Z';
        char lower = upper ? (char)(c - 'A' + 'a') : c;
        if (!(lower == 'k' || lower == 'q' || (lower >= 'a' && lower <= 'h')))
            return fail(error, size, "castling field '%s': %s is not K, Q, k, q or a rook file A-H/a-h",
                        show(f, shown), show_char(c, letter));
        Color color = upper ? WHITE : BLACK;
        const char *name = color == WHITE ? "white" : "black";
        int back = color == WHITE ? RANK_1 : RANK_8;
        Bitboard kings = pos_pieces(pos, color, KING) & bb_rank(back);
        if (!kings)
            return fail(error, size, "castling right %s needs the %s king on rank %d", show_char(c, letter),
                        name, back + 1);
        int king_file = sq_file(bb_first(kings)), rook_file = -1;
        Bitboard rooks = pos_pieces(pos, color, ROOK) & bb_rank(back);
        out->kq_letters |= lower == 'k' || lower == 'q';
        if (lower == 'k') {
            for (int file = FILE_H; file > king_file && rook_file < 0; file--)
                if (bb_has(rooks, sq_make(file, back)))
                    rook_file = file;
        } else if (lower == 'q') {
            for (int file = FILE_A; file < king_file && rook_file < 0; file++)
                if (bb_has(rooks, sq_make(file, back)))
                    rook_file = file;
        } else {
            out->file_letters = true;
            if (bb_has(rooks, sq_make(lower - 'a', back)))
                rook_file = lower - 'a';
            else
                return fail(error, size, "castling right %s needs a %s rook on %c%d", show_char(c, letter), name,
                            lower, back + 1);
        }
        if (rook_file < 0)
            return fail(error, size, "castling right %s needs a %s rook on rank %d on the %s side of the king",
                        show_char(c, letter), name, back + 1, lower == 'k' ? "h-file" : "a-file");
        int index = 2 * color + (rook_file < king_file);
        if (out->rights & (1 << index))
            return fail(error, size, "castling field '%s' gives %s %s castling twice", show(f, shown), name,
                        rook_file < king_file ? "queen-side" : "king-side");
        out->rights |= 1 << index;
        out->rooks[index] = sq_make(rook_file, back);
    }
    return true;
}

/* True when every right names the standard king and rook squares. */
static bool standard_castling(const Position *pos, const CastlingField *c) {
    static const Square rook_home[4] = {SQ_H1, SQ_A1, SQ_H8, SQ_A8};
    for (int i = 0; i < 4; i++) {
        if (!(c->rights & (1 << i)))
            continue;
        Color color = i < 2 ? WHITE : BLACK;
        if (pos_king(pos, color) != sq_make(FILE_E, color == WHITE ? RANK_1 : RANK_8) || c->rooks[i] != rook_home[i])
            return false;
    }
    return true;
}

static bool parse_ep(Position *pos, Field f, char *error, size_t size) {
    char shown[48];
    if (f.length == 1 && f.text[0] == '-')
        return true;
    if (f.length != 2 || f.text[0] < 'a' || f.text[0] > 'h' || f.text[1] < '1' || f.text[1] > '8')
        return fail(error, size, "e.p. field '%s' is neither '-' nor a square such as e3", show(f, shown));
    Color us = pos->side, them = !us;
    Square ep = sq_make(f.text[0] - 'a', f.text[1] - '1');
    int expected = us == WHITE ? RANK_6 : RANK_3;
    if (sq_rank(ep) != expected)
        return fail(error, size, "e.p. square %.2s must be on rank %d with %s to move", f.text, expected + 1,
                    us == WHITE ? "white" : "black");
    if (pos->board[ep] != NO_PIECE)
        return fail(error, size, "e.p. square %.2s is not empty", f.text);
    Square pushed = ep - forward_step(us), origin = ep + forward_step(us);
    if (pos->board[pushed] != piece_make(them, PAWN))
        return fail(error, size, "e.p. square %.2s has no %s pawn on %c%d that could have just advanced two",
                    f.text, them == WHITE ? "white" : "black", f.text[0], sq_rank(pushed) + 1);
    if (pos->board[origin] != NO_PIECE)
        return fail(error, size, "e.p. square %.2s is impossible: %c%d, where the pawn came from, is occupied",
                    f.text, f.text[0], sq_rank(origin) + 1);
    pos->ep_square = (uint8_t)ep;
    return true;
}

static bool parse_clock(Field f, const char *name, unsigned low, unsigned high, uint16_t *value, char *error,
                        size_t size) {
    char shown[48];
    unsigned long n = 0;
    for (size_t i = 0; i < f.length; i++) {
        if (f.text[i] == '-' && i == 0 && f.length > 1 && f.text[1] >= '0' && f.text[1] <= '9')
            return fail(error, size, "%s %s is negative", name, show(f, shown));
        if (f.text[i] < '0' || f.text[i] > '9')
            return fail(error, size, "%s '%s' is not a whole number", name, show(f, shown));
        n = n * 10 + (unsigned long)(f.text[i] - '0');
        if (n > high) /* checked at every digit, so n never overflows */
            return fail(error, size, "%s %s is out of range %u..%u", name, show(f, shown), low, high);
    }
    if (n < low)
        return fail(error, size, "%s %s is out of range %u..%u", name, show(f, shown), low, high);
    *value = (uint16_t)n;
    return true;
}

bool fen_parse(Position *pos, const char *fen, bool chess960, char *error, size_t size) {
    char shown[48];
    Field fields[MAX_FIELDS];
    if (!fen)
        return fail(error, size, "no FEN given");
    int n = split_fields(fen, fields);
    if (n == 0)
        return fail(error, size, "the FEN is empty");
    if (n > MAX_FIELDS)
        return fail(error, size, "the FEN has more than 6 fields");
    if (n != 4 && n != 6)
        return fail(error, size, "the FEN has %d field%s, not 6 (or 4 without the clocks)", n, n == 1 ? "" : "s");

    pos_clear(pos);
    if (!parse_placement(pos, fields[0], error, size))
        return false;
    if (fields[1].length != 1 || (fields[1].text[0] != 'w' && fields[1].text[0] != 'b'))
        return fail(error, size, "side to move '%s' is neither 'w' nor 'b'", show(fields[1], shown));
    pos->side = fields[1].text[0] == 'w' ? WHITE : BLACK;

    const char *impossible = pos_impossibility(pos);
    if (impossible)
        return fail(error, size, "%s", impossible);

    CastlingField castling;
    if (!parse_castling(pos, fields[2], &castling, error, size))
        return false;
    if (!parse_ep(pos, fields[3], error, size))
        return false;
    if (n == 6) {
        if (!parse_clock(fields[4], "halfmove clock", 0, 65535, &pos->halfmove, error, size)
            || !parse_clock(fields[5], "fullmove number", 1, 65535, &pos->fullmove, error, size))
            return false;
    }

    pos->chess960 = chess960 || castling.file_letters || !standard_castling(pos, &castling);
    /* Rook files alone are Shredder-FEN; mixed with KQkq they are X-FEN naming inner rooks,
     * as fen_write writes them back. */
    pos->castling_notation = castling.file_letters && !castling.kq_letters ? CASTLING_NOTATION_SHREDDER
                           : pos->chess960         ? CASTLING_NOTATION_XFEN
                                                   : CASTLING_NOTATION_STANDARD;
    pos->castling = (uint8_t)castling.rights;
    pos_set_castling(pos, castling.rooks);
    pos->key = pos_compute_key(pos);
    return true;
}

/* X-FEN names a rook by K/Q only when it is the outermost of its colour on that side. */
static bool outermost_rook(const Position *pos, int index) {
    Color color = index < 2 ? WHITE : BLACK;
    Square rook = pos->castle_rook[index];
    Bitboard rooks = pos_pieces(pos, color, ROOK) & bb_rank(sq_rank(rook));
    Bitboard beyond = (index & 1) ? bb_square(rook) - 1 : ~(bb_square(rook) * 2 - 1);
    return !(rooks & beyond);
}

char *fen_write(const Position *pos, char *out) {
    char *p = out;
    for (int rank = RANK_8; rank >= RANK_1; rank--) {
        int empty = 0;
        for (int file = FILE_A; file <= FILE_H; file++) {
            Piece piece = pos->board[sq_make(file, rank)];
            if (piece == NO_PIECE) {
                empty++;
                continue;
            }
            if (empty)
                *p++ = (char)('0' + empty);
            empty = 0;
            *p++ = "?PNBRQK??pnbrqk?"[piece];
        }
        if (empty)
            *p++ = (char)('0' + empty);
        if (rank > RANK_1)
            *p++ = '/';
    }
    *p++ = ' ';
    *p++ = pos->side == WHITE ? 'w' : 'b';
    *p++ = ' ';
    if (!pos->castling)
        *p++ = '-';
    for (int index = 0; index < 4; index++) {
        if (!(pos->castling & (1 << index)))
            continue;
        bool white = index < 2;
        char letter = (char)((white ? 'A' : 'a') + sq_file(pos->castle_rook[index]));
        if (pos->castling_notation == CASTLING_NOTATION_STANDARD
            || (pos->castling_notation == CASTLING_NOTATION_XFEN && outermost_rook(pos, index)))
            letter = "KQkq"[index];
        *p++ = letter;
    }
    *p++ = ' ';
    if (pos->ep_square == SQ_NONE) {
        *p++ = '-';
    } else {
        *p++ = (char)('a' + sq_file(pos->ep_square));
        *p++ = (char)('1' + sq_rank(pos->ep_square));
    }
    snprintf(p, (size_t)(FEN_BUFFER_SIZE - (p - out)), " %u %u", (unsigned)pos->halfmove, (unsigned)pos->fullmove);
    return out;
}
