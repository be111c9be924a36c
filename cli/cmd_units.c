/* cmd_units.c — `perft units`: the work units of a run (the distinct positions at its
 * split ply, each with the number of move paths that reach it), so they can be seen,
 * shared and checked against a journal's digest. */
#include <inttypes.h>
#include <string.h>

#include "../perft/driver.h"
#include "commands.h"
#include "report.h"

typedef struct UnitsOptions {
    PositionOptions position;
    long depth, split_ply;
    RunOptions run;
    bool json;
} UnitsOptions;

static const CliSpec units_spec = {
    .summary = "Lists the work units that count and divide split a run of depth N into: the distinct\n"
               "positions at the split ply, each with its multiplicity (the move paths from the root\n"
               "that reach it), in the order they are counted: by their first path, the smallest\n"
               "expected eighth last. Text: one line per unit, \"INDEX PATHS FEN\", then a summary\n"
               "line with the split ply, the units, the paths and the digest of the list (a\n"
               "journal's header holds the same digest). The list and its digest depend on\n"
               "the root and the split ply only: not on threads or --key-seed.\n",
    .epilogue = "Example: perft units -d 7 --split-ply 3   5362 units for the 8902 paths to ply 3\n"
                "Exit status: 0 listed, 2 bad input or out of memory.\n",
};

static bool print_json_units(Cli *cli, const Position *pos, const UnitsOptions *o, const UnitSet *set, Count paths) {
    MoveList roots;
    gen_legal(pos, &roots);
    char digest[24], fen[FEN_BUFFER_SIZE], uci[UCI_MOVE_SIZE];
    snprintf(digest, sizeof digest, "%016" PRIx64, unit_set_digest(set));
    json_t *doc = json_document(cli->command, REPORT_JSON_SCHEMA), *list = json_array();
    json_set(doc, "position", json_position(pos));
    json_set(doc, "depth", json_integer(o->depth));
    json_set(doc, "split_ply", json_integer(unit_set_ply(set)));
    json_set(doc, "units", json_integer((json_int_t)unit_set_count(set)));
    json_set(doc, "paths", json_count(paths));
    json_set(doc, "digest", json_string(digest));
    for (size_t u = 0; u < unit_set_count(set); u++) {
        Position unit;
        const UnitRoot *per_root;
        int n = unit_roots(set, u, &per_root);
        unit_position(set, u, &unit);
        json_t *item = json_object(), *by_root = json_array();
        json_set(item, "index", json_integer((json_int_t)u));
        json_set(item, "fen", json_string(fen_write(&unit, fen)));
        json_set(item, "paths", json_count(unit_paths(set, u)));
        for (int r = 0; r < n; r++) {
            json_t *one = json_object();
            json_set(one, "move", json_string(move_to_uci(pos, roots.moves[per_root[r].root], uci)));
            json_set(one, "paths", json_count(per_root[r].paths));
            json_append(by_root, one);
        }
        json_set(item, "roots", by_root);
        json_append(list, item);
    }
    json_set(doc, "list", list);
    return json_write(cli->out, doc);
}

int cmd_units(Cli *cli, int argc, char **argv) {
    UnitsOptions o;
    memset(&o, 0, sizeof o);
    o.depth = 5;
    cli_run_defaults(&o.run);
    const CliOption options[] = {
        CLI_OPT_DEPTH(&o.depth, 1, CLI_MAX_DEPTH, "depth of the run the units are for"),
        CLI_OPT_INT("split-ply", 0, "K", &o.split_ply, 0, UNIT_MAX_PLY,
                    "the ply of the units; 0: count's default rule for the depth\nand threads (see perft count --help)"),
        CLI_OPTS_POSITION(&o.position),
        CLI_OPT_THREADS(&o.run),
        CLI_OPT_KEY_SEED(&o.run),
        CLI_OPT_JSON(&o.json),
        CLI_OPT_END,
    };
    int status = cli_parse(cli, &units_spec, options, argc, argv, NULL);
    if (status != CLI_CONTINUE)
        return status;
    Position pos;
    if (!cli_position(cli, &o.position, &pos))
        return EXIT_BAD_INPUT;
    if (o.split_ply > o.depth)
        return cli_error(cli, "--split-ply %ld is deeper than the depth %ld", o.split_ply, o.depth);
    cli_use_keys(cli, &o.run, &pos);
    Driver driver;
    char error[160];
    if (!driver_create(&driver, (int)o.run.threads, 0, error, sizeof error))
        return cli_error(cli, "%s", error);
    driver.split_ply = (int)o.split_ply;
    UnitSet *set = driver_plan(&driver, &pos, (int)o.depth, error, sizeof error);
    driver_destroy(&driver);
    if (!set)
        return cli_error(cli, "cannot list the units: %s", error);
    Count paths = 0;
    for (size_t u = 0; u < unit_set_count(set); u++)
        paths += unit_paths(set, u);
    bool written = true;
    if (o.json)
        written = print_json_units(cli, &pos, &o, set, paths);
    else {
        char fen[FEN_BUFFER_SIZE], text[COUNT_TEXT_SIZE];
        for (size_t u = 0; u < unit_set_count(set); u++) {
            Position unit;
            unit_position(set, u, &unit);
            fprintf(cli->out, "%zu %" PRIu64 " %s\n", u, unit_paths(set, u), fen_write(&unit, fen));
        }
        fprintf(cli->out, "split ply %d: %zu units, %s paths, digest %016" PRIx64 "\n", unit_set_ply(set),
                unit_set_count(set), count_format(paths, false, text), unit_set_digest(set));
    }
    unit_set_destroy(set);
    return cli_finish_output(cli, written);
}
