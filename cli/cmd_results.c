/* cmd_results.c — `perft results`: stored benchmark results side by side. */
#include <getopt.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "../bench/results.h"

static const char results_help[] =
    "usage: perft results [DIR] [--reference MACHINE] [--html FILE | --no-html]\n\n"
    "Reads every stored perft bench result under DIR (default: results) and prints a table:\n"
    "one row per result, one column per mode and thread count (1, or all cores), the median\n"
    "Mleaves/s and its ratio to the reference. Writes the same as a self-contained HTML page\n"
    "with an SVG chart (a bar per result and setup, error bars from the slowest to the\n"
    "fastest run) to DIR/index.html. Only results of the reference's workload are compared.\n\n"
    "      --reference MACHINE    compare with the newest result of MACHINE (default: the\n"
    "                             oldest result)\n"
    "      --html FILE            where to write the page (default: DIR/index.html)\n"
    "      --no-html              the table only\n"
    "  -h, --help                 this text\n\n"
    "Exit status: 0 done, 2 unreadable folder, no results, or an unwritable page.\n";

int cmd_results(Cli *cli, int argc, char **argv) {
    (void)cli;
    enum { OPT_REFERENCE = CLI_OPT_FIRST_FREE, OPT_HTML, OPT_NO_HTML };
    static const struct option long_options[] = {
        {"reference", required_argument, NULL, OPT_REFERENCE}, {"html", required_argument, NULL, OPT_HTML},
        {"no-html", no_argument, NULL, OPT_NO_HTML},           {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    const char *reference = NULL, *html = NULL;
    bool write_html = true;
    cli_options_start();
    for (;;) {
        int c = getopt_long(argc, argv, ":h", long_options, NULL);
        if (c == -1)
            break;
        switch (c) {
        case OPT_REFERENCE: reference = optarg; break;
        case OPT_HTML: html = optarg; break;
        case OPT_NO_HTML: write_html = false; break;
        case 'h': fputs(results_help, stdout); return EXIT_OK;
        default: return cli_option_problem("results", c, argv);
        }
    }
    if (argc - optind > 1)
        return cli_fail("results", "unexpected argument '%s' (one folder at most)", argv[optind + 1]);
    const char *dir = optind < argc ? argv[optind] : "results";
    ResultSet set;
    char error[512], page[4096];
    if (!results_load(dir, &set, stderr, error, sizeof error))
        return cli_fail("results", "%s", error);
    if (set.count == 0) {
        results_free(&set);
        return cli_fail("results", "no perft bench result under '%s' (perft bench --json stores one)", dir);
    }
    int ref = results_reference(&set, reference);
    if (ref < 0) {
        results_free(&set);
        return cli_fail("results", "--reference: no result of machine '%s' under '%s'", reference, dir);
    }
    printf("%d result%s under %s", set.count, set.count > 1 ? "s" : "", dir);
    if (set.other_json)
        printf(" (and %d other JSON file%s passed over)", set.other_json, set.other_json > 1 ? "s" : "");
    printf("\n");
    results_print_table(stdout, &set, ref);
    int status = EXIT_OK;
    if (write_html) {
        snprintf(page, sizeof page, "%s", html ? html : "");
        if (!html)
            snprintf(page, sizeof page, "%s/index.html", dir);
        if (results_write_html(page, &set, ref, error, sizeof error))
            printf("page: %s\n", page);
        else
            status = cli_fail("results", "%s", error);
    }
    results_free(&set);
    return status;
}
