#!/usr/bin/env bats
# gpulab exercise: every built-in exercise's solution passes; its starter fails saying nothing was
# written; a slow but correct fixture passes correctness and misses a goal with the measured figure;
# list, start, hint, solution and progress; the error paths (nvcc errors on the learner's lines, wrong
# signatures, an endless loop, sanitizer findings with the CUDA line); a learner's round trip in tmux.

setup() {
	load test_helper
	common_setup
	unset GPULAB_EXERCISES
	EX="$BATS_TEST_DIRNAME/../../exercises"
	FIX="$BATS_TEST_DIRNAME/../fixtures/exercises"
	WORK="$BATS_TEST_TMPDIR/work"
	mkdir -p "$WORK"
}

# exercise_round NAME GOAL-LINE: the solution passes, the starter fails (nothing written), the slow
# fixture is correct at every size and misses the goal with GOAL-LINE ("FAIL  goal  ... (measured X, ...)").
exercise_round() {
	local name=$1 goal=$2
	run "$GPULAB" exercise check "$name" "$EX/$name.cu" --db "$DB"
	echo "$output"
	assert_success
	assert_output --partial "PASSED: correct at every size and every goal met"
	refute_output --partial "FAIL"

	run "$GPULAB" exercise start "$name" --dir "$WORK" --db "$DB"
	assert_success
	run "$GPULAB" exercise check "$name" "$WORK/$name.cu" --db "$DB"
	echo "$output"
	assert_failure 1
	assert_output --partial "wrong result"
	assert_output --regexp "first wrong element: [A-Za-z]+\[0\].*: expected [-0-9.e]+, got 0"
	assert_output --partial "holds only zeros: the kernel wrote nothing to it"

	run "$GPULAB" exercise check "$name" "$FIX/$name-slow.cu" --db "$DB"
	echo "$output"
	assert_failure 1
	refute_output --partial "wrong result"
	refute_output --partial "sanitizer errors"
	assert_output --partial "matches the reference"
	assert_output --partial "$goal"
	assert_output --partial "correct, but not efficient enough yet"
}

@test "01-map: solution, starter, uncoalesced fixture (32 sectors per request)" {
	exercise_round 01-map "FAIL  goal  exercise.map gld_sectors_per_request <= 4   (measured 32, goal <= 4)"
	assert_output --regexp "why: [^ ]*gpulab view coalesce --run [0-9]+"
}

@test "02-zip: solution, starter, strided fixture (16 sectors per request)" {
	exercise_round 02-zip "FAIL  goal  exercise.zip gst_sectors_per_request <= 4   (measured 16, goal <= 4)"
}

@test "03-strided-copy: solution, starter, column-order fixture" {
	exercise_round 03-strided-copy "FAIL  goal  exercise.strided_copy gld_sectors_per_request <= 4   (measured 32, goal <= 4)"
}

@test "04-transpose-tiled: solution, starter, the naive transpose (stores 32 sectors per request)" {
	exercise_round 04-transpose-tiled "FAIL  goal  exercise.transpose_tiled gst_sectors_per_request == 4   (measured 32, goal == 4)"
	assert_output --partial "ok    goal  exercise.transpose_tiled gld_sectors_per_request == 4   (measured 4, goal == 4)"
}

@test "05-transpose-padded: solution, starter, the unpadded tile (bank conflicts)" {
	exercise_round 05-transpose-padded "(measured 63488, goal == 0)"
	assert_output --regexp "why: [^ ]*gpulab view banks --run [0-9]+"
}

@test "06-reduce-block: solution, starter, the tree down to one lane (divergent last warp)" {
	exercise_round 06-reduce-block "FAIL  goal  exercise.reduce_block simt_efficiency >= 0.95   (measured 0.938272, goal >= 0.95)"
	assert_output --partial "ok    goal  exercise.reduce_block sld_conflicts + exercise.reduce_block sst_conflicts == 0"
}

@test "07-reduce-shuffle: solution, starter, a shared-memory tree" {
	exercise_round 07-reduce-shuffle "(measured 11520, goal == 0)"
}

@test "08-scan: solution, starter, a serial scan by one thread" {
	exercise_round 08-scan "FAIL  goal  exercise.scan smsp__inst_executed.sum <= 150000   (measured 445440, goal <= 150000)"
}

@test "09-histogram: solution, starter, one global atomic per element" {
	exercise_round 09-histogram "(measured 2048, goal <= 512)"
}

@test "10-sgemm-tiled: solution, starter, the naive SGEMM" {
	exercise_round 10-sgemm-tiled "FAIL  goal  exercise.sgemm_tiled l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum <= 40000   (measured 262144, goal <= 40000)"
}

@test "11-sgemm-regtile: solution, starter, operands re-read from shared memory" {
	exercise_round 11-sgemm-regtile "(measured 0.5, goal >= 2)"
}

@test "12-mma-tile: solution (128 HMMA), starter, fp32 FMAs instead of mma.sync" {
	exercise_round 12-mma-tile "FAIL  goal  exercise.mma_tile sm__inst_executed_pipe_tensor_op_hmma.sum == 128   (measured 0, goal == 128)"
	run "$GPULAB" exercise check 12-mma-tile "$EX/12-mma-tile.cu" --db "$DB"
	assert_output --partial "ok    goal  exercise.mma_tile sm__inst_executed_pipe_tensor_op_hmma.sum == 128   (measured 128, goal == 128)"
}

@test "13-softmax-online: solution, starter, three passes over the row" {
	exercise_round 13-softmax-online "(measured 24576, goal <= 16384)"
}

@test "14-attention-causal: solution, starter, every key visited and masked" {
	exercise_round 14-attention-causal "(measured 131584, goal <= 70000)"
	assert_output --partial "FAIL  goal  exercise.attention_causal smsp__inst_executed.sum <= 400000   (measured 585280, goal <= 400000)"
}

# ---- list, start, hint, solution, progress

@test "list: every exercise with its goals; --json; progress after a check" {
	run "$GPULAB" exercise list --db "$DB"
	assert_success
	assert_output --partial "04-transpose-tiled       -        2      Transpose through a shared tile"
	assert_output --partial "14-attention-causal"
	[ ! -e "$DB" ] # listing creates no database
	run "$GPULAB" exercise list --json --db "$DB"
	assert_success
	[ "$(jq length <<<"$output")" -ge 12 ]
	[ "$(jq -r '.[0].signature' <<<"$output")" = 'extern "C" __global__ void map_square(const float *x, float *y, int n)' ]
	[ "$(jq -r '.[3].goals[1]' <<<"$output")" = "exercise.transpose_tiled gst_sectors_per_request == 4" ]
	[ "$(jq -r '.[0].status' <<<"$output")" = "null" ]
	"$GPULAB" exercise check 1 "$EX/01-map.cu" --db "$DB" >/dev/null
	run "$GPULAB" exercise list --json --db "$DB"
	[ "$(jq -r '.[0].status, .[0].passed, .[0].checks' <<<"$output" | tr '\n' ' ')" = "passed true 1 " ]
	run "$GPULAB" exercise list --db "$DB"
	assert_output --partial "01-map                   passed   2"
}

@test "start: writes the starter with the signature, never overwrites, refuses a missing --dir" {
	cd "$WORK"
	run "$GPULAB" exercise start transpose-tiled --db "$DB"
	assert_success
	assert_output --partial "wrote ./04-transpose-tiled.cu"
	grep -qF 'extern "C" __global__ void transpose_tiled(const float *in, float *out, int rows, int cols)' 04-transpose-tiled.cu
	grep -qF '// Launch: grid (cdiv(cols, 32), cdiv(rows, 32), 1), block (32, 8, 1).' 04-transpose-tiled.cu
	grep -qF '// Checked at: rows=64 cols=64; rows=33 cols=47;' 04-transpose-tiled.cu
	grep -qF '//   exercise.transpose_tiled gst_sectors_per_request == 4' 04-transpose-tiled.cu
	echo "// my work" >>04-transpose-tiled.cu
	local before
	before=$(sha256sum 04-transpose-tiled.cu)
	run "$GPULAB" exercise start 4 --db "$DB"
	assert_failure 2
	assert_output --partial "'./04-transpose-tiled.cu' exists and is never overwritten"
	[ "$(sha256sum 04-transpose-tiled.cu)" = "$before" ]
	run "$GPULAB" exercise start 4 --dir "$WORK/nowhere" --db "$DB"
	assert_failure 2
	assert_output --partial "--dir '$WORK/nowhere' is not a directory"
	run "$GPULAB" exercise start transpose-tilde --db "$DB"
	assert_failure 2
	assert_output --partial "unknown exercise 'transpose-tilde' (did you mean '04-transpose-tiled'?)"
	# the default FILE of check is NAME.cu in the current directory
	run "$GPULAB" exercise check 4 --db "$DB"
	assert_failure 1
	assert_output --partial "checking 04-transpose-tiled.cu"
}

@test "hint: the first by default, the next named, out of range refused" {
	run "$GPULAB" exercise hint 4
	assert_success
	assert_output --partial "hint 1 of 3 for 04-transpose-tiled:"
	assert_output --partial "(next: gpulab exercise hint 04-transpose-tiled 2)"
	run "$GPULAB" exercise hint 4 3
	assert_success
	assert_output --partial "hint 3 of 3"
	refute_output --partial "next:"
	run "$GPULAB" exercise hint 4 9
	assert_failure 2
	assert_output --partial "04-transpose-tiled has 3 hints; ask for 1 to 3"
	run "$GPULAB" exercise hint 4 two
	assert_failure 2
}

@test "solution: refused before a passing check, shown with --give-up and after passing" {
	run "$GPULAB" exercise solution 2 --db "$DB"
	assert_failure 2
	assert_output --partial "the solution of 02-zip opens after a passing 'gpulab exercise check 02-zip' (or with --give-up)"
	run "$GPULAB" exercise solution 2 --give-up --db "$DB"
	assert_success
	assert_output --partial 'extern "C" __global__ void zip_saxpy('
	run "$GPULAB" exercise check 2 "$FIX/02-zip-slow.cu" --db "$DB"
	assert_failure 1
	run "$GPULAB" exercise solution 2 --db "$DB"
	assert_failure 2 # correct but slow is not passing
	"$GPULAB" exercise check 2 "$EX/02-zip.cu" --db "$DB" >/dev/null
	run "$GPULAB" exercise solution 2 --db "$DB"
	assert_success
	[ "$output" = "$(cat "$EX/02-zip.cu")" ]
}

@test "a missed goal points at a stored run the view opens" {
	run "$GPULAB" exercise check 4 "$FIX/04-transpose-tiled-slow.cu" --db "$DB"
	assert_failure 1
	local runid
	runid=$(sed -n 's/.*why: [^ ]*gpulab view coalesce --run \([0-9]*\).*/\1/p' <<<"$output" | head -1)
	[ -n "$runid" ]
	run "$GPULAB" view coalesce --run "$runid" --frames 1 --db "$DB"
	assert_success
	assert_output --partial "exercise transpose_tiled"
	assert_output --partial "stored trace: run $runid"
	run "$GPULAB" query "SELECT topic, variant, gst_sectors_per_request FROM launch_summary WHERE run_id = $runid" --csv --db "$DB"
	assert_output --partial "exercise,transpose_tiled,32"
}

# ---- bad input

@test "a file that does not compile: nvcc's message on the learner's line, exit 2" {
	run "$GPULAB" exercise check 1 "$FIX/bad/broken.cu" --db "$DB"
	assert_failure 2
	assert_output --partial "broken.cu(5): error: expected a \";\""
	assert_output --partial "nvcc could not compile"
}

@test "a wrong signature names the expected one, exit 2" {
	run "$GPULAB" exercise check 1 "$FIX/bad/wrongsig.cu" --db "$DB"
	assert_failure 2
	assert_output --partial "kernel 'map_square' takes 2 parameters, not 3; the exercise expects:"
	assert_output --partial 'extern "C" __global__ void map_square(const float *x, float *y, int n)'
	run "$GPULAB" exercise check 1 "$FIX/bad/cxxname.cu" --db "$DB"
	assert_failure 2
	assert_output --partial "has no kernel named 'map_square' (kernels found: _Z10map_squarePKfPfi): that is a C++ name for it; declare the kernel extern \"C\""
	run "$GPULAB" exercise check 4 "$EX/01-map.cu" --db "$DB"
	assert_failure 2
	assert_output --partial "has no kernel named 'transpose_tiled' (kernels found: map_square)"
	run "$GPULAB" exercise check 1 "$WORK/missing.cu" --db "$DB"
	assert_failure 2
	assert_output --partial "cannot read '$WORK/missing.cu'"
}

@test "an endless loop is stopped by the budget with a clear message, exit 1" {
	run "$GPULAB" exercise check 1 "$FIX/bad/loop.cu" --max-instructions 200000 --db "$DB"
	assert_failure 1
	assert_output --partial "FAIL  n=1000                   the kernel was stopped"
	assert_output --partial "it ran past the budget of warp instructions per CTA: an endless loop?"
	assert_output --partial "instruction budget exhausted at $FIX/bad/loop.cu:5"
	assert_output --partial "(4 more sizes not run until this one passes)"
}

@test "the sanitizer's finding names the CUDA line; a wrong element names its row and column" {
	run "$GPULAB" exercise check 1 "$FIX/bad/noguard.cu" --db "$DB"
	assert_failure 1
	assert_output --partial "FAIL  n=1000                   sanitizer errors"
	assert_output --partial "Invalid __global__ read of size 4 bytes at $FIX/bad/noguard.cu:5"
	assert_output --partial "0 bytes after the end of buffer 'x'"
	run "$GPULAB" exercise check 4 "$FIX/bad/wrong-transpose.cu" --db "$DB"
	assert_failure 1
	assert_output --regexp "first wrong element: out\[1\] \[row 0, col 1 of 64 x 64\]: expected 0.00424262416, got 0.342274517"
	assert_output --partial "4032 elements outside the tolerance"
}

@test "usage errors: unknown command, options that belong elsewhere, --json outside list" {
	run "$GPULAB" exercise chek 1
	assert_failure 2
	assert_output --partial "unknown exercise command 'chek' (did you mean 'check'?)"
	run "$GPULAB" exercise
	assert_failure 2
	run "$GPULAB" exercise check
	assert_failure 2
	assert_output --partial "usage: gpulab exercise check NAME [FILE]"
	run "$GPULAB" exercise hint 1 2 3
	assert_failure 2
	run "$GPULAB" exercise check 1 --dir /tmp
	assert_failure 2
	assert_output --partial "--dir goes with 'exercise start'"
	run "$GPULAB" exercise hint 1 --give-up
	assert_failure 2
	run "$GPULAB" exercise check 1 --json
	assert_failure 2
	assert_output --partial "only 'exercise list' has --json"
}

@test "GPULAB_EXERCISES: a malformed exercise is refused with file:line" {
	mkdir -p "$WORK/ex"
	printf -- '---\ntitle: T\ncolour: blue\n---\n' >"$WORK/ex/01-odd.md"
	GPULAB_EXERCISES="$WORK/ex" run "$GPULAB" exercise list
	assert_failure 2
	assert_output --partial "$WORK/ex/01-odd.md:3: unknown key 'colour'"
	sed "s/exercise\.map /exercise.odd /" "$EX/01-map.md" >"$WORK/ex/01-odd.md" # goals name the exercise
	GPULAB_EXERCISES="$WORK/ex" run "$GPULAB" exercise list
	assert_success
	assert_output --partial "01-odd"
	GPULAB_EXERCISES="$WORK/ex" run "$GPULAB" exercise solution 1 --give-up
	assert_failure 2
	assert_output --partial "01-odd has no solution file"
}

# ---- a learner's round trip in a real terminal

tmux_send() {
	tmux -S "$SOCK" send-keys -t ex "$@"
}

# wait_screen TEXT: until the pane shows TEXT (60 s at most: nvcc runs)
wait_screen() {
	for _ in $(seq 600); do
		tmux -S "$SOCK" capture-pane -p -t ex -S -300 | grep -qF -- "$1" && return 0
		sleep 0.1
	done
	echo "timed out waiting for: $1" >&2
	tmux -S "$SOCK" capture-pane -p -t ex -S -300 >&2
	return 1
}

@test "in tmux: start, edit with a fixture, check, hint, check again" {
	command -v tmux >/dev/null || skip "tmux is not installed"
	SOCK="$BATS_TEST_TMPDIR/tmux.sock"
	tmux -S "$SOCK" new-session -d -s ex -x 200 -y 60 -c "$WORK" \
		"env HOME=$HOME NO_COLOR=1 PS1='ready> ' bash --norc --noprofile"
	wait_screen "ready>"
	tmux_send "$GPULAB exercise start 4 --db $DB" Enter
	wait_screen "wrote ./04-transpose-tiled.cu"
	# the learner writes the naive transpose: correct, but its stores are uncoalesced
	tmux_send "clear; cp $FIX/04-transpose-tiled-slow.cu 04-transpose-tiled.cu; $GPULAB exercise check 4 --db $DB; echo status=\$?" Enter
	wait_screen "FAIL  goal  exercise.transpose_tiled gst_sectors_per_request == 4   (measured 32, goal == 4)"
	wait_screen "status=1"
	tmux_send "clear; $GPULAB exercise hint 4 2" Enter
	wait_screen "hint 2 of 3 for 04-transpose-tiled:"
	# then the tiled version
	tmux_send "clear; cp $EX/04-transpose-tiled.cu 04-transpose-tiled.cu; $GPULAB exercise check 4 --db $DB; echo status=\$?" Enter
	wait_screen "PASSED: correct at every size and every goal met"
	wait_screen "status=0"
	tmux_send "clear; $GPULAB exercise list --db $DB" Enter
	wait_screen "04-transpose-tiled       passed"
	tmux -S "$SOCK" kill-server
}
