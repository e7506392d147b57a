#!/usr/bin/env bats
# gpulab view gemm: the CUTLASS hierarchy from a recorded trace — the grid of CTA tiles over C, the K slab
# of A and B, the shared arrays as the kernel filled them, every warp's C elements, the selected thread's
# register tile and what it reads at each k.  --frames prints every page; the values are the kernels'
# (kernels/gemm.cu: blocktile2d's 128x128 tile, 16x16 threads with 8x8 register tiles strided by 16;
# warptile's 2x2 warps of 64x64 with 8x4 thread tiles in 2x2 sub-tiles of 32x32).  In a terminal (tmux
# at 80x24 and 120x40) the screen shows the same, and z zooms to one C element per cell.

setup() {
	load test_helper
	common_setup
	load tmux_helper
}

teardown() {
	tmux_teardown
}

# frames ARGS...: gpulab view gemm ARGS --frames 1 into $output (stderr apart)
frames() {
	run --separate-stderr "$GPULAB" view gemm "$@" --frames 1 --db "$DB"
	assert_success
}

@test "view gemm blocktile2d at the view's size: 2x2 CTAs of 128x128, the slab, As and Bs as filled" {
	frames --variant blocktile2d
	# it opens on the second K step (k 8), and prints the three pages of the frame at 80x24
	assert_line --index 0 'step 9/257'
	assert_output --partial 'gemm blocktile2d  m=256 n=256 k=256  grid 2,2 block 256,1'
	assert_output --partial 'CTA 0 (row 0 col 0 of 2x2): tile 128x128 = C[0-127][0-127], 8 warps'
	assert_output --partial 'k 8  K step 2/32: slab A[0-127][8-15], B[8-15][0-127]'
	assert_line --regexp '^C 2x2 CTAs +A\[0-127\]\[k\] +B\[k\]\[0-127\] +As 128x8 +Bs 8x128$'
	# A: the tile's rows by one column per K slab (slab 1 done, slab 2 now); B: one row per slab
	assert_line --regexp '^o: +\+#\.{12}  \+{8} '
	assert_line --regexp '^:\. +\+#\.{12}  #{8} '
	assert_output --regexp 'slabs 1-14/32'
	assert_output --partial 'As = A[0-127][8-15]: A[0+i][8+j] at As[8*i + j], 1024 of 1024 held'
	assert_output --partial 'Bs = B[8-15][0-127]: B[8+i][0+j] at Bs[128*i + j], 1024 of 1024 held'
	assert_output --partial 'page 1/3, v: warps and thread'
	assert_output --partial 'page 2/3, v: outer product'
	assert_output --partial 'page 3/3, v: tiles A B As Bs'
	# the outer product: thread 0's 8x8 accumulators, every one updated at k 8
	assert_output --partial "thread 0's 8x8 accumulators at k 8: # acc[r][c] += A[r][k] * B[k][c]"
	assert_line --regexp '^    c   0  16  32  48  64  80  96 112 '
	assert_line --regexp '^r 112   #   #   #   #   #   #   #   # '
	# every warp: warp 0 is threads 0-31 = thread rows 0 and 1, so C rows 0-1, 16-17, ... x every column
	assert_output --partial '8 warps, 2048 C elements each'
	assert_output --partial 'warp 0 stores 2048 C elements:'
	assert_line --regexp '  rows 0-1,16-17,32-33,48-49,'
	assert_line --regexp '  cols 0-127$'
	# thread 0: acc 8x8 on rows and columns 0, 16, ..., 112; at k 8 it reads A column 8 from As, B row 8 from Bs
	assert_output --partial 'thread 0 (warp 0 lane 0): acc 8x8'
	assert_line --regexp '  rows 0-112 every 16$'
	assert_line --regexp '  cols 0-112 every 16$'
	assert_output --partial 'k 8: a = A[0-112 every 16][8] (8) from As'
	assert_output --partial 'b = B[8][0-112 every 16] (8) from Bs'
	# ... which are these words of As (row-major 128x8: A[r][8] is As[8*r + 0]) and of Bs (8x128)
	assert_output --partial '= As[0-896 every 128]'
	assert_output --partial '= Bs[0-112 every 16]'
	assert_output --partial 'acc[i][j] += a[i]*b[j]: 64 FMAs'
	assert_output --partial 'update 8x8 accumulators'
	# the counts so far: two slabs of A, 64 requests of 4 sectors by 8 warps
	assert_output --partial 'so far: global sectors/requests A 256/64  B 256/64  C 0/0'
}

@test "view gemm --thread T: thread 37 is row 2, column 5 of the 16x16 threads: its tile, warp 1, its reads" {
	frames --variant blocktile2d --thread 37
	assert_output --partial 'thread 37 (warp 1 lane 5): acc 8x8'
	assert_line --regexp '  rows 2-114 every 16$'
	assert_line --regexp '  cols 5-117 every 16$'
	assert_output --partial 'k 8: a = A[2-114 every 16][8] (8) from As'
	assert_output --partial 'b = B[8][5-117 every 16] (8) from Bs'
	assert_output --partial '= As[16-912 every 128]'
	assert_output --partial '= Bs[5-117 every 16]'
	assert_line --regexp '^    c   5  21  37  53  69  85 101 117 '
	assert_line --regexp '^r  18   #   #   #   #   #   #   #   # '
	# warp 1 (threads 32-63: thread rows 2 and 3) stores C rows 2-3, 18-19, ...: C[50][7] is its thread 39's
	assert_output --partial 'warp 1 stores 2048 C elements:'
	assert_line --regexp '  rows 2-3,18-19,34-35,50-51,'
	frames --variant blocktile2d --thread 39
	assert_line --regexp '  rows 2-114 every 16$'
	assert_line --regexp '  cols 7-119 every 16$'
	# a thread outside the CTA, and --thread for another view, are refused before anything is recorded
	run --separate-stderr "$GPULAB" view gemm --variant blocktile2d --thread 256 --frames 1 --db "$DB"
	assert_failure 2
	[[ "$stderr" == *"no thread 256 in a CTA of 256 threads (--thread 0 to 255)"* ]]
	run --separate-stderr "$GPULAB" view banks --topic transpose --thread 3 --frames 1 --db "$BATS_TEST_TMPDIR/none.db"
	assert_failure 2
	[[ "$stderr" == *"--thread selects the thread the gemm view follows; the banks view has none"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/none.db" ]
}

@test "view gemm: steps are k, ] jumps a K slab, the last step is the epilogue; CTA 1 is the next tile" {
	frames --variant blocktile2d --step 12
	assert_line --index 0 'step 12/257'
	assert_output --partial 'k 11  K step 2/32: slab A[0-127][8-15]'
	assert_output --partial 'k 11: a = A[0-112 every 16][11] (8) from As'
	assert_output --partial '= As[3-899 every 128]'
	assert_output --partial '= Bs[384-496 every 16]'
	# the slab moves by a column of A every K step; the window of 14 slabs follows it
	frames --variant blocktile2d --step 130
	assert_output --partial 'k 129  K step 17/32: slab A[0-127][128-135], B[128-135][0-127]'
	assert_line --regexp '^o: +\+{7}#\.{6}  '
	assert_output --regexp 'slabs 10-23/32'
	frames --variant blocktile2d --step 257
	assert_output --partial 'epilogue: C = alpha*acc + beta*C from registers, 16384 stores'
	assert_output --partial 'epilogue: stores its 64 accumulators to C'
	frames --variant blocktile2d --block 1
	assert_output --partial 'CTA 1 (row 0 col 1 of 2x2): tile 128x128 = C[0-127][128-255], 8 warps'
	assert_output --partial 'Bs = B[8-15][128-255]: B[8+i][128+j] at Bs[128*i + j]'
	assert_line --regexp '^\.o '
}

@test "view gemm warptile and vectorized: As transposed, warp tiles of 64x64, thread tiles in sub-tiles" {
	frames --variant warptile
	assert_output --partial 'CTA 0 (row 0 col 0 of 2x2): tile 128x128 = C[0-127][0-127], 4 warps'
	assert_output --partial 'k 16  K step 2/16: slab A[0-127][16-31], B[16-31][0-127]'
	assert_output --partial 'As = A[0-127][16-31]: A[0+i][16+j] at As[i + 128*j], 2048 of 2048 held'
	assert_output --partial '4 warps, 4096 C elements each'
	assert_output --partial 'warp 0 stores 4096 C elements:'
	assert_line --regexp '  rows 0-63$'
	assert_output --partial 'thread 0 (warp 0 lane 0): acc 16x8'
	assert_line --regexp '  rows 0-7,32-39$'
	assert_line --regexp '  cols 0-3,32-35$'
	assert_output --partial 'k 16: a = A[0-7,32-39][16] (16) from As'
	assert_output --partial 'b = B[16][0-3,32-35] (8) from Bs'
	assert_output --partial '= As[0-7,32-39]'
	frames --variant warptile --step 18
	assert_output --partial 'k 17: a = A[0-7,32-39][17] (16) from As'
	assert_output --partial '= As[128-135,160-167]'
	assert_output --partial '= Bs[128-131,160-163]'
	frames --variant warptile
	# the warp panel: warps 0 and 1 side by side on top, 2 and 3 below
	assert_line --regexp '^@0000000@0000000111111111111111+ '
	assert_line --regexp '^2222222222222222333333333333333+ '
	frames --variant vectorized
	assert_output --partial 'As = A[0-127][8-15]: A[0+i][8+j] at As[i + 128*j], 1024 of 1024 held'
}

@test "view gemm naive and coalesced: no shared tiles, said so; one k per K step; 8x8 CTAs of 32x32" {
	frames --variant naive
	assert_line --index 0 'step 2/257'
	assert_output --partial 'CTA 0 (row 0 col 0 of 8x8): tile 32x32 = C[0-31][0-31], 32 warps'
	assert_output --partial 'k 1  K step 2/256: slab A[0-31][1-1], B[1-1][0-31]'
	assert_output --partial '(no As tile)'
	assert_output --partial 'no shared array holds A: every k is read from global memory'
	assert_output --partial 'k 1: a = A[0][1] (1) from global'
	# naive: a warp's 32 threads walk down a column of C (uncoalesced stores)
	assert_output --partial 'warp 0 stores 32 C elements:'
	assert_line --regexp '  rows 0-31$'
	assert_line --regexp '  cols 0$'
	# the tile grid is C's, whatever the launch grid: naive's blockIdx.x walks down the rows
	frames --variant naive --m 64 --n 128 --k 32 --block 1
	assert_output --partial 'grid 2,4 block 32,32'
	assert_output --partial 'CTA 1 (row 1 col 0 of 2x4): tile 32x32 = C[32-63][0-31], 32 warps'
	assert_line --regexp '^C 2x4 CTAs '
	assert_line --regexp '^o\.:\. '
	frames --variant coalesced
	assert_line --regexp '  rows 0$'
	assert_line --regexp '  cols 0-31$'
	assert_output --partial '32 warps, 32 C elements each'
}

@test "view gemm: every variant draws its hierarchy from its trace" {
	for v in smem blocktile1d; do
		frames --variant "$v"
		assert_output --partial 'K step 2/'
		assert_output --regexp 'As = A\[[0-9]+-[0-9]+\]'
		assert_output --partial 'C elements each'
	done
	frames --variant blocktile1d
	assert_output --partial 'CTA 0 (row 0 col 0 of 4x4): tile 64x64 = C[0-63][0-63], 16 warps'
	assert_output --partial 'acc 8x1'
	assert_line --regexp '  rows 0-7$'
	frames --variant smem
	assert_output --partial 'As = A[0-31][32-63]: A[0+i][32+j] at As[32*i + j], 1024 of 1024 held'
}

# ---- in a terminal

# open W H VARIANT STEP: the gemm view of VARIANT (recorded beforehand) in a W x H pane, opened on STEP
open() {
	command -v tmux >/dev/null || skip "tmux is not installed (make deps)"
	"$GPULAB" view gemm --variant "$3" --frames 1 --db "$DB" >/dev/null 2>&1
	tm new-session -d -s v -x "$1" -y "$2" "env PS1='$ ' bash --norc --noprofile"
	wait_for '^\$'
	tm send-keys -t v "$GPULAB view gemm --variant $3 --db $DB" Enter
	wait_for "^step $4/257 +\\[paused\\]"
}

# the shell is back, echoing and line-buffered
assert_clean_shell() {
	wait_for '^\$ *$'
	tm send-keys -t v 'clear; stty -a | tr " ;" "\n\n" | grep -xE -- "-?(icanon|echo|isig)" | tr "\n" " "; echo; echo done' Enter
	wait_for '^done$'
	run pane
	assert_output --partial 'isig icanon echo'
}

quit_clean() {
	tm send-keys -t v q
	assert_clean_shell
}

@test "tmux 80x24: gemm shows the CTA grid and the slabs, v the warps (all 8), z one element per cell" {
	open 80 24 blocktile2d 9
	run pane
	assert_output --regexp 'C 2x2 CTAs +A\[0-127\]\[k\] +B\[k\]\[0-127\] +As 128x8 +Bs 8x128'
	assert_output --partial 'k 8  K step 2/32: slab A[0-127][8-15], B[8-15][0-127]'
	assert_output --partial 'As = A[0-127][8-15]'
	assert_output --partial 'page 1/3, v: warps and thread'
	tm send-keys -t v v
	wait_for 'page 2/3'
	run pane
	assert_output --partial 'warps over the CTA tile, cell 16x4'
	assert_output --partial '8 warps, 2048 C elements each'
	assert_line --regexp '^@\*\*\*@\*\*\*'
	tm send-keys -t v z
	wait_for '^zoom C\[0-12\]\[0-33\]'
	run pane
	# one element per cell: warp 0's two rows, then warp 1's, ... (thread 0's elements every 16 columns)
	assert_line --regexp '^@0{15}@0{15}@0 '
	assert_line --regexp '^0{34}( |$)'
	assert_line --regexp '^1{34}( |$)'
	assert_line --regexp '^6{34}( |$)'
	assert_output --partial '7 of 8 warps: HJKL pan, z back'
	tm send-keys -t v J
	wait_for '^zoom C\[6-18\]'
	run pane
	assert_line --regexp '^7{34}( |$)'
	tm send-keys -t v z
	wait_for 'cell 16x4'
	# the third page draws the thread's outer product; ] goes to the next K step, } to the next warp
	tm send-keys -t v v
	wait_for 'page 3/3'
	run pane
	assert_output --partial "thread 0's 8x8 accumulators at k 8"
	assert_line --regexp '^r  16   #   #   #   #   #   #   #   # '
	tm send-keys -t v v
	wait_for 'page 1/3'
	tm send-keys -t v ']'
	wait_for '^step 17/257'
	run pane
	assert_line --regexp '^o: +\+\+#\.{11}  \+{8} '
	tm send-keys -t v v
	wait_for 'page 2/3'
	tm send-keys -t v '}'
	wait_for 'thread 32 \(warp 1 lane 0\)'
	tm send-keys -t v t
	wait_for 'thread 33 \(warp 1 lane 1\): acc 8x8'
	tm send-keys -t v T T
	wait_for 'thread 31 \(warp 0 lane 31\)'
	# the help box lists gemm's keys, whole, at 80x24
	tm send-keys -t v '?'
	wait_for 'any key closes this box'
	run pane
	assert_output --partial 'z        zoom: one C element per cell'
	assert_output --partial 'H J K L  pan the zoom: left down up right'
	assert_output --partial 't  T     gemm: next / previous thread'
	tm send-keys -t v x
	wait_for 'page 2/3'
	quit_clean
}

@test "tmux 120x40: gemm shows the tiles and the warps at once, v the outer product; z zooms, Esc quits at once" {
	open 120 40 warptile 17
	tm send-keys -t v Home
	wait_for '^step 1/257'
	tm send-keys -t v ']'
	wait_for '^step 17/257'
	run pane
	assert_output --regexp 'C 2x2 CTAs +A\[0-127\]\[k\] +B\[k\]\[0-127\] +As 128x16 +Bs 16x128'
	assert_output --partial 'warps over the CTA tile, cell 16x2'
	assert_output --partial '4 warps, 4096 C elements each'
	assert_output --partial 'k 16: a = A[0-7,32-39][16] (16) from As'
	assert_output --partial 'page 1/2, v: outer product'
	tm send-keys -t v v
	wait_for 'page 2/2'
	run pane
	assert_output --partial "thread 0's 16x8 accumulators at k 16"
	assert_line --regexp '^r  39   #   #   #   #   #   #   #   #( |$)'
	tm send-keys -t v v
	wait_for 'page 1/2'
	tm send-keys -t v z
	wait_for '^zoom C\[0-'
	run pane
	# thread 0's 8x4 elements in each of its 2x2 sub-tiles of 32x32: rows 0-7, columns 0-3 and 32-35
	assert_line --regexp '^@@@@0{28}@@@@0{28} '
	assert_line --regexp '^0{64} '
	assert_output --partial '1 of 4 warps: HJKL pan, z back'
	tm send-keys -t v L
	wait_for '^zoom C\[0-12\]\[32-95\]'
	run pane
	assert_line --regexp '^0{32}1{32} '
	assert_output --partial '2 of 4 warps:'
	tm send-keys -t v Escape
	assert_clean_shell
}
