#!/usr/bin/env bash
# hyperfine over `perft count`: every position of the benchmark workload at 1 thread and
# at all cores, without tables and with 64 MB, counts checked by hyperfine's own runs
# (a wrong count is a failed command, which stops hyperfine). Exports hyperfine's JSON and
# Markdown into RESULTS/MACHINE/hyperfine-DATE-COMMIT.{json,md}.
#
# usage: bench/hyperfine.sh [--runs N] [--results DIR] [--workload FILE] [PERFT_BINARY]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
runs=5 results=results workload=$here/suites/bench.epd perft=$here/build/cli/perft
# Each option's value is checked to be there, so a bad command line gets one line, not bash's.
need() { (($# >= 2)) || { echo "hyperfine.sh: $1 needs a value (try --help)" >&2; exit 2; }; }
while (($#)); do
    case $1 in
        --runs) need "$@"; runs=$2; shift 2 ;;
        --results) need "$@"; results=$2; shift 2 ;;
        --workload) need "$@"; workload=$2; shift 2 ;;
        -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;  # the comment block above
        -*) echo "hyperfine.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
        *) perft=$1; shift ;;
    esac
done
command -v hyperfine >/dev/null || { echo "hyperfine.sh: hyperfine is not installed (apt-get install hyperfine)" >&2; exit 2; }
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "hyperfine.sh: --runs '$runs' is not a whole number above 0" >&2; exit 2; }
[ -x "$perft" ] || { echo "hyperfine.sh: no perft binary at $perft (build first)" >&2; exit 2; }
[ -r "$workload" ] || { echo "hyperfine.sh: cannot read workload $workload" >&2; exit 2; }

machine=$("$perft" bench --fingerprint | head -1)
commit=$("$perft" --version | sed -n 's/.*commit \([^ ]*\).*/\1/p')
cores=$(nproc)
folder=$results/$machine
mkdir -p "$folder"
base=$folder/hyperfine-$(date -u +%Y-%m-%d)-$commit

# One command per position, thread count and table size; the known count is checked by
# grep, so a wrong count fails the command and hyperfine with it.
args=()
n=0
while IFS= read -r line; do
    n=$((n + 1))
    [[ -z $line || $line == \#* ]] && continue
    fen=${line%% ;*}
    id=$(sed -n 's/.*;id \([^ ;]*\).*/\1/p' <<<"$line")
    id=${id:-line$n}
    last=${line##*;D}            # "6 519286744"
    depth=${last%% *} count=${last##* }
    for threads in 1 "$cores"; do
        for hash in 0 64; do
            args+=(--command-name "$id d$depth t$threads hash$hash"
                   "'$perft' count -q -d $depth -t $threads --hash $hash --fen '$fen' | grep -qx $count")
        done
    done
done <"$workload"

hyperfine --warmup 1 --runs "$runs" --export-json "$base.json.tmp" --export-markdown "$base.md.tmp" "${args[@]}"
mv "$base.json.tmp" "$base.json"
mv "$base.md.tmp" "$base.md"
echo "hyperfine results: $base.json, $base.md"
