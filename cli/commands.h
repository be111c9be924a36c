/* commands.h — the subcommands of the `perft` binary. Each takes its own argv
 * (argv[0] is the subcommand's name) and returns the process exit status. */
#ifndef PERFTKIT_COMMANDS_H
#define PERFTKIT_COMMANDS_H

int cmd_count(int argc, char **argv);
int cmd_divide(int argc, char **argv);
int cmd_suite(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_unique(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_uci(int argc, char **argv);
int cmd_perftree(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_results(int argc, char **argv);

/* Statistics tables and rows, shared by `stats` and `divide --stats`. */
#include <stdio.h>
typedef struct LeafStats LeafStats;
void stats_print_header(FILE *out, const char *first_column);
void stats_print_row(FILE *out, const char *label, LeafStats *s);
void stats_print_json_fields(FILE *out, LeafStats *s);

#endif
