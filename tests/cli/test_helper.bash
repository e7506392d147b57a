# test_helper.bash — shared setup for gpulab's Bats tests: assertions, the binary, a private database
# and home directory per test, and helpers that read metrics from --json output.
bats_require_minimum_version 1.5.0

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

common_setup() {
	GPULAB="${GPULAB:-$BATS_TEST_DIRNAME/../../build/gpulab}"
	DB="$BATS_TEST_TMPDIR/gpulab.db"
	export HOME="$BATS_TEST_TMPDIR/home"
	export NO_COLOR=1
	# XDG_CACHE_HOME too: the compiled engine's cache is then the test's own, under its HOME, and starts
	# empty, so whether --engine auto finds a compiled kernel never depends on what ran before
	unset GPULAB_DB XDG_DATA_HOME XDG_CACHE_HOME
}

# metric JSON VARIANT NAME: one metric of one variant from `gpulab run --json` output
metric() {
	jq -r --arg v "$2" --arg m "$3" '.launches[] | select(.variant == $v) | .metrics[$m]' <<<"$1"
}

db_hash() {
	sha256sum "$DB" | cut -d' ' -f1
}

# bad_input STATUS MESSAGE ARGS...: with a database holding one run, `gpulab ARGS` fails with STATUS,
# prints MESSAGE, and leaves the database byte-identical.
bad_input() { # expected-status expected-message args...
	local want=$1 msg=$2
	shift 2
	"$GPULAB" run transpose --size 32 --backend sim --db "$DB" >/dev/null 2>&1
	local before
	before=$(db_hash)
	run "$GPULAB" "$@"
	assert_failure "$want"
	assert_output --partial "$msg"
	[ "$(db_hash)" = "$before" ]
}
