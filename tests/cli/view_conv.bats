#!/usr/bin/env bats
# gpulab view conv: the implicit GEMM's gather from a recorded trace — each lane's input pixel, the
# im2col elements A(m, kk) that are that pixel, and the loads of its channel so far.

setup() {
	load test_helper
	common_setup
}

@test "view conv: a step per warp load; a corner pixel is in 4 im2col rows; it opens on the first re-read" {
	run --separate-stderr "$GPULAB" view conv --variant implicit_gemm --step 1 --frames 1 --db "$DB"
	assert_success
	# one step per global load of x by a warp, not per lane
	loads=$("$GPULAB" query "SELECT COUNT(*) FROM trace_events WHERE op = 'ld' AND buffer = 'x'" --csv --db "$DB" | sed -n 2p)
	assert_line --index 0 "step 1/$loads"
	# CTA 0 computes output pixels m 0-63 (4 rows of 16) for all 64 output channels
	assert_output --partial "output tile 1/2: CTA 0, 4096 y stores (k 0-63, p 0-3, q 0-15); load 1/$((loads / 2)) of it"
	# the first warp load: lanes 0-3 read padding (no load), lane 4 is A(m=0, kk=4) = x[0][0][0][0]
	assert_output --partial "16 lanes, each reading a pixel new to this tile"
	assert_output --partial "lane 4 reads x[n=0][c=0][h=0][w=0] (nchw, element 0), loaded 2 times so far"
	assert_output --partial "im2col: this pixel is A(m, kk) 4 times"
	assert_output --partial "m 0     (p 0, q 0)  kk 4    (r 1, s 1)"
	assert_output --partial "m 17    (p 1, q 1)  kk 0    (r 0, s 0)"
	# 16 x 16 outputs x 64 channels x 9 taps for 64 x 16 x 16 pixels
	assert_output --partial "im2col matrix: 256 x 576 = 147456 elements for 16384 pixels (9.00 copies)"
	# it opens on the point: the next load, whose lanes re-read pixels the first loaded
	run --separate-stderr "$GPULAB" view conv --variant implicit_gemm --frames 1 --db "$DB"
	assert_line --index 0 "step 2/$loads"
	assert_output --regexp '[0-9]+ of 26 lanes re-read pixels of this tile: the copies an im2col matrix stores'
	# an edge pixel (h 1, w 0) is in 6 rows of A
	run --separate-stderr "$GPULAB" view conv --variant implicit_gemm --step 3 --frames 1 --db "$DB"
	assert_output --partial 'reads x[n=0][c=0][h=1][w=0] (nchw, element 16)'
	assert_output --partial "im2col: this pixel is A(m, kk) 6 times"
}

@test "view conv nhwc: the taps of a pixel are C apart in kk; the direct kernel's warp reads one pixel 32 times" {
	run --separate-stderr "$GPULAB" view conv --variant direct --layout nhwc --step 1 --frames 1 --db "$DB"
	assert_success
	assert_output --partial "layout=nhwc"
	assert_output --partial "lane 0 reads x[n=0][c=0][h=0][w=0] (nhwc, element 0), loaded 32 times so far"
	assert_output --partial "m 16    (p 1, q 0)  kk 64   (r 0, s 1)"
	assert_output --partial "m 0     (p 0, q 0)  kk 256  (r 1, s 1)"
}

@test "view conv refuses another topic and names the views" {
	run "$GPULAB" view conv --topic gemm --frames 1 --db "$DB"
	assert_failure 2
	assert_output --partial "the conv view shows the conv2d topic, not gemm"
	run "$GPULAB" view convv --frames 1 --db "$DB"
	assert_failure 2
	assert_output --partial "did you mean 'conv'"
	run "$GPULAB" view nosuchview --frames 1 --db "$DB"
	assert_failure 2
	assert_output --partial "views are coalesce, banks, gemm, conv"
	run "$GPULAB" view --frames 1 --db "$DB"
	assert_failure 2
	assert_output --partial "view needs what to show: a view (gemm, mma, banks, coalesce, conv, flash, reduce) or a TOPIC"
	[ ! -e "$DB" ]
}
