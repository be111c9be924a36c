/* json.h — the one JSON writer. Every JSON document perftkit prints or stores is built
 * with jansson through these helpers and written whole, members in insertion order. A
 * document opens with "schema" (its number changes only with an incompatible change;
 * the schemas are in the README), "tool" and "command". Counts are decimal strings,
 * since they pass 2^53 (and 2^64). */
#ifndef PERFTKIT_JSON_H
#define PERFTKIT_JSON_H

#include <jansson.h>
#include <stdio.h>

#include "../core/core.h"
#include "../perft/count.h"
#include "../perft/table.h"

/* {"schema": schema, "tool": "perftkit VERSION", "command": command}. */
json_t *json_document(const char *command, int schema);

/* A count as a decimal string. */
json_t *json_count(Count n);

/* {"fen": ..., "chess960": ...}. */
json_t *json_position(const Position *pos);

/* Outside text (a file name) as a JSON string: as it is when it is UTF-8, which jansson
 * requires, else quoted with text_quote (io/text.h). */
json_t *json_outside_string(const char *text);

/* A 64-bit key seed as a "0x..." string (JSON numbers lose bits past 2^53). */
json_t *json_key_seed(uint64_t seed);

/* A number, or null when `present` is false. */
json_t *json_real_or_null(double x, bool present);

/* The statistics of the tables of a run, one object per hashed ply: ply,
 * remaining_depth, slots, probes, matches, match_rate, stores, used, fill,
 * replacements. The one shape of table statistics in every document. */
json_t *json_ply_stats(const PlyStats *stats, int count);

/* Writes `doc` (indented, then a newline) and drops the reference; false when the
 * write or the flush failed (a full disk, a closed pipe), or when memory ran out while
 * the document was built (a NULL `doc`) or dumped: then nothing is written. */
bool json_write(FILE *out, json_t *doc);

/* Sets member `key` of `object` to `value`, taking the reference (json_object_set_new
 * with a shorter name). */
static inline void json_set(json_t *object, const char *key, json_t *value) {
    json_object_set_new(object, key, value);
}

#endif
