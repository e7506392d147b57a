#!/usr/bin/env bats
# The cuda backend as `gpulab run` and `gpulab validate` see it: refused cleanly without a GPU
# (exit 3, database untouched), chosen by --backend auto when usable, metrics stored with source
# "cupti" on a GPU.  GPU-only tests skip when no driver or device is present.

bats_require_minimum_version 1.5.0

setup() {
	load '/usr/lib/bats/bats-support/load'
	load '/usr/lib/bats/bats-assert/load'
	GPULAB="${GPULAB:-$BATS_TEST_DIRNAME/../../build/gpulab}"
	DB="$BATS_TEST_TMPDIR/gpulab.db"
	export HOME="$BATS_TEST_TMPDIR/home"
	unset GPULAB_DB XDG_DATA_HOME
}

have_gpu() { "$GPULAB" devices >/dev/null 2>&1; }

@test "--backend cuda without a GPU: exit 3, a clear message, no database created" {
	if have_gpu; then skip "a GPU is present"; fi
	run --separate-stderr "$GPULAB" run transpose --backend cuda --db "$DB"
	assert_failure 3
	[[ "$stderr" == *"--backend cuda"* ]]
	[[ "$stderr" == *"libcuda.so.1"* || "$stderr" == *"no CUDA"* ]]
	[[ "$stderr" == *"--backend sim"* ]]
	[ ! -e "$DB" ]
}

@test "--backend cuda without a GPU leaves an existing database byte-identical" {
	if have_gpu; then skip "a GPU is present"; fi
	run "$GPULAB" run transpose --backend sim --db "$DB"
	[ -e "$DB" ] || skip "the simulator run did not create a database (status $status)"
	before=$(sha256sum "$DB" | cut -d' ' -f1)
	run "$GPULAB" run transpose --backend cuda --db "$DB"
	assert_failure 3
	after=$(sha256sum "$DB" | cut -d' ' -f1)
	[ "$before" = "$after" ]
	[ ! -e "$DB-wal" ] || [ ! -s "$DB-wal" ]
}

@test "--backend auto without a GPU picks the simulator and says why" {
	if have_gpu; then skip "a GPU is present"; fi
	# -v: said every time (without it, once per terminal session, and stored with the run either way)
	run --separate-stderr "$GPULAB" -v run transpose --backend auto --db "$DB"
	[[ "$stderr$output" == *"backend sim"* ]]
	[[ "$stderr$output" == *"libcuda.so.1"* ]]
	run "$GPULAB" query "SELECT backend_note FROM runs" --csv --db "$DB"
	assert_output --partial "backend sim: no usable GPU here"
}

@test "an unknown backend exits 2 with a suggestion" {
	run "$GPULAB" run transpose --backend cdua --db "$DB"
	assert_failure 2
	assert_output --partial "unknown backend 'cdua'"
	assert_output --partial "did you mean 'cuda'"
}

@test "validate needs a GPU: exit 3 without one" {
	if have_gpu; then skip "a GPU is present"; fi
	run --separate-stderr "$GPULAB" validate transpose --db "$DB"
	assert_failure 3
	[[ "$stderr" == *"needs a GPU"* ]]
	[ ! -e "$DB" ]
}

@test "on a GPU: metrics are stored with source cupti, with passes and a duration" {
	if ! have_gpu; then skip "no GPU here"; fi
	run "$GPULAB" run transpose --backend cuda --metrics memory --repeat 3 --db "$DB"
	assert_success
	run "$GPULAB" query --db "$DB" "SELECT count(*) FROM metrics WHERE source = 'cupti'"
	assert_success
	refute_output --regexp '^\s*0\s*$'
	run "$GPULAB" query --db "$DB" --csv "SELECT min(duration_ns) > 0 FROM launches"
	assert_output --partial '1'
}

@test "on a GPU: validate prints simulator, CUPTI and their ratio per metric" {
	if ! have_gpu; then skip "no GPU here"; fi
	run "$GPULAB" validate transpose --db "$DB"
	assert_output --partial 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum'
	assert_output --partial 'wavefronts'
	assert_line --regexp 'sim +cupti +ratio'
}
