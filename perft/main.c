#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "perft.h"
int main(int argc, char **argv) {
    core_init();
    Position pos; char err[160];
    if (!fen_parse(&pos, argc > 2 ? argv[2] : FEN_STARTPOS, false, err, sizeof err)) { fprintf(stderr, "%s\n", err); return 2; }
    int d = atoi(argv[1]);
    struct timespec a, b; clock_gettime(CLOCK_MONOTONIC, &a);
    uint64_t n = perft_count(&pos, d);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double t = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
    printf("%llu %.3f s %.1f Mnps\n", (unsigned long long)n, t, n / t / 1e6);
}
