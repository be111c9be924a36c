/* report.c — formatting a run for people and for programs. */
#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "../io/board.h"
#include "config.h"

/* The wiki's columns, then the Grand Chess Tree's classes: "chk" for checks that do
 * not mate, "mate" for mates; "disc" a discovered check, "dbl disc" two of them. */
static const char *const column_titles[STATS_FIELDS] = {
    "nodes", "captures", "e.p.", "castles", "promotions", "checks", "discovery", "double", "mates",
    "chk direct", "chk disc", "chk dir+disc", "chk dbl disc", "mate direct", "mate disc", "mate dir+disc",
    "mate dbl disc"};

void report_stats_header(FILE *out, const char *first_column) {
    fprintf(out, "%-8s", first_column);
    for (int i = 0; i < STATS_FIELDS; i++)
        fprintf(out, i == 0 ? "%16s" : "%14s", column_titles[i]);
    fputc('\n', out);
}

void report_stats_row(FILE *out, const char *label, const LeafStats *s) {
    char text[COUNT_TEXT_SIZE];
    size_t width = board_columns(label); /* a FAN label's figurine is one column, three bytes */
    fprintf(out, "%s%*s", label, width < 8 ? (int)(8 - width) : 0, "");
    for (int i = 0; i < STATS_FIELDS; i++)
        fprintf(out, i == 0 ? "%16s" : "%14s", count_format(s->field[i], false, text));
    fputc('\n', out);
}

json_t *report_stats_json(const LeafStats *s) {
    json_t *o = json_object();
    for (int i = 0; i < STATS_FIELDS; i++)
        json_set(o, stats_field_names[i], json_count(s->field[i]));
    return o;
}

json_t *report_options_json(const RunOptions *run, int threads) {
    json_t *o = json_object();
    json_set(o, "threads", json_integer(threads));
    json_set(o, "hash_mb", json_integer(run->hash_mb));
    json_set(o, "key_seed", json_key_seed(run->key_seed));
    json_set(o, "max_time", json_real_or_null(run->max_seconds, run->max_seconds > 0));
    json_set(o, "max_nodes", run->max_nodes ? json_count(run->max_nodes) : json_null());
    return o;
}

int report_ply_stats(const TableSet *tables, const RunReport *run, PlyStats out[PERFT_MAX_DEPTH]) {
    int n = 0;
    for (int ply = 1; ply <= run->depth - 2; ply++) {
        int remaining = run->depth - ply;
        const Table *t = table_for(tables, remaining);
        if (!t)
            continue;
        const TableCounters *c = &run->counters[remaining];
        out[n++] = (PlyStats){ply, remaining, table_slots(t), c->probes, c->hits, c->stores, table_used_slots(t),
                              c->replacements};
    }
    return n;
}

void report_print_ply_stats(FILE *out, const PlyStats *stats, int count) {
    if (count == 0)
        fputs("hash tables: none (hashing off, or the depth too small to hash)\n", out);
    for (int i = 0; i < count; i++) {
        const PlyStats *s = &stats[i];
        fprintf(out, "Ply:%d  HT:[C:%llu P:%llu M:%llu R:%.4f S:%llu U:%llu F:%.4f X:%llu]\n", s->ply,
                (unsigned long long)s->slots, (unsigned long long)s->probes, (unsigned long long)s->matches,
                s->probes ? (double)s->matches / (double)s->probes : 0.0, (unsigned long long)s->stores,
                (unsigned long long)s->used, s->slots ? (double)s->used / (double)s->slots : 0.0,
                (unsigned long long)s->replacements);
    }
}

static int compare_lines(const void *a, const void *b) {
    return strcmp(((const MoveLine *)a)->move, ((const MoveLine *)b)->move);
}

int report_move_lines(const Position *root, const RunReport *run, bool san, MoveLine out[MAX_MOVES]) {
    for (int i = 0; i < run->root_moves; i++) {
        move_to_uci(root, run->roots[i].move, out[i].uci);
        if (san)
            move_to_san(root, run->roots[i].move, out[i].move);
        else
            memcpy(out[i].move, out[i].uci, sizeof out[i].uci);
        out[i].count = run->roots[i].count;
        out[i].complete = run->roots[i].complete;
    }
    qsort(out, (size_t)run->root_moves, sizeof out[0], compare_lines);
    return run->root_moves;
}

