#!/usr/bin/env bash
# Move generator benchmark: single thread, no hashing, bulk counting at depth 1.
# Start position perft 7 (3,195,901,860) and Kiwipete perft 6 (8,031,647,685), timed
# as whole-process wall time of `perft count`, median of several runs; a wrong count
# fails the benchmark. With --stockfish, Debian's stockfish runs `go perft` on the
# same positions in the same run and the ratio to it is printed.
#
# usage: bench/generator.sh [--runs N] [--stockfish] [PERFT_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=5 stockfish=false perft=build/perft/perft
while (($#)); do
    case $1 in
        --runs) runs=$2; shift 2 ;;
        --stockfish) stockfish=true; shift ;;
        -h|--help) sed -n '2,9p' "$0" | cut -c3-; exit 0 ;;
        *) perft=$1; shift ;;
    esac
done
[ -x "$perft" ] || { echo "generator.sh: no perft binary at $perft (build first)" >&2; exit 2; }
PATH=$PATH:/usr/games  # where Debian puts stockfish
if $stockfish && ! command -v stockfish >/dev/null; then
    echo "generator.sh: --stockfish needs Debian's stockfish package (apt-get install stockfish)" >&2; exit 2
fi

cases=("startpos|7|3195901860|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
       "kiwipete|6|8031647685|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")

median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
now() { date +%s.%N; }

# Runs one timed command; prints its seconds and checks that it printed `expected`.
timed() {
    local expected=$1; shift
    local start end out
    start=$(now)
    out=$("$@")
    end=$(now)
    grep -qw "$expected" <<<"$out" || { echo "generator.sh: wrong count from $*: $out" >&2; exit 1; }
    awk -v a="$start" -v b="$end" 'BEGIN {printf "%.6f\n", b - a}'
}

stockfish_perft() { printf 'uci\nposition fen %s\ngo perft %s\nquit\n' "$1" "$2" | stockfish | grep 'Nodes searched'; }

echo "perftkit generator benchmark: $("$perft" --version | head -1), $runs runs, $(nproc) cores"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
for c in "${cases[@]}"; do
    IFS='|' read -r name depth expected fen <<<"$c"
    ours=() theirs=()
    for ((i = 0; i < runs; i++)); do  # interleaved, so drifting machine speed hits both alike
        ours+=("$(timed "$expected" "$perft" count -q -d "$depth" --fen "$fen")")
        $stockfish && theirs+=("$(timed "$expected" stockfish_perft "$fen" "$depth")")
    done
    t=$(printf '%s\n' "${ours[@]}" | median)
    lo=$(printf '%s\n' "${ours[@]}" | sort -g | head -1) hi=$(printf '%s\n' "${ours[@]}" | sort -g | tail -1)
    printf '%-9s perft %s: median %.3f s (min %.3f, max %.3f)  %.0f Mleaves/s\n' "$name" "$depth" "$t" "$lo" "$hi" \
        "$(awk -v n="$expected" -v t="$t" 'BEGIN {print n / t / 1e6}')"
    if $stockfish; then
        s=$(printf '%s\n' "${theirs[@]}" | median)
        printf '%-9s stockfish go perft %s: median %.3f s  %.0f Mleaves/s  -> perftkit is %.2fx stockfish\n' "" \
            "$depth" "$s" "$(awk -v n="$expected" -v t="$s" 'BEGIN {print n / t / 1e6}')" \
            "$(awk -v s="$s" -v t="$t" 'BEGIN {print s / t}')"
    fi
done
