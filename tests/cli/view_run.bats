#!/usr/bin/env bats
# gpulab view --run N [--launch K]: any stored trace can be viewed, including one `gpulab sim --trace`
# recorded for a kernel outside the topics; the frames name the --arg buffers and shared arrays.

setup() {
	load test_helper
	common_setup
	FX="$BATS_TEST_DIRNAME/../fixtures/sim"
}

# One sim run with a trace: stride32 loads in[] coalesced, writes s[] at a 128-byte stride (31 bank
# conflicts), reads it back and stores out[].
sim_trace() {
	run "$GPULAB" sim "$FX/smem.ptx" --kernel stride32 --grid 1 --block 32 --arg buf:in:f32:32:seq \
		--arg buf:out:f32:32 --arg i32:32 --db "$DB" --trace
	assert_success
	assert_output --partial "stored as run 1 in"
}

@test "view coalesce --run shows a gpulab sim --trace launch, naming the --arg buffers" {
	sim_trace
	local globals
	globals=$("$GPULAB" query --db "$DB" --csv "select count(*) from trace_events where space = 'global'" | sed -n 2p)
	[ "$globals" = 2 ]
	run "$GPULAB" view coalesce --run 1 --frames 2 --db "$DB"
	assert_success
	assert_line "step 1/2"
	assert_line "step 2/2"
	assert_output --partial "stored trace: run 1, launch 1"
	assert_output --regexp "ld.global 4 B x 32 lanes"
	assert_output --partial "in[0] .. in[31]"
	assert_output --partial "out[0] .. out[31]"
	assert_output --partial "this request: 4 sectors in 1 line (ideal 4)"
}

@test "view banks --run shows the kernel's shared array and its conflicts" {
	sim_trace
	run "$GPULAB" view banks --run 1 --launch 1 --frames 1 --db "$DB"
	assert_success
	assert_line "step 1/2"
	assert_output --partial "st.shared 4 B x 32 lanes"
	assert_output --partial "s +0x0 .. s +0xf80"
	assert_output --partial "31 bank conflicts"
}

@test "view --run: a missing run, launch or trace, and options that do not go with it" {
	sim_trace
	run "$GPULAB" view coalesce --run 7 --frames 1 --db "$DB"
	assert_failure 2
	assert_output --partial "no run 7 in"
	run "$GPULAB" view coalesce --run 1 --launch 9 --frames 1 --db "$DB"
	assert_failure 2
	assert_output --partial "run 1 has no launch 9"
	run "$GPULAB" view coalesce --launch 1 --frames 1 --db "$DB"
	assert_failure 2
	assert_output --partial "give --run too"
	run "$GPULAB" view transpose --run 1 --frames 1 --db "$DB"
	assert_failure 2
	assert_output --partial "say which view: coalesce, banks, gemm, conv, mma"
	run "$GPULAB" view coalesce --run 1 --topic transpose --frames 1 --db "$DB"
	assert_failure 2
	assert_output --partial "no --topic"
	"$GPULAB" run transpose --size 32 --variant naive --backend sim --db "$DB" >/dev/null 2>&1
	run "$GPULAB" view coalesce --run 2 --frames 1 --db "$DB"
	assert_failure 2
	assert_output --partial "run 2 has no trace"
}

@test "view --run of a topic's traced run gives the same frames as view TOPIC" {
	"$GPULAB" run transpose --size 32 --variant naive --backend sim --trace --db "$DB" >/dev/null 2>&1
	run "$GPULAB" view coalesce --run 1 --frames 3 --db "$DB"
	assert_success
	local by_run=$output
	run "$GPULAB" view transpose --variant naive --size 32 --frames 3 --db "$DB"
	assert_success
	[ "$output" = "$by_run" ]
}

@test "a launch stored without a buffer map (before schema 3) still opens, says so, and shows the same frames" {
	"$GPULAB" run transpose --size 32 --variant coalesced --backend sim --trace --db "$DB" >/dev/null 2>&1
	[ "$(sqlite3 "$DB" "select group_concat(name || ':' || shared || ':' || bytes) from launch_buffers")" = \
		"out:0:4096,in:0:4096,tile:1:4096" ]
	run "$GPULAB" view banks --run 1 --frames 4 --db "$DB"
	assert_success
	local with_map=$output
	sqlite3 "$DB" "delete from launch_buffers"
	run "$GPULAB" view banks --run 1 --frames 4 --db "$DB"
	assert_success
	assert_output --partial "stored trace: run 1, launch 1 (no buffer map stored)"
	[ "$(grep -v 'stored trace' <<<"$output")" = "$(grep -v 'stored trace' <<<"$with_map")" ]
}
