#!/usr/bin/env bash
# rows_seed.sh GPULAB OUT.sql — the seed database of the stored-row fuzzer (fuzz_rows.c) as SQL text: real
# runs recorded by gpulab on the simulator with traces (one per view: transpose for coalesce and banks,
# gemm, hgemm for mma, attention for flash, conv2d, reduce with its shuffles and barrier arrivals, and
# smem_patterns), a `gpulab sim` run with sanitizer findings and two CTA-range shards of one launch
# (launch_outputs, assembled by merge).  Each trace is cut to its first 600 events so that one fuzzer
# input is cheap to load.
set -euo pipefail
gpulab=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
db=$work/seed.db
export HOME=$work NO_COLOR=1
unset GPULAB_DB XDG_DATA_HOME XDG_CACHE_HOME
run() { "$gpulab" run "$@" --backend sim --db "$db" >/dev/null; }
run transpose --variant naive,padded --size 32 --trace
run gemm --variant naive,smem --size 32 --trace
run hgemm --variant mma_ldmatrix --size 64 --trace
run attention --variant flash2 --seq 64 --dim 32 --trace
run conv2d --variant direct --size 4 --c 2 --k 4 --trace
run smem_patterns --variant stride2 --size 64 --trace
run reduce --variant shared_tree,warp_shuffle --size 256 --trace
run gemm --variant naive --size 64 --cta-range 0:2
run gemm --variant naive --size 64 --cta-range 2:4
# a gpulab sim run with findings (an out-of-bounds read and a race), stored with its trace
"$gpulab" sim "$here/../fixtures/sim/sanitizer.ptx" --kernel oob_read --grid 1 --block 64 \
	--arg buf:in:f32:60:seq --arg buf:out:f32:64 --arg i32:64 --trace --db "$db" >/dev/null || true
"$gpulab" sim "$here/../fixtures/sim/sanitizer.ptx" --kernel race --grid 2 --block 64 \
	--arg buf:in:f32:128:seq --arg buf:out:f32:128 --trace --db "$db" >/dev/null || true
sqlite3 "$db" "DELETE FROM trace_events WHERE seq >= 600; VACUUM;"
{
	sqlite3 "$db" .dump
	# .dump leaves out the two numbers that make the file gpulab's
	echo "PRAGMA application_id = $(sqlite3 "$db" 'PRAGMA application_id');"
	echo "PRAGMA user_version = $(sqlite3 "$db" 'PRAGMA user_version');"
} >"$out"
echo "wrote $out: $(sqlite3 "$db" 'SELECT count(*) FROM runs') runs, $(sqlite3 "$db" 'SELECT count(*) FROM launches') launches, $(sqlite3 "$db" 'SELECT count(*) FROM trace_events') trace events"
