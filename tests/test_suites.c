/* test_suites.c — every public suite in suites/, as data: each count within the
 * node window [PERFTKIT_MIN_NODES, PERFTKIT_MAX_NODES] (default 1 .. 1,000,000) is
 * recomputed and compared. The slow run moves the window up. Chess960 is never
 * forced: the castling field of the 960 files must reveal it. */
#include "support.h"

#include "epd.h"
#include "perft.h"

static void check_suite(const char *name) {
    char path[1024], line[4096], error[EPD_ERROR_SIZE], fen_error[FEN_ERROR_SIZE];
    unsigned long long min_nodes = env_number("PERFTKIT_MIN_NODES", 1);
    unsigned long long max_nodes = env_number("PERFTKIT_MAX_NODES", 1000000);
    FILE *file = fopen(suite_path(name, path, sizeof path), "r");
    cr_assert(file, "cannot open %s", path);
    int line_number = 0, records = 0, checked = 0;
    while (fgets(line, sizeof line, file)) {
        line_number++;
        EpdRecord record;
        EpdStatus status = epd_parse_line(line, &record, error, sizeof error);
        cr_assert(status != EPD_MALFORMED, "%s:%d: %s", name, line_number, error);
        if (status == EPD_NOT_A_RECORD)
            continue;
        records++;
        Position pos;
        cr_assert(fen_parse(&pos, record.fen, false, fen_error, sizeof fen_error), "%s:%d: %s", name,
                  line_number, fen_error);
        for (int i = 0; i < record.expectation_count; i++) {
            EpdExpectation e = record.expect[i];
            if (e.nodes < min_nodes || e.nodes > max_nodes)
                continue;
            uint64_t got = perft_count(&pos, e.depth);
            checked++;
            cr_expect_eq(got, (uint64_t)e.nodes, "%s:%d: %s depth %d: expected %llu, got %llu", name, line_number,
                         record.fen, e.depth, (unsigned long long)e.nodes, (unsigned long long)got);
        }
    }
    fclose(file);
    cr_assert_gt(records, 0, "%s holds no positions", name);
    cr_log_info("%s: %d positions, %d counts checked", name, records, checked);
}

TestSuite(suites, .init = core_setup, .timeout = 1800);

Test(suites, cpw_perft_results_match) { check_suite("cpw_perft_results.epd"); }
Test(suites, roce_perftsuite_matches) { check_suite("roce_perftsuite.epd"); }
Test(suites, ethereal_standard_matches) { check_suite("ethereal_standard.epd"); }
Test(suites, ethereal_fischer960_matches) { check_suite("ethereal_fischer960.epd"); }
Test(suites, kervinck_random_positions_match) { check_suite("kervinck_perft_random.epd"); }
Test(suites, pychess_tricky_matches) { check_suite("pychess_tricky.epd"); }
Test(suites, pychess_tricky_960_matches) { check_suite("pychess_tricky_960.epd"); }
Test(suites, peterellisjones_gist_matches) { check_suite("peterellisjones_gist.epd"); }
Test(suites, stockfish_perft_sh_matches) { check_suite("stockfish_perft_sh.epd"); }
Test(suites, stockfish_perft_sh_960_matches) { check_suite("stockfish_perft_sh_960.epd"); }
