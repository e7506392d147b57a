#!/bin/sh
# build.sh — build the PTX parser fuzzer (libFuzzer + ASan + UBSan) outside the CMake build.
# Usage: tests/fuzz/build.sh [out-dir]   (default build-fuzz/); prints the binary's path.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/build-fuzz}
mkdir -p "$out"
CC=${CC:-clang}
$CC -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer \
	-g -O1 -std=gnu11 -Wall -Wextra -I"$root" \
	"$root/tests/fuzz/fuzz_ptx.c" \
	"$root/sim/ptx_lex.c" "$root/sim/ptx_names.c" "$root/sim/ptx_parse.c" "$root/sim/ptx_body.c" \
	"$root/sim/ptx_decode.c" "$root/sim/ptx_types.c" \
	"$root/common/err.c" "$root/common/util.c" -lm \
	-o "$out/fuzz_ptx"
echo "$out/fuzz_ptx"
