/* cmd_check.c — `perft check`: another engine's `go perft` against perftkit, each
 * disagreement bisected to its minimal failing case (uci/check.h), for one position or
 * every position of suite files. */
#include <stdlib.h>
#include <string.h>

#include "../io/json.h"
#include "../io/text.h"
#include "../suites/suite.h"
#include "../uci/check.h"
#include "commands.h"

enum { CHECK_JSON_SCHEMA = 1 }; /* the README's schema of `check --json` */

typedef struct CheckOptions {
    PositionOptions position;
    RunOptions run;
    const char *engine;
    long depth; /* 0: not given (4, or each suite position's deepest depth under max_known) */
    Count max_known;
    double timeout;
    bool json;
} CheckOptions;

/* What the positions came to, and the JSON document's "positions" (when --json). */
typedef struct Tally {
    int agree, differ, errors;
    json_t *positions;
} Tally;

static const CliSpec check_spec = {
    .operands = "[FILE...]",
    .min_operands = 0,
    .max_operands = -1,
    .summary =
        "Runs the engine as a child process, speaks UCI to it (uci, UCI_Chess960 when the\n"
        "position needs it, position fen ... moves ..., go perft N) and compares its per-move\n"
        "counts with perftkit's divide. Where they differ, it goes one ply down the first\n"
        "differing root move and divides again, until the two move lists differ or depth 1 is\n"
        "reached, and reports the minimal failing case: the start FEN, the move path, the FEN\n"
        "reached, the moves the engine lacks (legal moves missed), those it has that are not\n"
        "legal, and those it lists twice, with the perftkit command and the engine lines that\n"
        "reproduce it. Engine answers may be \"e2e4: 20\" or \"e2e4 20\", with a total such as\n"
        "\"Nodes searched: N\", \"Total: N\" or \"Nodes: N\".\n\n"
        "With FILE operands (suites in any format perft suite reads), every position of the\n"
        "files is checked instead of --fen/--startpos: at -d N, or at the deepest depth the\n"
        "file lists whose known count is at most --max-known.\n",
    .epilogue = "The engine runs in a process group of its own, and it and whatever it forks are\n"
                "always stopped and reaped (quit, SIGTERM, SIGKILL), whatever it does: no answer to\n"
                "'uci', a crash, a hang past --timeout, a negative or over-long count, a line over\n"
                "16 KiB or endless other output each end the check of the position at once with a\n"
                "message naming the engine by its command and what it did (exit 2).\n"
                "--hash: by default it follows the depth, as for perft count (see perft count --help).\n\n"
                "Example: perft check --engine \"stockfish\" suites/pychess_tricky.epd -d 3\n"
                "Exit status: 0 the engine agrees, 1 a difference was found and bisected, 2 bad input\n"
                "or a broken engine (on a suite, 2 wins over 1), 130 interrupted.\n",
};

/* A JSON string of outside text (a suite's id): the text itself when it is UTF-8,
 * else its quotation. */
static json_t *json_text(const char *text) {
    json_t *s = json_string(text);
    char shown[TEXT_QUOTE_SIZE];
    return s ? s : json_string(text_quote(text, shown));
}

static json_t *json_moves(char list[][8], int count) {
    json_t *a = json_array();
    for (int i = 0; i < count; i++)
        json_append(a, json_string(list[i]));
    return a;
}

/* The perftkit command that reproduces a failure. */
static const char *reproduce(const CheckFailure *f, bool chess960, char *out, size_t size) {
    snprintf(out, size, "perft divide -d %d --fen \"%s\"%s%s%s%s", f->depth, f->start_fen,
             f->path[0] ? " --moves \"" : "", f->path, f->path[0] ? "\"" : "", chess960 ? " --chess960" : "");
    return out;
}

static void print_list(FILE *out, const char *title, char list[][8], int count, const char *gloss) {
    if (!count)
        return;
    fprintf(out, "    %-11s", title);
    for (int i = 0; i < count; i++)
        fprintf(out, " %s", list[i]);
    fprintf(out, "   (%s)\n", gloss);
}

static void report_text(Cli *cli, const Engine *engine, const char *label, int depth, CheckOutcome outcome,
                        const CheckFailure *f, const char *error, Count nodes, bool chess960) {
    char text[COUNT_TEXT_SIZE], command[1024];
    FILE *out = cli->out;
    if (outcome == CHECK_AGREE) {
        fprintf(out, "agree   %-28s depth %d, %s nodes\n", label, depth, count_format(nodes, false, text));
    } else if (outcome == CHECK_BROKEN) {
        fprintf(out, "ERROR   %-28s depth %d: %s\n", label, depth, error);
    } else {
        fprintf(out, "DIFFER  %-28s depth %d: the engine '%s' disagrees; minimal failing case after %d divides:\n",
                label, depth, engine->label, f->divides);
        fprintf(out, "    start      %s\n", f->start_fen);
        if (f->path[0])
            fprintf(out, "    moves      %s\n", f->path);
        fprintf(out, "    reached    %s   (divided at depth %d)\n", f->reached_fen, f->depth);
        print_list(out, "missing", (char(*)[8])f->missing, f->missing_count, "legal moves the engine does not list");
        print_list(out, "extra", (char(*)[8])f->extra, f->extra_count, "moves the engine lists that are not legal");
        print_list(out, "duplicated", (char(*)[8])f->duplicated, f->duplicated_count, "moves the engine lists twice");
        if (f->note[0])
            fprintf(out, "    note       %s\n", f->note);
        fprintf(out, "    reproduce  %s\n", reproduce(f, chess960, command, sizeof command));
        fprintf(out, "    in the engine:\n      position fen %s%s%s\n      go perft %d\n", f->start_fen,
                f->path[0] ? " moves " : "", f->path, f->depth);
    }
    fflush(out);
}

static json_t *failure_json(const CheckFailure *f, bool chess960) {
    json_t *o = json_object(), *path = json_array();
    char moves[CHECK_PATH_SIZE], command[1024];
    snprintf(moves, sizeof moves, "%s", f->path);
    for (char *save = NULL, *m = strtok_r(moves, " ", &save); m; m = strtok_r(NULL, " ", &save))
        json_append(path, json_string(m));
    json_set(o, "path", path);
    json_set(o, "fen", json_string(f->reached_fen));
    json_set(o, "depth", json_integer(f->depth));
    json_set(o, "missing", json_moves((char(*)[8])f->missing, f->missing_count));
    json_set(o, "extra", json_moves((char(*)[8])f->extra, f->extra_count));
    json_set(o, "duplicated", json_moves((char(*)[8])f->duplicated, f->duplicated_count));
    json_set(o, "note", f->note[0] ? json_string(f->note) : json_null());
    json_set(o, "divides", json_integer(f->divides));
    json_set(o, "reproduce", json_string(reproduce(f, chess960, command, sizeof command)));
    json_t *engine_commands = json_array();
    snprintf(command, sizeof command, "position fen %s%s%s", f->start_fen, f->path[0] ? " moves " : "", f->path);
    json_append(engine_commands, json_string(command));
    snprintf(command, sizeof command, "go perft %d", f->depth);
    json_append(engine_commands, json_string(command));
    json_set(o, "engine_commands", engine_commands);
    return o;
}

static void report_json(Tally *tally, const char *label, int depth, CheckOutcome outcome, const CheckFailure *f,
                        const char *fen, const char *error, Count nodes, bool chess960) {
    static const char *const names[] = {"agree", "differ", "error"};
    json_t *o = json_object();
    json_set(o, "label", json_text(label));
    json_set(o, "fen", json_text(outcome == CHECK_BROKEN || !f || !f->start_fen[0] ? fen : f->start_fen));
    json_set(o, "depth", json_integer(depth));
    json_set(o, "status", json_string(names[outcome]));
    if (outcome == CHECK_AGREE)
        json_set(o, "nodes", json_count(nodes));
    if (outcome == CHECK_BROKEN)
        json_set(o, "error", json_text(error));
    if (outcome == CHECK_DIFFER)
        json_set(o, "failure", failure_json(f, chess960));
    json_append(tally->positions, o);
}

static void report(Cli *cli, const CheckOptions *o, Tally *tally, const Engine *engine, const char *label, int depth,
                   CheckOutcome outcome, const CheckFailure *f, const char *fen, const char *error, Count nodes,
                   bool chess960) {
    tally->agree += outcome == CHECK_AGREE;
    tally->differ += outcome == CHECK_DIFFER;
    tally->errors += outcome == CHECK_BROKEN;
    if (o->json)
        report_json(tally, label, depth, outcome, f, fen, error, nodes, chess960);
    else
        report_text(cli, engine, label, depth, outcome, f, error, nodes, chess960);
}

/* The state of one check run, kept from position to position. */
typedef struct Checker {
    Cli *cli;
    const CheckOptions *o;
    Engine *engine;
    bool running; /* the engine is started and usable */
    bool warned;  /* the engine was said to lack UCI_Chess960 */
    Driver *driver;
    Tally tally;
    const volatile sig_atomic_t *interrupt;
} Checker;

/* Checks one position; restarts a broken engine for the next. Returns false when the
 * engine cannot be (re)started at all. */
static bool check_one(Checker *c, const char *label, const char *fen, bool chess960, int depth) {
    Position pos;
    char error[FEN_ERROR_SIZE], shown[TEXT_QUOTE_SIZE];
    if (!fen_parse(&pos, fen, chess960, error, sizeof error)) {
        char reason[FEN_ERROR_SIZE + TEXT_QUOTE_SIZE + 16];
        snprintf(reason, sizeof reason, "bad FEN '%s': %s", text_quote(fen, shown), error);
        report(c->cli, c->o, &c->tally, c->engine, label, depth, CHECK_BROKEN, NULL, fen, reason, 0, chess960);
        return true;
    }
    if (!c->running) {
        if (!engine_start(c->engine, c->o->engine, c->o->timeout, c->interrupt)) {
            cli_error(c->cli, "%s", c->engine->error);
            engine_stop(c->engine);
            return false;
        }
        c->running = true;
    }
    if (pos.chess960 && !c->engine->chess960_option && !c->warned) {
        cli_error(c->cli, "engine '%s' offers no UCI_Chess960 option; sending it anyway", c->engine->label);
        c->warned = true;
    }
    CheckFailure *failure = malloc(sizeof *failure);
    CheckOutcome outcome = CHECK_BROKEN;
    if (failure && engine_set_chess960(c->engine, pos.chess960))
        outcome = check_position(c->engine, c->driver, fen, pos.chess960, depth, failure);
    Count nodes = 0;
    RunReport *run = outcome == CHECK_AGREE ? malloc(sizeof *run) : NULL;
    if (run) { /* already counted: the tables answer at once */
        driver_run(c->driver, &pos, depth, NULL, NULL, run);
        nodes = run->total;
    }
    free(run);
    report(c->cli, c->o, &c->tally, c->engine, label, depth, outcome, failure, fen,
           failure ? c->engine->error : "out of memory", nodes, pos.chess960);
    if (outcome == CHECK_BROKEN) { /* a broken engine is stopped; the next position starts a new one */
        engine_stop(c->engine);
        c->running = false;
    }
    free(failure);
    return true;
}

/* Checks every position of one suite file; false when the engine cannot be started. */
static bool check_file(Checker *c, const char *path) {
    SuiteReader reader;
    char why[EPD_ERROR_SIZE + 64], file[TEXT_QUOTE_SIZE];
    if (!suite_open(&reader, path, why, sizeof why)) {
        cli_error(c->cli, "%s", why);
        c->tally.errors++;
        return true;
    }
    const char *slash = strrchr(reader.name, '/');
    text_quote(slash ? slash + 1 : reader.name, file);
    bool usable = true;
    while (usable && !*c->interrupt) {
        EpdRecord record;
        int line;
        char label[TEXT_QUOTE_SIZE + 16];
        SuiteItem item = suite_next(&reader, &record, &line, why, sizeof why);
        if (item == SUITE_END)
            break;
        snprintf(label, sizeof label, "%s:%d", file, item == SUITE_RECORD ? line : reader.line_number);
        if (item == SUITE_MALFORMED) {
            cli_error(c->cli, "%s: %s", label, why);
            c->tally.errors++;
            continue;
        }
        if (record.id[0])
            text_quote(record.id, label);
        int depth = (int)c->o->depth;
        for (int i = 0; !c->o->depth && i < record.expectation_count; i++)
            if (record.expect[i].nodes <= c->o->max_known)
                depth = record.expect[i].depth;
        if (depth == 0) /* nothing listed under --max-known, or a bare FEN */
            continue;
        usable = check_one(c, label, record.fen, c->o->position.chess960, depth);
    }
    suite_close(&reader);
    return usable;
}

static int parse_options(Cli *cli, int argc, char **argv, CheckOptions *o, CliOperands *files) {
    memset(o, 0, sizeof *o);
    o->max_known = 1000000;
    o->timeout = 120;
    cli_run_defaults(&o->run);
    const CliOption options[] = {
        CLI_OPT_STRING("engine", 0, "\"CMD\"", &o->engine, "the engine's command line (run by /bin/sh); needed"),
        CLI_OPTS_POSITION(&o->position),
        {.name = "depth", .letter = 'd', .kind = CLI_INT, .value = CLI_VALUE(long *, &o->depth), .arg = "N", .min = 1,
         .max = CLI_MAX_DEPTH, .default_text = "4",
         .help = "depth in plies; with FILEs and no -d, each position's deepest\nlisted depth under --max-known"},
        {.name = "max-known", .kind = CLI_COUNT, .value = CLI_VALUE(Count *, &o->max_known), .arg = "N", .min = 1,
         .default_text = "1000000",
         .help = "with FILEs and no -d: skip listed depths whose known count\nis above N, as perft suite does"},
        {.name = "timeout", .kind = CLI_SECONDS, .value = CLI_VALUE(double *, &o->timeout), .arg = "S",
         .default_text = "120", .help = "seconds the engine may take for any one answer"},
        CLI_OPTS_RUN(&o->run),
        CLI_OPT_JSON(&o->json),
        CLI_OPT_END,
    };
    int status = cli_parse(cli, &check_spec, options, argc, argv, files);
    if (status != CLI_CONTINUE)
        return status;
    if (!o->engine || !*o->engine)
        return cli_error(cli, "--engine \"CMD\" is needed: the engine to check");
    if (files->count && (o->position.fen || o->position.startpos || o->position.moves))
        return cli_error(cli, "FILE operands name the positions to check; drop --fen, --startpos and --moves");
    return CLI_CONTINUE;
}

int cmd_check(Cli *cli, int argc, char **argv) {
    CheckOptions o;
    CliOperands files;
    int status = parse_options(cli, argc, argv, &o, &files);
    if (status != CLI_CONTINUE)
        return status;
    Position start;
    if (!files.count && !cli_position(cli, &o.position, &start))
        return EXIT_BAD_INPUT;
    Driver driver;
    if (!cli_driver(cli, &o.run, o.depth ? (int)o.depth : 6, &driver))
        return EXIT_BAD_INPUT;
    RunLimits limits = cli_limits(&o.run);
    Checker c = {.cli = cli, .o = &o, .engine = calloc(1, sizeof(Engine)), .driver = &driver, .interrupt = limits.interrupt};
    if (o.json)
        c.tally.positions = json_array();
    bool usable = c.engine != NULL;
    if (!usable)
        cli_error(cli, "out of memory");
    if (!files.count && usable) {
        char fen[FEN_BUFFER_SIZE];
        usable = check_one(&c, "position", fen_write(&start, fen), start.chess960, o.depth ? (int)o.depth : 4);
    }
    for (int i = 0; i < files.count && usable && !*c.interrupt; i++)
        usable = check_file(&c, files.items[i]);
    if (c.engine)
        engine_stop(c.engine);
    free(c.engine);
    driver_destroy(&driver);
    const Tally *t = &c.tally;
    bool written = true;
    if (o.json) {
        json_t *doc = json_document(cli->command, CHECK_JSON_SCHEMA), *summary = json_object();
        json_set(doc, "engine", json_text(o.engine));
        json_set(doc, "timeout", json_real(o.timeout));
        json_set(doc, "positions", c.tally.positions);
        json_set(summary, "agree", json_integer(t->agree));
        json_set(summary, "differ", json_integer(t->differ));
        json_set(summary, "errors", json_integer(t->errors));
        json_set(doc, "summary", summary);
        written = json_write(cli->out, doc);
    } else if (t->agree + t->differ + t->errors > 0 || usable) { /* an engine that never started has its one line */
        fprintf(cli->out, "%d agree, %d differ, %d errors\n", t->agree, t->differ, t->errors);
    }
    int output = cli_finish_output(cli, written);
    if (output != EXIT_OK)
        return output;
    if (*c.interrupt)
        return EXIT_INTERRUPTED;
    if (!usable || t->errors)
        return EXIT_BAD_INPUT;
    return t->differ ? EXIT_MISMATCH : EXIT_OK;
}
