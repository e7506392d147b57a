#!/usr/bin/env bats
# Rows that do not fit can be scrolled: at 80x24 the banks view's frame of a 32-wavefront access (45 rows)
# is taller than the screen; the status row says which rows are shown, PgDn shows the hidden ones, the
# position is kept while stepping, and --frames prints the whole frame.

setup() {
	load test_helper
	common_setup
	load tmux_helper
}

teardown() {
	tmux_teardown
}

@test "--frames prints a banks frame whole: every one of 32 wavefronts, then the legend" {
	run --separate-stderr "$GPULAB" view banks --topic transpose --variant coalesced --frames 1 --db "$DB"
	assert_success
	assert_output --partial "this access: 32 wavefronts (ideal 1): 31 bank conflicts"
	assert_line --regexp '^wf  0  0 \. \.'
	assert_line --regexp '^wf 31  v \. \.'
	refute_output --partial "more wavefronts"
	assert_equal "${lines[-1]}" "lanes/banks 0-9 a-v (a=10, v=31); * lanes sharing a word (broadcast); . idle"
	assert_equal "$(grep -c '' <<<"$output")" 46 # "step K/128" and 45 rows (bats' lines skips the blank ones)
}

@test "tmux 80x24: a banks frame taller than the screen says so; PgDn shows the hidden rows, kept while stepping" {
	command -v tmux >/dev/null || skip "tmux is not installed (make deps)"
	"$GPULAB" view banks --topic transpose --variant coalesced --frames 1 --db "$DB" >/dev/null 2>&1
	tm new-session -d -s v -x 80 -y 24 "env PS1='$ ' bash --norc --noprofile"
	wait_for '^\$'
	tm send-keys -t v "$GPULAB view banks --topic transpose --variant coalesced --db $DB" Enter
	# it opens on the first conflicting access: 32 wavefronts, rows 1-23 of the frame's 45 on screen
	wait_for '^step [0-9]+/128 +\[paused\] 2/s  rows 1-23 of 45, PgDn for more$'
	run pane
	assert_output --partial "31 bank conflicts"
	assert_line --regexp '^wf  0  0 '
	refute_output --regexp 'wf 31'
	refute_output --partial 'lanes/banks 0-9 a-v'
	step=$(pane | sed -n 's|^step \([0-9]*\)/128.*|\1|p')
	tm send-keys -t v NPage
	wait_for 'rows 23-45 of 45, PgUp for more$'
	run pane
	assert_line --regexp '^wf 31  v \. \.'
	assert_output --partial 'lanes/banks 0-9 a-v (a=10, v=31)'
	refute_output --partial 'this access:'
	# the next conflicting access has as many rows: the same part of its frame stays on screen
	tm send-keys -t v ']'
	wait_for "^step $((step + 1))/128 .*rows 23-45 of 45"
	run pane
	assert_line --regexp '^wf 31 ( \.)* v( \.)*$'
	tm send-keys -t v k
	wait_for 'rows 22-44 of 45, PgUp/PgDn for more$'
	tm send-keys -t v PPage
	wait_for 'rows 1-23 of 45, PgDn for more$'
	run pane
	assert_output --partial 'this access: 32 wavefronts'
	# a frame that fits (step 1 is a store: one wavefront) hides nothing and shows the keys again
	tm send-keys -t v Home
	wait_for '^step 1/128 +\[paused\] 2/s  space play'
	tm send-keys -t v NPage
	wait_for 'nothing more below: the frame fits the screen'
	tm send-keys -t v q
	for _ in $(seq 50); do
		pane | grep -q '^step ' || break
		sleep 0.1
	done
	run pane
	refute_output --regexp '^step '
}
