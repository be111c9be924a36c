#!/usr/bin/env bash
# Deep-run benchmark: start position perft 9 (2,439,530,234,167) and, with --depth 10,
# perft 10 (69,352,859,712,417), hashed, counted over work units, timed as whole
# processes: 1 thread, 2 threads, and `mpirun -np 2 perft-mpi` with 1 thread each (the
# two ranks share one set of tables of the same size). With --baseline BIN, that perft
# binary runs the same 2-thread count in the same run (interleaved) and the ratio is
# printed; it is refused when the memory beside the huge-page pool cannot hold its
# tables. A wrong count, or a run that fails or is killed, fails the benchmark. An
# untimed perft 7 with the same tables goes first.
#
# usage: bench/deep.sh [--depth 9|10] [--hash MB] [--runs N] [--baseline BIN] [PERFT_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
depth=9 hash=4096 runs=1 perft=build/cli/perft baseline=
while (($#)); do
    case $1 in
        --depth) depth=${2:?--depth needs a value}; shift 2 ;;
        --hash) hash=${2:?--hash needs a value}; shift 2 ;;
        --runs) runs=${2:?--runs needs a value}; shift 2 ;;
        --baseline) baseline=${2:?--baseline needs a value}; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | cut -c3-; exit 0 ;;
        -*) echo "deep.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
        *) perft=$1; shift ;;
    esac
done
case $depth in
    9) expected=2439530234167 ;;
    10) expected=69352859712417 ;;
    *) echo "deep.sh: --depth is 9 or 10" >&2; exit 2 ;;
esac
[ -x "$perft" ] || { echo "deep.sh: no perft binary at $perft (build first)" >&2; exit 2; }
mpi=$(dirname "$(dirname "$perft")")/perft-mpi
source bench/lib.sh
banner "perftkit deep-run benchmark (start position perft $depth, --hash $hash MB)"
# The tables (and perft-mpi's shared set) take the reserved huge-page pool when it holds
# them: say whether it did, as it changes the times (bench/README.md).
echo "huge-page pool: $(awk '/HugePages_Free/ {print $2}' /proc/meminfo) free pages of $(cat /proc/sys/vm/nr_hugepages) (vm.nr_hugepages; $((hash / 2)) needed)"
# The baseline (50a026b) never takes the pool: its tables need `hash` MB of ordinary
# memory beside it, or the kernel kills it (perft 10's 16 GiB pool and 16 GiB tables do
# not fit in 24 GiB: run that baseline on its own with the pool given back).
if [ -n "$baseline" ]; then
    available=$(awk '/MemAvailable/ {print int($2 / 1024)}' /proc/meminfo)
    if ((available < hash + 512)); then
        echo "deep.sh: --baseline needs about $((hash + 512)) MB of ordinary memory, but $available MB is available beside the huge-page pool (vm.nr_hugepages $(cat /proc/sys/vm/nr_hugepages)); give the pool back or time the baseline on its own" >&2
        exit 2
    fi
fi
declare -a one two ranks base
# Untimed: on this VM the first process to touch freed memory pays the host's page
# faults (up to 12 s for 4 GiB); a perft 7 with the same tables touches every page.
timed 3195901860 "$perft" count -q -t 2 --hash "$hash" -d 7 >/dev/null
for ((i = 0; i < runs; i++)); do
    one+=("$(timed "$expected" "$perft" count -q -t 1 --hash "$hash" -d "$depth")")
    two+=("$(timed "$expected" "$perft" count -q -t 2 --hash "$hash" -d "$depth")")
    if [ -x "$mpi" ] && command -v mpirun >/dev/null; then
        ranks+=("$(timed "$expected" mpirun --allow-run-as-root --oversubscribe -np 2 "$mpi" count -q -t 1 \
                   --hash "$hash" -d "$depth")")
    fi
    [ -n "$baseline" ] && base+=("$(timed "$expected" "$baseline" count -q -t 2 --hash "$hash" -d "$depth")")
done
t1=$(printf '%s\n' "${one[@]}" | median) t2=$(printf '%s\n' "${two[@]}" | median)
echo "1 thread:          $(summary one)"
echo "2 threads:         $(summary two)   -> $(ratio "$t1" "$t2")x one thread"
if ((${#ranks[@]})); then
    tm=$(printf '%s\n' "${ranks[@]}" | median)
    echo "mpirun -np 2 -t 1: $(summary ranks)   -> $(ratio "$tm" "$t2")x the time of one process with -t 2"
fi
if ((${#base[@]})); then
    tb=$(printf '%s\n' "${base[@]}" | median)
    echo "baseline -t 2:     $(summary base)   -> this build is $(ratio "$tb" "$t2")x the baseline"
fi
