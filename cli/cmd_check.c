/* cmd_check.c — `perft check`: another engine's `go perft` against perftkit, each
 * disagreement bisected to its minimal failing case. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../uci/check.h"
#include "cli.h"
#include "commands.h"
#include "report.h"
#include "../suites/suite.h"

typedef struct CheckOptions {
    PositionOptions position;
    const char *engine;
    const char *suite;
    long depth;          /* 0: the suite's depths */
    Count max_nodes;
    double timeout;
    bool json;
    LegacyRunSettings run;
} CheckOptions;

typedef struct Tally {
    int agree, differ, errors;
    bool first_json;
} Tally;

static const char check_help[] =
    "usage: perft check --engine \"CMD [ARGS]\" [--fen FEN | --startpos | --suite FILE] [-d N] [--chess960]\n"
    "                   [--moves LIST] [--max-nodes N] [--timeout S] [-t N] [--hash MB] [--json]\n\n"
    "Runs the engine as a child process, speaks UCI to it (uci, UCI_Chess960 when the\n"
    "position needs it, position fen ... moves ..., go perft N) and compares its per-move\n"
    "counts with perftkit's divide. Where they differ, it goes one ply down the first\n"
    "differing root move and divides again, until the two move lists differ or depth 1 is\n"
    "reached, and reports the minimal failing case: the start FEN, the move path, the FEN\n"
    "reached, the moves the engine lacks (legal moves missed), those it has that are not\n"
    "legal, and those it lists twice, with the perftkit command and the engine lines that\n"
    "reproduce it. Engine answers may be \"e2e4: 20\" or \"e2e4 20\", with a total such as\n"
    "\"Nodes searched: N\", \"Total: N\" or \"Nodes: N\".\n\n"
    "      --engine \"CMD\"     the engine's command line (run by /bin/sh)\n" CLI_POSITION_HELP
    "      --suite FILE       check every position of a suite (any format perft suite reads)\n"
    "  -d, --depth N          depth, 1..32; with --suite, the deepest depth the suite lists\n"
    "                         under --max-nodes when not given (default depth 4 otherwise)\n"
    "      --max-nodes N      with --suite, skip listed depths above N nodes (default 1000000)\n"
    "      --timeout S        seconds the engine may take for any one answer (default 120)\n"
    "  -t, --threads N, --hash MB   perftkit's own counting, as for perft count\n"
    "      --json             one JSON document on stdout instead of text (schema: README)\n"
    "  -h, --help             this text\n\n"
    "The engine is always stopped and reaped, whatever it does: no answer to 'uci',\n"
    "a crash, a hang past --timeout, or unreadable output each end the check with a\n"
    "message naming the engine and what it did.\n"
    "Exit status: 0 the engine agrees, 1 a difference was found and bisected, 2 bad input\n"
    "or a broken engine (on a suite, 2 wins over 1), 130 interrupted.\n";

static void print_list(const char *title, char list[][8], int count, const char *gloss) {
    if (!count)
        return;
    printf("    %-11s", title);
    for (int i = 0; i < count; i++)
        printf(" %s", list[i]);
    printf("   (%s)\n", gloss);
}

static void json_list(char list[][8], int count) {
    printf("[");
    for (int i = 0; i < count; i++)
        printf("%s\"%s\"", i ? ", " : "", list[i]);
    printf("]");
}

static void report_text(const char *label, int depth, const char *engine_name, CheckOutcome outcome,
                        const CheckFailure *f, const char *error, Count nodes, bool chess960) {
    char text[COUNT_TEXT_SIZE];
    if (outcome == CHECK_AGREE) {
        printf("agree   %-28s depth %d, %s nodes\n", label, depth, count_format(nodes, false, text));
    } else if (outcome == CHECK_BROKEN) {
        printf("ERROR   %-28s depth %d: %s\n", label, depth, error);
    } else {
        printf("DIFFER  %-28s depth %d: the engine '%s' disagrees; minimal failing case after %d divides:\n", label,
               depth, engine_name, f->divides);
        printf("    start      %s\n", f->start_fen);
        if (f->path[0])
            printf("    moves      %s\n", f->path);
        printf("    reached    %s   (divided at depth %d)\n", f->reached_fen, f->depth);
        print_list("missing", (char(*)[8])f->missing, f->missing_count, "legal moves the engine does not list");
        print_list("extra", (char(*)[8])f->extra, f->extra_count, "moves the engine lists that are not legal");
        print_list("duplicated", (char(*)[8])f->duplicated, f->duplicated_count, "moves the engine lists twice");
        if (f->note[0])
            printf("    note       %s\n", f->note);
        printf("    reproduce  perft divide -d %d --fen \"%s\"%s%s%s%s\n", f->depth, f->start_fen,
               f->path[0] ? " --moves \"" : "", f->path, f->path[0] ? "\"" : "", chess960 ? " --chess960" : "");
        printf("    in the engine:\n      position fen %s%s%s\n      go perft %d\n", f->start_fen,
               f->path[0] ? " moves " : "", f->path, f->depth);
    }
    fflush(stdout);
}

static void report_json(Tally *tally, const char *label, int depth, CheckOutcome outcome, const CheckFailure *f,
                        const char *fen, const char *error, Count nodes, bool chess960) {
    static const char *const names[] = {"agree", "differ", "error"};
    char text[COUNT_TEXT_SIZE];
    printf("%s\n    {\"label\": ", tally->first_json ? "" : ",");
    tally->first_json = false;
    report_json_string(stdout, label);
    printf(", \"fen\": ");
    report_json_string(stdout, outcome == CHECK_BROKEN || !f->start_fen[0] ? fen : f->start_fen);
    printf(", \"depth\": %d, \"status\": \"%s\"", depth, names[outcome]);
    if (outcome == CHECK_AGREE)
        printf(", \"nodes\": \"%s\"", count_format(nodes, false, text));
    if (outcome == CHECK_BROKEN) {
        printf(", \"error\": ");
        report_json_string(stdout, error);
    }
    if (outcome == CHECK_DIFFER) {
        printf(", \"failure\": {\"path\": [");
        char path[CHECK_PATH_SIZE];
        snprintf(path, sizeof path, "%s", f->path);
        int k = 0;
        for (char *save = NULL, *m = strtok_r(path, " ", &save); m; m = strtok_r(NULL, " ", &save))
            printf("%s\"%s\"", k++ ? ", " : "", m);
        printf("], \"fen\": ");
        report_json_string(stdout, f->reached_fen);
        printf(", \"depth\": %d, \"missing\": ", f->depth);
        json_list((char(*)[8])f->missing, f->missing_count);
        printf(", \"extra\": ");
        json_list((char(*)[8])f->extra, f->extra_count);
        printf(", \"duplicated\": ");
        json_list((char(*)[8])f->duplicated, f->duplicated_count);
        printf(", \"note\": ");
        if (f->note[0])
            report_json_string(stdout, f->note);
        else
            printf("null");
        char command[1024];
        snprintf(command, sizeof command, "perft divide -d %d --fen \"%s\"%s%s%s%s", f->depth, f->start_fen,
                 f->path[0] ? " --moves \"" : "", f->path, f->path[0] ? "\"" : "", chess960 ? " --chess960" : "");
        printf(", \"divides\": %d, \"reproduce\": ", f->divides);
        report_json_string(stdout, command);
        snprintf(command, sizeof command, "position fen %s%s%s", f->start_fen, f->path[0] ? " moves " : "", f->path);
        printf(", \"engine_commands\": [");
        report_json_string(stdout, command);
        printf(", \"go perft %d\"]}", f->depth);
    }
    printf("}");
    fflush(stdout);
}

/* Checks one position; restarts a broken engine for the next. Returns false when the
 * engine cannot be (re)started at all. */
static bool check_one(const CheckOptions *o, Engine *engine, bool *engine_running, Driver *driver, Tally *tally,
                      const char *label, const char *fen, bool chess960, int depth,
                      const volatile sig_atomic_t *interrupt) {
    Position pos;
    char error[FEN_ERROR_SIZE + EPD_FEN_SIZE];
    if (!fen_parse(&pos, fen, chess960, error, sizeof error)) {
        char reason[sizeof error + EPD_FEN_SIZE + 16];
        snprintf(reason, sizeof reason, "bad FEN '%s': %s", fen, error);
        tally->errors++;
        if (o->json)
            report_json(tally, label, depth, CHECK_BROKEN, NULL, fen, reason, 0, chess960);
        else
            printf("ERROR   %-28s %s\n", label, reason);
        return true;
    }
    if (!*engine_running) {
        if (!engine_start(engine, o->engine, o->timeout, interrupt)) {
            cli_fail("check", "%s", engine->error);
            engine_stop(engine);
            return false;
        }
        *engine_running = true;
    }
    if (pos.chess960 && !engine->chess960_option)
        fprintf(stderr, "perft check: engine '%s' offers no UCI_Chess960 option; sending it anyway\n", engine->name);
    CheckFailure *failure = malloc(sizeof *failure);
    CheckOutcome outcome = CHECK_BROKEN;
    if (failure && engine_set_chess960(engine, pos.chess960))
        outcome = check_position(engine, driver, fen, pos.chess960, depth, failure);
    Count nodes = 0;
    if (outcome == CHECK_AGREE) {
        RunReport run;
        driver_run(driver, &pos, depth, NULL, NULL, &run); /* already counted: the tables answer at once */
        nodes = run.total;
    }
    const char *why = failure ? engine->error : "out of memory";
    if (o->json)
        report_json(tally, label, depth, outcome, failure, fen, why, nodes, pos.chess960);
    else
        report_text(label, depth, engine->name, outcome, failure, why, nodes, pos.chess960);
    tally->agree += outcome == CHECK_AGREE;
    tally->differ += outcome == CHECK_DIFFER;
    tally->errors += outcome == CHECK_BROKEN;
    if (outcome == CHECK_BROKEN) { /* a broken engine is stopped; the next position starts a new one */
        engine_stop(engine);
        *engine_running = false;
    }
    free(failure);
    return true;
}

static int parse_options(int argc, char **argv, CheckOptions *o) {
    enum { OPT_ENGINE = CLI_OPT_FIRST_FREE, OPT_SUITE, OPT_MAX_NODES, OPT_TIMEOUT, OPT_HASH, OPT_JSON };
    static const struct option long_options[] = {
        CLI_POSITION_OPTIONS,
        {"engine", required_argument, NULL, OPT_ENGINE},      {"suite", required_argument, NULL, OPT_SUITE},
        {"depth", required_argument, NULL, 'd'},              {"max-nodes", required_argument, NULL, OPT_MAX_NODES},
        {"timeout", required_argument, NULL, OPT_TIMEOUT},    {"threads", required_argument, NULL, 't'},
        {"hash", required_argument, NULL, OPT_HASH},          {"json", no_argument, NULL, OPT_JSON},
        {"help", no_argument, NULL, 'h'},                     {NULL, 0, NULL, 0}};
    memset(o, 0, sizeof *o);
    o->max_nodes = 1000000;
    o->timeout = 120;
    cli_default_run_settings(&o->run);
    cli_options_start();
    for (;;) {
        int c = getopt_long(argc, argv, ":d:t:h", long_options, NULL);
        if (c == -1)
            break;
        if (cli_position_option(c, optarg, &o->position))
            continue;
        switch (c) {
        case OPT_ENGINE: o->engine = optarg; break;
        case OPT_SUITE: o->suite = optarg; break;
        case 'd':
            if (!cli_parse_long("check", "depth", optarg, 1, PERFT_MAX_DEPTH, &o->depth))
                return EXIT_BAD_INPUT;
            break;
        case OPT_MAX_NODES:
            if (!count_parse(optarg, strlen(optarg), &o->max_nodes))
                return cli_fail("check", "--max-nodes '%s' is not a whole number", optarg);
            break;
        case OPT_TIMEOUT: {
            LegacyRunSettings timing;
            cli_default_run_settings(&timing);
            if (!cli_parse_run_option("check", RUN_OPTION_MAX_TIME, optarg, &timing))
                return EXIT_BAD_INPUT;
            o->timeout = timing.limits.max_seconds;
            break;
        }
        case 't':
        case OPT_HASH:
            if (!cli_parse_run_option("check", c == 't' ? RUN_OPTION_THREADS : RUN_OPTION_HASH, optarg, &o->run))
                return EXIT_BAD_INPUT;
            break;
        case OPT_JSON: o->json = true; break;
        case 'h': fputs(check_help, stdout); return EXIT_OK;
        default: return cli_option_problem("check", c, argv);
        }
    }
    int finished = cli_finish_options("check", argc, argv, &o->position);
    if (finished >= 0)
        return finished;
    if (!o->engine || !*o->engine)
        return cli_fail("check", "--engine \"CMD\" is needed: the engine to check");
    if (o->suite && (o->position.fen || o->position.startpos || o->position.moves))
        return cli_fail("check", "--suite checks the suite's positions; drop --fen, --startpos and --moves");
    return -1;
}

int cmd_check(Cli *cli, int argc, char **argv) {
    (void)cli;
    CheckOptions o;
    int status = parse_options(argc, argv, &o);
    if (status >= 0)
        return status;
    const volatile sig_atomic_t *interrupt = cli_catch_interrupt();
    SuiteReader reader;
    char error[512];
    if (o.suite && !suite_open(&reader, o.suite, error, sizeof error))
        return cli_fail("check", "%s", error);
    Position start;
    if (!o.suite && !cli_setup_position("check", &o.position, &start))
        return EXIT_BAD_INPUT;
    Driver driver;
    if (!cli_create_driver("check", &o.run, o.depth ? (int)o.depth : 6, &driver)) {
        if (o.suite)
            suite_close(&reader);
        return EXIT_BAD_INPUT;
    }
    Engine *engine = calloc(1, sizeof *engine);
    Tally tally = {0, 0, 0, true};
    bool running = false, usable = engine != NULL;
    if (o.json) {
        report_json_open(stdout, "check");
        printf("  \"engine\": ");
        report_json_string(stdout, o.engine);
        printf(",\n  \"timeout\": %g,\n  \"positions\": [", o.timeout);
    }
    if (!o.suite && usable) {
        char fen[FEN_BUFFER_SIZE];
        usable = check_one(&o, engine, &running, &driver, &tally, "position", fen_write(&start, fen), start.chess960,
                           o.depth ? (int)o.depth : 4, interrupt);
    }
    while (o.suite && usable && !*interrupt) {
        EpdRecord record;
        int line;
        char why[EPD_ERROR_SIZE + 64], label[96];
        SuiteItem item = suite_next(&reader, &record, &line, why, sizeof why);
        if (item == SUITE_END)
            break;
        const char *slash = strrchr(reader.name, '/');
        snprintf(label, sizeof label, "%s:%d", slash ? slash + 1 : reader.name, item == SUITE_RECORD ? line
                                                                                                 : reader.line_number);
        if (item == SUITE_MALFORMED) {
            fprintf(stderr, "perft check: %s: %s\n", label, why);
            tally.errors++;
            continue;
        }
        if (record.id[0])
            snprintf(label, sizeof label, "%s", record.id);
        int depth = (int)o.depth;
        for (int i = 0; !o.depth && i < record.expectation_count; i++)
            if (record.expect[i].nodes <= o.max_nodes)
                depth = record.expect[i].depth;
        if (depth == 0) /* nothing listed under --max-nodes, or a bare FEN */
            continue;
        usable = check_one(&o, engine, &running, &driver, &tally, label, record.fen, o.position.chess960, depth,
                           interrupt);
    }
    if (o.suite)
        suite_close(&reader);
    if (engine)
        engine_stop(engine);
    free(engine);
    driver_destroy(&driver);
    bool nothing_checked = tally.agree + tally.differ + tally.errors == 0;
    if (o.json)
        printf("%s],\n  \"summary\": {\"agree\": %d, \"differ\": %d, \"errors\": %d}\n}\n", tally.first_json ? "" : "\n  ",
               tally.agree, tally.differ, tally.errors);
    else if (!nothing_checked || usable) /* an engine that never started has its one line on stderr */
        printf("%d agree, %d differ, %d errors\n", tally.agree, tally.differ, tally.errors);
    if (*interrupt)
        return EXIT_INTERRUPTED;
    if (!usable || tally.errors)
        return EXIT_BAD_INPUT;
    return tally.differ ? EXIT_MISMATCH : EXIT_OK;
}
