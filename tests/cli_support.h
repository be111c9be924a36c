/* cli_support.h — running a subcommand in-process, as the binary would: argv from a
 * blank-separated string (single quotes group words), stdout and stderr captured in
 * memory, the exit status returned. For the tests of the command layer. */
#ifndef PERFTKIT_TEST_CLI_SUPPORT_H
#define PERFTKIT_TEST_CLI_SUPPORT_H

#include "support.h"

#include <jansson.h>
#include <unistd.h>

#include "../cli/commands.h"

typedef struct CliRun {
    int status;
    char *out, *err; /* malloc'd, NUL-terminated; freed by cli_run_free() */
} CliRun;

/* Runs `perft ARGS` with `input` (NULL: empty) as stdin. */
static CliRun cli_run_input(const char *input, const char *format, ...) __attribute__((format(printf, 2, 3)));
static CliRun cli_run_input(const char *input, const char *format, ...) {
    char line[8192];
    va_list args;
    va_start(args, format);
    int length = vsnprintf(line, sizeof line, format, args);
    va_end(args);
    cr_assert(length >= 0 && (size_t)length < sizeof line, "arguments too long");
    char *argv[256] = {"perft"};
    int argc = 1;
    for (char *p = line; *p;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        cr_assert(argc < 255, "too many arguments");
        if (*p == '\'') {
            argv[argc++] = ++p;
            p += strcspn(p, "'");
        } else {
            argv[argc++] = p;
            p += strcspn(p, " ");
        }
        if (*p)
            *p++ = '\0';
    }
    argv[argc] = NULL;
    CliRun run = {0};
    size_t out_size, err_size;
    FILE *in = fmemopen((void *)(input ? input : ""), input ? strlen(input) + 1 : 1, "r");
    FILE *out = open_memstream(&run.out, &out_size), *err = open_memstream(&run.err, &err_size);
    cr_assert(in && out && err, "cannot open memory streams");
    run.status = cli_main(in, out, err, argc, argv);
    fclose(in);
    fclose(out);
    fclose(err);
    return run;
}

#define cli_run(...) cli_run_input(NULL, __VA_ARGS__)

static void cli_run_free(CliRun *run) {
    free(run->out);
    free(run->err);
}

/* The JSON document a run printed on stdout, which the test expects to be one. */
static json_t *parse_json(const CliRun *run) {
    json_error_t error;
    json_t *doc = json_loads(run->out, 0, &error);
    cr_assert(doc, "not JSON (%s): %s", error.text, run->out);
    return doc;
}
/* A fresh journal path in a temporary folder. */
static inline void temp_journal(char *path, size_t size) {
    char dir[] = "/tmp/perftkit-journal-XXXXXX";
    cr_assert(mkdtemp(dir), "cannot make a temporary folder");
    snprintf(path, size, "%s/run.jsonl", dir);
}

static inline void remove_journal(const char *path) {
    char other[600], dir[512];
    snprintf(other, sizeof other, "%s.pass2", path);
    unlink(path);
    unlink(other);
    snprintf(dir, sizeof dir, "%s", path);
    *strrchr(dir, '/') = '\0';
    rmdir(dir);
}

#endif
