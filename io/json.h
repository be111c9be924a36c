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
 * the document was built (a NULL `doc`, or a json_set or json_append that failed on
 * this thread since the last json_write) or dumped: then nothing is written, never a
 * document with a member missing. */
bool json_write(FILE *out, json_t *doc);

/* `doc` as text (jansson's dump `flags`) ending in a newline (and a NUL), in memory to
 * free; its length (the newline included) in *length. NULL when memory ran out. Never
 * a text with a part left out, as json_dumps may give when memory runs out in the
 * middle (jansson 2.14 drops a member's key whose copy fails): the size is found
 * first and the text written into it. */
char *json_to_text(const json_t *doc, size_t flags, size_t *length);

/* Sets member `key` of `object` to `value`, taking the reference. When it cannot (no
 * memory for `value`, the object or the member), the next json_write on this thread
 * refuses its document, as errno remembers a failure until it is looked at. */
void json_set(json_t *object, const char *key, json_t *value);

/* Appends `value` to `array`, taking the reference; a failure as with json_set. */
void json_append(json_t *array, json_t *value);

/* Sets every member of `members` in `object`, taking the reference of `members`; a
 * failure as with json_set. */
void json_merge(json_t *object, json_t *members);

#endif
