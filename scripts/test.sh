#!/usr/bin/env bash
# Runs every default test: the release build (PEXT where the CPU has BMI2), the
# magic-bitboard build, a build with AddressSanitizer and UndefinedBehaviorSanitizer, and
# the fuzz targets (clang, libFuzzer): their regression inputs, then FUZZ_SECONDS (20) each.
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
echo "== fuzz targets (clang, libFuzzer, ASan/UBSan): the corpus, then ${FUZZ_SECONDS:-20} s each"
[ -f build-fuzz/build.ninja ] || CC=clang meson setup build-fuzz -Dfuzz=true -Db_lto=false -Dbuildtype=debugoptimized \
    -Dopenmp=disabled -Dmpi=disabled >/dev/null
meson test -C build-fuzz --print-errorlogs
tests/fuzz/run.sh --build build-fuzz --seconds "${FUZZ_SECONDS:-20}"
echo "== all tests passed"
