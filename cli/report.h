/* report.h — what the counting subcommands print about a run, as text and as JSON
 * members: root-move lines in UCI or SAN, the per-ply table statistics, and the rows
 * of perft statistics. JSON schemas are in the README and change only with their
 * "schema" number. */
#ifndef PERFTKIT_REPORT_H
#define PERFTKIT_REPORT_H

#include <stdio.h>

#include "../io/json.h"
#include "../perft/driver.h"
#include "../perft/stats.h"
#include "options.h"

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

/* The statistics table's header and rows: a first column, the wiki's columns, then the
 * Grand Chess Tree's eight check classes. */
void report_stats_header(FILE *out, const char *first_column);
void report_stats_row(FILE *out, const char *label, const LeafStats *s);

/* The statistics as a JSON object of decimal strings: {"nodes": "20", ...}. */
json_t *report_stats_json(const LeafStats *s);

/* The "options" member of a counting command's document: what ran, with the limits
 * asked for: threads, hash_mb, key_seed ("0x..."), max_time and max_nodes (null: none). */
json_t *report_options_json(const RunOptions *run, int threads);

#endif
