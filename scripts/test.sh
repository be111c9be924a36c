#!/usr/bin/env bash
# Runs every default test: the release build (PEXT where the CPU has BMI2), the
# magic-bitboard build, a build with AddressSanitizer and UndefinedBehaviorSanitizer, a
# ThreadSanitizer build running the threaded tests (suite `threads`), and the fuzz
# targets (clang, libFuzzer): their regression inputs, then FUZZ_SECONDS (20) each.
# The README's examples and the MPI runs are checked on the release build only: they
# test the command line and the launcher, not the generator or memory safety.
# Deep suite counts are in the `slow` suite: meson test -C build --setup full --suite slow
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

echo "== release build ($(build/cli/perft --version | sed -n 2p))"
meson test -C build --print-errorlogs

echo "== magic bitboards (-Dpext=disabled)"
[ -f build-magic/build.ninja ] || meson setup build-magic -Dpext=disabled >/dev/null
meson test -C build-magic --print-errorlogs --no-suite readme --no-suite mpi

echo "== sanitizers (address, undefined) with assertions on; suite counts up to 100,000 nodes"
[ -f build-sanitize/build.ninja ] || meson setup build-sanitize -Db_sanitize=address,undefined -Db_lto=false \
    -Dbuildtype=debugoptimized >/dev/null
LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    PERFTKIT_MAX_NODES=100000 meson test -C build-sanitize --print-errorlogs --timeout-multiplier 4 \
    --no-suite readme --no-suite mpi

# ThreadSanitizer needs an OpenMP runtime it can see into: gcc's libgomp is not
# instrumented (its barriers and task queues look like races), so this build uses clang
# with LLVM's libomp and its Archer tool (libarcher.so), which tells TSan about OpenMP's
# synchronisation; ignore_noninstrumented_modules keeps TSan from judging libomp's own
# internal accesses, as Archer asks. No suppressions: a report fails the run. Criterion's
# runner cannot start under TSan, so these test programs link tests/tsan_runner.c.
echo "== thread sanitizer (clang, libomp with Archer): the threaded tests"
[ -f build-tsan/build.ninja ] || CC=clang meson setup build-tsan -Db_sanitize=thread -Db_lto=false \
    -Dbuildtype=debugoptimized -Db_lundef=false -Dmpi=disabled >/dev/null
archer=$(ls /usr/lib/llvm-*/lib/libarcher.so 2>/dev/null | sort -V | tail -1)
[ -n "$archer" ] || { echo "test.sh: libarcher.so not found (install libomp-dev)" >&2; exit 1; }
OMP_TOOL_LIBRARIES=$archer TSAN_OPTIONS="ignore_noninstrumented_modules=1 halt_on_error=1 exitcode=66 second_deadlock_stack=1" \
    PERFTKIT_MAX_NODES=100000 PERFTKIT_COUNTS_PER_FILE=40 PERFTKIT_SLOWDOWN=10 meson test -C build-tsan --print-errorlogs --timeout-multiplier 4 --suite threads
echo "== fuzz targets (clang, libFuzzer, ASan/UBSan): the corpus, then ${FUZZ_SECONDS:-20} s each"
[ -f build-fuzz/build.ninja ] || CC=clang meson setup build-fuzz -Dfuzz=true -Db_lto=false -Dbuildtype=debugoptimized \
    -Dopenmp=disabled -Dmpi=disabled >/dev/null
meson test -C build-fuzz --print-errorlogs
tests/fuzz/run.sh --build build-fuzz --seconds "${FUZZ_SECONDS:-20}"
echo "== all tests passed"
