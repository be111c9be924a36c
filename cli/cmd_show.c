/* cmd_show.c — `perft show`: a position as people read it (io/board.h): the board,
 * what its FEN carries, the key, checkers, pinned pieces and the legal moves. */
#include <string.h>

#include "../io/board.h"
#include "../io/terminal.h"
#include "commands.h"

typedef struct ShowOptions {
    PositionOptions position;
    bool fan;
} ShowOptions;

static const CliSpec show_spec = {
    .summary = "Prints the position as a board (rank 8 at the top; white men in capitals), then its\n"
               "FEN, the variant, the side to move, the castling rights as the FEN writes them (KQkq;\n"
               "in Chess960 Shredder-FEN or X-FEN files, as the position was read), the e.p. square,\n"
               "the clocks, the 128-bit Zobrist key in hex (high half first), the men giving check,\n"
               "the men of the side to move pinned to their king, and the legal moves in SAN,\n"
               "sorted, with their number (and checkmate or stalemate when there are none).\n",
    .epilogue = "Colours: on a terminal the board has coloured squares and men (ANSI); never when\n"
                "stdout is not a terminal, when NO_COLOR is set (any value) or when TERM=dumb.\n"
                "--fan draws the men as Unicode chess figurines (one column each in a monospaced\n"
                "terminal) and writes the moves in FAN, the figurines of the side to move.\n\n"
                "Example: perft show --moves \"e4 e5 Nf3\"   the position after 1. e4 e5 2. Nf3\n"
                "Exit status: 0 shown, 2 bad input (a bad FEN or move, or output that cannot be written).\n",
};

int cmd_show(Cli *cli, int argc, char **argv) {
    ShowOptions o;
    memset(&o, 0, sizeof o);
    const CliOption options[] = {
        CLI_OPTS_POSITION(&o.position),
        CLI_OPT_FLAG("fan", 0, &o.fan, "figurines for the men, and the moves in FAN (\u2658f3)"),
        CLI_OPT_END,
    };
    int status = cli_parse(cli, &show_spec, options, argc, argv, NULL);
    if (status != CLI_CONTINUE)
        return status;
    Position pos;
    if (!cli_position(cli, &o.position, &pos))
        return EXIT_BAD_INPUT;
    unsigned style = (o.fan ? BOARD_FAN : 0) | (terminal_colour(cli->out) ? BOARD_COLOR : 0);
    return cli_finish_output(cli, board_print(cli->out, &pos, style));
}
