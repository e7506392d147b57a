#!/usr/bin/env bats
# The cuda backend against gpulab's own driver library (build/driver/libcuda.so.1, the driver API on
# the PTX simulator; see docs/driver.md and docs/gpu.md), with its test hooks (GPULAB_STANDIN_*): the real dlopen("libcuda.so.1") path found through
# LD_LIBRARY_PATH, argument marshalling for every topic, copies, event timing, verification after
# timing, each driver error as a message and an exit status, the PTX ISA check, and `validate` with
# the GPU's metrics not collected (CUPTI cannot profile a driver that is not NVIDIA's).

load test_helper

setup() {
	common_setup
	DRIVER="${GPULAB_DRIVER_DIR:-$(dirname "$GPULAB")/driver}"
	[ -e "$DRIVER/libcuda.so.1" ] || skip "no driver library at $DRIVER (built by 'make build')"
	export LD_LIBRARY_PATH="$DRIVER${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export GPULAB_DRIVER_THREADS=2
	unset GPULAB_STANDIN_FAIL GPULAB_STANDIN_DRIVER GPULAB_STANDIN_DEVICES GPULAB_GPU
}

q() { "$GPULAB" query --db "$DB" --csv "$1" | tail -n 1; }

@test "stand-in: devices shows the simulated H100 and that its driver runs gpulab's PTX" {
	run "$GPULAB" devices
	assert_success
	assert_output --partial "GPU 0: NVIDIA H100 SXM5 80GB (gpulab simulator)"
	assert_line --regexp '^  compute +9\.0 '
	assert_line --regexp '^  driver +CUDA 13\.0$'
	assert_line --regexp '^  PTX +ISA 9\.0, needs a CUDA 13\.0 driver: this one can run it$'
	run "$GPULAB" devices --json
	assert_success
	[ "$(jq -r '.devices[0].ptx_ok' <<<"$output")" = true ]
}

@test "stand-in: doctor names the library it loaded, checks the PTX, warns that CUPTI cannot profile" {
	run "$GPULAB" doctor --db "$DB"
	assert_line --regexp "^ok +libcuda +libcuda.so.1 loaded from .*/driver/libcuda.so.1$"
	assert_line --regexp '^ok +ptx +gpulab.s PTX is ISA 9\.0, which needs CUDA 13\.0; the driver is CUDA 13\.0$'
	assert_line --regexp "^warn +profiling +.*gpulab's own driver library"
}

@test "stand-in: a driver older than the PTX: devices and doctor say which driver is needed" {
	export GPULAB_STANDIN_DRIVER=12080
	run "$GPULAB" devices
	assert_success
	assert_output --partial "needs a CUDA 13.0 driver (Linux 580.65.06 or newer); this driver is CUDA 12.8"
	run "$GPULAB" devices --json
	[ "$(jq -r '.devices[0].ptx_ok' <<<"$output")" = false ]
	run "$GPULAB" doctor --db "$DB"
	assert_failure 3
	assert_line --regexp '^fail +ptx +gpulab.s PTX \(ISA 9\.0\) needs a CUDA 13\.0 driver'
}

@test "stand-in: --backend cuda with a driver older than the PTX exits 3 before the database is touched" {
	GPULAB_STANDIN_DRIVER=12080 run --separate-stderr "$GPULAB" run transpose --backend cuda --db "$DB"
	assert_failure 3
	[[ "$stderr" == *"needs a CUDA 13.0 driver"* && "$stderr" == *"CUDA 12.8"* ]]
	[ ! -e "$DB" ]
	GPULAB_STANDIN_DRIVER=12080 run --separate-stderr "$GPULAB" -v run transpose --size 64 --variant copy --db "$DB"
	assert_success
	[[ "$stderr" == *"backend sim"*"needs a CUDA 13.0 driver"* ]]
}

@test "stand-in: --backend auto picks cuda when the driver works" {
	run --separate-stderr "$GPULAB" -v run transpose --size 64 --variant copy --db "$DB"
	assert_success
	[[ "$stderr" == *"backend cuda: CUDA driver 13.0 with 1 device"* ]]
	[ "$(q "SELECT backend FROM runs")" = cuda ]
	[ "$(q "SELECT backend_note FROM runs")" = "backend cuda: CUDA driver 13.0 with 1 device" ]
}

@test "stand-in: every transpose variant verified after timing, timed, stored as cuda without CUPTI rows" {
	run "$GPULAB" run transpose --size 200 --repeat 3 --backend cuda --db "$DB"
	assert_success
	assert_output --partial "NVIDIA H100 SXM5 80GB (gpulab simulator)"
	[ "$(q "SELECT count(*) FROM launches WHERE verified = 1")" = 5 ]
	[ "$(q "SELECT count(*) FROM launches WHERE duration_ns > 0")" = 5 ]
	[ "$(q "SELECT count(*) FROM metrics WHERE source = 'cupti'")" = 0 ]
	[ "$(q "SELECT count(*) FROM launches WHERE note LIKE 'timings only, no CUPTI metrics:%gpulab''s own driver library%'")" = 5 ]
}

@test "stand-in: pointers, floats and integers reach the kernels of every topic" {
	run "$GPULAB" run gemm --size 72 --repeat 2 --backend cuda --db "$DB"
	assert_success
	run "$GPULAB" run reduce --size 70001 --backend cuda --db "$DB"
	assert_success
	run "$GPULAB" run gmem_patterns --size 40000 --backend cuda --db "$DB"
	assert_success
	run "$GPULAB" run smem_patterns --size 3 --backend cuda --db "$DB"
	assert_success
	[ "$(q "SELECT count(*) FROM launches WHERE verified = 1")" = 24 ]
	[ "$(q "SELECT count(*) FROM launches")" = 24 ]
}

# fail CALL STATUS WORDS: GPULAB_STANDIN_FAIL=CALL makes `run --backend cuda` exit STATUS with WORDS
# in the message, and store nothing.
fail() {
	GPULAB_STANDIN_FAIL=$1 run --separate-stderr "$GPULAB" run transpose --size 64 --variant coalesced \
		--backend cuda --db "$DB"
	[ "$status" -eq "$2" ] || { echo "GPULAB_STANDIN_FAIL=$1: status $status, want $2: $stderr"; return 1; }
	[[ "$stderr" == *"$3"* ]] || { echo "GPULAB_STANDIN_FAIL=$1: '$3' not in: $stderr"; return 1; }
	if [ -e "$DB" ]; then
		[ "$(q "SELECT count(*) FROM launches")" = 0 ] || { echo "$1: a launch was stored"; return 1; }
	fi
}

@test "stand-in: each driver call that fails gives a message naming it and the right exit status" {
	fail cuInit 3 "CUDA_ERROR_NO_DEVICE"
	fail cuDevicePrimaryCtxRetain 2 "cuDevicePrimaryCtxRetain failed: CUDA_ERROR_OUT_OF_MEMORY"
	fail cuEventCreate 2 "cuEventCreate failed"
	fail cuModuleLoadDataEx 3 "CUDA_ERROR_INVALID_PTX: a PTX JIT compilation failed"
	fail cuModuleLoadDataEx 3 "ptxas fatal   : failure injected by GPULAB_STANDIN_FAIL"
	fail cuModuleGetFunction 4 "has no kernel 'transpose_coalesced'"
	fail cuMemAlloc@2 2 "cuMemAlloc of buffer"
	fail cuMemcpyHtoD 2 "cuMemcpyHtoD failed: CUDA_ERROR_INVALID_VALUE"
	fail cuLaunchKernel 3 "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"
	fail cuLaunchKernel@2 3 "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES" # the timed run
	fail cuCtxSynchronize 3 "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered (an out-of-bounds"
	fail cuMemsetD8 2 "cuMemsetD8 (L2 flush) failed"
	fail cuEventRecord@2 3 "cuEventRecord failed"
	fail cuEventElapsedTime 3 "cuEventElapsedTime failed: CUDA_ERROR_NOT_READY"
	fail cuMemcpyDtoH@2 2 "cuMemcpyDtoH failed"
}

@test "stand-in: no device, and a device that does not exist" {
	GPULAB_STANDIN_DEVICES=0 run --separate-stderr "$GPULAB" devices
	assert_failure 3
	[[ "$stderr" == *"CUDA_ERROR_NO_DEVICE"* ]]
	run --separate-stderr "$GPULAB" run transpose --backend cuda --device 1 --db "$DB"
	assert_failure 2
	[[ "$stderr" == *"--device 1 does not exist: this machine has 1 GPU (0..0)"* ]]
}

@test "stand-in: float sums that differ in the last place after timing are no difference" {
	GPULAB_STANDIN_FAIL=ulp@2 run "$GPULAB" run reduce --variant atomic --size 50000 --repeat 1 --backend cuda --db "$DB"
	assert_success
	refute_output --partial "differs"
	[ "$(q "SELECT verified FROM launches")" = 1 ]
}

@test "stand-in: a first run that fails verification fails the launch even when the timed run passes" {
	GPULAB_STANDIN_FAIL=nan@1 run "$GPULAB" run reduce --variant atomic --size 50000 --repeat 1 --backend cuda --db "$DB"
	assert_failure 1
	assert_output --partial "verification failed on the first run, passed after timing"
	[ "$(q "SELECT verified FROM launches")" = 0 ]
	GPULAB_STANDIN_FAIL=nan@2 run "$GPULAB" run reduce --variant atomic --size 50000 --repeat 1 --backend cuda --db "$DB"
	assert_failure 1
	assert_output --partial "verification failed: 1 mismatches, first sum: got nan"
}

@test "stand-in: validate marks the GPU's uncollected metrics 'not collected', never a difference" {
	run "$GPULAB" validate transpose --strict --db "$DB"
	assert_success
	assert_output --partial "transpose/padded: verified on sim yes, on cuda yes; timings only, no CUPTI metrics"
	assert_line --regexp '^  l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum +131072 +- +- +not collected on the GPU$'
	refute_output --partial "DIFFERS"
	assert_line "0 exact counts differ between the simulator and CUPTI, 0 agree; 60 rows not collected on the GPU; 0 verification failures"
	[ "$(q "SELECT group_concat(backend, '+') FROM (SELECT backend FROM runs ORDER BY id)")" = sim+cuda ]
}

@test "stand-in: validate --json gives null for what the GPU did not collect" {
	run "$GPULAB" validate transpose --json --db "$DB"
	assert_success
	[ "$(jq -r '.disagreements, .not_collected, .failures' <<<"$output" | tr '\n' ' ')" = "0 60 0 " ]
	row=$(jq -c '.variants[0].metrics[] | select(.name == "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")' <<<"$output")
	[ "$row" = '{"name":"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum","sim":32768,"cupti":null,"ratio":null,"kind":"exact","row":"not collected"}' ]
}

@test "stand-in: validate exits 1 when the GPU's output fails verification" {
	GPULAB_STANDIN_FAIL=nan@1 run "$GPULAB" validate reduce --db "$DB"
	assert_failure 1
	assert_output --partial "reduce/atomic: verified on sim yes, on cuda NO"
}
