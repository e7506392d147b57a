#!/usr/bin/env bats
# The habits of terminal tools, as rules of the one option parser (cli/options.c) and the command table:
# every command answers -h, global options come before the command, formats a command cannot print are
# refused, colour follows --color and NO_COLOR, notes stop with --quiet.

load test_helper

setup() { common_setup; }

# every command of `gpulab --help`
commands() { "$GPULAB" --help | sed -n '/^commands:/,/^$/p' | awk '/^  [^ ]/ && $1 != "help" && $1 != "version" {print $1}'; }

@test "-h, --help and 'help CMD' show every command's help" {
	for c in $(commands); do
		run "$GPULAB" "$c" -h
		assert_success
		assert_line --index 0 --partial "usage: gpulab $c"
		[ "$("$GPULAB" help "$c")" = "$output" ]
		[ "$("$GPULAB" "$c" --help)" = "$output" ]
	done
}

@test "-h after a topic and in a lesson subcommand" {
	run "$GPULAB" run transpose -h
	assert_success
	assert_line --index 0 --partial "usage: gpulab run TOPIC"
	run "$GPULAB" lesson check -h
	assert_success
	assert_line --index 0 --partial "usage: gpulab lesson"
}

@test "-V, --version and version print the version; help of an unknown command suggests" {
	for a in -V --version version; do
		run "$GPULAB" $a
		assert_success
		assert_output --regexp '^gpulab [0-9]+\.[0-9]+'
	done
	run "$GPULAB" help rnu
	assert_failure 2
	assert_output --partial "did you mean 'run'"
	run "$GPULAB" versoin
	assert_failure 2
	assert_output --partial "did you mean 'version'"
}

@test "a single unknown letter gets no far-fetched suggestion" {
	run "$GPULAB" run transpose -u
	assert_failure 2
	assert_output --partial "unknown option '-u' for run"
	refute_output --partial "did you mean"
	run "$GPULAB" run transpose -x --backend sim --db "$DB"
	assert_failure 2
	refute_output --partial "--n"
}

@test "global options before the command" {
	"$GPULAB" run transpose --size 32 --variant copy --backend sim --db "$DB" >/dev/null 2>&1
	run "$GPULAB" --db "$DB" --json report last
	assert_success
	[ "$(jq -r '.launches[0].variant' <<<"$output")" = copy ]
	run "$GPULAB" --db="$DB" -q --csv report
	assert_success
	assert_line --index 0 --partial "run_id"
	run "$GPULAB" --frob list
	assert_failure 2
	assert_output --partial "unknown option '--frob' before the command"
}

@test "a format a command cannot print is refused with exit 2 and not listed in its help" {
	run "$GPULAB" view gemm --json
	assert_failure 2
	assert_output --partial "view prints text only: --json makes no sense here"
	run "$GPULAB" --csv lesson list
	assert_failure 2
	assert_output --partial "lesson prints text only"
	run "$GPULAB" doctor --csv
	assert_failure 2
	assert_output --partial "doctor prints a table or --json, not --csv"
	run "$GPULAB" view --help
	refute_output --partial "--json"
	run "$GPULAB" doctor --help
	assert_output --partial "--json"
	refute_output --partial "--csv"
}

@test "--json and --csv together are refused, wherever they stand, before anything runs" {
	run "$GPULAB" runs --json --csv --db "$DB"
	assert_failure 2
	assert_output --partial "--json and --csv exclude each other: give one of them"
	run "$GPULAB" --csv run transpose --size 32 --variant copy --json --db "$DB"
	assert_failure 2
	assert_output --partial "--json and --csv exclude each other"
	[ ! -e "$DB" ]
	# the same one twice is no conflict
	run "$GPULAB" --json list --json
	assert_success
}

@test "help is wrapped: to 80 columns without a terminal, to \$COLUMNS when set; continuations under their column" {
	commands | while read -r c; do
		env -u COLUMNS "$GPULAB" help "$c" | awk -v c="$c" 'length($0) > 80 { print c ": " $0; bad = 1 } END { exit bad }'
	done
	env -u COLUMNS "$GPULAB" --help | awk 'length($0) > 80 { print; bad = 1 } END { exit bad }'
	run env -u COLUMNS "$GPULAB" help view
	# a view's description goes on under its column, not at the margin
	assert_line "  gemm        one k per step: the grid of CTA tiles over C, the K slab of A and"
	assert_line --regexp '^              B, As/Bs as filled, every warp'
	[ "$(COLUMNS=70 "$GPULAB" help view | awk '{ if (length($0) > m) m = length($0) } END { print m }')" -le 70 ]
	[ "$(COLUMNS=200 "$GPULAB" help view | awk '{ if (length($0) > m) m = length($0) } END { print m }')" -gt 100 ]
}

@test "every format a help page lists works" {
	"$GPULAB" run transpose --size 32 --variant copy --backend sim --db "$DB" >/dev/null 2>&1
	run "$GPULAB" list --json
	assert_success
	jq -e . <<<"$output" >/dev/null
	run "$GPULAB" query "SELECT variant FROM launches" --csv --db "$DB"
	assert_success
	assert_line --index 1 copy
	run --separate-stderr "$GPULAB" doctor --json --db "$DB"
	jq -e .checks <<<"$output" >/dev/null
}

@test "devices --json without a GPU prints an object with the reason" {
	"$GPULAB" devices >/dev/null 2>&1 && skip "a GPU is present"
	run --separate-stderr "$GPULAB" devices --json
	assert_failure 3
	[ "$(jq -r '.devices | length' <<<"$output")" = 0 ]
	jq -r .error <<<"$output" | grep -q "CUDA"
}

@test "colour: --color always paints tables and verdicts, never and NO_COLOR do not, empty NO_COLOR is unset" {
	"$GPULAB" run transpose --size 32 --variant copy --backend sim --db "$DB" >/dev/null 2>&1
	run "$GPULAB" report --color always --db "$DB"
	assert_output --partial $'\033[32myes'
	assert_output --partial $'\033[1mvariant'
	run "$GPULAB" --color never report --db "$DB"
	refute_output --partial $'\033['
	# auto: not a terminal here, so no colour whatever NO_COLOR says
	NO_COLOR= run "$GPULAB" report --db "$DB"
	refute_output --partial $'\033['
	run "$GPULAB" report --color sometimes --db "$DB"
	assert_failure 2
	assert_output --partial "--color takes auto, always or never (got 'sometimes')"
}

@test "colour auto on a terminal: on unless NO_COLOR is set and not empty" {
	command -v script >/dev/null || skip "script(1) is not installed"
	"$GPULAB" run transpose --size 32 --variant copy --backend sim --db "$DB" >/dev/null 2>&1
	unset NO_COLOR
	run script -qec "$GPULAB report --db $DB" /dev/null
	assert_output --partial $'\033[32myes'
	NO_COLOR= run script -qec "$GPULAB report --db $DB" /dev/null
	assert_output --partial $'\033[32myes'
	NO_COLOR=1 run script -qec "$GPULAB report --db $DB" /dev/null
	refute_output --partial $'\033[32m'
}

@test "the backend line: once per terminal session or with -v, only when gpulab chose; stored for report and JSON" {
	unset XDG_RUNTIME_DIR # the session markers go under the test's own HOME
	local why="backend sim: no usable GPU here (no CUDA driver: libcuda.so.1 cannot be loaded; 'gpulab devices' says why)"
	"$GPULAB" devices >/dev/null 2>&1 && why=$("$GPULAB" -v run transpose --size 32 --variant copy --db "$DB" 2>&1 >/dev/null)
	# not on a terminal: not said (scripts and pipes read it from report and --json)
	run --separate-stderr "$GPULAB" run transpose --size 32 --variant copy,naive --db "$DB"
	assert_success
	[ -z "$stderr" ]
	# -v: said, once per command, whatever said it before
	run --separate-stderr "$GPULAB" -v run transpose --size 32 --variant copy,naive --db "$DB"
	[ "$stderr" = "gpulab: $why" ]
	run --separate-stderr "$GPULAB" run transpose --size 32 --variant copy --backend sim -v --db "$DB"
	[ -z "$stderr" ]
	run --separate-stderr "$GPULAB" -q -v run transpose --size 32 --variant copy --db "$DB"
	[ -z "$stderr" ]
	# every run keeps it: report shows it under the table, --json as backend_note
	run "$GPULAB" report 1 --db "$DB"
	assert_line "  $why"
	run "$GPULAB" report 3 --db "$DB" --json
	[ "$(jq -r .backend_note <<<"$output")" = "backend sim: chosen with --backend sim" ]
	# on a terminal: the first command of the session says it, the next ones do not
	command -v script >/dev/null || skip "script(1) is not installed"
	run script -qec "$GPULAB run transpose --size 32 --variant copy --db $DB >/dev/null; $GPULAB run transpose --size 32 --variant copy --db $DB >/dev/null" /dev/null
	[ "$(grep -c 'backend ' <<<"$output")" = 1 ]
	# a new terminal session is told again
	run script -qec "$GPULAB run transpose --size 32 --variant copy --db $DB >/dev/null" /dev/null
	[ "$(grep -c 'backend ' <<<"$output")" = 1 ]
}

@test "run gemm --size 17 runs the five variants that take 17 and names the two it skipped" {
	run --separate-stderr "$GPULAB" run gemm --size 17 --backend sim --db "$DB" --json
	assert_success
	[ "$(jq -r '[.launches[].variant] | join(",")' <<<"$output")" = naive,coalesced,smem,blocktile1d,blocktile2d ]
	[ "$(jq '[.launches[] | select(.verified)] | length' <<<"$output")" = 5 ]
	[[ "$stderr" == *"skipped gemm vectorized: it moves float4s"*"--n and --k must be multiples of 4 (got n=17, k=17)"* ]]
	[[ "$stderr" == *"skipped gemm warptile: it moves float4s"* ]]
	run --separate-stderr "$GPULAB" run gemm --size 17 --variant all --backend sim --db "$DB" --json
	assert_success
	[ "$(jq '.launches | length' <<<"$output")" = 5 ]
}

@test "an explicit variant that cannot take the size stays an error, before anything is stored" {
	bad_input 2 "gemm warptile moves float4s, so rows must start on 16 bytes" \
		run gemm --size 17 --variant naive,warptile --backend sim --db "$DB"
	assert_output --partial "these variants take this size: --variant naive,coalesced,smem,blocktile1d,blocktile2d"
}

@test "progress on a terminal names the variant, its place and an ETA; each row starts a clean line" {
	command -v script >/dev/null || skip "script(1) is not installed"
	# large enough that the naive GEMM runs past the 1 s before the bar is drawn, on a fast machine too
	run script -qec "$GPULAB run gemm --size 768 --threads 1 --variant naive,smem --backend sim --db $DB" /dev/null
	assert_success
	assert_output --regexp "gemm naive \(1/2\)  \[#* *\] [0-9]+/576 CTAs  [0-9.]+s  ETA [0-9]+s"
	# the bar is cleared (carriage return, blanks, carriage return) before a row is printed: with the
	# carriage returns as line breaks every row starts its own line; the blanks are no wider than the
	# bar (about 60 columns), so they cannot wrap on an 80-column terminal and leave an empty line
	run bash -c "tr '\r' '\n' <<<\"\$1\"" _ "$output"
	assert_line --regexp '^naive +yes +16\.[0-9]+ +32\.00'
	assert_line --regexp '^smem +yes +4\.00 +4\.00'
	assert_line --regexp '^ {40,79}$'
	refute_line --regexp '^ {80,}$'
}
