#!/usr/bin/env bats
# Views open on the point: the first step that shows what the view is about (banks: a bank conflict;
# coalesce: more sectors than ideal; gemm: a new K step), Home/End and ] [ } { jump, Esc quits at once,
# addresses are hex, counts agree in number, a terminal that cannot address the cursor is refused.

setup() {
	load test_helper
	common_setup
	load tmux_helper
}

teardown() {
	tmux_teardown
}

@test "view banks --topic transpose --variant coalesced --frames 1 shows a conflicting access" {
	run --separate-stderr "$GPULAB" view banks --topic transpose --variant coalesced --frames 1 --db "$DB"
	assert_success
	assert_line --index 0 --regexp '^step ([2-9]|[1-9][0-9]+)/128$'
	assert_output --regexp 'this access: 32 wavefronts \(ideal 1\): 31 bank conflicts'
	assert_output --partial "ld.shared 4 B x 32 lanes"
	# the steps before it had none: --step 1 shows the first access, a conflict-free store
	run --separate-stderr "$GPULAB" view banks --topic transpose --variant coalesced --step 1 --frames 1 --db "$DB"
	assert_line --index 0 "step 1/128"
	assert_output --partial "this access: 1 wavefront (ideal 1): no bank conflicts"
}

@test "view coalesce opens on the first access with more sectors than ideal" {
	run --separate-stderr "$GPULAB" view transpose --variant naive --frames 1 --db "$DB"
	assert_success
	assert_line --index 0 "step 2/128"
	assert_output --partial "this request: 32 sectors in 32 lines (ideal 4)"
	# a kernel without such an access opens on step 1
	run --separate-stderr "$GPULAB" view transpose --variant copy --frames 1 --db "$DB"
	assert_line --index 0 "step 1/128"
}

@test "view banks --topic T without --variant picks a variant with shared accesses" {
	run --separate-stderr "$GPULAB" view banks --topic transpose --frames 1 --db "$DB"
	assert_success
	assert_output --partial "banks  transpose coalesced"
	run --separate-stderr "$GPULAB" view banks --topic gemm --size 64 --frames 1 --db "$DB"
	assert_success
	assert_output --partial "banks  gemm smem"
	# smem has no conflicts, so the view opens on its first access: every count is one, and singular
	assert_output --partial "this access: 1 wavefront (ideal 1): no bank conflicts"
	assert_output --partial "so far: 1 instruction, 1 wavefront, 0 conflicts"
}

@test "addresses are hex; shared offsets too" {
	run --separate-stderr "$GPULAB" view transpose --variant naive --frames 1 --db "$DB"
	assert_output --regexp 'addr_base 0x[0-9a-f]+  stride 256 B'
	run --separate-stderr "$GPULAB" view banks --topic transpose --variant coalesced --frames 1 --db "$DB"
	assert_output --regexp 'tile \+0x0 \.\. tile \+0xf80  addr_base 0x0  stride 128'
}

@test "TERM=dumb: a clear refusal that suggests --frames" {
	command -v script >/dev/null || skip "script(1) is not installed"
	run env TERM=dumb script -qec "$GPULAB view banks --topic transpose --db $DB" /dev/null
	assert_output --partial "terminal type 'dumb' cannot move the cursor"
	assert_output --partial "use --frames N"
}

@test "tmux 80x24: banks opens on the conflict; Home, End, ] [ } { jump; Esc quits at once" {
	command -v tmux >/dev/null || skip "tmux is not installed (make deps)"
	"$GPULAB" view banks --topic transpose --variant coalesced --frames 1 --db "$DB" >/dev/null 2>&1
	first=$("$GPULAB" view banks --topic transpose --variant coalesced --frames 1 --db "$DB" 2>/dev/null | sed -n 's|^step \([0-9]*\)/.*|\1|p')
	tm new-session -d -s v -x 80 -y 24 "env -u ESCDELAY PS1='$ ' bash --norc --noprofile"
	wait_for '^\$'
	tm send-keys -t v "$GPULAB view banks --topic transpose --variant coalesced --db $DB" Enter
	wait_for "^step $first/128 +\\[paused\\]"
	run pane
	assert_output --partial "31 bank conflicts"
	tm send-keys -t v End
	wait_for '^step 128/128'
	tm send-keys -t v Home
	wait_for '^step 1/128'
	tm send-keys -t v ']'
	wait_for "^step $first/128"
	tm send-keys -t v ']'
	wait_for "^step $((first + 1))/128"
	tm send-keys -t v '['
	wait_for "^step $first/128"
	tm send-keys -t v '}'
	wait_for '^step [0-9]+/128'
	tm send-keys -t v Home
	wait_for '^step 1/128'
	tm send-keys -t v '{'
	wait_for 'no earlier warp'
	# Esc: back at the prompt well before curses' default one-second ESCDELAY
	tm send-keys -t v Escape
	start=$(date +%s%N)
	for _ in $(seq 50); do
		pane | grep -q '^step ' || break
		sleep 0.02
	done
	elapsed_ms=$((($(date +%s%N) - start) / 1000000))
	run pane
	refute_output --regexp '^step '
	[ "$elapsed_ms" -lt 700 ]
}

# Every view of the view table: NAME|ARGS|a pattern the pane shows at a step with the view's point.
point_cases() {
	cat <<'CASES'
coalesce|coalesce --topic transpose --variant naive --size 64|this request: [0-9]+ sectors in [0-9]+ lines \(ideal
banks|banks --topic transpose --variant coalesced --size 64|: [1-9][0-9]* bank conflicts
gemm|gemm --size 64|K step [2-9]/
mma|mma|recorded: [0-9]+ wavefronts \(ideal [0-9]+\), [1-9][0-9]* conflicts
conv|conv --variant implicit_gemm|lanes re-read pixels of this tile
flash|flash|^[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +0\.[0-9]{4} 
reduce|reduce|warps idle
CASES
}

@test "tmux 120x40: ] goes from step 1 to a step that shows the point, in every view; [ comes back" {
	command -v tmux >/dev/null || skip "tmux is not installed (make deps)"
	# the cases cover the view table (an unknown view's message lists it)
	views=$("$GPULAB" view nosuchview --frames 1 2>&1 | sed -n 's/.*views are \([a-z, ]*\);.*/\1/p' | tr -d ,)
	[ -n "$views" ]
	for v in $views; do
		point_cases | grep -q "^$v|" || { echo "view $v has no case"; return 1; }
	done
	tm new-session -d -s v -x 120 -y 40 "env PS1='$ ' bash --norc --noprofile"
	wait_for '^\$'
	while IFS='|' read -r name args pattern; do
		"$GPULAB" view $args --frames 1 --db "$DB" >/dev/null 2>&1 # record the trace first
		tm send-keys -t v "$GPULAB view $args --step 1 --db $DB" Enter
		wait_for '^step 1/[0-9]+ +\[paused\]'
		tm send-keys -t v ']'
		wait_for '^step ([2-9]|[1-9][0-9]+)/[0-9]+ +\[paused\]' || { echo "view $name: ] did not move"; return 1; }
		pane | grep -Eq -- "$pattern" || { echo "view $name: the step ] found does not show /$pattern/"; pane; return 1; }
		pane | grep -q 'no later' && { echo "view $name"; pane; return 1; }
		tm send-keys -t v '['
		wait_for '^step 1/|no earlier'
		tm send-keys -t v q
		wait_for '^\$ *$'
	done < <(point_cases)
}

@test "tmux: view mma's ] finds the ldmatrix steps with conflicts, from step 1 and from step 35" {
	command -v tmux >/dev/null || skip "tmux is not installed (make deps)"
	"$GPULAB" view mma --frames 1 --db "$DB" >/dev/null 2>&1
	tm new-session -d -s v -x 120 -y 40 "env PS1='$ ' bash --norc --noprofile"
	wait_for '^\$'
	tm send-keys -t v "$GPULAB view mma --db $DB" Enter
	wait_for '^step 1/50 +\[paused\]'
	tm send-keys -t v ']'
	wait_for '^step 33/50'
	wait_for 'recorded: 16 wavefronts \(ideal 4\), 12 conflicts'
	tm send-keys -t v g 3 5 Enter
	wait_for '^step 35/50'
	tm send-keys -t v ']'
	wait_for '^step 36/50'
	# the help box names the point and stays inside its border
	tm send-keys -t v '?'
	wait_for 'next / previous ldmatrix or K step with bank'
	# every row between the box's borders has '|' at the border's two corners
	pane | awk 'match($0, /\+-+\+/) { if (!l) { l = RSTART; r = RSTART + RLENGTH - 1; next } else exit }
		l && (substr($0, l, 1) != "|" || substr($0, r, 1) != "|") { print "outside the box: " $0; bad = 1 }
		END { exit bad || !l }'
	tm send-keys -t v q q
}
