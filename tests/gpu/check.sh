#!/usr/bin/env bash
# tests/gpu/check.sh — the GPU checks, prepared for a machine with an NVIDIA GPU (a few minutes):
# build, devices, doctor, every topic on --backend cuda, validate, one counter-data image saved as a
# golden file (then decoded on the host API, as the CPU-only test will), and the GPU-only Bats tests.
# Every step runs even when an earlier one fails; the summary and the exit status say which failed.
# Logs go to $OUT/gpu-check/ when OUT is set (else build-check/gpu-check/).
#   usage: tests/gpu/check.sh [BUILD_DIR]        (default build-check, configured with sanitizers off:
#                                                 CUPTI's host library cannot load under ASan)
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD="${1:-build-check}"
LOG="${OUT:-$BUILD}/gpu-check"
GOLDEN="$LOG/golden"
DB="$LOG/gpu-check.db"
mkdir -p "$LOG" "$GOLDEN"
rm -f "$DB" "$DB"-*
GPULAB="$PWD/$BUILD/gpulab"
failed=()

step() { # step NAME TIMEOUT_S CMD... — run, log to $LOG/NAME.log, remember failures
	local name=$1 limit=$2
	shift 2
	local t0=$SECONDS
	printf '== %-28s ' "$name"
	timeout --kill-after=10 "$limit" "$@" >"$LOG/$name.log" 2>&1
	local rc=$?
	printf 'rc=%-3s %3ss\n' "$rc" "$((SECONDS - t0))"
	[ "$rc" -eq 0 ] || failed+=("$name(rc=$rc)")
	return 0
}

{
	date -u
	uname -a
	id
	nvidia-smi || true
	grep -H RmProfilingAdminOnly /proc/driver/nvidia/params || true
	cat /proc/driver/nvidia/version || true
	ls -l /usr/local/cuda/lib64/libcupti* /usr/local/cuda/extras/CUPTI/lib64/libcupti* 2>/dev/null
} >"$LOG/environment.log" 2>&1

step build 400 bash -c "cmake -S . -B '$BUILD' -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPULAB_SANITIZE=OFF \
	&& cmake --build '$BUILD' -j \$(nproc)"
step devices 60 "$GPULAB" devices
step devices-json 60 "$GPULAB" devices --json
step doctor 60 "$GPULAB" doctor --db "$DB"
step metrics-own-chip 60 "$GPULAB" metrics --search bank_conflicts

# Every topic on the GPU with every metric (all variants), timed 5 times after L2 flushes; the
# counter-data images of the profiled launches are kept as golden files.
topics=$("$GPULAB" list --json 2>/dev/null | python3 -c 'import json,sys
d = json.load(sys.stdin)
items = d["topics"] if isinstance(d, dict) else d
print(" ".join(t["name"] if isinstance(t, dict) else t for t in items))' 2>/dev/null)
[ -n "$topics" ] || topics="transpose smem_patterns gmem_patterns"
echo "topics: $topics" >>"$LOG/environment.log"
for t in $topics; do
	step "run-$t" 120 env GPULAB_SAVE_COUNTERDATA="$GOLDEN" \
		"$GPULAB" run "$t" --variant all --backend cuda --metrics all --repeat 5 --db "$DB"
done
step backend-auto 60 "$GPULAB" run transpose --backend auto --db "$DB"
step validate 180 "$GPULAB" validate --db "$DB"
step validate-json 120 "$GPULAB" validate transpose --json --db "$DB"
step stored-cupti 30 bash -c "'$GPULAB' query --db '$DB' \"SELECT r.backend, l.topic, l.variant, m.name, m.value,
	m.unit, m.source, l.duration_ns, l.note FROM metrics m JOIN launches l ON l.id = m.launch_id
	JOIN runs r ON r.id = l.run_id WHERE m.source = 'cupti' ORDER BY l.id, m.name\" &&
	n=\$('$GPULAB' query --db '$DB' --csv \"SELECT count(*) FROM metrics WHERE source = 'cupti'\" | tail -1) &&
	echo \"cupti rows: \$n\" && [ \"\$n\" -gt 0 ]"

# Decode the saved images with the host API only, exactly as the CPU-side test will.
step golden-saved 10 bash -c "ls -l '$GOLDEN'/*.counterdata '$GOLDEN'/*.txt && head -40 '$GOLDEN'/*.txt"
cp "$GOLDEN"/*.counterdata "$GOLDEN"/*.txt tests/fixtures/cupti/ 2>/dev/null
step decode-golden 60 "$BUILD/test_profiler_golden"
step unit-profiler 120 bash -c "cd '$BUILD' && ctest -R profiler --output-on-failure"
step bats-gpu 180 env GPULAB="$GPULAB" bats tests/cli/devices.bats tests/cli/doctor.bats \
	tests/cli/metrics.bats tests/cli/backend_cuda.bats

echo
for f in devices doctor validate decode-golden; do
	[ -f "$LOG/$f.log" ] && { echo "---- $f"; head -60 "$LOG/$f.log"; }
done
echo
if [ ${#failed[@]} -eq 0 ]; then
	echo "gpu check: all steps passed; logs and golden counter data in $LOG"
	exit 0
fi
echo "gpu check: FAILED: ${failed[*]}; logs in $LOG"
exit 1
