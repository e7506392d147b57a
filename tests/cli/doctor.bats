#!/usr/bin/env bats
# gpulab doctor: one ok/warn/fail line per check of the GPU path, with the fix.

bats_require_minimum_version 1.5.0

setup() {
	load '/usr/lib/bats/bats-support/load'
	load '/usr/lib/bats/bats-assert/load'
	GPULAB="${GPULAB:-$BATS_TEST_DIRNAME/../../build/gpulab}"
	export HOME="$BATS_TEST_TMPDIR/home"
	unset GPULAB_DB XDG_DATA_HOME
}

have_gpu() { "$GPULAB" devices >/dev/null 2>&1; }

@test "one line per check, each ok, warn or fail" {
	run --separate-stderr "$GPULAB" doctor --db "$BATS_TEST_TMPDIR/g.db"
	for name in libcuda device cupti 'cupti host' permission nvcc database; do
		assert_line --regexp "^(ok|warn|fail) +$name +[^ ]"
	done
	[ "$(wc -l <<<"$output")" -eq 7 ]
	assert_line --regexp "^ok +database +.*g\.db can be created"
	[ ! -e "$BATS_TEST_TMPDIR/g.db" ] # doctor creates nothing
}

@test "without a GPU: libcuda and device fail, exit 3" {
	if have_gpu; then skip "a GPU is present"; fi
	run --separate-stderr "$GPULAB" doctor --db "$BATS_TEST_TMPDIR/g.db"
	[ "$status" -eq 3 ]
	assert_line --regexp '^fail +libcuda +no CUDA driver: libcuda.so.1 cannot be loaded'
	assert_line --regexp '^fail +device +skipped'
	[[ "$stderr" == *"checks failed"* ]]
}

@test "the permission line names RmProfilingAdminOnly or the missing driver file" {
	run "$GPULAB" doctor --db "$BATS_TEST_TMPDIR/g.db"
	assert_line --regexp '^(ok|warn|fail) +permission +(RmProfilingAdminOnly|/proc/driver/nvidia/params)'
}

@test "an unusable database path fails its line" {
	run "$GPULAB" doctor --db ''
	[ "$status" -eq 3 ]
	assert_line --regexp '^fail +database +--db needs a file path'
}

@test "--json lists the checks" {
	run --separate-stderr "$GPULAB" doctor --json --db "$BATS_TEST_TMPDIR/g.db"
	python3 -c 'import json,sys; d=json.loads(sys.argv[1]); n=[c["name"] for c in d["checks"]]; assert n==["libcuda","device","cupti","cupti host","permission","nvcc","database"], n; assert all(c["status"] in ("ok","warn","fail") for c in d["checks"])' "$output"
}
