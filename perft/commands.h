/* commands.h — the subcommands of the `perft` binary. Each takes its own argv
 * (argv[0] is the subcommand's name) and returns the process exit status. */
#ifndef PERFTKIT_COMMANDS_H
#define PERFTKIT_COMMANDS_H

int cmd_count(int argc, char **argv);
int cmd_divide(int argc, char **argv);
int cmd_suite(int argc, char **argv);

#endif
