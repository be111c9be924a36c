/* fuzz_moves_option.c — the --moves list (cli/cli.c: UCI or SAN, blank- or
 * comma-separated) played from a position the first byte picks, through
 * cli_position() as every subcommand calls it. A refused list gets one error line on
 * stderr and nothing else; an accepted one leads to a position with every property of
 * fuzz_check_position, reached also by replaying the moves one by one. */
#include "fuzz_positions.h"

#include "../../cli/cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    FuzzPick pick;
    Position root = fuzz_pick_position(&data, &size, &pick), pos;
    char *moves = fuzz_string(data, size), *err_text = NULL;
    size_t err_size = 0;
    FILE *err = open_memstream(&err_text, &err_size);
    FUZZ_CHECK(err, "cannot open a memory stream");
    Cli cli = {.command = "count", .in = stdin, .out = stdout, .err = err};
    PositionOptions options = {.fen = pick.fen, .moves = moves, .chess960 = pick.chess960};
    bool ok = cli_position(&cli, &options, &pos);
    fclose(err);
    if (!ok) {
        FUZZ_CHECK(fuzz_one_line_nl(err_text, err_size), "refused --moves without one error line: '%s'", err_text);
    } else {
        FUZZ_CHECK(err_size == 0, "accepted --moves, yet said '%s'", err_text);
        fuzz_check_position(&pos);
        /* Replayed one token at a time, each as UCI or SAN: the same position. */
        Position replay = root;
        for (char *token = strtok(moves, " ,\t"); token; token = strtok(NULL, " ,\t")) {
            Move m = move_parse_uci(&replay, token);
            if (m == MOVE_NONE)
                m = move_parse_san(&replay, token, NULL);
            FUZZ_CHECK(m != MOVE_NONE, "token '%s' of an accepted list does not replay", token);
            Undo undo;
            pos_make_move(&replay, m, &undo);
        }
        FUZZ_CHECK(pos_equal(&replay, &pos), "the replayed moves lead elsewhere");
    }
    free(err_text);
    free(moves);
    return 0;
}
