/* test_api.c — the public API of libperftkit, linked as users link it (the shared
 * library, through <perftkit/perftkit.h> alone): every call, its results on known
 * positions and counts, and each of its errors. */
#include <criterion/criterion.h>
#include <math.h>
#include <perftkit/perftkit.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STARTPOS "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
#define KIWIPETE "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
#define POSITION3 "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
#define POSITION5 "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
#define CHESS960 "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"

static void init(void) { cr_assert_eq(perftkit_init(), PERFTKIT_OK); }

TestSuite(api, .init = init);

static PerftkitPosition *position(const char *fen, unsigned flags) {
    PerftkitPosition *pos;
    char error[PERFTKIT_ERROR_SIZE];
    cr_assert_eq(perftkit_position_new(&pos), PERFTKIT_OK);
    cr_assert_eq(perftkit_position_set_fen(pos, fen, flags, error, sizeof error), PERFTKIT_OK, "%s: %s", fen, error);
    return pos;
}

static PerftkitCounter *counter(int threads, size_t hash_mb) {
    PerftkitCounter *c;
    char error[PERFTKIT_ERROR_SIZE];
    cr_assert_eq(perftkit_counter_new(threads, hash_mb, &c, error, sizeof error), PERFTKIT_OK, "%s", error);
    return c;
}

static uint64_t small(PerftkitCount n) {
    cr_assert_eq(n.hi, 0);
    return n.lo;
}

static const char *fen_of(const PerftkitPosition *pos) {
    static char fen[PERFTKIT_FEN_SIZE];
    cr_assert_eq(perftkit_position_fen(pos, fen, sizeof fen), PERFTKIT_OK);
    return fen;
}

static PerftkitMove san(const PerftkitPosition *pos, const char *text) {
    PerftkitMove move;
    char error[PERFTKIT_ERROR_SIZE];
    cr_assert_eq(perftkit_move_from_san(pos, text, &move, error, sizeof error), PERFTKIT_OK, "%s: %s", text, error);
    return move;
}

/* A reason is one line of printable text. */
static void assert_one_line(const char *text) {
    cr_assert(text[0], "empty reason");
    for (const char *p = text; *p; p++)
        cr_assert((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f, "byte 0x%02x in '%s'", *p, text);
}

/* ---- Start-up, versions, counts ---- */

Test(api_uninitialised, handles_are_refused_before_init) {
    PerftkitPosition *pos = (PerftkitPosition *)1;
    PerftkitCounter *c = (PerftkitCounter *)1;
    char error[PERFTKIT_ERROR_SIZE] = "";
    cr_assert_eq(perftkit_position_new(&pos), PERFTKIT_ERROR_UNINITIALISED);
    cr_assert_null(pos);
    cr_assert_eq(perftkit_counter_new(1, 0, &c, error, sizeof error), PERFTKIT_ERROR_UNINITIALISED);
    cr_assert_null(c);
    assert_one_line(error);
    cr_assert_str_eq(perftkit_version(), PERFTKIT_VERSION, "the version needs no init");
}

static void *init_again(void *unused) {
    (void)unused;
    return perftkit_init() == PERFTKIT_OK ? NULL : (void *)1;
}

Test(api_uninitialised, init_may_be_called_first_and_again_from_any_thread) {
    pthread_t threads[4];
    for (int i = 0; i < 4; i++)
        cr_assert_eq(pthread_create(&threads[i], NULL, init_again, NULL), 0);
    for (int i = 0; i < 4; i++) {
        void *failed;
        pthread_join(threads[i], &failed);
        cr_assert_null(failed, "perftkit_init failed on thread %d", i);
    }
    cr_assert_eq(perftkit_init(), PERFTKIT_OK);
}

Test(api, the_library_and_the_header_carry_one_version) {
    char header[32];
    snprintf(header, sizeof header, "%d.%d.%d", PERFTKIT_VERSION_MAJOR, PERFTKIT_VERSION_MINOR, PERFTKIT_VERSION_PATCH);
    cr_assert_str_eq(perftkit_version(), PERFTKIT_VERSION);
    cr_assert_str_eq(perftkit_version(), header);
}

Test(api, every_status_has_a_text) {
    for (int s = PERFTKIT_OK; s <= PERFTKIT_STOPPED_INTERRUPT; s++)
        assert_one_line(perftkit_status_text((PerftkitStatus)s));
    cr_assert_str_eq(perftkit_status_text(PERFTKIT_ERROR_MOVE), "not a legal move");
}

Test(api, counts_print_in_full_past_64_bits) {
    char text[PERFTKIT_COUNT_SIZE];
    /* Start position perft 14, the first past 2^64: 61,885,021,521,585,529,237. */
    PerftkitCount perft14 = {6544789300456874389ULL, 3}; /* 3 * 2^64 + lo */
    cr_assert_eq(perftkit_count_text(perft14, text, sizeof text), PERFTKIT_OK);
    cr_assert_str_eq(text, "61885021521585529237");
    cr_assert_eq(perftkit_count_text((PerftkitCount){0, 0}, text, sizeof text), PERFTKIT_OK);
    cr_assert_str_eq(text, "0");
    cr_assert_eq(perftkit_count_text(perft14, text, 20), PERFTKIT_ERROR_BUFFER, "20 digits need 21 bytes");
}

/* ---- Positions ---- */

Test(api, a_new_position_is_the_start_position) {
    PerftkitPosition *pos;
    cr_assert_eq(perftkit_position_new(&pos), PERFTKIT_OK);
    cr_assert_str_eq(fen_of(pos), STARTPOS);
    cr_assert(perftkit_position_white_to_move(pos));
    cr_assert_not(perftkit_position_in_check(pos));
    perftkit_position_free(pos);
    perftkit_position_free(NULL);
}

Test(api, fens_round_trip_in_their_castling_notation) {
    const char *fens[] = {STARTPOS, KIWIPETE, POSITION5, CHESS960, "1rkr3b/1ppn3p/3pB1n1/6q1/R2P4/4N1P1/1P5P/2KRQ1B1 b Ddb - 0 14"};
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        PerftkitPosition *pos = position(fens[i], 0);
        cr_assert_str_eq(fen_of(pos), fens[i]);
        perftkit_position_free(pos);
    }
    PerftkitPosition *pos = position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", 0);
    cr_assert_str_eq(fen_of(pos), KIWIPETE, "4 fields read as clocks 0 and 1");
    perftkit_position_free(pos);
}

Test(api, a_rejected_fen_says_why_and_leaves_the_position) {
    const char *bad[] = {"", "8/8/8/8/8/8/8/8 w - - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                         "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", "k7/8/8/8/8/8/8/K6R w - - 0 1 \x01",
                         "\xff\xfe garbage\n"};
    PerftkitPosition *pos = position(KIWIPETE, 0);
    cr_assert_eq(perftkit_make_move(pos, san(pos, "O-O")), PERFTKIT_OK);
    char before[PERFTKIT_FEN_SIZE];
    snprintf(before, sizeof before, "%s", fen_of(pos));
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char error[PERFTKIT_ERROR_SIZE] = "";
        cr_assert_eq(perftkit_position_set_fen(pos, bad[i], 0, error, sizeof error), PERFTKIT_ERROR_FEN, "'%s'", bad[i]);
        assert_one_line(error);
        cr_assert_str_eq(fen_of(pos), before);
    }
    cr_assert_eq(perftkit_unmake_move(pos), PERFTKIT_OK, "the moves made are kept too");
    cr_assert_str_eq(fen_of(pos), KIWIPETE);
    char error[PERFTKIT_ERROR_SIZE];
    perftkit_position_set_fen(pos, "8/8/8/8/8/8/8/8 w - - 0 1", 0, error, sizeof error);
    cr_assert(strstr(error, "king"), "the reason names the problem: %s", error);
    cr_assert_eq(perftkit_position_set_fen(pos, "", 0, NULL, 0), PERFTKIT_ERROR_FEN, "no error buffer needed");
    char tiny[8];
    cr_assert_eq(perftkit_position_set_fen(pos, "", 0, tiny, sizeof tiny), PERFTKIT_ERROR_FEN);
    cr_assert_eq(strlen(tiny), 7, "a short buffer gets the reason cut, terminated");
    cr_assert_eq(perftkit_position_set_fen(NULL, STARTPOS, 0, error, sizeof error), PERFTKIT_ERROR_ARGUMENT);
    cr_assert_eq(perftkit_position_set_fen(pos, NULL, 0, error, sizeof error), PERFTKIT_ERROR_ARGUMENT);
    cr_assert_eq(perftkit_position_set_fen(pos, STARTPOS, 2, error, sizeof error), PERFTKIT_ERROR_ARGUMENT);
    perftkit_position_free(pos);
}

Test(api, chess960_castling_follows_the_flag) {
    /* KQkq with rooks on a1/h1 and the king on e1 reads as standard chess unless told. */
    char uci[PERFTKIT_UCI_SIZE];
    PerftkitPosition *s = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 0);
    PerftkitPosition *f = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", PERFTKIT_CHESS960);
    cr_assert_eq(perftkit_move_uci(s, san(s, "O-O"), uci, sizeof uci), PERFTKIT_OK);
    cr_assert_str_eq(uci, "e1g1");
    cr_assert_eq(perftkit_move_uci(f, san(f, "O-O"), uci, sizeof uci), PERFTKIT_OK);
    cr_assert_str_eq(uci, "e1h1", "Chess960 castling is king takes rook");
    perftkit_position_free(s);
    perftkit_position_free(f);
}

Test(api, writing_a_fen_needs_room_for_it) {
    PerftkitPosition *pos = position(STARTPOS, 0);
    char out[PERFTKIT_FEN_SIZE];
    cr_assert_eq(perftkit_position_fen(pos, out, strlen(STARTPOS)), PERFTKIT_ERROR_BUFFER);
    cr_assert_eq(perftkit_position_fen(pos, out, strlen(STARTPOS) + 1), PERFTKIT_OK);
    cr_assert_str_eq(out, STARTPOS);
    cr_assert_eq(perftkit_position_fen(NULL, out, sizeof out), PERFTKIT_ERROR_ARGUMENT);
    perftkit_position_free(pos);
}

/* ---- Moves ---- */

Test(api, legal_moves_are_listed_and_counted) {
    struct { const char *fen; size_t moves; } cases[] = {
        {STARTPOS, 20}, {KIWIPETE, 48}, {POSITION3, 14}, {POSITION5, 44},
        {"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", 0}, /* fool's mate */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        PerftkitPosition *pos = position(cases[i].fen, 0);
        PerftkitMove moves[PERFTKIT_MAX_MOVES];
        cr_assert_eq(perftkit_legal_moves(pos, moves, PERFTKIT_MAX_MOVES), cases[i].moves, "%s", cases[i].fen);
        cr_assert_eq(perftkit_legal_moves(pos, NULL, 0), cases[i].moves);
        perftkit_position_free(pos);
    }
    PerftkitPosition *pos = position(KIWIPETE, 0);
    PerftkitMove few[5] = {0, 0, 0, 0, 0}, all[PERFTKIT_MAX_MOVES];
    cr_assert_eq(perftkit_legal_moves(pos, few, 4), 48);
    cr_assert_eq(few[4], 0, "nothing past the capacity is written");
    perftkit_legal_moves(pos, all, PERFTKIT_MAX_MOVES);
    cr_assert_arr_eq(few, all, 4 * sizeof few[0]);
    cr_assert_eq(perftkit_legal_moves(NULL, all, PERFTKIT_MAX_MOVES), 0);
    perftkit_position_free(pos);
}

Test(api, every_move_made_and_unmade_restores_the_position) {
    const char *fens[] = {KIWIPETE, POSITION3, POSITION5, CHESS960};
    for (size_t f = 0; f < sizeof fens / sizeof fens[0]; f++) {
        PerftkitPosition *pos = position(fens[f], 0);
        PerftkitMove moves[PERFTKIT_MAX_MOVES], replies[PERFTKIT_MAX_MOVES];
        size_t n = perftkit_legal_moves(pos, moves, PERFTKIT_MAX_MOVES);
        for (size_t i = 0; i < n; i++) {
            cr_assert_eq(perftkit_make_move(pos, moves[i]), PERFTKIT_OK);
            char child[PERFTKIT_FEN_SIZE];
            snprintf(child, sizeof child, "%s", fen_of(pos));
            size_t m = perftkit_legal_moves(pos, replies, PERFTKIT_MAX_MOVES);
            for (size_t j = 0; j < m; j++) {
                cr_assert_eq(perftkit_make_move(pos, replies[j]), PERFTKIT_OK);
                cr_assert_eq(perftkit_unmake_move(pos), PERFTKIT_OK);
                cr_assert_str_eq(fen_of(pos), child);
            }
            cr_assert_eq(perftkit_unmake_move(pos), PERFTKIT_OK);
            cr_assert_str_eq(fen_of(pos), fens[f]);
        }
        cr_assert_eq(perftkit_unmake_move(pos), PERFTKIT_ERROR_NO_MOVE_MADE);
        perftkit_position_free(pos);
    }
}

Test(api, a_long_game_is_taken_back_to_its_start) {
    PerftkitPosition *pos = position(STARTPOS, 0);
    int made = 0;
    for (int ply = 0; ply < 300; ply++) { /* the first legal move each time, past the first history block */
        PerftkitMove moves[PERFTKIT_MAX_MOVES];
        if (perftkit_legal_moves(pos, moves, PERFTKIT_MAX_MOVES) == 0)
            break;
        size_t n = perftkit_legal_moves(pos, NULL, 0);
        cr_assert_eq(perftkit_make_move(pos, moves[ply % 2 ? 0 : n - 1]), PERFTKIT_OK);
        made++;
    }
    cr_assert_gt(made, 64);
    for (int i = 0; i < made; i++)
        cr_assert_eq(perftkit_unmake_move(pos), PERFTKIT_OK);
    cr_assert_eq(perftkit_unmake_move(pos), PERFTKIT_ERROR_NO_MOVE_MADE);
    cr_assert_str_eq(fen_of(pos), STARTPOS);
    perftkit_position_free(pos);
}

Test(api, moves_that_are_not_legal_are_refused) {
    PerftkitPosition *pos = position(STARTPOS, 0), *kiwi = position(KIWIPETE, 0);
    PerftkitMove castle = san(kiwi, "O-O");
    char text[PERFTKIT_SAN_SIZE];
    PerftkitMove bad[] = {0, 1, castle, 0x10000, 0xffffffffu};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_assert_eq(perftkit_make_move(pos, bad[i]), PERFTKIT_ERROR_MOVE, "move 0x%x", bad[i]);
        cr_assert_eq(perftkit_move_san(pos, bad[i], text, sizeof text), PERFTKIT_ERROR_MOVE);
        cr_assert_eq(perftkit_move_uci(pos, bad[i], text, sizeof text), PERFTKIT_ERROR_MOVE);
    }
    cr_assert_str_eq(fen_of(pos), STARTPOS);
    cr_assert_eq(perftkit_unmake_move(pos), PERFTKIT_ERROR_NO_MOVE_MADE);
    cr_assert_eq(perftkit_make_move(NULL, castle), PERFTKIT_ERROR_ARGUMENT);
    cr_assert_eq(perftkit_unmake_move(NULL), PERFTKIT_ERROR_ARGUMENT);
    perftkit_position_free(pos);
    perftkit_position_free(kiwi);
}

Test(api, uci_and_san_in_and_out) {
    PerftkitPosition *pos = position(STARTPOS, 0);
    PerftkitMove move;
    char error[PERFTKIT_ERROR_SIZE], text[PERFTKIT_SAN_SIZE];
    cr_assert_eq(perftkit_move_from_uci(pos, "e2e4", &move, error, sizeof error), PERFTKIT_OK);
    cr_assert_eq(move, san(pos, "e4"));
    cr_assert_eq(perftkit_move_san(pos, move, text, sizeof text), PERFTKIT_OK);
    cr_assert_str_eq(text, "e4");
    cr_assert_eq(perftkit_move_uci(pos, san(pos, "Nf3"), text, sizeof text), PERFTKIT_OK);
    cr_assert_str_eq(text, "g1f3");
    cr_assert_eq(perftkit_move_uci(pos, move, text, 4), PERFTKIT_ERROR_BUFFER);
    cr_assert_eq(perftkit_move_from_uci(pos, "e2e5", &move, error, sizeof error), PERFTKIT_ERROR_MOVE);
    cr_assert(strstr(error, "'e2e5'"), "%s", error);
    cr_assert_eq(perftkit_move_from_uci(pos, "\x1b[31m", &move, error, sizeof error), PERFTKIT_ERROR_MOVE);
    assert_one_line(error);
    cr_assert_eq(perftkit_move_from_san(pos, "Ke2", &move, error, sizeof error), PERFTKIT_ERROR_MOVE);
    assert_one_line(error);
    perftkit_position_free(pos);

    /* Checks, mates, promotions, ambiguity: position 5 and Kiwipete. */
    pos = position(POSITION5, 0);
    cr_assert_eq(perftkit_move_from_uci(pos, "d7c8q", &move, error, sizeof error), PERFTKIT_OK);
    cr_assert_eq(perftkit_move_san(pos, move, text, sizeof text), PERFTKIT_OK);
    cr_assert_str_eq(text, "dxc8=Q");
    cr_assert_eq(perftkit_move_san(pos, san(pos, "Bxf7"), text, sizeof text), PERFTKIT_OK);
    cr_assert_str_eq(text, "Bxf7");
    perftkit_position_free(pos);
    pos = position(KIWIPETE, 0);
    cr_assert_eq(perftkit_move_from_san(pos, "Ke3", &move, error, sizeof error), PERFTKIT_ERROR_MOVE);
    cr_assert(strstr(error, "'Ke3'"), "%s", error);
    cr_assert_eq(perftkit_move_from_san(pos, "Nxd7", &move, error, sizeof error), PERFTKIT_OK);
    cr_assert_eq(perftkit_move_san(pos, move, text, sizeof text), PERFTKIT_OK);
    cr_assert_str_eq(text, "Nxd7");
    cr_assert_eq(perftkit_move_san(pos, san(pos, "O-O-O"), text, sizeof text), PERFTKIT_OK);
    cr_assert_str_eq(text, "O-O-O");
    cr_assert_eq(perftkit_move_from_san(NULL, "e4", &move, error, sizeof error), PERFTKIT_ERROR_ARGUMENT);
    perftkit_position_free(pos);
    pos = position("1k6/8/8/8/8/8/8/R3K2R w KQ - 0 1", 0);
    cr_assert_eq(perftkit_move_from_san(pos, "Rd1", &move, error, sizeof error), PERFTKIT_OK);
    cr_assert_eq(perftkit_move_from_san(pos, "Rf1", &move, error, sizeof error), PERFTKIT_OK);
    perftkit_position_free(pos);
    pos = position("7k/6pp/8/8/8/8/8/R4RK1 w - - 0 1", 0);
    cr_assert_eq(perftkit_move_from_san(pos, "Rd1", &move, error, sizeof error), PERFTKIT_ERROR_MOVE);
    cr_assert(strstr(error, "ambiguous"), "%s", error);
    cr_assert_eq(perftkit_move_san(pos, san(pos, "Ra8+"), text, sizeof text), PERFTKIT_OK);
    cr_assert_str_eq(text, "Ra8#");
    perftkit_position_free(pos);
}

Test(api, a_copy_is_independent) {
    PerftkitPosition *pos = position(STARTPOS, 0), *copy;
    cr_assert_eq(perftkit_make_move(pos, san(pos, "e4")), PERFTKIT_OK);
    cr_assert_eq(perftkit_position_copy(pos, &copy), PERFTKIT_OK);
    cr_assert_eq(perftkit_make_move(copy, san(copy, "c5")), PERFTKIT_OK);
    cr_assert(perftkit_position_white_to_move(copy));
    cr_assert_not(perftkit_position_white_to_move(pos));
    cr_assert_eq(perftkit_unmake_move(copy), PERFTKIT_OK);
    cr_assert_eq(perftkit_unmake_move(copy), PERFTKIT_OK, "the copy takes back the moves made before it");
    cr_assert_str_eq(fen_of(copy), STARTPOS);
    cr_assert_eq(perftkit_unmake_move(pos), PERFTKIT_OK);
    perftkit_position_free(copy);
    cr_assert_eq(perftkit_position_copy(NULL, &copy), PERFTKIT_ERROR_ARGUMENT);
    cr_assert_null(copy);
    perftkit_position_free(pos);
}

/* ---- Counting ---- */

Test(api, perft_counts_the_known_positions) {
    static const struct { const char *fen; int depth; uint64_t nodes; } known[] = {
        {STARTPOS, 0, 1}, {STARTPOS, 1, 20}, {STARTPOS, 2, 400}, {STARTPOS, 3, 8902}, {STARTPOS, 4, 197281},
        {STARTPOS, 5, 4865609}, {KIWIPETE, 1, 48}, {KIWIPETE, 2, 2039}, {KIWIPETE, 3, 97862}, {KIWIPETE, 4, 4085603},
        {POSITION3, 5, 674624}, {POSITION5, 4, 2103487}, {CHESS960, 4, 326672},
        {"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", 3, 0},
    };
    PerftkitCounter *plain = counter(1, 0), *hashed = counter(2, 16);
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        PerftkitPosition *pos = position(known[i].fen, 0);
        PerftkitCount total;
        cr_assert_eq(perftkit_perft(plain, pos, known[i].depth, &total), PERFTKIT_OK);
        cr_assert_eq(small(total), known[i].nodes, "%s perft %d", known[i].fen, known[i].depth);
        cr_assert_eq(perftkit_perft(hashed, pos, known[i].depth, &total), PERFTKIT_OK);
        cr_assert_eq(small(total), known[i].nodes, "hashed, 2 threads: %s perft %d", known[i].fen, known[i].depth);
        cr_assert_str_eq(fen_of(pos), known[i].fen, "the position is only read");
        perftkit_position_free(pos);
    }
    perftkit_counter_free(plain);
    perftkit_counter_free(hashed);
    perftkit_counter_free(NULL);
}

Test(api, the_counter_refuses_what_it_cannot_do) {
    PerftkitCounter *c = (PerftkitCounter *)1;
    char error[PERFTKIT_ERROR_SIZE];
    cr_assert_eq(perftkit_counter_new(-1, 0, &c, error, sizeof error), PERFTKIT_ERROR_ARGUMENT);
    cr_assert_null(c);
    assert_one_line(error);
    cr_assert_eq(perftkit_counter_new(1025, 0, &c, error, sizeof error), PERFTKIT_ERROR_ARGUMENT);
    cr_assert_eq(perftkit_counter_new(1, SIZE_MAX, &c, error, sizeof error), PERFTKIT_ERROR_ARGUMENT);
    assert_one_line(error);
    cr_assert_eq(perftkit_counter_new(1, (size_t)1 << 40, &c, error, sizeof error), PERFTKIT_ERROR_MEMORY,
                 "a terabyte of tables is refused, not a crash");
    assert_one_line(error);
    cr_assert_eq(perftkit_counter_new(1, 0, NULL, error, sizeof error), PERFTKIT_ERROR_ARGUMENT);

    c = counter(1, 0);
    PerftkitPosition *pos = position(STARTPOS, 0);
    PerftkitCount total;
    cr_assert_eq(perftkit_perft(c, pos, -1, &total), PERFTKIT_ERROR_ARGUMENT);
    cr_assert_eq(perftkit_perft(c, pos, PERFTKIT_MAX_DEPTH + 1, &total), PERFTKIT_ERROR_ARGUMENT);
    cr_assert_eq(perftkit_perft(NULL, pos, 1, &total), PERFTKIT_ERROR_ARGUMENT);
    cr_assert_eq(perftkit_perft(c, NULL, 1, &total), PERFTKIT_ERROR_ARGUMENT);
    cr_assert_eq(perftkit_divide(c, pos, 0, NULL, 0, NULL, NULL), PERFTKIT_ERROR_ARGUMENT);
    cr_assert_eq(perftkit_divide(c, pos, 1, NULL, 5, NULL, NULL), PERFTKIT_ERROR_ARGUMENT);
    cr_assert_eq(perftkit_counter_set_limits(c, -1, 0), PERFTKIT_ERROR_ARGUMENT);
    cr_assert_eq(perftkit_counter_set_limits(c, NAN, 0), PERFTKIT_ERROR_ARGUMENT);
    cr_assert_eq(perftkit_counter_set_limits(c, INFINITY, 0), PERFTKIT_ERROR_ARGUMENT);
    cr_assert_eq(perftkit_counter_set_limits(NULL, 1, 0), PERFTKIT_ERROR_ARGUMENT);
    perftkit_position_free(pos);
    perftkit_counter_free(c);
}

Test(api, divide_sums_to_perft_and_each_move_to_its_child) {
    PerftkitCounter *c = counter(2, 8);
    PerftkitPosition *pos = position(KIWIPETE, 0);
    PerftkitDivision out[PERFTKIT_MAX_MOVES];
    PerftkitMove moves[PERFTKIT_MAX_MOVES];
    size_t n;
    PerftkitCount total;
    cr_assert_eq(perftkit_divide(c, pos, 3, out, PERFTKIT_MAX_MOVES, &n, &total), PERFTKIT_OK);
    cr_assert_eq(n, 48);
    cr_assert_eq(small(total), 97862);
    perftkit_legal_moves(pos, moves, PERFTKIT_MAX_MOVES);
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(out[i].move, moves[i], "generation order");
        cr_assert(out[i].complete);
        PerftkitCount child;
        cr_assert_eq(perftkit_make_move(pos, out[i].move), PERFTKIT_OK);
        cr_assert_eq(perftkit_perft(c, pos, 2, &child), PERFTKIT_OK);
        cr_assert_eq(perftkit_unmake_move(pos), PERFTKIT_OK);
        cr_assert_eq(small(out[i].count), small(child));
        sum += small(out[i].count);
    }
    cr_assert_eq(sum, 97862);
    /* A short buffer gets the first moves; the count and total are all of them. */
    PerftkitDivision few[3];
    cr_assert_eq(perftkit_divide(c, pos, 3, few, 3, &n, NULL), PERFTKIT_OK);
    cr_assert_eq(n, 48);
    for (size_t i = 0; i < 3; i++) /* fields, not bytes: the struct has padding */
        cr_assert(few[i].move == out[i].move && few[i].complete && small(few[i].count) == small(out[i].count));
    cr_assert_eq(perftkit_divide(c, pos, 1, NULL, 0, &n, &total), PERFTKIT_OK);
    cr_assert_eq(small(total), 48);
    perftkit_position_free(pos);
    perftkit_counter_free(c);
}

Test(api, limits_stop_a_count_with_a_lower_bound) {
    PerftkitCounter *c = counter(1, 16);
    PerftkitPosition *pos = position(STARTPOS, 0);
    PerftkitDivision out[PERFTKIT_MAX_MOVES];
    PerftkitCount total;
    size_t n;
    cr_assert_eq(perftkit_counter_set_limits(c, 0, 1000000), PERFTKIT_OK);
    cr_assert_eq(perftkit_divide(c, pos, 8, out, PERFTKIT_MAX_MOVES, &n, &total), PERFTKIT_STOPPED_NODES);
    cr_assert_lt(small(total), 84998978956ULL);
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        if (!out[i].complete)
            cr_assert_eq(small(out[i].count), 0, "an unfinished move counts 0");
        sum += small(out[i].count);
    }
    cr_assert_leq(sum, small(total), "complete moves are within what was counted");
    cr_assert_eq(perftkit_counter_set_limits(c, 0.2, 0), PERFTKIT_OK);
    cr_assert_eq(perftkit_perft(c, pos, 10, &total), PERFTKIT_STOPPED_TIME);
    static volatile sig_atomic_t stop = 1;
    cr_assert_eq(perftkit_counter_set_limits(c, 0, 0), PERFTKIT_OK);
    perftkit_counter_set_interrupt(c, &stop);
    cr_assert_eq(perftkit_perft(c, pos, 10, &total), PERFTKIT_STOPPED_INTERRUPT);
    perftkit_counter_set_interrupt(c, NULL);
    cr_assert_eq(perftkit_perft(c, pos, 4, &total), PERFTKIT_OK, "limits off again");
    cr_assert_eq(small(total), 197281);
    perftkit_position_free(pos);
    perftkit_counter_free(c);
}

/* Each thread its own counter and position: one count each, at the same time. */
static void *count_kiwipete(void *result) {
    PerftkitPosition *pos;
    PerftkitCounter *c;
    char error[PERFTKIT_ERROR_SIZE];
    if (perftkit_position_new(&pos) || perftkit_position_set_fen(pos, KIWIPETE, 0, error, sizeof error) ||
        perftkit_counter_new(1, 4, &c, error, sizeof error))
        return NULL;
    PerftkitCount total = {0, 0};
    perftkit_perft(c, pos, 4, &total);
    *(uint64_t *)result = total.lo;
    perftkit_counter_free(c);
    perftkit_position_free(pos);
    return NULL;
}

Test(api, counters_on_different_threads_count_alike) {
    pthread_t threads[3];
    uint64_t results[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++)
        cr_assert_eq(pthread_create(&threads[i], NULL, count_kiwipete, &results[i]), 0);
    for (int i = 0; i < 3; i++) {
        pthread_join(threads[i], NULL);
        cr_assert_eq(results[i], 4085603);
    }
}

/* ---- Suites ---- */

Test(api, a_suite_line_passes_or_names_its_first_wrong_depth) {
    PerftkitCounter *c = counter(0, 8);
    PerftkitEpdResult result;
    char error[PERFTKIT_ERROR_SIZE] = "";
    cr_assert_eq(perftkit_epd_run(c, KIWIPETE " ;D1 48 ;D2 2039 ;D3 97862 ;id kiwipete", 0, 0, &result, error,
                                  sizeof error), PERFTKIT_OK, "%s", error);
    cr_assert_eq(result.depths, 3);
    cr_assert_eq(result.failed_depth, 0);
    cr_assert_eq(perftkit_epd_run(c, KIWIPETE " ;D1 48 ;D2 2039 ;D3 97862", 0, 2, &result, error, sizeof error),
                 PERFTKIT_OK);
    cr_assert_eq(result.depths, 2, "max_depth 2");
    cr_assert_eq(perftkit_epd_run(c, STARTPOS " ;D1 20 ;D2 401 ;D3 8902", 0, 0, &result, error, sizeof error),
                 PERFTKIT_MISMATCH);
    cr_assert_eq(result.depths, 2);
    cr_assert_eq(result.failed_depth, 2);
    cr_assert_eq(small(result.expected), 401);
    cr_assert_eq(small(result.got), 400);
    cr_assert_str_eq(error, "depth 2: expected 401, got 400");
    cr_assert_eq(perftkit_epd_run(c, "# a comment", 0, 0, &result, error, sizeof error), PERFTKIT_OK);
    cr_assert_eq(result.depths, 0);
    cr_assert_eq(perftkit_epd_run(c, "   ", 0, 0, NULL, error, sizeof error), PERFTKIT_OK);
    cr_assert_eq(perftkit_epd_run(c, STARTPOS " ;D1 twenty", 0, 0, &result, error, sizeof error), PERFTKIT_ERROR_EPD);
    assert_one_line(error);
    cr_assert_eq(perftkit_epd_run(c, STARTPOS " ;D2 400 ;D1 20", 0, 0, &result, error, sizeof error),
                 PERFTKIT_ERROR_EPD);
    cr_assert_eq(perftkit_epd_run(c, "8/8/8/8/8/8/8/8 w - - ;D1 0", 0, 0, &result, error, sizeof error),
                 PERFTKIT_ERROR_FEN);
    assert_one_line(error);
    cr_assert_eq(perftkit_epd_run(c, STARTPOS " ;D1 20", 0, -1, &result, error, sizeof error), PERFTKIT_ERROR_ARGUMENT);
    cr_assert_eq(perftkit_epd_run(c, NULL, 0, 0, &result, error, sizeof error), PERFTKIT_ERROR_ARGUMENT);
    cr_assert_eq(perftkit_counter_set_limits(c, 0, 10000), PERFTKIT_OK);
    cr_assert_eq(perftkit_epd_run(c, STARTPOS " ;D1 20 ;D7 3195901860", 0, 0, &result, error, sizeof error),
                 PERFTKIT_STOPPED_NODES);
    cr_assert_eq(result.depths, 1, "depth 1 matched before the stop");
    assert_one_line(error);
    perftkit_counter_free(c);
}

/* Every line of the quick suite (standard and Chess960 positions, e.p. and castling traps)
 * through the API, to depth 3 (its deeper counts run in the suites tests). */
Test(api, the_quick_suite_passes_line_by_line) {
    const char *dir = getenv("PERFTKIT_SUITES");
    cr_assert(dir, "PERFTKIT_SUITES is not set (run the tests through meson test)");
    char path[1024], line[1024], error[PERFTKIT_ERROR_SIZE];
    snprintf(path, sizeof path, "%s/quick.epd", dir);
    FILE *file = fopen(path, "r");
    cr_assert(file, "%s", path);
    PerftkitCounter *c = counter(0, 8);
    int records = 0, depths = 0, number = 0;
    while (fgets(line, sizeof line, file)) {
        PerftkitEpdResult result;
        number++;
        cr_assert_eq(perftkit_epd_run(c, line, 0, 3, &result, error, sizeof error), PERFTKIT_OK, "quick.epd:%d: %s",
                     number, error);
        records += result.depths > 0;
        depths += result.depths;
    }
    fclose(file);
    cr_assert_eq(records, 44, "the quick suite's 61 positions, 44 with counts to depth 3 (the others start deeper)");
    cr_assert_eq(depths, 110);
    perftkit_counter_free(c);
}
