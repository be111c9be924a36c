/* test_manual.c — the man page and the bash completion (cli/manual.c), as the build made
 * them for installing: every subcommand and every option of every subcommand is in the
 * man page, which groff renders without a warning; bash with the completion sourced
 * offers every subcommand, a subcommand's options, the values of a choice, and files. */
#include <unistd.h>

#include "cli_support.h"
#include "config.h"

TestSuite(manual, .init = core_setup);

/* The options of one subcommand, gathered through the describe hook of cli_parse. */
typedef struct Options {
    const char *command;
    char names[64][48];
    char letters[64];
    int count;
} Options;

static void gather(void *context, const char *command, const CliSpec *spec, const CliOption *options) {
    (void)spec;
    Options *o = context;
    if (strcmp(command, o->command))
        return;
    for (const CliOption *option = options; option->name && o->count < 64; option++) {
        snprintf(o->names[o->count], sizeof o->names[0], "%s", option->name);
        o->letters[o->count++] = option->letter;
    }
}

static Options options_of(const CommandEntry *c) {
    static Options o;
    memset(&o, 0, sizeof o);
    o.command = c->name;
    static Cli cli;
    cli = (Cli){.in = stdin, .out = stdout, .err = stderr, .run = driver_run, .describe = gather, .describe_context = &o};
    char *argv[] = {(char *)c->name, NULL};
    cr_assert_eq(c->run(&cli, 1, argv), EXIT_OK);
    return o;
}

static char *read_file(const char *variable) {
    const char *path = getenv(variable);
    cr_assert(path, "%s is not set (run the tests through meson test)", variable);
    FILE *file = fopen(path, "r");
    cr_assert(file, "cannot read %s", path);
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, file);
    text[n] = '\0';
    fclose(file);
    return text;
}

/* An option name as roff writes it: every '-' as "\-". */
static const char *roff(const char *name, char *out, size_t size) {
    size_t n = 0;
    for (const char *p = name; *p && n + 3 < size; p++) {
        if (*p == '-')
            out[n++] = '\\';
        out[n++] = *p;
    }
    out[n] = '\0';
    return out;
}

Test(manual, the_man_page_has_every_command_and_all_its_options) {
    const char *page = read_file("PERFTKIT_MANPAGE");
    cr_assert(strstr(page, ".TH PERFT 1 \"\" \"perftkit " PERFTKIT_VERSION "\""), "the version is in the title");
    int commands = 0;
    for (const CommandEntry *c = cli_commands; c->name; c++, commands++) {
        char heading[64];
        snprintf(heading, sizeof heading, "\n.SS \"perft %s\"\n", c->name);
        const char *section = strstr(page, heading);
        cr_assert(section, "the man page has no section for %s", c->name);
        const char *end = strstr(section + 1, "\n.SS ");
        if (!end)
            end = strstr(section, "\n.SH ");
        Options o = options_of(c);
        for (int i = 0; i < o.count; i++) {
            char entry[128], name[96];
            snprintf(entry, sizeof entry, "\\fB\\-\\-%s\\fR", roff(o.names[i], name, sizeof name));
            const char *found = strstr(section, entry);
            cr_assert(found && found < end, "perft %s --%s is not in its man section", c->name, o.names[i]);
        }
    }
    cr_assert_geq(commands, 12);
    cr_assert(strstr(page, ".SH \"EXIT STATUS\"") && strstr(page, "NO_COLOR") && strstr(page, "dumb"));
}

Test(manual, the_installed_files_are_what_the_binary_prints) {
    CliRun run = cli_run("--man-page");
    cr_assert_eq(run.status, EXIT_OK);
    cr_assert_str_eq(run.out, read_file("PERFTKIT_MANPAGE"));
    cli_run_free(&run);
    run = cli_run("--bash-completion");
    cr_assert_eq(run.status, EXIT_OK);
    cr_assert_str_eq(run.out, read_file("PERFTKIT_COMPLETION"));
    cr_assert_str_empty(run.err);
    cli_run_free(&run);
    run = cli_run("--help");
    cr_assert(strstr(run.out, "--man-page") && strstr(run.out, "--bash-completion"), "--help names them");
    cli_run_free(&run);
}

Test(manual, the_man_page_renders_without_warnings) {
    Run groff = run_command("command -v groff >/dev/null || exit 77; groff -man -Tutf8 -ww -z '%s' 2>&1",
                            getenv("PERFTKIT_MANPAGE"));
    if (groff.status == 77)
        cr_skip_test("groff is not installed");
    cr_assert_eq(groff.status, 0);
    cr_assert_str_empty(groff.out, "groff warns: %s", groff.out);
    Run text = run_command("groff -man -Tascii '%s' 2>/dev/null | col -b", getenv("PERFTKIT_MANPAGE"));
    cr_assert(strstr(text.out, "perft count [OPTIONS]"), "the usage line renders");
    cr_assert(strstr(text.out, "-d, --depth N"), "an option renders as typed: %.400s", text.out);
}

/* The words bash offers for `words` (shell words, the last one being completed), one
 * per line. */
static const char *complete(const char *words) {
    static Run run;
    run = run_command("bash --norc -c 'source \"$1\"; shift; COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); "
                      "_perft 2>/dev/null; printf \"%%s\\n\" \"${COMPREPLY[@]}\"' _ '%s' %s",
                      getenv("PERFTKIT_COMPLETION"), words);
    cr_assert_eq(run.status, 0, "bash failed completing %s", words);
    return run.out;
}

static bool offers(const char *list, const char *word) {
    char line[512];
    snprintf(line, sizeof line, "\n%s\n", word);
    char *padded = malloc(strlen(list) + 2);
    cr_assert(padded);
    sprintf(padded, "\n%s", list);
    bool found = strstr(padded, line) != NULL;
    free(padded);
    return found;
}

Test(manual, the_completion_offers_every_command) {
    const char *words = complete("perft ''");
    for (const CommandEntry *c = cli_commands; c->name; c++)
        cr_assert(offers(words, c->name), "%s is not offered: %s", c->name, words);
    cr_assert(offers(words, "--version") && offers(words, "--help"));
    words = complete("perft co");
    cr_assert(offers(words, "count") && !offers(words, "divide"), "%s", words);
    words = complete("perft help su");
    cr_assert(offers(words, "suite"), "%s", words);
}

Test(manual, the_completion_offers_the_options_of_a_command) {
    const CommandEntry *count = NULL;
    for (const CommandEntry *c = cli_commands; c->name; c++)
        if (!strcmp(c->name, "count"))
            count = c;
    cr_assert(count);
    Options o = options_of(count);
    cr_assert_gt(o.count, 15, "count has its options");
    const char *words = complete("perft count -");
    for (int i = 0; i < o.count; i++) {
        char name[64];
        snprintf(name, sizeof name, "--%s", o.names[i]);
        cr_assert(offers(words, name), "%s is not offered: %s", name, words);
        if (o.letters[i]) {
            snprintf(name, sizeof name, "-%c", o.letters[i]);
            cr_assert(offers(words, name), "%s is not offered", name);
        }
    }
    cr_assert(offers(words, "--depth") && offers(words, "--journal") && offers(words, "--max-nodes") &&
              offers(words, "-t") && offers(words, "--help"));
    cr_assert_not(offers(words, "--junit"), "suite's options are not count's: %s", words);
    words = complete("perft suite --ju");
    cr_assert_str_eq(words, "--junit\n");
}

Test(manual, the_completion_offers_choices_and_files_as_values) {
    const char *words = complete("perft count --trace ''");
    cr_assert(offers(words, "it") && offers(words, "pz") && offers(words, "tt"), "%s", words);
    words = complete("perft count -d ''");
    cr_assert_str_eq(words, "\n", "a depth is the user's to type: nothing offered, not '%s'", words);
    char dir[] = "/tmp/perftkit-completion-XXXXXX";
    cr_assert(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/run.journal", dir);
    FILE *file = fopen(path, "w");
    cr_assert(file);
    fclose(file);
    char line[256];
    snprintf(line, sizeof line, "perft count --resume %s/r", dir);
    words = complete(line);
    cr_assert(offers(words, path), "the journal file is offered: %s", words);
    snprintf(line, sizeof line, "perft suite %s/", dir);
    words = complete(line);
    cr_assert(offers(words, path), "suite's FILE operands are files: %s", words);
    remove(path);
    rmdir(dir);
}
