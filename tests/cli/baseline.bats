#!/usr/bin/env bats
# gpulab baseline: cuBLAS cublasGemmEx timed on the hgemm problem; its refusals, and exit 3 without a GPU.

setup() {
	load test_helper
	common_setup
}

@test "baseline: only hgemm has one; sizes are checked like run's" {
	run "$GPULAB" baseline gemm
	assert_failure 2
	assert_output --partial "no vendor baseline for topic gemm: hgemm has one (cuBLAS cublasGemmEx)"
	run "$GPULAB" baseline hgem
	assert_failure 2
	assert_output --partial "did you mean 'hgemm'"
	run "$GPULAB" baseline hgemm --m 0
	assert_failure 2
	assert_output --partial "--m 0 is out of range"
	run "$GPULAB" baseline
	assert_failure 2
	assert_output --partial "baseline needs a TOPIC (hgemm)"
	run "$GPULAB" baseline --help
	assert_success
	assert_output --partial "cublasGemmEx with fp16 A and B, fp32 C and CUBLAS_COMPUTE_32F"
}

@test "baseline hgemm without a GPU exits 3 saying why" {
	if "$GPULAB" devices >/dev/null 2>&1; then
		skip "a GPU is present: the next test times cuBLAS"
	fi
	run "$GPULAB" baseline hgemm --size 256
	assert_failure 3
	assert_output --regexp "no CUDA driver|needs a GPU|cuBLAS not found"
}

@test "baseline hgemm on a GPU: a positive time and TFLOP/s = 2mnk / time" {
	if ! "$GPULAB" devices >/dev/null 2>&1; then
		skip "no GPU"
	fi
	run --separate-stderr "$GPULAB" baseline hgemm --size 1024 --repeat 5 --json
	assert_success
	ms=$(jq '.ms' <<<"$output")
	tf=$(jq '.tflops' <<<"$output")
	python3 -c "import sys; ms, tf = $ms, $tf; assert ms > 0 and abs(tf - 2 * 1024**3 / (ms * 1e9)) < 1e-6 * tf, (ms, tf)"
}
