#!/usr/bin/env bats
# The simulator's sanitizer shows its errors: findings deduplicated by (kind, PTX line) with exact
# occurrence counts and sample coordinates, errors before warnings in text and JSON, --print-limit,
# --tool (compute-sanitizer's tool names), the same findings for any --threads, findings stored with
# the run, and reads of cp.async data in flight (tests/fixtures/sim/racecheck.cu).

setup() {
	load test_helper
	common_setup
	FX="$BATS_TEST_DIRNAME/../fixtures/sim"
}

# missing_sync GRID [options]: the kernel without __syncthreads(), 64 threads per CTA
missing_sync() {
	local grid=$1
	shift
	"$GPULAB" sim "$FX/racecheck.ptx" --kernel missing_sync --grid "$grid" --block 64 \
		--arg "buf:in:f32:$((grid * 64)):seq" --arg "buf:out:f32:$((grid * 64))" "$@"
}

# cp_kernel NAME [options]: a cp.async kernel of racecheck.ptx with 64 threads
cp_kernel() {
	local k=$1
	shift
	"$GPULAB" sim "$FX/racecheck.ptx" --kernel "$k" --grid 1 --block 64 --arg buf:in:f32:128:seq \
		--arg buf:out:f32:64 "$@"
}

@test "a missing __syncthreads(): the race errors come first in the text, though warnings outnumber them" {
	run missing_sync 2
	assert_failure 1
	# per CTA: warp 0 reads s[32..63] unwritten (32), warp 1 overwrites them (32 races) and reads the
	# never-loaded halo s[64..95] (32): 2 CTAs give 64 race errors and 128 uninitialised reads
	assert_output --partial "========= ERROR SUMMARY: 64 errors, 128 warnings"
	assert_output --partial "========= Race reported between warps on __shared__ memory (4 bytes at 0x80) at PTX line 50 (CUDA line 17) in block (0,0,0) thread (32,0,0)"
	assert_output --partial "=========     64 occurrences; first in block (0,0,0) thread (32,0,0), block (0,0,0) thread (33,0,0), block (0,0,0) thread (34,0,0), block (0,0,0) thread (35,0,0), ..."
	assert_output --partial "=========     128 occurrences; first in block (0,0,0) thread (0,0,0),"
	local race warn
	race=$(grep -n "Race reported" <<<"$output" | head -1 | cut -d: -f1)
	warn=$(grep -n "Warning: Uninitialized" <<<"$output" | head -1 | cut -d: -f1)
	[ -n "$race" ] && [ -n "$warn" ] && [ "$race" -lt "$warn" ]
	[ "$(grep -c '^========= [^ ].*PTX line' <<<"$output")" = 2 ] # two distinct findings
	# the race names the other side too: the warp's earlier read of the unwritten half
	assert_output --regexp "the other access: read at [^ ]*racecheck.cu:[0-9]+ \(PTX line [0-9]+\)"
}

@test "a missing __syncthreads(): the JSON has every distinct finding with its count, errors first" {
	run --separate-stderr missing_sync 2 --json
	assert_failure 1
	[ "$(jq '.sanitizer | length' <<<"$output")" = 2 ]
	[ "$(jq -r '.sanitizer[0].kind' <<<"$output")" = race ]
	[ "$(jq -r '.sanitizer[0].tool' <<<"$output")" = racecheck ]
	[ "$(jq '.sanitizer[0].warning' <<<"$output")" = false ]
	[ "$(jq '.sanitizer[0].count' <<<"$output")" = 64 ]
	[ "$(jq '.sanitizer[0].line' <<<"$output")" = 50 ]
	[ "$(jq -c '.sanitizer[0].samples[0]' <<<"$output")" = '{"block":[0,0,0],"thread":[32,0,0]}' ]
	[ "$(jq '.sanitizer[0].samples | length' <<<"$output")" = 4 ]
	[ "$(jq -r '.sanitizer[1].kind' <<<"$output")" = uninitialized ]
	[ "$(jq '.sanitizer[1].warning' <<<"$output")" = true ]
	[ "$(jq '.sanitizer[1].count' <<<"$output")" = 128 ]
	[ "$(jq '.errors' <<<"$output")" = 64 ]
	[ "$(jq '.warnings' <<<"$output")" = 128 ]
	[ "$(jq '.findings_dropped' <<<"$output")" = 0 ]
}

@test "counts are exact and the findings identical for any --threads (CTAs merged in grid order)" {
	run --separate-stderr missing_sync 37 --json --threads 1
	assert_failure 1
	local one=$output
	[ "$(jq '.sanitizer[0].count' <<<"$one")" = $((37 * 32)) ]
	[ "$(jq '.sanitizer[1].count' <<<"$one")" = $((37 * 64)) ]
	[ "$(jq '.errors' <<<"$one")" = $((37 * 32)) ]
	run --separate-stderr missing_sync 37 --json --threads 2
	assert_failure 1
	[ "$(jq -c '.sanitizer, .errors, .warnings' <<<"$output")" = "$(jq -c '.sanitizer, .errors, .warnings' <<<"$one")" ]
	run --separate-stderr missing_sync 37 --json --threads 5
	[ "$(jq -c '.sanitizer' <<<"$output")" = "$(jq -c '.sanitizer' <<<"$one")" ]
}

@test "--print-limit N prints the first N distinct findings and says how many were not shown" {
	run missing_sync 2 --print-limit 1
	assert_failure 1
	assert_output --partial "Race reported between warps"
	refute_output --partial "Warning: Uninitialized"
	assert_output --partial "=========     (1 more distinct finding with 128 occurrences not shown: --print-limit N shows more, 0 all)"
	assert_output --partial "========= ERROR SUMMARY: 64 errors, 128 warnings"
	run missing_sync 2 --print-limit 0
	assert_output --partial "Warning: Uninitialized"
	refute_output --partial "not shown"
	# the JSON always carries every distinct finding
	run --separate-stderr missing_sync 2 --print-limit 1 --json
	[ "$(jq '.sanitizer | length' <<<"$output")" = 2 ]
}

@test "--tool selects compute-sanitizer's checks" {
	run --separate-stderr missing_sync 2 --tool racecheck --json
	assert_failure 1
	[ "$(jq -c '[.sanitizer[].kind]' <<<"$output")" = '["race"]' ]
	[ "$(jq '.warnings' <<<"$output")" = 0 ]
	# initcheck alone: warnings only, so the run passes
	run missing_sync 2 --tool initcheck
	assert_success
	assert_output --partial "========= ERROR SUMMARY: 0 errors, 128 warnings"
	refute_output --partial "Race reported"
	run missing_sync 2 --tool memcheck,synccheck
	assert_success
	assert_output --partial "========= ERROR SUMMARY: 0 errors"
	# with initcheck off, a read of unwritten bytes is still checked for races
	run --separate-stderr missing_sync 2 --tool racecheck,memcheck --json
	[ "$(jq '.sanitizer[0].count' <<<"$output")" = 64 ]
	# memcheck: out-of-bounds reads are memcheck's, not racecheck's
	run "$GPULAB" sim "$FX/sanitizer.ptx" --kernel oob_read --grid 1 --block 64 --arg buf:in:f32:60 \
		--arg buf:out:f32:64 --arg i32:60 --tool memcheck
	assert_failure 1
	assert_output --partial "Invalid __global__ read of size 4 bytes"
	assert_output --partial "=========     4 occurrences;"
	run "$GPULAB" sim "$FX/sanitizer.ptx" --kernel oob_read --grid 1 --block 64 --arg buf:in:f32:60 \
		--arg buf:out:f32:64 --arg i32:60 --tool racecheck
	assert_success
	refute_output --partial "Invalid __global__"
}

@test "--tool and --print-limit refuse bad values with exit 2" {
	run missing_sync 1 --tool racechek
	assert_failure 2
	assert_output --partial "--tool 'racechek': unknown tool 'racechek' (did you mean 'racecheck'?)"
	run missing_sync 1 --tool race
	assert_failure 2
	assert_output --partial "unknown tool 'race'; use memcheck, racecheck, initcheck, synccheck or all"
	run missing_sync 1 --tool racecheck,
	assert_failure 2
	assert_output --partial "an empty tool name"
	run missing_sync 1 --tool memcheck,bogus
	assert_failure 2
	assert_output --partial "unknown tool 'bogus'"
	run missing_sync 1 --print-limit -1
	assert_failure 2
	assert_output --partial "--print-limit"
	bad_input 2 "unknown tool 'initchek' (did you mean 'initcheck'?)" run transpose --size 32 --backend sim \
		--db "$DB" --tool initchek
	bad_input 2 "--print-limit" run transpose --size 32 --backend sim --db "$DB" --print-limit x
}

@test "the corrected kernel is clean" {
	run "$GPULAB" sim "$FX/racecheck.ptx" --kernel with_sync --grid 2 --block 64 --arg buf:in:f32:192:seq \
		--arg buf:out:f32:128 --arg i32:192
	assert_success
	assert_output --partial "========= ERROR SUMMARY: 0 errors"
	refute_output --partial "warning"
}

@test "reading cp.async data before its wait_group, or another thread's without a barrier after the wait, is a race" {
	run cp_kernel cp_async_nowait
	assert_failure 1
	assert_output --partial "Race reported on __shared__ memory: read of a cp.async copy in flight (4 bytes at 0x0) at PTX line 164"
	assert_output --partial "thread (0,0,0) copies into it with cp.async and has not waited for that group"
	assert_output --partial "========= ERROR SUMMARY: 64 errors"
	# wait_group 1 completes the first of two groups only: the second group's data is read in flight
	run --separate-stderr cp_kernel cp_async_wait_group --json
	assert_failure 1
	[ "$(jq '.sanitizer | length' <<<"$output")" = 1 ]
	[ "$(jq '.sanitizer[0].line' <<<"$output")" = 234 ]
	[ "$(jq '.sanitizer[0].address' <<<"$output")" = 256 ]
	[ "$(jq '.sanitizer[0].count' <<<"$output")" = 64 ]
	# a barrier before the wait does not make another warp's copy visible
	run cp_kernel cp_async_barrier_first
	assert_failure 1
	assert_output --partial "at PTX line 297 (CUDA line 83) in block (0,0,0) thread (32,0,0)"
	assert_output --partial "thread (0,0,0) copies into it with cp.async and no barrier follows its cp.async.wait_group/wait_all"
	assert_output --partial "========= ERROR SUMMARY: 32 errors"
	# racecheck off: not reported
	run cp_kernel cp_async_nowait --tool memcheck
	assert_success
}

@test "a store into a cp.async destination before the wait is a race: the copy may land after it" {
	run cp_kernel cp_async_overwrite
	assert_failure 1
	assert_output --partial "========= Race reported on __shared__ memory: write over a cp.async copy in flight (4 bytes at 0x0) at PTX line 428 (CUDA line 110) in block (0,0,0) thread (0,0,0)"
	assert_output --partial "thread (0,0,0) copies into it with cp.async and has not waited for that group"
	assert_output --partial "========= ERROR SUMMARY: 64 errors"
}

@test "cp.async waited for correctly is clean" {
	run cp_kernel cp_async_ok
	assert_success
	assert_output --partial "========= ERROR SUMMARY: 0 errors"
	run "$GPULAB" sim "$FX/cp_async.ptx" --kernel cp_async --grid 1 --block 32 --arg buf:in:f32:224:seq \
		--arg buf:out:f32:224
	assert_success
	assert_output --partial "========= ERROR SUMMARY: 0 errors"
	run "$GPULAB" sim "$FX/cp_async.ptx" --kernel pipeline --grid 1 --block 64 --arg buf:in:f32:256:seq \
		--arg buf:out:f32:256 --arg i32:40
	assert_success
	assert_output --partial "========= ERROR SUMMARY: 0 errors"
}

@test "findings are stored with the run: report shows them in text and JSON, query reads the table" {
	run missing_sync 2 --db "$DB"
	assert_failure 1
	run "$GPULAB" report --db "$DB"
	assert_success
	assert_output --partial "sanitizer findings of missing_sync:"
	assert_output --partial "========= Race reported between warps on __shared__ memory (4 bytes at 0x80) at PTX line 50"
	assert_output --partial "========= ERROR SUMMARY: 64 errors, 128 warnings"
	run "$GPULAB" report --db "$DB" --print-limit 1
	refute_output --partial "Warning: Uninitialized"
	assert_output --partial "(1 more distinct finding with 128 occurrences not shown"
	run --separate-stderr "$GPULAB" report --db "$DB" --json
	assert_success
	[ "$(jq '.launches[0].sanitizer.errors' <<<"$output")" = 64 ]
	[ "$(jq '.launches[0].sanitizer.warnings' <<<"$output")" = 128 ]
	[ "$(jq -r '.launches[0].sanitizer.findings[0].kind' <<<"$output")" = race ]
	[ "$(jq '.launches[0].sanitizer.findings[1].count' <<<"$output")" = 128 ]
	[ "$(jq -c '.launches[0].sanitizer.findings[0].samples[1]' <<<"$output")" = '{"block":[0,0,0],"thread":[33,0,0]}' ]
	run "$GPULAB" query --db "$DB" --csv "SELECT kind, severity, tool, line, count FROM sanitizer_findings ORDER BY seq"
	assert_success
	assert_output "kind,severity,tool,line,count
race,error,racecheck,50,64
uninitialized,warning,initcheck,52,128"
}

@test "gpulab run stores the sanitizer's counts of each simulated launch and accepts --tool" {
	run --separate-stderr "$GPULAB" run transpose --size 64 --backend sim --db "$DB" --tool racecheck,memcheck \
		--print-limit 5 --json
	assert_success
	[ "$(jq '[.launches[].sanitizer.errors] | add' <<<"$output")" = 0 ]
	[ "$(jq '[.launches[].sanitizer.findings | length] | add' <<<"$output")" = 0 ]
	run "$GPULAB" query --db "$DB" --csv "SELECT count(*) FROM launches WHERE sanitizer_errors = 0"
	assert_success
	[ "${lines[1]}" -ge 2 ]
}

@test "gpulab import carries the findings of a run stored in another database" {
	local other="$BATS_TEST_TMPDIR/other.db"
	run missing_sync 2 --db "$other"
	assert_failure 1
	run "$GPULAB" import "$other" --db "$DB"
	assert_success
	run "$GPULAB" query --db "$DB" --csv "SELECT l.sanitizer_errors, l.sanitizer_warnings, count(f.seq), sum(f.count)
		FROM launches l JOIN sanitizer_findings f ON f.launch_id = l.id GROUP BY l.id"
	assert_success
	assert_output --partial "64,128,2,192"
}
