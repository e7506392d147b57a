#!/usr/bin/env bats
# Every stored run goes through the one session (session/session.h): whichever command made it — run,
# sim --db, validate, exercise check, view, and merge's launches assembled from shards — `report --details`
# shows the same sections (launch, memory, compute, occupancy, roofline and estimate) and the guidance the
# session stored with the launch.

setup() {
	load test_helper
	common_setup
	FX="$BATS_TEST_DIRNAME/../fixtures/sim"
}

# guidance_rows RUN: the guidance rows stored with run RUN's launches
guidance_rows() {
	"$GPULAB" query --db "$DB" --csv \
		"SELECT count(*) FROM launch_guidance g JOIN launches l ON l.id = g.launch_id WHERE l.run_id = $1" | tail -n 1
}

# details_like_run RUN: report --details of RUN has every section of a `gpulab run` run, with guidance
details_like_run() {
	run "$GPULAB" report "$1" --details --db "$DB"
	assert_success
	for s in "  Launch" "  Memory" "  Compute" "  Occupancy (H100, the calculator's rules)" \
		"  Roofline and estimate (model) on H100 SXM5 80GB" "  Guidance"; do
		assert_line "$s"
	done
	assert_line --regexp '^    estimate \(model\) +[0-9.]+ us  \([A-Za-z0-9/]+-bound\)$'
	assert_line --regexp '^  (OPT|WRN|INF) [A-Za-z0-9_]+: '
	refute_output --partial "Guidance: none stored"
	[ "$(guidance_rows "$1")" -gt 0 ]
}

@test "gpulab run: the reference, guidance stored with every launch" {
	run "$GPULAB" run transpose --variant naive --size 64 --backend sim --db "$DB"
	assert_success
	details_like_run 1
}

@test "sim --db: a kernel of the user's file is stored with guidance and the estimate" {
	run "$GPULAB" sim "$FX/saxpy.ptx" --kernel _Z5saxpyifPKfPf --grid 8 --block 128 --arg i32:1024 --arg f32:2 \
		--arg buf:x:f32:1024:rand --arg buf:y:f32:1024 --db "$DB"
	assert_success
	assert_output --partial "stored as run 1 in"
	details_like_run 1
	# the same rules as a topic's launch: the model's estimate and what bounds it
	assert_output --partial "saxpy: estimate (model) on H100:"
	assert_output --partial "memory-bound by latency"
}

@test "sim --db --cta-range: a shard keeps its note and is stored with guidance too" {
	run "$GPULAB" sim "$FX/saxpy.ptx" --kernel _Z5saxpyifPKfPf --grid 8 --block 128 --arg i32:1024 --arg f32:1 \
		--arg buf:x:f32:1024 --arg buf:y:f32:1024 --cta-range 2:5 --db "$DB"
	assert_success
	[ "$(sqlite3 "$DB" 'SELECT note FROM launches')" = "CTAs 2..4 of 8 only (--cta-range): partial counts" ]
	[ "$(guidance_rows 1)" -gt 0 ]
}

@test "exercise check: the measured launch is stored with guidance and the estimate" {
	run "$GPULAB" exercise check 01-map "$BATS_TEST_DIRNAME/../../exercises/01-map.cu" --db "$DB"
	assert_success
	# the hint works when pasted: this binary, this database
	assert_output --partial "stored as run 1 ("
	assert_output --partial "/gpulab report 1 --db $DB)"
	details_like_run 1
}

@test "view: a trace recorded for a view is stored with guidance and the estimate" {
	run "$GPULAB" view coalesce --topic transpose --variant naive --frames 1 --db "$DB"
	assert_success
	assert_output --partial "recorded now on the simulator (run 1, launch 1)"
	details_like_run 1
}

@test "validate (gpulab's driver library): both runs stored through the session, the simulator's with guidance" {
	DRIVER="${GPULAB_DRIVER_DIR:-$(dirname "$GPULAB")/driver}"
	[ -e "$DRIVER/libcuda.so.1" ] || skip "no driver library at $DRIVER (built by 'make build')"
	export LD_LIBRARY_PATH="$DRIVER${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export GPULAB_DRIVER_THREADS=2
	run "$GPULAB" validate transpose --db "$DB"
	assert_success
	[ "$(sqlite3 "$DB" 'SELECT id || ":" || backend FROM runs ORDER BY id' | tr '\n' ' ')" = "1:sim 2:cuda " ]
	details_like_run 1
	# the GPU's run has the same sections; its rules fire on what CUPTI measured (nothing, on the stand-in)
	run "$GPULAB" report 2 --details --db "$DB"
	assert_success
	assert_line "  Occupancy (H100, the calculator's rules)"
	assert_line --regexp '^    estimate \(model\) +[0-9.]+ us  \([A-Za-z0-9/]+-bound\)$'
}

@test "merge: a launch assembled from CTA-range shards is stored with guidance and the estimate" {
	for range in 0:8 8:16; do
		"$GPULAB" run gemm --variant smem --size 128 --backend sim --cta-range "$range" \
			--db "$BATS_TEST_TMPDIR/shard-${range%%:*}.db" >/dev/null 2>&1
	done
	run "$GPULAB" merge "$BATS_TEST_TMPDIR/shard-0.db" "$BATS_TEST_TMPDIR/shard-8.db" --into "$DB"
	assert_success
	assert_output --partial "assembled 1 sharded launch from their CTA ranges"
	local whole
	whole=$(sqlite3 "$DB" "SELECT id FROM runs WHERE merged_from = 'assembled'")
	[ -n "$whole" ]
	details_like_run "$whole"
}
