#!/usr/bin/env bash
# Installs what a fresh Debian 12 lacks to build and test perftkit (Debian packages
# only), then configures and builds build/. Safe to run again: it installs nothing
# that is already there and rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

# clang and libclang-rt-14-dev (libFuzzer, clang's ASan/UBSan runtimes): the fuzz build.
packages=(gcc meson ninja-build pkg-config libcriterion-dev libjansson-dev libxml2-dev hyperfine groff-base
          libopenmpi-dev openmpi-bin stockfish clang libclang-rt-14-dev
          libomp-dev) # the ThreadSanitizer build: clang with LLVM's OpenMP runtime and Archer
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if ((${#missing[@]})); then
    sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    echo "setup: installing ${missing[*]}" >&2
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

[ -f build/build.ninja ] || meson setup build >&2
ninja -C build >&2
