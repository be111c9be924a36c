/* cmd_results.c — `perft results`: stored benchmark results side by side, as a table
 * and as a self-contained HTML page. */
#include <string.h>

#include "../bench/results.h"
#include "../io/text.h"
#include "commands.h"

typedef struct ResultsCommand {
    const char *reference, *html;
    bool no_html;
} ResultsCommand;

static const CliSpec results_spec = {
    .operands = "[DIR]",
    .min_operands = 0,
    .max_operands = 1,
    .summary =
        "Reads every stored perft bench result under DIR (default: results) and prints a table:\n"
        "one row per result, one column per mode and thread count (1, or all cores), the median\n"
        "Mleaves/s and its ratio to the reference. Writes the same as a self-contained HTML page\n"
        "with an SVG chart (a bar per result and setup, error bars from the slowest to the\n"
        "fastest run) to DIR/index.html. Only results of the reference's workload are compared;\n"
        "other JSON files (hyperfine's exports) are passed over, unreadable ones named on stderr.\n",
    .epilogue = "Example: perft bench --results results && perft results   store a run, then compare\n"
                "Exit status: 0 done, 2 unreadable folder, no results, or an unwritable page.\n",
};

static void warn(void *context, const char *message) { cli_error(context, "%s", message); }

int cmd_results(Cli *cli, int argc, char **argv) {
    ResultsCommand o = {0};
    const CliOption options[] = {
        CLI_OPT_STRING("reference", 0, "MACHINE", &o.reference,
                       "compare with the newest result of MACHINE (default: the\noldest result)"),
        CLI_OPT_STRING("html", 0, "FILE", &o.html, "where to write the page (default: DIR/index.html)"),
        CLI_OPT_FLAG("no-html", 0, &o.no_html, "the table only"),
        CLI_OPT_END,
    };
    CliOperands operands;
    int status = cli_parse(cli, &results_spec, options, argc, argv, &operands);
    if (status != CLI_CONTINUE)
        return status;
    if (o.html && o.no_html)
        return cli_error(cli, "--html and --no-html both given; choose one");
    const char *dir = operands.count ? operands.items[0] : "results";
    char error[512], page[4096], shown[TEXT_QUOTE_SIZE], machine[TEXT_QUOTE_SIZE];
    ResultSet set;
    if (!results_load(dir, &set, warn, cli, error, sizeof error))
        return cli_error(cli, "%s", error);
    text_quote(dir, shown);
    if (set.count == 0) {
        results_free(&set);
        return cli_error(cli, "no perft bench result under '%s' (perft bench --results DIR stores one)", shown);
    }
    int ref = results_reference(&set, o.reference);
    if (ref < 0) {
        results_free(&set);
        return cli_error(cli, "--reference: no result of machine '%s' under '%s'", text_quote(o.reference, machine),
                         shown);
    }
    fprintf(cli->out, "%d result%s under %s", set.count, set.count > 1 ? "s" : "", dir);
    if (set.other_json)
        fprintf(cli->out, " (and %d other JSON file%s passed over)", set.other_json, set.other_json > 1 ? "s" : "");
    fprintf(cli->out, "\n");
    results_print_table(cli->out, &set, ref);
    if (!o.no_html) {
        snprintf(page, sizeof page, "%s", o.html ? o.html : "");
        if (!o.html)
            snprintf(page, sizeof page, "%s/index.html", dir);
        if (results_write_html(page, &set, ref, error, sizeof error))
            fprintf(cli->out, "page: %s\n", page);
        else
            status = cli_error(cli, "%s", error);
    }
    results_free(&set);
    return status == CLI_CONTINUE ? cli_flush(cli) : status;
}
