#!/usr/bin/env bats
# gpulab devices: the GPUs the driver sees, or one clear line and exit 3.

bats_require_minimum_version 1.5.0

setup() {
	load '/usr/lib/bats/bats-support/load'
	load '/usr/lib/bats/bats-assert/load'
	GPULAB="${GPULAB:-$BATS_TEST_DIRNAME/../../build/gpulab}"
	export HOME="$BATS_TEST_TMPDIR/home"
}

have_gpu() { "$GPULAB" devices >/dev/null 2>&1; }

@test "without a driver or device: exit 3 and one line saying so" {
	if have_gpu; then skip "a GPU is present"; fi
	run --separate-stderr "$GPULAB" devices
	assert_failure 3
	[ -z "$output" ]
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	[[ "$stderr" =~ ^gpulab:\ no\ CUDA\ (driver|device) ]]
	[[ "$stderr" == *"--backend sim"* ]]
}

@test "with a GPU: name, chip, SMs, memory, clocks, driver, CUPTI" {
	if ! have_gpu; then skip "no GPU here"; fi
	run "$GPULAB" devices
	assert_success
	assert_line --regexp '^GPU 0: '
	assert_line --regexp '^  chip +[A-Z]{2}[0-9]{3}'
	assert_line --regexp '^  SMs +[0-9]+'
	assert_line --regexp '^  memory +[0-9.]+ GiB'
	assert_line --regexp '^  clocks +[0-9]+ MHz SM'
	assert_line --regexp '^  driver +'
	assert_line --regexp '^  CUPTI +'
}

@test "with a GPU: --json" {
	if ! have_gpu; then skip "no GPU here"; fi
	run "$GPULAB" devices --json
	assert_success
	python3 -c 'import json,sys; d=json.loads(sys.argv[1])["devices"][0]; assert d["sm_count"]>0 and d["memory_bytes"]>0 and d["name"]' "$output"
}

@test "devices takes no arguments" {
	run "$GPULAB" devices extra
	assert_failure 2
	assert_output --partial "unexpected argument 'extra'"
}
