/* manual.c — the man page perft(1) and the bash completion, made from the command table
 * and every subcommand's own option table (each subcommand is run with Cli.describe
 * set, so cli_parse hands over its table instead of parsing), so neither can drift from
 * --help. The build runs `perft --man-page` and `perft --bash-completion` and installs
 * what they print. Neither depends on the machine it is made on. */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "config.h"

/* Runs every subcommand of the table in describe mode. */
static void describe_commands(CliDescribe describe, void *context) {
    Cli *cli = calloc(1, sizeof *cli); /* large (a key set): not on the stack */
    if (!cli)
        return;
    for (const CommandEntry *c = cli_commands; c->name; c++) {
        *cli = (Cli){.in = stdin, .out = stdout, .err = stderr, .run = driver_run, .command = c->name,
                     .describe = describe, .describe_context = context};
        char *argv[] = {(char *)c->name, NULL};
        c->run(cli, 1, argv);
    }
    free(cli);
}

static bool takes_value(const CliOption *o) { return o->kind != CLI_FLAG; }

/* ---- The man page ---- */

/* The code point of the UTF-8 sequence at text[*i] (advancing *i past it), or -1 when
 * the bytes are not one. */
static long utf8_code_point(const char *text, size_t length, size_t *i) {
    unsigned char lead = (unsigned char)text[*i];
    int more = lead >= 0xf0 ? 3 : lead >= 0xe0 ? 2 : lead >= 0xc0 ? 1 : -1;
    if (more < 0 || *i + (size_t)more >= length)
        return -1;
    long code = lead & (0x3f >> more);
    for (int k = 1; k <= more; k++) {
        unsigned char next = (unsigned char)text[*i + (size_t)k];
        if ((next & 0xc0) != 0x80)
            return -1;
        code = code << 6 | (next & 0x3f);
    }
    *i += (size_t)more;
    return code;
}

/* Text in roff: backslashes and dashes escaped, a leading '.' or '\'' made literal,
 * characters beyond ASCII (the figurines) as groff's \[uXXXX], which every device reads. */
static void roff_text(FILE *out, const char *text, size_t length) {
    for (size_t i = 0; i < length; i++) {
        char c = text[i];
        if (i == 0 && (c == '.' || c == '\''))
            fputs("\\&", out);
        if (c == '\\') {
            fputs("\\e", out);
        } else if (c == '-') {
            fputs("\\-", out);
        } else if ((unsigned char)c >= 0x80) {
            long code = utf8_code_point(text, length, &i);
            if (code < 0)
                fputc('?', out);
            else
                fprintf(out, "\\[u%04lX]", code);
        } else {
            fputc(c, out);
        }
    }
}

/* Paragraphs of help text: blank lines part paragraphs, indented lines (lists, tables,
 * examples) are set as they are, the others are filled. */
static void roff_paragraphs(FILE *out, const char *text) {
    bool nofill = false;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        if (n == 0) {
            fputs(nofill ? ".fi\n.PP\n" : ".PP\n", out);
            nofill = false;
        } else {
            bool indented = p[0] == ' ';
            if (indented != nofill)
                fputs(indented ? ".nf\n" : ".fi\n", out);
            nofill = indented;
            roff_text(out, p, n);
            fputc('\n', out);
        }
        p += n;
        if (*p)
            p++;
    }
    if (nofill)
        fputs(".fi\n", out);
}

static void roff_option(FILE *out, const CliOption *o) {
    fputs(".TP\n", out);
    if (o->letter)
        fprintf(out, "\\fB\\-%c\\fR, ", o->letter);
    fputs("\\fB\\-\\-", out);
    roff_text(out, o->name, strlen(o->name));
    fputs("\\fR", out);
    if (takes_value(o)) {
        fputs(" \\fI", out);
        roff_text(out, o->arg, strlen(o->arg));
        fputs("\\fR", out);
    }
    fputc('\n', out);
    char tail[320];
    cli_option_default(o, true, tail, sizeof tail);
    for (const char *p = o->help;;) { /* help continues over '\n': one filled paragraph */
        size_t n = strcspn(p, "\n");
        roff_text(out, p, n);
        if (!p[n])
            break;
        fputc('\n', out);
        p += n + 1;
    }
    roff_text(out, tail, strlen(tail)); /* " (0..32; default 5)" or ": any of ...", after the last word */
    fputc('\n', out);
}

static const char *summary_of(const char *command) {
    for (const CommandEntry *c = cli_commands; c->name; c++)
        if (!strcmp(c->name, command))
            return c->summary;
    return "";
}

static void man_command(void *context, const char *command, const CliSpec *spec, const CliOption *options) {
    FILE *out = context;
    fprintf(out, ".SS \"perft %s\"\n", command);
    roff_text(out, summary_of(command), strlen(summary_of(command)));
    fprintf(out, "\n.PP\n.B perft %s\n.RI [ OPTIONS ]", command);
    if (spec->operands) {
        fputs("\n.I ", out);
        roff_text(out, spec->operands, strlen(spec->operands));
    }
    fputs("\n.PP\n", out);
    if (spec->summary)
        roff_paragraphs(out, spec->summary);
    fputs(".PP\nOptions:\n", out);
    for (const CliOption *o = options; o->name; o++)
        roff_option(out, o);
    roff_option(out, &(CliOption){.name = "help", .letter = 'h', .kind = CLI_FLAG, .help = "this text"});
    if (spec->epilogue) {
        fputs(".PP\n", out);
        roff_paragraphs(out, spec->epilogue);
    }
}

void cli_man_page(FILE *out) {
    fprintf(out, ".\\\" perft.1: made by `perft --man-page` from perftkit's option tables; do not edit.\n"
                 ".TH PERFT 1 \"\" \"perftkit %s\" \"User Commands\"\n"
                 ".SH NAME\n"
                 "perft \\- count the legal move paths of chess positions, exactly and fast\n"
                 ".SH SYNOPSIS\n"
                 ".B perft\n.I COMMAND\n.RI [ OPTIONS ]\n.br\n"
                 ".B perft\n.I COMMAND\n.B \\-\\-help\n.br\n"
                 ".B perft \\-\\-version\n"
                 ".SH DESCRIPTION\n"
                 "perftkit counts the legal move paths (perft) of chess and Chess960 positions, checks them\n"
                 "against known counts and against other engines, and measures how fast it does so.\n"
                 "Each command below has its own options; \\fBperft\\fR \\fICOMMAND\\fR \\fB\\-\\-help\\fR\n"
                 "prints them as this page does.\n"
                 ".PP\n"
                 "Options mean the same in every command: \\fB\\-d\\fR depth, \\fB\\-\\-fen\\fR,\n"
                 "\\fB\\-\\-startpos\\fR, \\fB\\-\\-moves\\fR, \\fB\\-\\-chess960\\fR, \\fB\\-t\\fR threads,\n"
                 "\\fB\\-\\-hash\\fR MB, \\fB\\-\\-key\\-seed\\fR, \\fB\\-\\-json\\fR, \\fB\\-q\\fR,\n"
                 "\\fB\\-\\-max\\-nodes\\fR and \\fB\\-\\-max\\-time\\fR.\n"
                 "Data goes to standard output; progress and diagnostics go to standard error.\n"
                 ".SH COMMANDS\n",
            PERFTKIT_VERSION);
    describe_commands(man_command, out);
    fputs(".SH \"EXIT STATUS\"\n", out);
    for (const CliExitStatus *e = cli_exit_statuses; e->meaning; e++) {
        fprintf(out, ".TP\n%d\n", e->code);
        roff_text(out, e->meaning, strlen(e->meaning));
        fputc('\n', out);
    }
    fputs(".SH ENVIRONMENT\n"
          ".TP\n.B NO_COLOR\n"
          "When set (to anything), no colour is used.\n"
          ".TP\n.B TERM\n"
          "When \\fBdumb\\fR, neither colour nor terminal control is used: no progress line is drawn.\n"
          "Progress is drawn only when standard error is a terminal, and colour only on a terminal.\n"
          ".SH \"SEE ALSO\"\n"
          "The C library: \\fB#include <perftkit/perftkit.h>\\fR and\n"
          "\\fBpkg\\-config \\-\\-cflags \\-\\-libs perftkit\\fR.\n"
          "The README of perftkit: formats, JSON schemas, the journal and benchmarks.\n",
          out);
}

/* ---- The bash completion ---- */

/* How the value of an option, or an operand, is completed. */
static const char *value_completion(const char *arg) {
    if (!arg)
        return NULL;
    if (strstr(arg, "FILE"))
        return "-f";
    if (strstr(arg, "DIR"))
        return "-d";
    return NULL;
}

static void bash_word_list(FILE *out, const char *choices) {
    for (const char *p = choices; *p; p++)
        fputc(*p == '|' ? ' ' : *p, out);
}

static void bash_command(void *context, const char *command, const CliSpec *spec, const CliOption *options) {
    FILE *out = context;
    fprintf(out, "    %s)\n        options=\"", command);
    for (const CliOption *o = options; o->name; o++) {
        if (o->letter)
            fprintf(out, "-%c ", o->letter);
        fprintf(out, "--%s ", o->name);
    }
    fputs("-h --help\"\n", out);
    const char *operands = spec->operands ? value_completion(spec->operands) : NULL;
    if (operands)
        fprintf(out, "        operands=%s\n", operands);
    fputs("        case $prev in\n", out);
    bool plain = false; /* values with nothing to offer: the next word is the value */
    for (const CliOption *o = options; o->name; o++) {
        if (!takes_value(o))
            continue;
        const char *files = value_completion(o->arg);
        if (o->choices || files) {
            fputs("        ", out);
            if (o->letter)
                fprintf(out, "-%c|", o->letter);
            fprintf(out, "--%s) ", o->name);
            if (o->choices) {
                fputs("COMPREPLY=($(compgen -W \"", out);
                bash_word_list(out, o->choices);
                fputs("\" -- \"$cur\")); return ;;\n", out);
            } else {
                fprintf(out, "compopt -o filenames; COMPREPLY=($(compgen %s -- \"$cur\")); return ;;\n", files);
            }
        }
    }
    for (const CliOption *o = options; o->name; o++) {
        if (!takes_value(o) || o->choices || value_completion(o->arg))
            continue;
        fputs(plain ? "|" : "        ", out);
        if (o->letter)
            fprintf(out, "-%c|", o->letter);
        fprintf(out, "--%s", o->name);
        plain = true;
    }
    if (plain)
        fputs(") return ;;\n", out);
    fputs("        esac\n        ;;\n", out);
}

void cli_bash_completion(FILE *out) {
    fprintf(out, "# bash completion for perft (perftkit %s): made by `perft --bash-completion` from its\n"
                 "# option tables; do not edit. Completes the commands, each command's options, the\n"
                 "# values of options that take a choice, and file names where a file is expected.\n"
                 "_perft() {\n"
                 "    local cur=${COMP_WORDS[COMP_CWORD]} prev= options= operands=\n"
                 "    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
                 "    COMPREPLY=()\n"
                 "    local commands=\"",
            PERFTKIT_VERSION);
    for (const CommandEntry *c = cli_commands; c->name; c++)
        fprintf(out, "%s ", c->name);
    fputs("help\"\n"
          "    if ((COMP_CWORD == 1)); then\n"
          "        COMPREPLY=($(compgen -W \"$commands --help --version\" -- \"$cur\"))\n"
          "        return\n"
          "    fi\n"
          "    case ${COMP_WORDS[1]} in\n"
          "    help)\n"
          "        ((COMP_CWORD == 2)) && COMPREPLY=($(compgen -W \"$commands\" -- \"$cur\"))\n"
          "        return\n"
          "        ;;\n",
          out);
    describe_commands(bash_command, out);
    fputs("    *) return ;;\n"
          "    esac\n"
          "    if [[ $cur == -* || -z $operands ]]; then\n"
          "        COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))\n"
          "    else\n"
          "        compopt -o filenames\n"
          "        COMPREPLY=($(compgen $operands -- \"$cur\"))\n"
          "    fi\n"
          "}\n"
          "complete -F _perft perft\n",
          out);
}
