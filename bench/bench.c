/* bench.c — running, fingerprinting, storing and comparing the benchmark. Runs of the
 * modes and thread counts are interleaved round by round, so a machine whose speed
 * drifts over minutes slows every setup alike instead of one. */
#include "bench.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "../io/outfile.h"
#include "../io/text.h"
#include "../perft/clock.h"
#include "../perft/driver.h"
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
    char name[TEXT_QUOTE_SIZE];
    text_quote(reader->name, name);
    while ((item = suite_next(reader, &record, &line, why, sizeof why)) != SUITE_END) {
        if (item == SUITE_MALFORMED)
            return bench_error(error, size, "workload %s:%d: %s", name, reader->line_number, why);
        if (record.expectation_count < 2)
            return bench_error(error, size,
                               "workload %s:%d: a position needs two depths with counts (full mode counts the lower)",
                               name, line);
        if (w->count == BENCH_MAX_POSITIONS)
            return bench_error(error, size, "workload %s: more than %d positions", name, BENCH_MAX_POSITIONS);
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
        return bench_error(error, size, "workload %s holds no position", name);
    return true;
}

/* A first line "# NAME: ..." names the workload (bench-v1); else `fallback` does. */
static void name_workload(BenchWorkload *w, const char *first_line, const char *fallback) {
    if (first_line)
        first_line += text_bom_length(first_line, strlen(first_line)); /* as the suite reader does */
    size_t n = first_line && !strncmp(first_line, "# ", 2) ? strcspn(first_line + 2, ": \n") : 0;
    for (size_t i = 0; i < n; i++)
        if (first_line[2 + i] <= ' ' || first_line[2 + i] >= 0x7f) /* a name is printed: plain ASCII only */
            n = 0;
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
        char shown[TEXT_QUOTE_SIZE];
        return bench_error(error, size, "workload '%s' must be a regular file (it is read twice)",
                           text_quote(path, shown));
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

/* One run of the whole workload in one setup; the seconds, or -1 on a wrong count (which
 * sets *wrong) or a FEN the driver refuses. */
static double run_workload(const BenchWorkload *w, const BenchSetup *s, Driver *driver, bool *wrong, char *error,
                           size_t size) {
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
            *wrong = true;
            char a[COUNT_TEXT_SIZE], b[COUNT_TEXT_SIZE], id[TEXT_QUOTE_SIZE];
            bench_error(error, size, "wrong count for %s in %s mode on %d threads at depth %d: expected %s, got %s",
                        text_quote(p->id, id), bench_mode_name(s->mode), s->threads, depth,
                        count_format(expected, false, a), count_format(report.total, false, b));
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
    r->threads = o->threads;
    r->hash_mb = o->hash_mb;
    r->key_seed = o->key_seed;
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
    if (!driver_create(&hashed, o->threads, (size_t)o->hash_mb << 20, error, size)) {
        driver_destroy(&plain);
        return false;
    }
    double start = clock_seconds();
    bool ok = true;
    for (int round = 0; round <= o->repeat && ok; round++) { /* round 0 warms up */
        for (int i = 0; i < r->setup_count && ok; i++) {
            BenchSetup *s = &r->setups[i];
            double seconds = run_workload(w, s, s->mode == BENCH_HASHED ? &hashed : &plain, &r->wrong_count, error,
                                          size);
            ok = seconds >= 0;
            if (ok && round > 0)
                s->seconds[s->runs++] = seconds;
            if (ok && o->progress) {
                fprintf(o->progress, "bench: %s %s on %d thread%s: %.3f s\n", round ? "run" : "warm-up",
                        bench_mode_name(s->mode), s->threads, s->threads > 1 ? "s" : "", seconds);
                fflush(o->progress);
            }
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

static const char *hex64(uint64_t x, const char *format, char out[24]) {
    snprintf(out, 24, format, (unsigned long long)x);
    return out;
}

static json_t *machine_json(const BenchMachine *m) {
    json_t *machine = json_object(), *flags = json_object();
    json_set(machine, "name", json_string(m->name));
    json_set(machine, "cpu", json_string(m->cpu));
    json_set(flags, "bmi2", json_boolean(m->bmi2));
    json_set(flags, "avx2", json_boolean(m->avx2));
    json_set(flags, "avx512f", json_boolean(m->avx512));
    json_set(machine, "flags", flags);
    json_set(machine, "cores", json_integer(m->cores));
    json_set(machine, "memory_mb", json_integer(m->memory_mb));
    json_set(machine, "os", json_string(m->os));
    json_set(machine, "kernel", json_string(m->kernel));
    return machine;
}

static json_t *build_json(void) {
    json_t *build = json_object();
    json_set(build, "version", json_string(PERFTKIT_VERSION));
    json_set(build, "commit", json_string(PERFTKIT_GIT_COMMIT));
    json_set(build, "compiler", json_string(PERFTKIT_COMPILER));
    json_set(build, "options", json_string(PERFTKIT_BUILD_OPTIONS));
    json_set(build, "attacks", json_string(atk_backend_name()));
    return build;
}

void bench_print_fingerprint(FILE *out, const BenchMachine *m) {
    fprintf(out, "%s\ncpu: %s\ncores: %d\nmemory: %ld MB\nflags:%s%s%s\nos: %s\nkernel: %s\nperftkit: %s, commit %s\n"
            "compiler: %s\nbuild: %s\n", m->name, m->cpu, m->cores, m->memory_mb, m->bmi2 ? " bmi2" : "",
            m->avx2 ? " avx2" : "", m->avx512 ? " avx512f" : "", m->os, m->kernel, PERFTKIT_VERSION,
            PERFTKIT_GIT_COMMIT, PERFTKIT_COMPILER, PERFTKIT_BUILD_OPTIONS);
}

json_t *bench_fingerprint_json(const BenchMachine *m) {
    json_t *doc = json_document("bench", BENCH_JSON_SCHEMA);
    json_set(doc, "kind", json_string("perftkit-fingerprint"));
    json_set(doc, "machine", machine_json(m));
    json_set(doc, "build", build_json());
    return doc;
}

void bench_print_header(FILE *out, const BenchWorkload *w, const BenchOptions *o, const BenchMachine *m) {
    fprintf(out, "perftkit bench: workload %s (%d positions), %d timed runs per setup after a warm-up\n", w->name,
            w->count, o->repeat);
    fprintf(out, "machine: %s (%s, %d cores, %ld MB%s%s%s), %s, %s\n", m->name, m->cpu, m->cores, m->memory_mb,
            m->bmi2 ? ", bmi2" : "", m->avx2 ? ", avx2" : "", m->avx512 ? ", avx512f" : "", m->os, m->kernel);
    fprintf(out, "build: perftkit %s, commit %s, %s, %s\n", PERFTKIT_VERSION, PERFTKIT_GIT_COMMIT, PERFTKIT_COMPILER,
            PERFTKIT_BUILD_OPTIONS);
    fflush(out);
}

void bench_print_table(FILE *out, const BenchResult *r) {
    char text[COUNT_TEXT_SIZE];
    fprintf(out, "\n%-7s %7s %14s %10s %10s %10s %9s\n", "mode", "threads", "leaves", "median", "min", "max",
            "ns/leaf");
    fprintf(out, "%-7s %7s %14s %10s %10s %10s %9s\n", "", "", "", "Ml/s", "Ml/s", "Ml/s", "median");
    for (int i = 0; i < r->setup_count; i++) {
        const BenchSetup *s = &r->setups[i];
        fprintf(out, "%-7s %7d %14s %10.1f %10.1f %10.1f %9.3f\n", bench_mode_name(s->mode), s->threads,
                count_format(s->leaves, false, text), s->median_lps / 1e6, s->min_lps / 1e6, s->max_lps / 1e6,
                1e9 / s->median_lps);
    }
    fprintf(out, "total %.1f s\n", r->seconds);
}

json_t *bench_json(const BenchWorkload *w, const BenchResult *r) {
    char text[24];
    json_t *doc = json_document("bench", BENCH_JSON_SCHEMA);
    json_set(doc, "kind", json_string("perftkit-bench"));
    json_t *workload = json_object();
    json_set(workload, "name", json_string(w->name));
    json_set(workload, "checksum", json_string(hex64(w->checksum, "%016llx", text)));
    json_set(workload, "positions", json_integer(w->count));
    json_set(doc, "workload", workload);
    json_set(doc, "machine", machine_json(&r->machine));
    json_set(doc, "build", build_json());
    json_t *options = json_object();
    json_set(options, "threads", json_integer(r->threads));
    json_set(options, "hash_mb", json_integer(r->hash_mb));
    json_set(options, "key_seed", json_key_seed(r->key_seed));
    json_set(doc, "options", options);
    json_set(doc, "date", json_string(r->date));
    json_set(doc, "repeat", json_integer(r->repeat));
    json_set(doc, "warmup", json_integer(1));
    json_t *setups = json_array();
    for (int i = 0; i < r->setup_count; i++) {
        const BenchSetup *s = &r->setups[i];
        json_t *o = json_object(), *seconds = json_array();
        json_set(o, "mode", json_string(bench_mode_name(s->mode)));
        json_set(o, "threads", json_integer(s->threads));
        json_set(o, "leaves", json_count(s->leaves));
        for (int k = 0; k < s->runs; k++)
            json_append(seconds, json_real(s->seconds[k]));
        json_set(o, "seconds", seconds);
        json_set(o, "median_leaves_per_second", json_real(s->median_lps));
        json_set(o, "min_leaves_per_second", json_real(s->min_lps));
        json_set(o, "max_leaves_per_second", json_real(s->max_lps));
        json_set(o, "median_ns_per_leaf", json_real(1e9 / s->median_lps));
        json_append(setups, o);
    }
    json_set(doc, "setups", setups);
    json_set(doc, "seconds", json_real(r->seconds));
    return doc;
}

/* Creates every folder of `path`; false with errno set when one cannot be made. */
static bool make_folders(char *path) {
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        bool ok = mkdir(path, 0777) == 0 || errno == EEXIST;
        *p = '/';
        if (!ok)
            return false;
    }
    return mkdir(path, 0777) == 0 || errno == EEXIST;
}

bool bench_result_path(const char *dir, const char *machine, char *out, size_t size, char *error, size_t error_size) {
    char folder[4096], date[16], shown[TEXT_QUOTE_SIZE];
    time_t t = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&t));
    snprintf(folder, sizeof folder, "%s/%s", dir, machine);
    if (!make_folders(folder) || access(folder, W_OK) != 0)
        return bench_error(error, error_size, "cannot write results under '%s': %s", text_quote(dir, shown),
                           strerror(errno));
    for (int n = 1; n < 1000; n++) {
        if (n == 1)
            snprintf(out, size, "%s/%s-%s.json", folder, date, PERFTKIT_GIT_COMMIT);
        else
            snprintf(out, size, "%s/%s-%s-%d.json", folder, date, PERFTKIT_GIT_COMMIT, n);
        if (access(out, F_OK) != 0)
            return bench_can_save(out, error, error_size);
    }
    return bench_error(error, error_size, "cannot write results under '%s': 999 results of today already",
                       text_quote(dir, shown));
}

bool bench_can_save(const char *path, char *error, size_t size) {
    OutFile f;
    if (!outfile_open(&f, path, error, size))
        return false;
    outfile_abandon(&f);
    return true;
}

bool bench_save(const char *path, const BenchWorkload *w, const BenchResult *r, char *error, size_t size) {
    OutFile f;
    if (!outfile_open(&f, path, error, size))
        return false;
    if (!json_write(f.stream, bench_json(w, r))) { /* out of memory, or a failed write: nothing replaced */
        int why = errno;
        char shown[TEXT_QUOTE_SIZE];
        outfile_abandon(&f);
        return bench_error(error, size, "cannot write '%s': %s", text_quote(path, shown), strerror(why ? why : ENOMEM));
    }
    return outfile_commit(&f, error, size);
}

/* The stored result at `path`, checked to be of workload `w`; NULL with the reason. */
static json_t *load_baseline(const char *path, const BenchWorkload *w, char *error, size_t size) {
    char shown[TEXT_QUOTE_SIZE], why_shown[TEXT_QUOTE_SIZE], name_shown[TEXT_QUOTE_SIZE];
    char mine_shown[TEXT_QUOTE_SIZE];
    text_quote(path, shown);
    json_error_t why;
    json_t *base = json_load_file(path, 0, &why);
    if (!base) {
        bench_error(error, size, "cannot read baseline '%s': %s (line %d)", shown, text_quote(why.text, why_shown),
                    why.line);
        return NULL;
    }
    json_t *workload = json_object_get(base, "workload");
    const char *name = json_string_value(json_object_get(workload, "name"));
    const char *checksum = json_string_value(json_object_get(workload, "checksum"));
    const char *kind = json_string_value(json_object_get(base, "kind"));
    char mine[24];
    hex64(w->checksum, "%016llx", mine);
    if (!kind || strcmp(kind, "perftkit-bench") || !json_is_array(json_object_get(base, "setups")) || !name
        || !checksum) {
        json_decref(base);
        bench_error(error, size, "baseline '%s' is not a perft bench result", shown);
        return NULL;
    }
    if (strcmp(checksum, mine)) {
        bench_error(error, size, "baseline '%s' was measured on workload %s (%s), this run on %s (%s): not comparable",
                    shown, text_quote(name, name_shown), text_quote(checksum, why_shown),
                    text_quote(w->name, mine_shown), mine);
        json_decref(base);
        return NULL;
    }
    return base;
}

bool bench_check_baseline(const char *baseline_path, const BenchWorkload *w, char *error, size_t size) {
    json_t *base = load_baseline(baseline_path, w, error, size);
    json_decref(base);
    return base != NULL;
}

int bench_compare(FILE *out, const BenchWorkload *w, const BenchResult *r, const char *baseline_path,
                  double max_regression_pct, char *error, size_t size) {
    json_t *base = load_baseline(baseline_path, w, error, size);
    if (!base)
        return -1;
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
        char shown[TEXT_QUOTE_SIZE];
        bench_error(error, size, "baseline '%s' has no mode and thread count in common with this run",
                    text_quote(baseline_path, shown));
        return -1;
    }
    return regressions;
}
