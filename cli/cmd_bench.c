/* cmd_bench.c — `perft bench`: the fixed benchmark, its stored result, and the
 * baseline check. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../bench/bench.h"
#include "bench_workload.h"
#include "cli.h"
#include "commands.h"
#include "config.h"
#include "version.h"

static const char bench_help[] =
    "usage: perft bench [--repeat N] [-t N] [--modes LIST] [--hash MB] [--workload FILE] [--json]\n"
    "                   [--results DIR] [--machine NAME] [--baseline FILE [--max-regression PCT]] [-q]\n\n"
    "Runs the fixed benchmark workload (bench-v1: 12 positions from the suites, opening,\n"
    "middlegame, endgame, promotions, Chess960; about 5.5 billion leaves) in three modes:\n"
    "  bulk     no tables, bulk counting at depth 1: the raw generator\n"
    "  full     every leaf move made and unmade, one ply shallower: what a search sees\n"
    "  hashed   the per-ply tables, emptied before each run\n"
    "each at 1 thread and at all cores, one warm-up and N timed runs per setup, runs\n"
    "interleaved so that a drifting machine slows every setup alike. Every count is\n"
    "checked; a wrong one fails the benchmark. Prints, per setup, the median, min and max\n"
    "leaves per second and the ns per leaf, with the machine and build fingerprint.\n\n"
    "      --repeat N         timed runs per setup, 1..100 (default 5)\n"
    "  -t, --threads N        the \"all cores\" thread count (default: every processor)\n"
    "      --modes LIST       comma-separated among bulk, full, hashed (default: all three)\n"
    "      --hash MB          tables of the hashed mode (default 64)\n"
    "      --workload FILE    another workload: suite lines with two depths each (the\n"
    "                         deeper counted in bulk and hashed modes, the other in full)\n"
    "      --json             store the result as JSON in DIR/MACHINE/DATE-COMMIT.json\n"
    "      --results DIR      where results are stored (default: results)\n"
    "      --machine NAME     the machine's folder (default: from the CPU model and cores)\n"
    "      --baseline FILE    compare with a stored result of the same workload\n"
    "      --max-regression PCT   with --baseline, fail when a setup is slower by more than\n"
    "                         PCT percent (default 5)\n"
    "      --fingerprint      print the machine's folder name and fingerprint, and stop\n"
    "  -q, --quiet            no line per run on stderr\n"
    "  -h, --help             this text\n\n"
    "Exit status: 0 done, 1 a wrong count or a regression past --max-regression, 2 bad input\n"
    "(including an unwritable results folder, refused before anything runs).\n";

/* Creates every folder of `path`; false with errno set when one cannot be made. */
static bool make_folders(char *path) {
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        bool ok = mkdir(path, 0777) == 0 || errno == EEXIST;
        *p = '/';
        if (!ok)
            return false;
    }
    return mkdir(path, 0777) == 0 || errno == EEXIST;
}

/* DIR/MACHINE/DATE-COMMIT.json, with -2, -3 ... rather than overwriting a stored run. */
static bool result_path(const char *dir, const char *machine, char *out, size_t size) {
    char folder[4096], date[16];
    time_t t = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&t));
    snprintf(folder, sizeof folder, "%s/%s", dir, machine);
    if (!make_folders(folder) || access(folder, W_OK) != 0)
        return false;
    for (int n = 1; n < 1000; n++) {
        if (n == 1)
            snprintf(out, size, "%s/%s-%s.json", folder, date, PERFTKIT_GIT_COMMIT);
        else
            snprintf(out, size, "%s/%s-%s-%d.json", folder, date, PERFTKIT_GIT_COMMIT, n);
        if (access(out, F_OK) != 0)
            return true;
    }
    errno = EEXIST;
    return false;
}

static bool parse_modes(const char *text, bool modes[BENCH_MODES]) {
    char list[64];
    snprintf(list, sizeof list, "%s", text);
    memset(modes, 0, sizeof(bool) * BENCH_MODES);
    for (char *save = NULL, *item = strtok_r(list, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        int m = 0;
        while (m < BENCH_MODES && strcmp(item, bench_mode_name((BenchMode)m)))
            m++;
        if (m == BENCH_MODES) {
            cli_fail("bench", "--modes: '%s' is not bulk, full or hashed", item);
            return false;
        }
        modes[m] = true;
    }
    return true;
}

int cmd_bench(Cli *cli, int argc, char **argv) {
    (void)cli;
    enum { OPT_REPEAT = CLI_OPT_FIRST_FREE, OPT_MODES, OPT_HASH, OPT_WORKLOAD, OPT_JSON, OPT_RESULTS, OPT_MACHINE,
           OPT_BASELINE, OPT_MAX_REGRESSION, OPT_FINGERPRINT };
    static const struct option long_options[] = {
        {"repeat", required_argument, NULL, OPT_REPEAT},     {"threads", required_argument, NULL, 't'},
        {"modes", required_argument, NULL, OPT_MODES},       {"hash", required_argument, NULL, OPT_HASH},
        {"workload", required_argument, NULL, OPT_WORKLOAD}, {"json", no_argument, NULL, OPT_JSON},
        {"results", required_argument, NULL, OPT_RESULTS},   {"machine", required_argument, NULL, OPT_MACHINE},
        {"baseline", required_argument, NULL, OPT_BASELINE},
        {"max-regression", required_argument, NULL, OPT_MAX_REGRESSION},
        {"fingerprint", no_argument, NULL, OPT_FINGERPRINT},
        {"quiet", no_argument, NULL, 'q'},                   {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    BenchOptions o = {5, driver_available_threads(), {true, true, true}, (size_t)64 << 20, true};
    const char *workload_file = NULL, *results = "results", *machine = NULL, *baseline = NULL;
    bool json = false, fingerprint = false;
    double max_regression = 5;
    long value;
    LegacyRunSettings run;
    cli_default_run_settings(&run);
    cli_options_start();
    for (;;) {
        int c = getopt_long(argc, argv, ":t:qh", long_options, NULL);
        if (c == -1)
            break;
        switch (c) {
        case OPT_REPEAT:
            if (!cli_parse_long("bench", "--repeat", optarg, 1, BENCH_MAX_REPEAT, &value))
                return EXIT_BAD_INPUT;
            o.repeat = (int)value;
            break;
        case 't':
        case OPT_HASH:
            if (!cli_parse_run_option("bench", c == 't' ? RUN_OPTION_THREADS : RUN_OPTION_HASH, optarg, &run))
                return EXIT_BAD_INPUT;
            if (c == 't')
                o.threads = (int)run.threads;
            else
                o.hash_bytes = (size_t)run.hash_mb << 20;
            break;
        case OPT_MODES:
            if (!parse_modes(optarg, o.modes))
                return EXIT_BAD_INPUT;
            break;
        case OPT_WORKLOAD: workload_file = optarg; break;
        case OPT_JSON: json = true; break;
        case OPT_RESULTS: results = optarg; break;
        case OPT_MACHINE: machine = optarg; break;
        case OPT_BASELINE: baseline = optarg; break;
        case OPT_MAX_REGRESSION: {
            char *end;
            max_regression = strtod(optarg, &end);
            if (end == optarg || *end || !(max_regression >= 0 && max_regression < 100))
                return cli_fail("bench", "--max-regression '%s' is not a percentage from 0 to 100", optarg);
            break;
        }
        case OPT_FINGERPRINT: fingerprint = true; break;
        case 'q': o.progress = false; break;
        case 'h': fputs(bench_help, stdout); return EXIT_OK;
        default: return cli_option_problem("bench", c, argv);
        }
    }
    int finished = cli_finish_options("bench", argc, argv, NULL);
    if (finished >= 0)
        return finished;
    if (machine && (!*machine || strchr(machine, '/') || !strcmp(machine, ".") || !strcmp(machine, "..")))
        return cli_fail("bench", "--machine '%s' must be a plain folder name", machine);

    if (fingerprint) {
        BenchMachine m;
        bench_machine(&m);
        printf("%s\ncpu: %s\ncores: %d\nmemory: %ld MB\nflags:%s%s%s\nos: %s\nkernel: %s\nperftkit: %s, commit %s\n"
               "compiler: %s\nbuild: %s\n", machine ? machine : m.name, m.cpu, m.cores, m.memory_mb,
               m.bmi2 ? " bmi2" : "", m.avx2 ? " avx2" : "", m.avx512 ? " avx512f" : "", m.os, m.kernel,
               PERFTKIT_VERSION, PERFTKIT_GIT_COMMIT, PERFTKIT_COMPILER, PERFTKIT_BUILD_OPTIONS);
        return EXIT_OK;
    }
    char error[512];
    BenchWorkload *w = malloc(sizeof *w);
    BenchResult *r = malloc(sizeof *r);
    if (!w || !r) {
        free(w);
        free(r);
        return cli_fail("bench", "out of memory");
    }
    bool loaded = workload_file ? bench_load_workload_file(w, workload_file, error, sizeof error)
                                : bench_load_workload(w, "bench.epd", bench_workload_lines,
                                                      sizeof bench_workload_lines / sizeof bench_workload_lines[0],
                                                      error, sizeof error);
    int status = EXIT_OK;
    char path[4200] = "";
    BenchMachine here;
    bench_machine(&here);
    if (!loaded) {
        status = cli_fail("bench", "%s", error);
    } else if (json && !result_path(results, machine ? machine : here.name, path, sizeof path)) {
        status = cli_fail("bench", "cannot write results under '%s': %s", results, strerror(errno));
    } else if (baseline && access(baseline, R_OK) != 0) {
        status = cli_fail("bench", "cannot read baseline '%s': %s", baseline, strerror(errno));
    }
    if (status != EXIT_OK) {
        free(w);
        free(r);
        return status;
    }

    printf("perftkit bench: workload %s (%d positions), %d timed runs per setup after a warm-up\n", w->name,
           w->count, o.repeat);
    printf("machine: %s (%s, %d cores, %ld MB%s%s%s), %s, %s\n", machine ? machine : here.name, here.cpu, here.cores,
           here.memory_mb, here.bmi2 ? ", bmi2" : "", here.avx2 ? ", avx2" : "", here.avx512 ? ", avx512f" : "",
           here.os, here.kernel);
    printf("build: perftkit %s, commit %s, %s, %s\n", PERFTKIT_VERSION, PERFTKIT_GIT_COMMIT, PERFTKIT_COMPILER,
           PERFTKIT_BUILD_OPTIONS);
    fflush(stdout);
    if (!bench_run(w, &o, r, error, sizeof error)) {
        status = cli_fail("bench", "%s", error);
        free(w);
        free(r);
        return strncmp(error, "wrong count", 11) ? EXIT_BAD_INPUT : EXIT_MISMATCH;
    }
    if (machine)
        snprintf(r->machine.name, sizeof r->machine.name, "%s", machine);
    char text[COUNT_TEXT_SIZE];
    printf("\n%-7s %7s %14s %10s %10s %10s %9s\n", "mode", "threads", "leaves", "median", "min", "max", "ns/leaf");
    printf("%-7s %7s %14s %10s %10s %10s %9s\n", "", "", "", "Ml/s", "Ml/s", "Ml/s", "median");
    for (int i = 0; i < r->setup_count; i++) {
        const BenchSetup *s = &r->setups[i];
        printf("%-7s %7d %14s %10.1f %10.1f %10.1f %9.3f\n", bench_mode_name(s->mode), s->threads,
               count_format(s->leaves, false, text), s->median_lps / 1e6, s->min_lps / 1e6, s->max_lps / 1e6,
               1e9 / s->median_lps);
    }
    printf("total %.1f s\n", r->seconds);
    if (json) {
        if (bench_save(path, w, r, error, sizeof error))
            printf("result: %s\n", path);
        else
            status = cli_fail("bench", "%s", error);
    }
    if (baseline && status == EXIT_OK) {
        printf("\ncompared with %s:\n", baseline);
        int regressions = bench_compare(stdout, w, r, baseline, max_regression, error, sizeof error);
        if (regressions < 0)
            status = cli_fail("bench", "%s", error);
        else if (regressions > 0) {
            printf("%d setup%s slower than the baseline by more than %g%%\n", regressions, regressions > 1 ? "s" : "",
                   max_regression);
            status = EXIT_MISMATCH;
        }
    }
    free(w);
    free(r);
    return status;
}
