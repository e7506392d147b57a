#!/usr/bin/env bash
# tests/gpu/check.sh — the GPU checks, prepared for a machine with an NVIDIA GPU (under 9 minutes in
# all): build dependencies, build, devices, doctor, every topic on --backend cuda, validate --strict,
# one counter-data image saved as a golden file (then decoded on the host API, as the CPU-only test
# will), and the GPU-only Bats tests.  Every step runs even when an earlier one fails (until the
# overall deadline); the summary and the exit status say which failed or were cut.  Every step's log
# is kept in $OUT/gpu-check/ when OUT is set (else BUILD_DIR/gpu-check/).
#   usage: tests/gpu/check.sh [BUILD_DIR]        (default build-check, configured with sanitizers off:
#                                                 CUPTI's host library cannot load under ASan)
#   GPU_CHECK_DEADLINE_S=520 (default) bounds the whole script; each step gets the smaller of its own
#   limit and the time left.
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD="${1:-build-check}"
LOG="${OUT:-$BUILD}/gpu-check"
GOLDEN="$LOG/golden"
DB="$LOG/gpu-check.db"
mkdir -p "$LOG" "$GOLDEN"
rm -f "$DB" "$DB"-*
GPULAB="$PWD/$BUILD/gpulab"
DEADLINE=$((SECONDS + ${GPU_CHECK_DEADLINE_S:-520}))
failed=()

step() { # step NAME TIMEOUT_S CMD... — run, log to $LOG/NAME.log, remember failures
	local name=$1 limit=$2
	shift 2
	local left=$((DEADLINE - SECONDS))
	printf '== %-28s ' "$name"
	if ((left < 5)); then
		echo "not run: the overall deadline is reached" | tee "$LOG/$name.log"
		failed+=("$name(deadline)")
		return 0
	fi
	((limit > left)) && limit=$left
	local t0=$SECONDS
	timeout --kill-after=5 "$limit" "$@" >"$LOG/$name.log" 2>&1
	local rc=$?
	printf 'rc=%-3s %3ss\n' "$rc" "$((SECONDS - t0))"
	[ "$rc" -eq 0 ] || failed+=("$name(rc=$rc)")
	return 0
}

# What building and testing need, checked before anything is built: the GPU machine may have no
# package registry, so a missing piece is named rather than installed.
check_deps() {
	local missing=() cuda="${CUDA_HOME:-/usr/local/cuda}"
	for tool in cmake make cc pkg-config python3 jq bats timeout; do
		command -v "$tool" >/dev/null || missing+=("$tool")
	done
	for pc in sqlite3 ncursesw; do
		pkg-config --exists "$pc" 2>/dev/null || missing+=("$pc (pkg-config; Debian: lib${pc%w}-dev)")
	done
	for f in "$cuda/bin/nvcc" "$cuda/bin/ptxas" "$cuda/include/cuda.h" "$cuda/include/cupti_range_profiler.h"; do
		[ -e "$f" ] || missing+=("$f")
	done
	for f in /usr/lib/bats/bats-support/load.bash /usr/lib/bats/bats-assert/load.bash; do
		[ -e "$f" ] || missing+=("$f (Debian: bats-support, bats-assert)")
	done
	if ((${#missing[@]})); then
		printf 'missing: %s\n' "${missing[@]}"
		return 1
	fi
	echo "all build and test dependencies present"
}

# The topics the binary embeds; an empty or unreadable list fails instead of testing fewer.
list_topics() {
	"$GPULAB" list --json | python3 -c 'import json,sys
d = json.load(sys.stdin)
items = d["topics"] if isinstance(d, dict) else d
names = [t["name"] if isinstance(t, dict) else t for t in items]
assert names, "gpulab list --json named no topic"
print(" ".join(names))'
}

export -f check_deps list_topics
export GPULAB

{
	date -u
	uname -a
	id
	nvidia-smi || true
	grep -H RmProfilingAdminOnly /proc/driver/nvidia/params || true
	cat /proc/driver/nvidia/version || true
	ls -l /usr/local/cuda/lib64/libcupti* /usr/local/cuda/extras/CUPTI/lib64/libcupti* 2>/dev/null
} >"$LOG/environment.log" 2>&1

step deps 30 bash -c check_deps
if [ -f "$LOG/deps.log" ] && grep -q '^missing:' "$LOG/deps.log"; then
	cat "$LOG/deps.log"
	echo "gpu check: FAILED: build dependencies missing (see above); logs in $LOG"
	exit 1
fi
step build 300 bash -c "cmake -S . -B '$BUILD' -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPULAB_SANITIZE=OFF \
	&& cmake --build '$BUILD' -j \$(nproc)"
step devices 30 "$GPULAB" devices
step devices-json 30 "$GPULAB" devices --json
step doctor 30 "$GPULAB" doctor --db "$DB"
step metrics-own-chip 30 "$GPULAB" metrics --search bank_conflicts

# Every topic on the GPU with every metric (all variants), timed 5 times after L2 flushes; the
# counter-data images of the profiled launches are kept as golden files.
step topics 20 bash -c list_topics
topics=$(tail -n 1 "$LOG/topics.log")
grep -q '^[a-z_ ]\+$' <<<"$topics" || topics="" # a failed list leaves an error message there
echo "topics: ${topics:-none (the topics step failed)}" >>"$LOG/environment.log"
for t in $topics; do
	step "run-$t" 60 env GPULAB_SAVE_COUNTERDATA="$GOLDEN" \
		"$GPULAB" run "$t" --variant all --backend cuda --metrics all --repeat 5 --db "$DB"
done
# Attention at seq 4096, d 128 (flash2_mma in fp16), causal and not: TFLOP/s per variant from the timed
# launches, counting the 4 N^2 d FLOPs of the attention (half of them, N(N+1)/2 pairs, when causal).
attention_tflops() {
	for causal in 0 1; do
		"$GPULAB" run attention --variant all --seq 4096 --dim 128 --heads 2 --causal $causal --backend cuda \
			--metrics memory --repeat 5 --db "$DB" --json | python3 -c 'import json, sys
r = json.load(sys.stdin)
for l in r["launches"]:
    p = l["params"]; n, nk, d = p["seq"], p["seq-k"] or p["seq"], p["dim"]
    pairs = sum(min(i + 1, nk) for i in range(n)) if p["causal"] else n * nk
    flops = 4.0 * d * pairs * p["batch"] * p["heads"]
    t = l["duration_ns"]
    print("attention causal=%d %-11s %s  verified=%s" % (p["causal"], l["variant"],
          "%8.2f TFLOP/s" % (flops / t / 1e3) if t else "not timed", l["verified"]))' || return 1
	done
}
export -f attention_tflops
step attention-tflops 240 bash -c attention_tflops
step backend-auto 30 "$GPULAB" run transpose --backend auto --db "$DB"
# conv2d beyond its default: the real ResNet-18 conv2_x layer (56x56) in NHWC, where the implicit GEMM
# on tensor cores loads 16-byte vectors
step conv2d-nhwc-56 60 "$GPULAB" run conv2d --variant all --layout nhwc --size 56 --backend cuda --repeat 5 --db "$DB"
# hgemm: TFLOP/s of every variant beside cuBLAS cublasGemmEx (fp16 in, fp32 compute) on 4096^3.
hgemm_vs_cublas() {
	local run base
	run=$("$GPULAB" run hgemm --variant all --size 4096 --backend cuda --metrics memory --repeat 5 --json \
		--db "$DB") || return 1
	base=$("$GPULAB" baseline hgemm --size 4096 --repeat 20 --json) || return 1
	python3 - "$run" "$base" <<'PY'
import json, sys
run, base = json.loads(sys.argv[1]), json.loads(sys.argv[2])
flop = 2.0 * 4096 ** 3
print(f"{'cuBLAS cublasGemmEx':<22} {base['tflops']:8.2f} TFLOP/s  {base['ms']:8.3f} ms  100.0%")
ok = True
for l in run["launches"]:
    ns = l.get("duration_ns")
    tf = flop / ns / 1e3 if ns else float("nan")
    ok = ok and bool(l.get("verified")) and ns is not None
    print(f"hgemm {l['variant']:<16} {tf:8.2f} TFLOP/s  {(ns or 0) / 1e6:8.3f} ms  "
          f"{100.0 * tf / base['tflops']:5.1f}%  verified {l.get('verified')}")
sys.exit(0 if ok else 1)
PY
}
export -f hgemm_vs_cublas
step hgemm-vs-cublas 120 bash -c hgemm_vs_cublas
step validate 120 "$GPULAB" validate --strict --db "$DB"
step validate-json 60 "$GPULAB" validate transpose --json --db "$DB"
# The estimate (model) from the simulator's counts beside the measured time: the model's error
# (docs/insights.md records it).
for t in transpose gemm; do
	step "estimate-error-$t" 60 bash -c "'$GPULAB' validate $t --json --db '$DB' 2>/dev/null | jq -r '.variants[] |
		[.topic, .variant, .estimate_gpu, .estimate_bound, .estimate_us, .measured_us, .estimate_us / .measured_us]
		| @tsv'"
done
step stored-cupti 20 bash -c "'$GPULAB' query --db '$DB' \"SELECT r.backend, l.topic, l.variant, m.name, m.value,
	m.unit, m.source, l.duration_ns, l.note FROM metrics m JOIN launches l ON l.id = m.launch_id
	JOIN runs r ON r.id = l.run_id WHERE m.source = 'cupti' ORDER BY l.id, m.name\" &&
	n=\$('$GPULAB' query --db '$DB' --csv \"SELECT count(*) FROM metrics WHERE source = 'cupti'\" | tail -1) &&
	echo \"cupti rows: \$n\" && [ \"\$n\" -gt 0 ]"

# gpulab profile on the GPU (CUPTI injection, kernel replay) and on the simulator, one stock nvcc build of
# one program: the two runs' counts launch by launch under validate --strict's rule.
profile_gpu_vs_sim() {
	local app="$LOG/profile_app" gpu sim
	"${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" -o "$app" tests/gpu/profile_app.cu || return 1
	"$GPULAB" profile --backend cuda --metrics sim --db "$DB" -- "$app" || return 1
	gpu=$("$GPULAB" query --db "$DB" --csv "SELECT max(id) FROM runs" | tail -1)
	"$GPULAB" profile --backend sim --db "$DB" -- "$app" || return 1
	sim=$("$GPULAB" query --db "$DB" --csv "SELECT max(id) FROM runs" | tail -1)
	"$GPULAB" report "$gpu" --db "$DB" && "$GPULAB" compare --runs "$sim,$gpu" --strict --db "$DB"
}
export -f profile_gpu_vs_sim
step profile-gpu-vs-sim 120 bash -c profile_gpu_vs_sim

# Decode the saved images with the host API only, exactly as the CPU-side test will; decoding
# nothing is a failure here.
step golden-saved 10 bash -c "ls -l '$GOLDEN'/*.counterdata '$GOLDEN'/*.txt && head -40 '$GOLDEN'/*.txt"
cp "$GOLDEN"/*.counterdata "$GOLDEN"/*.txt tests/fixtures/cupti/ 2>/dev/null
step decode-golden 60 env GPULAB_GOLDEN_REQUIRED=1 "$BUILD/test_profiler_golden"
step unit-profiler 90 bash -c "cd '$BUILD' && ctest -R profiler --output-on-failure"
step bats-gpu 120 env GPULAB="$GPULAB" bats tests/cli/devices.bats tests/cli/doctor.bats \
	tests/cli/metrics.bats tests/cli/backend_cuda.bats

echo
for f in devices doctor validate profile-gpu-vs-sim estimate-error-transpose estimate-error-gemm decode-golden hgemm-vs-cublas attention-tflops; do
	[ -f "$LOG/$f.log" ] && { echo "---- $f"; head -60 "$LOG/$f.log"; }
done
echo
if [ ${#failed[@]} -eq 0 ]; then
	echo "gpu check: all steps passed in ${SECONDS}s; logs and golden counter data in $LOG"
	exit 0
fi
echo "gpu check: FAILED: ${failed[*]}; logs in $LOG"
exit 1
