/* cmd_bench.c — `perft bench`: the fixed benchmark, its result printed (text or JSON)
 * and stored, and the baseline check. Every target and the baseline are checked
 * before the run, which takes minutes. */
#include <stdlib.h>
#include <string.h>

#include "../bench/bench.h"
#include "../io/text.h"
#include "bench_workload.h"
#include "commands.h"

typedef struct BenchCommand {
    long repeat;
    RunOptions run;
    unsigned modes;       /* a bit per BenchMode; 0: all */
    long max_regression;  /* percent */
    const char *workload, *save, *results, *machine, *baseline;
    bool json, fingerprint, quiet;
} BenchCommand;

static const CliSpec bench_spec = {
    .summary =
        "Runs the fixed benchmark workload (bench-v1: 12 positions from the suites, opening,\n"
        "middlegame, endgame, promotions, Chess960; about 5.5 billion leaves) in three modes:\n"
        "  bulk     no tables, bulk counting at depth 1: the raw generator\n"
        "  full     every leaf move made and unmade, one ply shallower: what a search sees\n"
        "  hashed   the per-ply tables (--hash), emptied before each run\n"
        "each at 1 thread and at -t threads, one warm-up and N timed runs per setup, runs\n"
        "interleaved so that a drifting machine slows every setup alike. Every count is\n"
        "checked; a wrong one fails the benchmark. Prints, per setup, the median, min and max\n"
        "leaves per second and the ns per leaf, with the machine and build fingerprint.\n",
    .epilogue =
        "Where the result goes: the text (or, with --json, the JSON document) on stdout;\n"
        "--save FILE stores the JSON in FILE, --results DIR in DIR/MACHINE/DATE-COMMIT.json\n"
        "(perft results reads that folder). Both are written whole or not at all, and are\n"
        "checked to be writable before anything runs. Progress goes to stderr (not with -q);\n"
        "with --json, so do the baseline comparison and the stored file's name.\n\n"
        "Example: perft bench --results results   measure this machine and store the result\n"
        "Exit status: 0 done, 1 a wrong count or a regression past --max-regression, 2 bad\n"
        "input (including an unwritable target or an unreadable baseline, refused before the run).\n",
};

/* Returns CLI_CONTINUE to go on, or the exit status to end with. */
static int parse_options(Cli *cli, int argc, char **argv, BenchCommand *o) {
    memset(o, 0, sizeof *o);
    o->repeat = 5;
    o->max_regression = 5;
    cli_run_defaults(&o->run);
    o->run.hash_mb = 64;
    CliOption options[] = {
        CLI_OPT_INT("repeat", 0, "N", &o->repeat, 1, BENCH_MAX_REPEAT, "timed runs per setup, after one warm-up"),
        CLI_OPTS_RUN(&o->run),
        CLI_OPT_LIST("modes", "LIST", &o->modes, "bulk|full|hashed", "the modes to run (default all three)"),
        CLI_OPT_STRING("workload", 0, "FILE", &o->workload,
                       "another workload: suite lines with two depths each (the\ndeeper counted in bulk and hashed "
                       "modes, the other in full)"),
        CLI_OPT_JSON(&o->json),
        CLI_OPT_STRING("save", 0, "FILE", &o->save, "also store the result's JSON in FILE"),
        CLI_OPT_STRING("results", 0, "DIR", &o->results,
                       "also store the result's JSON in DIR/MACHINE/DATE-COMMIT.json\n(-2, -3 ... rather than "
                       "overwrite a stored run)"),
        CLI_OPT_STRING("machine", 0, "NAME", &o->machine,
                       "the machine's name and folder (default: from the CPU model\nand the cores)"),
        CLI_OPT_STRING("baseline", 0, "FILE", &o->baseline, "compare with a stored result of the same workload"),
        CLI_OPT_INT("max-regression", 0, "PCT", &o->max_regression, 0, 99,
                    "with --baseline, fail when a setup is slower by more than\nPCT percent"),
        CLI_OPT_FLAG("fingerprint", 0, &o->fingerprint, "print the machine's name and fingerprint, and stop"),
        CLI_OPT_QUIET(&o->quiet, "no line per run on stderr"),
        CLI_OPT_END,
    };
    for (CliOption *p = options; p->name; p++)
        if (!strcmp(p->name, "hash")) { /* the shared --hash, with bench's own meaning and default */
            p->help = "tables of the hashed mode";
            p->default_text = "64";
        }
    return cli_parse(cli, &bench_spec, options, argc, argv, NULL);
}

static bool plain_name(const char *name) {
    return *name && !strchr(name, '/') && strcmp(name, ".") && strcmp(name, "..");
}

/* Stores the result at `path` and says where, on `side`. */
static int store(Cli *cli, FILE *side, const char *path, const BenchWorkload *w, const BenchResult *r) {
    char error[512];
    if (!bench_save(path, w, r, error, sizeof error))
        return cli_error(cli, "%s", error);
    fprintf(side, "result: %s\n", path);
    return EXIT_OK;
}

/* The run itself, once every input and target has been checked. */
static int run_bench(Cli *cli, const BenchCommand *o, const BenchOptions *bo, const BenchWorkload *w,
                     const BenchMachine *here, const char *folder_path, BenchResult *r) {
    FILE *side = o->json ? cli->err : cli->out; /* stdout carries only the document with --json */
    char error[512];
    if (!o->json)
        bench_print_header(cli->out, w, bo, here);
    if (!bench_run(w, bo, r, error, sizeof error)) {
        cli_error(cli, "%s", error);
        return r->wrong_count ? EXIT_MISMATCH : EXIT_BAD_INPUT;
    }
    snprintf(r->machine.name, sizeof r->machine.name, "%s", here->name);
    bool written = o->json ? json_write(cli->out, bench_json(w, r)) : (bench_print_table(cli->out, r), true);
    int output = cli_finish_output(cli, written);
    if (output != EXIT_OK)
        return output;
    int status = EXIT_OK;
    if (o->save)
        status = store(cli, side, o->save, w, r);
    if (folder_path && status == EXIT_OK)
        status = store(cli, side, folder_path, w, r);
    if (o->baseline && status == EXIT_OK) {
        char shown[TEXT_QUOTE_SIZE];
        fprintf(side, "\ncompared with %s:\n", text_quote(o->baseline, shown));
        int regressions = bench_compare(side, w, r, o->baseline, (double)o->max_regression, error, sizeof error);
        if (regressions < 0)
            status = cli_error(cli, "%s", error);
        else if (regressions > 0) {
            fprintf(side, "%d setup%s slower than the baseline by more than %ld%%\n", regressions,
                    regressions > 1 ? "s" : "", o->max_regression);
            status = EXIT_MISMATCH;
        }
    }
    return status == EXIT_OK ? cli_flush(cli) : status;
}

int cmd_bench(Cli *cli, int argc, char **argv) {
    BenchCommand o;
    int status = parse_options(cli, argc, argv, &o);
    if (status != CLI_CONTINUE)
        return status;
    char shown[TEXT_QUOTE_SIZE], error[512];
    if (o.machine && !plain_name(o.machine))
        return cli_error(cli, "--machine '%s' must be a plain folder name", text_quote(o.machine, shown));
    BenchMachine here;
    bench_machine(&here);
    if (o.machine)
        snprintf(here.name, sizeof here.name, "%s", o.machine);
    if (o.fingerprint) {
        if (o.json)
            return cli_finish_output(cli, json_write(cli->out, bench_fingerprint_json(&here)));
        bench_print_fingerprint(cli->out, &here);
        return cli_flush(cli);
    }
    BenchOptions bo = {.repeat = (int)o.repeat,
                       .threads = o.run.threads > 0 ? (int)o.run.threads : driver_available_threads(),
                       .hash_mb = o.run.hash_mb,
                       .key_seed = o.run.key_seed,
                       .progress = o.quiet ? NULL : cli->err};
    for (int m = 0; m < BENCH_MODES; m++)
        bo.modes[m] = !o.modes || (o.modes & (1u << m));
    if (bo.modes[BENCH_HASHED] && bo.hash_mb == 0)
        return cli_error(cli, "--hash 0 leaves the hashed mode without tables (leave it out of --modes instead)");

    BenchWorkload *w = malloc(sizeof *w);
    BenchResult *r = malloc(sizeof *r);
    char folder_path[4200];
    if (!w || !r) {
        status = cli_error(cli, "out of memory");
    } else if (!(o.workload ? bench_load_workload_file(w, o.workload, error, sizeof error)
                            : bench_load_workload(w, "bench.epd", bench_workload_lines,
                                                  sizeof bench_workload_lines / sizeof bench_workload_lines[0], error,
                                                  sizeof error))
               || (o.save && !bench_can_save(o.save, error, sizeof error))
               || (o.results && !bench_result_path(o.results, here.name, folder_path, sizeof folder_path, error,
                                                   sizeof error))
               || (o.baseline && !bench_check_baseline(o.baseline, w, error, sizeof error))) {
        status = cli_error(cli, "%s", error);
    } else {
        status = run_bench(cli, &o, &bo, w, &here, o.results ? folder_path : NULL, r);
    }
    free(w);
    free(r);
    return status;
}
