#!/usr/bin/env bash
# Hashed and parallel perft benchmark, whole-process wall time of `perft count`, median
# of interleaved runs, counts checked:
#   start position perft 7 (3,195,901,860), 1 GiB of tables, on 1 and 2 threads;
#   Kiwipete perft 6 (8,031,647,685) with 1 GiB of tables and without, on 1 and 2 threads.
# Prints the scaling of 2 threads over 1 and the gain of hashing, each as the median of
# the ratios of runs made back to back (this machine's speed drifts over minutes). Every
# timed run follows an untimed run of the same command: this VM hands freed memory back
# to its host, and a process that touches 1 GiB just after another freed it pays ~1.5 s
# of host page faults that bare metal does not. With --compare BIN, also times a second
# perft binary on the hashed one-thread cases.
#
# usage: bench/hashed.sh [--runs N] [--compare OTHER_PERFT] [PERFT_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=5 perft=build/cli/perft other=
# Each option's value is checked to be there, so a bad command line gets one line, not bash's.
need() { (($# >= 2)) || { echo "hashed.sh: $1 needs a value (try --help)" >&2; exit 2; }; }
while (($#)); do
    case $1 in
        --runs) need "$@"; runs=$2; shift 2 ;;
        --compare) need "$@"; other=$2; shift 2 ;;
        -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;  # the comment block above
        -*) echo "hashed.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
        *) perft=$1; shift ;;
    esac
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "hashed.sh: --runs '$runs' is not a whole number above 0" >&2; exit 2; }
[ -x "$perft" ] || { echo "hashed.sh: no perft binary at $perft (build first)" >&2; exit 2; }
source bench/lib.sh

# name | binary | arguments | expected count
cases=("start7-hash-t1|$perft|-d 7 -t 1 --hash 1024|3195901860"
       "start7-hash-t2|$perft|-d 7 -t 2 --hash 1024|3195901860"
       "kiwi6-hash-t1|$perft|-d 6 -t 1 --hash 1024 --fen|8031647685"
       "kiwi6-hash-t2|$perft|-d 6 -t 2 --hash 1024 --fen|8031647685"
       "kiwi6-nohash-t1|$perft|-d 6 -t 1 --hash 0 --fen|8031647685"
       "kiwi6-nohash-t2|$perft|-d 6 -t 2 --hash 0 --fen|8031647685")
if [ -n "$other" ]; then
    cases+=("other-start7-hash-t1|$other|-d 7 -t 1 --hash 1024|3195901860"
            "other-kiwi6-hash-t1|$other|-d 6 -t 1 --hash 1024 --fen|8031647685")
fi

banner "perftkit hashed/parallel benchmark"
declare -A seconds
for ((i = 0; i < runs; i++)); do
    for c in "${cases[@]}"; do
        IFS='|' read -r name binary args expected <<<"$c"
        read -ra argv <<<"$args"
        [[ $args == *--fen ]] && argv+=("$KIWIPETE")
        timed "$expected" "$binary" count -q "${argv[@]}" >/dev/null  # warm-up
        seconds[$name]+="$(timed "$expected" "$binary" count -q "${argv[@]}") "
    done
done

# Median over the rounds of a/b, where a and b ran back to back in each round.
paired() {
    local -a a b
    read -ra a <<<"${seconds[$1]}"
    read -ra b <<<"${seconds[$2]}"
    for ((k = 0; k < ${#a[@]}; k++)); do ratio "${a[k]}" "${b[k]}" 4; echo; done | median | xargs printf '%.2f'
}
declare -A med
for c in "${cases[@]}"; do
    IFS='|' read -r name binary args expected <<<"$c"
    read -ra values <<<"${seconds[$name]}"
    med[$name]=$(printf '%s\n' "${values[@]}" | median)
    printf '%-22s %s  %6s Mleaves/s\n' "$name" "$(summary values)" "$(rate "$expected" "${med[$name]}")"
done
echo "scaling, 2 threads over 1: start7 hashed $(paired start7-hash-t1 start7-hash-t2)x," \
     "kiwi6 unhashed $(paired kiwi6-nohash-t1 kiwi6-nohash-t2)x, kiwi6 hashed $(paired kiwi6-hash-t1 kiwi6-hash-t2)x"
echo "hashing gain on kiwi6, 1 thread: $(paired kiwi6-nohash-t1 kiwi6-hash-t1)x"
if [ -n "$other" ]; then
    echo "this binary over $other, 1 thread hashed: start7 $(paired other-start7-hash-t1 start7-hash-t1)x," \
         "kiwi6 $(paired other-kiwi6-hash-t1 kiwi6-hash-t1)x"
fi
