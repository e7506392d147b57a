#!/usr/bin/env bats
# gpulab report, list, --help, --version and unknown commands.

setup() {
	load test_helper
	common_setup
}

@test "report last shows the run exactly as run printed it" {
	run --separate-stderr "$GPULAB" run transpose --size 64 --backend sim --db "$DB"
	assert_success
	printed="$output"
	# run prints its rows as the variants finish, before the run has an id: its title lacks "run 1  ",
	# and its last line names the run, as a command that works when pasted (this binary, this
	# database); report adds the backend line run said on stderr; everything else is the same text
	assert_equal "${lines[-1]}" "stored as run 1 ($GPULAB report 1 --db $DB)"
	run --separate-stderr "$GPULAB" report last --db "$DB"
	assert_success
	[ "$output" = "run 1  $(sed '$d' <<<"$printed")
  backend sim: chosen with --backend sim" ]
	run --separate-stderr "$GPULAB" report 1 --db "$DB" --json
	assert_success
	[ "$(jq -r '.run_id' <<<"$output")" = 1 ]
	[ "$(jq '.launches | length' <<<"$output")" = 5 ]
}

@test "report of a run that does not exist" {
	"$GPULAB" run transpose --size 32 --backend sim --db "$DB" >/dev/null 2>&1
	run "$GPULAB" report 99 --db "$DB"
	assert_failure 2
	assert_output --partial "no run 99"
}

@test "report with a run id that is not a number" {
	run "$GPULAB" report abc --db "$DB"
	assert_failure 2
	assert_output --partial "invalid run id 'abc'"
}

@test "report on a database that does not exist yet" {
	run "$GPULAB" report --db "$BATS_TEST_TMPDIR/none.db"
	assert_failure 2
	assert_output --partial "none.db"
	[ ! -e "$BATS_TEST_TMPDIR/none.db" ]
}

@test "list shows every topic, list TOPIC its variants and parameters" {
	run "$GPULAB" list
	assert_success
	assert_output --partial "transpose"
	assert_output --partial "smem_patterns"
	assert_output --partial "gmem_patterns"
	run "$GPULAB" list transpose
	assert_success
	assert_output --partial "swizzled"
	assert_output --partial "--rows"
	run "$GPULAB" list transpose --json
	assert_success
	[ "$(jq '.variants | length' <<<"$output")" = 5 ]
}

@test "list of an unknown topic suggests the nearest" {
	run "$GPULAB" list smem
	assert_failure 2
	assert_output --partial "unknown topic 'smem'"
}

@test "--help lists the commands, --version the version" {
	run "$GPULAB" --help
	assert_success
	assert_output --partial "run "
	assert_output --partial "query "
	run "$GPULAB" --version
	assert_success
	assert_output --regexp "^gpulab [0-9]+\.[0-9]+\.[0-9]+$"
	run "$GPULAB" run --help
	assert_success
	assert_output --partial "usage: gpulab run TOPIC"
}

@test "an unknown command suggests the nearest, no command prints usage" {
	run "$GPULAB" rnu
	assert_failure 2
	assert_output --partial "unknown command 'rnu' (did you mean 'run'?)"
	run "$GPULAB"
	assert_failure 2
	assert_output --partial "usage: gpulab"
}
