#!/usr/bin/env bash
# bench/launches.sh BUILD [LAUNCHES]: the driver library's cost per kernel launch, outside the simulation.
# tests/programs/launches.cu (LAUNCHES launches of a one-block kernel, default 2000) is built by the
# toolkit's nvcc with its default flags and run twice under `gpulab profile` (every launch simulated,
# sanitized, recorded and stored) with an empty cache folder, so the first run is cold (ptxas runs) and
# the second finds ptxas's report in the cache.  The library measures itself (GPULAB_DRIVER_STATS): the
# time inside its entry points less the time inside the simulator (gl_sim_run), divided by the launches;
# what gpulab's own process does afterwards (storing the launches) is in the wall time only.
set -euo pipefail
build=$1
launches=${2:-2000}
gpulab=$build/gpulab
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
target_ms=2

echo "gpulab driver benchmark: a program of $launches small launches under gpulab profile, cold cache then warm"
printf '%-28s %10s %10s %14s %12s %18s\n' "problem" "1st run" "2nd run" "in library" "simulating" "library/launch"
row="launches:$launches"
if [ ! -x "$nvcc" ] || [ ! -e "$build/driver/libcuda.so.1" ]; then
	printf '%-28s skipped (no nvcc, or no driver library in %s)\n' "$row" "$build"
	exit 0
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/gpulab-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
"$nvcc" -o "$work/launches" "$(dirname "$0")/../tests/programs/launches.cu"
export XDG_CACHE_HOME=$work/cache # empty: the first run pays ptxas

# run N: the wall seconds of one profiled run; its stats line in $work/stats.N
run() {
	local start end
	start=$(date +%s.%N)
	GPULAB_DRIVER_STATS=1 "$gpulab" --db "$work/bench.db" profile --log "$work/log.$1" -- "$work/launches" \
		"$launches" >"$work/out.$1" 2>"$work/stats.$1"
	end=$(date +%s.%N)
	grep -qx "$launches launches: every counter is $launches" "$work/out.$1" ||
		{ echo "bench: the program's own check failed: $(cat "$work/out.$1")" >&2; exit 1; }
	awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }'
}
first=$(run 1)
second=$(run 2)
# "... N kernel launches; A s inside the library's entry points, S s of it simulating; P ms per launch ..."
stat() { sed -n "s/.*launches; \([0-9.]*\) s inside.*, \([0-9.]*\) s of it simulating; \([0-9.]*\) ms per launch.*/\\$2/p" "$work/stats.$1"; }
for r in 1 2; do
	[ -n "$(stat $r 3)" ] || { echo "bench: no GPULAB_DRIVER_STATS line from run $r" >&2; exit 1; }
done
printf '%-28s %8s s %8s s %10s s %10s s %12s ms\n' "$row" "$first" "$second" "$(stat 2 1)" "$(stat 2 2)" "$(stat 2 3)"
printf '%-28s first run %s ms per launch outside the simulation (%s s in the library, %s s simulating)\n' "" \
	"$(stat 1 3)" "$(stat 1 1)" "$(stat 1 2)"

# Did the second run skip ptxas?  A third, untimed run of one launch with the trace on says.
GPULAB_DRIVER_TRACE=1 GPULAB_PROFILE=0 LD_LIBRARY_PATH="$build/driver" "$work/launches" 1 >/dev/null 2>"$work/trace"
reused=no
grep -q "ptxas not run" "$work/trace" && ! grep -q "ran ptxas" "$work/trace" && reused=yes
missed=0
per_ok=$(awk -v a="$(stat 1 3)" -v b="$(stat 2 3)" -v t=$target_ms 'BEGIN { print (a <= t && b <= t) ? "met" : "MISSED" }')
[ "$per_ok" = met ] || missed=$((missed + 1))
[ "$reused" = yes ] || missed=$((missed + 1))
printf '%-28s target <= %s ms per launch outside the simulation: %s;  a later run reuses ptxas'"'"'s report: %s\n' "" \
	"$target_ms" "$per_ok" "$([ $reused = yes ] && echo met || echo MISSED)"
echo "$missed target$([ $missed = 1 ] || echo s) missed"
