/* mpi_main.c — the `perft-mpi` binary: `mpirun -np N perft-mpi count ...`. Every rank
 * reads the same command line; rank 0 speaks on the process's streams, the others
 * count the batches rank 0 gives them and stay silent. count and divide spread their
 * work units over the ranks, stats its distinct positions a few plies down and divide
 * --stats its root moves; the other subcommands are perft's. */
#include <stdio.h>
#include <string.h>

#include "../core/core.h"
#include "../dist/dist.h"
#include "commands.h"

/* The subcommands whose runs dist_run spreads; every rank must run the same ones. */
static bool distributed(const char *command) {
    return !strcmp(command, "count") || !strcmp(command, "divide") || !strcmp(command, "stats");
}

static const CliBackend spread_over_ranks = {dist_run, dist_stats_run_units, true};

int main(int argc, char **argv) {
    char error[160];
    if (!dist_init(&argc, &argv, error, sizeof error)) {
        fprintf(stderr, "perft-mpi: %s\n", error);
        return 2;
    }
    core_init();
    int status = 2;
    bool spread = argc > 1 && distributed(argv[1]);
    if (dist_rank() == 0) {
        if (argc > 1 && argv[1][0] != '-' && !spread && dist_size() > 1)
            fprintf(stderr, "perft-mpi: %s runs on rank 0 alone; only count, divide and stats spread over ranks\n",
                    argv[1]);
        status = cli_main_with(stdin, stdout, stderr, &spread_over_ranks, false, argc, argv);
    } else if (spread) {
        FILE *in = fopen("/dev/null", "r"), *out = fopen("/dev/null", "w");
        if (in && out)
            status = cli_main_with(in, out, out, &spread_over_ranks, true, argc, argv);
        if (in)
            fclose(in);
        if (out)
            fclose(out);
    } else {
        status = 0; /* rank 0 runs it alone */
    }
    dist_finish();
    return status;
}
