/* fuzz_support.h — what the libFuzzer targets share: start-up, the property check that
 * aborts (so libFuzzer records the input), the input as a C string or as a file, the
 * check of a rejection message, and the properties every accepted position must have.
 * Small static helpers only, as in tests/support.h. */
#ifndef PERFTKIT_FUZZ_SUPPORT_H
#define PERFTKIT_FUZZ_SUPPORT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every target starts the core once, before the first input (each target is a program
 * of its own, so the one definition here is its only one). */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    core_init();
    return 0;
}

/* A violated property: say which and abort, so libFuzzer keeps the input as a crash. */
#define FUZZ_CHECK(condition, ...)                                                                                  \
    do {                                                                                                            \
        if (!(condition)) {                                                                                         \
            fprintf(stderr, "fuzz property failed at %s:%d: %s: ", __FILE__, __LINE__, #condition);                 \
            fprintf(stderr, __VA_ARGS__);                                                                           \
            fputc('\n', stderr);                                                                                    \
            abort();                                                                                                \
        }                                                                                                           \
    } while (0)

/* The input as a NUL-terminated string (cut at its first NUL, as a C caller sees it). */
static char *fuzz_string(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    FUZZ_CHECK(text, "out of memory");
    memcpy(text, data, size);
    text[size] = '\0';
    return text;
}

/* True when `text` is a message a terminal may show as one line: not empty, printable
 * ASCII only (no newline, no control or non-ASCII byte from the input). */
static bool fuzz_one_line(const char *text) {
    if (!text || !*text)
        return false;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        if (*p < 0x20 || *p > 0x7e)
            return false;
    return true;
}

/* The same for `length` bytes that must end in exactly one newline. */
static bool fuzz_one_line_nl(const char *text, size_t length) {
    if (length < 2 || text[length - 1] != '\n')
        return false;
    for (size_t i = 0; i + 1 < length; i++)
        if ((unsigned char)text[i] < 0x20 || (unsigned char)text[i] > 0x7e)
            return false;
    return true;
}

/* A path in this process's own temporary folder (made once, under $TMPDIR or /tmp, and
 * removed at exit with what is in it). */
static char fuzz_dir[512];
static void fuzz_remove_dir(void) {
    char command[600];
    snprintf(command, sizeof command, "rm -rf '%s'", fuzz_dir);
    if (system(command) != 0)
        fprintf(stderr, "fuzz: could not remove %s\n", fuzz_dir);
}
static const char *fuzz_path(const char *name, char *out, size_t size) {
    if (!fuzz_dir[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(fuzz_dir, sizeof fuzz_dir, "%s/perftkit-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        FUZZ_CHECK(mkdtemp(fuzz_dir), "cannot make a temporary folder %s", fuzz_dir);
        atexit(fuzz_remove_dir);
    }
    snprintf(out, size, "%s/%s", fuzz_dir, name);
    return out;
}

/* Writes the input to `path` whole. */
static void fuzz_write_file(const char *path, const uint8_t *data, size_t size) {
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f, "cannot write %s", path);
    FUZZ_CHECK(fwrite(data, 1, size, f) == size && fclose(f) == 0, "cannot write %s", path);
}

/* A position read back from its own FEN: accepted, equal, and written the same. */
static void fuzz_check_fen_round_trip(const Position *pos, const char *what) {
    char fen[FEN_BUFFER_SIZE], again[FEN_BUFFER_SIZE], error[FEN_ERROR_SIZE];
    fen_write(pos, fen);
    Position back;
    FUZZ_CHECK(fen_parse(&back, fen, pos->chess960, error, sizeof error), "%s: its FEN '%s' is rejected: %s", what,
               fen, error);
    FUZZ_CHECK(pos_equal(pos, &back), "%s: '%s' reads back as another position", what, fen);
    FUZZ_CHECK(!strcmp(fen_write(&back, again), fen), "%s: '%s' reads back and is written '%s'", what, fen, again);
}

/* Every property of an accepted position, and of each position one legal move away:
 * the key equals one recomputed from scratch; FEN -> position -> FEN is the identity;
 * make then unmake of every legal move restores position and key; the key after a
 * move is the one pos_key_after predicts; each move's SAN and UCI read back as that
 * move; the counting shortcuts agree with making the moves (count of legal moves, of
 * replies, gives-check, perft 2), and the colour-reversed twin has the same perft 2. */
static void fuzz_check_position(const Position *pos) {
    char fen[FEN_BUFFER_SIZE];
    fen_write(pos, fen);
    FUZZ_CHECK(zob_equal(pos->key, pos_compute_key(pos)), "'%s': key differs from one recomputed", fen);
    FUZZ_CHECK(pos_impossibility(pos) == NULL, "'%s': accepted though %s", fen, pos_impossibility(pos));
    fuzz_check_fen_round_trip(pos, "position");

    MoveList list;
    int n = gen_legal(pos, &list);
    FUZZ_CHECK(n == gen_count_legal(pos), "'%s': %d legal moves listed, %d counted", fen, n, gen_count_legal(pos));
    uint64_t replies = 0;
    for (int i = 0; i < n; i++) {
        Move m = list.moves[i];
        char uci[UCI_MOVE_SIZE], san[SAN_MOVE_SIZE];
        move_to_uci(pos, m, uci);
        move_to_san(pos, m, san);
        const char *why = NULL;
        FUZZ_CHECK(move_parse_uci(pos, uci) == m, "'%s': UCI '%s' does not read back", fen, uci);
        FUZZ_CHECK(move_parse_san(pos, san, &why) == m, "'%s': SAN '%s' does not read back (%s)", fen, san,
                   why ? why : "another move");
        FUZZ_CHECK(gen_is_legal(pos, m), "'%s': listed move %s is not legal", fen, uci);

        Position child = *pos;
        Undo undo;
        pos_make_move(&child, m, &undo);
        FUZZ_CHECK(zob_equal(child.key, pos_compute_key(&child)), "'%s' %s: key after the move differs from one "
                   "recomputed", fen, uci);
        FUZZ_CHECK(zob_equal(child.key, pos_key_after(pos, m)), "'%s' %s: pos_key_after predicted another key", fen,
                   uci);
        FUZZ_CHECK(pos_impossibility(&child) == NULL, "'%s' %s: the move leads to an impossible position (%s)", fen,
                   uci, pos_impossibility(&child));
        fuzz_check_fen_round_trip(&child, "position after a move");
        int count = gen_count_legal(&child);
        FUZZ_CHECK(count == gen_count_after(pos, m), "'%s' %s: %d replies, gen_count_after says %d", fen, uci, count,
                   gen_count_after(pos, m));
        FUZZ_CHECK(pos_in_check(&child) == gen_gives_check(pos, m), "'%s' %s: gives check is wrong", fen, uci);
        FUZZ_CHECK((san[strlen(san) - 1] == '#') == (pos_in_check(&child) && count == 0), "'%s': SAN '%s' has the "
                   "wrong check mark", fen, san);
        replies += (uint64_t)count;
        pos_unmake_move(&child, m, &undo);
        FUZZ_CHECK(pos_equal(&child, pos) && zob_equal(child.key, pos->key), "'%s' %s: unmake does not restore the "
                   "position", fen, uci);
    }
    FUZZ_CHECK(replies == gen_count_replies(pos), "'%s': perft 2 is %llu by making moves, %llu by gen_count_replies",
               fen, (unsigned long long)replies, (unsigned long long)gen_count_replies(pos));
    FUZZ_CHECK(replies == gen_count_perft(pos, 2), "'%s': perft 2 is %llu by making moves, %llu in bulk", fen,
               (unsigned long long)replies, (unsigned long long)gen_count_perft(pos, 2));
    Position twin;
    pos_mirror(pos, &twin);
    FUZZ_CHECK(gen_count_perft(&twin, 2) == replies, "'%s': the mirrored position has perft 2 %llu, not %llu", fen,
               (unsigned long long)gen_count_perft(&twin, 2), (unsigned long long)replies);
}

#endif
