/* options.c — the one option parser. It keeps no state between calls (no getopt
 * globals), so subcommands can run one after another in one process, as the tests
 * run them. Values are checked as they are read; the first bad one ends the parse
 * with one line naming the subcommand, the option and the reason. */
#include "options.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../io/text.h"
#include "cli.h"

enum { HELP_COLUMN = 25, HELP_WIDTH = 92 };

static bool takes_value(const CliOption *o) { return o->kind != CLI_FLAG; }

/* "--name" or "-d, --name", for messages. */
static const char *option_label(const CliOption *o, char *out, size_t size) {
    snprintf(out, size, "--%s", o->name);
    return out;
}

/* Item `index` of a '|'-separated list, into out; false past the end. */
static bool choice_at(const char *choices, int index, char *out, size_t size) {
    const char *p = choices;
    for (int i = 0; i < index; i++) {
        p = strchr(p, '|');
        if (!p)
            return false;
        p++;
    }
    size_t n = strcspn(p, "|");
    if (n >= size)
        n = size - 1;
    memcpy(out, p, n);
    out[n] = '\0';
    return true;
}

static int choice_index(const char *choices, const char *text, size_t length) {
    char item[64];
    for (int i = 0; choice_at(choices, i, item, sizeof item); i++)
        if (strlen(item) == length && !strncmp(item, text, length))
            return i;
    return -1;
}

/* "a, b or c". */
static const char *choice_list(const char *choices, char *out, size_t size) {
    char item[64];
    size_t n = 0;
    int count = 0;
    while (choice_at(choices, count, item, sizeof item))
        count++;
    out[0] = '\0';
    for (int i = 0; i < count && choice_at(choices, i, item, sizeof item); i++)
        n += (size_t)snprintf(out + n, n < size ? size - n : 0, "%s%s", i == 0 ? "" : i == count - 1 ? " or " : ", ",
                              item);
    return out;
}

static bool parse_long(const char *text, long *out) {
    char *end;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (end == text || *end || text[0] == ' ' || text[0] == '+' || errno == ERANGE)
        return false;
    *out = value;
    return true;
}

/* Reads `text` as the value of `o`; on failure prints why and returns false. */
static bool read_value(const Cli *cli, const CliOption *o, const char *text) {
    char label[64], shown[TEXT_QUOTE_SIZE], list[256];
    option_label(o, label, sizeof label);
    text_quote(text, shown);
    switch (o->kind) {
    case CLI_FLAG: *(bool *)o->value = true; return true;
    case CLI_STRING: *(const char **)o->value = text; return true;
    case CLI_INT:
    case CLI_THREADS:
    case CLI_MB: {
        long value, max = o->kind == CLI_MB ? cli_memory_mb(false) : o->max, min = o->kind == CLI_MB ? 0 : o->min;
        if (!parse_long(text, &value)) {
            /* a number too long for a long is out of range, not "not a number" */
            size_t digits = strspn(text + (text[0] == '-'), "0123456789");
            if (digits > 0 && text[(text[0] == '-') + digits] == '\0')
                return cli_error(cli, "%s %s is out of range %ld..%ld", label, shown, min, max), false;
            return cli_error(cli, "%s '%s' is not a whole number", label, shown), false;
        }
        if (value < min || value > max) {
            if (o->kind == CLI_MB && value > max)
                return cli_error(cli, "%s %ld is more than this machine's memory (%ld MB)", label, value, max), false;
            return cli_error(cli, "%s %ld is out of range %ld..%ld", label, value, min, max), false;
        }
        *(long *)o->value = value;
        return true;
    }
    case CLI_U64: {
        char *end;
        errno = 0;
        unsigned long long value = strtoull(text, &end, 0);
        if (end == text || *end || text[0] == '-' || text[0] == '+' || text[0] == ' ' || errno == ERANGE)
            return cli_error(cli, "%s '%s' is not a whole number of 64 bits (decimal or 0x hex)", label, shown),
                   false;
        *(uint64_t *)o->value = (uint64_t)value;
        return true;
    }
    case CLI_COUNT: {
        Count value;
        if (!count_parse(text, strlen(text), &value) || value < (Count)o->min)
            return cli_error(cli, "%s '%s' is not a whole number of at least %ld", label, shown, o->min), false;
        *(Count *)o->value = value;
        return true;
    }
    case CLI_SECONDS: {
        char *end;
        errno = 0;
        double value = strtod(text, &end);
        if (end == text || *end || errno || !isfinite(value) || !(value > 0) || value > 1e9)
            return cli_error(cli, "%s '%s' is not a number of seconds above 0", label, shown), false;
        *(double *)o->value = value;
        return true;
    }
    case CLI_CHOICE: {
        int index = choice_index(o->choices, text, strlen(text));
        if (index < 0)
            return cli_error(cli, "%s '%s' is not %s", label, shown, choice_list(o->choices, list, sizeof list)),
                   false;
        *(int *)o->value = index;
        return true;
    }
    case CLI_LIST: {
        unsigned set = 0;
        for (const char *p = text;;) {
            size_t n = strcspn(p, ",");
            int index = choice_index(o->choices, p, n);
            if (index < 0) {
                char item[TEXT_QUOTE_SIZE];
                text_quote_bytes(p, n, item);
                return cli_error(cli, "%s: '%s' is not %s", label, item, choice_list(o->choices, list, sizeof list)),
                       false;
            }
            set |= 1u << index;
            if (!p[n])
                break;
            p += n + 1;
        }
        *(unsigned *)o->value = set;
        return true;
    }
    }
    return false;
}

static const CliOption *find_long(const CliOption *options, const char *name, size_t length) {
    for (const CliOption *o = options; o->name; o++)
        if (strlen(o->name) == length && !strncmp(o->name, name, length))
            return o;
    return NULL;
}

static const CliOption *find_short(const CliOption *options, char letter) {
    for (const CliOption *o = options; o->name; o++)
        if (o->letter && o->letter == letter)
            return o;
    return NULL;
}

static bool is_help(const char *arg) { return !strcmp(arg, "--help") || !strcmp(arg, "-h"); }

static int unknown_option(const Cli *cli, const char *arg, size_t length) {
    char shown[TEXT_QUOTE_SIZE];
    text_quote_bytes(arg, length, shown);
    return cli_error(cli, "unknown option '%s' (try perft %s --help)", shown, cli->command);
}

/* Takes option `o`, whose value (if it takes one) is `inline_value` or the next
 * argument; returns false after printing why. */
static bool take(const Cli *cli, const CliOption *o, const char *inline_value, int argc, char **argv, int *i) {
    if (o->given)
        *o->given = true;
    if (!takes_value(o)) {
        if (inline_value) {
            char label[64];
            return cli_error(cli, "%s takes no value", option_label(o, label, sizeof label)), false;
        }
        return read_value(cli, o, NULL);
    }
    if (!inline_value) {
        if (*i + 1 >= argc) {
            char label[64];
            return cli_error(cli, "%s needs a value (%s)", option_label(o, label, sizeof label), o->arg), false;
        }
        inline_value = argv[++*i];
    }
    return read_value(cli, o, inline_value);
}

/* An argument no option or operand takes: most often the second word of an unquoted
 * FEN or move list. */
static int stray_argument(Cli *cli, const char *arg) {
    char shown[TEXT_QUOTE_SIZE];
    return cli_error(cli, "unexpected argument '%s' (a FEN or a move list must be quoted as one argument)",
                     text_quote(arg, shown));
}

int cli_parse(Cli *cli, const CliSpec *spec, const CliOption *options, int argc, char **argv,
              CliOperands *operands) {
    cli->command = argv[0];
    if (cli->describe) {
        cli->describe(cli->describe_context, cli->command, spec, options);
        return EXIT_OK;
    }
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
        if (is_help(argv[i])) {
            cli_print_help(cli, spec, options);
            return fflush(cli->out) == 0 ? EXIT_OK : EXIT_BAD_INPUT;
        }
    int count = 0;
    bool options_ended = false;
    for (int i = 1; i < argc; i++) {
        char *arg = argv[i];
        if (options_ended || arg[0] != '-' || arg[1] == '\0') {
            if (!spec->operands)
                return stray_argument(cli, arg);
            argv[++count] = arg; /* operands gather at the front, in order */
            continue;
        }
        if (!strcmp(arg, "--")) {
            options_ended = true;
            continue;
        }
        if (arg[1] == '-') {
            const char *name = arg + 2, *equals = strchr(name, '=');
            size_t length = equals ? (size_t)(equals - name) : strlen(name);
            const CliOption *o = find_long(options, name, length);
            if (!o)
                return unknown_option(cli, arg, length + 2);
            if (!take(cli, o, equals ? equals + 1 : NULL, argc, argv, &i))
                return EXIT_BAD_INPUT;
            continue;
        }
        for (const char *p = arg + 1; *p; p++) { /* -q, -d5, -d 5, -qd5 */
            const CliOption *o = find_short(options, *p);
            if (!o)
                return unknown_option(cli, p - 1 == arg ? arg : (char[]){'-', *p, 0}, 2);
            const char *value = takes_value(o) && p[1] ? p + 1 : NULL;
            if (!take(cli, o, value, argc, argv, &i))
                return EXIT_BAD_INPUT;
            if (takes_value(o))
                break;
        }
    }
    if (spec->operands) {
        if (count < spec->min_operands)
            return cli_error(cli, "%s: %s expected (try perft %s --help)", spec->operands,
                             spec->min_operands == 1 ? "one operand" : "more operands", cli->command);
        if (spec->max_operands >= 0 && count > spec->max_operands)
            return stray_argument(cli, argv[spec->max_operands + 1]);
    }
    if (operands) {
        operands->count = count;
        operands->items = argv + 1;
    }
    return CLI_CONTINUE;
}

void cli_option_default(const CliOption *o, bool portable, char *out, size_t size) {
    char list[256], item[64];
    out[0] = '\0';
    if (o->default_text && !o->default_text[0] && o->kind != CLI_INT && o->kind != CLI_CHOICE && o->kind != CLI_LIST)
        return;
    switch (o->kind) {
    case CLI_INT:
        if (o->default_text && o->default_text[0])
            snprintf(out, size, " (%ld..%ld; default %s)", o->min, o->max, o->default_text);
        else if (o->default_text)
            snprintf(out, size, " (%ld..%ld)", o->min, o->max);
        else
            snprintf(out, size, " (%ld..%ld; default %ld)", o->min, o->max, *(long *)o->value);
        break;
    case CLI_THREADS:
        if (portable)
            snprintf(out, size, " (%ld..%ld; default every processor)", o->min, o->max);
        else
            snprintf(out, size, " (%ld..%ld; default every processor, here %d)", o->min, o->max,
                     driver_available_threads());
        break;
    case CLI_U64:
        if (o->default_text)
            snprintf(out, size, " (default %s)", o->default_text);
        else
            snprintf(out, size, " (default 0x%llx)", (unsigned long long)*(uint64_t *)o->value);
        break;
    case CLI_CHOICE:
        choice_at(o->choices, *(int *)o->value, item, sizeof item);
        snprintf(out, size, ": %s (default %s)", choice_list(o->choices, list, sizeof list), item);
        break;
    case CLI_LIST: snprintf(out, size, ": any of %s", choice_list(o->choices, list, sizeof list)); break;
    default:
        if (o->default_text)
            snprintf(out, size, " (default %s)", o->default_text);
        break;
    }
}

static void print_option(FILE *out, const CliOption *o) {
    char left[96], tail[320];
    int n = snprintf(left, sizeof left, "  %c%c%s--%s%s%s", o->letter ? '-' : ' ', o->letter ? o->letter : ' ',
                     o->letter ? ", " : "  ", o->name, takes_value(o) ? " " : "", takes_value(o) ? o->arg : "");
    fputs(left, out);
    if (n >= HELP_COLUMN - 1)
        fprintf(out, "\n%*s", HELP_COLUMN, "");
    else
        fprintf(out, "%*s", HELP_COLUMN - n, "");
    cli_option_default(o, false, tail, sizeof tail);
    const char *p = o->help;
    int column = HELP_COLUMN;
    for (;;) {
        size_t line = strcspn(p, "\n");
        fwrite(p, 1, line, out);
        column += (int)line;
        if (!p[line])
            break;
        p += line + 1;
        fprintf(out, "\n%*s", HELP_COLUMN, "");
        column = HELP_COLUMN;
    }
    if (tail[0] && column + (int)strlen(tail) > HELP_WIDTH)
        fprintf(out, "\n%*s%s\n", HELP_COLUMN, "", tail[0] == ' ' ? tail + 1 : tail);
    else
        fprintf(out, "%s\n", tail);
}

void cli_print_help(const Cli *cli, const CliSpec *spec, const CliOption *options) {
    FILE *out = cli->out;
    fprintf(out, "usage: perft %s [OPTIONS]%s%s\n\n", cli->command, spec->operands ? " " : "",
            spec->operands ? spec->operands : "");
    if (spec->summary)
        fprintf(out, "%s\n", spec->summary);
    fputs("Options:\n", out);
    for (const CliOption *o = options; o->name; o++)
        print_option(out, o);
    print_option(out, &(CliOption){.name = "help", .letter = 'h', .kind = CLI_FLAG, .help = "this text"});
    if (spec->epilogue)
        fprintf(out, "\n%s", spec->epilogue);
}
