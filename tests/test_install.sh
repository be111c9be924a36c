#!/usr/bin/env bash
# test_install.sh BUILD_DIR PREFIX VERSION SOVERSION CC SANITIZE EXAMPLE — installs the
# build into a temporary --destdir and checks what a user of the installed copy gets:
# the library (shared with its soname, exporting only perftkit_*; static, with only
# perftkit_* global and no LTO bytecode), the headers,
# perftkit.pc, the man page and the bash completion; then builds examples/perft_example.c
# with pkg-config against that tree, shared and static, runs both and checks their counts.
set -euo pipefail
build=$1 prefix=$2 version=$3 soversion=$4 cc=$5 sanitize=$6 example=$7
if [ "$sanitize" != none ]; then
    echo "skipped: a sanitizer build (b_sanitize=$sanitize) needs its runtime in every program it links"
    exit 77
fi
root=$(mktemp -d) log=$(mktemp)
trap 'rm -rf "$root" "$log"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

meson install -C "$build" --destdir "$root" --no-rebuild >"$log" 2>&1 ||
    { cat "$log" >&2; fail "meson install --destdir failed"; }
tree=$root$prefix

for file in include/perftkit/perftkit.h include/perftkit/perftkit_version.h bin/perft \
            share/man/man1/perft.1 share/bash-completion/completions/perft; do
    [ -f "$tree/$file" ] || fail "$file is not installed"
done
pc=$(find "$tree" -name perftkit.pc | head -1)
[ -n "$pc" ] || fail "perftkit.pc is not installed"
libdir=$(dirname "$(dirname "$pc")")
[ -f "$libdir/libperftkit.a" ] || fail "libperftkit.a is not installed in $libdir"
shared=$libdir/libperftkit.so.$version
[ -f "$shared" ] || fail "libperftkit.so.$version is not installed in $libdir"
[ -L "$libdir/libperftkit.so" ] || fail "libperftkit.so (the link for -lperftkit) is not installed"
soname=$(readelf -d "$shared" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libperftkit.so.$soversion" ] || fail "soname is '$soname', not libperftkit.so.$soversion"
echo "installed: $(cd "$root" && find . -type f | sort | tr '\n' ' ')"

# Only the public API is exported.
exported=$(nm -D --defined-only "$shared" | awk '{print $3}')
[ -n "$exported" ] || fail "the shared library exports nothing"
others=$(grep -v '^perftkit_' <<<"$exported" || true)
[ -z "$others" ] || fail "the shared library exports more than perftkit_*: $(echo $others | head -c 300)"
declared=$(grep -o '\bperftkit_[a-z_0-9]*(' "$tree/include/perftkit/perftkit.h" | tr -d '(' | sort -u)
missing=$(comm -23 <(echo "$declared") <(echo "$exported" | sort -u))
[ -z "$missing" ] || fail "declared in perftkit.h but not exported: $missing"
echo "exports: $(wc -w <<<"$exported") symbols, all perftkit_*, every call of perftkit.h"

# One version: project(version:), perftkit.pc, the header, perft --version.
export PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR=$root
[ "$(pkg-config --modversion perftkit)" = "$version" ] || fail "perftkit.pc says $(pkg-config --modversion perftkit)"
grep -q "#define PERFTKIT_VERSION \"$version\"" "$tree/include/perftkit/perftkit_version.h" ||
    fail "perftkit_version.h does not say $version"
"$tree/bin/perft" --version | grep -q "^perft (perftkit) $version," || fail "perft --version does not say $version"
echo "pkg-config --cflags --libs perftkit: $(pkg-config --cflags --libs perftkit)"
echo "pkg-config --static --libs perftkit: $(pkg-config --static --libs perftkit)"

check_output() { # the counts the example prints, each known
    local out=$1
    for line in "perftkit $version" "startpos perft 5: 4865609" "kiwipete perft 4: 4085603" \
                "after 1. e4 e5: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2" \
                "divide of the start position, depth 3:" "  e4   600" "  Nf3  440" "  a3   380" "  b4   421" \
                "20 moves, total 8902" \
                "suite line: pass, 3 depths"; do
        grep -qxF -- "$line" <<<"$out" || fail "the example's output lacks '$line':"$'\n'"$out"
    done
}

# The example against the shared library, as a user builds it.
$cc -std=c17 -Wall -Wextra -pedantic -Werror "$example" -o "$root/example" $(pkg-config --cflags --libs perftkit)
resolved=$(LD_LIBRARY_PATH=$libdir ldd "$root/example" | grep libperftkit || true)
[[ $resolved == *"$libdir/libperftkit.so.$soversion"* ]] || fail "the example does not load the installed library: $resolved"
out=$(LD_LIBRARY_PATH=$libdir "$root/example") || fail "the example (shared) exited with $?"
check_output "$out"
echo "example (shared): counts as known"

# And against the static library, with what pkg-config --static adds (OpenMP, threads).
static_libs=$(pkg-config --static --libs perftkit | sed 's/-lperftkit\b//')
$cc -std=c17 -Wall -Wextra -pedantic -Werror "$example" -o "$root/example-static" $(pkg-config --cflags perftkit) \
    "$libdir/libperftkit.a" $static_libs
if ldd "$root/example-static" | grep -q libperftkit; then fail "the static example loads libperftkit.so"; fi
out=$("$root/example-static") || fail "the example (static) exited with $?"
check_output "$out"
echo "example (static): counts as known"

# The static library defines no global name but perftkit_*, and holds machine code, not
# a compiler's LTO bytecode.
globals=$(nm -g --defined-only "$libdir/libperftkit.a" | awk 'NF == 3 {print $3}')
[ -n "$globals" ] || fail "libperftkit.a defines no global symbol"
others=$(grep -v '^perftkit_' <<<"$globals" || true)
[ -z "$others" ] || fail "libperftkit.a defines more than perftkit_*: $(echo $others | head -c 300)"
missing=$(comm -23 <(echo "$declared") <(echo "$globals" | sort -u))
[ -z "$missing" ] || fail "declared in perftkit.h but not in libperftkit.a: $missing"
if objdump -h "$libdir/libperftkit.a" | grep -q '\.gnu\.lto_'; then fail "libperftkit.a holds LTO bytecode"; fi
echo "libperftkit.a: $(wc -w <<<"$globals") global symbols, all perftkit_*"

# So a program with names of its own like perftkit's internal ones links it statically
# and both keep their own.
cat >"$root/clash.c" <<'CLASH'
int core_init = 7;                  /* perftkit's is a function */
long perft_count(void) { return 42; }
const char *gen_legal(void) { return "mine"; }
CLASH
$cc -std=c17 -c "$root/clash.c" -o "$root/clash.o"
$cc -std=c17 -Wall -Wextra -pedantic -Werror "$example" "$root/clash.o" -o "$root/example-clash" \
    $(pkg-config --cflags perftkit) "$libdir/libperftkit.a" $static_libs ||
    fail "a program defining core_init, perft_count and gen_legal does not link libperftkit.a"
out=$("$root/example-clash") || fail "the example linked beside clashing names exited with $?"
check_output "$out"
echo "example (static, beside its own core_init, perft_count and gen_legal): counts as known"
