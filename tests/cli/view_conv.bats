#!/usr/bin/env bats
# gpulab view conv: the implicit GEMM's gather from a recorded trace — each lane's input pixel, the
# im2col elements A(m, kk) that are that pixel, and the loads of its channel so far.

setup() {
	load test_helper
	common_setup
}

@test "view conv: a corner pixel is in 4 im2col rows, an edge pixel in 6; the warp loads it twice" {
	run --separate-stderr "$GPULAB" view conv --variant implicit_gemm --frames 2 --db "$DB"
	assert_success
	# the first warp load: lanes 0-3 read padding (no load), lane 4 is A(m=0, kk=4) = x[0][0][0][0]
	assert_output --partial "step 1/"
	assert_output --partial "lane 4 reads x[n=0][c=0][h=0][w=0] (nchw, element 0), loaded 2 times so far"
	assert_output --partial "im2col: this pixel is A(m, kk) 4 times"
	assert_output --partial "m 0     (p 0, q 0)  kk 4    (r 1, s 1)"
	assert_output --partial "m 17    (p 1, q 1)  kk 0    (r 0, s 0)"
	assert_output --partial "lane 5 reads x[n=0][c=0][h=0][w=1]"
	assert_output --partial "im2col: this pixel is A(m, kk) 6 times"
	# 16 x 16 outputs x 64 channels x 9 taps for 64 x 16 x 16 pixels
	assert_output --partial "im2col matrix: 256 x 576 = 147456 elements for 16384 pixels (9.00 copies)"
}

@test "view conv nhwc: the taps of a pixel are C apart in kk; the direct kernel's warp reads one pixel 32 times" {
	run --separate-stderr "$GPULAB" view conv --variant direct --layout nhwc --frames 1 --db "$DB"
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
	assert_output --partial "view needs what to show: a view (gemm, mma, banks, coalesce, conv, flash) or a TOPIC"
	[ ! -e "$DB" ]
}
