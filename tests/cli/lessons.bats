#!/usr/bin/env bats
# gpulab lesson: every built-in lesson passes `lesson check NAME --run` on a fresh database; progress
# (start, next, prev, status, reset) survives between invocations; the error paths (malformed lessons
# with file:line, unknown names, past the end); and a learner's session in tmux.

teardown() {
	[ -z "${SOCK:-}" ] || tmux -S "$SOCK" kill-server 2>/dev/null || true
}

setup() {
	load test_helper
	common_setup
	unset GPULAB_LESSONS PAGER
	LESSONS_SRC="$BATS_TEST_DIRNAME/../../lessons"
	TINY="$BATS_TEST_TMPDIR/lessons"
	mkdir -p "$TINY"
}

# A two-step lesson that runs in well under a second, for the progress and error tests.
write_tiny() {
	cat >"$TINY/01-tiny.md" <<'EOF'
# Tiny

A lesson for the tests.

## Step 1: Copy

```gpulab
gpulab run transpose --variant copy --size 32
```

check: transpose.copy gst_sectors_per_request == 4

## Step 2: Naive

```gpulab
gpulab run transpose --variant naive --size 32
```

check: transpose.naive gst_sectors_per_request == 32

> **Question:** Why 32?

<details><summary>Answer</summary>

Each lane stores to its own row.

</details>
EOF
}

# bad_lesson BODY: a lesson file 09-bad.md whose steps are BODY.
bad_lesson() {
	printf '# Bad\n\nintro\n\n%s\n' "$1" >"$TINY/09-bad.md"
}

check_lesson() {
	run --separate-stderr "$GPULAB" lesson check "$1" --run --backend sim --db "$DB"
	echo "$output"
	echo "$stderr" >&2
	assert_success
	assert_output --regexp "$1: [0-9]+ steps, [0-9]+ checks: [0-9]+ passed, 0 failed"
	refute_output --partial "FAIL"
}

@test "lesson 01-coalescing passes check --run on a fresh database" {
	check_lesson 01-coalescing
}

@test "lesson 02-bank-conflicts passes check --run on a fresh database" {
	check_lesson 02-bank-conflicts
}

@test "lesson 03-gemm-tiling passes check --run on a fresh database" {
	check_lesson 03-gemm-tiling
}

@test "lesson 04-reductions passes check --run on a fresh database" {
	check_lesson 04-reductions
}

@test "lesson 05-tensor-cores passes check --run on a fresh database" {
	check_lesson 05-tensor-cores
}

@test "lesson 06-flash-attention passes check --run on a fresh database" {
	check_lesson 06-flash-attention
}

@test "lesson 07-convolution passes check --run on a fresh database" {
	check_lesson 07-convolution
}

# The programs of lesson 08, as the learner makes them: app.cu is the lesson's first ```cuda block; app2.cu
# replaces its fill with the second block; app3.cu replaces app2.cu's scale loop line with the third.
build_lesson08_programs() {
	python3 - "$LESSONS_SRC/08-profile-a-program.md" <<'PY'
import re, sys
blocks = re.findall(r"^```cuda\n(.*?)^```$", open(sys.argv[1]).read(), re.S | re.M)
app = blocks[0]
app2 = re.sub(r"__global__ void fill\(.*?\n}\n", lambda m: blocks[1], app, count=1, flags=re.S)
app3 = re.sub(r"^.*v\[t \* per \+ k\] \*= a;\n", lambda m: blocks[2], app2, count=1, flags=re.M)
assert len(blocks) == 3 and app2 != app and app3 != app2
for name, text in (("app.cu", app), ("app2.cu", app2), ("app3.cu", app3)):
    open(name, "w").write(text)
PY
	for a in app app2 app3; do
		"$NVCC" -lineinfo -o "$a" "$a.cu"
	done
}

@test "lesson 08-profile-a-program passes check --run on a fresh database, with the learner's programs" {
	NVCC="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
	[ -x "$NVCC" ] || skip "no nvcc: lesson 08 builds its programs with the CUDA toolkit's nvcc"
	[ -e "$(dirname "$GPULAB")/driver/libcuda.so.1" ] || skip "no driver library (built by 'make build')"
	unset GPULAB_PROFILE GPULAB_GPU GPULAB_DRIVER_LOG LD_LIBRARY_PATH
	export GPULAB_DRIVER_THREADS=2
	cd "$BATS_TEST_TMPDIR"
	build_lesson08_programs
	check_lesson 08-profile-a-program
	assert_output --partial "an illegal memory access was encountered"
	# each step reads the launches of the program it profiles, whatever ran after it
	run -0 "$GPULAB" lesson check 08-profile-a-program --db "$DB"
	assert_output --partial "08-profile-a-program: 6 steps, 10 checks: 10 passed, 0 failed"
	rm app2
	run -1 "$GPULAB" lesson check 08-profile-a-program --db "$DB"
	assert_output --partial "no launch of program.fill profiled from ./app2 yet (run the step's commands)"
	# the compare of step 6, with the run numbers a fresh database gives
	run -0 "$GPULAB" compare --runs 3,4 --db "$DB"
	# a program's launches carry no verdict of gpulab's (the program checks its own outputs): n/a
	assert_output --regexp "r3:scale +n/a +1048576 +1048576"
	assert_output --regexp "r4:scale +n/a +131072 +131072"
}

@test "a command ending in '# exits N' must end with status N: 0 fails the step, a bad N is malformed" {
	export GPULAB_LESSONS="$TINY"
	bad_lesson $'## Step 1: e\n\n```gpulab\ngpulab run transpose --variant copy --size 32 # exits 1\n```'
	run "$GPULAB" lesson check bad --run --backend sim --db "$DB"
	assert_failure 1
	assert_output --partial "\$ gpulab run transpose --variant copy --size 32 --db"
	assert_output --partial "command ended with exit status 0, the step expects 1 ($TINY/09-bad.md:8)"
	bad_lesson $'## Step 1: e\n\n```gpulab\ngpulab run transpose --variant nope # exits 2\n```'
	run "$GPULAB" lesson check bad --run --backend sim --db "$DB"
	assert_failure 2 # a usage error is the lesson's mistake even when expected: the parser refuses it first
	assert_output --partial "09-bad.md:8: "
	bad_lesson $'## Step 1: e\n\n```gpulab\ngpulab list # exits 256\n```'
	run "$GPULAB" lesson check bad --db "$DB"
	assert_failure 2
	assert_output --partial "09-bad.md:8: '# exits N' needs the exit status the command ends with, 1 to 255, at the end of the line (found 'exits 256')"
	bad_lesson $'## Step 1: e\n\n```gpulab\ngpulab list # exits 1 then\n```'
	run "$GPULAB" lesson check bad --db "$DB"
	assert_failure 2
	assert_output --partial "(found 'exits 1 then')"
}

@test "lesson list names every lessons/*.md file, and each is checked above" {
	run "$GPULAB" lesson list --db "$DB"
	assert_success
	for f in "$LESSONS_SRC"/*.md; do
		name="$(basename "$f" .md)"
		assert_output --partial "$name"
		grep -q "check_lesson $name\$" "$BATS_TEST_FILENAME"
	done
	refute_output --partial "MALFORMED"
	[ ! -e "$DB" ] # listing creates no database
}

@test "start, next, prev and status: progress survives between invocations" {
	write_tiny
	export GPULAB_LESSONS="$TINY"
	run "$GPULAB" lesson start tiny --db "$DB"
	assert_success
	assert_output --partial "Step 1 of 2: Copy"
	assert_output --partial "A lesson for the tests."
	assert_output --partial '$ gpulab run transpose --variant copy --size 32'
	refute_output --partial "verified" # no terminal and no --run: nothing ran
	run "$GPULAB" lesson next --run --backend sim --db "$DB"
	assert_success
	assert_output --partial "Step 2 of 2: Naive"
	assert_output --partial "naive        yes"
	assert_output --partial "PASS  transpose.naive gst_sectors_per_request == 32   (32 == 32)"
	refute_output --partial "Each lane stores to its own row"
	run "$GPULAB" lesson status --db "$DB"
	assert_success
	assert_output --partial "current: 01-tiny, step 2 of 2: Naive"
	assert_output --regexp "01-tiny +\* +2 +2 +2 +1 +0"
	run "$GPULAB" lesson show --answer --db "$DB"
	assert_output --partial "Each lane stores to its own row"
	run "$GPULAB" lesson prev --db "$DB"
	assert_success
	assert_output --partial "Step 1 of 2: Copy"
	run "$GPULAB" lesson check --db "$DB" # step 1's check: nothing ran it yet
	assert_failure 1
	assert_output --partial "no launch of transpose.copy recorded yet"
	run "$GPULAB" lesson check --run --backend sim --db "$DB"
	assert_success
	assert_output --partial "PASS  transpose.copy gst_sectors_per_request == 4"
	run "$GPULAB" query "select lesson, step, status from lesson_progress order by step" --csv --db "$DB"
	assert_output --partial "01-tiny,0,current 1"
	assert_output --partial "01-tiny,1,passed"
	assert_output --partial "01-tiny,2,passed"
}

@test "next past the last step, prev before the first" {
	write_tiny
	export GPULAB_LESSONS="$TINY"
	"$GPULAB" lesson start 01-tiny --db "$DB" >/dev/null
	run "$GPULAB" lesson prev --db "$DB"
	assert_failure 2
	assert_output --partial "step 1 is the first step of 01-tiny"
	"$GPULAB" lesson next --db "$DB" >/dev/null
	run "$GPULAB" lesson next --db "$DB"
	assert_success
	assert_output --partial "You have finished 01-tiny: all 2 steps."
	assert_output --partial "That was the last lesson"
	run "$GPULAB" lesson status --db "$DB"
	assert_output --partial "step 2 of 2"
}

@test "next points at the following lesson at the end of one" {
	write_tiny
	cp "$TINY/01-tiny.md" "$TINY/02-more.md"
	export GPULAB_LESSONS="$TINY"
	"$GPULAB" lesson start 1 --db "$DB" >/dev/null
	"$GPULAB" lesson next --db "$DB" >/dev/null
	run "$GPULAB" lesson next --db "$DB"
	assert_success
	assert_output --partial "You have finished 01-tiny: all 2 steps."
	assert_output --partial "Next lesson: 02-more ('gpulab lesson start 02-more')."
}

@test "lesson check 01-coalescing --run, then lesson check: both pass, in any order of re-runs" {
	run "$GPULAB" lesson check 01-coalescing --run --backend sim --db "$DB"
	assert_success
	run "$GPULAB" lesson check 01-coalescing --db "$DB"
	assert_success
	assert_output --partial "01-coalescing: 8 steps, 14 checks: 14 passed, 0 failed"
	# step 4 re-run last: step 3 still reads its own stride-2 launch, and says the latest used stride 8
	assert_output --regexp 'note: the latest launch of gmem_patterns.stride \([0-9]+\) used \{"n":4096,"offset":1,"stride":8\}; this check reads launch [0-9]+, made with \{"n":4096,"offset":1,"stride":2\} as the step asks'
	# a learner's own run at another size does not change what the steps read
	"$GPULAB" run transpose --variant copy,naive,coalesced --size 64 --backend sim --db "$DB" >/dev/null 2>&1
	run "$GPULAB" lesson check 01-coalescing --db "$DB"
	assert_success
	assert_output --partial "14 passed, 0 failed"
	assert_output --partial 'the latest launch of transpose.copy'
}

@test "a check whose step's launch is missing says what the latest launch used" {
	write_tiny
	export GPULAB_LESSONS="$TINY"
	"$GPULAB" run transpose --variant copy --size 64 --backend sim --db "$DB" >/dev/null 2>&1
	run "$GPULAB" lesson check 01-tiny --db "$DB"
	assert_failure 1
	assert_output --regexp 'no launch of transpose.copy with the step.s parameters \{"rows":32,"cols":32\}; the latest \(launch [0-9]+\) used \{"rows":64,"cols":64\}'
}

@test "lesson text is reflowed to COLUMNS, never breaking a word" {
	export GPULAB_LESSONS="$TINY"
	printf '# Wrap\n\nOne paragraph written\nover three short source lines\nthat a terminal joins — and wraps.\n\n## Step 1: s\n\nBody.\n' >"$TINY/01-wrap.md"
	run env COLUMNS=200 "$GPULAB" lesson start 01-wrap --no-run --db "$DB"
	assert_line "One paragraph written over three short source lines that a terminal joins — and wraps."
	run env COLUMNS=20 "$GPULAB" lesson start 01-wrap --no-run --db "$DB"
	assert_line "One paragraph"
	assert_line "written over three"
	assert_line "short source lines"
	assert_line "that a terminal"
	assert_line "joins — and wraps."
	# unknown width: 80
	run env -u COLUMNS "$GPULAB" lesson start 01-wrap --no-run --db "$DB"
	assert_line "One paragraph written over three short source lines that a terminal joins — and"
}

@test "list items and answers are reflowed too: a list item under its marker, an answer under its indent" {
	export GPULAB_LESSONS="$TINY"
	printf '# Lists\n\nIntro:\n\n- the first item is written\n  over two source lines\n- second\n  1. a nested numbered item that wraps\n\nAfter.\n\n## Step 1: s\n\n> **Question:** q?\n\n<details><summary>Answer</summary>\n\nThe answer is written\nover two source lines.\n\n- a listed answer item that wraps\n\n</details>\n' >"$TINY/01-lists.md"
	run env COLUMNS=30 "$GPULAB" lesson start 01-lists --no-run --db "$DB"
	assert_line "- the first item is written"
	assert_line "  over two source lines"
	assert_line "- second"
	assert_line "  1. a nested numbered item"
	assert_line "     that wraps"
	assert_line "After."
	run env COLUMNS=30 "$GPULAB" lesson show 1 --answer --db "$DB"
	assert_line "  The answer is written over"
	assert_line "  two source lines."
	assert_line "  - a listed answer item that"
	assert_line "    wraps"
}

@test "every built-in lesson at COLUMNS=80: no prose, list or answer line wider than 80 columns" {
	for l in $("$GPULAB" lesson list --db "$DB" | sed -n 's/^ *\(0[0-9]-[a-z-]*\).*/\1/p'); do
		"$GPULAB" lesson start "$l" --no-run --db "$DB" >/dev/null
		for s in $(seq 1 12); do
			COLUMNS=80 "$GPULAB" lesson show "$s" --answer --db "$DB" 2>/dev/null || true
		done
	done >"$BATS_TEST_TMPDIR/all.txt"
	[ "$(grep -c '^Step ' "$BATS_TEST_TMPDIR/all.txt")" -gt 50 ]
	# headings, checks, commands and tables keep their lines; everything else fits
	run python3 -c 'import sys
for l in open(sys.argv[1], encoding="utf-8"):
    l = l.rstrip("\n")
    if len(l) > 80 and not l.lstrip().startswith(("check:", "$ ", "|", "Step ", "---")):
        print(len(l), l)' "$BATS_TEST_TMPDIR/all.txt"
	assert_output ""
}

@test "reset clears the progress of the current lesson" {
	write_tiny
	export GPULAB_LESSONS="$TINY"
	"$GPULAB" lesson start 01-tiny --db "$DB" >/dev/null
	"$GPULAB" lesson next --run --backend sim --db "$DB" >/dev/null
	run "$GPULAB" lesson reset --db "$DB"
	assert_success
	assert_output --partial "01-tiny: progress cleared"
	run "$GPULAB" lesson status --db "$DB"
	assert_output --partial "no lesson started"
	assert_output --regexp "01-tiny +2 +- +0 +0 +0"
	run "$GPULAB" query "select count(*) as n from lesson_progress" --csv --db "$DB"
	assert_output --partial $'n\n0'
	run "$GPULAB" lesson next --db "$DB"
	assert_failure 2
	assert_output --partial "no lesson started"
	run "$GPULAB" lesson reset --db "$DB"
	assert_failure 2
	run "$GPULAB" lesson reset 01-tiny --db "$DB"
	assert_success
}

@test "unknown lesson names get a suggestion" {
	run "$GPULAB" lesson start coalesing --db "$DB"
	assert_failure 2
	assert_output --partial "unknown lesson 'coalesing' (did you mean '01-coalescing'?)"
	run "$GPULAB" lesson check zzzzzzzzzz --db "$DB"
	assert_failure 2
	assert_output --partial "unknown lesson 'zzzzzzzzzz' (lessons: 01-coalescing"
	run "$GPULAB" lesson strat 1 --db "$DB"
	assert_failure 2
	assert_output --partial "unknown lesson command 'strat' (did you mean 'start'?)"
	run "$GPULAB" lesson start --db "$DB"
	assert_failure 2
	assert_output --partial "lesson start needs a lesson NAME"
}

@test "malformed lessons: file:line for each kind of mistake, exit 2" {
	export GPULAB_LESSONS="$TINY"
	bad_lesson $'## Step 1: ok\n\ncheck: transpose.naive gst_sectors_per_request = 32'
	run "$GPULAB" lesson check bad --run --db "$DB"
	assert_failure 2
	assert_output --partial "$TINY/09-bad.md:7: check: expected a comparison (== != < <= > >=), found '='"
	bad_lesson $'## Step 1:\ntext'
	run "$GPULAB" lesson check bad --db "$DB"
	assert_failure 2
	assert_output --partial "09-bad.md:5: step 1 has no title"
	bad_lesson $'## Step 1: fence\n\n```gpulab\ngpulab list\n'
	run "$GPULAB" lesson check bad --db "$DB"
	assert_failure 2
	assert_output --partial "09-bad.md:7: unterminated \`\`\` fence"
	bad_lesson $'## Step 1: v\ncheck: transpose.paded sld_conflicts == 0'
	run "$GPULAB" lesson check bad --db "$DB"
	assert_failure 2
	assert_output --partial "09-bad.md:6: check: unknown variant 'transpose.paded' (did you mean 'padded'?)"
	bad_lesson $'## Step 1: t\ncheck: trnspose.padded sld_conflicts == 0'
	run "$GPULAB" lesson check bad --db "$DB"
	assert_output --partial "09-bad.md:6: check: unknown topic 'trnspose' (did you mean 'transpose'?)"
	bad_lesson $'## Step 1: m\ncheck: transpose.padded sld_conflict == 0'
	run "$GPULAB" lesson check bad --db "$DB"
	assert_output --partial "09-bad.md:6: check: unknown metric 'sld_conflict' (did you mean 'sld_conflicts'?)"
	bad_lesson $'## Step 1: c\n```gpulab\ngpulab run transpose --variant naiv\n```'
	run "$GPULAB" lesson start bad --db "$DB"
	assert_failure 2
	assert_output --partial "09-bad.md:7: unknown variant 'naiv' for topic transpose (did you mean 'naive'?)"
	# list still works and says which file is broken
	run "$GPULAB" lesson list --db "$DB"
	assert_success
	assert_output --partial "09-bad"
	assert_output --partial "MALFORMED: $TINY/09-bad.md:7:"
}

@test "a lesson command refused as a usage error makes the lesson malformed (exit 2)" {
	export GPULAB_LESSONS="$TINY"
	bad_lesson $'## Step 1: size\n```gpulab\ngpulab run transpose --variant copy --size 0\n```'
	run "$GPULAB" lesson check bad --run --backend sim --db "$DB"
	assert_failure 2
	assert_output --partial "command failed with exit status 2"
	assert_output --partial "09-bad.md:7: 'gpulab run transpose --variant copy --size 0' was refused as a usage error"
}

@test "a failing check: FAIL with both values, exit 1" {
	export GPULAB_LESSONS="$TINY"
	bad_lesson $'## Step 1: wrong\n```gpulab\ngpulab run transpose --variant naive --size 32\n```\ncheck: transpose.naive gst_sectors_per_request < 8'
	run "$GPULAB" lesson check bad --run --backend sim --db "$DB"
	assert_failure 1
	assert_output --partial "FAIL  transpose.naive gst_sectors_per_request < 8   (32 < 8)"
	assert_output --partial "got 32, expected < 8"
	assert_output --partial "09-bad: 1 step, 1 check: 0 passed, 1 failed"
}

@test "GPULAB_LESSONS pointing at a missing directory" {
	export GPULAB_LESSONS="$BATS_TEST_TMPDIR/none"
	run "$GPULAB" lesson list --db "$DB"
	assert_failure 2
	assert_output --partial "GPULAB_LESSONS=$BATS_TEST_TMPDIR/none: cannot open the directory"
}

@test "views in a lesson print frames when there is no terminal" {
	export GPULAB_LESSONS="$TINY"
	bad_lesson $'## Step 1: look\n```gpulab\ngpulab view smem_patterns --variant stride2 --size 4\n```\ncheck: smem_patterns.stride2 sld_wavefronts_per_instruction == 2'
	run "$GPULAB" lesson check bad --run --db "$DB"
	assert_success
	assert_output --partial "gpulab view smem_patterns --variant stride2 --size 4 --db $DB --frames 3"
	assert_output --partial "PASS  smem_patterns.stride2 sld_wavefronts_per_instruction == 2"
}

# ---- a learner's session in a real terminal

tmux_send() {
	tmux -S "$SOCK" send-keys -t lesson "$@"
}

# wait_screen TEXT: until the pane shows TEXT (10 s at most)
wait_screen() {
	for _ in $(seq 100); do
		tmux -S "$SOCK" capture-pane -p -t lesson -S -300 | grep -qF -- "$1" && return 0
		sleep 0.1
	done
	echo "timed out waiting for: $1" >&2
	tmux -S "$SOCK" capture-pane -p -t lesson -S -300 >&2
	return 1
}

@test "in tmux: start, next shows the step and runs its commands; progress survives; reset clears it" {
	command -v tmux >/dev/null || skip "tmux is not installed"
	SOCK="$BATS_TEST_TMPDIR/tmux.sock"
	tmux -S "$SOCK" new-session -d -s lesson -x 160 -y 60 \
		"env PAGER=cat HOME=$HOME NO_COLOR=1 PS1='ready> ' bash --norc --noprofile"
	wait_screen "ready>"
	tmux_send "$GPULAB lesson start 01-coalescing --backend sim --db $DB" Enter
	wait_screen "Step 1 of 8: A copy kernel, the baseline"
	wait_screen "Run this command now? [Y/n]"
	tmux_send "n" Enter
	tmux_send "clear" Enter
	tmux_send "$GPULAB lesson next --backend sim --db $DB" Enter
	wait_screen "Step 2 of 8: One float out of line"
	wait_screen "Run these 2 commands now? [Y/n]"
	tmux_send Enter
	wait_screen "PASS  gmem_patterns.offset gld_sectors_per_request == 5   (5 == 5)"
	wait_screen "offset       yes           5.00"
	# a new invocation knows where the learner is
	tmux_send "clear" Enter
	tmux_send "$GPULAB lesson status --db $DB" Enter
	wait_screen "current: 01-coalescing, step 2 of 8: One float out of line"
	tmux_send "$GPULAB lesson reset --db $DB" Enter
	wait_screen "01-coalescing: progress cleared"
	tmux_send "clear" Enter
	tmux_send "$GPULAB lesson status --db $DB" Enter
	wait_screen "no lesson started"
	tmux -S "$SOCK" kill-server
}

@test "in tmux: a step's view opens full screen, q returns to the lesson and its checks run" {
	command -v tmux >/dev/null || skip "tmux is not installed"
	bad_lesson $'## Step 1: look\n```gpulab\ngpulab view smem_patterns --variant stride4 --size 4\n```\ncheck: smem_patterns.stride4 sld_wavefronts_per_instruction == 4'
	SOCK="$BATS_TEST_TMPDIR/tmux.sock"
	tmux -S "$SOCK" new-session -d -s lesson -x 120 -y 40 \
		"env PAGER=cat HOME=$HOME NO_COLOR=1 GPULAB_LESSONS=$TINY PS1='ready> ' bash --norc --noprofile"
	wait_screen "ready>"
	tmux_send "$GPULAB lesson start bad --run --db $DB" Enter
	wait_screen "space play"
	wait_screen "banks  smem_patterns stride4"
	tmux_send q
	wait_screen "PASS  smem_patterns.stride4 sld_wavefronts_per_instruction == 4"
	tmux -S "$SOCK" kill-server
}

@test "in tmux: a long page goes through less -R when PAGER is unset; one that fits is printed" {
	command -v tmux >/dev/null || skip "tmux is not installed"
	command -v less >/dev/null || skip "less is not installed"
	write_tiny
	SOCK="$BATS_TEST_TMPDIR/tmux.sock"
	tmux -S "$SOCK" new-session -d -s lesson -x 80 -y 24 \
		"env -u PAGER -u LESS -u COLUMNS HOME=$HOME NO_COLOR=1 PS1='ready> ' bash --norc --noprofile"
	wait_screen "ready>"
	tmux_send "clear; $GPULAB lesson start 01-coalescing --no-run --db $DB" Enter
	wait_screen "Coalescing: how a warp reads global memory"
	sleep 0.3
	# less holds the page: its ':' prompt on the last line, the text wrapped to 80 columns
	[ "$(tmux -S "$SOCK" capture-pane -p -t lesson | sed -n 24p)" = ":" ]
	tmux -S "$SOCK" capture-pane -p -t lesson |
		python3 -c 'import sys; sys.exit(max(len(l.rstrip("\n")) for l in sys.stdin.buffer.read().decode().splitlines(True)) > 80)'
	tmux_send q
	wait_screen "ready>"
	# a page that fits the screen is printed, and less quits by itself (LESS=FRX, as git sets it)
	tmux_send "clear; GPULAB_LESSONS=$TINY $GPULAB lesson start 01-tiny --no-run --db $DB; echo rc=\$?" Enter
	wait_screen "rc=0"
	tmux -S "$SOCK" kill-server
}
