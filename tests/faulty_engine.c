/* faulty_engine.c — a UCI perft engine for the tests only: perftkit's own core with one
 * planted fault, chosen by the first argument, so that `perft check` can be shown to
 * find it. Move faults apply at every ply (the engine counts with its own wrong list):
 *   none                   no fault
 *   no-ep                  never generates e.p. captures
 *   castle-through-check   castles whenever the squares are empty, whether the king passes
 *                          attacked squares or not (never into check: the positions after
 *                          it stay legal, so the engine does not trip over its own fault)
 *   no-underpromotion      promotes to a queen only
 *   duplicate-king-captures lists every capture by the king twice
 * Behaviour faults, on `go perft`: crash (abort), hang (sleeps), garbage (prints
 * "xyzzy: 20"), escape (the same with a terminal escape and a bell in it), silent
 * (prints lines but never a total). Any further argument is
 * ignored: the tests use one as a tag to find stray processes. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core.h"

static const char *fault = "none";

static bool is(const char *name) { return !strcmp(fault, name); }

/* The engine's move list: the legal moves with the planted fault. */
static int faulty_moves(const Position *pos, Move out[MAX_MOVES * 2]) {
    MoveList legal;
    gen_legal(pos, &legal);
    int n = 0;
    for (int i = 0; i < legal.count; i++) {
        Move m = legal.moves[i];
        if (is("no-ep") && move_kind(m) == MOVE_EN_PASSANT)
            continue;
        if (is("no-underpromotion") && move_kind(m) == MOVE_PROMOTION && move_promotion(m) != QUEEN)
            continue;
        if (move_kind(m) == MOVE_CASTLING && is("castle-through-check"))
            continue; /* added below, by the faulty rule */
        out[n++] = m;
        if (is("duplicate-king-captures") && piece_type(pos->board[move_from(m)]) == KING
            && move_kind(m) == MOVE_NORMAL && pos->board[move_to(m)] != NO_PIECE)
            out[n++] = m;
    }
    if (is("castle-through-check") && !pos_in_check(pos)) {
        Square king = pos_king(pos, pos->side);
        for (int index = 2 * pos->side; index < 2 * pos->side + 2; index++) {
            if (!(pos->castling & (1 << index)) || (pos_occupied(pos) & pos->castle_empty[index]))
                continue;
            Move m = move_make_kind(king, pos->castle_rook[index], MOVE_CASTLING);
            Position after = *pos;
            Undo undo;
            pos_make_move(&after, m, &undo);
            Bitboard theirs_attack = pos_attackers_to(&after, pos_king(&after, pos->side), pos_occupied(&after))
                                   & after.by_color[after.side];
            if (!theirs_attack)
                out[n++] = m;
        }
    }
    return n;
}

static unsigned long long perft(Position *pos, int depth) {
    Move moves[MAX_MOVES * 2];
    int n = faulty_moves(pos, moves);
    if (depth == 1)
        return (unsigned long long)n;
    unsigned long long nodes = 0;
    for (int i = 0; i < n; i++) {
        Position child = *pos;
        Undo undo;
        pos_make_move(&child, moves[i], &undo);
        nodes += perft(&child, depth - 1);
    }
    return nodes;
}

int main(int argc, char **argv) {
    if (argc > 1)
        fault = argv[1];
    core_init();
    Position pos;
    pos_set_startpos(&pos);
    bool chess960 = false;
    char line[4096];
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (!strcmp(line, "uci")) {
            printf("id name faulty-%s\noption name UCI_Chess960 type check default false\nuciok\n", fault);
        } else if (!strcmp(line, "isready")) {
            printf("readyok\n");
        } else if (!strncmp(line, "setoption name UCI_Chess960 value ", 34)) {
            chess960 = !strcmp(line + 34, "true");
        } else if (!strncmp(line, "position fen ", 13)) {
            char *moves = strstr(line, " moves ");
            if (moves)
                *moves = '\0';
            if (!fen_parse(&pos, line + 13, chess960, NULL, 0))
                pos_set_startpos(&pos);
            for (char *save = NULL, *m = moves ? strtok_r(moves + 7, " ", &save) : NULL; m;
                 m = strtok_r(NULL, " ", &save)) {
                Undo undo;
                pos_make_move(&pos, move_parse_uci(&pos, m), &undo);
            }
        } else if (!strncmp(line, "go perft ", 9)) {
            int depth = atoi(line + 9);
            if (is("crash"))
                abort();
            if (is("hang"))
                for (;;)
                    pause();
            if (is("garbage") || is("escape")) {
                printf(is("escape") ? "\x1b[2Jxyzzy\a: 20\n" : "xyzzy: 20\n");
                continue;
            }
            Move moves[MAX_MOVES * 2];
            int n = faulty_moves(&pos, moves);
            unsigned long long total = 0;
            for (int i = 0; i < n; i++) {
                Position child = pos;
                Undo undo;
                char uci[UCI_MOVE_SIZE];
                move_to_uci(&pos, moves[i], uci);
                pos_make_move(&child, moves[i], &undo);
                unsigned long long nodes = depth == 1 ? 1 : perft(&child, depth - 1);
                total += nodes;
                printf("%s: %llu\n", uci, nodes);
            }
            if (!is("silent"))
                printf("\nNodes searched: %llu\n\n", total);
        } else if (!strcmp(line, "quit")) {
            return 0;
        }
    }
    return 0;
}
