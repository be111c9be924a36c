#!/usr/bin/env bash
# Fuzzes each target of tests/fuzz for a bounded time, one after another (one process),
# over a copy of its seed corpus, and fails on any finding (a crash, a violated property,
# a leak, a timeout of one input, running out of memory). Prints each target's executions
# and coverage (libFuzzer's final stats); a finding's input is kept in
# BUILD/fuzz-findings/TARGET/ with the log.
#
#   tests/fuzz/run.sh [--seconds N] [--runs N] [--max-len N] [--build DIR] [TARGET...]
#
# --seconds N  time per target (default 20; 0: no time limit)
# --runs N     stop a target after N executions as well (default: no limit)
# --max-len N  inputs of at most N bytes (default: libFuzzer's, which grows to 4096)
# --build DIR  the fuzz build (default build-fuzz: CC=clang meson setup build-fuzz -Dfuzz=true ...)
# A target's fuzzer interrupted by hand (kill -INT PID) ends that target, with its
# figures, and the run goes on with the next one.
# TARGETs are names from tests/fuzz/meson.build (fen, epd, ...); default: all of them.
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds=20 runs= max_len= build=build-fuzz
targets=()
while (($#)); do
    case "$1" in
    --seconds) seconds=${2:?--seconds needs a number}; shift 2 ;;
    --runs) runs=${2:?--runs needs a number}; shift 2 ;;
    --max-len) max_len=${2:?--max-len needs a number}; shift 2 ;;
    --build) build=${2:?--build needs a folder}; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
    esac
done
[[ $seconds =~ ^[0-9]+$ ]] || { echo "run.sh: --seconds '$seconds' is not a whole number" >&2; exit 2; }
[[ -z $runs || $runs =~ ^[0-9]+$ ]] || { echo "run.sh: --runs '$runs' is not a whole number" >&2; exit 2; }
[[ -z $max_len || $max_len =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: --max-len '$max_len' is not a positive whole number" >&2; exit 2; }
if ((${#targets[@]} == 0)); then
    # The list in tests/fuzz/meson.build, between "fuzz_targets = [" and "]".
    mapfile -t targets < <(sed -n '/^fuzz_targets = \[/,/^\]/p' tests/fuzz/meson.build | grep -o "'[a-z0-9_]*'" | tr -d "'")
fi

# The corpus copies and the targets' own temporary files (journals, suites, results) go
# to memory where it can, in one folder removed at the end (a crashed target cannot).
base=${TMPDIR:-/tmp}
if [ -d /dev/shm ] && [ -w /dev/shm ]; then base=/dev/shm; fi
work=$(mktemp -d "$base/perftkit-fuzz-run-XXXXXX")
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work
# Allocations above 256 MB fail as on a small machine (see tests/fuzz/meson.build).
export ASAN_OPTIONS=allocator_may_return_null=1:max_allocation_size_mb=256:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

failed=()
start=$SECONDS
for target in "${targets[@]}"; do
    exe=$build/tests/fuzz/fuzz_$target
    if [ ! -x "$exe" ]; then
        echo "run.sh: no $exe; build it: CC=clang meson setup $build -Dfuzz=true -Db_lto=false -Dbuildtype=debugoptimized && ninja -C $build" >&2
        exit 2
    fi
    corpus=$work/corpus-$target artifacts=$work/artifacts-$target log=$work/$target.log
    mkdir -p "$corpus" "$artifacts"
    cp tests/fuzz/corpus/"$target"/* "$corpus"/ 2>/dev/null || true
    options=(-max_total_time="$seconds" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048
             -artifact_prefix="$artifacts/")
    [ -n "$runs" ] && options+=(-runs="$runs")
    [ -n "$max_len" ] && options+=(-max_len="$max_len")
    target_start=$SECONDS
    status=0
    "$exe" "${options[@]}" "$corpus" >"$log" 2>&1 || status=$?
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    coverage=$(grep -o 'cov: [0-9]* ft: [0-9]* corp: [0-9]*/[^ ]*' "$log" | tail -1 || true)
    # A "slow unit" is an input that took 10 s once: on a busy machine a stall, not a
    # finding (an input that really hangs is a timeout, which is one); it is replayed
    # and kept aside with its time, so a real slowness is not lost either.
    for slow in "$artifacts"/slow-unit-*; do
        [ -e "$slow" ] || continue
        slow_start=$EPOCHREALTIME
        "$exe" "$slow" >/dev/null 2>&1 || true
        mkdir -p "$build/fuzz-slow/$target"
        mv "$slow" "$build/fuzz-slow/$target/"
        printf 'fuzz_%s: an input took 10 s once and replays in %.2f s; kept in %s\n' "$target" \
            "$(awk -v a="$slow_start" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')" "$build/fuzz-slow/$target/" >&2
    done
    found=$(find "$artifacts" -type f | wc -l)
    # libFuzzer ends with 72 when it is interrupted (SIGINT, kill -INT): a long run
    # stopped by hand, not a finding, unless it left an input behind.
    stopped=
    if ((status == 72 && found == 0)); then
        status=0 stopped='   (interrupted)'
    fi
    printf 'fuzz_%-14s %10s executions in %4d s   %s   findings %d%s\n' "$target" "${executions:-?}" \
        $((SECONDS - target_start)) "${coverage:-cov: ?}" "$((status != 0 || found > 0 ? (found > 0 ? found : 1) : 0))" \
        "$stopped"
    if ((status != 0 || found > 0)); then
        failed+=("$target")
        kept=$build/fuzz-findings/$target
        mkdir -p "$kept"
        cp "$artifacts"/* "$kept"/ 2>/dev/null || true
        cp "$log" "$kept/$target.log"
        echo "---- fuzz_$target failed (exit $status); inputs and log kept in $kept/" >&2
        grep -E 'ERROR|fuzz property failed|SUMMARY|runtime error|Test unit written' "$log" | head -20 >&2 || true
    fi
done
echo "fuzzing: ${#targets[@]} targets in $((SECONDS - start)) s; $((${#targets[@]} - ${#failed[@]})) passed, ${#failed[@]} failed"
((${#failed[@]} == 0))
