#!/usr/bin/env bats
# gpulab view flash: FlashAttention-1's and -2's loop orders step by step from the stored trace, m and l
# before and after each K/V block with the rescale factor, global traffic so far, causal skipping, and the
# refusals.

setup() {
	load test_helper
	common_setup
}

@test "view flash --variant flash1: Q blocks inner, K/V blocks outer, O/m/l written back every step" {
	run -0 --separate-stderr "$GPULAB" view flash --variant flash1 --frames 8 --db "$DB"
	[[ "$stderr" == *"recording one on the simulator"* ]]
	# seq 64: 4 Q blocks of 16 rows x 2 K/V blocks of 32 keys, Q the inner loop
	assert_line "step 1/8: Q block 0 (rows 0-15) x K/V block 0 (keys 0-31)"
	assert_line "step 4/8: Q block 3 (rows 48-63) x K/V block 0 (keys 0-31)"
	assert_line "step 5/8: Q block 0 (rows 0-15) x K/V block 1 (keys 32-63)"
	assert_output --partial "K/V blocks outer, Q inner; O, m, l via global"
	assert_output --partial "read+written"
	# after step 1: one Q block (16 rows x 64 floats = 128 sectors) loaded, its O stored, 16 m and 16 l stored
	first=$(sed -n '/^step 1\/8$/,/^step 2\/8$/p' <<<"$output")
	[[ "$first" =~ "Q       128       0" ]]
	[[ "$first" =~ "O         0     128" ]]
	[[ "$first" =~ "m         0      16" ]]
	# at step 5 the O rows of Q block 0 come back: 128 sectors loaded
	fifth=$(sed -n '/^step 5\/8$/,/^step 6\/8$/p' <<<"$output")
	[[ "$fifth" =~ "O       128     640" ]]
	# every row's rescale factor is exp(m before - m after)
	awk '/^row   m before/ { on = 1; next } on && /^[0-9]/ && $2 != "-inf" {
		if (($6 - exp($2 - $3))^2 > 1e-8) { print "bad:", $0; bad = 1 } ; n++ }
		/^S\[/ { on = 0 } END { exit bad || n < 4 }' <<<"$output"
	# stored: the second view reads the trace back
	run -0 --separate-stderr "$GPULAB" view flash --variant flash1 --frames 1 --db "$DB"
	[[ "$stderr" != *"recording"* ]]
}

@test "view flash --variant flash2: one CTA's Q block against every K/V block, O written once at the end" {
	run -0 --separate-stderr "$GPULAB" view flash --variant flash2 --frames 3 --db "$DB"
	assert_line "step 1/3: Q block 0 (rows 0-31) x K/V block 0 (keys 0-31)"
	assert_line "step 2/3: Q block 0 (rows 0-31) x K/V block 1 (keys 32-63)"
	assert_line "step 3/3: epilogue: O divided by l once, written once"
	assert_output --partial "m, l, O in registers"
	second=$(sed -n '/^step 2\/3$/,/^step 3\/3$/p' <<<"$output")
	[[ "$second" =~ "O         0       0" ]]  # nothing of O has touched global memory yet
	[[ "$second" =~ "q1  ~~" ]]                 # Q block 1 is the other CTA's
	last=$(sed -n '/^step 3\/3$/,$p' <<<"$output")
	[[ "$last" =~ "O         0     256" ]]      # 32 rows x 64 floats, once
	# the default variant of the flash view is flash2
	run -0 "$GPULAB" view flash --frames 1 --db "$DB"
	assert_output --partial "attention flash2 "
}

@test "view flash --causal 1: blocks above the diagonal are skipped" {
	run -0 --separate-stderr "$GPULAB" view flash --variant flash1 --causal 1 --frames 6 --db "$DB"
	# K/V block 0 meets Q blocks 0-3, K/V block 1 only Q blocks 2 and 3: 6 steps
	assert_line "step 6/6: Q block 3 (rows 48-63) x K/V block 1 (keys 32-63)"
	assert_line --regexp "^q0  \+x "
	run -0 --separate-stderr "$GPULAB" view flash --variant flash2 --causal 1 --frames 2 --db "$DB"
	assert_line "step 2/2: epilogue: O divided by l once, written once"
	assert_line --regexp "^q0  \+x "
}

@test "view flash refuses other topics and attention's non-flash variants, and writes nothing" {
	run --separate-stderr "$GPULAB" view flash --variant naive --frames 1 --db "$DB"
	assert_failure 2
	[[ "$stderr" == *"flash1, flash2 or flash2_mma, not naive"* ]]
	run --separate-stderr "$GPULAB" view flash --topic gemm --frames 1 --db "$DB"
	assert_failure 2
	[[ "$stderr" == *"the flash view shows the attention topic, not gemm"* ]]
	[ ! -e "$DB" ]
}
