/* test_readme.c — the README cannot drift from the program: every example block that
 * starts with "$ build/cli/perft ..." is run (through the shell, with the binary under
 * test, in a fresh directory where suites/ is the source tree's, so the files an example
 * writes land there, not in the tree), and every count it shows must be printed again: "perft(N) = C", "Nodes
 * searched: C", divide lines "e2e4: C", suite summaries "N passed, N failed" and JSON
 * "total" members. Times and rates are not compared; they vary. */
#include <regex.h>

#include "support.h"

TestSuite(readme, .init = core_setup);

enum { MAX_EXAMPLES = 256 };

typedef struct Example {
    int line;
    char command[1024];
    char expected[16384];
} Example;

/* The examples of the README: a fenced block whose first line is "$ build/cli/perft ..."
 * (continued by trailing backslashes), and the block's lines up to the next "$ " line. */
static int read_examples(Example *out) {
    const char *path = getenv("PERFTKIT_README");
    cr_assert(path, "PERFTKIT_README is not set (run the tests through meson test)");
    FILE *f = fopen(path, "r");
    cr_assert(f, "cannot read %s", path);
    char line[4096];
    int n = 0, number = 0;
    bool in_block = false;
    Example *current = NULL;
    while (fgets(line, sizeof line, f)) {
        number++;
        if (!strncmp(line, "```", 3)) {
            in_block = !in_block;
            current = NULL;
            continue;
        }
        if (!in_block)
            continue;
        if (!strncmp(line, "$ build/cli/perft ", 18)) {
            cr_assert(n < MAX_EXAMPLES, "too many README examples");
            current = &out[n++];
            current->line = number;
            snprintf(current->command, sizeof current->command, "%s", line + 18);
            current->expected[0] = '\0';
            current->command[strcspn(current->command, "\n")] = '\0';
            continue;
        }
        if (!strncmp(line, "$ ", 2)) { /* another program's example */
            current = NULL;
            continue;
        }
        if (current && strlen(current->expected) + strlen(line) + 1 < sizeof current->expected)
            strcat(current->expected, line);
    }
    fclose(f);
    return n;
}

/* The count-bearing part of each expected line that has one, checked in `actual`. */
static int check_counts(const Example *e, const char *actual) {
    static const char *const patterns[] = {
        "perft\\([0-9]+\\) = [0-9]+",           "Nodes searched: [0-9]+",
        "^[a-h][1-8][a-h][1-8][qrbn]?: [0-9]+$", "[0-9]+ passed, [0-9]+ failed",
        "\"total\": \"[0-9]+\"",
    };
    int checked = 0;
    char expected[sizeof e->expected];
    snprintf(expected, sizeof expected, "%s", e->expected);
    for (char *save = NULL, *line = strtok_r(expected, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        for (size_t p = 0; p < sizeof patterns / sizeof patterns[0]; p++) {
            regex_t re;
            regmatch_t m;
            cr_assert(regcomp(&re, patterns[p], REG_EXTENDED) == 0);
            if (regexec(&re, line, 1, &m, 0) == 0) {
                char want[256];
                snprintf(want, sizeof want, "%.*s", (int)(m.rm_eo - m.rm_so), line + m.rm_so);
                cr_expect(strstr(actual, want), "README line %d: `perft %s` no longer prints '%s'; it printed:\n%s",
                          e->line, e->command, want, actual);
                checked++;
            }
            regfree(&re);
        }
    }
    return checked;
}

Test(readme, every_example_prints_the_counts_the_readme_shows, .timeout = 900) {
    static Example examples[MAX_EXAMPLES];
    int n = read_examples(examples), checked = 0, run = 0;
    const char *bin = getenv("PERFTKIT_BIN"), *suites = getenv("PERFTKIT_SUITES");
    cr_assert(bin && suites, "PERFTKIT_BIN or PERFTKIT_SUITES is not set");
    char dir[] = "/tmp/perftkit-readme-XXXXXX";
    cr_assert(mkdtemp(dir));
    cr_assert_eq(run_command("ln -s '%s' %s/suites", suites, dir).status, 0, "suites is an absolute path");
    for (int i = 0; i < n; i++) {
        Example *e = &examples[i];
        if (strchr(e->command, '\\') || !strncmp(e->command, "bench", 5))
            continue; /* continued lines, and the benchmark (minutes; its counts are its own test's) */
        int counts = 0;
        for (const char *p = e->expected; *p; p++)
            counts += (*p >= '0' && *p <= '9');
        if (counts == 0)
            continue;
        Run r = run_command("cd %s && timeout 300 %s %s 2>&1", dir, bin, e->command);
        run++;
        checked += check_counts(e, r.out);
    }
    run_command("rm -rf %s", dir);
    cr_assert(run >= 5, "only %d README examples found to run", run);
    cr_assert(checked >= 10, "only %d counts checked in the README examples", checked);
}
