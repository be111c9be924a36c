/* board.c — the position display. Everything is appended to one fixed buffer (no
 * allocation, nothing static written), so a display is whole or, were it ever too
 * long, cut short but terminated. Columns are counted in characters, a figurine being
 * one, so the board and the wrapped move list line up whatever the bytes. */
#include "board.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A buffer being filled. */
typedef struct Text {
    char *out;
    size_t used;
} Text;

static void put(Text *t, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void put(Text *t, const char *format, ...) {
    if (t->used >= BOARD_TEXT_SIZE - 1)
        return;
    va_list args;
    va_start(args, format);
    int n = vsnprintf(t->out + t->used, BOARD_TEXT_SIZE - t->used, format, args);
    va_end(args);
    if (n > 0)
        t->used += (size_t)n < BOARD_TEXT_SIZE - t->used ? (size_t)n : BOARD_TEXT_SIZE - 1 - t->used;
}

/* Figurines by colour and piece type (U+2654..U+265F), and the letters. */
static const char *const figurines[COLOR_NB][PIECE_TYPE_NB] = {
    {"", "\u2659", "\u2658", "\u2657", "\u2656", "\u2655", "\u2654", ""},
    {"", "\u265F", "\u265E", "\u265D", "\u265C", "\u265B", "\u265A", ""},
};
static const char letters[] = " PNBRQK";

/* ANSI colours: light and dark squares (256-colour backgrounds), white and black men. */
#define ANSI_LIGHT "\033[48;5;180m"
#define ANSI_DARK "\033[48;5;137m"
#define ANSI_WHITE_MAN "\033[1;97m"
#define ANSI_BLACK_MAN "\033[22;30m"
#define ANSI_RESET "\033[0m"

/* One man as shown: a figurine, or a letter (upper case for white). */
static void put_man(Text *t, Piece p, unsigned style) {
    if (style & BOARD_FAN)
        put(t, "%s", figurines[piece_color(p)][piece_type(p)]);
    else
        put(t, "%c", piece_color(p) == WHITE ? letters[piece_type(p)] : letters[piece_type(p)] + ('a' - 'A'));
}

/* The file letters under and over the board, one per cell. */
static void put_files(Text *t, unsigned style) {
    bool color = style & BOARD_COLOR;
    put(t, color ? "   " : "  ");
    for (int f = FILE_A; f <= FILE_H; f++)
        put(t, " %c%s", 'a' + f, color && f < FILE_H ? " " : "");
    put(t, "\n");
}

/* The board, rank 8 at the top: cells of one column and a blank between them, or with
 * colour, cells of three columns (the man in the middle) on their square's colour. */
static void put_board(Text *t, const Position *pos, unsigned style) {
    bool color = style & BOARD_COLOR;
    put_files(t, style);
    for (int r = RANK_8; r >= RANK_1; r--) {
        put(t, " %d ", r + 1);
        for (int f = FILE_A; f <= FILE_H; f++) {
            Square s = sq_make(f, r);
            Piece p = pos_piece_on(pos, s);
            if (color) {
                put(t, "%s", (f + r) % 2 ? ANSI_LIGHT : ANSI_DARK);
                if (p == NO_PIECE) {
                    put(t, "   ");
                    continue;
                }
                put(t, "%s ", piece_color(p) == WHITE ? ANSI_WHITE_MAN : ANSI_BLACK_MAN);
                put_man(t, p, style);
                put(t, " ");
            } else {
                if (f > FILE_A)
                    put(t, " ");
                if (p == NO_PIECE)
                    put(t, ".");
                else
                    put_man(t, p, style);
            }
        }
        put(t, color ? ANSI_RESET " %d\n" : " %d\n", r + 1);
    }
    put_files(t, style);
}

/* The men of `set`, each as its man and square ("Qe7", "♛e7"), in square order; "-"
 * when there are none. */
static void put_men(Text *t, const Position *pos, Bitboard set, unsigned style) {
    if (!set) {
        put(t, "-");
        return;
    }
    for (bool first = true; set; first = false) {
        Square s = bb_pop(&set);
        Piece p = pos_piece_on(pos, s);
        if (!first)
            put(t, " ");
        if (style & BOARD_FAN)
            put_man(t, p, style);
        else
            put(t, "%c", letters[piece_type(p)]);
        put(t, "%c%c", 'a' + sq_file(s), '1' + sq_rank(s));
    }
}

size_t board_columns(const char *text) {
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        n += (*p & 0xC0) != 0x80;
    return n;
}

typedef struct MoveText {
    char san[SAN_MOVE_SIZE];
} MoveText;

static int compare_moves(const void *a, const void *b) {
    return strcmp(((const MoveText *)a)->san, ((const MoveText *)b)->san);
}

/* Width of the move list's lines, in columns. */
enum { MOVES_WIDTH = 78 };

/* "Legal moves: N" and the moves sorted by SAN, wrapped at MOVES_WIDTH columns. */
static void put_moves(Text *t, const Position *pos, unsigned style) {
    MoveList list;
    MoveText moves[MAX_MOVES];
    int n = gen_legal(pos, &list);
    for (int i = 0; i < n; i++) {
        move_to_san(pos, list.moves[i], moves[i].san);
    }
    qsort(moves, (size_t)n, sizeof moves[0], compare_moves);
    put(t, "Legal moves: %d", n);
    if (n == 0)
        put(t, pos_in_check(pos) ? " (checkmate)" : " (stalemate)");
    size_t column = MOVES_WIDTH;
    for (int i = 0; i < n; i++) {
        char fan[FAN_MOVE_SIZE];
        const char *text = (style & BOARD_FAN) ? board_fan(moves[i].san, pos_side(pos), fan) : moves[i].san;
        size_t width = board_columns(text);
        if (column + 1 + width > MOVES_WIDTH) {
            put(t, "\n ");
            column = 1;
        }
        put(t, " %s", text);
        column += 1 + width;
    }
    put(t, "\n");
}

/* Field `index` (0-based) of a FEN, into `out`. */
static const char *fen_field(const char *fen, int index, char *out, size_t size) {
    const char *p = fen;
    for (int i = 0; i < index && p; i++) {
        p = strchr(p, ' ');
        if (p)
            p++;
    }
    size_t n = p ? strcspn(p, " ") : 0;
    if (n >= size)
        n = size - 1;
    memcpy(out, p ? p : "", n);
    out[n] = '\0';
    return out;
}

char *board_render(const Position *pos, unsigned style, char out[BOARD_TEXT_SIZE]) {
    Text t = {out, 0};
    out[0] = '\0';
    char fen[FEN_BUFFER_SIZE], castling[16], ep[8];
    fen_write(pos, fen);
    put_board(&t, pos, style);
    put(&t, "\n");
    put(&t, "Fen: %s\n", fen);
    put(&t, "Variant: %s\n", pos->chess960 ? "Chess960" : "standard");
    put(&t, "Side to move: %s\n", pos_side(pos) == WHITE ? "white" : "black");
    /* As the FEN writer writes them: KQkq, or Shredder-FEN or X-FEN files in Chess960. */
    put(&t, "Castling: %s\n", fen_field(fen, 2, castling, sizeof castling));
    put(&t, "En passant: %s\n", fen_field(fen, 3, ep, sizeof ep));
    put(&t, "Clocks: halfmove %d, fullmove %d\n", (int)pos->halfmove, (int)pos->fullmove);
    put(&t, "Key: %016llx%016llx\n", (unsigned long long)pos->key.hi, (unsigned long long)pos->key.lo);
    put(&t, "Checkers: ");
    put_men(&t, pos, pos_checkers(pos), style);
    put(&t, "\nPinned: ");
    put_men(&t, pos, gen_pinned(pos), style);
    put(&t, "\n");
    put_moves(&t, pos, style);
    return out;
}

bool board_print(FILE *stream, const Position *pos, unsigned style) {
    char text[BOARD_TEXT_SIZE];
    board_render(pos, style, text);
    return fputs(text, stream) >= 0 && fflush(stream) == 0 && !ferror(stream);
}

char *board_fan(const char *san, Color side, char out[FAN_MOVE_SIZE]) {
    size_t n = 0;
    for (const char *p = san; *p; p++) {
        const char *letter = strchr(letters + 2, *p); /* N B R Q K: pawns have no letter */
        /* A piece letter leads a piece's move or follows '='; any other capital is not one
         * (O-O), and lower case letters are files. */
        bool piece = *p && letter && (p == san || p[-1] == '=');
        const char *text = piece ? figurines[side][letter - letters] : (char[]){*p, '\0'};
        size_t length = strlen(text);
        if (n + length >= FAN_MOVE_SIZE)
            break;
        memcpy(out + n, text, length);
        n += length;
    }
    out[n] = '\0';
    return out;
}
