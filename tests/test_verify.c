/* test_verify.c — the cross-checks pass on sound positions, report what they counted,
 * and run side by side: the hash check's second key set is a value of its own. */
#include "support.h"

#include "../perft/verify.h"

TestSuite(verify, .init = core_setup, .timeout = 600);

static const char *const fens[] = {
    FEN_STARTPOS,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
};
enum { FENS = sizeof fens / sizeof fens[0] };

/* Every check on every position, one (check, position) pair per unit. */
typedef struct Job {
    VerifyDrivers *drivers;
    VerifyResult results[VERIFY_NB * FENS];
} Job;

static void run_pair(void *context, int thread, const Unit *unit, int remaining) {
    (void)thread;
    (void)remaining;
    Job *job = context;
    int pair = unit->root;
    verify_position((VerifyCheck)(pair % VERIFY_NB), fens[pair / VERIFY_NB], false, 3, job->drivers,
                    &job->results[pair]);
}

Test(verify, every_check_passes_with_the_hash_check_running_beside_the_others) {
    static VerifyDrivers drivers;
    static Job job;
    char error[160];
    cr_assert(verify_drivers_create(&drivers, 2, 4 << 20, error, sizeof error), "%s", error);
    cr_assert_eq(zob_keys_seed(&drivers.other_keys), VERIFY_OTHER_SEED);
    job.drivers = &drivers;
    UnitList units = {calloc(VERIFY_NB * FENS, sizeof(Unit)), VERIFY_NB * FENS};
    cr_assert(units.items);
    for (int i = 0; i < units.count; i++)
        units.items[i].root = i;
    /* Twice over, so pairs of both rounds overlap on the two threads. */
    for (int round = 0; round < 2; round++) {
        driver_for_each_unit(2, &units, 0, NULL, run_pair, &job);
        for (int i = 0; i < units.count; i++)
            cr_assert(job.results[i].pass, "%s on %s: %s", verify_name((VerifyCheck)(i % VERIFY_NB)),
                      fens[i / VERIFY_NB], job.results[i].detail);
    }
    /* The hash check counts perft 1 + 2 + 3 of each position. */
    cr_assert_eq(job.results[0 * VERIFY_NB + VERIFY_HASH].nodes, 20 + 400 + 8902);
    cr_assert_eq(job.results[1 * VERIFY_NB + VERIFY_HASH].nodes, 48 + 2039 + 97862);
    cr_assert_eq(zob_keys_seed(zob_default_keys()), ZOB_DEFAULT_SEED, "the default set is untouched");
    free(units.items);
    verify_drivers_destroy(&drivers);
}
