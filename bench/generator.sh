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
runs=5 stockfish=false perft=build/cli/perft
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

source bench/lib.sh
cases=("startpos|7|3195901860|$STARTPOS" "kiwipete|6|8031647685|$KIWIPETE")

stockfish_perft() { printf 'uci\nposition fen %s\ngo perft %s\nquit\n' "$1" "$2" | stockfish | grep 'Nodes searched'; }

banner "perftkit generator benchmark (1 thread, no hashing)"
for c in "${cases[@]}"; do
    IFS='|' read -r name depth expected fen <<<"$c"
    ours=() theirs=()
    for ((i = 0; i < runs; i++)); do  # interleaved, so drifting machine speed hits both alike
        ours+=("$(timed "$expected" "$perft" count -q -t 1 --hash 0 -d "$depth" --fen "$fen")")
        $stockfish && theirs+=("$(timed "$expected" stockfish_perft "$fen" "$depth")")
    done
    t=$(printf '%s\n' "${ours[@]}" | median)
    echo "$name perft $depth: $(summary ours)  $(rate "$expected" "$t") Mleaves/s"
    if $stockfish; then
        s=$(printf '%s\n' "${theirs[@]}" | median)
        echo "    stockfish go perft $depth: $(summary theirs)  $(rate "$expected" "$s") Mleaves/s" \
             "-> perftkit is $(ratio "$s" "$t")x stockfish"
    fi
done
