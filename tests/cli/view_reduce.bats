#!/usr/bin/env bats
# gpulab view reduce: the reduce topic's combining structure from the stored trace — the shared-memory
# tree level by level with its idle warps and banks, the warp-shuffle butterfly's lane pairs, and the
# two-stage grid reduction's second stage in the last block.

setup() {
	load test_helper
	common_setup
}

q() {
	"$GPULAB" query "$1" --csv --db "$DB" | sed -n 2p
}

# frame N FILE: lines of frame N ("step N/...") of a --frames output
frame() {
	awk -v n="$1" '/^step [0-9]+\// { split($2, a, "/"); on = a[1] == n } on' "$2"
}

@test "view reduce: shared_tree level by level; it opens on the first level with idle warps" {
	run --separate-stderr "$GPULAB" view reduce --frames 1 --db "$DB"
	assert_success
	# the topic's view size: 4096 floats, two CTAs of 256 threads, both traced
	assert_line --index 1 'reduce  reduce shared_tree  n=4096  grid 2,1 block 256,1'
	# steps 1 and 2 (the loads of x, the partials stored) keep every warp busy; level 1 halves them
	assert_line --index 0 --regexp '^step 3/'
	assert_output --partial "CTA 0 (of 2 traced), after barrier 1, step 3 of "
	assert_output --partial "16 loads and 8 stores (ssum, skey): partial results through shared memory"
	assert_line 'w3    ################################  all 32 lanes'
	assert_line 'w4    ................................  idle'
	assert_output --partial "4 of 8 warps idle: waiting at the next barrier (or exited)"
	assert_output --partial "this step: 36 wavefronts (ideal 36): no bank conflicts"
	# the levels that follow: 2 warps, 1 warp, then half a warp, down to lane 0
	"$GPULAB" view reduce --step 1 --frames 12 --db "$DB" >"$BATS_TEST_TMPDIR/f" 2>/dev/null
	run frame 4 "$BATS_TEST_TMPDIR/f"
	assert_output --partial "6 of 8 warps idle"
	run frame 6 "$BATS_TEST_TMPDIR/f"
	assert_line 'w0    ################................  lanes 0-15'
	run frame 10 "$BATS_TEST_TMPDIR/f"
	assert_line 'w0    #...............................  lane 0'
	# the barriers the trace holds: 8 warps x 9 __syncthreads x 2 CTAs
	[ "$(q "SELECT COUNT(*) FROM trace_events WHERE space = 'cta' AND op = 'bar'")" = 144 ]
	# the block's result goes to the grid with atomics, which the trace now holds too
	run frame 12 "$BATS_TEST_TMPDIR/f"
	assert_output --partial "0 stores and 1 atomic (sum): the block's result leaves it"
	assert_output --partial "warp 0 lane 0: atom.global sum, 4 B"
}

@test "view reduce warp_shuffle: the butterfly's lane pairs, 16 lanes apart down to 1, from the stored shuffles" {
	run --separate-stderr "$GPULAB" view reduce --variant warp_shuffle --step 2 --frames 5 --db "$DB"
	assert_success
	echo "$output" >"$BATS_TEST_TMPDIR/f"
	run frame 2 "$BATS_TEST_TMPDIR/f"
	assert_output --partial "round 1 of 5, 24 shfl: each lane adds the value it reads from another lane"
	assert_line 'reads  g h i j k l m n o p q r s t u v . . . . . . . . . . . . . . . .'
	assert_output --partial "pairs 16 lanes apart; 16 of 32 lanes add a value that reaches lane 0"
	run frame 6 "$BATS_TEST_TMPDIR/f"
	assert_line 'reads  1 2 3 4 5 6 7 8 9 a b c d e f g h i j k l m n o p q r s t u v .'
	assert_output --partial "pairs 1 lane apart; 1 of 32 lanes add a value that reaches lane 0"
	# each round is a float and a 64-bit key: 3 shfl.b32 per warp, 8 warps, 5 rounds, twice per CTA
	launch=$(q "SELECT MAX(launch_id) FROM trace_events")
	[ "$(q "SELECT COUNT(*) FROM trace_events WHERE launch_id = $launch AND op = 'shfl' AND block = 0")" = $((3 * 5 * 8 + 3 * 5)) ]
	[ "$(q "SELECT space || ' ' || mask FROM trace_events WHERE launch_id = $launch AND op = 'shfl' ORDER BY seq LIMIT 1")" = "warp 4294967295" ]
}

@test "view reduce two_stage: the last block reads the partials every block wrote, and reduces them" {
	run --separate-stderr "$GPULAB" view reduce --variant two_stage --step 1 --frames 60 --db "$DB"
	assert_success
	assert_output --partial "2 stores and 1 atomic (partials, keys, ticket): the block's result leaves it"
	# one warp instruction, its lanes 0 and 1 reading the two CTAs' partials
	assert_output --partial "1 load of partials (1 a warp): a second stage reads what the blocks wrote"
	assert_output --regexp "  partials   by CTA 0 1"
	assert_output --regexp "  ticket     by CTA 0 1"
	assert_output --regexp "3 stores and 0 atomics \\(sum, best, ticket\\)"
}

@test "view reduce refuses another topic; --run shows any stored trace" {
	run "$GPULAB" view reduce --topic gemm --frames 1 --db "$DB"
	assert_failure 2
	assert_output --partial "the reduce view shows the reduce topic, not gemm"
	[ ! -e "$DB" ]
	"$GPULAB" run transpose --variant coalesced --size 32 --trace --backend sim --db "$DB" >/dev/null 2>&1
	run --separate-stderr "$GPULAB" view reduce --run 1 --frames 1 --db "$DB"
	assert_success
	assert_output --partial "CTA 0 (of 1 traced)"
}
