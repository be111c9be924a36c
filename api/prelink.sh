#!/bin/sh
# prelink.sh OBJCOPY AR LTO INPUT OUTPUT CC... — makes the installed static library: the
# objects of INPUT (the library and the internal libraries it is made of) linked into one
# relocatable object by the compiler CC (with LTO done there when LTO is true, so the
# archive holds plain machine code that any C compiler's linker takes), every global
# name but perftkit_* made local (as the shared library's version script does), and
# archived alone into OUTPUT. A program may then define names like perftkit's internal
# ones (gen_legal, perft_count, ...) and still link the static library.
set -eu
objcopy=$1 ar=$2 lto=$3 input=$4 output=$5
shift 5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ "$lto" = true ]; then
    set -- "$@" -flto
    # GCC keeps its LTO bytecode in a relocatable link unless told to compile it.
    if "$@" -flinker-output=nolto-rel -x c -c /dev/null -o "$work/probe.o" 2>/dev/null; then
        set -- "$@" -flinker-output=nolto-rel
    fi
fi
"$@" -r -nostdlib -o "$work/whole.o" -Wl,--whole-archive "$input" -Wl,--no-whole-archive
"$objcopy" --wildcard --keep-global-symbol='perftkit_*' "$work/whole.o" "$work/perftkit.o"
rm -f "$output"
"$ar" rcs "$output" "$work/perftkit.o"
