/* json.c — jansson underneath; nothing else in perftkit formats JSON by hand. */
#include "json.h"

#include <errno.h>
#include <stdlib.h>

#include "config.h"
#include "text.h"

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
        json_array_append_new(list, o);
    }
    return list;
}

bool json_write(FILE *out, json_t *doc) {
    /* Dumped into memory first: a document that cannot be built whole (memory ran out)
     * writes nothing, rather than half a document. */
    char *text = doc ? json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) : NULL;
    json_decref(doc);
    if (!text) {
        errno = ENOMEM;
        return false;
    }
    bool ok = fputs(text, out) != EOF && fputc('\n', out) != EOF;
    free(text);
    return fflush(out) == 0 && ok && !ferror(out);
}
