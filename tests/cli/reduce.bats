#!/usr/bin/env bats
# gpulab run reduce: sum and argmax verified for every variant and odd sizes, atomics where each
# variant puts them, and two_stage's sum the same bits on every run.

setup() {
	load test_helper
	common_setup
}

ATOMREQ=l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum

@test "reduce (default n = 2^20): all four variants verified" {
	run --separate-stderr "$GPULAB" run reduce --variant all --backend sim --db "$DB" --json
	assert_success
	[ "$(jq '[.launches[] | select(.verified)] | length' <<<"$output")" = 4 ]
	[ "$(jq -r '.launches[0].params.n' <<<"$output")" = 1048576 ]
	# atomic: an atomicAdd and an atomicMax per element, one warp-wide request each per warp
	[ "$(metric "$output" atomic $ATOMREQ)" = 65536 ]
	# block-level variants: two atomics per block of 2048 elements; two_stage only its ticket
	[ "$(metric "$output" shared_tree $ATOMREQ)" = 1024 ]
	[ "$(metric "$output" warp_shuffle $ATOMREQ)" = 1024 ]
	[ "$(metric "$output" two_stage $ATOMREQ)" = 512 ]
}

@test "reduce: sizes that fill no whole warp, block or grid are verified" {
	for n in 1 31 257 1000 100001; do
		run --separate-stderr "$GPULAB" run reduce --n "$n" --backend sim --db "$DB" --json
		assert_success
		[ "$(jq '[.launches[] | select(.verified)] | length' <<<"$output")" = 4 ] || { echo "n=$n"; false; }
	done
}

@test "reduce two_stage: no float atomics, so the same sum on every run" {
	a=$("$GPULAB" run reduce --variant two_stage --n 300000 --backend sim --db "$DB" --json 2>/dev/null | jq '.launches[0].max_abs_err')
	b=$("$GPULAB" run reduce --variant two_stage --n 300000 --backend sim --threads 3 --db "$DB" --json 2>/dev/null | jq '.launches[0].max_abs_err')
	[ -n "$a" ] && [ "$a" = "$b" ]
}

@test "reduce: --n 0 and an unknown variant are refused" {
	run "$GPULAB" run reduce --n 0 --backend sim --db "$DB"
	assert_failure 2
	assert_output --partial "--n 0 is out of range (expected 1 to 268435456)"
	run "$GPULAB" run reduce --variant warp_shufle --backend sim --db "$DB"
	assert_failure 2
	assert_output --partial "did you mean 'warp_shuffle'?"
	[ ! -e "$DB" ]
}
