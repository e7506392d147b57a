#!/usr/bin/env bash
# bench/calls.sh BUILD: what a user waits for outside the simulation.  Each bench row at a small size is
# run twice by `gpulab run ... --engine compiled` with an empty cache folder: the first call parses the
# PTX, runs ptxas and nvdisasm for the SASS mapping and compiles the kernel's C; the repeated call finds
# all three in the cache.  The same for `gpulab sim` of a small PTX file.  At these sizes the
# simulation takes milliseconds, so a repeated call's whole wall time bounds the time it spends outside
# the simulation (target: under 0.1 s).
set -euo pipefail
build=$1
gpulab=$build/gpulab
here=$(dirname "$0")
target_s=0.1
rows="transpose:coalesced:256 gemm:blocktile2d:128 gemm:naive:64 attention:flash2:64 hgemm:mma_pipeline:64
gemm:smem:64 reduce:shared_tree:4096"

work=$(mktemp -d "${TMPDIR:-/tmp}/gpulab-calls-XXXXXX")
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME=$work/cache # empty: the first call pays every compile

# timed CMD...: runs CMD (its output to $work/out), prints "WALL CPU" in seconds; fails with CMD
timed() {
	local TIMEFORMAT='%R %U %S' t
	t=$({ time "$@" >"$work/out" 2>&1; } 2>&1) ||
		{ echo "bench: '$*' failed: $(tail -3 "$work/out")" >&2; return 1; }
	awk -v t="$t" 'BEGIN { split(t, f, " "); printf "%.2f %.2f", f[1], f[2] + f[3] }'
}

missed=0
# row NAME CMD...: the first and the repeated call of CMD, and the target on the repeated one
row() {
	local name=$1 first second verdict
	shift
	first=$(timed "$@")
	second=$(timed "$@")
	verdict=$(awk -v w="${second%% *}" -v t=$target_s 'BEGIN { print (w < t) ? "met" : "MISSED" }')
	[ "$verdict" = met ] || missed=$((missed + 1))
	printf '%-30s %7s s %7s s %10s s %7s s   %s\n' "$name" ${first} ${second} "$verdict"
}

echo "gpulab first and repeated calls: an empty cache, then the same call again (wall and CPU seconds)"
printf '%-30s %9s %9s %12s %9s   %s\n' "call (small size)" "1st wall" "1st CPU" "repeat wall" "CPU" \
	"repeat < ${target_s} s"
for r in $rows; do
	IFS=: read -r topic variant size <<<"$r"
	row "run $r" "$gpulab" run "$topic" --variant "$variant" --size "$size" --backend sim --engine compiled \
		--db "$work/calls.db"
done
row "sim saxpy.ptx" "$gpulab" sim "$here/../tests/fixtures/sim/saxpy.ptx" --kernel saxpy --grid 4 --block 256 \
	--arg i32:1000 --arg f32:2 --arg buf:x:f32:1000:rand --arg buf:y:f32:1000:const:1 --db "$work/calls.db"
echo "$missed target$([ $missed = 1 ] || echo s) missed"
