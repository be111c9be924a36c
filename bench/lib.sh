# bench/lib.sh — helpers the benchmark scripts share (sourced, not run).

STARTPOS="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

# Median of numbers on stdin, one a line.
median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
minimum() { sort -g | head -1; }
maximum() { sort -g | tail -1; }

now() { date +%s.%N; }

# Runs one command, timed as a whole process; prints its seconds, and fails the
# benchmark unless it exited 0 and printed the whole word `expected`. A process killed
# (the kernel's out-of-memory killer among others) is named as such, not as a wrong count.
timed() {
    local expected=$1; shift
    local start end out status=0
    start=$(now)
    out=$("$@") || status=$?
    end=$(now)
    if ((status > 128)); then
        echo "benchmark: $* was killed by signal $((status - 128))$( ((status == 137)) && echo ' (SIGKILL: out of memory?)')" >&2
        exit 1
    fi
    ((status == 0)) || { echo "benchmark: $* exited with status $status: $out" >&2; exit 1; }
    grep -qw "$expected" <<<"$out" || { echo "benchmark: wrong count from $*: $out" >&2; exit 1; }
    awk -v a="$start" -v b="$end" 'BEGIN {printf "%.6f\n", b - a}'
}

# a / b with `digits` decimals.
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN {printf "%.*f", d, a / b}'; }
rate() { awk -v n="$1" -v t="$2" 'BEGIN {printf "%.0f", n / t / 1e6}'; }

# "median M s (min A, max B)" for the seconds in the named array.
summary() {
    local -n summary_values=$1
    printf 'median %.3f s (min %.3f, max %.3f)' "$(printf '%s\n' "${summary_values[@]}" | median)" \
        "$(printf '%s\n' "${summary_values[@]}" | minimum)" "$(printf '%s\n' "${summary_values[@]}" | maximum)"
}

banner() {
    echo "$1: $("$perft" --version | head -1), $runs runs, $(nproc) cores"
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), memory $(free -g | awk '/Mem:/ {print $2}') GiB"
}
