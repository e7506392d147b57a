#!/usr/bin/env bats
# gpulab view mma: the m16n8k16 fragment map (a step per lane), each ldmatrix of one warp beside its
# swizzled counterpart, and the CTA's K loop; --frames checked against the PTX ISA's layout and the
# stored trace (gpulab query), the terminal driven in tmux like the other views.

setup() {
	load test_helper
	common_setup
	load tmux_helper
}

teardown() {
	tmux_teardown
}

q() {
	"$GPULAB" query "$1" --csv --db "$DB" | sed -n 2p | tr -d '"'
}

frame() {
	awk -v k="$1" '/^step [0-9]+\/[0-9]+$/ { n++; next } n == k' "$2"
}

assert_clean_shell() {
	tm send-keys -t v 'clear; stty -a | tr " ;" "\n\n" | grep -xE -- "-?(icanon|echo|isig)" | tr "\n" " "; echo; echo done' Enter
	wait_for '^done$'
	run pane
	assert_output --partial 'isig icanon echo'
	refute_output --partial 'step 1/'
}

@test "view mma --frames 3: the fragment map of lanes 0, 1, 2 (PTX ISA m16n8k16 layouts)" {
	run --separate-stderr "$GPULAB" view mma --frames 3 --db "$DB"
	assert_success
	echo "$output" >"$BATS_TEST_TMPDIR/f"
	[ "$(grep -c '^step [0-9]*/50$' "$BATS_TEST_TMPDIR/f")" = 3 ]
	run frame 1 "$BATS_TEST_TMPDIR/f"
	assert_line --index 0 'mma  hgemm mma_ldmatrix  m=64 n=64 k=64  grid 1,1 block 128,1'
	assert_line 'm16n8k16 lanes 0-9a-v; lane 0 (g=0, t=0) selected: N* its element N (n/p: lanes)'
	# A row 0: a0 a1 at columns 0, 1 and a4 a5 at 8, 9; lanes 1..3 hold the other pairs; B column 0 k 0, 1
	assert_line ' 0 0*1*1 1 2 2 3 3 4*5*1 1 2 2 3 3      0*4 8 c g k o s     0*1*1 1 2 2 3 3'
	assert_line ' 8 2*3*1 1 2 2 3 3 6*7*1 1 2 2 3 3      2*4 8 c g k o s     2*3*1 1 2 2 3 3'
	assert_line '15 s s t t u u v v s s t t u u v v      3 7 b f j n r v     s s t t u u v v'
	assert_line 'A: a0(0,0) a1(0,1) a2(8,0) a3(8,1) a4(0,8) a5(0,9) a6(8,8) a7(8,9)'
	run frame 3 "$BATS_TEST_TMPDIR/f"
	assert_line 'A: a0(0,4) a1(0,5) a2(8,4) a3(8,5) a4(0,12) a5(0,13) a6(8,12) a7(8,13)'
	assert_line 'B: b0(4,0) b1(5,0) b2(12,0) b3(13,0)  C: c0(0,4) c1(0,5) c2(8,4) c3(8,5)'
}

@test "view mma: ldmatrix steps count what the trace holds; the swizzle beside the plain tile and back" {
	"$GPULAB" view mma --frames 1 --db "$DB" >/dev/null 2>&1
	"$GPULAB" view mma --variant mma_swizzle --frames 1 --db "$DB" >/dev/null 2>&1
	run --separate-stderr "$GPULAB" view mma --frames 50 --db "$DB"
	assert_success
	echo "$output" >"$BATS_TEST_TMPDIR/plain"
	run frame 33 "$BATS_TEST_TMPDIR/plain"
	assert_line "ldmatrix 1/16 of warp 0: $(q "SELECT 'seq ' || seq || ', 4 matrices, PTX line ' || line FROM trace_events WHERE launch_id = 1 AND op = 'ldmatrix' ORDER BY seq LIMIT 1"), shared As"
	# A tile rows are 64 bytes apart: 4 rows per bank group
	assert_line 'recorded: 16 wavefronts (ideal 4), 12 conflicts | swizzled: 4, 0 conflicts'
	assert_line '    matrix 0 rec swz  matrix 1 rec swz  matrix 2 rec swz  matrix 3 rec swz'
	assert_line '1    1 +64    40 40    9 +576   44 01   17 +80    58 52   25 +592   5c 13'
	# the last ldmatrix of warp 0: its running counts are the trace's
	run frame 48 "$BATS_TEST_TMPDIR/plain"
	want=$(q "SELECT COUNT(*) || ' ldmatrix, ' || SUM(cost) || ' wavefronts' FROM trace_events WHERE launch_id = 1 AND op = 'ldmatrix' AND block = 0 AND warp = 0")
	# 8 A matrices x 12 conflicts + 8 B (.trans, 128-byte rows) x 28
	assert_line "so far (warp 0): $want, 320 conflicts"
	run --separate-stderr "$GPULAB" view mma --variant mma_swizzle --frames 33 --db "$DB"
	echo "$output" >"$BATS_TEST_TMPDIR/swz"
	run frame 33 "$BATS_TEST_TMPDIR/swz"
	assert_line 'recorded: 4 wavefronts (ideal 4), 0 conflicts | swizzled: 16, 12 conflicts'
	assert_line '1    1 +64    40 40    9 +512   01 44   17 +80    52 58   25 +528   13 5c'
}

@test "view mma: the K loop steps, tiles and counts come from the trace" {
	run --separate-stderr "$GPULAB" view mma --variant mma_pipeline --frames 50 --db "$DB"
	assert_success
	echo "$output" >"$BATS_TEST_TMPDIR/f"
	run frame 49 "$BATS_TEST_TMPDIR/f"
	assert_line 'K loop step 1/2 of CTA 0: it owns C[0..63][0..63]'
	assert_line 'global -> A[0..63][0..31]  B[0..31][0..63]'
	assert_line '  0 0 0 0 1 1 1 1'
	assert_line '  2 2 2 2 3 3 3 3'
	run frame 50 "$BATS_TEST_TMPDIR/f"
	assert_line 'global -> A[0..63][32..63]  B[32..63][0..63]'
	want=$(q "SELECT COUNT(*) || ' req ' || SUM(cost) || ' sectors' FROM trace_events WHERE op = 'cp.async' AND space = 'global' AND block = 0")
	assert_line "so far: LDG 0 req 0 sectors, LDGSTS (cp.async) $want"
	want=$(q "SELECT COUNT(*) FROM trace_events WHERE op = 'ldmatrix' AND block = 0")
	assert_line --partial "LDSM $want: "
}

@test "view hgemm picks the mma view and mma_ldmatrix; the mma view refuses other topics" {
	run --separate-stderr "$GPULAB" view hgemm --frames 1 --db "$DB"
	assert_success
	assert_line --index 1 'mma  hgemm mma_ldmatrix  m=64 n=64 k=64  grid 1,1 block 128,1'
	run "$GPULAB" view mma --topic gemm --frames 1 --db "$DB"
	assert_failure 2
	assert_output --partial "the mma view shows the hgemm topic, not gemm"
	run "$GPULAB" view mma --block 5 --frames 1 --db "$DB"
	assert_failure 2
	assert_output --partial "has no accesses by CTA 5"
	run "$GPULAB" view --help
	assert_output --partial "mma         hgemm on tensor cores"
}

@test "tmux 80x24: mma steps through lanes, q leaves a clean shell" {
	"$GPULAB" view mma --frames 1 --db "$DB" >/dev/null 2>&1
	start 80 24
	tm send-keys -t v "$GPULAB view mma --db $DB" Enter
	wait_for '^step 1/50 +\[paused\]'
	wait_for 'lane 0 \(g=0, t=0\) selected'
	tm send-keys -t v n
	wait_for 'lane 1 \(g=0, t=1\) selected'
	tm send-keys -t v g 3 3 Enter
	wait_for 'recorded: 16 wavefronts \(ideal 4\), 12 conflicts'
	tm send-keys -t v p
	wait_for 'lane 31 \(g=7, t=3\) selected'
	tm send-keys -t v q
	assert_clean_shell
}

@test "tmux 120x40: mma K loop, resize below 80x24 and back, C-c leaves a clean shell" {
	"$GPULAB" view mma --variant mma_pipeline --frames 1 --db "$DB" >/dev/null 2>&1
	start 120 40
	tm send-keys -t v "$GPULAB view mma --variant mma_pipeline --db $DB" Enter
	wait_for '^step 1/50 +\[paused\]'
	tm send-keys -t v g 5 0 Enter
	wait_for 'K loop step 2/2 of CTA 0'
	tm resize-window -t v -x 60 -y 20
	wait_for 'terminal 60x20: the view needs 80x24'
	tm resize-window -t v -x 100 -y 30
	wait_for 'K loop step 2/2 of CTA 0'
	tm send-keys -t v C-c
	assert_clean_shell
}
