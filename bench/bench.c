/* bench.c — running, fingerprinting, storing and comparing the benchmark. Runs of the
 * modes and thread counts are interleaved round by round, so a machine whose speed
 * drifts over minutes slows every setup alike instead of one. */
#include "bench.h"

#include "../perft/clock.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "../perft/driver.h"
#include "../io/outfile.h"
#include "../suites/suite.h"
#include "version.h"

const char *bench_mode_name(BenchMode mode) {
    static const char *const names[BENCH_MODES] = {"bulk", "full", "hashed"};
    return names[mode];
}

bool bench_error(char *error, size_t size, const char *format, ...) {
    va_list args;
    va_start(args, format);
    vsnprintf(error, size, format, args);
    va_end(args);
    return false;
}

/* FNV-1a over the text that defines the workload. */
static uint64_t fnv1a(uint64_t h, const char *text) {
    for (; *text; text++)
        h = (h ^ (unsigned char)*text) * 0x100000001B3ULL;
    return h;
}

static bool load(BenchWorkload *w, SuiteReader *reader, char *error, size_t size) {
    EpdRecord record;
    int line;
    char why[EPD_ERROR_SIZE + 64];
    w->checksum = 0xCBF29CE484222325ULL;
    SuiteItem item;
    while ((item = suite_next(reader, &record, &line, why, sizeof why)) != SUITE_END) {
        if (item == SUITE_MALFORMED)
            return bench_error(error, size, "workload %s:%d: %s", reader->name, reader->line_number, why);
        if (record.expectation_count < 2)
            return bench_error(error, size,
                               "workload %s:%d: a position needs two depths with counts (full mode counts the lower)",
                               reader->name, line);
        if (w->count == BENCH_MAX_POSITIONS)
            return bench_error(error, size, "workload %s: more than %d positions", reader->name, BENCH_MAX_POSITIONS);
        BenchPosition *p = &w->positions[w->count++];
        const EpdExpectation *deep = &record.expect[record.expectation_count - 1], *full = deep - 1;
        snprintf(p->id, sizeof p->id, "%s", record.id[0] ? record.id : "position");
        snprintf(p->fen, sizeof p->fen, "%s", record.fen);
        p->depth = deep->depth;
        p->nodes = deep->nodes;
        p->full_depth = full->depth;
        p->full_nodes = full->nodes;
        char text[COUNT_TEXT_SIZE];
        w->checksum = fnv1a(fnv1a(fnv1a(w->checksum, record.fen), count_format(p->nodes, false, text)),
                            count_format(p->full_nodes, false, text));
    }
    if (w->count == 0)
        return bench_error(error, size, "workload %s holds no position", reader->name);
    return true;
}

/* A first line "# NAME: ..." names the workload (bench-v1); else `fallback` does. */
static void name_workload(BenchWorkload *w, const char *first_line, const char *fallback) {
    size_t n = first_line && !strncmp(first_line, "# ", 2) ? strcspn(first_line + 2, ": \n") : 0;
    if (n && first_line[2 + n] == ':')
        snprintf(w->name, sizeof w->name, "%.*s", (int)n, first_line + 2);
    else
        snprintf(w->name, sizeof w->name, "%s", fallback);
}

bool bench_load_workload(BenchWorkload *w, const char *name, const char *const *lines, size_t line_count,
                         char *error, size_t size) {
    memset(w, 0, sizeof *w);
    name_workload(w, line_count ? lines[0] : NULL, name);
    SuiteReader reader;
    suite_open_lines(&reader, name, lines, line_count);
    bool ok = load(w, &reader, error, size);
    suite_close(&reader);
    return ok;
}

bool bench_load_workload_file(BenchWorkload *w, const char *path, char *error, size_t size) {
    memset(w, 0, sizeof *w);
    const char *slash = strrchr(path, '/');
    SuiteReader reader;
    if (!suite_open(&reader, path, error, size))
        return false;
    char first[256] = "";
    if (!fgets(first, sizeof first, reader.file))
        first[0] = '\0';
    if (fseek(reader.file, 0, SEEK_SET) != 0) {
        suite_close(&reader);
        return bench_error(error, size, "workload '%s' must be a regular file (it is read twice)", path);
    }
    name_workload(w, first, slash ? slash + 1 : path);
    bool ok = load(w, &reader, error, size);
    suite_close(&reader);
    return ok;
}

void bench_machine(BenchMachine *m) {
    memset(m, 0, sizeof *m);
    snprintf(m->cpu, sizeof m->cpu, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[4096];
    while (f && fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        if (!strncmp(line, "model name", 10) && !strcmp(m->cpu, "unknown"))
            snprintf(m->cpu, sizeof m->cpu, "%.*s", (int)strcspn(colon + 2, "\n"), colon + 2);
        if (!strncmp(line, "flags", 5)) {
            m->bmi2 = strstr(colon, " bmi2") != NULL;
            m->avx2 = strstr(colon, " avx2") != NULL;
            m->avx512 = strstr(colon, " avx512f") != NULL;
        }
    }
    if (f)
        fclose(f);
    m->cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
    m->memory_mb = (long)((double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE) / 1048576.0);
    snprintf(m->os, sizeof m->os, "unknown");
    if ((f = fopen("/etc/os-release", "r"))) {
        while (fgets(line, sizeof line, f))
            if (!strncmp(line, "PRETTY_NAME=", 12)) {
                char *v = line + 12 + (line[12] == '"');
                snprintf(m->os, sizeof m->os, "%.*s", (int)strcspn(v, "\"\n"), v);
            }
        fclose(f);
    }
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(m->kernel, sizeof m->kernel, "%s %s %s", u.sysname, u.release, u.machine);
    /* The folder name: the CPU model in lower case and dashes, and the core count. */
    size_t n = 0;
    for (const char *c = m->cpu; *c && n < sizeof m->name - 12; c++) {
        char ch = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
        bool word = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
        if (word)
            m->name[n++] = ch;
        else if (n && m->name[n - 1] != '-')
            m->name[n++] = '-';
    }
    while (n && m->name[n - 1] == '-')
        n--;
    snprintf(m->name + n, sizeof m->name - n, "%s%dc", n ? "-" : "", m->cores);
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One run of the whole workload in one setup; the seconds, or -1 on a wrong count. */
static double run_workload(const BenchWorkload *w, const BenchSetup *s, Driver *driver, char *error, size_t size) {
    driver->threads = s->threads;
    driver->full = s->mode == BENCH_FULL;
    driver->parallel_depth = 1;
    table_set_clear(&driver->tables);
    double start = clock_seconds();
    for (int i = 0; i < w->count; i++) {
        const BenchPosition *p = &w->positions[i];
        Position pos;
        if (!fen_parse(&pos, p->fen, false, error, size))
            return -1;
        int depth = s->mode == BENCH_FULL ? p->full_depth : p->depth;
        Count expected = s->mode == BENCH_FULL ? p->full_nodes : p->nodes;
        RunReport report;
        driver_run(driver, &pos, depth, NULL, NULL, &report);
        if (report.total != expected) {
            char a[COUNT_TEXT_SIZE], b[COUNT_TEXT_SIZE];
            bench_error(error, size, "wrong count for %s in %s mode on %d threads at depth %d: expected %s, got %s",
                        p->id, bench_mode_name(s->mode), s->threads, depth, count_format(expected, false, a),
                        count_format(report.total, false, b));
            return -1;
        }
    }
    return clock_seconds() - start;
}

bool bench_run(const BenchWorkload *w, const BenchOptions *o, BenchResult *r, char *error, size_t size) {
    memset(r, 0, sizeof *r);
    bench_machine(&r->machine);
    time_t t = time(NULL);
    strftime(r->date, sizeof r->date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
    r->repeat = o->repeat;
    int thread_counts[2] = {1, o->threads}, thread_setups = o->threads > 1 ? 2 : 1;
    for (int m = 0; m < BENCH_MODES; m++)
        for (int k = 0; o->modes[m] && k < thread_setups; k++) {
            BenchSetup *s = &r->setups[r->setup_count++];
            s->mode = (BenchMode)m;
            s->threads = thread_counts[k];
            for (int i = 0; i < w->count; i++)
                s->leaves += m == BENCH_FULL ? w->positions[i].full_nodes : w->positions[i].nodes;
        }
    Driver plain, hashed;
    if (!driver_create(&plain, o->threads, 0, error, size))
        return false;
    if (!driver_create(&hashed, o->threads, o->hash_bytes, error, size)) {
        driver_destroy(&plain);
        return false;
    }
    double start = clock_seconds();
    bool ok = true;
    for (int round = 0; round <= o->repeat && ok; round++) { /* round 0 warms up */
        for (int i = 0; i < r->setup_count && ok; i++) {
            BenchSetup *s = &r->setups[i];
            double seconds = run_workload(w, s, s->mode == BENCH_HASHED ? &hashed : &plain, error, size);
            ok = seconds >= 0;
            if (ok && round > 0)
                s->seconds[s->runs++] = seconds;
            if (ok && o->progress)
                fprintf(stderr, "bench: %s %s on %d thread%s: %.3f s\n", round ? "run" : "warm-up",
                        bench_mode_name(s->mode), s->threads, s->threads > 1 ? "s" : "", seconds);
        }
    }
    r->seconds = clock_seconds() - start;
    driver_destroy(&plain);
    driver_destroy(&hashed);
    for (int i = 0; ok && i < r->setup_count; i++) {
        BenchSetup *s = &r->setups[i];
        double sorted[BENCH_MAX_REPEAT];
        memcpy(sorted, s->seconds, sizeof(double) * (size_t)s->runs);
        qsort(sorted, (size_t)s->runs, sizeof sorted[0], compare_doubles);
        double median = s->runs % 2 ? sorted[s->runs / 2] : (sorted[s->runs / 2 - 1] + sorted[s->runs / 2]) / 2;
        double leaves = count_to_double(s->leaves);
        s->median_lps = leaves / median;
        s->min_lps = leaves / sorted[s->runs - 1];
        s->max_lps = leaves / sorted[0];
    }
    return ok;
}

void bench_write_json(FILE *out, const BenchWorkload *w, const BenchResult *r) {
    json_t *doc = json_object(), *machine = json_object(), *flags = json_object(), *build = json_object();
    json_object_set_new(doc, "schema", json_integer(1));
    json_object_set_new(doc, "kind", json_string("perftkit-bench"));
    json_t *workload = json_object();
    char checksum[24];
    snprintf(checksum, sizeof checksum, "%016llx", (unsigned long long)w->checksum);
    json_object_set_new(workload, "name", json_string(w->name));
    json_object_set_new(workload, "checksum", json_string(checksum));
    json_object_set_new(workload, "positions", json_integer(w->count));
    json_object_set_new(doc, "workload", workload);
    json_object_set_new(machine, "name", json_string(r->machine.name));
    json_object_set_new(machine, "cpu", json_string(r->machine.cpu));
    json_object_set_new(flags, "bmi2", json_boolean(r->machine.bmi2));
    json_object_set_new(flags, "avx2", json_boolean(r->machine.avx2));
    json_object_set_new(flags, "avx512f", json_boolean(r->machine.avx512));
    json_object_set_new(machine, "flags", flags);
    json_object_set_new(machine, "cores", json_integer(r->machine.cores));
    json_object_set_new(machine, "memory_mb", json_integer(r->machine.memory_mb));
    json_object_set_new(machine, "os", json_string(r->machine.os));
    json_object_set_new(machine, "kernel", json_string(r->machine.kernel));
    json_object_set_new(doc, "machine", machine);
    json_object_set_new(build, "version", json_string(PERFTKIT_VERSION));
    json_object_set_new(build, "commit", json_string(PERFTKIT_GIT_COMMIT));
    json_object_set_new(build, "compiler", json_string(PERFTKIT_COMPILER));
    json_object_set_new(build, "options", json_string(PERFTKIT_BUILD_OPTIONS));
    json_object_set_new(build, "attacks", json_string(atk_backend_name()));
    json_object_set_new(doc, "build", build);
    json_object_set_new(doc, "date", json_string(r->date));
    json_object_set_new(doc, "repeat", json_integer(r->repeat));
    json_object_set_new(doc, "warmup", json_integer(1));
    json_t *setups = json_array();
    for (int i = 0; i < r->setup_count; i++) {
        const BenchSetup *s = &r->setups[i];
        json_t *o = json_object(), *seconds = json_array();
        char leaves[COUNT_TEXT_SIZE];
        json_object_set_new(o, "mode", json_string(bench_mode_name(s->mode)));
        json_object_set_new(o, "threads", json_integer(s->threads));
        json_object_set_new(o, "leaves", json_string(count_format(s->leaves, false, leaves)));
        for (int k = 0; k < s->runs; k++)
            json_array_append_new(seconds, json_real(s->seconds[k]));
        json_object_set_new(o, "seconds", seconds);
        json_object_set_new(o, "median_leaves_per_second", json_real(s->median_lps));
        json_object_set_new(o, "min_leaves_per_second", json_real(s->min_lps));
        json_object_set_new(o, "max_leaves_per_second", json_real(s->max_lps));
        json_object_set_new(o, "median_ns_per_leaf", json_real(1e9 / s->median_lps));
        json_array_append_new(setups, o);
    }
    json_object_set_new(doc, "setups", setups);
    json_object_set_new(doc, "seconds", json_real(r->seconds));
    json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', out);
    json_decref(doc);
}

bool bench_save(const char *path, const BenchWorkload *w, const BenchResult *r, char *error, size_t size) {
    OutFile f;
    if (!outfile_open(&f, path, error, size))
        return false;
    bench_write_json(f.stream, w, r);
    return outfile_commit(&f, error, size);
}

int bench_compare(FILE *out, const BenchWorkload *w, const BenchResult *r, const char *baseline_path,
                  double max_regression_pct, char *error, size_t size) {
    json_error_t why;
    json_t *base = json_load_file(baseline_path, 0, &why);
    if (!base) {
        bench_error(error, size, "cannot read baseline '%s': %s (line %d)", baseline_path, why.text, why.line);
        return -1;
    }
    json_t *workload = json_object_get(base, "workload");
    const char *name = json_string_value(json_object_get(workload, "name"));
    const char *checksum = json_string_value(json_object_get(workload, "checksum"));
    char mine[24];
    snprintf(mine, sizeof mine, "%016llx", (unsigned long long)w->checksum);
    if (!json_is_array(json_object_get(base, "setups")) || !name || !checksum) {
        json_decref(base);
        bench_error(error, size, "baseline '%s' is not a perft bench result", baseline_path);
        return -1;
    }
    if (strcmp(checksum, mine)) {
        bench_error(error, size, "baseline '%s' was measured on workload %s (%s), this run on %s (%s): not comparable",
                    baseline_path, name, checksum, w->name, mine);
        json_decref(base);
        return -1;
    }
    int regressions = 0, compared = 0;
    size_t i;
    json_t *b;
    json_array_foreach(json_object_get(base, "setups"), i, b) {
        const char *mode = json_string_value(json_object_get(b, "mode"));
        int threads = (int)json_integer_value(json_object_get(b, "threads"));
        double then = json_number_value(json_object_get(b, "median_leaves_per_second"));
        for (int k = 0; mode && then > 0 && k < r->setup_count; k++) {
            const BenchSetup *s = &r->setups[k];
            if (strcmp(mode, bench_mode_name(s->mode)) || threads != s->threads)
                continue;
            double change = (s->median_lps / then - 1) * 100;
            bool slower = change < -max_regression_pct;
            regressions += slower;
            compared++;
            char verdict[64] = "";
            if (slower)
                snprintf(verdict, sizeof verdict, "   REGRESSION (more than %g%% slower)", max_regression_pct);
            fprintf(out, "%-7s %2d threads: %9.1f Mleaves/s, baseline %9.1f: %+6.1f%%%s\n", mode, threads,
                    s->median_lps / 1e6, then / 1e6, change, verdict);
        }
    }
    json_decref(base);
    if (!compared) {
        bench_error(error, size, "baseline '%s' has no mode and thread count in common with this run", baseline_path);
        return -1;
    }
    return regressions;
}
