/* cmd_uci.c — perftkit as a perft engine for other programs: `perft uci` runs the UCI
 * server (uci/server.h) on the command's streams, and `perft perftree` answers the
 * perftree tool's script calls, DEPTH FEN [MOVES] as operands. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../io/text.h"
#include "../uci/server.h"
#include "commands.h"
#include "report.h"

static const CliSpec uci_spec = {
    .summary = "A UCI engine for perft on stdin/stdout: uci, isready, ucinewgame, setoption name\n"
               "UCI_Chess960|Threads|Hash value V (Hash default 64 MB), position startpos|fen FEN\n"
               "[moves ...], go perft N (\"e2e4: 20\" lines sorted by move, a blank line, \"Nodes\n"
               "searched: N\", as Stockfish prints them), d (the position's FEN), quit. A malformed\n"
               "or unknown command, a depth out of range or a line over 65536 bytes gets one\n"
               "'info string error: ...' line and is ignored; a bad position command leaves the\n"
               "position as it was.\n",
    .epilogue = "Example: printf 'position startpos moves e2e4\\ngo perft 2\\nquit\\n' | perft uci\n",
};

int cmd_uci(Cli *cli, int argc, char **argv) {
    const CliOption options[] = {CLI_OPT_END};
    int status = cli_parse(cli, &uci_spec, options, argc, argv, NULL);
    if (status != CLI_CONTINUE)
        return status;
    switch (uci_serve(cli->in, cli->out)) {
    case UCI_SERVED: return EXIT_OK;
    case UCI_OUT_OF_MEMORY: return cli_error(cli, "out of memory: the server could not start");
    default: return cli_write_failed(cli);
    }
}

static const CliSpec perftree_spec = {
    .operands = "DEPTH FEN [MOVES]",
    .min_operands = 2,
    .max_operands = 3,
    .summary = "The script interface of the perftree tool: counts perft(DEPTH) of FEN after the\n"
               "blank-separated UCI MOVES (DEPTH 1..32), and prints one \"move count\" line per root\n"
               "move (sorted), a blank line and the total. Use it as perftree's script: a file holding\n"
               "    #!/bin/sh\n    exec perft perftree \"$@\"\n",
    .epilogue = "--hash: by default it follows the depth, as for perft count (see perft count --help).\n\n"
                "Example: perft perftree 2 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' e2e4\n"
                "prints the 20 replies to 1. e4, a blank line and 600.\n",
};

/* The DEPTH operand, read as -d is: one message for a depth out of range. */
static bool read_depth(const Cli *cli, const char *text, long *depth) {
    char shown[TEXT_QUOTE_SIZE], *end;
    errno = 0;
    long value = strtol(text, &end, 10);
    text_quote(text, shown);
    if (end == text || *end || text[0] == ' ' || text[0] == '+')
        return cli_error(cli, "depth '%s' is not a whole number", shown), false;
    if (errno == ERANGE || value < 1 || value > CLI_MAX_DEPTH)
        return cli_error(cli, "depth %s is out of range 1..%d", shown, CLI_MAX_DEPTH), false;
    *depth = value;
    return true;
}

int cmd_perftree(Cli *cli, int argc, char **argv) {
    RunOptions run;
    cli_run_defaults(&run);
    const CliOption options[] = {CLI_OPTS_RUN(&run), CLI_OPT_END};
    CliOperands operands;
    int status = cli_parse(cli, &perftree_spec, options, argc, argv, &operands);
    if (status != CLI_CONTINUE)
        return status;
    long depth;
    if (!read_depth(cli, operands.items[0], &depth))
        return EXIT_BAD_INPUT;
    PositionOptions position = {.fen = operands.items[1], .moves = operands.count == 3 ? operands.items[2] : NULL};
    Position pos;
    if (!cli_keyed_position(cli, &position, &run, &pos))
        return EXIT_BAD_INPUT;
    Driver driver;
    if (!cli_driver(cli, &run, (int)depth, &driver))
        return EXIT_BAD_INPUT;
    RunReport *report = malloc(sizeof *report);
    if (!report) {
        driver_destroy(&driver);
        return cli_error(cli, "out of memory");
    }
    driver_run(&driver, &pos, (int)depth, NULL, NULL, report);
    if (!report->complete) { /* no limits: only memory can stop it */
        status = cli_error(cli, "%s: nothing was counted", run_status_text(report->status));
        free(report);
        driver_destroy(&driver);
        return status;
    }
    MoveLine lines[MAX_MOVES];
    char text[COUNT_TEXT_SIZE];
    int n = report_move_lines(&pos, report, false, lines);
    for (int i = 0; i < n; i++)
        fprintf(cli->out, "%s %s\n", lines[i].move, count_format(lines[i].count, false, text));
    fprintf(cli->out, "\n%s\n", count_format(report->total, false, text));
    free(report);
    driver_destroy(&driver);
    return cli_flush(cli);
}
