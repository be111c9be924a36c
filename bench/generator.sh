#!/usr/bin/env bash
# Move generator benchmark: single thread, no hashing, bulk counting. Start position
# perft 7 (3,195,901,860) and Kiwipete perft 6 (8,031,647,685), timed as whole-process
# wall time of `perft count -q -t 1 --hash 0`, for this build, a baseline build of an
# earlier commit and Debian's Stockfish 15.1 (`go perft`), runs interleaved so that a
# drifting machine speed hits all alike; medians of N runs, every count checked. Prints
# each program's median (min, max) and rate, and the speed-ups of this build over the
# baseline and over Stockfish (their time divided by this build's).
# With --bench-epd: every position of suites/bench.epd at its deepest depth instead,
# this build against the baseline only, one speed-up per position and the smallest.
#
# usage: bench/generator.sh [--runs N] [--baseline PERFT | --baseline-commit SHA]
#                           [--no-baseline] [--no-stockfish] [--bench-epd] [PERFT]
#   PERFT                  this build's binary (default build/cli/perft)
#   --runs N               timed runs per program and position (default 5)
#   --baseline PERFT       the baseline's binary, already built
#   --baseline-commit SHA  build the baseline from commit SHA (default 50a026b) in a
#                          temporary git worktree with meson's defaults, removed after
#   --no-baseline          no baseline (this build and Stockfish only)
#   --no-stockfish         no Stockfish (it takes 4-5 times as long as perftkit)
#   --bench-epd            per-position comparison over suites/bench.epd
#   --quick                start position perft 5, Kiwipete perft 4, bench.epd at the
#                          shallowest depth listed: a check of the script, in seconds
set -euo pipefail
cd "$(dirname "$0")/.."
runs=5 perft=build/cli/perft baseline= baseline_commit=50a026b stockfish=true bench_epd=false quick=false sha=
while (($#)); do
    case $1 in
        --runs) runs=$2; shift 2 ;;
        --baseline) baseline=$2; baseline_commit=; shift 2 ;;
        --baseline-commit) baseline_commit=$2; baseline=; shift 2 ;;
        --no-baseline) baseline= baseline_commit=; shift ;;
        --no-stockfish) stockfish=false; shift ;;
        --bench-epd) bench_epd=true; shift ;;
        --quick) quick=true; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | cut -c3-; exit 0 ;;
        -*) echo "generator.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) perft=$1; shift ;;
    esac
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "generator.sh: --runs needs a positive whole number" >&2; exit 2; }
[ -x "$perft" ] || { echo "generator.sh: no perft binary at $perft (build first)" >&2; exit 2; }
perft=$(realpath "$perft")
PATH=$PATH:/usr/games  # where Debian puts stockfish
$bench_epd && stockfish=false
if $stockfish && ! command -v stockfish >/dev/null; then
    echo "generator.sh: Stockfish needs Debian's stockfish package (apt-get install stockfish), or --no-stockfish" >&2
    exit 2
fi

source bench/lib.sh

# The baseline, built from a commit in a temporary worktree when asked.
scratch=
cleanup() {
    if [ -n "$scratch" ]; then
        git worktree remove --force "$scratch/src" >/dev/null 2>&1 || true
        rm -rf "$scratch"
    fi
}
trap cleanup EXIT
if [ -n "$baseline_commit" ]; then
    sha=$(git rev-parse --verify --quiet "$baseline_commit^{commit}") \
        || { echo "generator.sh: no commit $baseline_commit here" >&2; exit 2; }
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/perftkit-baseline.XXXXXX")
    echo "building the baseline, commit ${sha:0:7}, in $scratch ..." >&2
    git worktree add --detach "$scratch/src" "$sha" >/dev/null 2>&1 \
        || { echo "generator.sh: git worktree add failed for $sha" >&2; exit 1; }
    { meson setup "$scratch/build" "$scratch/src" && ninja -C "$scratch/build"; } >"$scratch/build.log" 2>&1 \
        || { echo "generator.sh: building the baseline failed; log:" >&2; tail -20 "$scratch/build.log" >&2; exit 1; }
    baseline=$scratch/build/cli/perft  # the binary's place since the folders were split
    [ -x "$baseline" ] || baseline=$scratch/build/perft/perft
fi
if [ -n "$baseline" ]; then
    [ -x "$baseline" ] || { echo "generator.sh: no baseline binary at $baseline" >&2; exit 2; }
    baseline=$(realpath "$baseline")
fi

stockfish_perft() { printf 'uci\nposition fen %s\ngo perft %s\nquit\n' "$1" "$2" | stockfish | grep 'Nodes searched'; }
ours_perft() { "$perft" count -q -t 1 --hash 0 -d "$2" --fen "$1"; }
base_perft() { "$baseline" count -q -t 1 --hash 0 -d "$2" --fen "$1"; }

banner "perftkit generator benchmark (1 thread, no hashing, bulk counting)"
echo "this build: $perft"
[ -n "$baseline" ] && echo "baseline:   $baseline ($("$baseline" --version | head -1))"
$stockfish && echo "stockfish:  $(command -v stockfish) ($(stockfish </dev/null | head -1))"

if ! $bench_epd; then
    cases=("start position|7|3195901860|$STARTPOS" "Kiwipete|6|8031647685|$KIWIPETE")
    $quick && cases=("start position|5|4865609|$STARTPOS" "Kiwipete|4|4085603|$KIWIPETE")
    for c in "${cases[@]}"; do
        IFS='|' read -r name depth expected fen <<<"$c"
        ours=() base=() theirs=()
        for ((i = 0; i < runs; i++)); do  # interleaved
            ours+=("$(timed "$expected" ours_perft "$fen" "$depth")")
            [ -n "$baseline" ] && base+=("$(timed "$expected" base_perft "$fen" "$depth")")
            $stockfish && theirs+=("$(timed "$expected" stockfish_perft "$fen" "$depth")")
        done
        t=$(printf '%s\n' "${ours[@]}" | median)
        echo "$name perft $depth ($expected leaves):"
        echo "    this build:  $(summary ours)  $(rate "$expected" "$t") Mleaves/s"
        if [ -n "$baseline" ]; then
            b=$(printf '%s\n' "${base[@]}" | median)
            echo "    baseline:    $(summary base)  $(rate "$expected" "$b") Mleaves/s" \
                 "-> this build is $(ratio "$b" "$t")x the baseline"
        fi
        if $stockfish; then
            s=$(printf '%s\n' "${theirs[@]}" | median)
            echo "    stockfish:   $(summary theirs)  $(rate "$expected" "$s") Mleaves/s" \
                 "-> this build is $(ratio "$s" "$t")x stockfish"
        fi
    done
    exit 0
fi

# --bench-epd: each position of the fixed workload at the deepest depth it lists.
[ -n "$baseline" ] || { echo "generator.sh: --bench-epd compares with a baseline: drop --no-baseline" >&2; exit 2; }
echo "suites/bench.epd, each position at its $($quick && echo shallowest || echo deepest) listed depth;" \
     "speed-up = baseline time / this build's"
printf '%-14s %5s %12s %10s %10s %8s\n' position depth leaves "this (s)" "base (s)" speed-up
smallest= slowest_name= product=1 positions=0
while IFS= read -r line; do
    [[ -z $line || $line == \#* ]] && continue
    fen=${line%% ;*}
    id=$(grep -o ';id [^;]*' <<<"$line" | cut -c5- | sed 's/ *$//')
    last=$(grep -o ';D[0-9]* [0-9]*' <<<"$line" | if $quick; then head -1; else tail -1; fi)
    depth=$(cut -c3- <<<"$last" | cut -d' ' -f1) expected=$(cut -d' ' -f2 <<<"$last")
    ours=() base=()
    for ((i = 0; i < runs; i++)); do
        ours+=("$(timed "$expected" ours_perft "$fen" "$depth")")
        base+=("$(timed "$expected" base_perft "$fen" "$depth")")
    done
    t=$(printf '%s\n' "${ours[@]}" | median) b=$(printf '%s\n' "${base[@]}" | median)
    r=$(ratio "$b" "$t" 3)
    printf '%-14s %5s %12s %10.3f %10.3f %7.2fx\n' "${id:-?}" "$depth" "$expected" "$t" "$b" "$r"
    product=$(awk -v p="$product" -v r="$r" 'BEGIN {print p * r}')
    positions=$((positions + 1))
    if [ -z "$smallest" ] || awk -v a="$r" -v b="$smallest" 'BEGIN {exit !(a < b)}'; then
        smallest=$r slowest_name=${id:-?}
    fi
done <suites/bench.epd
echo "smallest speed-up: ${smallest}x ($slowest_name); geometric mean over $positions positions:" \
     "$(awk -v p="$product" -v n="$positions" 'BEGIN {printf "%.2f", p ^ (1 / n)}')x"
