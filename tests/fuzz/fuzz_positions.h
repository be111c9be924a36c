/* fuzz_positions.h — the positions the move-text targets read moves against, chosen by
 * the first input byte (with --chess960 or not): castling both ways, e.p., promotions, pieces that need
 * disambiguation, and Chess960 in Shredder-FEN and X-FEN. */
#ifndef PERFTKIT_FUZZ_POSITIONS_H
#define PERFTKIT_FUZZ_POSITIONS_H

#include "fuzz_support.h"

static const char *const fuzz_fens[] = {
    FEN_STARTPOS,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "Q6Q/4k3/8/2N1N3/8/2N1N3/8/Q3K2Q w - - 0 1",
    "8/8/8/8/8/8/1pk5/R3K3 b Q - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1",
    "1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9",
};
enum { FUZZ_FEN_COUNT = sizeof fuzz_fens / sizeof *fuzz_fens };

/* The position the first byte picks (the byte is consumed): its low bits choose the
 * FEN, its top bit --chess960. */
typedef struct FuzzPick {
    const char *fen;
    bool chess960;
} FuzzPick;

static Position fuzz_pick_position(const uint8_t **data, size_t *size, FuzzPick *pick) {
    Position pos;
    char error[FEN_ERROR_SIZE];
    unsigned byte = *size ? **data : 0;
    pick->fen = fuzz_fens[(byte & 0x7f) % FUZZ_FEN_COUNT];
    pick->chess960 = byte >> 7;
    if (*size) {
        (*data)++;
        (*size)--;
    }
    FUZZ_CHECK(fen_parse(&pos, pick->fen, pick->chess960, error, sizeof error), "'%s': %s", pick->fen, error);
    return pos;
}

#endif
