/* perft_example.c — perftkit used as a library: perft of the start position and of
 * Kiwipete, a divide in SAN, moves played from SAN and taken back, one suite line.
 * Build it against an installed perftkit:
 *     cc perft_example.c -o perft_example $(pkg-config --cflags --libs perftkit) */
#include <perftkit/perftkit.h>
#include <stdio.h>

#define KIWIPETE "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

/* Prints perft(depth) of `fen` as "NAME perft DEPTH: COUNT"; false on an error. */
static bool print_perft(PerftkitCounter *counter, const char *name, const char *fen, int depth) {
    PerftkitPosition *pos;
    char error[PERFTKIT_ERROR_SIZE], digits[PERFTKIT_COUNT_SIZE];
    PerftkitCount total;
    if (perftkit_position_new(&pos) != PERFTKIT_OK)
        return false;
    PerftkitStatus status = perftkit_position_set_fen(pos, fen, 0, error, sizeof error);
    if (status == PERFTKIT_OK)
        status = perftkit_perft(counter, pos, depth, &total);
    if (status == PERFTKIT_OK) {
        perftkit_count_text(total, digits, sizeof digits);
        printf("%s perft %d: %s\n", name, depth, digits);
    } else {
        fprintf(stderr, "%s: %s\n", name, status == PERFTKIT_ERROR_FEN ? error : perftkit_status_text(status));
    }
    perftkit_position_free(pos);
    return status == PERFTKIT_OK;
}

/* 1. e4 e5 played from SAN and taken back, then the divide of the start position. */
static bool print_divide(PerftkitCounter *counter) {
    PerftkitPosition *pos;
    PerftkitDivision divisions[PERFTKIT_MAX_MOVES];
    PerftkitCount total;
    size_t moves;
    char text[PERFTKIT_SAN_SIZE], digits[PERFTKIT_COUNT_SIZE], error[PERFTKIT_ERROR_SIZE] = "", fen[PERFTKIT_FEN_SIZE];
    if (perftkit_position_new(&pos) != PERFTKIT_OK)
        return false;
    const char *line[] = {"e4", "e5"};
    for (int i = 0; i < 2; i++) {
        PerftkitMove move;
        if (perftkit_move_from_san(pos, line[i], &move, error, sizeof error) != PERFTKIT_OK ||
            perftkit_make_move(pos, move) != PERFTKIT_OK) {
            fprintf(stderr, "cannot play %s: %s\n", line[i], error[0] ? error : "not a legal move");
            perftkit_position_free(pos);
            return false;
        }
    }
    perftkit_position_fen(pos, fen, sizeof fen);
    printf("after 1. e4 e5: %s\n", fen);
    while (perftkit_unmake_move(pos) == PERFTKIT_OK) /* back to the start position */
        ;
    PerftkitStatus status = perftkit_divide(counter, pos, 3, divisions, PERFTKIT_MAX_MOVES, &moves, &total);
    if (status == PERFTKIT_OK) {
        printf("divide of the start position, depth 3:\n");
        for (size_t i = 0; i < moves; i++) {
            perftkit_move_san(pos, divisions[i].move, text, sizeof text);
            perftkit_count_text(divisions[i].count, digits, sizeof digits);
            printf("  %-4s %s\n", text, digits);
        }
        perftkit_count_text(total, digits, sizeof digits);
        printf("%zu moves, total %s\n", moves, digits);
    }
    perftkit_position_free(pos);
    return status == PERFTKIT_OK;
}

int main(void) {
    char error[PERFTKIT_ERROR_SIZE];
    PerftkitCounter *counter;
    perftkit_init();
    printf("perftkit %s\n", perftkit_version());
    if (perftkit_counter_new(0, 16, &counter, error, sizeof error) != PERFTKIT_OK) {
        fprintf(stderr, "%s\n", error);
        return 1;
    }
    bool ok = print_perft(counter, "startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5) &&
              print_perft(counter, "kiwipete", KIWIPETE, 4) && print_divide(counter);
    PerftkitEpdResult result;
    PerftkitStatus status = perftkit_epd_run(counter, KIWIPETE " ;D1 48 ;D2 2039 ;D3 97862", 0, 0, &result, error,
                                             sizeof error);
    printf("suite line: %s, %d depths\n", status == PERFTKIT_OK ? "pass" : error, result.depths);
    perftkit_counter_free(counter);
    return ok && status == PERFTKIT_OK ? 0 : 1;
}
