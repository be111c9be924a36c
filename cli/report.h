/* report.h — what `count` and `divide` print about a run: root-move lines in UCI or
 * SAN, the per-ply table statistics, and the one JSON document of --json (its schema is
 * in the README and does not change without a new "schema" number). */
#ifndef PERFTKIT_REPORT_H
#define PERFTKIT_REPORT_H

#include <stdio.h>

#include "../perft/driver.h"

enum { REPORT_JSON_SCHEMA = 1 };


/* Statistics of every hashed ply of a run at `depth` (plies 1 .. depth - 2); returns
 * how many. `used` takes a scan of each table. */
int report_ply_stats(const TableSet *tables, const RunReport *run, PlyStats out[PERFT_MAX_DEPTH]);

/* "Ply:4  HT:[C:262144 P:119180 M:46328 R:0.3887 S:72852 U:62904 F:0.2400 X:20]" lines. */
void report_print_ply_stats(FILE *out, const PlyStats *stats, int count);

/* A root move as text, in UCI or SAN. */
typedef struct MoveLine {
    char move[SAN_MOVE_SIZE];
    char uci[UCI_MOVE_SIZE];
    Count count;
    bool complete;
} MoveLine;

/* The root moves of a run, sorted by their text (SAN with `san`, else UCI). */
int report_move_lines(const Position *root, const RunReport *run, bool san, MoveLine out[MAX_MOVES]);

/* Writes `text` as a JSON string, quotes included. */
void report_json_string(FILE *out, const char *text);

/* Opens a command's JSON document: schema, tool and command members, each on a line
 * ending in a comma. */
void report_json_open(FILE *out, const char *command);

/* Writes the member `"position": {"fen": ..., "chess960": ...}`, no comma or newline. */
void report_json_position(FILE *out, const Position *pos);

#endif
