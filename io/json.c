/* json.c — jansson underneath; nothing else in perftkit formats JSON by hand. */
#include "json.h"

#include <errno.h>
#include <stdlib.h>

#include "config.h"
#include "text.h"

/* A json_set or json_append failed on this thread since the last json_write (whose
 * document then lacks a member, so it is refused). Per thread, like errno. */
static _Thread_local bool building_failed;

void json_set(json_t *object, const char *key, json_t *value) {
    if (json_object_set_new(object, key, value)) /* it drops `value` when it fails, NULL is a failure */
        building_failed = true;
}

void json_append(json_t *array, json_t *value) {
    if (json_array_append_new(array, value))
        building_failed = true;
}

void json_merge(json_t *object, json_t *members) {
    if (json_object_update(object, members))
        building_failed = true;
    json_decref(members);
}

json_t *json_document(const char *command, int schema) {
    json_t *doc = json_object();
    json_set(doc, "schema", json_integer(schema));
    json_set(doc, "tool", json_string("perftkit " PERFTKIT_VERSION));
    json_set(doc, "command", json_string(command));
    return doc;
}

json_t *json_count(Count n) {
    char text[COUNT_TEXT_SIZE];
    return json_string(count_format(n, false, text));
}

json_t *json_position(const Position *pos) {
    char fen[FEN_BUFFER_SIZE];
    json_t *o = json_object();
    json_set(o, "fen", json_string(fen_write(pos, fen)));
    json_set(o, "chess960", json_boolean(pos->chess960));
    return o;
}

json_t *json_outside_string(const char *text) {
    json_t *s = json_string(text);
    char shown[TEXT_QUOTE_SIZE];
    return s ? s : json_string(text_quote(text, shown));
}

json_t *json_key_seed(uint64_t seed) {
    char text[24];
    snprintf(text, sizeof text, "0x%llx", (unsigned long long)seed);
    return json_string(text);
}

json_t *json_real_or_null(double x, bool present) { return present ? json_real(x) : json_null(); }

json_t *json_ply_stats(const PlyStats *stats, int count) {
    json_t *list = json_array();
    for (int i = 0; i < count; i++) {
        const PlyStats *s = &stats[i];
        json_t *o = json_object();
        json_set(o, "ply", json_integer(s->ply));
        json_set(o, "remaining_depth", json_integer(s->remaining));
        json_set(o, "slots", json_integer((json_int_t)s->slots));
        json_set(o, "probes", json_integer((json_int_t)s->probes));
        json_set(o, "matches", json_integer((json_int_t)s->matches));
        json_set(o, "match_rate", json_real(s->probes ? (double)s->matches / (double)s->probes : 0.0));
        json_set(o, "stores", json_integer((json_int_t)s->stores));
        json_set(o, "used", json_integer((json_int_t)s->used));
        json_set(o, "fill", json_real(s->slots ? (double)s->used / (double)s->slots : 0.0));
        json_set(o, "replacements", json_integer((json_int_t)s->replacements));
        json_append(list, o);
    }
    return list;
}

char *json_to_text(const json_t *doc, size_t flags, size_t *length) {
    /* Counting into no buffer allocates nothing but jansson's loop check, whose failure
     * it reports (0), unlike a failure of its growing buffer in json_dumps. */
    size_t size = doc ? json_dumpb(doc, NULL, 0, flags) : 0;
    char *text = size && size < SIZE_MAX - 1 ? malloc(size + 2) : NULL;
    if (text && json_dumpb(doc, text, size, flags) != size) {
        free(text);
        text = NULL;
    }
    if (!text)
        return NULL;
    text[size] = '\n';
    text[size + 1] = '\0';
    *length = size + 1;
    return text;
}

bool json_write(FILE *out, json_t *doc) {
    /* Dumped into memory first: a document that cannot be built whole (memory ran out)
     * writes nothing, rather than half a document. */
    size_t length = 0;
    char *text = building_failed ? NULL : json_to_text(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(10), &length);
    building_failed = false;
    json_decref(doc);
    if (!text) {
        errno = ENOMEM;
        return false;
    }
    bool ok = fwrite(text, 1, length, out) == length;
    free(text);
    return fflush(out) == 0 && ok && !ferror(out);
}
