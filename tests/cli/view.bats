#!/usr/bin/env bats
# gpulab view: the gemm, banks and coalesce views.  --frames output is checked against the trace the
# database holds (gpulab query), and each view is driven in a real terminal (tmux at 80x24 and 120x40):
# it steps forward and back, resizes, and q, Ctrl-C and SIGTERM leave a clean shell behind.

setup() {
	load test_helper
	common_setup
	load tmux_helper
}

teardown() {
	tmux_teardown
}

# q SQL: the first row of a query as "a,b,c" (CSV without its header).
q() {
	"$GPULAB" query "$1" --csv --db "$DB" | sed -n 2p
}

# frame K FILE: frame K (1-based) of a --frames output file, without its "step" line.
frame() {
	awk -v k="$1" '/^step [0-9]+\/[0-9]+$/ { n++; next } n == k' "$2"
}

# ---- in a terminal (tm, start, pane and wait_for: tmux_helper.bash)

# run_view ARGS...: start gpulab view ARGS in the pane (the trace is recorded beforehand); it opens on the
# step that shows the view's point, and Home goes to step 1
run_view() {
	tm send-keys -t v "$GPULAB view $* --db $DB" Enter
	wait_for '^step [0-9]+/[0-9]+ +\[paused\]'
	tm send-keys -t v Home
	wait_for '^step 1/[0-9]+ +\[paused\]'
}

# the shell is back, echoing and line-buffered
assert_clean_shell() {
	tm send-keys -t v 'clear; stty -a | tr " ;" "\n\n" | grep -xE -- "-?(icanon|echo|isig)" | tr "\n" " "; echo; echo done' Enter
	wait_for '^done$'
	run pane
	assert_output --partial 'isig icanon echo'
	refute_output --partial 'step 1/'
}

# step_forward_and_back: n, n, p moves 1 -> 3 -> 2, checked on the status row
step_forward_and_back() {
	tm send-keys -t v n
	wait_for '^step 2/'
	tm send-keys -t v n
	wait_for '^step 3/'
	tm send-keys -t v p
	wait_for '^step 2/'
}

record() {
	"$GPULAB" view "$@" --frames 1 --db "$DB" >/dev/null 2>&1
}

# ---- usage

@test "view --help names the views and the keys" {
	run "$GPULAB" view --help
	assert_success
	assert_output --partial 'gemm'
	assert_output --partial 'banks'
	assert_output --partial 'coalesce'
	assert_output --partial 'space play/pause, n/p step'
}

@test "view: usage errors" {
	run "$GPULAB" view --db "$DB"
	assert_failure 2
	run "$GPULAB" view banks --db "$DB"
	assert_failure 2
	assert_output --partial 'needs --topic'
	run "$GPULAB" view bank --db "$DB"
	assert_failure 2
	assert_output --partial "did you mean 'banks'"
	run "$GPULAB" view transpose --variant nope --db "$DB"
	assert_failure 2
	run "$GPULAB" view banks --topic transpose --variant naive --frames 1 --db "$DB"
	assert_failure 2
	assert_output --partial 'no shared-memory accesses'
	run "$GPULAB" view transpose --frames 0 --db "$DB"
	assert_failure 2
	runs="$(q 'SELECT COUNT(*) FROM runs')"
	run "$GPULAB" view gemm --topic transpose --db "$DB"
	assert_failure 2
	assert_output --partial 'the gemm view shows the gemm topic'
	assert_equal "$(q 'SELECT COUNT(*) FROM runs')" "$runs" # refused before recording anything
}

@test "view without a terminal and without --frames refuses" {
	run "$GPULAB" view transpose --variant naive --db "$DB" </dev/null
	assert_failure 2
	assert_output --partial 'use --frames N'
}

# ---- --frames against the stored trace

@test "view records a trace when none is stored, then reuses it" {
	run "$GPULAB" view transpose --variant naive --frames 1 --db "$DB"
	assert_success
	assert_output --partial 'no stored trace of transpose naive'
	assert_output --partial 'recorded now on the simulator (run 1, launch 1)'
	assert_equal "$(q 'SELECT COUNT(*) FROM trace_events WHERE launch_id = 1')" 128
	run "$GPULAB" view transpose --variant naive --frames 1 --db "$DB"
	assert_success
	assert_output --partial 'stored trace: run 1, launch 1'
	assert_equal "$(q 'SELECT COUNT(*) FROM runs')" 1
	# another size is another trace
	run "$GPULAB" view transpose --variant naive --size 32 --frames 1 --db "$DB"
	assert_output --partial 'recorded now'
	assert_equal "$(q 'SELECT params_json FROM launches WHERE id = 2')" '"{""rows"":32,""cols"":32}"'
}

@test "view coalesce --frames: each step is the next global event of the trace" {
	"$GPULAB" view coalesce --topic transpose --variant naive --step 1 --frames 6 --db "$DB" >"$BATS_TEST_TMPDIR/f" 2>/dev/null
	assert_equal "$(grep -c '^step [0-9]*/128$' "$BATS_TEST_TMPDIR/f")" 6
	for k in 1 2 3 4 5 6; do
		want="$(q "SELECT seq, block, warp, op, addr_base, addr_stride FROM trace_events
			WHERE launch_id = 1 AND space = 'global' ORDER BY seq LIMIT 1 OFFSET $((k - 1))")"
		IFS=, read -r seq block warp op base stride <<<"$want"
		run frame "$k" "$BATS_TEST_TMPDIR/f"
		assert_output --partial "seq $seq  block $block  warp $warp  $op.global 4 B x 32 lanes"
		assert_output --partial "addr_base $(printf 0x%x "$base")  stride $stride B"
	done
	# the naive store: a column of out, 32 lines of one word each
	run frame 2 "$BATS_TEST_TMPDIR/f"
	assert_output --partial 'out[0][0] .. out[31][0]'
	assert_output --partial 'this request: 32 sectors in 32 lines (ideal 4)'
	assert_output --regexp ' 3 out\[3\]\[0\] +\[3\.\.\.\.\.\.\.\]'
}

@test "view coalesce --frames: the counts at the last step are the launch's counters" {
	# 32x32 is one CTA, so the trace holds the whole launch
	"$GPULAB" view transpose --variant naive --size 32 --step 1 --frames 1000 --db "$DB" >"$BATS_TEST_TMPDIR/f" 2>/dev/null
	total="$(q "SELECT COUNT(*) FROM trace_events WHERE launch_id = 1 AND space = 'global'")"
	run grep -c '^step ' "$BATS_TEST_TMPDIR/f"
	assert_output "$total"
	want="$(q 'SELECT CAST(gld_requests + gst_requests AS INT), CAST(gld_sectors + gst_sectors AS INT)
		FROM launch_counters WHERE launch_id = 1')"
	IFS=, read -r requests sectors <<<"$want"
	run frame "$total" "$BATS_TEST_TMPDIR/f"
	assert_output --partial "so far: $requests requests, $sectors sectors"
}

@test "view banks --frames: wavefronts and conflicts match the launch's shared-memory counters" {
	"$GPULAB" view banks --topic transpose --variant coalesced --size 32 --step 1 --frames 1000 --db "$DB" \
		>"$BATS_TEST_TMPDIR/f" 2>/dev/null
	total="$(q "SELECT COUNT(*) FROM trace_events WHERE launch_id = 1 AND space = 'shared'")"
	assert_equal "$(grep -c '^step ' "$BATS_TEST_TMPDIR/f")" "$total"
	want="$(q 'SELECT CAST(sld_instructions + sst_instructions AS INT), CAST(sld_wavefronts + sst_wavefronts AS INT),
		CAST(sld_conflicts + sst_conflicts AS INT) FROM launch_counters WHERE launch_id = 1')"
	IFS=, read -r inst wf conf <<<"$want"
	run frame "$total" "$BATS_TEST_TMPDIR/f"
	assert_output --partial "so far: $inst instructions, $wf wavefronts, $conf conflicts"
	# the first shared load reads a column of tile[32][32]: 32 lanes in one bank, 32 wavefronts
	k="$(q "SELECT COUNT(*) + 1 FROM trace_events WHERE launch_id = 1 AND space = 'shared'
		AND seq < (SELECT MIN(seq) FROM trace_events WHERE launch_id = 1 AND space = 'shared' AND op = 'ld')")"
	run frame "$k" "$BATS_TEST_TMPDIR/f"
	assert_output --partial 'ld.shared 4 B x 32 lanes'
	assert_output --partial 'this access: 32 wavefronts (ideal 1): 31 bank conflicts'
	assert_output --regexp 'wf  5  5( \.){31}'
}

@test "view gemm --frames: the slab of each K step and the CTA tile are the trace's A, B and C addresses" {
	"$GPULAB" view gemm --variant smem --size 64 --step 1 --frames 1 --db "$DB" >"$BATS_TEST_TMPDIR/f" 2>/dev/null
	assert_equal "$(head -1 "$BATS_TEST_TMPDIR/f")" 'step 1/65'
	# A and B loads of CTA 0 before its first shared-memory read, as (row, col) of the 64x64 matrices
	tile() {
		q "WITH base AS (SELECT MIN(addr_base) AS b FROM trace_events WHERE launch_id = 1 AND buffer = '$1'),
		     first_read AS (SELECT MIN(seq) AS s FROM trace_events
				    WHERE launch_id = 1 AND block = 0 AND space = 'shared' AND op = 'ld'),
		     e AS (SELECT (addr_base - (SELECT b FROM base)) / 4 AS i FROM trace_events
			   WHERE launch_id = 1 AND block = 0 AND buffer = '$1' AND $2)
		   SELECT MIN(i / 64) || '-' || MAX(i / 64), MIN(i % 64) || '-' || MAX(i % 64 + 31) FROM e"
	}
	IFS=, read -r ar ac <<<"$(tile A 'seq < (SELECT s FROM first_read)')"
	IFS=, read -r br bc <<<"$(tile B 'seq < (SELECT s FROM first_read)')"
	run frame 1 "$BATS_TEST_TMPDIR/f"
	assert_output --partial "k 0  K step 1/2: slab A[$ar][$ac], B[$br][$bc]"
	IFS=, read -r cr cc <<<"$(tile C "op = 'st'")"
	assert_output --partial "tile 32x32 = C[$cr][$cc], 32 warps"
	assert_equal "$cr,$cc" '0-31,0-31'
	# the epilogue (the last step) writes that tile; the counts so far are the CTA's whole trace
	want="$(q "SELECT SUM(buffer = 'A'), SUM(buffer = 'C') FROM trace_events WHERE launch_id = 1 AND block = 0")"
	IFS=, read -r areq creq <<<"$want"
	"$GPULAB" view gemm --variant smem --size 64 --step 65 --frames 1 --db "$DB" >"$BATS_TEST_TMPDIR/f" 2>/dev/null
	run frame 1 "$BATS_TEST_TMPDIR/f"
	assert_output --partial 'epilogue: C = alpha*acc + beta*C from registers, 1024 stores'
	assert_output --regexp "requests A [0-9]+/$areq  B [0-9]+/[0-9]+  C [0-9]+/$creq"
}

@test "view TOPIC picks the topic's view; --block picks the second traced CTA" {
	run "$GPULAB" view gemm --variant warptile --frames 1 --db "$DB"
	assert_success
	assert_output --partial 'warp 0 stores 4096 C elements:'
	assert_output --partial 'thread 0 (warp 0 lane 0): acc 16x8'
	run "$GPULAB" view smem_patterns --variant stride2 --frames 1 --db "$DB"
	assert_output --partial 'banks  smem_patterns stride2'
	run "$GPULAB" view coalesce --topic transpose --variant copy --block 1 --frames 1 --db "$DB"
	assert_success
	assert_output --partial 'block 1  warp 0'
}

# ---- in a terminal

@test "tmux 80x24: coalesce steps forward and back, q leaves a clean shell" {
	record transpose --variant naive
	start 80 24
	run_view transpose --variant naive
	step_forward_and_back
	run pane
	assert_output --partial 'seq 1  block 0  warp 0  st.global'
	assert_output --partial 'out[0][0] .. out[31][0]'
	tm send-keys -t v q
	assert_clean_shell
}

@test "tmux 120x40: coalesce shows more lines, q leaves a clean shell" {
	record transpose --variant naive
	start 120 40
	run_view transpose --variant naive
	tm send-keys -t v n
	wait_for '^step 2/'
	run pane
	assert_output --regexp ' 9 out\[9\]\[0\] +\[9'
	tm send-keys -t v p
	wait_for '^step 1/'
	step_forward_and_back
	tm send-keys -t v q
	assert_clean_shell
}

@test "tmux 80x24: banks steps forward and back, C-c leaves a clean shell" {
	record banks --topic transpose --variant coalesced
	start 80 24
	run_view banks --topic transpose --variant coalesced
	step_forward_and_back
	tm send-keys -t v g 3 5 Enter
	wait_for '^step 35/'
	run pane
	assert_output --partial '31 bank conflicts'
	tm send-keys -t v C-c
	assert_clean_shell
}

@test "tmux 120x40: banks, q leaves a clean shell" {
	record banks --topic transpose --variant coalesced
	start 120 40
	run_view banks --topic transpose --variant coalesced
	step_forward_and_back
	tm send-keys -t v q
	assert_clean_shell
}

@test "tmux 80x24: gemm steps forward and back, C-c leaves a clean shell" {
	record gemm --variant smem --size 64
	start 80 24
	run_view gemm --variant smem --size 64
	run pane
	assert_output --partial 'k 0  K step 1/2: slab A[0-31][0-31], B[0-31][0-31]'
	step_forward_and_back
	tm send-keys -t v ']'
	wait_for 'k 32  K step 2/2: slab A\[0-31\]\[32-63\]'
	tm send-keys -t v End
	wait_for 'epilogue: C = alpha'
	tm send-keys -t v C-c
	assert_clean_shell
}

@test "tmux 120x40: gemm, q leaves a clean shell" {
	record gemm --variant warptile
	start 120 40
	run_view gemm --variant warptile
	step_forward_and_back
	run pane
	assert_output --partial 'k 1  K step 1/16: slab A[0-127][0-15]'
	tm send-keys -t v q
	assert_clean_shell
}

@test "tmux: help, play, resize below 80x24 and back" {
	record transpose --variant naive
	start 80 24
	run_view transpose --variant naive
	tm send-keys -t v '?'
	wait_for 'any key closes this box'
	tm send-keys -t v x
	tm send-keys -t v + + + +
	tm send-keys -t v ' '
	wait_for '^step [0-9]+/128 +\[playing\] 32/s'
	wait_for '^step 128/128 +\[paused\]'
	tm resize-window -t v -x 60 -y 20
	wait_for 'terminal 60x20: the view needs 80x24'
	tm resize-window -t v -x 100 -y 30
	wait_for '^step 128/128'
	tm send-keys -t v q
	assert_clean_shell
}

@test "tmux: SIGTERM leaves a clean shell" {
	record transpose --variant naive
	start 80 24
	tm send-keys -t v "sh -c 'echo \$\$ > $BATS_TEST_TMPDIR/pid; exec $GPULAB view transpose --variant naive --db $DB'" Enter
	wait_for '^step 2/128'
	kill -TERM "$(cat "$BATS_TEST_TMPDIR/pid")"
	assert_clean_shell
}

@test "tmux: a crash signal (SIGABRT) still restores the terminal" {
	record transpose --variant naive
	start 80 24
	tm send-keys -t v "sh -c 'echo \$\$ > $BATS_TEST_TMPDIR/pid; exec $GPULAB view transpose --variant naive --db $DB'" Enter
	wait_for '^step 2/128'
	kill -ABRT "$(cat "$BATS_TEST_TMPDIR/pid")"
	assert_clean_shell
}

@test "tmux: colour unless NO_COLOR; --play starts playing" {
	record transpose --variant naive
	start 80 24
	tm send-keys -t v "env -u NO_COLOR $GPULAB view transpose --variant naive --play --db $DB" Enter
	wait_for '^step [0-9]+/128 +\[playing\]'
	run tm capture-pane -p -e -t v
	assert_output --regexp $'\e\\[[0-9;]*3[0-7]m'
	tm send-keys -t v q
	assert_clean_shell
	run_view transpose --variant naive
	run tm capture-pane -p -e -t v
	refute_output --regexp $'\e\\[[0-9;]*3[0-7]m'
	tm send-keys -t v q
	assert_clean_shell
}
