#!/usr/bin/env bats
# The CUPTI injection library of `gpulab profile --backend cuda` (libgpulab_inject.so) loaded into an
# unmodified program through CUDA_INJECTION64_PATH, as NVIDIA's driver loads it; gpulab's own driver
# library honours the variable the same way.  On gpulab's driver CUPTI cannot profile, and the library
# says so while the program runs on unharmed.

setup_file() { # one stock nvcc build for every test
	local nvcc="${CUDA_HOME:-/usr/local/cuda}/bin/nvcc"
	if [ -x "$nvcc" ]; then
		"$nvcc" -o "$BATS_FILE_TMPDIR/profile_app" "$BATS_TEST_DIRNAME/../gpu/profile_app.cu"
	fi
}

setup() {
	load test_helper
	common_setup
	BUILD="$(dirname "$GPULAB")"
	INJECT="$(cd "$BUILD" && pwd)/inject/libgpulab_inject.so"
	APP="$BATS_FILE_TMPDIR/profile_app"
	[ -x "$APP" ] || skip "no nvcc to build tests/gpu/profile_app.cu"
	export GPULAB_DRIVER_THREADS=2 GPULAB_PROFILE=0
}

@test "CUDA_INJECTION64_PATH: InitializeInjection runs inside cuInit, says why nothing is profiled, the program is unharmed" {
	run --separate-stderr env CUDA_INJECTION64_PATH="$INJECT" LD_LIBRARY_PATH="$BUILD/driver" "$APP"
	assert_success
	assert_output "profile_app: 0 of 65536 sums wrong, total 327673 (want 327673)"
	[[ "$stderr" == *"gpulab: this libcuda.so.1 is gpulab's own driver library"* ]]
	[[ "$stderr" == *"the program runs unprofiled"* ]]
	[ "$(grep -c 'runs unprofiled' <<<"$stderr")" = 1 ] # once per process
}

@test "CUDA_INJECTION64_PATH naming no library, or one without InitializeInjection: named, and the program runs" {
	run --separate-stderr env CUDA_INJECTION64_PATH="$BATS_TEST_TMPDIR/nosuch.so" LD_LIBRARY_PATH="$BUILD/driver" "$APP"
	assert_success
	assert_output --partial "0 of 65536 sums wrong"
	[[ "$stderr" == *"CUDA_INJECTION64_PATH=$BATS_TEST_TMPDIR/nosuch.so cannot be loaded"* ]]
	run --separate-stderr env CUDA_INJECTION64_PATH="$(cd "$BUILD" && pwd)/python/libnvJitLink.so.13" \
		LD_LIBRARY_PATH="$BUILD/driver" "$APP"
	assert_success
	[[ "$stderr" == *"has no InitializeInjection"* ]]
}

@test "a malformed selection reaches the program's stderr, never its exit status" {
	run --separate-stderr env CUDA_INJECTION64_PATH="$INJECT" GPULAB_PROFILE_COUNT=many \
		LD_LIBRARY_PATH="$BUILD/driver" "$APP"
	assert_success
	[[ "$stderr" == *"GPULAB_PROFILE_COUNT"* && "$stderr" == *"many"* && "$stderr" == *"runs unprofiled"* ]]
}

@test "profile --backend: cuda needs NVIDIA's driver and a GPU (exit 3, nothing stored), sim runs, others refused" {
	if "$GPULAB" devices >/dev/null 2>&1; then skip "a GPU is present (tests/gpu/check.sh profiles on it)"; fi
	run --separate-stderr "$GPULAB" profile --backend cuda --db "$DB" -- "$APP"
	assert_failure 3
	[[ "$stderr" == *"--backend cuda needs a GPU and NVIDIA's driver"* && "$stderr" == *"--backend sim"* ]]
	[ ! -e "$DB" ]
	# gpulab's own driver library first on the path is no GPU for CUPTI
	run --separate-stderr env LD_LIBRARY_PATH="$BUILD/driver" "$GPULAB" profile --backend cuda --db "$DB" -- "$APP"
	assert_failure 3
	[[ "$stderr" == *"gpulab's own driver library"* ]]
	run --separate-stderr "$GPULAB" profile --backend gpu --db "$DB" -- "$APP"
	assert_failure 2
	[[ "$stderr" == *"--backend gpu: give auto, cuda or sim"* ]]
	# auto without a GPU, and sim: the simulator, both launches stored
	for b in auto sim; do
		run --separate-stderr "$GPULAB" profile --backend "$b" --db "$DB" -- "$APP"
		assert_success
		assert_output "profile_app: 0 of 65536 sums wrong, total 327673 (want 327673)"
	done
	[ "$("$GPULAB" query --db "$DB" --csv "SELECT count(*) FROM launches l JOIN runs r ON r.id = l.run_id
		WHERE r.backend = 'sim'" | tail -1)" = 4 ]
}
